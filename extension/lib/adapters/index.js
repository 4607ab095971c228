/**
 * Page adapters: find the papers on a page and read what the page says about each. One table
 * (as hypothesis/client's annotator/integrations/): the site adapters (sites/*.js: alphaXiv,
 * arXiv abstract and listing pages, arXiv HTML, ScienceDirect, IEEE Xplore, OpenReview, NeurIPS
 * proceedings, ACM DL), the
 * listing adapters (listings/), and, on any other page, the paper its embedded metadata
 * describes (meta/: Highwire, Dublin Core, PRISM, JSON-LD, COinS, Open Graph with a DOI).
 * An adapter is `{name, hosts, match(location), find(doc) → entries, describe: {kind: fn},
 * fields?: {kind: fn}}`.
 *
 * `findPaperElements(doc)` is the cheap part (ids and elements, used to mark a page);
 * `describePaper(entry)` reads the fields when they are needed (save, highlight).
 * `findPapersOnPage(doc)` does both. `marksInPage(url)`: whether a page may show saved state in
 * its own DOM (alphaXiv, arXiv and the named listing sites); elsewhere the page learns nothing
 * of the library. Pure DOM, no chrome.*.
 */

import { arxivAbsUrl } from "../ids.js";
import { LIMITS } from "../limits.js";
import { bareHost, locationOf } from "./common.js";
import { describeEmbedded, embeddedEntry, embeddedPaper } from "./embedded.js";
import { LISTING_ADAPTERS, LISTING_HOSTS } from "./listings/index.js";
import { acm } from "./sites/acm.js";
import { alphaxiv } from "./sites/alphaxiv.js";
import { arxiv } from "./sites/arxiv.js";
import { arxivhtml } from "./sites/arxivhtml.js";
import { ieee } from "./sites/ieee.js";
import { neurips } from "./sites/neurips.js";
import { openreview } from "./sites/openreview.js";
import { sciencedirect } from "./sites/sciencedirect.js";

export { parseDate } from "./common.js";
export { readCitationMeta } from "./meta/highwire.js";
export { readEmbeddedMetadata } from "./meta/index.js";
export { paperFromUrl } from "./sites/arxiv.js";
export { sectionOf } from "./sites/arxivhtml.js";

/** The site adapters, first match wins. */
export const SITE_ADAPTERS = [alphaxiv, arxiv, arxivhtml, sciencedirect, ieee, openreview, neurips, acm];

/** Hosts whose pages may carry saved marks: the sites papershelf began on, and the listings. */
const MARKING_HOSTS = new Set(["alphaxiv.org", "arxiv.org", ...[...LISTING_HOSTS].map(bareHost)]);

/** May the page at `url` show what the library holds in its own DOM? */
export function marksInPage(url) {
  try {
    const u = new URL(url);
    return (u.protocol === "https:" || u.protocol === "http:") && MARKING_HOSTS.has(bareHost(u.hostname));
  } catch {
    return false;
  }
}

const DESCRIBERS = { embedded: describeEmbedded, listing: describeListing };
const FIELD_READERS = {};
for (const adapter of [...SITE_ADAPTERS, ...LISTING_ADAPTERS]) {
  Object.assign(DESCRIBERS, adapter.describe || {});
  Object.assign(FIELD_READERS, adapter.fields || {});
}

/** A listing adapter's entry `{element, paper}` in the form the page side keys (kind "listing"). */
function asEntry(e) {
  if (!e || !e.element) return null;
  if (e.kind) return e;
  const p = e.paper || {};
  return { kind: "listing", element: e.element, arxiv_id: p.arxivId || p.arxiv_id || null, version: null, url: p.url || null, pdf_url: p.pdfUrl || null, listed: p };
}

function describeListing(entry) {
  const p = entry.listed || {};
  return {
    title: p.title || "",
    authors: p.authors || [],
    authors_more: 0,
    abstract: p.abstract || "",
    published: p.year ? String(p.year) : null,
    affiliations: [],
    topics: [],
    doi: p.doi || null,
    booktitle: p.venue || null,
    pdf_url: p.pdfUrl || null,
    fields: { title: null, abstract: null },
  };
}

