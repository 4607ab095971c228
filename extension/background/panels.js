/**
 * The notes panels: which frame is each tab's panel, which paper it shows, and everything a panel
 * reads or writes.
 *
 * A panel is panel/panel.html in an iframe that our content script put in a page (one per tab).
 * The page can see that iframe element, and since panel.html is web-accessible it can make frames
 * of its own, so a frame is the tab's panel only once it has redeemed a ticket: the worker gives
 * the content script a one-time random ticket (PANEL_TICKET), the content script posts it to its
 * own frame's window only (targetOrigin: the extension's origin, so a frame the page navigated
 * elsewhere never receives it), and the panel hands it back (CLAIM_PANEL): the worker then knows
 * the frame by its frameId. The content script chooses the paper (OPEN_PANEL); the worker answers
 * that frame, and only that frame, about that paper: its notes, highlights and comments, fetched
 * from the server here (a PDF highlight with its page and a link to the reader at it). Any other
 * frame is bound to nothing and gets nothing. The state lives in
 * chrome.storage.session, so that a stopped worker keeps it.
 */

import { libraryUrl } from "../lib/api.js";
import { LIMITS } from "../lib/limits.js";
import { MessageType } from "../lib/messages.js";
import { queuedId } from "../lib/outbox.js";
import { publishedLine } from "../lib/published.js";
import { PDF_FIELD, READER_PATH, arxivPaperOfPdf, fileFromSearch, pdfUrlOf, readerUrl } from "../lib/pdf.js";
import { ItemKind, client, deleteNote, exportLibrary, getPaper, lookupPage, settings, updateHighlight, updateNote } from "./sender.js";
import { outbox, saveDedupeKey, sendOrQueue } from "./outbox.js";
import { ringPanels, tellPage } from "./notify.js";
import { sessionStore } from "./storage.js";

const PANELS_KEY = "panels";
const ORPHANS_MAX = 1000;

/** The last full answer the server gave about a paper (by key): shown when it is unreachable. */
const lastSeen = new Map();

/** tabId → {frameId, ticket, pageFrameId, key, title, paper, paper_id, orphans, focus, noteIds, highlightIds} */
async function panels() {
  return (await sessionStore.get(PANELS_KEY)) || {};
}

async function panelOf(tabId) {
  return (await panels())[tabId] || null;
}

/** What a panel shows when it shows no paper. */
const NO_PAPER = Object.freeze({ key: null, title: "", paper: null, paper_id: null, orphans: [], focus: null, noteIds: [], highlightIds: [] });

let changes = Promise.resolve();

/**
 * Change the state of tab `tabId`'s panel: `fn(panel or null)` returns the new state, null to
 * forget it, or undefined to leave it. One change at a time (requests of the content script and
 * the panel arrive together: a claim and an open must not undo each other). Resolves with the
 * state after the change.
 */
function change(tabId, fn) {
  const run = changes.then(async () => {
    const all = await panels();
    const next = fn(all[tabId] || null);
    if (next === undefined) return all[tabId] || null;
    if (next) all[tabId] = next;
    else delete all[tabId];
    await sessionStore.set(PANELS_KEY, all);
    return next;
  });
  changes = run.catch(() => {});
  return run;
}

/** Change the tab's panel with `fn` if it still shows paper `key` in the same frame (a request may
 * have waited on the server while the content script opened another paper or closed it); null
 * when it does not. */
async function updatePanel(tabId, { key, frameId }, fn) {
  let same = false;
  await change(tabId, (panel) => {
    if (!panel || panel.key !== key || panel.frameId !== frameId) return undefined;
    same = true;
    return fn({ ...panel });
  });
  return same;
}

function refused(message) {
  return Object.assign(new Error(message), { code: "forbidden" });
}

function newTicket() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The tab's panel when `sender` is its claimed frame (else null). */
async function claimedBy(sender) {
  if (!sender.tab) return null;
  const panel = await panelOf(sender.tab.id);
  return panel && panel.frameId != null && panel.frameId === sender.frameId ? panel : null;
}

/** The panel state of the frame that sent a message; refused unless it is its tab's panel showing a paper. */
async function boundTo(sender) {
  const panel = await claimedBy(sender);
  if (!panel || !panel.key) throw refused("This panel shows no paper: open it from a paper's Note button.");
  return panel;
}

/** Remember what the server said of a paper (the lookup and the panel both ask it). */
export function remember(key, paper) {
  if (key && paper) lastSeen.set(key, { id: paper.id, notes: paper.notes || [], highlights: paper.highlights || [], citation_key: paper.citation_key });
}

