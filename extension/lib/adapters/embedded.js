/**
 * A page that describes one paper in its embedded metadata (meta/index.js), on any site: one
 * entry, its element the title heading's parent (the bar goes under the heading), or the body.
 * A site adapter may complete what the metadata lacks (`complete(doc, meta)` → a partial record
 * whose fields fill the empty ones).
 */

import { normalizeUrl, parseArxivId } from "../ids.js";
import { baseOf, findFieldElement, locationOf, titleHeading } from "./common.js";
import { FIELDS, readEmbeddedMetadata } from "./meta/index.js";

const hasValue = (v) => (Array.isArray(v) ? v.length > 0 : v !== null && v !== undefined && v !== "");

function absolute(url, doc) {
  if (!url) return null;
  try {
    const u = new URL(url, baseOf(doc));
    return u.protocol === "https:" || u.protocol === "http:" ? u.href : null;
  } catch {
    return null;
  }
}

/** The page's paper: the metadata, completed by `complete` where it has nothing. */
export function embeddedPaper(doc, complete) {
  const meta = readEmbeddedMetadata(doc);
  let extra = null;
  if (complete) {
    try {
      extra = complete(doc, meta);
    } catch {
      extra = null; // a site's own data that does not read is no data
    }
  }
  if (!meta && !extra) return null;
  const paper = { sources: {}, ...(meta || {}) };
  for (const field of FIELDS) {
    if (!hasValue(paper[field]) && extra && hasValue(extra[field])) {
      paper[field] = extra[field];
      paper.sources[field] = "site";
    }
    if (!hasValue(paper[field])) paper[field] = ["authors", "affiliations", "keywords"].includes(field) ? [] : null;
  }
  if (!paper.title) return null;
  if (!paper.entry_type) paper.entry_type = paper.booktitle ? "inproceedings" : paper.journal ? "article" : null;
  paper.pdf_url = absolute(paper.pdf_url, doc);
  return paper;
}

/** The one entry of a page that describes a paper, or null. */
export function embeddedEntry(doc, complete) {
  const paper = embeddedPaper(doc, complete);
  if (!paper) return null;
  const loc = locationOf(doc);
  const parsed = paper.arxiv_id ? parseArxivId(paper.arxiv_id) : null;
  const heading = titleHeading(doc, paper.title);
  const parent = heading && heading.parentElement;
  const element = parent && parent !== doc.documentElement ? parent : doc.body;
  if (!element) return null;
  return {
    kind: "embedded",
    arxiv_id: parsed ? parsed.id : null,
    version: parsed ? parsed.version : null,
    url: normalizeUrl(loc.href),
    pdf_url: paper.pdf_url,
    element,
    heading: heading && heading.parentElement === element ? heading : null,
    paper,
  };
}

/** The full record of an embedded entry. */
export function describeEmbedded(entry, doc) {
  const p = entry.paper;
  const root = (entry.heading && entry.heading.closest("article, main")) || doc.body;
  return {
    title: p.title,
    authors: p.authors,
    authors_more: 0,
    abstract: p.abstract || "",
    published: p.published,
    affiliations: p.affiliations,
    topics: p.keywords,
    doi: p.doi,
    journal: p.journal,
    booktitle: p.booktitle,
    volume: p.volume,
    number: p.number,
    pages: p.pages,
    publisher: p.publisher,
    entry_type: p.entry_type,
    pdf_url: p.pdf_url,
    fields: { title: entry.heading || null, abstract: findFieldElement(root, p.abstract) },
  };
}
