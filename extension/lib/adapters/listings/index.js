/**
 * Listing pages: the sites whose pages list many papers, each paper marked with its own Save
 * control and saved state (one lookup for the page). One file per site, each a reader
 * `{name, hosts, match(url), find(doc) → [{element, paper, fields}]}` where `paper` is
 * `{title, authors, arxivId?, version?, doi?, url, pdfUrl?, extraUrls?, venue?, venueKind?, year?,
 * abstract?, pages?}` read off the page, and `fields` the title and abstract elements. A listed
 * paper's identities are what lib/identities.js's identitiesOf gives for its id, DOI and addresses:
 * the one rule of what an address identifies, as for every other page.
 *
 * LISTING_ADAPTERS are those readers in the adapter registry's shape (the host in `match`, the
 * page side's entries of kind "listing" from `find`, with `describe` and `fields` for that kind).
 * LISTING_HOSTS are the named listing hosts: only there do marks go in the page's DOM (a page
 * elsewhere must not learn what is in the library). `listingEntries(doc)` gives a listing page's
 * entries, or null when no listing adapter reads the page. Pure DOM, no chrome.*.
 */

import { identitiesOf } from "../../identities.js";
import { normalizeUrl, parseArxivId } from "../../ids.js";
import { acl } from "./acl.js";
import { arxiv } from "./arxiv.js";
import { cvf } from "./cvf.js";
import { dblp } from "./dblp.js";
import { huggingface } from "./huggingface.js";
import { neurips } from "./neurips.js";
import { openreview } from "./openreview.js";
import { pmlr } from "./pmlr.js";
import { pubmed } from "./pubmed.js";
import { scholar } from "./scholar.js";
import { semanticscholar } from "./semanticscholar.js";

/** The sites' adapters as they read a page: `find(doc)` → [{element, paper, fields}]. */
export const SITE_READERS = [scholar, semanticscholar, openreview, dblp, acl, pmlr, neurips, cvf, huggingface, arxiv, pubmed];

/**
 * The listing adapters, in the registry's shape: `match(url)` holds the host too, `find(doc)`
 * gives the page side's entries (kind "listing", see listingEntries), and `describe`/`fields`
 * read an entry of that kind.
 */
export const LISTING_ADAPTERS = SITE_READERS.map((site) => ({
  name: site.name,
  hosts: site.hosts,
  match: (url) => onHosts(site, url) && site.match(url),
  find: (doc) => asEntries(site, doc),
  describe: { listing: describeListed },
  fields: { listing: (entry) => entry.fields },
}));

/** The named listing hosts: only their pages get saved marks in the page's own DOM. */
export const LISTING_HOSTS = new Set(SITE_READERS.flatMap((a) => a.hosts));

function onHosts(site, url) {
  return (url.protocol === "https:" || url.protocol === "http:") && site.hosts.includes(url.hostname.toLowerCase());
}

/** The adapter that reads the page at `url` (a URL or string), or null. */
export function listingAdapterFor(url) {
  let u;
  try {
    u = typeof url === "string" ? new URL(url) : url;
  } catch {
    return null;
  }
  return LISTING_ADAPTERS.find((a) => a.match(u)) || null;
}

/** A listed paper as papershelf saves it: authors, venue and year in the server's fields. */
export function describeListed(entry) {
  const p = entry.paper;
  const out = {
    title: p.title || "",
    authors: p.authors || [],
    authors_more: 0,
    abstract: p.abstract || "",
    published: p.year ? String(p.year) : null,
    affiliations: [],
    topics: [],
    doi: p.doi || null,
    pdf_url: p.pdfUrl || null,
    fields: { title: entry.fields ? entry.fields.title : null, abstract: entry.fields ? entry.fields.abstract : null },
  };
  if (p.venue && p.venueKind === "journal") out.journal = p.venue;
  else if (p.venue && p.venueKind === "booktitle") out.booktitle = p.venue;
  if (p.pages) out.pages = p.pages;
  return out;
}

/** A site reader's entries as the page side's: [{arxiv_id, version, url, pdf_url, element,
 * kind: "listing", site, paper, fields, identities}]; an entry that names no paper is left out. */
function asEntries(site, doc) {
  const out = [];
  for (const e of site.find(doc)) {
    const p = e.paper;
    const parsed = p.arxivId ? parseArxivId(p.arxivId) : p.url && /arxiv\.org\/(?:abs|pdf)\//.test(p.url) ? parseArxivId(p.url) : null;
    if (parsed) p.arxivId = parsed.id;
    const url = normalizeUrl(p.url);
    if (!parsed && !url) continue;
    out.push({
      arxiv_id: parsed ? parsed.id : null,
      version: p.version || (parsed && parsed.version) || null,
      url,
      pdf_url: p.pdfUrl || null,
      element: e.element,
      kind: "listing",
      site: site.name,
      paper: p,
      fields: e.fields || { title: null, abstract: null },
      identities: identitiesOf({ url: p.url, doi: p.doi, arxivId: p.arxivId, pdfUrl: p.pdfUrl, extraUrls: p.extraUrls }),
    });
  }
  return out;
}

/** The papers of a listing page (entries of kind "listing"), or null when the page is not a
 * listing a listing adapter reads (another host, or another page of a listing host). */
export function listingEntries(doc) {
  const adapter = doc.location ? listingAdapterFor(doc.location.href) : null;
  return adapter ? adapter.find(doc) : null;
}