/** Of a PDF highlight, its page and the reader's address at it (#page=N&papershelf-highlight=id). */
function pdfPlace(binding, h) {
  if (h.field !== PDF_FIELD || !Number.isInteger(h.page)) return {};
  const link = binding.pdf_url ? readerUrl(chrome.runtime.getURL(""), binding.pdf_url, { page: h.page, highlight: h.id }) : null;
  return { page: h.page, link };
}

/** The content script made a panel frame (on a new page, or anew): a ticket for that frame to
 * claim. Whatever frame and paper the tab had before are forgotten. */
export async function panelTicket(_payload, sender) {
  const panel = await change(sender.tab.id, () => ({ ...NO_PAPER, frameId: null, ticket: newTicket(), pageFrameId: sender.frameId }));
  return { ticket: panel.ticket };
}

/** A panel frame hands in its tab's ticket: from now on it is that tab's panel. */
export async function claimPanel({ ticket }, sender) {
  if (!sender.tab) throw refused("Not this tab's panel.");
  await change(sender.tab.id, (panel) => {
    if (!panel || !panel.ticket || typeof ticket !== "string" || ticket !== panel.ticket) throw refused("Not this tab's panel.");
    return { ...panel, ticket: null, frameId: sender.frameId }; // the ticket works once
  });
  ringPanels(sender.tab.id, sender.frameId);
  return {};
}

/** The content script asks: show paper `key` in the tab's panel. */
/** The PDF a panel's PDF highlights link to, and whether the panel is in the reader: the
 * reader's own PDF, else arXiv's for an arXiv paper. */
function pdfOfPanel(key, sender) {
  const base = chrome.runtime.getURL("");
  const url = typeof sender.url === "string" ? sender.url : "";
  if (url.startsWith(base + READER_PATH)) return { pdf_url: fileFromSearch(new URL(url).search), in_reader: true };
  return { pdf_url: arxivPaperOfPdf(`https://arxiv.org/pdf/${key}`) ? pdfUrlOf({ arxiv_id: key }) : null, in_reader: false };
}

export async function openPanel({ key, paper, paper_id, orphans, focus }, sender) {
  if (typeof key !== "string" || !key) throw Object.assign(new Error("open-panel: a paper key is needed"), { code: "invalid" });
  const pdf = pdfOfPanel(key, sender);
  const panel = await change(sender.tab.id, (prev) => ({
    ...(prev || { frameId: null, ticket: null }),
    ...NO_PAPER,
    pageFrameId: sender.frameId,
    key,
    title: (paper && typeof paper.title === "string" && paper.title) || key,
    paper: paper && typeof paper === "object" ? paper : null,
    paper_id: paper_id || null,
    orphans: (Array.isArray(orphans) ? orphans : []).slice(0, ORPHANS_MAX).map(String),
    focus: focus && focus.highlight != null ? { highlight: String(focus.highlight) } : null,
    ...pdf,
  }));
  if (panel.frameId != null) ringPanels(sender.tab.id, panel.frameId);
  return {};
}

/** Close the tab's panel: the content script (Note clicked again) or the panel itself (Escape, ×). */
export async function closePanel(_payload, sender, fromPanel) {
  if (!sender.tab) return {};
  let closed = null;
  await change(sender.tab.id, (panel) => {
    if (!panel || (fromPanel && panel.frameId !== sender.frameId)) return undefined;
    closed = panel;
    return { ...panel, ...NO_PAPER };
  });
  if (!closed) return {};
  if (closed.frameId != null) ringPanels(sender.tab.id, closed.frameId); // the panel forgets what it showed
  if (fromPanel && closed.key) tellPage(sender.tab.id, closed.pageFrameId, MessageType.PANEL_CLOSED, {});
  return {};
}

