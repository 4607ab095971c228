/**
 * What the listing adapters share: finding a listing's entries from the links that name a paper
 * (never from class names, which sites rename and hash), and reading a few fields as text.
 *
 * `entriesByLinks(doc, idOf)` groups the links whose href names a paper (`idOf(href, base)` → an
 * id, or null) into entries: a run of links to one paper is one entry, whose element is the
 * largest ancestor of the run that holds no link to another paper (a listing entry is a subtree,
 * that is an interval of document order). Pure DOM, no chrome.*.
 */

import { identitiesOfUrl } from "../../identities.js";

export const UI_SELECTOR = "[data-papershelf-ui]";

const SPACES = /[\s\u00a0\u200b]+/g;

/** Text as a reader sees it: runs of spaces (no-break spaces too) as one, trimmed. */
export function clean(text) {
  return String(text || "").replace(SPACES, " ").trim();
}

/** An element's text without our own controls, cleaned. */
export function textOf(el) {
  if (!el) return "";
  if (!el.querySelector(UI_SELECTOR)) return clean(el.textContent);
  let out = "";
  (function walk(node) {
    for (let n = node.firstChild; n; n = n.nextSibling) {
      if (n.nodeType === 3) out += n.data;
      else if (n.nodeType === 1 && !n.matches(UI_SELECTOR)) walk(n);
    }
  })(el);
  return clean(out);
}

export function baseOf(doc) {
  return (doc.location && doc.location.href) || doc.baseURI || "";
}

/** `href` resolved against `base` as a URL, or null. */
export function urlOf(href, base) {
  if (!href || /^(?:javascript|mailto|data):/i.test(href)) return null;
  try {
    return new URL(href, base);
  } catch {
    return null;
  }
}

/** The absolute form of a link's href, or null. */
export function absoluteHref(a, base) {
  const u = urlOf(a.getAttribute("href"), base);
  return u && /^https?:$/.test(u.protocol) ? u.href : null;
}

/**
 * The entries of a listing: [{id, element, links}] in document order, from the links under
 * `root` whose href `idOf` reads an id from. Links inside our own controls are not the page's.
 */
export function entriesByLinks(doc, idOf, { root = doc.body, selector = "a[href]" } = {}) {
  if (!root) return [];
  const base = baseOf(doc);
  const links = [];
  for (const a of root.querySelectorAll(selector)) {
    const id = idOf(a.getAttribute("href"), base, a);
    if (id && !a.closest(UI_SELECTOR)) links.push([a, id]);
  }
  const out = [];
  const seen = new Set();
  for (let i = 0; i < links.length; ) {
    const [first, id] = links[i];
    let j = i;
    while (j < links.length && links[j][1] === id) j++;
    const before = i > 0 ? links[i - 1][0] : null;
    const after = j < links.length ? links[j][0] : null;
    let el = first;
    for (let up = el.parentElement; up && up !== root; up = up.parentElement) {
      if ((before && up.contains(before)) || (after && up.contains(after))) break;
      el = up;
    }
    let k = i + 1;
    while (k < j && el.contains(links[k][0])) k++;
    if (!seen.has(el)) {
      seen.add(el);
      out.push({ id, element: el, links: links.slice(i, k).map(([a]) => a) });
    }
    i = k;
  }
  return out;
}

/** The links under `element` (matching `selector`) that are the page's, not in our controls. */
export function linksIn(element, selector = "a[href]") {
  return [...element.querySelectorAll(selector)].filter((a) => !a.closest(UI_SELECTOR));
}

/** The longest text among `links` that is not a generic label ("pdf", "abs", "[PDF]", "bib"). */
export function titleLink(links) {
  let best = null;
  let bestText = "";
  for (const a of links) {
    const t = textOf(a);
    if (t.length > bestText.length && !GENERIC.test(t)) {
      best = a;
      bestText = t;
    }
  }
  return best;
}

const GENERIC = /^(?:\[?(?:pdf|html|abs(?:tract)?|bib(?:tex)?|doi|other|download(?: pdf)?|paper|supp(?:lemental)?|code|video|arxiv(?::\S+)?|openreview|\d+|·.*)\]?)$/i;

/** A four-digit year (1900–2099) in `text`, the last one; else null. */
export function yearIn(text) {
  const all = String(text || "").match(/\b(?:19|20)\d{2}\b/g);
  return all ? all[all.length - 1] : null;
}

/** Authors from a text list: "A B, C D and E F" (or "; " separated), marks and ellipses dropped. */
export function splitAuthorText(text) {
  return clean(text)
    .replace(/[.…]+$/, "")
    .split(/\s*[,;]\s*(?:and\s+)?|\s+and\s+/)
    .map((n) => n.replace(/^(?:…|\.\.\.)\s*|\s*(?:…|\.\.\.)$/g, "").trim())
    .filter((n) => n && n !== "…" && !/^et al\.?$/i.test(n));
}

/** The DOI an address names (a resolver's doi.org/…, doi.acm.org/…, a publisher's /doi/…/10.…),
 * lower case, or null: what lib/identities.js reads from it, the one rule for every page. */
export function doiOfUrl(url) {
  const [identity] = identitiesOfUrl(typeof url === "string" ? url : url ? url.href : "");
  return identity && identity.startsWith("doi:") ? identity.slice(4) : null;
}

/** The arXiv id (without version) an address names (arxiv.org/abs/…, /pdf/…, a mirror of arXiv),
 * or null: lib/identities.js's reading of it. */
export function arxivIdOfUrl(url) {
  const [identity] = identitiesOfUrl(url || "");
  return identity && identity.startsWith("arxiv:") ? identity.slice(6) : null;
}

/** Unique, in their order. */
export function unique(items) {
  return [...new Set(items.filter(Boolean))];
}