/**
 * Every paper entry on the page: [{arxiv_id, version, url, element, kind}]. One entry per
 * element; the same paper may have several (a List-view row and the detail panel). A page that
 * is not a listing has at most one. Safe to run again: it only reads the DOM.
 */
export function findPaperElements(doc) {
  const loc = locationOf(doc);
  for (const adapter of SITE_ADAPTERS) {
    if (adapter.match(loc)) return adapter.find(doc);
  }
  if (marksInPage(loc.href)) {
    for (const adapter of LISTING_ADAPTERS) {
      if (adapter.match(loc)) return adapter.find(doc).map(asEntry).filter(Boolean);
    }
  }
  const e = embeddedEntry(doc);
  return e ? [e] : [];
}

/**
 * The full record for an entry from findPaperElements:
 * {arxiv_id, version, url, title, authors, authors_more, abstract, published, affiliations,
 *  topics, element, fields: {title, abstract}} and, from a publisher's page, doi, journal,
 *  booktitle, volume, number, pages, publisher, entry_type, pdf_url.
 */
export function describePaper(entry, doc = entry.element.ownerDocument) {
  const describe = DESCRIBERS[entry.kind] || DESCRIBERS["alphaxiv-listing"];
  const d = describe(entry, doc);
  return {
    arxiv_id: entry.arxiv_id || null,
    version: entry.version || null,
    url: entry.url || null,
    ...d,
    element: entry.element,
  };
}

/** Just the elements of an entry's fields ({title, abstract}), for anchoring highlights. */
export function paperFields(entry, doc = entry.element.ownerDocument) {
  const read = FIELD_READERS[entry.kind];
  return read ? read(entry, doc) : describePaper(entry, doc).fields;
}

/** Every paper on the page with its fields. */
export function findPapersOnPage(doc) {
  return findPaperElements(doc).map((e) => describePaper(e, doc));
}

const clip = (text, max) => (typeof text === "string" && text.length > max ? text.slice(0, max) : text);
const VENUE_FIELDS = ["journal", "booktitle", "volume", "number", "pages", "publisher", "entry_type", "pdf_url"];

/** The request body for POST /api/papers from a described paper. A paper the page gives no title
 * for is sent without one: the server titles it `arXiv:<id>` until arXiv's answer replaces that. */
export function toSavePayload(paper, sourceUrl) {
  const body = {};
  if (paper.title) body.title = clip(paper.title, LIMITS.title);
  if (paper.arxiv_id) body.arxiv_id = paper.arxiv_id;
  if (paper.version) body.arxiv_version = paper.version;
  if (paper.doi) body.doi = paper.doi;
  if (paper.url) body.url = paper.url;
  else if (paper.arxiv_id) body.url = arxivAbsUrl(paper.arxiv_id);
  body.authors = (paper.authors || []).slice(0, LIMITS.authors).map((a) => clip(a, LIMITS.author));
  body.authors_more = (paper.authors_more || 0) + Math.max(0, (paper.authors || []).length - LIMITS.authors);
  body.abstract = clip(paper.abstract || "", LIMITS.abstract);
  if (paper.published) body.published = paper.published;
  body.affiliations = paper.affiliations || [];
  body.topics = (paper.topics || []).slice(0, LIMITS.tags).map((t) => clip(t, LIMITS.tag));
  for (const field of VENUE_FIELDS) {
    if (paper[field]) body[field] = paper[field];
  }
  if (sourceUrl) body.source_url = sourceUrl;
  return body;
}

/** The save body for the paper a page shows (the toolbar's "Save this page" on a tab where the
 * content script is not running), read by the same adapters; null when it shows none. */
export function pageSavePayload(doc, sourceUrl) {
  const [entry] = findPaperElements(doc);
  if (entry) return toSavePayload(describePaper(entry, doc), sourceUrl);
  const paper = embeddedPaper(doc);
  return paper ? toSavePayload({ ...paper, topics: paper.keywords }, sourceUrl) : null;
}

export { bareHost };
