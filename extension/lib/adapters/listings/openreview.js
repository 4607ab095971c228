/**
 * OpenReview venue and group pages (openreview.net/group?id=ICLR.cc/2024/Conference, a workshop's
 * group). An entry is found from its links to the forum (`/forum?id=<id>`) and the PDF
 * (`/pdf?id=<id>`); the title is the forum link's text, the authors its links to profiles. The
 * venue and year are the group's ("ICLR.cc/2024/Conference" → "ICLR 2024").
 */

import { entriesByLinks, linksIn, textOf, titleLink, unique, urlOf, yearIn } from "./common.js";

function forumOf(href, base) {
  const u = urlOf(href, base);
  if (!u || !/(^|\.)openreview\.net$/i.test(u.hostname)) return null;
  if (u.pathname !== "/forum" && u.pathname !== "/pdf") return null;
  const id = u.searchParams.get("id");
  return id && /^[\w-]{5,}$/.test(id) ? id : null;
}

function venueOf(groupId) {
  const parts = String(groupId || "").split("/");
  const name = (parts[0] || "").replace(/\.cc$|\.org$|\.ai$/, "");
  const year = parts.find((p) => /^(?:19|20)\d{2}$/.test(p)) || yearIn(groupId);
  return { venue: name ? [name, year].filter(Boolean).join(" ") : null, year };
}

export const openreview = {
  name: "openreview",
  hosts: ["openreview.net"],
  match: (url) => url.pathname === "/group" && url.searchParams.has("id"),
  find(doc) {
    const { venue, year } = venueOf(new URL(doc.location.href).searchParams.get("id"));
    const out = [];
    for (const { element, id, links } of entriesByLinks(doc, forumOf)) {
      const titleEl = titleLink(links.filter((a) => /\/forum\?/.test(a.getAttribute("href"))));
      const title = textOf(titleEl);
      if (!title) continue;
      const authors = unique(linksIn(element, 'a[href*="/profile?"]').map((a) => textOf(a)));
      out.push({
        element,
        paper: {
          title,
          authors,
          url: `https://openreview.net/forum?id=${id}`,
          pdfUrl: `https://openreview.net/pdf?id=${id}`,
          venue,
          venueKind: "booktitle",
          year,
        },
        fields: { title: titleEl, abstract: null },
      });
    }
    return out;
  },
};
