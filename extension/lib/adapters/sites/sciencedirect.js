/**
 * ScienceDirect article pages (`/science/article/pii/…`): the `citation_*` tags name no author;
 * the authors are in the page's preloaded state (`window.__PRELOADED_STATE__ = {…}`, or a
 * `<script type="application/json" data-iso-key>` in newer pages), as given-name and surname.
 */

import { bareHost, jsonAfter, scriptWith } from "../common.js";
import { cleanAuthors, squash } from "../meta/clean.js";
import { embeddedEntry } from "../embedded.js";

function preloadedState(doc) {
  const iso = doc.querySelector('script[type="application/json"][data-iso-key]');
  if (iso) {
    try {
      return JSON.parse(iso.textContent);
    } catch {
      // fall through to the script assignment
    }
  }
  return jsonAfter(scriptWith(doc, "__PRELOADED_STATE__"), "__PRELOADED_STATE__");
}

function collect(node, name, out) {
  if (Array.isArray(node)) node.forEach((n) => collect(n, name, out));
  else if (node && typeof node === "object") {
    if (node["#name"] === name) out.push(node);
    else if (node.$$) collect(node.$$, name, out);
  }
  return out;
}

function textOf(node) {
  if (!node || typeof node !== "object") return "";
  if (typeof node._ === "string") return node._;
  return (node.$$ || []).map(textOf).join("");
}

/** The authors and venue the preloaded state holds. */
export function completeFromState(doc) {
  const state = preloadedState(doc);
  if (!state) return null;
  const authors = collect(state.authors && state.authors.content, "author", []).map((a) => {
    const parts = a.$$ || [];
    const given = textOf(parts.find((p) => p["#name"] === "given-name"));
    const surname = textOf(parts.find((p) => p["#name"] === "surname"));
    return squash(`${given} ${surname}`);
  });
  const article = state.article || {};
  return {
    authors: cleanAuthors(authors),
    title: squash(textOf(article.title) || article.title || "") || null,
    doi: article.doi ? String(article.doi).toLowerCase() : null,
    journal: squash(article.srctitle || "") || null,
    published: article["cover-date-start"] || null,
    entry_type: "article",
  };
}

export const sciencedirect = {
  name: "sciencedirect",
  hosts: ["sciencedirect.com"],
  match: (loc) => bareHost(loc.hostname) === "sciencedirect.com" && /^\/science\/article\//.test(loc.pathname),
  find(doc) {
    const e = embeddedEntry(doc, completeFromState);
    return e ? [e] : [];
  },
};
