/**
 * A request/answer line to the background worker over one long-lived port, for the content
 * script and the notes panel alike. Cheaper per message than runtime.sendMessage, which sets up a
 * channel each time (a save has to show "Saved" within 50 ms). When the worker was stopped the
 * port disconnects; the next request opens a new one. `connect` is injected (chrome.runtime.connect
 * in the extension, a fake in node tests).
 */

import { resultOf } from "./messages.js";

/** A client on ports made by `connect()`: request(type, payload) → the worker's result. */
export function createPortClient(connect) {
  let port = null;
  let lastId = 0;
  /** message id → resolve of its answer */
  const waiting = new Map();

  function openPort() {
    const p = connect();
    p.onMessage.addListener((msg) => {
      const resolve = msg && waiting.get(msg.id);
      if (resolve) {
        waiting.delete(msg.id);
        resolve(msg);
      }
    });
    p.onDisconnect.addListener(() => {
      if (port === p) port = null;
      for (const resolve of waiting.values()) resolve({ ok: false, retry: true });
      waiting.clear();
    });
    port = p;
    return p;
  }

  /** Post {id, type, payload}; resolves with the worker's answer {id, ok, result | error}. */
  function post(type, payload) {
    return new Promise((resolve) => {
      const id = ++lastId;
      waiting.set(id, resolve);
      try {
        (port || openPort()).postMessage({ id, type, payload });
      } catch (err) {
        waiting.delete(id);
        port = null;
        resolve({ ok: false, retry: true, error: { message: String(err.message || err) } });
      }
    });
  }

  /** Ask the worker (a type of lib/messages.js): its result, or an Error with the answer's code. */
  async function request(type, payload = {}) {
    let answer;
    try {
      answer = await post(type, payload);
      // The worker went away mid-request: ask once more (requests are idempotent by client_id).
      if (answer && answer.retry) answer = await post(type, payload);
    } catch (err) {
      throw new Error(`papershelf extension unavailable: ${err.message || err}`, { cause: err });
    }
    return resultOf(answer);
  }

  return { request };
}
