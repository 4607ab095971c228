/**
 * The content script's line to the background worker, which alone talks to the server. A
 * long-lived port: cheaper per message than runtime.sendMessage, which sets up a channel each
 * time (a save has to show "Saved" within 50 ms). When the worker was stopped the port
 * disconnects; the next message opens a new one.
 */

import { PORT_NAME, resultOf } from "../lib/messages.js";

let port = null;
let lastId = 0;
/** message id → resolve of its answer */
const waiting = new Map();

function openPort() {
  port = chrome.runtime.connect({ name: PORT_NAME });
  port.onMessage.addListener((msg) => {
    const resolve = waiting.get(msg.id);
    if (resolve) {
      waiting.delete(msg.id);
      resolve(msg);
    }
  });
  port.onDisconnect.addListener(() => {
    port = null;
    for (const resolve of waiting.values()) resolve({ ok: false, retry: true });
    waiting.clear();
  });
  return port;
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
      resolve({ ok: false, retry: true, error: { message: String(err.message || err) } });
    }
  });
}

/** Ask the worker (a type of lib/messages.js): its result, or an Error with the answer's code. */
export async function request(type, payload = {}) {
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
