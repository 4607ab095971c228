/**
 * Page adapters: find the papers on a page and read what the page says about each.
 *
 * - alphaXiv topic pages (Cards view, List view and its detail panel): papers are found from
 *   links to `/abs/<id>`, `/overview/<id>`, `arxiv.org/abs|pdf/<id>`, never from class names
 *   (they are hashes). A paper's element is the largest ancestor of its links that holds no link
 *   to another paper.
 * - alphaXiv paper pages: JSON-LD (ScholarlyArticle).
 * - arXiv /abs/ pages and any page with Highwire `citation_*` meta tags (`readCitationMeta`,
 *   which the worker also injects into other tabs for the toolbar's "Save this page").
 * - arXiv /list/ pages: `dl > dt/dd`.
 * - arXiv /html/ pages (LaTeXML): the article is one paper, with a body field (its full text);
 *   `sectionOf` names the heading a point falls under. `paperFromUrl` reads an arXiv or alphaXiv
 *   tab's paper from its URL alone (a PDF tab, where no content script runs).
 *
 * `findPaperElements(doc)` is the cheap part (ids and elements, used to mark a page);
 * `describePaper(entry)` reads the fields when they are needed (save, highlight).
 * `findPapersOnPage(doc)` does both. Pure DOM, no chrome.*.
 */

import { arxivAbsUrl, normalizeUrl, parseArxivId } from "./ids.js";
import { fieldText, normalizeText } from "./anchoring.js";
import { describeListed, listingEntries } from "./adapters/listings/index.js";

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const DATE_TEXT = /^(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]* (\d{1,2}), (\d{4})$/;
const UI_SELECTOR = "[data-papershelf-ui]";
const GENERIC_LINK_TEXT = /^(open( paper)?|arxiv|pdf|html|abs(tract)?|view( pdf)?|ask(pdf)?|other|\[?\d+\]?)$/i;

/** "Mar 31, 2026" → "2026-03-31"; "2026/03/31" → "2026-03-31"; else null. */
export function parseDate(text) {
  const t = normalizeText(text);
  let m = DATE_TEXT.exec(t);
  if (m) {
    const month = MONTHS.indexOf(m[1].slice(0, 3).toLowerCase()) + 1;
    return `${m[3]}-${String(month).padStart(2, "0")}-${m[2].padStart(2, "0")}`;
  }
  m = /^(\d{4})[-/](\d{1,2})(?:[-/](\d{1,2}))?/.exec(t);
  if (m) return `${m[1]}-${m[2].padStart(2, "0")}-${(m[3] || "1").padStart(2, "0")}`;
  return null;
}

function baseOf(doc) {
  return doc.baseURI || (doc.location && doc.location.href) || "https://www.alphaxiv.org/";
}

function locationOf(doc) {
  try {
    return new URL(doc.location ? doc.location.href : baseOf(doc));
  } catch {
    return new URL("https://www.alphaxiv.org/");
  }
}

// Cheap test before URL parsing: most links on a listing (topics, navigation) are not papers.
const MAYBE_PAPER_HREF = /\/(?:abs|pdf|overview|html|format)\/|^(?:arxiv:)?\d{4}\.\d{4,5}/i;

const PAPER_LINK_SELECTOR = ["abs", "pdf", "overview", "html", "format"].map((p) => `a[href*="/${p}/"]`).join(", ");

function paperLinkId(a, base) {
  const href = a.getAttribute("href");
  if (!href || !MAYBE_PAPER_HREF.test(href)) return null;
  return parseArxivId(href, base);
}

// ---------------------------------------------------------------------------------------------
// Cheap pass: ids and elements.

/**
 * Every paper entry on the page: [{arxiv_id, version, element, kind}]. One entry per element;
 * the same paper may have several (a List-view row and the detail panel). Safe to run again:
 * it only reads the DOM.
 */
