/**
 * Who may ask the worker what, and what a page may learn. The host page (alphaXiv, arXiv) is a
 * third party: its scripts share the DOM with our content script, so the content script is told
 * only what the page may see (whether a paper is saved, how many notes, where highlights are
 * painted), never a note's or a comment's text; notes and comments go to the notes panel, an
 * extension page. Pure functions of the sender and the extension's identity, so that node tests
 * can hold them. The PDF reader is an extension page but shows a file from anywhere: it may ask
 * what a content script may, and open its PDF.
 */

import { CONTENT_SCRIPT_TYPES, READER_TYPES } from "../lib/messages.js";
import { READER_PATH } from "../lib/pdf.js";
import { compileMatchPatterns } from "../lib/matchpatterns.js";

export const Role = Object.freeze({
  EXTENSION: "extension", // the popup, the options page, the notes panel: our own origin
  READER: "reader", // the PDF reader (reader/reader.html): our origin, showing an untrusted file
  CONTENT: "content", // our content script, in the top frame of a page the manifest lists
});

/** The extension's identity as the router checks senders against it (read once, lazily). */
export function extensionIdentity(runtime = globalThis.chrome.runtime) {
  const manifest = runtime.getManifest();
  return { extensionId: runtime.id, extensionBase: runtime.getURL(""), onContentPage: contentPagesOf(manifest) };
}

/** The pages a manifest's content scripts run on: a script's `matches` less its
 * `exclude_matches` (the all-pages script leaves out the loopback server's own pages). */
export function contentPagesOf(manifest) {
  const scripts = (manifest.content_scripts || []).map((cs) => ({
    matches: compileMatchPatterns(cs.matches || []),
    excluded: compileMatchPatterns(cs.exclude_matches || []),
  }));
  return (url) => scripts.some((cs) => cs.matches(url) && !cs.excluded(url));
}

/**
 * The role of a message's sender, or null for anyone else. Our own pages have our origin; a
 * content script runs in a tab's top frame (the manifest does not ask for all_frames) on a page
 * the manifest's content-script patterns match. Other extensions and web pages cannot reach the
 * router at all (no onMessageExternal, no externally_connectable), but are refused here too.
 */
export function senderRole(sender, { extensionId, extensionBase, onContentPage }) {
  if (!sender || !extensionId || sender.id !== extensionId) return null;
  const url = typeof sender.url === "string" ? sender.url : "";
  if (url && extensionBase && url.startsWith(extensionBase)) {
    if (sender.origin && sender.origin !== "null" && `${sender.origin}/` !== extensionBase) return null;
    // The reader, in a tab's top frame; anywhere else (a frame) it is no one.
    if (url.startsWith(extensionBase + READER_PATH)) return sender.tab && sender.frameId === 0 ? Role.READER : null;
    return Role.EXTENSION;
  }
  if (!sender.tab || sender.frameId !== 0 || !onContentPage(url)) return null;
  if (sender.tab.url && !onContentPage(sender.tab.url)) return null;
  if (sender.origin && sender.origin !== new URL(url).origin) return null;
  return Role.CONTENT;
}

/** May a sender of `role` send `type`? */
export function mayAsk(role, type) {
  if (role === Role.EXTENSION) return true;
  if (role === Role.CONTENT) return CONTENT_SCRIPT_TYPES.includes(type);
  if (role === Role.READER) return READER_TYPES.includes(type);
  return false;
}

/** Of a highlight, what the page already shows: where it is painted, and its colour. */
export function pageSafeHighlight(h) {
  if (!h) return h;
  const out = {};
  for (const k of ["id", "field", "section", "page", "exact", "prefix", "suffix", "start", "end", "color"]) {
    if (h[k] !== undefined) out[k] = h[k];
  }
  return out;
}

/** Of what group members saved of the page's papers ({key: [{user, groups, notes, highlights}]}),
 * what the page shows: who, in which groups, how many notes, where their highlights go. No note
 * body and no comment. */
export function pageSafeShared(shared) {
  const out = {};
  for (const [key, entries] of Object.entries(shared || {})) {
    if (!Array.isArray(entries)) continue;
    out[key] = entries.map((e) => ({
      user: String(e.user),
      groups: Array.isArray(e.groups) ? e.groups.map((g) => String(g.name)) : [],
      note_count: Number(e.notes) || 0,
      highlights: Array.isArray(e.highlights) ? e.highlights.map(pageSafeHighlight) : [],
    }));
  }
  return out;
}

/** Of a saved paper, what its bar needs: saved, its key, what arXiv completed, how many notes,
 * where its highlights go. No note body, comment or tag. */
export function pageSafePaper(p) {
  if (!p) return p;
  const out = { id: p.id, citation_key: p.citation_key };
  if (p.enrichment) out.enrichment = { state: p.enrichment.state };
  for (const k of ["authors", "authors_more", "primary_category"]) {
    if (p[k] !== undefined) out[k] = p[k];
  }
  out.note_count = Array.isArray(p.notes) ? p.notes.length : 0;
  out.highlights = Array.isArray(p.highlights) ? p.highlights.map(pageSafeHighlight) : [];
  return out;
}
