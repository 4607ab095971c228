/**
 * arXiv's HTML view of a paper (LaTeXML, `/html/`): the article is one paper with a body field
 * (its full text); `sectionOf` names the heading a point falls under.
 */

import { parseArxivId } from "../../ids.js";
import { fieldText, normalizeText } from "../../anchoring.js";
import { bareHost, fromFieldElements, locationOf } from "../common.js";

/** arXiv's HTML view of a paper (LaTeXML): the article is the paper, its id is in the URL. Older
 * LaTeXML (ar5iv's first conversions, pages made before 0.8.5) writes `div.ltx_document`. */
function arxivHtmlEntry(doc, loc) {
  const article = doc.querySelector("article.ltx_document, div.ltx_document");
  const parsed = parseArxivId(loc.href);
  if (!article || !parsed) return null;
  return { arxiv_id: parsed.id, version: parsed.version, element: article, kind: "arxiv-html" };
}

const SECTION_HEADING = ":scope > h1, :scope > h2, :scope > h3, :scope > h4, :scope > h5, :scope > h6";
/** A sectioning element of LaTeXML: `<section>`, or in older LaTeXML a `div` with a sectioning
 * class (`div.ltx_section`, `div.ltx_subsection`, `div.ltx_paragraph`, …). */
const SECTION_CLASS = /(?:^|\s)ltx_(?:part|chapter|section|subsection|subsubsection|paragraph|subparagraph|appendix|bibliography|index)(?:\s|$)/;

/**
 * The heading a point of an arXiv HTML paper falls under: the title of the innermost section
 * (`section.ltx_section`, `ltx_subsection`, an appendix, the bibliography) or the abstract that
 * holds `node`, as the reader sees it ("3.2 Training the critic"); "" before the first section.
 */
export function sectionOf(node, root) {
  let el = node && (node.nodeType === 1 ? node : node.parentElement);
  for (; el && el !== root; el = el.parentElement) {
    if (el.localName === "section" || SECTION_CLASS.test(el.getAttribute("class") || "") ||
        (el.classList && el.classList.contains("ltx_abstract"))) {
      const heading = el.querySelector(SECTION_HEADING);
      if (heading) return fieldText(heading);
    }
  }
  return "";
}

/** A name's text without footnote and affiliation marks (`<sup>`, LaTeXML's `ltx_sup`). */
function nameText(node) {
  if (node.nodeType === 3) return node.data;
  if (node.nodeType !== 1 || node.localName === "sup" || node.matches(".ltx_sup, .ltx_note")) return "";
  let t = "";
  for (let n = node.firstChild; n; n = n.nextSibling) t += nameText(n);
  return t;
}

/** "A B, C D and E F" (one LaTeX \author for several people) → each name; a name is kept whole
 * when a piece would be a single word ("Smith, Jr."). */
function splitNames(text) {
  const pieces = text.split(/\s*,\s*(?:and\s+)?|\s+and\s+/).filter(Boolean);
  if (pieces.length > 1 && pieces.every((x) => x.includes(" "))) return pieces;
  return [text.replace(/\s*,$/, "")];
}

/** arXiv's HTML view: title, authors (each name before its affiliation), abstract, the body. */
function describeArxivHtml(entry) {
  const article = entry.element;
  const titleEl = article.querySelector(".ltx_title_document");
  const authors = Array.from(article.querySelectorAll(".ltx_authors .ltx_personname")).flatMap((p) => {
    let name = "";
    for (let n = p.firstChild; n && !(n.nodeType === 1 && n.localName === "br"); n = n.nextSibling) {
      name += nameText(n);
    }
    return splitNames(normalizeText(name));
  }).filter(Boolean);
  const abstractEl = article.querySelector(".ltx_abstract > .ltx_p, .ltx_abstract p");
  const paper = fromFieldElements(titleEl, abstractEl, authors, { body: article });
  // An abstract of several paragraphs is saved whole (the field, where abstract highlights are
  // anchored, stays its first paragraph: that is the start of the saved text, offsets agree;
  // a highlight in a later paragraph is a body highlight under "Abstract").
  const paragraphs = abstractEl ? Array.from(article.querySelectorAll(".ltx_abstract .ltx_p")) : [];
  if (paragraphs.length > 1 && paragraphs[0] === abstractEl) {
    paper.abstract = paragraphs.map((q) => fieldText(q)).filter(Boolean).join(" ");
  }
  return paper;
}

export const arxivhtml = {
  name: "arxivhtml",
  hosts: ["arxiv.org"],
  match: (loc) => bareHost(loc.hostname) === "arxiv.org" && loc.pathname.startsWith("/html/"),
  find(doc) {
    const e = arxivHtmlEntry(doc, locationOf(doc));
    return e ? [e] : [];
  },
  describe: { "arxiv-html": describeArxivHtml },
};