export function findPaperElements(doc) {
  const listed = listingEntries(doc); // the named listing sites (adapters/listings/)
  if (listed) return listed;
  const loc = locationOf(doc);
  const host = loc.hostname.replace(/^www\./, "");
  if (host === "arxiv.org" && loc.pathname.startsWith("/list/")) return arxivListEntries(doc);
  if (host === "arxiv.org" && loc.pathname.startsWith("/html/")) {
    const e = arxivHtmlEntry(doc, loc);
    return e ? [e] : [];
  }
  if (host === "arxiv.org" && loc.pathname.startsWith("/abs/")) {
    const e = metaEntry(doc);
    return e ? [e] : [];
  }
  if (host === "alphaxiv.org" && /^\/(abs|overview)\//.test(loc.pathname)) {
    const e = jsonLdEntry(doc) || metaEntry(doc);
    if (e) return [e];
  }
  return linkedEntries(doc);
}

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

/** arXiv's HTML view of a paper (LaTeXML): the article is the paper, its id is in the URL. Older
 * LaTeXML (ar5iv's first conversions, pages made before 0.8.5) writes `div.ltx_document`. */
function arxivHtmlEntry(doc, loc) {
  const article = doc.querySelector("article.ltx_document, div.ltx_document");
  const parsed = parseArxivId(loc.href);
  if (!article || !parsed) return null;
  return { arxiv_id: parsed.id, version: parsed.version, element: article, kind: "arxiv-html" };
}

const SECTION_HEADING = ":scope > h1, :scope > h2, :scope > h3, :scope > h4, :scope > h5, :scope > h6";
/** A sectioning element of LaTeXML: `<section>`, or in older LaTeXML a `div` with a sectioning
 * class (`div.ltx_section`, `div.ltx_subsection`, `div.ltx_paragraph`, …). */
const SECTION_CLASS = /(?:^|\s)ltx_(?:part|chapter|section|subsection|subsubsection|paragraph|subparagraph|appendix|bibliography|index)(?:\s|$)/;

/**
 * The heading a point of an arXiv HTML paper falls under: the title of the innermost section
 * (`section.ltx_section`, `ltx_subsection`, an appendix, the bibliography) or the abstract that
 * holds `node`, as the reader sees it ("3.2 Training the critic"); "" before the first section.
 */
