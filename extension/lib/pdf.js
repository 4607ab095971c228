/**
 * PDFs and the reader, as pure rules: the reader's address for a PDF (and back), the PDF link of
 * a paper, a page's normalized text from pdf.js's text content, where a PDF highlight lies in a
 * (maybe new) version of its PDF, what a PDF's own metadata says of its paper, and the
 * declarativeNetRequest rules that open arXiv's PDFs in the reader.
 *
 * A page's text is its text layer's, as lib/anchoring.js's textModel reads it: each text item's
 * string (NFC), an end of line counted as a space, whitespace folded, trimmed; an artifact
 * (marked content tagged Artifact: running heads the text layer hides from readers) left out.
 * A PDF highlight's offsets are in its page's text. Anchoring is lib/anchoring.js's, on that
 * page first; a highlight no longer at its place (another version of the PDF) is also looked for
 * by its exact quote on the other pages (the best context wins), then by the fuzzy match on them
 * (moved and edited); else it is an orphan.
 *
 * Pure: no DOM, no chrome.*; node tests import it.
 */

import { anchor, normalizeText } from "./anchoring.js";
import { parseArxivId } from "./ids.js";

export const READER_PATH = "reader/reader.html";
export const PDF_FIELD = "pdf";

/** An http(s) URL (the only PDFs the reader opens, and the only links it follows). */
export function isHttpUrl(value) {
  try {
    const u = new URL(String(value));
    return u.protocol === "https:" || u.protocol === "http:";
  } catch {
    return false;
  }
}

/** The reader's address for `pdfUrl` under the extension's base URL (`chrome.runtime.getURL("")`),
 * at `page` and highlight `highlight` when given. */
export function readerUrl(base, pdfUrl, { page = null, highlight = null } = {}) {
  const hash = [page ? `page=${page}` : "", highlight != null ? `papershelf-highlight=${highlight}` : ""]
    .filter(Boolean).join("&");
  return `${base}${READER_PATH}?file=${encodeURIComponent(pdfUrl)}${hash ? `#${hash}` : ""}`;
}

/**
 * The PDF's URL from the reader's query string: `?file=<encoded URL>` (our links), or the raw
 * URL itself (a redirect rule substitutes the request's URL unencoded, its own query and all).
 * Null when it is not an http(s) URL.
 */
export function fileFromSearch(search) {
  const s = String(search || "");
  const m = /^\?file=([\s\S]*)$/.exec(s);
  if (!m) return null;
  let value = m[1];
  if (!/^https?:\/\//i.test(value)) {
    try {
      value = decodeURIComponent(value);
    } catch {
      return null;
    }
  }
  return isHttpUrl(value) ? new URL(value).href : null;
}

/** The PDF a reader tab shows: `url` is the reader's own address under `base`
 * (`chrome.runtime.getURL("")`), else null. */