/** What a panel shows: the bound paper's notes and highlights, with what still waits to be sent. */
export async function panelState(_payload, sender) {
  const frame = { tabId: sender.tab ? sender.tab.id : null, frameId: sender.frameId ?? null };
  const binding = await claimedBy(sender);
  if (!binding || !binding.key) return { frame, bound: false };
  const view = {
    frame,
    bound: true,
    key: binding.key,
    title: binding.title,
    paper_id: binding.paper_id,
    citation_key: null,
    notes: [],
    highlights: [],
    focus: binding.focus,
    in_reader: Boolean(binding.in_reader),
    error: "",
  };
  let server;
  try {
    // A paper the page did not know saved (or that a note in the outbox saved since) is looked up.
    server = binding.paper_id ? await getPaper(binding.paper_id) : (await lookupPage(await client(), [binding.key])).papers[binding.key] || null;
    if (server) remember(binding.key, server);
  } catch (err) {
    view.error = err.code === "unreachable" ? "The server is not reachable: this is what was last seen." : err.message;
    server = lastSeen.get(binding.key) || null;
  }
  if (server && server.id != null) view.paper_id = server.id;
  view.library_url = view.paper_id ? libraryUrl((await settings()).serverUrl, view.paper_id) : null;
  const orphans = new Set(binding.orphans);
  if (server) {
    view.citation_key = server.citation_key || null;
    view.published = publishedLine(server);
    view.notes = (server.notes || []).map((n) => ({ id: String(n.id), body: n.body }));
    view.highlights = (server.highlights || []).map((h) => ({
      id: String(h.id),
      exact: h.exact,
      color: h.color,
      comment: h.comment || "",
      orphan: orphans.has(String(h.id)),
      ...pdfPlace(binding, h),
    }));
  }
  for (const item of await outbox.items()) {
    if (!item.payload || item.payload.key !== binding.key) continue;
    if (item.kind === ItemKind.NOTE) view.notes.push({ id: queuedId(item.client_id), body: item.payload.body, queued: true });
    if (item.kind === ItemKind.HIGHLIGHT) {
      const h = item.payload.highlight || {};
      view.highlights.push({ id: queuedId(item.client_id), exact: h.exact, color: h.color, comment: h.comment || "", queued: true });
    }
  }
  // What this panel may change from now on: the notes and highlights it was shown. A focus
  // request is carried out once.
  const current = await updatePanel(frame.tabId, binding, (panel) => ({
    ...panel,
    paper_id: view.paper_id || panel.paper_id,
    noteIds: view.notes.filter((n) => !n.queued).map((n) => n.id),
    highlightIds: view.highlights.filter((h) => !h.queued).map((h) => h.id),
    focus: null,
  }));
  if (!current) return { frame, bound: false, stale: true }; // another paper now: the doorbell rang
  // The page's bar shows counts: tell it how many notes there are now (never what they say).
  const patch = { note_count: view.notes.length };
  if (server && !view.error && view.paper_id) Object.assign(patch, { status: "saved", paper_id: view.paper_id, citation_key: view.citation_key });
  tellPage(frame.tabId, binding.pageFrameId, MessageType.PAPER_UPDATE, { key: binding.key, patch });
  return view;
}

/** A new note on the panel's paper (saving the paper first when it is not saved yet). */
export async function addNote({ body }, sender) {
  const binding = await boundTo(sender);
  if (typeof body !== "string" || !body.trim()) throw Object.assign(new Error("The note is empty."), { code: "invalid" });
  const r = await sendOrQueue(ItemKind.NOTE, {
    paper_id: binding.paper_id,
    paper: binding.paper,
    paper_client_id: crypto.randomUUID(),
    body,
    key: binding.key,
  });
  if (r.paper && r.paper.id !== binding.paper_id) {
    await updatePanel(sender.tab.id, binding, (panel) => ({ ...panel, paper_id: r.paper.id }));
  }
  return { status: r.status };
}

function mustBeShown(ids, id, what) {
  if (!ids.includes(String(id))) throw refused(`This panel did not show that ${what}.`);
}

export async function changeNote({ id, body }, sender) {
  const binding = await boundTo(sender);
  mustBeShown(binding.noteIds, id, "note");
  if (typeof body !== "string" || !body.trim()) throw Object.assign(new Error("The note is empty."), { code: "invalid" });
  const note = await updateNote(id, body);
  return { id: String(note.id), body: note.body };
}

export async function removeNote({ id }, sender) {
  const binding = await boundTo(sender);
  mustBeShown(binding.noteIds, id, "note");
  await deleteNote(id);
  await updatePanel(sender.tab.id, binding, (panel) => ({ ...panel, noteIds: panel.noteIds.filter((n) => n !== String(id)) }));
  return {};
}

export async function changeComment({ id, comment }, sender) {
  const binding = await boundTo(sender);
  mustBeShown(binding.highlightIds, id, "highlight");
  const h = await updateHighlight(id, typeof comment === "string" ? comment : "");
  return { id: String(h.id), comment: h.comment || "" };
}

/** The BibTeX entry of the panel's paper, as the server exports it. */
export async function paperBibtex(_payload, sender) {
  const binding = await boundTo(sender);
  if (!binding.paper_id) throw Object.assign(new Error("Save the paper first."), { code: "not_saved" });
  const { text } = await exportLibrary("bibtex", { ids: [binding.paper_id] });
  return { text };
}

// ---- tags, groups, reading state and star of the panel's paper

/** What a paper's reading state may be (the server's rule). */
export const READING_STATES = Object.freeze(["unread", "to_read", "reading", "read"]);
const RECENT_TAGS_MAX = 8;
const RECENT_FROM = 50; // papers: the newest saved, whose tags are the ones used last

/** The tags of `papers` (newest first), the ones used last first, each once (case aside). */
export function recentTags(papers, max = RECENT_TAGS_MAX) {
  const seen = new Map();
  for (const p of papers || []) {
    for (const t of (p && p.tags) || []) {
      const k = String(t).toLowerCase();
      if (!seen.has(k)) seen.set(k, String(t));
      if (seen.size >= max) return [...seen.values()];
    }
  }
  return [...seen.values()];
}

