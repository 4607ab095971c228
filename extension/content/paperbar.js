/**
 * The paper bar: Save and Note on each paper element (and "Read in papershelf" when the paper has a
 * PDF link: an adapter's `pdf_url`, or arXiv's), its rendering from the state, and saving
 * a paper (a click on Save, or the keyboard command for the paper the reader is on).
 *
 * Light DOM cloned from one template, styled by content/page.css (one sheet for the whole page),
 * one delegated listener per bar: 600 cards must mark in well under 100 ms. A per-card shadow
 * root with its own styles cost more than all the rest. The bar holds buttons and counts only;
 * the notes themselves are in the panel's frame (panel.js). Only a trusted click acts: a page
 * script that calls click() or dispatches events on the bar achieves nothing.
 */

import { MessageType } from "../lib/messages.js";
import { pdfUrlOf } from "../lib/pdf.js";
import { ACTION_ATTR, PAPER_ATTR, UI_ATTR, el } from "./dom.js";
import { request } from "./messaging.js";
import { togglePanel } from "./panel.js";
import { elementsFor, infoOf, saveBegun, savePayloadFor, savedFrom, setKnown, state, track, untrack } from "./state.js";
import { Measure, timed, timedAsync } from "./timing.js";

let template = null;

function barTemplate() {
  if (!template) {
    template = el("span", { [UI_ATTR]: "controls" });
    template.append(
      el("button", { type: "button", [ACTION_ATTR]: "save", "aria-pressed": "false", title: "Save to papershelf" }, "Save"),
      el("button", { type: "button", [ACTION_ATTR]: "note", "aria-expanded": "false", title: "Notes (papershelf)" }, "Note"),
      el("button", { type: "button", [ACTION_ATTR]: "read", title: "Read the PDF in papershelf's reader (highlight in it)" }, "Read in papershelf"),
      el("span", { "data-papershelf-status": "", role: "status" }),
    );
  }
  return template;
}

/** Mark `entry.element` as the paper `key` and give it a bar (again, if it was re-rendered). */
export function mountBar(entry, key) {
  const element = entry.element;
  const old = state.decorated.get(element);
  if (old) {
    old.bar.remove();
    untrack(old.key, element);
  }
  for (const stale of element.querySelectorAll(`:scope > [${UI_ATTR}]`)) stale.remove();
  element.setAttribute(PAPER_ATTR, key);
  const bar = barTemplate().cloneNode(true);
  // "Read in papershelf" for a paper with a PDF link (an adapter's pdf_url, or arXiv's), but
  // not in the reader itself.
  if (entry.kind === "pdf" || !pdfUrlOf(entry)) bar.querySelector(`[${ACTION_ATTR}="read"]`).remove();
  bar.addEventListener("click", onBarClick);
  // At the end of the entry, unless it ends in a long block (a detail panel's abstract): then
  // just before it, so that the controls stay next to the paper's links, in view.
  // A whole paper (arXiv's HTML view): under its title, where the reader starts (without one, at
  // the article's top).
  const last = element.lastElementChild;
  const heading = entry.kind === "arxiv-html" ? element.querySelector(":scope > h1") : null;
  if (heading) heading.after(bar);
  else if (entry.kind === "arxiv-html") element.prepend(bar); // no title: at its top
  else if (last && last.textContent.length > 400) element.insertBefore(bar, last);
  else element.appendChild(bar);
  state.decorated.set(element, { entry, key, bar, fields: null });
  track(key, element);
  if (state.known.has(key)) renderBar(element);
}

/** The element no longer shows a paper: remove its bar and forget it. */
export function unmountBar(element) {
  const d = state.decorated.get(element);
  if (element.isConnected && element.getAttribute(PAPER_ATTR) === d.key) element.removeAttribute(PAPER_ATTR);
  d.bar.remove();
  state.decorated.delete(element);
  untrack(d.key, element);
}

function onBarClick(ev) {
  ev.stopPropagation(); // our clicks are not the page's (e.g. a row's "select" handler)
  if (!ev.isTrusted) return; // the page's own script clicked: not the user
  const button = ev.target.closest && ev.target.closest(`[${ACTION_ATTR}]`);
  if (!button) return;
  const element = ev.currentTarget.parentElement;
  const action = button.getAttribute(ACTION_ATTR);
  if (action === "save") savePaper(element);
  else if (action === "note") togglePanel(element);
  else if (action === "read") readPaper(element);
}

/** Open the paper's PDF in the reader, in a new tab beside this one (the worker opens it). */
function readPaper(element) {
  const d = state.decorated.get(element);
  const url = d && pdfUrlOf(d.entry);
  if (!url) return;
  request(MessageType.OPEN_READER, { url }).catch((err) => setKnown(d.key, { error: err.message }));
}

function saveLabel(status) {
  return status === "saved" ? "Saved" : status === "queued" ? "Queued" : status === "saving" ? "Saving…" : "Save";
}

function saveTitle(info) {
  if (info.status === "saved") return `Saved in papershelf${info.citation_key ? ` as ${info.citation_key}` : ""}`;
  if (info.status === "queued") return "Waiting for the papershelf server; it will be sent when it is back";
  return "Save to papershelf";
}

