/**
 * ACL Anthology listings: author pages (/people/<name>/), volumes (/volumes/<id>/) and events
 * (/events/<id>/). An entry is found from its links to the paper's Anthology id (`/2023.acl-long.1/`,
 * `/W18-6560/`, and its `.pdf` and `.bib`); the authors are its links to /people/, the venue its
 * link to /volumes/ (on a volume page, the page's title), the abstract the block the page keeps
 * under the id (`#abstract-<id>`). Front matter (`<volume>.0`) is not a paper.
 */

import { absoluteHref, clean, entriesByLinks, linksIn, textOf, titleLink, unique, urlOf } from "./common.js";

const ANTHOLOGY_ID = /^\/(\d{4}\.[a-z0-9-]+\.\d+|[A-Z]\d{2}-\d{4})(?:\.pdf|\.bib|\/)?$/i;

function anthologyIdOf(href, base) {
  const u = urlOf(href, base);
  if (!u || !/(^|\.)aclanthology\.org$/i.test(u.hostname)) return null;
  const m = ANTHOLOGY_ID.exec(u.pathname);
  if (!m || /\.0$/.test(m[1])) return null;
  return m[1];
}

function yearOfId(id) {
  const m = /^(\d{4})\./.exec(id);
  if (m) return m[1];
  const yy = Number(id.slice(1, 3));
  return String(yy >= 50 ? 1900 + yy : 2000 + yy);
}

export const acl = {
  name: "acl",
  hosts: ["aclanthology.org"],
  match: (url) => /^\/(?:people|volumes|events)\//.test(url.pathname),
  find(doc) {
    const base = doc.location.href;
    const onVolume = /^\/volumes\//.test(doc.location.pathname);
    const pageTitle = clean((doc.querySelector("h2") || doc.querySelector("h1") || {}).textContent || "");
    const out = [];
    for (const { element, id, links } of entriesByLinks(doc, anthologyIdOf)) {
      const titleEl = titleLink(links);
      const title = textOf(titleEl);
      if (!title) continue;
      const authors = unique(
        linksIn(element, 'a[href*="/people/"]').map((a) => textOf(a)),
      );
      const volume = element.querySelector('a[href*="/volumes/"]');
      const venue = volume ? textOf(volume) : onVolume ? pageTitle : null;
      const pdf = links.find((a) => /\.pdf$/i.test(a.getAttribute("href")));
      const abstractEl = doc.getElementById(`abstract-${id.replace(/\./g, "--")}`) || doc.getElementById(`abstract-${id}`);
      out.push({
        element,
        paper: {
          title,
          authors,
          url: `https://aclanthology.org/${id}/`,
          pdfUrl: pdf ? absoluteHref(pdf, base) : `https://aclanthology.org/${id}.pdf`,
          venue: venue || null,
          venueKind: "booktitle",
          year: yearOfId(id),
          abstract: abstractEl ? textOf(abstractEl) : "",
        },
        fields: { title: titleEl, abstract: abstractEl || null },
      });
    }
    return out;
  },
};
