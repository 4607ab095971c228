/**
 * CVF open access listings (openaccess.thecvf.com/CVPR2023?day=all, ICCV, WACV, …). An entry is
 * found from its link to the paper's page (`/content/<conf>/html/<name>_paper.html`), in a `<dt>`;
 * the `<dd>`s after it, up to the next `<dt>`, hold the authors (the author search form's
 * `query_author` values, else its links' text), the PDF (`…/papers/<name>_paper.pdf`) and an
 * arXiv link when there is one. The paper's mark goes in its `<dt>`.
 */

import { absoluteHref, arxivIdOfUrl, entriesByLinks, linksIn, textOf, unique, urlOf } from "./common.js";

const HTML = /^\/content(?:_[\w]+)?\/([\w]+?)\/html\/(?:[\w-]+\/)?(.+?)_paper\.html$/;

function nameOf(href, base) {
  const u = urlOf(href, base);
  if (!u || !/(^|\.)thecvf\.com$/i.test(u.hostname)) return null;
  const m = HTML.exec(u.pathname);
  return m ? m[2] : null;
}

function following(dt) {
  const out = [];
  for (let el = dt.nextElementSibling; el && el.localName !== "dt"; el = el.nextElementSibling) out.push(el);
  return out;
}

export const cvf = {
  name: "cvf",
  hosts: ["openaccess.thecvf.com"],
  match: (url) => /^\/[A-Za-z]+\d{4}(?:_[\w-]+)?$/.test(url.pathname),
  find(doc) {
    const base = doc.location.href;
    const conf = /^\/([A-Za-z]+)(\d{4})/.exec(doc.location.pathname);
    const out = [];
    for (const { element: found, links } of entriesByLinks(doc, nameOf)) {
      const element = found.closest("dt") || found;
      const titleEl = links[0];
      const title = textOf(titleEl);
      if (!title) continue;
      const after = element.localName === "dt" ? following(element) : [];
      let authors = [];
      let pdfUrl = null;
      let arxivId = null;
      for (const dd of after) {
        const names = [...dd.querySelectorAll('input[name="query_author"]')].map((i) => i.getAttribute("value"));
        if (!authors.length && names.length) authors = unique(names.map((n) => n.trim()));
        for (const a of linksIn(dd)) {
          const href = absoluteHref(a, base);
          if (!href) continue;
          if (!pdfUrl && /\/papers\/.+_paper\.pdf$/i.test(href)) pdfUrl = href;
          arxivId = arxivId || arxivIdOfUrl(href);
        }
      }
      if (!authors.length && after[0]) {
        authors = unique(linksIn(after[0], "a").map((a) => textOf(a)));
      }
      const u = urlOf(titleEl.getAttribute("href"), base);
      out.push({
        element,
        paper: {
          title,
          authors,
          url: `${u.origin}${u.pathname}`,
          pdfUrl,
          arxivId,
          venue: conf ? conf[1] : null,
          venueKind: "booktitle",
          year: conf ? conf[2] : null,
        },
        fields: { title: titleEl, abstract: null },
      });
    }
    return out;
  },
};
