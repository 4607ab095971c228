/**
 * Hugging Face daily papers (huggingface.co/papers, /papers/date/…, /papers/week/…, ?date=…). An
 * entry is found from its links to `/papers/<arXiv id>` (thumbnail, title, comments); the title is
 * the longest of their texts. The page shows no author names: its avatars' `title`s are Hugging
 * Face account names ("mannatsingh" on the real page of 2024-08-01). Every author's name is in the
 * data the page hydrates its list from (`data-target="DailyPapers"`, `data-props`:
 * `dailyPapers[].paper.{id, authors[].name}`); without it the authors are left to the server,
 * which completes them from arXiv.
 */

import { clean, entriesByLinks, textOf, titleLink, unique, urlOf } from "./common.js";
import { parseArxivId } from "../../ids.js";

const PAPER = /^\/papers\/([^/?#]+)$/;

function arxivOf(href, base) {
  const u = urlOf(href, base);
  if (!u || !/(^|\.)huggingface\.co$/i.test(u.hostname)) return null;
  const m = PAPER.exec(u.pathname);
  const parsed = m ? parseArxivId(m[1]) : null;
  return parsed ? parsed.id : null;
}

/** {arXiv id: [author names]} from the page's hydration data, or an empty map. */
function authorsById(doc) {
  const out = new Map();
  const el = doc.querySelector('[data-target="DailyPapers"][data-props]');
  if (!el) return out;
  let props;
  try {
    props = JSON.parse(el.getAttribute("data-props"));
  } catch {
    return out;
  }
  const list = props && Array.isArray(props.dailyPapers) ? props.dailyPapers : [];
  for (const item of list) {
    const paper = item && item.paper;
    const parsed = paper && typeof paper.id === "string" ? parseArxivId(paper.id) : null;
    if (!parsed || !Array.isArray(paper.authors)) continue;
    out.set(parsed.id, unique(paper.authors.map((a) => clean(a && a.name)).filter(Boolean)));
  }
  return out;
}

export const huggingface = {
  name: "huggingface",
  hosts: ["huggingface.co"],
  match: (url) => /^\/papers(?:\/(?:date|week|month)\/[\w-]+)?\/?$/.test(url.pathname),
  find(doc) {
    const out = [];
    const names = authorsById(doc);
    for (const { element, id, links } of entriesByLinks(doc, arxivOf)) {
      const titleEl = titleLink(links);
      const title = textOf(titleEl);
      if (!title) continue;
      const authors = names.get(id) || [];
      out.push({
        element,
        paper: { title, authors, arxivId: id, url: `https://arxiv.org/abs/${id}`, pdfUrl: `https://arxiv.org/pdf/${id}` },
        fields: { title: titleEl, abstract: null },
      });
    }
    return out;
  },
};
