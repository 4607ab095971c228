/**
 * Google Scholar results (scholar.google.com/scholar?q=…). A result is found from its cluster
 * link (`/scholar?q=related:<cluster>:scholar.google.com/`, on every result with a cluster, in the
 * old and the new layout); its paper is the title link of its heading, the line under the heading
 * gives the authors, the venue and the year ("A Author, B Author - Venue, 2019 - host").
 * A result without a title link (a [CITATION] with no page) names no paper: it is not marked.
 */

import { absoluteHref, clean, doiOfUrl, entriesByLinks, linksIn, splitAuthorText, textOf, yearIn } from "./common.js";

const RELATED = /[?&]q=related:([\w-]+):/;

function clusterOf(href) {
  const m = RELATED.exec(href || "");
  return m ? m[1] : null;
}

/** "[PDF][PDF] Title" → "Title": the kind marks Scholar puts before a title. */
function withoutMarks(text) {
  return clean(text).replace(/^(?:\[[A-Z]+\]\s*)+/, "");
}

function byline(heading) {
  for (let el = heading.nextElementSibling; el; el = el.nextElementSibling) {
    const t = textOf(el);
    if (t) return { el, text: t };
  }
  return null;
}

export const scholar = {
  name: "scholar",
  hosts: ["scholar.google.com", "scholar.google.co.uk", "scholar.google.de", "scholar.google.fr", "scholar.google.co.jp", "scholar.google.ca"],
  match: (url) => url.pathname === "/scholar",
  find(doc) {
    const base = doc.location.href;
    const out = [];
    for (const { element, id } of entriesByLinks(doc, clusterOf)) {
      const heading = element.querySelector("h3");
      const link = heading && heading.querySelector("a[href]");
      const url = link && absoluteHref(link, base);
      if (!url) continue;
      const title = withoutMarks(textOf(heading));
      if (!title) continue;
      const line = byline(heading);
      const parts = line ? line.text.split(/\s+-\s+/) : [];
      const authors = parts.length > 1 ? splitAuthorText(parts[0]) : [];
      const where = parts.length > 2 ? parts[1] : "";
      const year = yearIn(where);
      // Scholar cuts long venue names ("Geological Society of …"): a cut name is no venue.
      const named = clean(where.replace(/,?\s*(?:19|20)\d{2}\s*$/, ""));
      const venue = named && !named.includes("…") ? named : null;
      let pdfUrl = /\.pdf$/i.test(new URL(url).pathname) ? url : null;
      for (const a of linksIn(element)) {
        if (pdfUrl) break;
        if (heading.contains(a)) continue;
        if (/\[PDF\]/.test(textOf(a))) pdfUrl = absoluteHref(a, base);
      }
      out.push({
        element,
        scholarCluster: id,
        paper: { title, authors, url, doi: doiOfUrl(url), pdfUrl, venue, year },
        fields: { title: heading, abstract: null },
      });
    }
    return out;
  },
};
