/**
 * The worker's one message router: one table from message type (lib/messages.js) to handler,
 * for the one-off messages of the popup and options page and the content scripts' ports alike.
 * Every message comes through route() with its sender: the one place to check who sent it (no
 * check is made yet). {type, payload} in; {ok: true, result} or {ok: false, error} out.
 */

import { MessageType, PORT_NAME } from "../lib/messages.js";
import { ItemKind, client, deleteNote, exportLibrary, lookupPapers, recentSaves, settings, testConnection, updateNote } from "./sender.js";
import { describeOutbox, flush, flushIfWaiting, queuedSaveKeys, saveDedupeKey, sendOrQueue } from "./outbox.js";
import { saveActiveTab } from "./tabs.js";

/** type → handler(payload, sender). Looked up at each message, so that a test may wrap one. */
export const handlers = {
  async [MessageType.LOOKUP]({ keys }) {
    const api = await client();
    await flushIfWaiting();
    return { papers: await lookupPapers(api, keys), queued: await queuedSaveKeys() };
  },
  [MessageType.SAVE]({ key, paper }) {
    return sendOrQueue(ItemKind.SAVE, { paper }, saveDedupeKey(key));
  },
  [MessageType.NOTE]({ key, paper_id, paper, body }) {
    return sendOrQueue(ItemKind.NOTE, { paper_id, paper, paper_client_id: crypto.randomUUID(), body, key });
  },
  [MessageType.HIGHLIGHT]({ key, paper_id, paper, highlight }) {
    return sendOrQueue(ItemKind.HIGHLIGHT, { paper_id, paper, paper_client_id: crypto.randomUUID(), highlight, key });
  },
  [MessageType.UPDATE_NOTE]({ id, body }) {
    return updateNote(id, body);
  },
  async [MessageType.DELETE_NOTE]({ id }) {
    await deleteNote(id);
    return {};
  },
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

/** {type, payload} from `sender` → a promise of its answer, or null for a type nobody handles. */
export function route(msg, sender) {
  const handler = msg && typeof msg.type === "string" && Object.hasOwn(handlers, msg.type) ? handlers[msg.type] : null;
  if (!handler) return null;
  return Promise.resolve()
    .then(() => handler(msg.payload || {}, sender))
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

/** chrome.runtime.onConnect: a content script's port, {id, type, payload} in, {id, ok, …} out. */
export function answerPort(port) {
  if (port.name !== PORT_NAME) return;
  port.onMessage.addListener((msg) => {
    const answer = route(msg, port.sender) || Promise.resolve({ ok: false, error: { message: `unknown message ${msg && msg.type}` } });
    answer.then((res) => {
      try {
        port.postMessage({ id: msg.id, ...res });
      } catch {
        // the page went away
      }
    });
  });
}
