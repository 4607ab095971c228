/**
 * DBLP person pages (dblp.org/pid/…), venue pages (dblp.org/db/conf/…, /db/journals/…) and search
 * results (dblp.org/search?q=…), which list records alike. An
 * entry is a record the page marks with its dblp key (`id="conf/cvpr/HeZRS16"`) and schema.org
 * microdata: the title (`itemprop=name` outside the authors), the authors, the venue
 * (`isPartOf`), the year (`datePublished`), and the electronic editions (`itemprop=url` links:
 * doi.org gives the DOI, arxiv.org the arXiv id). Without an edition the record's dblp page is its
 * address.
 */

import { absoluteHref, arxivIdOfUrl, clean, doiOfUrl, linksIn, textOf, unique } from "./common.js";

const DBLP_KEY = /^(?:conf|journals|books|series|reference|phd|tr|informal|persons|homepages|www)(?:\/[\w.-]+){2,}$/;

function authorName(el) {
  return clean(el.getAttribute("title") || textOf(el)).replace(/\s+\d{4}$/, "");
}

export const dblp = {
  name: "dblp",
  hosts: ["dblp.org", "dblp.uni-trier.de"],
  match: (url) => /^\/(?:pid|pers|db)\//.test(url.pathname) || (url.pathname === "/search" && url.searchParams.has("q")),
  find(doc) {
    const base = doc.location.href;
    const out = [];
    for (const element of doc.querySelectorAll("li[id]")) {
      const key = element.getAttribute("id");
      if (!DBLP_KEY.test(key) || !/ScholarlyArticle$/.test(element.getAttribute("itemtype") || "")) continue;
      const headline = element.querySelector('[itemprop="headline"]') || element;
      const titleEl = [...headline.querySelectorAll('[itemprop="name"]')].find((n) => !n.closest('[itemprop="author"], [itemprop="isPartOf"]'));
      const title = textOf(titleEl).replace(/\.$/, "");
      if (!title) continue;
      const authors = unique([...headline.querySelectorAll('[itemprop="author"] [itemprop="name"]')].map(authorName));
      const partOf = headline.querySelector('[itemprop="isPartOf"] [itemprop="name"]');
      const date = headline.querySelector('[itemprop="datePublished"]');
      const type = element.querySelector('link[itemprop="additionalType"]');
      // A dblp key names the kind of record: conf/… is a paper in proceedings (as the record's
      // type says where the page gives it; dblp's pages of 2015 and 2024 say only "Publication").
      const kind = key.startsWith("conf/") || (type && /#(?:Inproceedings|Incollection)/i.test(type.getAttribute("href") || "")) ? "booktitle" : "journal";
      const editions = linksIn(element, 'a[itemprop="url"][href]')
        .filter((a) => !a.closest('[itemprop="author"]'))
        .map((a) => absoluteHref(a, base))
        .filter(Boolean);
      let doi = null;
      let arxivId = null;
      for (const href of editions) {
        doi = doi || doiOfUrl(href);
        arxivId = arxivId || arxivIdOfUrl(href);
      }
      const url = doi ? `https://doi.org/${doi}` : editions[0] || `https://dblp.org/rec/${key}`;
      out.push({
        element,
        paper: {
          title,
          authors,
          url,
          doi,
          arxivId,
          venue: partOf ? textOf(partOf) : null,
          venueKind: kind,
          year: date ? textOf(date) : null,
          dblpKey: key,
        },
        fields: { title: titleEl, abstract: null },
      });
    }
    return out;
  },
};
