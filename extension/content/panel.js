/**
 * The notes panel as the page sees it: one iframe[data-papershelf-frame] at the side of the page,
 * showing panel/panel.html from the extension's origin (as Hypothesis's sidebar does). The page
 * can see the frame element but not its document; notes, comments and their editors live in
 * there, and talk to the worker themselves. This side only opens and closes the frame. Once the
 * frame has loaded, it gets a one-time ticket from the worker and posts it to that frame's window
 * alone, for the extension's origin only: the frame that hands the ticket back to the worker is
 * the tab's panel (a frame the page made never gets one). A trusted click on Note tells the worker
 * which paper the panel shows (OPEN_PANEL) and moves focus into it; Escape in the panel closes it
 * and focus comes back to Note.
 */

import { MessageType } from "../lib/messages.js";
import { ACTION_ATTR, UI_ATTR, el } from "./dom.js";
import { request } from "./messaging.js";
import { elementsFor, infoOf, savePayloadFor, setKnown, state } from "./state.js";

export const FRAME_ATTR = "data-papershelf-frame";
const EXTENSION_ORIGIN = chrome.runtime.getURL("").replace(/\/$/, "");

function noteButton(element) {
  const d = element && state.decorated.get(element);
  return d ? d.bar.querySelector(`[${ACTION_ATTR}="note"]`) : null;
}

function setExpanded(element, expanded) {
  const button = noteButton(element);
  if (button) button.setAttribute("aria-expanded", expanded ? "true" : "false");
}

/** Drop the panel's frame (the next Note makes a new one). */
function discardFrame(frame) {
  const p = state.panel;
  if (!p || p.frame !== frame) return;
  if (isPanelOpen()) closePanel({ returnFocus: false });
  p.host.remove();
  state.panel = null;
}

/** Move focus into the panel's document (the iframe element may hold focus from before it loaded,
 * when focusing it again would do nothing). */
function focusFrame(frame) {
  frame.focus();
  if (frame.contentWindow) frame.contentWindow.focus();
}

async function sendTicket(frame) {
  let ticket;
  try {
    ({ ticket } = await request(MessageType.PANEL_TICKET));
  } catch {
    return; // the extension went away: Note will make a new frame
  }
  if (frame.contentWindow) frame.contentWindow.postMessage({ papershelfTicket: ticket }, EXTENSION_ORIGIN);
}

/** The panel's frame, made once per page and kept (hidden) between uses: reopening is instant. */
function ensureFrame() {
  const p = state.panel;
  if (p && p.host.isConnected && p.frame.parentNode === p.host) return p;
  if (p) p.host.remove();
  const host = el("div", { [UI_ATTR]: "panel", hidden: "" });
  const frame = el("iframe", {
    [FRAME_ATTR]: "",
    src: chrome.runtime.getURL("panel/panel.html"),
    title: "papershelf notes",
    allow: "clipboard-write",
  });
  host.append(frame);
  // A load the browser reports (not one the page fakes): the panel is listening, hand it a ticket.
  let loads = 0;
  frame.addEventListener("load", (ev) => {
    if (!ev.isTrusted) return;
    if (++loads > 1) {
      // The panel never navigates itself: someone else (the page can set a cross-origin frame's
      // location) put another document in it. Never show that as our panel: make a new frame.
      discardFrame(frame);
      return;
    }
    const openedWhileLoading = () => isPanelOpen() && state.panel.frame === frame;
    if (openedWhileLoading()) focusFrame(frame);
    // A new frame's ticket makes the worker forget what the tab's panel showed (another page's
    // paper): a paper opened while this frame loaded is opened again once the ticket is out.
    sendTicket(frame).then(() => {
      if (openedWhileLoading()) bind(state.panel, state.panel.element, state.panel.focus).catch(() => {});
    });
  });
  (document.body || document.documentElement).append(host);
  state.panel = { host, frame, element: null, key: null, focus: null, orphans: "" };
  return state.panel;
}

let prewarmed = false;

/** Make the (hidden) frame ahead of the first Note, when the page is idle: making it on the click
 * costs about 100 ms (a document in the extension's process), opening a made one about 10. */
