/**
 * A note's Markdown as safe DOM, by the library's rules (server/papershelf/web/render.py): the
 * same parser (markdown-it, the JavaScript original of the library's markdown-it-py, pinned to
 * the version it ports: CommonMark with tables and strikethrough, raw HTML shown as text, no
 * images), then the same allowlist the library gives nh3: these tags and attributes only, links
 * http(s) and absolute only (any other href is dropped), every link rel="noopener noreferrer
 * nofollow", scripts and styles dropped with their content, any other tag unwrapped to its text.
 * The notes panel shows notes with it and the library page previews a note as it is written.
 *
 * The parser's HTML is read into an inert document (DOMParser: nothing in it runs or loads) and
 * rebuilt node by node into the caller's document, so that nothing outside the allowlist exists
 * even for a moment in a live page.
 */

import "./markdown-it.min.js"; // markdown-it 14.1.0 as published (UMD): defines globalThis.markdownit

const md = globalThis.markdownit("commonmark", { html: false, linkify: false, typographer: false });
md.enable(["table", "strikethrough"]);
md.disable(["image"]); // no remote images in notes: they would call out from the page

/** render.py NOTE_TAGS, NOTE_ATTRIBUTES, and what nh3 is told besides. */
export const NOTE_TAGS = Object.freeze([
  "p", "br", "hr", "em", "strong", "del", "s", "code", "pre", "blockquote", "ul", "ol", "li",
  "a", "h1", "h2", "h3", "h4", "h5", "h6", "table", "thead", "tbody", "tr", "th", "td",
]);
export const NOTE_ATTRIBUTES = Object.freeze({ a: ["href", "title"], ol: ["start"], th: ["align"], td: ["align"] });
const DROPPED_WITH_CONTENT = new Set(["script", "style"]);
const URL_SCHEMES = new Set(["http:", "https:"]);
const LINK_REL = "noopener noreferrer nofollow";
const TAGS = new Set(NOTE_TAGS);

/** The parser's HTML, before the allowlist (for tests: never put it in a page). */
export function markdownHtml(source) {
  return md.render(typeof source === "string" ? source : "");
}

/** An href the library keeps: an absolute http(s) URL. */
export function allowedHref(value) {
  try {
    return URL_SCHEMES.has(new URL(value).protocol); // a relative URL has no base here: it throws
  } catch {
    return false;
  }
}

function rebuild(from, into, doc) {
  for (const node of from.childNodes) {
    if (node.nodeType === 3) {
      into.append(doc.createTextNode(node.data));
      continue;
    }
    if (node.nodeType !== 1) continue; // comments and the rest: dropped
    const tag = node.localName;
    if (DROPPED_WITH_CONTENT.has(tag)) continue;
    if (!TAGS.has(tag)) {
      rebuild(node, into, doc); // unwrapped: its text stays
      continue;
    }
    const copy = doc.createElement(tag);
    for (const name of NOTE_ATTRIBUTES[tag] || []) {
      const value = node.getAttribute(name);
      if (value == null || (name === "href" && !allowedHref(value))) continue;
      copy.setAttribute(name, value);
    }
    if (tag === "a") copy.setAttribute("rel", LINK_REL);
    rebuild(node, copy, doc);
    into.append(copy);
  }
}

/** `source` (a note's Markdown) as a DocumentFragment of `doc`, ready to append. */
export function renderMarkdown(source, doc = document) {
  const parsed = new DOMParser().parseFromString(`<!doctype html><html><head></head><body>${markdownHtml(source)}</body></html>`, "text/html");
  const out = doc.createDocumentFragment();
  rebuild(parsed.body, out, doc);
  return out;
}
