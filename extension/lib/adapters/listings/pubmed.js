/**
 * PubMed search results (pubmed.ncbi.nlm.nih.gov/?term=…). An entry is found from its link to the
 * article (`/<PMID>/`); the title is that link's text, the authors the first text after it, the
 * journal citation the next ("Nat Commun. 2018 May 15;9(1):1911. doi: 10.1038/…"), which gives
 * the journal, the year and the DOI.
 */

import { clean, entriesByLinks, splitAuthorText, textOf, titleLink, urlOf, yearIn } from "./common.js";

const PMID = /^\/(\d{1,9})\/?$/;

function pmidOf(href, base) {
  const u = urlOf(href, base);
  if (!u || !/^pubmed\.ncbi\.nlm\.nih\.gov$/i.test(u.hostname)) return null;
  const m = PMID.exec(u.pathname);
  return m ? m[1] : null;
}

/** The texts after `from` in `element`: each the whole text of an element that has text of its
 * own, in document order (links, controls and our own elements left out). */
function textsAfter(element, from) {
  const out = [];
  let past = false;
  (function walk(el) {
    for (let n = el.firstChild; n; n = n.nextSibling) {
      if (n.nodeType !== 1) continue;
      if (n === from) {
        past = true;
        continue;
      }
      if (n.matches("[data-papershelf-ui], script, style, a, input, button, label")) continue;
      const own = clean([...n.childNodes].filter((c) => c.nodeType === 3).map((c) => c.data).join(""));
      if (past && own) out.push(textOf(n));
      else walk(n);
    }
  })(element);
  return out;
}

export const pubmed = {
  name: "pubmed",
  hosts: ["pubmed.ncbi.nlm.nih.gov"],
  match: (url) => url.pathname === "/" && (url.searchParams.has("term") || url.searchParams.has("linkname")),
  find(doc) {
    const out = [];
    for (const { element, id, links } of entriesByLinks(doc, pmidOf)) {
      const titleEl = titleLink(links);
      const title = clean(textOf(titleEl)).replace(/\.$/, "");
      if (!title) continue;
      // The authors, then the journal citation (the first text after them with a year in it);
      // PubMed repeats both in a short form, for narrow screens.
      const [authorText = "", ...rest] = textsAfter(element, titleEl);
      const citation = rest.find((t) => yearIn(t)) || "";
      const doi = /\bdoi:\s*(10\.\d{4,9}\/\S+?)\.?(?:\s|$)/i.exec(citation);
      const journal = /^(.+?)\.\s/.exec(citation);
      out.push({
        element,
        paper: {
          title,
          authors: splitAuthorText(authorText.replace(/\.$/, "")),
          url: `https://pubmed.ncbi.nlm.nih.gov/${id}/`,
          doi: doi ? doi[1].toLowerCase() : null,
          venue: journal ? journal[1] : null,
          venueKind: "journal",
          year: yearIn(citation.split(";")[0]),
        },
        fields: { title: titleEl, abstract: null },
      });
    }
    return out;
  },
};
