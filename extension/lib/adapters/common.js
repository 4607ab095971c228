/**
 * What the adapters share: reading a page's place (its base and location), dates as pages write
 * them, paper links, the elements with visible text, a paper page's title heading, and the
 * element that shows a field's text. Pure DOM, no chrome.*.
 */

import { parseArxivId } from "../ids.js";
import { fieldText, normalizeText } from "../anchoring.js";

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const DATE_TEXT = /^(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]* (\d{1,2}), (\d{4})$/;
export const UI_SELECTOR = "[data-papershelf-ui]";
export const GENERIC_LINK_TEXT = /^(open( paper)?|arxiv|pdf|html|abs(tract)?|view( pdf)?|ask(pdf)?|other|\[?\d+\]?)$/i;

/** "Mar 31, 2026" → "2026-03-31"; "2026/03/31" → "2026-03-31"; else null. */
export function parseDate(text) {
  const t = normalizeText(text);
  let m = DATE_TEXT.exec(t);
  if (m) {
    const month = MONTHS.indexOf(m[1].slice(0, 3).toLowerCase()) + 1;
    return `${m[3]}-${String(month).padStart(2, "0")}-${m[2].padStart(2, "0")}`;
  }
  m = /^(\d{4})[-/](\d{1,2})(?:[-/](\d{1,2}))?/.exec(t);
  if (m) return `${m[1]}-${m[2].padStart(2, "0")}-${(m[3] || "1").padStart(2, "0")}`;
  return null;
}

export function baseOf(doc) {
  return doc.baseURI || (doc.location && doc.location.href) || "https://www.alphaxiv.org/";
}

export function locationOf(doc) {
  try {
    return new URL(doc.location ? doc.location.href : baseOf(doc));
  } catch {
    return new URL("https://www.alphaxiv.org/");
  }
}

/** A host without its `www.`: the form adapters' `hosts` are written in. */
export function bareHost(hostname) {
  return String(hostname || "").toLowerCase().replace(/^www\./, "");
}

// Cheap test before URL parsing: most links on a listing (topics, navigation) are not papers.
const MAYBE_PAPER_HREF = /\/(?:abs|pdf|overview|html|format)\/|^(?:arxiv:)?\d{4}\.\d{4,5}/i;

export const PAPER_LINK_SELECTOR = ["abs", "pdf", "overview", "html", "format"].map((p) => `a[href*="/${p}/"]`).join(", ");

export function paperLinkId(a, base) {
  const href = a.getAttribute("href");
  if (!href || !MAYBE_PAPER_HREF.test(href)) return null;
  return parseArxivId(href, base);
}

const LEAF_SKIP = 'script, style, annotation, [aria-hidden="true"], ' + UI_SELECTOR;

/** Elements with their own visible text, in document order (skipping our UI and hidden parts). */
export function textLeaves(root) {
  const out = [];
  (function walk(el) {
    for (let n = el.firstChild; n; n = n.nextSibling) {
      if (n.nodeType === 3 && n.data.trim()) {
        out.push(el);
        break;
      }
    }
    for (let n = el.firstElementChild; n; n = n.nextElementSibling) {
      if (!n.matches(LEAF_SKIP)) walk(n);
    }
  })(root);
  return out;
}

/** A paper page's title heading: the h1 that reads `title`, else an h2 or h3 that does (ACL
 * Anthology's h2, D-Lib's h3), else the first h1. */
export function titleHeading(doc, title) {
  const text = normalizeText(title);
  const reads = (selector) => Array.from(doc.querySelectorAll(selector)).find((h) => fieldText(h) === text);
  return reads("h1") || reads("h2, h3") || doc.querySelector("h1");
}

/** The element whose reader-visible text is `text` (or starts with it), smallest first. */
export function findFieldElement(root, text) {
  if (!text || !root) return null;
  const head = text.slice(0, 80);
  let found = null;
  for (const leaf of textLeaves(root)) {
    const t = fieldText(leaf);
    if (t === text) return leaf;
    if (!found && t.startsWith(head)) found = leaf;
  }
  return found;
}

/** An arXiv page's paper read from its title and abstract elements and its author names. */
export function fromFieldElements(titleEl, abstractEl, authors, moreFields = {}) {
  return {
    title: titleEl ? fieldText(titleEl) : "",
    authors,
    authors_more: 0,
    abstract: abstractEl ? fieldText(abstractEl) : "",
    published: null,
    affiliations: [],
    topics: [],
    fields: { title: titleEl, abstract: abstractEl, ...moreFields },
  };
}

/** The JSON value that starts at the first `{` or `[` after `marker` in `text` (an assignment
 * in a page's script: `xplGlobal.document.metadata={…};`), or null. Strings are skipped, so a
 * brace inside one does not end the value. */
export function jsonAfter(text, marker) {
  const at = text.indexOf(marker);
  if (at < 0) return null;
  let i = at + marker.length;
  while (i < text.length && text[i] !== "{" && text[i] !== "[") {
    if (!/[\s=:]/.test(text[i])) return null;
    i++;
  }
  let depth = 0;
  for (let j = i, inString = false; j < text.length; j++) {
    const c = text[j];
    if (inString) {
      if (c === "\\") j++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") {
      if (--depth === 0) {
        try {
          return JSON.parse(text.slice(i, j + 1));
        } catch {
          return null;
        }
      }
    }
  }
  return null;
}

/** The text of the first inline script that holds `marker`, or "". */
export function scriptWith(doc, marker) {
  for (const s of doc.querySelectorAll("script:not([src])")) {
    const t = s.textContent;
    if (t.includes(marker)) return t;
  }
  return "";
}