export function pdfOfReaderUrl(base, url) {
  const text = String(url || "");
  const prefix = `${base}${READER_PATH}`;
  if (!base || !text.startsWith(prefix)) return null;
  const rest = text.slice(prefix.length).replace(/#[\s\S]*$/, "");
  return fileFromSearch(rest);
}

/** `#page=3&papershelf-highlight=12` → {page: 3, highlight: "12"} (each null when absent). */
export function readerFragment(hash) {
  const out = { page: null, highlight: null };
  for (const part of String(hash || "").replace(/^#/, "").split("&")) {
    const [k, v = ""] = part.split("=");
    if (k === "page" && /^[1-9]\d{0,5}$/.test(v)) out.page = Number(v);
    if (k === "papershelf-highlight" && /^[\w-]{1,80}$/.test(v)) out.highlight = v;
  }
  return out;
}

/** The PDF link of a paper entry an adapter found: its `pdf_url`, else arXiv's for an arXiv id. */
export function pdfUrlOf(entry) {
  if (entry && isHttpUrl(entry.pdf_url)) return new URL(entry.pdf_url).href;
  if (entry && entry.arxiv_id) return `https://arxiv.org/pdf/${entry.arxiv_id}`;
  return null;
}

/** A tab that shows a PDF, as far as its URL tells: a path ending in .pdf, or arXiv's /pdf/. */
export function isPdfTabUrl(url) {
  if (!isHttpUrl(url)) return false;
  const u = new URL(url);
  return /\.pdf$/i.test(u.pathname) || Boolean(arxivPaperOfPdf(url) && /^\/pdf\//.test(u.pathname)) ||
    (/(^|\.)openreview\.net$/i.test(u.hostname) && u.pathname === "/pdf");
}

/** The arXiv paper a PDF's URL names ({arxiv_id, version}), or null. */
export function arxivPaperOfPdf(url) {
  if (!isHttpUrl(url)) return null;
  const u = new URL(url);
  if (!/^(www\.|export\.)?arxiv\.org$/i.test(u.hostname) && !/^(www\.)?alphaxiv\.org$/i.test(u.hostname)) return null;
  const parsed = parseArxivId(u.origin + u.pathname);
  return parsed ? { arxiv_id: parsed.id, version: parsed.version || null } : null;
}

// ---- a page's text ----------------------------------------------------------------------

/**
 * The normalized text of a page from pdf.js's getTextContent() items, as its text layer reads:
 * [{str, hasEOL}] and marked-content markers ({type: "beginMarkedContent"|…, tag}).
 */
export function pageText(items) {
  const parts = [];
  const artifacts = []; // one flag per open marked content: inside an Artifact?
  for (const item of items || []) {
    if (item.str === undefined) {
      if (item.type === "beginMarkedContent" || item.type === "beginMarkedContentProps") {
        artifacts.push(item.tag === "Artifact" || Boolean(artifacts.at(-1)));
      } else if (item.type === "endMarkedContent") artifacts.pop();
      continue;
    }
    if (artifacts.at(-1)) continue;
    parts.push(String(item.str).normalize("NFC"));
    if (item.hasEOL) parts.push(" ");
  }
  return normalizeText(parts.join(""));
}

/** How much of the stored context agrees around a match: the units of the stored prefix that end
 * right before it, and of the stored suffix that start right after it. */
function contextFit(text, at, h) {
  const prefix = h.prefix || "";
  const suffix = h.suffix || "";
  const before = text.slice(Math.max(0, at.start - prefix.length), at.start);
  const after = text.slice(at.end, at.end + suffix.length);
  let fit = 0;
  while (fit < before.length && before[before.length - 1 - fit] === prefix[prefix.length - 1 - fit]) fit++;
  let tail = 0;
  while (tail < after.length && after[tail] === suffix[tail]) tail++;
  return fit + tail;
}

/**
 * Where PDF highlight `h` ({page, exact, prefix, suffix, start, end}) lies in the PDF whose page
 * texts are `texts` (texts[0] is page 1): {page, start, end, method}, or null (an orphan).
 * Its own page by the whole algorithm, taken at once when the quote stands at its stored place
 * with its context. Else every page that has the exact quote is a candidate too (a new version
 * moves text to other pages): the one whose text around it agrees most with the stored context
 * wins (an exact quote before a fuzzy one, then the nearest page). None: the fuzzy match on
 * the nearest other page that has one.
 */
export function findOnPages(texts, h) {
  const own = Number.isInteger(h.page) ? h.page : 1;
  const candidates = [];
  if (own >= 1 && own <= texts.length) {
    const at = anchor(texts[own - 1], h);
    if (at && at.method === "position") return { page: own, ...at };
    if (at) candidates.push({ page: own, ...at });
  }
  const exact = h.exact || "";
  if (!exact) return null;
  const order = texts.map((_, i) => i + 1).filter((p) => p !== own)
    .sort((a, b) => Math.abs(a - own) - Math.abs(b - own) || a - b);
  const elsewhere = { ...h, start: -1 };
  for (const page of order) {
    if (!texts[page - 1].includes(exact)) continue;
    const at = anchor(texts[page - 1], elsewhere);
    if (at) candidates.push({ page, ...at });
  }
  if (candidates.length) {
    const rank = (c) => [contextFit(texts[c.page - 1], c, h), c.method === "fuzzy" ? 0 : 1, -Math.abs(c.page - own)];
    let best = candidates[0];
    for (const c of candidates.slice(1)) {
      const [a, b] = [rank(c), rank(best)];
      if (a[0] > b[0] || (a[0] === b[0] && (a[1] > b[1] || (a[1] === b[1] && a[2] > b[2])))) best = c;
    }
    return best;
  }
  // Moved and edited: the fuzzy match, on the nearest page that has one.
  for (const page of order) {
    const at = anchor(texts[page - 1], elsewhere);
    if (at) return { page, ...at };
  }
  return null;
}

// ---- the paper a PDF describes ----------------------------------------------------------

const DOI_IN_TEXT = /\b(10\.\d{4,9}\/[^\s"<>]+)/i;
/** Titles that tools write in place of one: a file's name, a word processor's or a slide's
 * placeholder (the server's domain/record.py is_stand_in_title; tests/shared/titles.json). */
const NOT_A_TITLE = /^(untitled|title|document\d*|microsoft word\b.*|slide \d+|.*\.(docx?|tex|dvi|pdf|ps|indd))$/i;

/** Whether a title only names a file or a tool's placeholder (`3442188.3445922.pdf`,
 * `Microsoft Word - draft.docx`, `Untitled`): what a PDF viewer shows where the paper has none. */
export function namesAFile(title) {
  return NOT_A_TITLE.test(clean(title));
}

/** A DOI in free text, lower case, without the punctuation that ends a sentence. */
export function doiIn(text) {
  const m = DOI_IN_TEXT.exec(String(text || ""));
  return m ? m[1].replace(/[.,;:)\]]+$/, "").toLowerCase() : null;
}

function clean(value) {
  return typeof value === "string" ? normalizeText(value) : "";
}

function authorsFrom(value) {
  const text = clean(value);
  if (!text) return [];
  return text.split(/\s*(?:;|\band\b|&|,(?=\s*\S+\s+\S))\s*/).map((a) => a.trim()).filter(Boolean).slice(0, 200);
}

/** The largest text of the first page's upper half: a title, as a reader sees it. */
export function titleFromFirstPage(items, pageHeight) {
  const sized = (items || []).filter((i) => typeof i.str === "string" && i.str.trim() && Array.isArray(i.transform));
  const upper = sized.filter((i) => !pageHeight || i.transform[5] > pageHeight / 2);
  if (!upper.length) return "";
  const sizeOf = (i) => Math.round(Math.hypot(i.transform[2], i.transform[3]) * 10) / 10;
  const largest = Math.max(...upper.map(sizeOf));
  const title = upper.filter((i) => sizeOf(i) === largest).map((i) => i.str).join(" ");
  return clean(title).slice(0, 1000);
}

/**
 * What a PDF says of its paper: {title, authors, doi}, from its document information (Title,
 * Author, a doi key), its XMP metadata (dc:title, dc:creator, prism:doi, dc:identifier) and its
 * first page (a DOI printed on it, its largest text as the title). `metadata` is pdf.js's
 * Metadata (get(name)) or a plain object.
 */
export function paperFromPdfMetadata({ info = {}, metadata = null, firstPage = [], pageHeight = 0 } = {}) {
  const xmp = (name) => {
    if (!metadata) return null;
    return typeof metadata.get === "function" ? metadata.get(name) : metadata[name];
  };
  // pdf.js gives the document information's other keys as a Map (older releases: an object).
  const custom = (info && info.Custom) || {};
  const customKey = (k) => (custom instanceof Map ? custom.get(k) : custom[k]);
  const infoTitle = clean(info.Title);
  const xmpTitle = clean(xmp("dc:title"));
  const title = [xmpTitle, infoTitle].find((t) => t && !namesAFile(t)) || titleFromFirstPage(firstPage, pageHeight);
  const creators = xmp("dc:creator");
  const authors = Array.isArray(creators) && creators.length ? creators.map(clean).filter(Boolean) : authorsFrom(info.Author);
  const identifier = xmp("dc:identifier");
  const doi = doiIn(customKey("doi") || customKey("DOI") || info.doi || info.DOI) || doiIn(xmp("prism:doi")) ||
    doiIn(Array.isArray(identifier) ? identifier.join(" ") : identifier) ||
    doiIn((firstPage || []).map((i) => i.str || "").join(" "));
  return { title, authors, doi };
}

// ---- opening arXiv's PDFs in the reader -------------------------------------------------

export const REDIRECT_RULE_ID = 1;
/** arXiv's PDF addresses (ids with or without a version or .pdf), and the fragment a link may
 * carry (the browser matches rules on the URL with its fragment): it becomes the reader's own
 * (#page=N&papershelf-highlight=ID), since the file's address is put in unencoded. */
export const ARXIV_PDF_REGEX = "^(https://(?:www\\.|export\\.)?arxiv\\.org/pdf/[^?#]+)(#.*)?$";

/** The dynamic rules for `options` ({arxiv: boolean}) with the reader at `readerBase`
 * (chrome.runtime.getURL(READER_PATH)): arXiv's PDFs, opened in a tab, go to the reader. */
export function redirectRules(readerBase, { arxiv = true } = {}) {
  if (!arxiv) return [];
  return [{
    id: REDIRECT_RULE_ID,
    priority: 1,
    action: { type: "redirect", redirect: { regexSubstitution: `${readerBase}?file=\\1\\2` } },
    condition: { regexFilter: ARXIV_PDF_REGEX, resourceTypes: ["main_frame"] },
  }];
}

/** A session rule that lets tab `tabId` open `url` itself (the reader's "Original PDF"). */
export function originalPdfRule(id, url, tabId) {
  return {
    id,
    priority: 2,
    action: { type: "allow" },
    condition: { urlFilter: `|${url}|`, resourceTypes: ["main_frame"], tabIds: [tabId] },
  };
}
