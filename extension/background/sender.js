/**
 * Talking to the papershelf server, through lib/api.js: the settings and token, a client for
 * them, one sender per kind of item (sent now or later from the outbox), the other calls the
 * router and the notes panels make, and the popup's list of recent saves.
 */

import { createClient, normalizeServerUrl, DEFAULT_SERVER_URL } from "../lib/api.js";
import { LIMITS } from "../lib/limits.js";
import { storage } from "./storage.js";

export { testConnection } from "../lib/api.js";

const RECENT_KEY = "recentSaves";
const RECENT_MAX = 20;

export async function settings() {
  const serverUrl = await storage.get("serverUrl");
  const token = await storage.get("token");
  return { serverUrl: normalizeServerUrl(serverUrl || DEFAULT_SERVER_URL), token: token || "" };
}

/** A client for the configured server; without a token, an error that says what to do. */
export async function client() {
  const s = await settings();
  if (!s.token) {
    const err = new Error("papershelf is not set up: open the extension's options and paste your token.");
    err.code = "not_configured";
    throw err;
  }
  return createClient(s);
}

export async function recentSaves() {
  return (await storage.get(RECENT_KEY)) || [];
}

async function remember(paper) {
  const entry = { id: paper.id, title: paper.title, arxiv_id: paper.arxiv_id, citation_key: paper.citation_key, at: Date.now() };
  const rest = (await recentSaves()).filter((r) => r.id !== paper.id);
  await storage.set(RECENT_KEY, [entry, ...rest].slice(0, RECENT_MAX));
}

/** The kinds of item that can wait in the outbox. They are stored with the items: keep the names. */
export const ItemKind = Object.freeze({ SAVE: "save", NOTE: "note", HIGHLIGHT: "highlight" });

async function ensurePaper(api, payload) {
  if (payload.paper_id) return { id: payload.paper_id, paper: null };
  const paper = await api.savePaper({ ...payload.paper, client_id: payload.paper_client_id });
  await remember(paper);
  return { id: paper.id, paper };
}

/** kind → send(api, payload, clientId): one item to the server, with its client_id. */
export const senders = {
  async [ItemKind.SAVE](api, payload, clientId) {
    const paper = await api.savePaper({ ...payload.paper, client_id: clientId });
    remember(paper).catch(() => {}); // the popup's list; the page need not wait for it
    return { paper };
  },
  async [ItemKind.NOTE](api, payload, clientId) {
    const { id, paper } = await ensurePaper(api, payload);
    const note = await api.addNote(id, { body: payload.body, client_id: clientId });
    return { note, paper };
  },
  async [ItemKind.HIGHLIGHT](api, payload, clientId) {
    const { id, paper } = await ensurePaper(api, payload);
    const highlight = await api.addHighlight(id, { ...payload.highlight, client_id: clientId });
    return { highlight, paper };
  },
};

/** The lookup answer for the papers `keys` (lib/ids.js paperKey: arXiv ids or URLs) of a page or
 * a panel: {papers, shared}, each by the keys asked (`shared`: what members of the user's groups
 * saved and shared of those papers). */
export async function lookupPage(api, keys) {
  const wanted = [...new Set(keys || [])].slice(0, LIMITS.lookup);
  const result = wanted.length ? await api.lookup(wanted) : {};
  return { papers: result.papers || {}, shared: result.shared || {} };
}

export async function updateNote(id, body) {
  return (await client()).updateNote(id, { body });
}

export async function deleteNote(id) {
  await (await client()).deleteNote(id);
}

/** One saved paper with its notes and highlights, as the server has it now. */
export async function getPaper(id) {
  return (await client()).getPaper(id);
}

export async function updateHighlight(id, comment) {
  return (await client()).updateHighlight(id, { comment });
}

/** The library (or the papers `ids`) as a file: {text, filename, type}. */
export async function exportLibrary(format, { ids } = {}) {
  const res = await (await client()).exportFile(format, { ids });
  if (!res.ok) throw Object.assign(new Error(`export failed: HTTP ${res.status}`), { status: res.status });
  const disposition = res.headers.get("Content-Disposition") || "";
  const m = /filename="?([^";]+)"?/.exec(disposition);
  return { text: await res.text(), filename: m ? m[1] : "papershelf.bib", type: res.headers.get("Content-Type") || "text/plain" };
}
