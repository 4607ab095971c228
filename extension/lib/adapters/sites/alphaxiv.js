/**
 * alphaXiv: topic pages (Cards view, List view and its detail panel), where papers are found
 * from links to `/abs/<id>`, `/overview/<id>`, `arxiv.org/abs|pdf/<id>`, never from class names
 * (they are hashes): a paper's element is the largest ancestor of its links that holds no link
 * to another paper; and paper pages (JSON-LD ScholarlyArticle, else `citation_*`).
 */

import { parseArxivId } from "../../ids.js";
import { fieldText, normalizeText } from "../../anchoring.js";
import {
  GENERIC_LINK_TEXT, PAPER_LINK_SELECTOR, UI_SELECTOR, bareHost, baseOf, findFieldElement, locationOf, paperLinkId,
  parseDate, textLeaves, titleHeading,
} from "../common.js";
import { citationEntry } from "./arxiv.js";

/** Papers found from links (alphaXiv topic pages, and a fallback for any listing). */
function linkedEntries(doc) {
  const root = doc.body;
  if (!root) return [];
  const base = baseOf(doc);
  const links = [];
  // Let the selector engine drop the links that cannot name a paper (topics, navigation).
  for (const a of root.querySelectorAll(PAPER_LINK_SELECTOR)) {
    const parsed = paperLinkId(a, base);
    if (parsed && !a.closest(UI_SELECTOR)) links.push([a, parsed]);
  }
  // Links come in document order and an entry is a subtree, i.e. an interval of that order: the
  // entry of a run of links to one paper is the largest ancestor of the run that contains neither
  // the link before the run nor the link after it (both name other papers). No per-node maps:
  // this has to mark 600 cards in a few milliseconds.
  const entries = new Map();
  for (let i = 0; i < links.length; ) {
    const [first, { id }] = links[i];
    let j = i;
    let version = null;
    while (j < links.length && links[j][1].id === id) {
      if (!version && links[j][1].version) version = links[j][1].version;
      j++;
    }
    const before = i > 0 ? links[i - 1][0] : null;
    const after = j < links.length ? links[j][0] : null;
    let el = first;
    for (let up = el.parentElement; up && up !== root; up = up.parentElement) {
      if ((before && up.contains(before)) || (after && up.contains(after))) break;
      el = up;
    }
    // A run may hold two entries of the same paper only if they are adjacent; then split by
    // checking that each link lies inside the entry found, and start a new run where it does not.
    let k = i + 1;
    while (k < j && el.contains(links[k][0])) k++;
    const lone = el === first && !first.querySelector("h1, h2, h3, h4, h5, h6");
    if (!lone && !entries.has(el)) {
      entries.set(el, { arxiv_id: id, version, element: el, kind: "alphaxiv-listing" });
    }
    i = k;
  }
  return Array.from(entries.values());
}

function readJsonLd(doc) {
  for (const s of doc.querySelectorAll('script[type="application/ld+json"]')) {
    let data;
    try {
      data = JSON.parse(s.textContent);
    } catch {
      continue;
    }
    const items = Array.isArray(data) ? data : data["@graph"] || [data];
    for (const item of items) {
      const type = [].concat(item["@type"] || []);
      if (type.some((t) => /ScholarlyArticle|Article|CreativeWork/.test(t))) return item;
    }
  }
  return null;
}

function jsonLdEntry(doc) {
  const ld = readJsonLd(doc);
  if (!ld) return null;
  const loc = locationOf(doc);
  const parsed =
    parseArxivId(String(ld.identifier || "")) || parseArxivId(String(ld.url || "")) || parseArxivId(loc.href);
  if (!parsed) return null;
  const heading = titleHeading(doc, ld.name || ld.headline || "");
  const element = (heading && (heading.closest("article, main") || heading.parentElement)) || doc.body;
  return { arxiv_id: parsed.id, version: parsed.version, element, kind: "jsonld", ld, heading };
}

const NAME = "[\\p{Lu}][\\p{L}\\p{M}'’.\\-]*(?: (?:[\\p{L}\\p{M}'’.\\-]+))*";
const AUTHOR_LIST = new RegExp(`^${NAME}(?:, ${NAME})*(?:,? ?\\+ ?\\d+)?$`, "u");
const ORGANISATION_WORDS = /\b(University|Universit\w+|Institute|Inc|Lab|Labs|Laboratory|Research|Group|College|School|Center|Centre|Academy|AI|Corporation)\b/;

function looksLikeAuthors(text) {
  if (!text || text.length > 2000 || !AUTHOR_LIST.test(text)) return false;
  const names = text.replace(/,? ?\+ ?\d+$/, "").split(", ");
  if (names.some((n) => n.split(" ").length < 2 || n.split(" ").length > 6)) return false;
  return !ORGANISATION_WORDS.test(text);
}

/** Running prose, not a list of affiliations ("A · B · C") or a long title. */
function looksLikeAbstract(text) {
  return text.length >= 120 && !text.includes(" · ") && /[.!?](\s|$)/.test(text);
}

function splitAuthors(text) {
  const t = normalizeText(text);
  const m = /,? ?\+ ?(\d+)$/.exec(t);
  const more = m ? Number(m[1]) : 0;
  const names = (m ? t.slice(0, m.index) : t).split(/\s*,\s*/).filter(Boolean);
  return { authors: names, authors_more: more };
}

function isInside(el, container) {
  return container && (el === container || container.contains(el));
}

