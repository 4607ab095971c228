/**
 * PMLR volumes (proceedings.mlr.press/v202/). An entry is found from its links to the paper's
 * page (`/v202/<key>.html`) and PDF (`/v202/<key>/<key>.pdf`); the title is the entry's first
 * block without a link, the authors and the venue ("Proceedings of …, PMLR 202:840-902") the
 * two parts of the block after it. The year is in the volume's heading. Older volumes (2017's
 * layout) give no venue in the entry, only the series and pages ("PMLR 1:1-16"), and link the PDF
 * from another host (proceedings.pmlr.press): the entry's own PDF link is its PDF wherever it
 * points.
 */

import { absoluteHref, clean, entriesByLinks, splitAuthorText, textOf, urlOf, yearIn } from "./common.js";

const PAPER = /^\/(v\d+)\/([\w-]+?)(?:\.html|\.pdf|\/\2\.pdf)$/;

function keyOf(href, base) {
  const u = urlOf(href, base);
  if (!u || !/(^|\.)mlr\.press$/i.test(u.hostname)) return null;
  const m = PAPER.exec(u.pathname);
  return m ? `${m[1]}/${m[2]}` : null;
}

export const pmlr = {
  name: "pmlr",
  hosts: ["proceedings.mlr.press"],
  match: (url) => /^\/v\d+\/?$/.test(url.pathname),
  find(doc) {
    const base = doc.location.href;
    const heading = doc.querySelector("h2") || doc.querySelector("h1");
    const year = yearIn(heading ? heading.textContent : doc.title);
    const out = [];
    for (const { element, id, links } of entriesByLinks(doc, keyOf)) {
      const titleEl = [...element.children].find((c) => !c.querySelector("a[href]") && textOf(c));
      const title = textOf(titleEl);
      if (!title) continue;
      const details = titleEl.nextElementSibling;
      const parts = details ? [...details.children].map((c) => textOf(c)).filter(Boolean) : [];
      const authors = parts.length ? splitAuthorText(parts[0]) : [];
      const venueText = parts[1] || "";
      const pagesMatch = /PMLR\s+\d+:(\d+-\d+)/.exec(venueText);
      const isPdf = (a) => /\.pdf$/i.test((urlOf(a.getAttribute("href"), base) || {}).pathname || "");
      const pdf = links.find(isPdf) || [...element.querySelectorAll("a[href]")].find(isPdf);
      const [volume, key] = id.split("/");
      const openreview = element.querySelector('a[href*="openreview.net/forum?id="]');
      out.push({
        element,
        paper: {
          title,
          authors,
          url: `https://proceedings.mlr.press/${volume}/${key}.html`,
          pdfUrl: pdf ? absoluteHref(pdf, base) : null,
          venue: clean(venueText.replace(/(?:^|,\s*)PMLR\s+\d+:.*$/, "")) || null,
          venueKind: "booktitle",
          year,
          pages: pagesMatch ? pagesMatch[1] : null,
          extraUrls: openreview ? [absoluteHref(openreview, base)] : [],
        },
        fields: { title: titleEl, abstract: null },
      });
    }
    return out;
  },
};
