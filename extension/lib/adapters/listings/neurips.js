/**
 * NeurIPS proceedings years (papers.nips.cc/paper_files/paper/2023, also proceedings.neurips.cc).
 * An entry is found from its link to the paper's abstract page
 * (`/paper_files/paper/<year>/hash/<hash>-Abstract[-<track>].html`), whose text is the title; the
 * authors are the text that follows it. The PDF is the same paper's `file/<hash>-Paper[-<track>].pdf`.
 */

import { clean, entriesByLinks, splitAuthorText, textOf, urlOf } from "./common.js";

const ABSTRACT = /^\/paper_files\/paper\/(\d{4})\/hash\/([0-9a-f]{32})-Abstract(-[\w]+)?\.html$/;

function hashOf(href, base) {
  const u = urlOf(href, base);
  if (!u || !/(^|\.)(?:nips|neurips)\.cc$/i.test(u.hostname)) return null;
  const m = ABSTRACT.exec(u.pathname);
  return m ? m[2] : null;
}

export const neurips = {
  name: "neurips",
  hosts: ["papers.nips.cc", "proceedings.neurips.cc"],
  match: (url) => /^\/paper_files\/paper\/\d{4}\/?$/.test(url.pathname),
  find(doc) {
    const base = doc.location.href;
    const out = [];
    for (const { element, id, links } of entriesByLinks(doc, hashOf)) {
      const titleEl = links[0];
      const title = textOf(titleEl);
      if (!title) continue;
      const u = urlOf(titleEl.getAttribute("href"), base);
      const [, year, , track = ""] = ABSTRACT.exec(u.pathname);
      let authorsText = "";
      for (let n = titleEl.nextSibling; n && !authorsText; n = n.nextSibling) authorsText = clean(n.textContent);
      out.push({
        element,
        paper: {
          title,
          authors: splitAuthorText(authorsText),
          url: `${u.origin}${u.pathname}`,
          pdfUrl: `${u.origin}/paper_files/paper/${year}/file/${id}-Paper${track}.pdf`,
          venue: "Advances in Neural Information Processing Systems",
          venueKind: "booktitle",
          year,
        },
        fields: { title: titleEl, abstract: null },
      });
    }
    return out;
  },
};
