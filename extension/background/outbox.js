/**
 * The worker's outbox: lib/outbox.js's queue kept in chrome.storage.local, sent with sender.js,
 * retried by chrome.alarms, counted on the toolbar badge. What cannot be sent now (server down,
 * 5xx, 429) waits here under the client_id it was first sent with, so that a request that did
 * arrive is not stored twice when it is retried.
 */

import { Outbox } from "../lib/outbox.js";
import { refreshPages, ringPanels } from "./notify.js";
import { storage } from "./storage.js";
import { ItemKind, client, senders } from "./sender.js";

export const OUTBOX_ALARM = "papershelf-outbox";
const SAVE_KEY_PREFIX = "save:";
const FLUSH_ON_LOOKUP_EVERY_MS = 2000;

export const outbox = new Outbox({ storage });

/** What makes two queued saves the same save: the paper's key (lib/ids.js paperKey: its arXiv id,
 * else its URL), which the lookup reports back to pages as queued. */
export function saveDedupeKey(paperKey) {
  return paperKey ? SAVE_KEY_PREFIX + paperKey : null; // no key: never taken for another save
}

/** The keys of the papers whose save waits. */
export async function queuedSaveKeys() {
  return (await outbox.items())
    .filter((it) => it.kind === ItemKind.SAVE && it.dedupe_key)
    .map((it) => it.dedupe_key.slice(SAVE_KEY_PREFIX.length));
}

/** Send now; when the server cannot take it, queue it with the same client_id. */
export async function sendOrQueue(kind, payload, dedupeKey) {
  const api = await client();
  const clientId = crypto.randomUUID();
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
  await showWaiting();
  return { status: "queued", client_id: item.client_id };
}

/** Send what is due (`force`: all of it, now). Pages are told to look again when something went. */
export async function flush({ force = false } = {}) {
  let api;
  try {
    api = await client();
  } catch {
    return { sent: [], remaining: await outbox.count() };
  }
  const result = await outbox.flush((item) => senders[item.kind](api, item.payload, item.client_id), { force });
  await showWaiting();
  if (result.sent.length) {
    refreshPages();
    ringPanels(); // a panel listing what waited shows it as sent
  }
  return result;
}

let lastFlushOnLookup = 0;

/** A page load is a good moment to send what waits (the server may be back); at most every 2 s. */
export async function flushIfWaiting() {
  if ((await outbox.count()) > 0 && Date.now() - lastFlushOnLookup > FLUSH_ON_LOOKUP_EVERY_MS) {
    lastFlushOnLookup = Date.now();
    await flush({ force: true });
  }
}

/** The badge, the button's title and the retry alarm, after the outbox changed. */
export async function showWaiting() {
  const n = await outbox.count();
  await chrome.action.setBadgeText({ text: n ? String(n) : "" });
  if (n) {
    await chrome.action.setBadgeBackgroundColor({ color: "#b45309" });
    await chrome.action.setTitle({ title: `papershelf: ${n} waiting for the server` });
    const existing = await chrome.alarms.get(OUTBOX_ALARM);
    if (!existing) chrome.alarms.create(OUTBOX_ALARM, { delayInMinutes: 0.5, periodInMinutes: 0.5 });
  } else {
    await chrome.action.setTitle({ title: "papershelf" });
    await chrome.alarms.clear(OUTBOX_ALARM);
  }
}

/** What waits and what failed for good, as the popup lists them. */
export async function describeOutbox() {
  const titleOf = (it) => (it.payload.paper && it.payload.paper.title) || "";
  return {
    queued: (await outbox.items()).map((it) => ({
      client_id: it.client_id,
      kind: it.kind,
      title: titleOf(it),
      attempts: it.attempts,
      last_error: it.last_error,
      next_at: it.next_at,
    })),
    failed: (await outbox.failed()).map((it) => ({ kind: it.kind, title: titleOf(it), last_error: it.last_error })),
  };
}