export function sectionOf(node, root) {
  let el = node && (node.nodeType === 1 ? node : node.parentElement);
  for (; el && el !== root; el = el.parentElement) {
    if (el.localName === "section" || SECTION_CLASS.test(el.getAttribute("class") || "") ||
        (el.classList && el.classList.contains("ltx_abstract"))) {
      const heading = el.querySelector(SECTION_HEADING);
      if (heading) return fieldText(heading);
    }
  }
  return "";
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

/** A paper page's title heading: the h1 that reads `title`, else the first h1. */
function titleHeading(doc, title) {
  const text = normalizeText(title);
  return Array.from(doc.querySelectorAll("h1")).find((h) => fieldText(h) === text) || doc.querySelector("h1");
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

/**
 * The paper a page's Highwire `citation_*` meta tags describe (arXiv /abs/ pages and many
 * publishers), or null when there is no citation_title: {title, authors, abstract, published,
 * doi, arxiv_id, url, affiliations}, values trimmed, authors "First Last".
 *
 * The date is the first version's: citation_publication_date, then citation_date, then
 * citation_online_date (on arXiv citation_date is v1's date and citation_online_date the latest
 * version's). Highwire dates are YYYY/MM[/DD]; a bare year is no date.
 *
 * Self-contained: the worker injects this very function into a tab with
 * chrome.scripting.executeScript, which serializes its source, so it may use nothing from
 * outside its own body (no imports, no module constants).
 */
export function readCitationMeta(doc = document) {
  const values = (name) =>
    Array.from(doc.querySelectorAll(`meta[name="${name}"]`))
      .map((m) => (m.getAttribute("content") || "").trim())
      .filter(Boolean);
  const title = values("citation_title")[0];
  if (!title) return null;
  const date = values("citation_publication_date")[0] || values("citation_date")[0] || values("citation_online_date")[0] || "";
  const ymd = /^(\d{4})[-/](\d{1,2})(?:[-/](\d{1,2}))?/.exec(date);
  const canonical = doc.querySelector('link[rel="canonical"][href]');
  return {
    title,
    authors: values("citation_author").map((a) => {
      const [last, first] = a.split(/\s*,\s*/);
      return first ? `${first} ${last}` : last;
    }),
    abstract: values("citation_abstract")[0] || values("description")[0] || "",
    published: ymd ? `${ymd[1]}-${ymd[2].padStart(2, "0")}-${(ymd[3] || "1").padStart(2, "0")}` : null,
    doi: (values("citation_doi")[0] || "").toLowerCase() || null,
    arxiv_id: values("citation_arxiv_id")[0] || null,
    url: (canonical && canonical.href) || doc.location.href,
    affiliations: [...new Set(values("citation_author_institution"))],
  };
}

/** An entry from the `citation_*` tags (arXiv /abs/ pages and many publishers). */
function metaEntry(doc) {
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

// ---------------------------------------------------------------------------------------------
// Full pass: the fields of one entry.

const LEAF_SKIP = 'script, style, annotation, [aria-hidden="true"], ' + UI_SELECTOR;

/** Elements with their own visible text, in document order (skipping our UI and hidden parts). */
function textLeaves(root) {
  const out = [];
  (function walk(el) {
    for (let n = el.firstChild; n; n = n.nextSibling) {
      if (n.nodeType === 3 && n.data.trim()) {
        out.push(el);
        break;
      }
    }
    for (let n = el.firstElementChild; n; n = n.nextElementSibling) {
      if (!n.matches(LEAF_SKIP)) walk(n);
    }
  })(root);
  return out;
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

/** The element whose reader-visible text is `text` (or starts with it), smallest first. */
function findFieldElement(root, text) {
  if (!text || !root) return null;
  const head = text.slice(0, 80);
  let found = null;
  for (const leaf of textLeaves(root)) {
    const t = fieldText(leaf);
    if (t === text) return leaf;
    if (!found && t.startsWith(head)) found = leaf;
  }
  return found;
}

function describeMeta(entry, doc) {
  const meta = readCitationMeta(doc);
  const abstract = normalizeText(meta.abstract);
  const blockquote = entry.element.querySelector("blockquote");
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

/** arXiv's HTML view: title, authors (each name before its affiliation), abstract, the body. */
function describeArxivHtml(entry) {
  const article = entry.element;
  const titleEl = article.querySelector(".ltx_title_document");
  const authors = Array.from(article.querySelectorAll(".ltx_authors .ltx_personname")).flatMap((p) => {
    let name = "";
    for (let n = p.firstChild; n && !(n.nodeType === 1 && n.localName === "br"); n = n.nextSibling) {
      name += nameText(n);
    }
    return splitNames(normalizeText(name));
  }).filter(Boolean);
  const abstractEl = article.querySelector(".ltx_abstract > .ltx_p, .ltx_abstract p");
  const paper = fromFieldElements(titleEl, abstractEl, authors, { body: article });
  // An abstract of several paragraphs is saved whole (the field, where abstract highlights are
  // anchored, stays its first paragraph: that is the start of the saved text, offsets agree;
  // a highlight in a later paragraph is a body highlight under "Abstract").
  const paragraphs = abstractEl ? Array.from(article.querySelectorAll(".ltx_abstract .ltx_p")) : [];
  if (paragraphs.length > 1 && paragraphs[0] === abstractEl) {
    paper.abstract = paragraphs.map((q) => fieldText(q)).filter(Boolean).join(" ");
  }
  return paper;
}

/** A name's text without footnote and affiliation marks (`<sup>`, LaTeXML's `ltx_sup`). */
function nameText(node) {
  if (node.nodeType === 3) return node.data;
  if (node.nodeType !== 1 || node.localName === "sup" || node.matches(".ltx_sup, .ltx_note")) return "";
  let t = "";
  for (let n = node.firstChild; n; n = n.nextSibling) t += nameText(n);
  return t;
}

/** "A B, C D and E F" (one LaTeX \author for several people) → each name; a name is kept whole
 * when a piece would be a single word ("Smith, Jr."). */
function splitNames(text) {
  const pieces = text.split(/\s*,\s*(?:and\s+)?|\s+and\s+/).filter(Boolean);
  if (pieces.length > 1 && pieces.every((x) => x.includes(" "))) return pieces;
  return [text.replace(/\s*,$/, "")];
}

/** An arXiv page's paper read from its title and abstract elements and its author names. */
function fromFieldElements(titleEl, abstractEl, authors, moreFields = {}) {
  return {
    title: titleEl ? fieldText(titleEl) : "",
    authors,
    authors_more: 0,
    abstract: abstractEl ? fieldText(abstractEl) : "",
    published: null,
    affiliations: [],
    topics: [],
    fields: { title: titleEl, abstract: abstractEl, ...moreFields },
  };
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

/**
 * The full record for an entry from findPaperElements:
 * {arxiv_id, version, url, title, authors, authors_more, abstract, published, affiliations,
 *  topics, element, fields: {title, abstract}}.
 */
export function describePaper(entry, doc = entry.element.ownerDocument) {
  let d;
  if (entry.kind === "listing") d = describeListed(entry);
  else if (entry.kind === "jsonld") d = describeJsonLd(entry);
  else if (entry.kind === "meta") d = describeMeta(entry, doc);
  else if (entry.kind === "arxiv-list") d = describeArxivList(entry);
  else if (entry.kind === "arxiv-html") d = describeArxivHtml(entry);
  else d = describeLinked(entry, doc);
  return {
    arxiv_id: entry.arxiv_id || null,
    version: entry.version || null,
    url: entry.url || null,
    ...d,
    element: entry.element,
  };
}

/** Just the elements of an entry's fields ({title, abstract}), for anchoring highlights. */
export function paperFields(entry, doc = entry.element.ownerDocument) {
  if (entry.kind === "listing") return entry.fields;
  if (entry.kind === "alphaxiv-listing") {
    const { titleEl, abstractEl } = linkedFields(entry, doc);
    return { title: titleEl || null, abstract: abstractEl };
  }
  return describePaper(entry, doc).fields;
}

/** Every paper on the page with its fields. */
export function findPapersOnPage(doc) {
  return findPaperElements(doc).map((e) => describePaper(e, doc));
}

/** The request body for POST /api/papers from a described paper. A paper the page gives no title
 * for is sent without one: the server titles it `arXiv:<id>` until arXiv's answer replaces that. */
export function toSavePayload(paper, sourceUrl) {
  const body = {};
  if (paper.title) body.title = paper.title;
  if (paper.arxiv_id) body.arxiv_id = paper.arxiv_id;
  if (paper.version) body.arxiv_version = paper.version;
  if (paper.doi) body.doi = paper.doi;
  if (paper.url) body.url = paper.url;
  else if (paper.arxiv_id) body.url = arxivAbsUrl(paper.arxiv_id);
  body.authors = paper.authors || [];
  body.authors_more = paper.authors_more || 0;
  body.abstract = paper.abstract || "";
  if (paper.published) body.published = paper.published;
  for (const k of ["journal", "booktitle", "pages"]) if (paper[k]) body[k] = paper[k];
  body.affiliations = paper.affiliations || [];
  body.topics = paper.topics || [];
  if (sourceUrl) body.source_url = sourceUrl;
  return body;
}
