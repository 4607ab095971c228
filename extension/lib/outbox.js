/**
 * The outbox: saves, notes and highlights made while the server is unreachable wait here and are
 * sent later, each exactly once. Every item carries a `client_id` (uuid) that the server uses to
 * make a retried POST idempotent; an item for the same thing (same `dedupe_key`) replaces the
 * waiting one instead of queueing twice.
 *
 * Pure logic over an injected storage `{get(key) → value, set(key, value)}` and clock; the
 * background worker backs it with chrome.storage.local and wakes it with chrome.alarms.
 */

const OUTBOX_KEY = "outbox";
const FAILED_KEY = "outboxFailed";

/** Delay before retry number `attempts` (1, 2, …): exponential with a cap and ±20 % jitter. */
export function backoffDelay(attempts, { baseMs = 5000, maxMs = 5 * 60 * 1000, random = Math.random } = {}) {
  const raw = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(raw * (0.8 + 0.4 * random()));
}

/** The id a note or highlight waiting in the outbox is shown under (the page paints it, the notes
 * panel lists it) until the server gives it its own. */
export function queuedId(clientId) {
  return `queued-${clientId}`;
}

/** Errors a send function throws; `retryable` decides between waiting and giving up. */
export class SendError extends Error {
  constructor(message, { retryable = true, status = 0, code = "" } = {}) {
    super(message);
    this.name = "SendError";
    this.retryable = retryable;
    this.status = status;
    this.code = code;
  }
}

/** HTTP statuses worth retrying: the server or the network is having a moment. */
export function isRetryableStatus(status) {
  return status === 0 || status === 408 || status === 425 || status === 429 || status >= 500;
}

export class Outbox {
  constructor({ storage, now = () => Date.now(), uuid = () => crypto.randomUUID(), backoff = backoffDelay } = {}) {
    this.storage = storage;
    this.now = now;
    this.uuid = uuid;
    this.backoff = backoff;
    this.flushing = null;
  }

  async items() {
    return (await this.storage.get(OUTBOX_KEY)) || [];
  }

  async failed() {
    return (await this.storage.get(FAILED_KEY)) || [];
  }

  async count() {
    return (await this.items()).length;
  }

  /**
   * Queue `{kind, payload, dedupe_key?}`. Returns the queued item. An item with the same
   * `dedupe_key` is updated in place (newer payload, same client_id, its place in the queue).
   */
  async add({ kind, payload, dedupe_key = null, client_id = null }) {
    const items = await this.items();
    if (dedupe_key) {
      const same = items.find((it) => it.dedupe_key === dedupe_key);
      if (same) {
        same.payload = { ...same.payload, ...payload };
        same.next_at = Math.min(same.next_at, this.now());
        await this.storage.set(OUTBOX_KEY, items);
        return same;
      }
    }
    const item = {
      client_id: client_id || this.uuid(),
      kind,
      payload,
      dedupe_key,
      attempts: 0,
      created_at: this.now(),
      next_at: this.now(),
      last_error: null,
    };
    items.push(item);
    await this.storage.set(OUTBOX_KEY, items);
    return item;
  }

  async remove(clientId) {
    const items = await this.items();
    await this.storage.set(OUTBOX_KEY, items.filter((it) => it.client_id !== clientId));
  }

  /**
   * Send what is due, strictly oldest first, with `send(item) → result`. Stops at the first retryable
   * failure (the server is most likely down: no point hammering it with the rest). A permanent
   * failure (a 4xx the server will answer the same way again) moves the item to the failed list.
   * Concurrent calls share one run, so an item is never sent twice at once.
   * `force` ignores the backoff schedule (e.g. the user asked, or the server answered again).
   */
  flush(send, { force = false } = {}) {
    if (!this.flushing) {
      this.flushing = this.#run(send, force).finally(() => {
        this.flushing = null;
      });
    }
    return this.flushing;
  }

  async #run(send, force) {
    const sent = [];
    const failed = [];
    let stoppedBy = null;
    for (;;) {
      const items = await this.items();
      const now = this.now();
      // Oldest first, and in order: a note may depend on the save queued before it.
      const item = items[0];
      if (!item || (!force && item.next_at > now)) break;
      try {
        const result = await send(item);
        await this.remove(item.client_id);
        sent.push({ item, result });
      } catch (err) {
        const retryable = !(err && err.retryable === false);
        const latest = await this.items();
        const current = latest.find((it) => it.client_id === item.client_id);
        if (!current) continue;
        if (retryable) {
          current.attempts += 1;
          current.last_error = String((err && err.message) || err);
          current.next_at = this.now() + this.backoff(current.attempts);
          await this.storage.set(OUTBOX_KEY, latest);
          stoppedBy = current;
          break;
        }
        await this.storage.set(OUTBOX_KEY, latest.filter((it) => it.client_id !== item.client_id));
        const dead = await this.failed();
        dead.push({ ...current, failed_at: this.now(), last_error: String((err && err.message) || err) });
        await this.storage.set(FAILED_KEY, dead.slice(-50));
        failed.push({ item: current, error: err });
      }
    }
    return { sent, failed, stoppedBy, remaining: (await this.items()).length };
  }
}

/** A storage backed by a plain Map (tests, and a fallback). */
export function memoryStorage(initial = {}) {
  const data = new Map(Object.entries(initial));
  return {
    async get(key) {
      return data.has(key) ? structuredClone(data.get(key)) : undefined;
    },
    async set(key, value) {
      data.set(key, structuredClone(value));
    },
  };
}
