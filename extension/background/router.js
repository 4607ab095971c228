/**
 * The worker's one message router: one table from message type (lib/messages.js) to handler,
 * for the one-off messages of the popup and options page and the ports of the content scripts
 * and the notes panels alike. Every message comes through route() with its sender, which is
 * checked here (trust.js): the extension's own pages may send any type; a content script only
 * the types lib/messages.js lists for it, and only from a page the manifest's content-script
 * patterns match; the PDF reader only its READER_TYPES; anyone else is refused. {type, payload} in; {ok: true, result} or
 * {ok: false, error} out.
 */

import { MessageType, PORT_NAME } from "../lib/messages.js";
import { ItemKind, client, exportLibrary, lookupPage, recentSaves, settings, testConnection } from "./sender.js";
import { describeOutbox, flush, flushIfWaiting, queuedSaveKeys, saveDedupeKey, sendOrQueue } from "./outbox.js";
import {
  addNote,
  changeComment,
  changeNote,
  claimPanel,
  closePanel,
  openPanel,
  panelChoices,
  panelPatch,
  panelSave,
  panelState,
  panelTicket,
  paperBibtex,
  remember,
  removeNote,
} from "./panels.js";
import { openReader, originalPdf, pdfRedirects } from "./reader.js";
import { isPrivatePage, saveActiveTab, savedShownCount, showSavedState } from "./tabs.js";
import { Role, extensionIdentity, mayAsk, pageSafeHighlight, pageSafePaper, pageSafeShared, senderRole } from "./trust.js";

/** A content script's answer about a save or a highlight, with nothing private in it. */
function forPage(r) {
  const out = { ...r };
  if (r.paper) out.paper = pageSafePaper(r.paper);
  if (r.highlight) out.highlight = pageSafeHighlight(r.highlight);
  return out;
}

/** A private page's answer: what it sent became of, nothing of what the library held before
 * (no key, counts or earlier highlights). */
function forPrivatePage(r) {
  const out = { status: r.status };
  if (r.client_id) out.client_id = r.client_id;
  if (r.paper) out.paper = { id: r.paper.id };
  if (r.highlight) out.highlight = pageSafeHighlight(r.highlight);
  return out;
}

/** type → handler(payload, sender, role). Looked up at each message, so that a test may wrap one. */
export const handlers = {
  async [MessageType.LOOKUP]({ keys }, sender, role) {
    const api = await client();
    await flushIfWaiting();
    if (isPrivatePage(sender, role)) {
      // A page outside the named sites asks for its one paper, and is told nothing: the answer
      // goes to the toolbar badge (and the panel, which asks the worker itself).
      const [key] = Array.isArray(keys) ? keys : [];
      const tabId = sender.tab.id;
      const shown = savedShownCount(tabId);
      const { papers } = await lookupPage(api, key ? [key] : []);
      if (papers[key]) remember(key, papers[key]);
      // "Not saved", asked before a save of this tab showed ✓ and answered after: what was true
      // before the save, which must not clear its badge.
      if (papers[key] || savedShownCount(tabId) === shown) await showSavedState(tabId, Boolean(papers[key]));
      return { papers: {}, queued: [], shared: {} };
    }
    const { papers, shared } = await lookupPage(api, keys);
    const safe = {};
    for (const [key, p] of Object.entries(papers)) {
      remember(key, p);
      safe[key] = pageSafePaper(p);
    }
    return { papers: safe, queued: await queuedSaveKeys(), shared: pageSafeShared(shared) };
  },
  async [MessageType.SAVE]({ key, paper }, sender, role) {
    const r = await sendOrQueue(ItemKind.SAVE, { paper }, saveDedupeKey(key));
    if (!isPrivatePage(sender, role)) return forPage(r);
    if (r.paper) {
      remember(key, r.paper);
      await showSavedState(sender.tab.id, true);
    }
    return forPrivatePage(r);
  },
  async [MessageType.HIGHLIGHT]({ key, paper_id, paper, highlight }, sender, role) {
    const r = await sendOrQueue(ItemKind.HIGHLIGHT, { paper_id, paper, paper_client_id: crypto.randomUUID(), highlight, key });
    return isPrivatePage(sender, role) ? forPrivatePage(r) : forPage(r);
  },
  [MessageType.PANEL_TICKET]: panelTicket,
  [MessageType.OPEN_PANEL]: openPanel,
  [MessageType.CLOSE_PANEL](payload, sender, role) {
    return closePanel(payload, sender, role === Role.EXTENSION);
  },
  [MessageType.OPEN_READER]: openReader,
  [MessageType.ORIGINAL_PDF]: originalPdf,
  [MessageType.PDF_REDIRECTS]: pdfRedirects,
  [MessageType.CLAIM_PANEL]: claimPanel,
  [MessageType.PANEL_STATE]: panelState,
  [MessageType.NOTE]: addNote,
  [MessageType.UPDATE_NOTE]: changeNote,
  [MessageType.DELETE_NOTE]: removeNote,
  [MessageType.UPDATE_HIGHLIGHT]: changeComment,
  [MessageType.BIBTEX]: paperBibtex,
  [MessageType.PANEL_CHOICES]: panelChoices,
  [MessageType.PANEL_SAVE]: panelSave,
  [MessageType.PANEL_PATCH]: panelPatch,
  async [MessageType.STATUS]() {
    const s = await settings();
    return { configured: Boolean(s.token), serverUrl: s.serverUrl, recent: await recentSaves(), ...(await describeOutbox()) };
  },
  [MessageType.SAVE_PAGE]() {
    return saveActiveTab();
  },
  async [MessageType.FLUSH]() {
    const r = await flush({ force: true });
    return { sent: r.sent.length, remaining: r.remaining };
  },
  [MessageType.TEST_CONNECTION]({ serverUrl, token }) {
    return testConnection({ serverUrl, token });
  },
  [MessageType.EXPORT]({ format = "bibtex" } = {}) {
    return exportLibrary(format);
  },
};

let identity = null;

/** {type, payload} from `sender` → a promise of its answer, or null for a type nobody handles. */
export function route(msg, sender) {
  const handler = msg && typeof msg.type === "string" && Object.hasOwn(handlers, msg.type) ? handlers[msg.type] : null;
  if (!handler) return null;
  identity = identity || extensionIdentity();
  const role = senderRole(sender, identity);
  if (!mayAsk(role, msg.type)) {
    return Promise.resolve({ ok: false, error: { message: `refused: ${msg.type} is not for this sender`, code: "forbidden", status: 0 } });
  }
  const payload = msg.payload && typeof msg.payload === "object" ? msg.payload : {};
  return Promise.resolve()
    .then(() => handler(payload, sender, role))
    .then(
      (result) => ({ ok: true, result }),
      (err) => ({ ok: false, error: { message: err.message || String(err), code: err.code || "", status: err.status || 0 } }),
    );
}

/** chrome.runtime.onMessage: the popup and options page send one-off messages. */
export function answerMessage(msg, sender, sendResponse) {
  const answer = route(msg, sender);
  if (!answer) return false;
  answer.then(sendResponse);
  return true; // answer asynchronously
}

/** chrome.runtime.onConnect: a content script's or a panel's port, {id, type, payload} in, {id, ok, …} out. */
export function answerPort(port) {
  if (port.name !== PORT_NAME) return;
  port.onMessage.addListener((msg) => {
    const answer = route(msg, port.sender) || Promise.resolve({ ok: false, error: { message: `unknown message ${msg && msg.type}` } });
    answer.then((res) => {
      try {
        port.postMessage({ id: msg && msg.id, ...res });
      } catch {
        // the page went away
      }
    });
  });
}
