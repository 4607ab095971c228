/**
 * What the extension says of a paper's published version (the server finds it, product.md §13):
 * one line for the notes panel.
 */

const SOURCES = { arxiv: "arXiv's DOI", semantic_scholar: "Semantic Scholar", dblp: "DBLP", crossref: "Crossref" };

/** "Published in NeurIPS 2017 (DBLP) · exports cite it", or "" when no version is known. */
export function publishedLine(paper) {
  const v = paper && paper.published_version;
  if (!v) return "";
  const where = v.venue || v.booktitle || v.journal || "a venue";
  const cites = paper.cite === "preprint" ? "exports cite the preprint" : "exports cite it";
  return `Published in ${where} (${SOURCES[v.source] || v.source}) · ${cites}`;
}
