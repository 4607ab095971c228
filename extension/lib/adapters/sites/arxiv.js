/**
 * arXiv: abstract pages (`/abs/`, Highwire `citation_*` tags) and listings (`/list/`, `dl >
 * dt/dd`). The paper of an arXiv or alphaXiv tab can also be read from its URL alone
 * (`paperFromUrl`: a PDF tab, where no content script runs).
 */

import { normalizeUrl, parseArxivId } from "../../ids.js";
import { fieldText, normalizeText } from "../../anchoring.js";
import { bareHost, baseOf, findFieldElement, fromFieldElements, locationOf, paperLinkId, titleHeading } from "../common.js";
import { readCitationMeta } from "../meta/highwire.js";

/** An entry from the `citation_*` tags (arXiv /abs/ pages, and alphaXiv paper pages without
 * JSON-LD). */
export function citationEntry(doc) {
  const meta = readCitationMeta(doc);
  if (!meta) return null;
  const loc = locationOf(doc);
  const parsed = (meta.arxiv_id && parseArxivId(meta.arxiv_id)) || parseArxivId(loc.href);
  const heading = titleHeading(doc, meta.title);
  const element = doc.querySelector("#abs") || (heading && heading.parentElement) || doc.body;
  return {
    arxiv_id: parsed ? parsed.id : null,
    version: parsed ? parsed.version : null,
    // The page's address as the server keys it: no fragment, no utm_ parameters.
    url: parsed ? null : normalizeUrl(loc.href),
    element,
    kind: "meta",
    heading,
  };
}

export function describeCitation(entry, doc) {
  const meta = readCitationMeta(doc);
  const blockquote = entry.element.querySelector("blockquote");
  // Pages of 2020 and before have no citation_abstract: the abstract is the blockquote's text
  // after its "Abstract:" label.
  const abstract = normalizeText(meta.abstract) || (blockquote ? normalizeText(blockquote.textContent).replace(/^Abstract:\s*/, "") : "");
  return {
    title: normalizeText(meta.title),
    authors: meta.authors.map(normalizeText),
    authors_more: 0,
    abstract,
    published: meta.published,
    affiliations: [...new Set(meta.affiliations.map(normalizeText))],
    topics: [],
    doi: meta.doi,
    fields: {
      title: entry.heading || null,
      abstract: (blockquote && fieldText(blockquote) === abstract ? blockquote : null) || findFieldElement(entry.element, abstract),
    },
  };
}

function arxivListEntries(doc) {
  const base = baseOf(doc);
  const out = [];
  for (const dt of doc.querySelectorAll("dl > dt")) {
    const dd = dt.nextElementSibling;
    if (!dd || dd.tagName !== "DD") continue;
    let parsed = null;
    for (const a of dt.querySelectorAll("a[href]")) {
      parsed = paperLinkId(a, base);
      if (parsed) break;
    }
    if (parsed) out.push({ arxiv_id: parsed.id, version: parsed.version, element: dd, kind: "arxiv-list", dt });
  }
  return out;
}

function describeArxivList(entry) {
  const dd = entry.element;
  let titleEl = null;
  let authorsEl = null;
  for (const div of dd.querySelectorAll("div")) {
    if (div.querySelector("div")) continue;
    const raw = normalizeText(div.textContent);
    if (!titleEl && raw.startsWith("Title:")) titleEl = div;
    if (!authorsEl && div.querySelector('a[href*="searchtype=author"], a[href^="/a/"], a[href*="arxiv.org/a/"]')) authorsEl = div;
  }
  const abstractEl = dd.querySelector("p");
  const authors = authorsEl ? Array.from(authorsEl.querySelectorAll("a")).map((a) => fieldText(a)).filter(Boolean) : [];
  return fromFieldElements(titleEl, abstractEl, authors);
}

/** The paper an arXiv or alphaXiv tab shows, from its URL alone (an abstract, a PDF, the HTML
 * view, an alphaXiv paper page): {arxiv_id, version}, or null (a listing, another site). */
export function paperFromUrl(url) {
  let u;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  const host = u.hostname.replace(/^(www|export)\./, "");
  if (u.protocol !== "https:" && u.protocol !== "http:") return null;
  if (host !== "arxiv.org" && host !== "alphaxiv.org") return null;
  if (!/^\/(abs|pdf|html|format|overview)\//.test(u.pathname)) return null;
  const parsed = parseArxivId(u.origin + u.pathname);
  return parsed ? { arxiv_id: parsed.id, version: parsed.version } : null;
}

export const arxiv = {
  name: "arxiv",
  hosts: ["arxiv.org"],
  match: (loc) => bareHost(loc.hostname) === "arxiv.org" && /^\/(?:abs|list)\//.test(loc.pathname),
  find(doc) {
    const loc = locationOf(doc);
    if (loc.pathname.startsWith("/list/")) return arxivListEntries(doc);
    const e = citationEntry(doc);
    return e ? [e] : [];
  },
  describe: { meta: describeCitation, "arxiv-list": describeArxivList },
};