function invalid(message) {
  return Object.assign(new Error(message), { code: "invalid" });
}

/** Tags as the user typed them: trimmed, blanks dropped, each once (case aside), within the limits. */
export function cleanTags(tags) {
  if (!Array.isArray(tags)) throw invalid("Tags are a list.");
  const out = new Map();
  for (const t of tags) {
    if (typeof t !== "string") throw invalid("A tag is text.");
    const tag = t.replace(/\s+/g, " ").trim();
    if (!tag) continue;
    if (tag.length > LIMITS.tag) throw invalid(`A tag is at most ${LIMITS.tag} characters: “${tag.slice(0, 40)}…”.`);
    if (!out.has(tag.toLowerCase())) out.set(tag.toLowerCase(), tag);
  }
  if (out.size > LIMITS.tags) throw invalid(`At most ${LIMITS.tags} tags on a paper.`);
  return [...out.values()];
}

function cleanGroups(groups) {
  if (!Array.isArray(groups) || !groups.every((g) => Number.isSafeInteger(g) && g > 0)) throw invalid("Groups are a list of group ids.");
  return [...new Set(groups)];
}

/** What the panel offers for its paper: the tags used last, the user's groups, and the paper's
 * own tags, groups, reading state and star once it is saved; with the library's address. */
export async function panelChoices(_payload, sender) {
  const binding = await boundTo(sender);
  const api = await client();
  const { serverUrl } = await settings();
  const [page, mine] = await Promise.all([api.listPapers({ limit: RECENT_FROM }), api.listGroups()]);
  let paper = null;
  if (binding.paper_id) {
    const [p, shared] = await Promise.all([api.getPaper(binding.paper_id), api.paperGroups(binding.paper_id)]);
    paper = {
      id: p.id,
      tags: p.tags || [],
      groups: (shared.items || []).map((g) => g.id),
      reading_state: p.reading_state ?? null,
      starred: p.starred ?? null,
    };
  }
  return {
    recent_tags: recentTags(page.items),
    groups: (mine.items || []).map((g) => ({ id: g.id, name: g.name })),
    paper,
    library_url: libraryUrl(serverUrl, paper ? paper.id : null),
  };
}

/** Save the panel's paper with these tags and groups; when it is saved already, they become its
 * tags and the groups it is shared to. The page's bar is told it is saved (no tag in it). */
export async function panelSave({ tags, groups }, sender) {
  const binding = await boundTo(sender);
  const wanted = { tags: cleanTags(tags ?? []), groups: cleanGroups(groups ?? []) };
  const tabId = sender.tab.id;
  if (binding.paper_id) {
    const p = await (await client()).patchPaper(binding.paper_id, wanted);
    ringPanels(tabId, binding.frameId);
    return { status: "sent", paper_id: p.id, tags: p.tags || [] };
  }
  if (!binding.paper) throw invalid("The page gave nothing to save for this paper.");
  const r = await sendOrQueue(ItemKind.SAVE, { paper: { ...binding.paper, ...wanted } }, saveDedupeKey(binding.key));
  if (r.status === "queued") return { status: "queued" }; // the page's bar learns it once sent (refreshPages)
  await updatePanel(tabId, binding, (panel) => ({ ...panel, paper_id: r.paper.id }));
  tellPage(tabId, binding.pageFrameId, MessageType.PAPER_UPDATE, {
    key: binding.key,
    patch: { status: "saved", paper_id: r.paper.id, citation_key: r.paper.citation_key },
  });
  ringPanels(tabId, binding.frameId);
  return { status: "sent", paper_id: r.paper.id, tags: r.paper.tags || [] };
}

/** The reading state and star of the panel's saved paper. */
export async function panelPatch({ reading_state, starred }, sender) {
  const binding = await boundTo(sender);
  if (!binding.paper_id) throw Object.assign(new Error("Save the paper first."), { code: "not_saved" });
  const body = {};
  if (reading_state !== undefined) {
    if (!READING_STATES.includes(reading_state)) throw invalid(`A reading state is one of ${READING_STATES.join(", ")}.`);
    body.reading_state = reading_state;
  }
  if (starred !== undefined) {
    if (typeof starred !== "boolean") throw invalid("The star is on or off.");
    body.starred = starred;
  }
  if (!Object.keys(body).length) throw invalid("Nothing to change.");
  const p = await (await client()).patchPaper(binding.paper_id, body);
  return { reading_state: p.reading_state ?? null, starred: p.starred ?? null };
}

/** A tab was closed: forget its panel. */
export async function forgetTab(tabId) {
  await change(tabId, (panel) => (panel ? null : undefined));
}