function plural(n, word) {
  return n ? `${n} ${word}${n > 1 ? "s" : ""}` : "";
}

/** "Saved by bob · Lab" (several: "Saved by bob, carol · Lab, Reading group"), or "". */
export function sharedLine(shared) {
  if (!Array.isArray(shared) || !shared.length) return "";
  const users = [...new Set(shared.map((s) => s.user))];
  const groups = [...new Set(shared.flatMap((s) => s.groups || []))];
  const notes = shared.reduce((n, s) => n + (s.note_count || 0), 0);
  return [`Saved by ${users.join(", ")}`, groups.join(", "), notes ? plural(notes, "note") : ""]
    .filter(Boolean).join(" · ");
}

function renderBar(element) {
  const d = state.decorated.get(element);
  if (!d) return;
  const info = infoOf(d.key);
  // A private page shows the state only once the person saved here (then it is theirs to see):
  // before that, the bar is the same whether the library holds the paper or not.
  if (state.private && !info.savedHere) return;
  const save = d.bar.querySelector(`[${ACTION_ATTR}="save"]`);
  const status = d.bar.querySelector("[data-papershelf-status]");
  const saved = info.status === "saved";
  save.setAttribute("aria-pressed", saved ? "true" : "false");
  save.setAttribute("data-papershelf-state", info.status);
  save.textContent = saveLabel(info.status);
  save.title = saveTitle(info);
  if (saved && info.completed) {
    save.title += `\nFrom arXiv: ${info.completed}`;
    save.setAttribute("data-papershelf-completed", info.completed);
  } else {
    save.removeAttribute("data-papershelf-completed");
  }
  const orphans = (info.orphans && info.orphans.size) || 0;
  const by = sharedLine(info.shared);
  if (by) d.bar.setAttribute("data-papershelf-shared", by);
  else d.bar.removeAttribute("data-papershelf-shared");
  status.textContent = [plural(info.note_count || 0, "note"), plural(orphans, "unplaced highlight"), by].filter(Boolean).join(" · ");
  if (info.error) status.textContent = info.error;
  if (state.private) {
    // What was saved before (its notes, key, who shared it) stays in the extension's own surfaces.
    status.textContent = info.error || "";
    save.title = saveTitle({ status: info.status });
    save.removeAttribute("data-papershelf-completed");
    d.bar.removeAttribute("data-papershelf-shared");
  }
}

/** Render every element that shows paper `key`. */
export function renderPaper(key) {
  for (const element of elementsFor(key)) renderBar(element);
}

async function savePaper(element) {
  const d = state.decorated.get(element);
  if (!d) return;
  const { status, savedHere } = infoOf(d.key);
  if (state.private && status === "saved" && !savedHere) {
    // Known saved from the panel: the page sees the click's result, as for any save from it.
    setKnown(d.key, { savedHere: true });
    return;
  }
  if (status === "saved" || status === "saving") return; // saving again: nothing to do
  const body = timed(Measure.SAVE_DESCRIBE, () => {
    const payload = savePayloadFor(element);
    saveBegun(d.key);
    setKnown(d.key, { status: "saving", error: "", savedHere: true });
    return payload;
  });
  try {
    const r = await timedAsync(Measure.SAVE_ROUNDTRIP, () => request(MessageType.SAVE, { key: d.key, paper: body }));
    if (r.status === "queued") setKnown(d.key, { status: "queued" });
    else {
      const prev = infoOf(d.key);
      setKnown(d.key, {
        ...savedFrom(r.paper),
        note_count: r.paper.note_count || prev.note_count || 0,
        highlights: r.paper.highlights || prev.highlights || [],
      });
    }
  } catch (err) {
    setKnown(d.key, { status: "unsaved", error: err.message });
  }
}

/** The paper the reader is on: focus, the page's selection (J/K), else the first one in view. */
function focusedPaper() {
  const active = document.activeElement;
  const fromFocus = active && active.closest && active.closest(`[${PAPER_ATTR}]`);
  if (fromFocus) return fromFocus;
  const selected = document.querySelector(`[${PAPER_ATTR}][aria-selected="true"], [${PAPER_ATTR}][aria-current]:not([aria-current="false"])`);
  if (selected) return selected;
  const within = document.querySelector(`[aria-selected="true"] [${PAPER_ATTR}], [${PAPER_ATTR}]:focus-within`);
  if (within) return within;
  for (const element of state.decorated.keys()) {
    const r = element.getBoundingClientRect();
    if (r.bottom > 0 && r.top < innerHeight) return element;
  }
  return null;
}

/** Save the paper the reader is on; false when there is none. */
export function saveFocused() {
  const element = focusedPaper();
  if (element) savePaper(element);
  return Boolean(element);
}

/** keydown: Alt+Shift+S, when the browser does not route the extension command. */
export function onSaveShortcut(ev) {
  if (!ev.isTrusted) return;
  if (ev.altKey && ev.shiftKey && !ev.ctrlKey && !ev.metaKey && ev.code === "KeyS") {
    if (saveFocused()) ev.preventDefault();
  }
}
