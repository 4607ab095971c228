/**
 * The paper a page's embedded metadata describes, read from every convention it uses and merged
 * field by field in their order of trust: Highwire `citation_*`, Dublin Core, PRISM, JSON-LD,
 * COinS, Open Graph (with a DOI), and last the page's own text (page.js). Each field comes from
 * the most trusted convention that has it (`sources` says which); the authors are one
 * convention's list, not a mix. An abstract that is only a reference line naming the paper's
 * venue (ACL Anthology's og:description: "Authors. Proceedings of …. 2021.") is no abstract, and
 * one cut short with an ellipsis gives way to a later source's whole text that it begins.
 *
 * Not a paper: a page none of them describes, one that names no title, a bot wall (Cloudflare's
 * "Just a moment…", a captcha) or a cookie wall in front of the paper. Pure DOM, no chrome.*.
 */

import { readHighwire } from "./highwire.js";
import { readDublinCore } from "./dublincore.js";
import { readPrism } from "./prism.js";
import { readJsonLd } from "./jsonld.js";
import { readCoins } from "./coins.js";
import { readOpenGraph } from "./og.js";
import { readPageText } from "./page.js";
import { completesAbstract, isReferenceLine } from "./clean.js";

/** In their order of trust. */
export const CONVENTIONS = [
  { name: "highwire", read: readHighwire },
  { name: "dublincore", read: readDublinCore },
  { name: "prism", read: readPrism },
  { name: "jsonld", read: readJsonLd },
  { name: "coins", read: readCoins },
  { name: "og", read: readOpenGraph },
  { name: "page", read: readPageText },
];

export const FIELDS = ["title", "authors", "published", "abstract", "doi", "arxiv_id", "journal", "booktitle", "volume",
  "number", "pages", "publisher", "pdf_url", "entry_type", "affiliations", "keywords"];

/** Every meta tag's values by its name or property (or, wanting both, its id: D-Lib's
 * `<meta id="DOI">`), lowercased: one pass over the head. */
export function metaTags(doc) {
  const metas = new Map();
  for (const m of doc.querySelectorAll("meta[content]")) {
    const name = (m.getAttribute("name") || m.getAttribute("property") || m.getAttribute("id") || "").trim().toLowerCase();
    if (!name) continue;
    const value = (m.getAttribute("content") || "").trim();
    if (!value) continue;
    if (!metas.has(name)) metas.set(name, []);
    metas.get(name).push(value);
  }
  return metas;
}

const WALL_TITLE = /^(?:just a moment|attention required|access denied|please wait|are you a (?:robot|human)|verify(?:ing)? (?:that )?you are (?:a )?human|security check|one more step|checking your browser|captcha|human verification|before you continue|we value your privacy|cookie consent)/i;
const CHALLENGE = '#challenge-form, #challenge-running, #cf-challenge-running, #challenge-error-text, [id^="cf-chl"], .g-recaptcha, .h-captcha, .cf-turnstile, #px-captcha, iframe[src*="captcha"]';

/** A bot wall or a cookie wall in front of the page: nothing there is the paper. */
export function isWall(doc) {
  const title = (doc.title || "").trim();
  if (WALL_TITLE.test(title)) return true;
  if (!doc.querySelector(CHALLENGE)) return false;
  const body = doc.body ? doc.body.textContent || "" : "";
  return body.length < 3000;
}

const hasValue = (v) => (Array.isArray(v) ? v.length > 0 : v !== null && v !== undefined && v !== "");

/**
 * {title, authors, published, abstract, doi, arxiv_id, journal, booktitle, volume, number, pages,
 *  publisher, pdf_url, entry_type, affiliations, keywords, sources: {field: convention}}, or null
 * when the page describes no paper.
 */
export function readEmbeddedMetadata(doc) {
  if (isWall(doc)) return null;
  const metas = metaTags(doc);
  const merged = { sources: {} };
  for (const { name, read } of CONVENTIONS) {
    let record;
    try {
      record = read(doc, metas);
    } catch {
      record = null; // a convention a page writes wrongly is one the page does not have
    }
    if (!record) continue;
    for (const field of FIELDS) {
      if (field === "abstract" && isReferenceLine(record.abstract, merged)) continue;
      if (field === "abstract" && completesAbstract(merged.abstract, record.abstract)) {
        merged.abstract = record.abstract; // the whole of an abstract a tag cut short
        merged.sources.abstract = name;
        continue;
      }
      if (!hasValue(merged[field]) && hasValue(record[field])) {
        merged[field] = record[field];
        merged.sources[field] = name;
      }
    }
  }
  if (!merged.title) return null;
  for (const field of FIELDS) {
    if (!hasValue(merged[field])) merged[field] = field === "authors" || field === "affiliations" || field === "keywords" ? [] : null;
  }
  if (!merged.entry_type) merged.entry_type = merged.booktitle ? "inproceedings" : merged.journal ? "article" : null;
  return merged;
}
