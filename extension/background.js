/**
 * The background service worker: the only part that talks to the papershelf server, and the only
 * holder of the token. One message router ({type, payload} → {ok, result | error}); an outbox in
 * chrome.storage.local for what could not be sent, retried by chrome.alarms; the toolbar badge
 * shows how many items wait.
 */

import { createClient, testConnection, normalizeServerUrl, DEFAULT_SERVER_URL } from "./lib/api.js";
import { Outbox } from "./lib/outbox.js";
import { readCitationMeta, toSavePayload } from "./lib/adapters.js";
import { MessageType, PORT_NAME } from "./lib/messages.js";

const ALARM = "papershelf-outbox";
const RECENT_KEY = "recentSaves";
const RECENT_MAX = 20;

// chrome.storage.local, with what this worker wrote or read kept in memory: a save must turn
// into "Saved" within 50 ms, and each storage round trip costs a few. Only this worker writes
// these keys; settings written by the options page arrive through onChanged.
const memo = new Map();
const storage = {
  async get(key) {
    if (!memo.has(key)) memo.set(key, (await chrome.storage.local.get(key))[key]);
    return structuredClone(memo.get(key));
  },
  async set(key, value) {
    memo.set(key, structuredClone(value));
    await chrome.storage.local.set({ [key]: value });
  },
};
chrome.storage.onChanged.addListener((changes, area) => {
  if (area !== "local") return;
  for (const [key, { newValue }] of Object.entries(changes)) memo.set(key, newValue);
});

const outbox = new Outbox({ storage });

async function settings() {
  const serverUrl = await storage.get("serverUrl");
  const token = await storage.get("token");
  return { serverUrl: normalizeServerUrl(serverUrl || DEFAULT_SERVER_URL), token: token || "" };
}

async function client() {
  const s = await settings();
  if (!s.token) {
    const err = new Error("papershelf is not set up: open the extension's options and paste your token.");
    err.code = "not_configured";
    throw err;
  }
  return createClient(s);
}

function uuid() {
  return crypto.randomUUID();
}

async function remember(paper) {
  const recent = (await storage.get(RECENT_KEY)) || [];
  const entry = { id: paper.id, title: paper.title, arxiv_id: paper.arxiv_id, citation_key: paper.citation_key, at: Date.now() };
  const rest = recent.filter((r) => r.id !== paper.id);
  await storage.set(RECENT_KEY, [entry, ...rest].slice(0, RECENT_MAX));
}

// ---------------------------------------------------------------------------------------------
// Sending (directly, or later from the outbox)

async function ensurePaper(api, payload) {
  if (payload.paper_id) return { id: payload.paper_id, paper: null };
  const paper = await api.savePaper({ ...payload.paper, client_id: payload.paper_client_id });
  await remember(paper);
  return { id: paper.id, paper };
}

const senders = {
  async save(api, payload, clientId) {
    const paper = await api.savePaper({ ...payload.paper, client_id: clientId });
    remember(paper).catch(() => {}); // the popup's list; the page need not wait for it
    return { paper };
  },
  async note(api, payload, clientId) {
    const { id, paper } = await ensurePaper(api, payload);
    const note = await api.addNote(id, { body: payload.body, client_id: clientId });
    return { note, paper };
  },
  async highlight(api, payload, clientId) {
    const { id, paper } = await ensurePaper(api, payload);
    const highlight = await api.addHighlight(id, { ...payload.highlight, client_id: clientId });
    return { highlight, paper };
  },
};

/**
 * Send now; when the server cannot be reached (or answers 5xx/429), queue it with the same
 * client_id, so that a request that did arrive is not stored twice when it is retried.
 */
async function sendOrQueue(kind, payload, dedupeKey) {
  const api = await client();
  const clientId = uuid();
  // Keep strict order: while something waits, new items queue behind it.
  if ((await outbox.count()) > 0) {
    await flush({ force: true });
  }
  if ((await outbox.count()) === 0) {
    try {
      const result = await senders[kind](api, payload, clientId);
      return { status: "sent", ...result };
    } catch (err) {
      if (!err.retryable) throw err;
    }
  }
  const item = await outbox.add({ kind, payload, dedupe_key: dedupeKey, client_id: clientId });
  await afterOutboxChange();
  return { status: "queued", client_id: item.client_id };
}

async function flush({ force = false } = {}) {
  let api;
  try {
    api = await client();
  } catch {
    return { sent: [], remaining: await outbox.count() };
  }
  const result = await outbox.flush((item) => senders[item.kind](api, item.payload, item.client_id), { force });
  await afterOutboxChange();
  if (result.sent.length) notifyTabs();
  return result;
}

async function afterOutboxChange() {
  const n = await outbox.count();
  await chrome.action.setBadgeText({ text: n ? String(n) : "" });
  if (n) {
    await chrome.action.setBadgeBackgroundColor({ color: "#b45309" });
    await chrome.action.setTitle({ title: `papershelf: ${n} waiting for the server` });
    const existing = await chrome.alarms.get(ALARM);
    if (!existing) chrome.alarms.create(ALARM, { delayInMinutes: 0.5, periodInMinutes: 0.5 });
  } else {
    await chrome.action.setTitle({ title: "papershelf" });
    await chrome.alarms.clear(ALARM);
  }
}

async function notifyTabs() {
  let tabs;
  try {
    tabs = await chrome.tabs.query({});
  } catch {
    return;
  }
  for (const tab of tabs) {
    chrome.tabs.sendMessage(tab.id, { type: MessageType.REFRESH }).catch(() => {});
  }
}

