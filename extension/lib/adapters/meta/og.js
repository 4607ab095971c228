/**
 * Open Graph (`og:title`, `og:description`): every page has it, so it describes a paper only
 * when the page names a DOI as its own, in its address, its canonical link, og:url or a `doi`
 * meta tag (a DOI among a blog post's links is not the post's).
 */

import { doiOf, squash, cleanAbstract } from "./clean.js";

const first = (metas, name) => (metas.get(name) || [])[0] || "";

export function pageDoi(doc, metas) {
  const canonical = doc.querySelector('link[rel="canonical"][href]');
  const candidates = [
    first(metas, "doi"), first(metas, "citation_doi"), first(metas, "og:url"),
    canonical ? canonical.getAttribute("href") : "", doc.location ? doc.location.href : "",
  ];
  for (const c of candidates) {
    const doi = /(?:^|\/|doi[:/])10\.\d{4,9}\//i.test(c) ? doiOf(c) : null;
    if (doi) return doi;
  }
  return null;
}

export function readOpenGraph(doc, metas) {
  const title = squash(first(metas, "og:title"));
  if (!title) return null;
  const doi = pageDoi(doc, metas);
  if (!doi) return null;
  return { title, abstract: cleanAbstract(first(metas, "og:description")), doi };
}
