/**
 * arXiv search results (arxiv.org/search/?query=…) and author pages (arxiv.org/a/<id>). An entry
 * is found from its links to the paper (`/abs/<id>`, `/pdf/<id>`). In a search result the title is
 * the entry's first block without a link, the authors its author-search links, the abstract the
 * block whose id ends in `-abstract-full`. An author page lists papers as arXiv's /list/ pages do
 * (`<dt>` with the links, `<dd>` with "Title:" and the authors); the mark goes in the `<dd>`.
 */

import { clean, entriesByLinks, linksIn, textOf, unique } from "./common.js";
import { parseArxivId } from "../../ids.js";

const ID_LINK = /\/(?:abs|pdf)\//;
const AUTHOR_LINK = 'a[href*="searchtype=author"], a[href^="/a/"], a[href*="arxiv.org/a/"]';
const LABEL = /^(?:Authors?|Abstract|Submitted|Comments|Journal ref|Subjects|Title):/i;

function parsedOf(href, base) {
  return href && ID_LINK.test(href) ? parseArxivId(href, base) : null;
}

function idOf(href, base) {
  const parsed = parsedOf(href, base);
  return parsed ? parsed.id : null;
}

/** The id and the version the entry's links name (the first link with a version). */
function split(id, links, base) {
  const versions = links.map((a) => parsedOf(a.getAttribute("href"), base)).filter((p) => p && p.version);
  return { id, version: versions.length ? versions[0].version : null };
}

function searchEntry(element, { id, version }) {
  const titleEl = [...element.children].find((c) => !c.matches("a") && !c.querySelector("a[href]") && textOf(c) && !LABEL.test(textOf(c)));
  const title = textOf(titleEl);
  if (!title) return null;
  const authors = unique(linksIn(element, AUTHOR_LINK).map((a) => textOf(a)));
  const abstractEl = element.querySelector('[id$="-abstract-full"]');
  const abstract = abstractEl ? clean(textOf(abstractEl).replace(/\s*△ Less\s*$/, "")) : "";
  return {
    element,
    paper: { title, authors, arxivId: id, version, url: `https://arxiv.org/abs/${id}`, pdfUrl: `https://arxiv.org/pdf/${id}`, abstract },
    fields: { title: titleEl, abstract: abstractEl },
  };
}

function listEntry(dt, { id, version }) {
  const dd = dt.nextElementSibling;
  if (!dd || dd.localName !== "dd") return null;
  let titleEl = null;
  for (const div of dd.querySelectorAll("div")) {
    if (!div.querySelector("div") && /^Title:/.test(textOf(div))) {
      titleEl = div;
      break;
    }
  }
  const title = clean(textOf(titleEl).replace(/^Title:\s*/, ""));
  if (!title) return null;
  const authors = unique(linksIn(dd, AUTHOR_LINK).map((a) => textOf(a)));
  const abstractEl = dd.querySelector("p");
  return {
    element: dd,
    paper: { title, authors, arxivId: id, version, url: `https://arxiv.org/abs/${id}`, pdfUrl: `https://arxiv.org/pdf/${id}`, abstract: abstractEl ? textOf(abstractEl) : "" },
    fields: { title: titleEl, abstract: abstractEl },
  };
}

export const arxiv = {
  name: "arxiv",
  hosts: ["arxiv.org", "www.arxiv.org"],
  match: (url) => /^\/(?:search\/|a\/)/.test(url.pathname),
  find(doc) {
    const out = [];
    const base = doc.location.href;
    for (const { element, id, links } of entriesByLinks(doc, idOf)) {
      const dt = element.localName === "dt" ? element : element.closest("dt");
      const paper = split(id, links, base);
      const entry = dt ? listEntry(dt, paper) : searchEntry(element, paper);
      if (entry) out.push(entry);
    }
    return out;
  },
};