// ---------------------------------------------------------------------------------------------
// The toolbar's "Save this page": pages the content script knows handle it themselves; any other
// page with Highwire citation_* tags is read by a function injected with activeTab (granted by
// the click on the toolbar button, for that tab only).

async function saveActiveTab() {
  const [tab] = await chrome.tabs.query({ active: true, currentWindow: true });
  if (!tab) throw new Error("No active tab.");
  try {
    const r = await chrome.tabs.sendMessage(tab.id, { type: MessageType.SAVE_FOCUSED });
    if (r && r.ok) return { status: "sent", via: "page" };
  } catch {
    // no papershelf content script in this tab: read its meta tags instead
  }
  const [injection] = await chrome.scripting.executeScript({ target: { tabId: tab.id }, func: readCitationMeta });
  const meta = injection && injection.result;
  if (!meta) throw new Error("This page has no citation_* meta tags: nothing to save.");
  const paper = toSavePayload(meta, tab.url);
  return sendOrQueue("save", { paper }, `save:${meta.arxiv_id || meta.doi || meta.url}`);
}

// ---------------------------------------------------------------------------------------------
// The router

let lastFlushAttempt = 0;

const handlers = {
  async [MessageType.LOOKUP]({ keys }) {
    const api = await client();
    // A page load is a good moment to send what waits (the server may be back).
    if ((await outbox.count()) > 0 && Date.now() - lastFlushAttempt > 2000) {
      lastFlushAttempt = Date.now();
      await flush({ force: true });
    }
    const wanted = [...new Set(keys || [])].slice(0, 1000);
    const result = wanted.length ? await api.lookup(wanted) : { papers: {} };
    const queued = (await outbox.items()).filter((it) => it.kind === "save").map((it) => it.dedupe_key.slice(5));
    return { papers: result.papers || {}, queued };
  },
  [MessageType.SAVE]({ key, paper }) {
    return sendOrQueue("save", { paper }, `save:${key}`);
  },
  [MessageType.NOTE]({ key, paper_id, paper, body }) {
    return sendOrQueue("note", { paper_id, paper, paper_client_id: uuid(), body, key });
  },
  [MessageType.HIGHLIGHT]({ key, paper_id, paper, highlight }) {
    return sendOrQueue("highlight", { paper_id, paper, paper_client_id: uuid(), highlight, key });
  },
  async [MessageType.UPDATE_NOTE]({ id, body }) {
    return (await client()).updateNote(id, { body });
  },
  async [MessageType.DELETE_NOTE]({ id }) {
    await (await client()).deleteNote(id);
    return {};
  },
  async [MessageType.STATUS]() {
    const s = await settings();
    return {
      configured: Boolean(s.token),
      serverUrl: s.serverUrl,
      recent: (await storage.get(RECENT_KEY)) || [],
      queued: (await outbox.items()).map((it) => ({
        client_id: it.client_id,
        kind: it.kind,
        title: (it.payload.paper && it.payload.paper.title) || "",
        attempts: it.attempts,
        last_error: it.last_error,
        next_at: it.next_at,
      })),
      failed: (await outbox.failed()).map((it) => ({ kind: it.kind, title: (it.payload.paper && it.payload.paper.title) || "", last_error: it.last_error })),
    };
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
  async [MessageType.EXPORT]({ format = "bibtex" } = {}) {
    const res = await (await client()).exportFile(format);
    if (!res.ok) throw Object.assign(new Error(`export failed: HTTP ${res.status}`), { status: res.status });
    const disposition = res.headers.get("Content-Disposition") || "";
    const m = /filename="?([^";]+)"?/.exec(disposition);
    return { text: await res.text(), filename: m ? m[1] : "papershelf.bib", type: res.headers.get("Content-Type") || "text/plain" };
  },
};

/** The one router: {type, payload} → {ok: true, result} | {ok: false, error}. */
function dispatch(msg, sender) {
  const handler = msg && typeof msg.type === "string" && Object.hasOwn(handlers, msg.type) ? handlers[msg.type] : null;
  if (!handler) return null;
  return Promise.resolve()
    .then(() => handler(msg.payload || {}, sender))
    .then(
      (result) => ({ ok: true, result }),
      (err) => ({ ok: false, error: { message: err.message || String(err), code: err.code || "", status: err.status || 0 } }),
    );
}

// Extension pages (popup, options) send one-off messages.
chrome.runtime.onMessage.addListener((msg, sender, sendResponse) => {
  const answer = dispatch(msg, sender);
  if (!answer) return false;
  answer.then(sendResponse);
  return true; // answer asynchronously
});

// Content scripts keep a port open: {id, type, payload} in, {id, ok, result | error} out.
chrome.runtime.onConnect.addListener((port) => {
  if (port.name !== PORT_NAME) return;
  port.onMessage.addListener((msg) => {
    const answer = dispatch(msg, port.sender) || Promise.resolve({ ok: false, error: { message: `unknown message ${msg && msg.type}` } });
    answer.then((res) => {
      try {
        port.postMessage({ id: msg.id, ...res });
      } catch {
        // the page went away
      }
    });
  });
});

chrome.alarms.onAlarm.addListener((alarm) => {
  if (alarm.name === ALARM) flush();
});

chrome.commands.onCommand.addListener(async (command) => {
  if (command !== "save-focused-paper") return;
  const [tab] = await chrome.tabs.query({ active: true, currentWindow: true });
  if (tab) chrome.tabs.sendMessage(tab.id, { type: MessageType.SAVE_FOCUSED }).catch(() => {});
});

chrome.runtime.onStartup.addListener(() => afterOutboxChange());
chrome.runtime.onInstalled.addListener(() => afterOutboxChange());

// For tests and the popup's console: the same functions the router uses.
globalThis.papershelf = { handlers, outbox, flush };