export function prewarmPanel() {
  if (prewarmed || !state.decorated.size) return;
  prewarmed = true;
  const make = () => {
    if (!state.panel) ensureFrame();
  };
  if (typeof requestIdleCallback === "function") requestIdleCallback(make, { timeout: 1000 });
  else setTimeout(make, 200);
}

export function isPanelOpen() {
  return Boolean(state.panel && state.panel.host.isConnected && !state.panel.host.hidden && state.panel.key);
}

function orphanIds(key) {
  const info = infoOf(key);
  return info.orphans ? [...info.orphans.keys()].map(String) : [];
}

async function bind(p, element, focus) {
  const d = state.decorated.get(element);
  const info = infoOf(d.key);
  const orphans = orphanIds(d.key);
  p.orphans = orphans.join(",");
  return request(MessageType.OPEN_PANEL, {
    key: d.key,
    paper: savePayloadFor(element),
    paper_id: info.paper_id || null,
    orphans,
    focus,
  });
}

/** Show the notes of the paper `element` shows, and move focus into the panel. */
export function openPanel(element, { focus = null } = {}) {
  const d = state.decorated.get(element);
  if (!d) return;
  const p = ensureFrame();
  if (p.element && p.element !== element) setExpanded(p.element, false);
  p.element = element;
  p.key = d.key;
  p.focus = focus;
  p.host.hidden = false;
  setExpanded(element, true);
  bind(p, element, focus).catch((err) => {
    setKnown(d.key, { error: err.message });
    hidePanel(false);
  });
  focusFrame(p.frame);
}

/** Note clicked: open this paper's notes, or close them when they are open. */
export function togglePanel(element) {
  const d = state.decorated.get(element);
  if (isPanelOpen() && state.panel.key === d.key) closePanel({ returnFocus: false });
  else openPanel(element);
}

function hidePanel(returnFocus) {
  const p = state.panel;
  if (!p) return;
  const { element, key } = p;
  p.host.hidden = true;
  p.element = null;
  p.key = null;
  for (const e of key ? elementsFor(key) : []) setExpanded(e, false);
  if (returnFocus) {
    const button = noteButton(element && element.isConnected ? element : elementsFor(key)[0]);
    if (button) button.focus();
  }
}

/** Close the panel from the page's side (Note clicked again). */
export function closePanel({ returnFocus }) {
  if (!isPanelOpen()) return;
  hidePanel(returnFocus);
  request(MessageType.CLOSE_PANEL).catch(() => {});
}

/** The worker says the panel closed itself (Escape, ×): hide it, focus back on Note. */
export function onPanelClosed() {
  if (isPanelOpen()) hidePanel(true);
}

const PATCH_FIELDS = { note_count: "number", status: "string", paper_id: "string", citation_key: "string" };

/** The worker says what the panel changed: counts and saved state, never text. */
export function onPaperUpdate({ key, patch }) {
  if (typeof key !== "string" || !patch || typeof patch !== "object" || !state.known.has(key)) return;
  const clean = {};
  for (const [k, type] of Object.entries(PATCH_FIELDS)) {
    if (typeof patch[k] === type || (k === "paper_id" && typeof patch[k] === "number")) clean[k] = patch[k];
    else if (k === "citation_key" && patch[k] === null) clean[k] = null;
  }
  if (clean.status && clean.status !== "saved") delete clean.status;
  if (Object.keys(clean).length) setKnown(key, clean);
}

/** A paper changed: when its notes are open and its unplaced highlights changed, tell the panel. */
export function onPaperChanged(key) {
  const p = state.panel;
  if (!isPanelOpen() || p.key !== key || !p.element) return;
  if (orphanIds(key).join(",") === p.orphans) return;
  bind(p, p.element, null).catch(() => {});
}

/** What the worker tells a page about its panel: type → handler, answering {ok} (the page's
 * content script and the PDF reader both listen). */
export const PANEL_MESSAGES = Object.freeze({
  [MessageType.PAPER_UPDATE](payload) {
    onPaperUpdate(payload);
    return { ok: true };
  },
  [MessageType.PANEL_CLOSED]() {
    onPanelClosed();
    return { ok: true };
  },
});
