/**
 * What the page shows in its own text, for what its tags leave out: the least trusted source,
 * filling only the fields every convention before it left empty.
 *
 * - The title: the heading (h1–h3) that the document's `<title>` names, and only on a page
 *   that declares its own DOI in a `doi` meta tag (D-Lib writes `<meta id="DOI" content=…>`
 *   and nothing else): a title alone makes no page a paper.
 * - The date of a microdata `<meta itemprop="datePublished">` on such a page.
 * - The abstract: the text under the page's "Abstract" heading, up to the next heading or its
 *   keywords (ACL Anthology, D-Lib, most journals' templates).
 * - The publisher a details list labels ("Publisher:" in a `<dt>`, its `<dd>`).
 */

import { cleanAbstract, cleanDate, doiOf, squash } from "./clean.js";

const HEADINGS = "h1, h2, h3, h4, h5, h6";
const ABSTRACT_HEADING = /^abstract\s*[:.]?$/i;
const ENDS_ABSTRACT = /^(?:key\s*words?|index terms|subjects?|cite this|references)\b/i;

const first = (metas, name) => (metas.get(name) || [])[0] || "";

/** The document's title as its heading writes it: the whole `<title>` or its part before a
 * " | site" or " - site" suffix. */
function headingNamedByTitle(doc) {
  const title = squash(doc.title);
  if (!title) return "";
  const names = new Set([title, squash(title.split(/\s+[|–—-]\s+/)[0])]);
  for (const h of doc.querySelectorAll("h1, h2, h3")) {
    const text = squash(h.textContent);
    if (text && names.has(text)) return text;
  }
  return "";
}

/** The text under the first "Abstract" heading: its following siblings up to the next heading
 * or a keywords line. */
export function abstractUnderHeading(doc) {
  const heading = Array.from(doc.querySelectorAll(HEADINGS)).find((h) => ABSTRACT_HEADING.test(squash(h.textContent)));
  if (!heading) return "";
  const parts = [];
  for (let el = heading.nextElementSibling; el; el = el.nextElementSibling) {
    if (el.matches(HEADINGS) || el.querySelector(HEADINGS)) break;
    if (el.matches("script, style, nav, form, button")) continue;
    const text = squash(el.textContent);
    if (!text) continue;
    if (ENDS_ABSTRACT.test(text)) break;
    parts.push(text);
  }
  return cleanAbstract(parts.join(" "));
}

/** The value a details list gives for `label` (`<dt>Publisher:</dt><dd>…</dd>`), or "". */
function labelled(doc, label) {
  const dt = Array.from(doc.querySelectorAll("dt")).find((d) => label.test(squash(d.textContent)));
  const dd = dt && dt.nextElementSibling;
  return dd && dd.matches("dd") ? squash(dd.textContent) : "";
}

export function readPageText(doc, metas) {
  const doi = doiOf(first(metas, "doi"));
  const date = doi ? doc.querySelector('meta[itemprop="datePublished"][content]') : null;
  return {
    title: doi ? headingNamedByTitle(doc) || null : null,
    doi,
    published: date ? cleanDate(date.getAttribute("content")) : null,
    abstract: abstractUnderHeading(doc) || null,
    publisher: labelled(doc, /^publisher\s*:?$/i) || null,
  };
}
