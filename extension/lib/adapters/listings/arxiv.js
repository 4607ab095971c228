/**
 * arXiv search results (arxiv.org/search/?query=…) and author pages (arxiv.org/a/<id>). An entry
 * is found from its links to the paper (`/abs/<id>`, `/pdf/<id>`). In a search result the title is
 * the entry's first block without a link, the authors its author-search links, the abstract the
 * block whose id ends in `-abstract-full`. An author page lists papers as arXiv's /list/ pages do
 * (`<dt>` with the links, `<dd>` with "Title:" and the authors); the mark goes in the `<dd>`.
 */

import { clean, entriesByLinks, textOf, unique } from "./common.js";
import { parseArxivId } from "../../ids.js";

const ID_LINK = /\/(?:abs|pdf)\//;
const AUTHOR_LINK = 'a[href*="searchtype=author"], a[href^="/a/"], a[href*="arxiv.org/a/"]';
const LABEL = /^(?:Authors?|Abstract|Submitted|Comments|Journal ref|Subjects|Title):/i;

function idOf(href, base) {
  if (!href || !ID_LINK.test(href)) return null;
  const parsed = parseArxivId(href, base);
  return parsed ? `${parsed.id}${parsed.version ? `v${parsed.version}` : ""}` : null;
}

function split(key) {
  const m = /^(.+?)(?:v(\d+))?$/.exec(key);
  return { id: m[1], version: m[2] ? Number(m[2]) : null };
}

function searchEntry(element, key) {
  const { id, version } = split(key);
  const titleEl = [...element.children].find((c) => !c.querySelector("a[href]") && textOf(c) && !LABEL.test(textOf(c)));
  const title = textOf(titleEl);
  if (!title) return null;
  const authors = unique([...element.querySelectorAll(AUTHOR_LINK)].map((a) => textOf(a)));
  const abstractEl = element.querySelector('[id$="-abstract-full"]');
  const abstract = abstractEl ? clean(textOf(abstractEl).replace(/\s*△ Less\s*$/, "")) : "";
  return {
    element,
    paper: { title, authors, arxivId: id, version, url: `https://arxiv.org/abs/${id}`, pdfUrl: `https://arxiv.org/pdf/${id}`, abstract },
    fields: { title: titleEl, abstract: abstractEl },
  };
}

function listEntry(dt, key) {
  const dd = dt.nextElementSibling;
  if (!dd || dd.localName !== "dd") return null;
  const { id, version } = split(key);
  let titleEl = null;
  for (const div of dd.querySelectorAll("div")) {
    if (!div.querySelector("div") && /^Title:/.test(textOf(div))) {
      titleEl = div;
      break;
    }
  }
  const title = clean(textOf(titleEl).replace(/^Title:\s*/, ""));
  if (!title) return null;
  const authors = unique([...dd.querySelectorAll(AUTHOR_LINK)].map((a) => textOf(a)));
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
    for (const { element, id } of entriesByLinks(doc, idOf)) {
      const dt = element.localName === "dt" ? element : element.closest("dt");
      const entry = dt ? listEntry(dt, id) : searchEntry(element, id);
      if (entry) out.push(entry);
    }
    return out;
  },
};