/** The title and abstract elements of a listing entry (what highlights anchor in), cheaply. */
function linkedFields(entry, doc) {
  const el = entry.element;
  const base = baseOf(doc);
  // Title: the first heading, else the longest link text to the paper.
  let titleEl = el.querySelector("h1, h2, h3, h4");
  if (titleEl && titleEl.closest(UI_SELECTOR)) titleEl = null;
  if (!titleEl) {
    let best = "";
    for (const a of el.querySelectorAll("a[href]")) {
      const p = paperLinkId(a, base);
      if (!p || p.id !== entry.arxiv_id) continue;
      const text = fieldText(a);
      if (text.length > best.length && !GENERIC_LINK_TEXT.test(text)) {
        best = text;
        titleEl = a;
      }
    }
  }
  const leaves = textLeaves(el).filter(
    (leaf) => !isInside(leaf, titleEl) && !leaf.closest("button, a[href]") && !leaf.closest(UI_SELECTOR),
  );
  // The abstract: the longest running prose. Raw length orders the candidates cheaply; the
  // normalized text is only computed until one qualifies.
  let abstractEl = null;
  let abstractText = "";
  const candidates = leaves.filter((leaf) => leaf.textContent.length >= 120);
  candidates.sort((a, b) => b.textContent.length - a.textContent.length);
  for (const leaf of candidates) {
    const text = fieldText(leaf);
    if (looksLikeAbstract(text)) {
      abstractEl = leaf;
      abstractText = text;
      break;
    }
  }
  return { titleEl, abstractEl, abstractText, leaves };
}

const TOPIC_HREF = /^(?:https?:\/\/[^/]*alphaxiv\.org)?\/topics?\//i;

/** Read the fields of an alphaXiv listing entry (card, row or detail panel). */
function describeLinked(entry, doc) {
  const el = entry.element;
  const { titleEl, abstractEl, abstractText, leaves } = linkedFields(entry, doc);
  const fields = { title: titleEl || null };
  const topicEls = Array.from(el.querySelectorAll("a[href]")).filter(
    (a) => TOPIC_HREF.test(a.getAttribute("href")) && !a.closest(UI_SELECTOR),
  );
  const topics = [...new Set(topicEls.map((a) => fieldText(a)).filter(Boolean))];
  let published = null;
  // The date: a text node that is exactly a date ("Mar 31, 2026") or a <time datetime>.
  const time = el.querySelector("time[datetime]");
  if (time) published = parseDate(time.getAttribute("datetime"));
  if (!published) {
    for (const leaf of leaves) {
      for (let n = leaf.firstChild; n && !published; n = n.nextSibling) {
        if (n.nodeType === 3) published = parseDate(n.data);
      }
      if (published) break;
    }
  }
  // Authors: the first name list (with its "+N") outside title and abstract; the topmost element
  // whose whole text is that list, so that a "+3" in a child span is included.
  let authorsEl = null;
  let authorsLeafIndex = -1;
  for (const [i, leaf] of leaves.entries()) {
    if (leaf === abstractEl || leaf.textContent.length > 2000) continue;
    const text = fieldText(leaf);
    if (looksLikeAuthors(text)) {
      authorsEl = leaf;
      authorsLeafIndex = i;
      while (authorsEl.parentElement && authorsEl !== el && looksLikeAuthors(fieldText(authorsEl.parentElement))) {
        authorsEl = authorsEl.parentElement;
      }
      break;
    }
  }
  const { authors, authors_more } = authorsEl ? splitAuthors(fieldText(authorsEl)) : { authors: [], authors_more: 0 };
  // Affiliations: the next text after the authors that is neither abstract, link nor date.
  let affiliations = [];
  if (authorsEl) {
    const after = leaves.slice(authorsLeafIndex + 1).filter((leaf) => !isInside(leaf, authorsEl));
    const next = after[0];
    if (next && next !== abstractEl) {
      const text = fieldText(next).replace(/\s*\+\d+$/, "");
      if (text && !parseDate(text) && text.length < 1000) affiliations = text.split(/\s+·\s+/).filter(Boolean);
    }
  }
  fields.abstract = abstractEl;
  return {
    title: titleEl ? fieldText(titleEl) : "",
    authors,
    authors_more,
    abstract: abstractText,
    published,
    affiliations,
    topics,
    fields,
  };
}

function describeJsonLd(entry) {
  const ld = entry.ld;
  const authors = [].concat(ld.author || []).map((a) => normalizeText(typeof a === "string" ? a : a.name)).filter(Boolean);
  const abstract = normalizeText(ld.abstract || ld.description || "");
  const orgs = [].concat(ld.sourceOrganization || []).map((o) => normalizeText(typeof o === "string" ? o : o.name));
  const keywords = typeof ld.keywords === "string" ? ld.keywords.split(/\s*,\s*/) : [].concat(ld.keywords || []);
  return {
    title: normalizeText(ld.name || ld.headline || ""),
    authors,
    authors_more: 0,
    abstract,
    published: ld.datePublished ? parseDate(String(ld.datePublished)) : null,
    affiliations: orgs.filter(Boolean),
    topics: keywords.map(normalizeText).filter(Boolean),
    fields: { title: entry.heading || null, abstract: findFieldElement(entry.element, abstract) },
  };
}

export const alphaxiv = {
  name: "alphaxiv",
  hosts: ["alphaxiv.org"],
  match: (loc) => bareHost(loc.hostname) === "alphaxiv.org",
  find(doc) {
    if (/^\/(abs|overview)\//.test(locationOf(doc).pathname)) {
      const e = jsonLdEntry(doc) || citationEntry(doc);
      if (e) return [e];
    }
    return linkedEntries(doc);
  },
  describe: { "alphaxiv-listing": describeLinked, jsonld: describeJsonLd },
  fields: {
    "alphaxiv-listing"(entry, doc) {
      const { titleEl, abstractEl } = linkedFields(entry, doc);
      return { title: titleEl || null, abstract: abstractEl };
    },
  },
};
