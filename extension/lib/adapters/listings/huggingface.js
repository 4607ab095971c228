/**
 * Hugging Face daily papers (huggingface.co/papers, /papers/date/…, /papers/week/…, ?date=…). An
 * entry is found from its links to `/papers/<arXiv id>` (thumbnail, title, comments); the title is
 * the longest of their texts, the authors the names the entry's avatars carry (`li[title]`): the
 * page shows only some, and the server completes them from arXiv.
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

export const huggingface = {
  name: "huggingface",
  hosts: ["huggingface.co"],
  match: (url) => /^\/papers(?:\/(?:date|week|month)\/[\w-]+)?\/?$/.test(url.pathname),
  find(doc) {
    const out = [];
    for (const { element, id, links } of entriesByLinks(doc, arxivOf)) {
      const titleEl = titleLink(links);
      const title = textOf(titleEl);
      if (!title) continue;
      const authors = unique([...element.querySelectorAll("li[title]")].map((li) => clean(li.getAttribute("title"))));
      out.push({
        element,
        paper: { title, authors, arxivId: id, url: `https://arxiv.org/abs/${id}`, pdfUrl: `https://arxiv.org/pdf/${id}` },
        fields: { title: titleEl, abstract: null },
      });
    }
    return out;
  },
};
