/**
 * The page side of papershelf: marks the papers a page shows, adds Save / Note controls to each,
 * offers Highlight on a selection inside an abstract or title, and paints saved highlights.
 *
 * Loaded by content/loader.js with a dynamic import (content scripts cannot be modules). It never
 * talks to the server: every call goes to the background worker as a message {type, payload},
 * and the worker tells it only what the page may see. Notes and comments are not here: they are
 * in the notes panel, an extension page in a frame (panel.js opens it). This module only wires the
 * roles to the page and the worker: state.js (what is known, in one object), messaging.js (the
 * port to the worker), watch.js (scan, page changes, lookup), paperbar.js (Save/Note and saving),
 * panel.js (the notes panel's frame), toolbar.js (selection → Highlight), paint.js (saved
 * highlights), timing.js (the measures bench/page.py reads).
 */

import { marksInPage } from "../lib/adapters/index.js";
import { MessageType } from "../lib/messages.js";
import { barIsOffOn } from "../lib/sites.js";
import { onPaperChange, state } from "./state.js";
import { onSaveShortcut, renderPaper, saveFocused } from "./paperbar.js";
import { PANEL_MESSAGES, onPaperChanged } from "./panel.js";
import { fromOurWorker } from "./messaging.js";
import { scrollToLinkedHighlight } from "./paint.js";
import { onSelectionEnd } from "./toolbar.js";
import { onMutations, refresh, refreshAll, scheduleScan } from "./watch.js";

/** What the worker tells this page (chrome.tabs.sendMessage): type → handler, answering {ok}. */
const fromWorker = {
  [MessageType.REFRESH]() {
    refreshAll();
    return { ok: true };
  },
  [MessageType.SAVE_FOCUSED]() {
    return { ok: saveFocused() };
  },
  ...PANEL_MESSAGES,
};

/** Start on this page, unless the person switched papershelf off on its host (options). Outside
 * alphaXiv, arXiv and the named listing sites the page is private: its DOM never shows what the
 * library holds (state.private; the worker answers such a page's lookup on the badge only). */
export async function start() {
  if (window.__papershelfStarted) return;
  window.__papershelfStarted = true;
  let off;
  try {
    ({ barOffHosts: off } = await chrome.storage.local.get("barOffHosts"));
  } catch {
    off = null; // no settings to read: the bar is on
  }
  if (barIsOffOn(off, location.hostname)) return;
  state.private = !marksInPage(location.href);
  onPaperChange(renderPaper);
  onPaperChange(onPaperChanged);
  refresh(true);
  new MutationObserver((records) => {
    state.domVersion++;
    onMutations(records);
  }).observe(document.documentElement, { childList: true, subtree: true, characterData: true });
  addEventListener("popstate", () => scheduleScan());
  addEventListener("hashchange", () => scrollToLinkedHighlight());
  document.addEventListener("mouseup", onSelectionEnd, true);
  document.addEventListener("keyup", (ev) => {
    if (ev.shiftKey || ev.key.startsWith("Arrow")) onSelectionEnd(ev);
  }, true);
  document.addEventListener("keydown", onSaveShortcut, true);
  chrome.runtime.onMessage.addListener((msg, sender, sendResponse) => {
    if (!msg || typeof msg !== "object" || !Object.hasOwn(fromWorker, msg.type) || !fromOurWorker(sender)) return false;
    sendResponse(fromWorker[msg.type](msg.payload || {}));
    return false;
  });
}
