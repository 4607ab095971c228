/**
 * Semantic Scholar search (/search?q=…) and author pages (/author/<name>/<id>). An entry is found
 * from its links to the paper (`/paper/[<slug>/]<40 hex digits>`); the title is the longest of
 * their texts, the authors its links to /author/, the year the first date in it; an arXiv or DOI
 * link in the entry gives those identifiers.
 */

import { absoluteHref, arxivIdOfUrl, doiOfUrl, entriesByLinks, linksIn, textOf, titleLink, unique, urlOf, yearIn } from "./common.js";

const PAPER = /^\/(?:paper|arxiv)\/(?:[^/]+\/)?([0-9a-f]{40})$/i;
const DATE = /^(?:\d{1,2} )?(?:(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]* )?(?:19|20)\d{2}$/;

function shaOf(href, base) {
  const u = urlOf(href, base);
  if (!u || !/(^|\.)semanticscholar\.org$/i.test(u.hostname)) return null;
  const m = PAPER.exec(u.pathname);
  return m ? m[1].toLowerCase() : null;
}

function dateIn(element) {
  for (const el of element.querySelectorAll("span, div, time")) {
    if (el.firstElementChild) continue;
    const t = textOf(el);
    if (DATE.test(t)) return yearIn(t);
  }
  return null;
}

export const semanticscholar = {
  name: "semanticscholar",
  hosts: ["www.semanticscholar.org", "semanticscholar.org"],
  match: (url) => /^\/(?:search|author\/)/.test(url.pathname),
  find(doc) {
    const base = doc.location.href;
    const out = [];
    for (const { element, id, links } of entriesByLinks(doc, shaOf)) {
      const titleEl = titleLink(links);
      const title = textOf(titleEl);
      if (!title) continue;
      const authors = unique(linksIn(element, 'a[href*="/author/"]').map((a) => textOf(a)));
      if (!authors.length) continue; // every paper row names its authors; a bare link is not a row
      let arxivId = null;
      let doi = null;
      let pdfUrl = null;
      for (const a of linksIn(element)) {
        const href = absoluteHref(a, base);
        if (!href || shaOf(href)) continue;
        arxivId = arxivId || arxivIdOfUrl(href);
        doi = doi || doiOfUrl(href);
        if (!pdfUrl && /\.pdf$|arxiv\.org\/pdf\//i.test(href)) pdfUrl = href;
      }
      out.push({
        element,
        paper: { title, authors, arxivId, doi, url: `https://www.semanticscholar.org/paper/${id}`, pdfUrl, year: dateIn(element) },
        fields: { title: titleEl, abstract: null },
      });
    }
    return out;
  },
};
