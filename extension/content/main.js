/**
 * The page side of papershelf: marks the papers a page shows, adds Save / Note controls to each,
 * offers Highlight on a selection inside an abstract or title, and paints saved highlights.
 *
 * Loaded by content/loader.js with a dynamic import (content scripts cannot be modules). It never
 * talks to the server: every call goes to the background worker as a message {type, payload}.
 * Page and user text is only ever inserted as text (textContent), never parsed as HTML.
 */

import { findPaperElements, describePaper, paperFields, toSavePayload } from "../lib/adapters.js";
import { anchor, describeRange, offsetsFromRange, paint, textModel, unpaint } from "../lib/anchoring.js";
import { DEFAULT_COLOR, PALETTE } from "../lib/palette.js";
import { MessageType, PORT_NAME, resultOf } from "../lib/messages.js";
import { PANEL_CSS, TOOLBAR_CSS } from "./styles.js";

const UI_ATTR = "data-papershelf-ui";
const PAPER_ATTR = "data-papershelf-paper";
const SCAN_DEBOUNCE_MS = 120;

/** key → {paper_id, citation_key, notes, highlights, status: "saved"|"queued"|"saving"|"unsaved"} */
const known = new Map();
/** element → {entry, key, host, root, fields?} */
const decorated = new Map();
/** key → Set of elements showing that paper (a List-view row and the detail panel, say). */
const byKey = new Map();

function track(key, element) {
  let set = byKey.get(key);
  if (!set) byKey.set(key, (set = new Set()));
  set.add(element);
}

function untrack(key, element) {
  const set = byKey.get(key);
  if (set) {
    set.delete(element);
    if (!set.size) byKey.delete(key);
  }
}
const lookedUp = new Set();
/** Keys that have (or had) painted highlights on this page. */
const paintedKeys = new Set();
let toolbar = null;
let pendingSelection = null;
let observer = null;
let scanTimer = null;
let lastHref = location.href;

// ---------------------------------------------------------------------------------------------
// Messaging

// A long-lived port to the worker: cheaper per message than runtime.sendMessage, which sets up
// a channel each time (a save has to show "Saved" within 50 ms). When the worker was stopped the
// port disconnects; the next message opens a new one.
let port = null;
let seq = 0;
const pending = new Map();

function openPort() {
  port = chrome.runtime.connect({ name: PORT_NAME });
  port.onMessage.addListener((msg) => {
    const resolve = pending.get(msg.id);
    if (resolve) {
      pending.delete(msg.id);
      resolve(msg);
    }
  });
  port.onDisconnect.addListener(() => {
    port = null;
    for (const resolve of pending.values()) resolve({ ok: false, retry: true });
    pending.clear();
  });
  return port;
}

function request(type, payload) {
  return new Promise((resolve) => {
    const id = ++seq;
    pending.set(id, resolve);
    try {
      (port || openPort()).postMessage({ id, type, payload });
    } catch (err) {
      pending.delete(id);
      resolve({ ok: false, retry: true, error: { message: String(err.message || err) } });
    }
  });
}

async function send(type, payload = {}) {
  let res;
  try {
    res = await request(type, payload);
    // The worker went away mid-request: ask once more (requests are idempotent by client_id).
    if (res && res.retry) res = await request(type, payload);
  } catch (err) {
    throw new Error(`papershelf extension unavailable: ${err.message || err}`, { cause: err });
  }
  return resultOf(res);
}

// ---------------------------------------------------------------------------------------------
// Styles: one constructed sheet shared by every shadow root (cheap for 600 cards).

function makeSheet(css) {
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    return sheet;
  } catch {
    return null;
  }
}
const toolbarSheet = makeSheet(TOOLBAR_CSS);
const panelSheet = makeSheet(PANEL_CSS);

function attachStyles(root, sheet, css) {
  if (sheet && "adoptedStyleSheets" in root) root.adoptedStyleSheets = [sheet];
  else {
    const style = document.createElement("style");
    style.textContent = css;
    root.appendChild(style);
  }
}

function el(tag, attrs = {}, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text != null) node.textContent = text;
  return node;
}

// ---------------------------------------------------------------------------------------------
// Marking papers

function keyOf(entry) {
  return entry.arxiv_id || entry.url;
}

/** Find papers, decorate new or re-rendered ones, forget removed ones. Returns new keys. */
function scan() {
  const entries = findPaperElements(document);
  measure("papershelf:find", "papershelf:scan-start");
  const seen = new Set();
  const newKeys = [];
  for (const entry of entries) {
    const key = keyOf(entry);
    if (!key) continue;
    const element = entry.element;
    seen.add(element);
    const d = decorated.get(element);
    if (!d || d.key !== key || !d.host.isConnected || d.host.parentNode !== element) {
      decorate(entry, key);
      if (!lookedUp.has(key)) newKeys.push(key);
    } else {
      d.entry = entry;
    }
  }
  for (const [element, d] of decorated) {
    if (!seen.has(element)) {
      if (element.isConnected && element.getAttribute(PAPER_ATTR) === d.key) element.removeAttribute(PAPER_ATTR);
      d.host.remove();
      decorated.delete(element);
      untrack(d.key, element);
    }
  }
  return [...new Set(newKeys)];
}

function decorate(entry, key) {
  const element = entry.element;
  const old = decorated.get(element);
  if (old) {
    old.host.remove();
    untrack(old.key, element);
  }
  for (const stale of element.querySelectorAll(`:scope > [${UI_ATTR}]`)) stale.remove();
  element.setAttribute(PAPER_ATTR, key);
  // Light DOM cloned from one template, styled by content/page.css (one sheet for the whole
  // page), one delegated listener: 600 cards must mark in well under 100 ms. A per-card shadow
  // root with its own styles cost more than all the rest; the notes panel, opened on demand,
  // lives in an open shadow root.
  const host = barTemplate().cloneNode(true);
  host.addEventListener("click", onControlClick);
  // At the end of the entry, unless it ends in a long block (a detail panel's abstract): then
  // just before it, so that the controls stay next to the paper's links, in view.
  const last = element.lastElementChild;
  if (last && last.textContent.length > 400) element.insertBefore(host, last);
  else element.appendChild(host);
  decorated.set(element, { entry, key, host, root: host, panel: null, fields: null });
  track(key, element);
  if (known.has(key)) render(element);
}

let template = null;
function barTemplate() {
  if (!template) {
    template = el("span", { [UI_ATTR]: "controls" });
    template.append(
      el("button", { type: "button", "data-papershelf-action": "save", "aria-pressed": "false", title: "Save to papershelf" }, "Save"),
      el("button", { type: "button", "data-papershelf-action": "note", "aria-expanded": "false", title: "Notes (papershelf)" }, "Note"),
      el("span", { "data-papershelf-status": "", role: "status" }),
    );
  }
  return template;
}

function stopEvent(ev) {
  ev.stopPropagation();
}

function onControlClick(ev) {
  ev.stopPropagation(); // our clicks are not the page's (e.g. a row's "select" handler)
  const button = ev.target.closest && ev.target.closest("[data-papershelf-action]");
  if (!button || button.closest(".panel")) return;
  const element = ev.currentTarget.parentElement;
  const action = button.getAttribute("data-papershelf-action");
  if (action === "save") savePaper(element);
  else if (action === "note") toggleNotes(element);
}

function elementsFor(key) {
  return byKey.has(key) ? [...byKey.get(key)] : [];
}

/** What the server completed from arXiv (full author list, category), once it has. */
function completedFromArxiv(p) {
  if (!p.enrichment || p.enrichment.state !== "done" || !Array.isArray(p.authors)) return null;
  const more = p.authors_more ? ` +${p.authors_more}` : "";
  const category = p.primary_category ? ` · ${p.primary_category}` : "";
  return `${p.authors.join(", ")}${more}${category}`;
}

function render(element) {
  const d = decorated.get(element);
  if (!d) return;
  const info = known.get(d.key) || { status: "unsaved" };
  const save = d.root.querySelector('[data-papershelf-action="save"]');
  const status = d.root.querySelector("[data-papershelf-status]");
  const saved = info.status === "saved";
  save.setAttribute("aria-pressed", saved ? "true" : "false");
  save.setAttribute("data-papershelf-state", info.status);
  save.textContent = saved ? "Saved" : info.status === "queued" ? "Queued" : info.status === "saving" ? "Saving…" : "Save";
  save.title = saved ? `Saved in papershelf${info.citation_key ? ` as ${info.citation_key}` : ""}` : info.status === "queued" ? "Waiting for the papershelf server; it will be sent when it is back" : "Save to papershelf";
  if (saved && info.completed) {
    save.title += `\nFrom arXiv: ${info.completed}`;
    save.setAttribute("data-papershelf-completed", info.completed);
  } else {
    save.removeAttribute("data-papershelf-completed");
  }
  const orphans = (info.orphans && info.orphans.size) || 0;
  const notes = (info.notes && info.notes.length) || 0;
  status.textContent = [notes ? `${notes} note${notes > 1 ? "s" : ""}` : "", orphans ? `${orphans} unplaced highlight${orphans > 1 ? "s" : ""}` : ""].filter(Boolean).join(" · ");
  if (info.error) status.textContent = info.error;
  if (d.panel) fillNotesPanel(element, d.panel);
}

function renderKey(key) {
  for (const element of elementsFor(key)) render(element);
}

function setKnown(key, patch) {
  const info = { ...(known.get(key) || { status: "unsaved" }), ...patch };
  known.set(key, info);
  renderKey(key);
  return info;
}

// ---------------------------------------------------------------------------------------------
// Lookup: one call marks every paper on the page that is already saved.

async function lookup(keys) {
  if (!keys.length) return;
  keys.forEach((k) => lookedUp.add(k));
  let result;
  try {
    result = await send(MessageType.LOOKUP, { keys });
  } catch (err) {
    keys.forEach((k) => lookedUp.delete(k));
    console.debug("papershelf: lookup failed", err.message);
    return;
  }
  performance.mark("papershelf:lookup-answered");
  const queued = new Set(result.queued || []);
  for (const key of keys) {
    const p = result.papers && result.papers[key];
    if (p) {
      setKnown(key, {
        status: "saved",
        paper_id: p.id,
        citation_key: p.citation_key,
        notes: p.notes || [],
        highlights: p.highlights || [],
        completed: completedFromArxiv(p),
        error: "",
      });
    } else if (queued.has(key)) {
      setKnown(key, { status: "queued" });
    } else if (known.has(key) && known.get(key).status !== "unsaved") {
      setKnown(key, { status: "unsaved", paper_id: null, notes: [], highlights: [] });
    } else {
      // Not saved, and shown as such already (the template's state): nothing to redraw.
      known.set(key, { ...(known.get(key) || {}), status: "unsaved", paper_id: null, notes: [], highlights: [] });
    }
  }
  measure("papershelf:saved-shown", "papershelf:lookup-answered");
  performance.mark("papershelf:paint-start");
  paintAll(keys);
  measure("papershelf:paint", "papershelf:paint-start");
}

// ---------------------------------------------------------------------------------------------
// Save

function paperBody(element) {
  const d = decorated.get(element);
  const paper = describePaper(d.entry, document);
  d.fields = paper.fields;
  return toSavePayload(paper, location.href);
}

async function savePaper(element) {
  const d = decorated.get(element);
  if (!d) return;
  const info = known.get(d.key);
  if (info && (info.status === "saved" || info.status === "saving")) return; // saving again: nothing to do
  performance.mark("papershelf:save-start");
  const body = paperBody(element);
  setKnown(d.key, { status: "saving", error: "" });
  measure("papershelf:save-describe", "papershelf:save-start");
  try {
    performance.mark("papershelf:save-sent");
    const r = await send(MessageType.SAVE, { key: d.key, paper: body });
    measure("papershelf:save-roundtrip", "papershelf:save-sent");
    if (r.status === "queued") setKnown(d.key, { status: "queued" });
    else {
      const prev = known.get(d.key) || {};
      setKnown(d.key, {
        status: "saved",
        paper_id: r.paper.id,
        citation_key: r.paper.citation_key,
        notes: r.paper.notes || prev.notes || [],
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
  for (const element of decorated.keys()) {
    const r = element.getBoundingClientRect();
    if (r.bottom > 0 && r.top < innerHeight) return element;
  }
  return null;
}

function saveFocused() {
  const element = focusedPaper();
  if (element) savePaper(element);
  return Boolean(element);
}

// ---------------------------------------------------------------------------------------------
// Notes

function toggleNotes(element) {
  const d = decorated.get(element);
  const button = d.root.querySelector('[data-papershelf-action="note"]');
  if (d.panel) {
    d.panel.getRootNode().host.remove();
    d.panel = null;
    button.setAttribute("aria-expanded", "false");
    return;
  }
  const panelHost = el("span", { "data-papershelf-panel": "" });
  const shadow = panelHost.attachShadow({ mode: "open" });
  attachStyles(shadow, panelSheet, PANEL_CSS);
  const panel = el("div", { class: "panel", role: "group", "aria-label": "papershelf notes" });
  const list = el("ul", { class: "notes" });
  const orphans = el("div", { class: "orphans" });
  const input = el("textarea", { "data-papershelf-note-input": "", rows: "3", placeholder: "Add a note (Markdown)…", "aria-label": "Note" });
  const row = el("div", { class: "row" });
  const saveNote = el("button", { type: "button", "data-papershelf-action": "save-note" }, "Save note");
  const msg = el("span", { class: "msg", role: "status" });
  row.append(saveNote, msg);
  panel.append(list, orphans, input, row);
  shadow.append(panel);
  d.root.append(panelHost);
  d.panel = panel;
  // Keys typed in our editor are ours, not the page's shortcuts (J, K, S, Enter).
  for (const type of ["keydown", "keyup", "keypress"]) panel.addEventListener(type, stopEvent);
  button.setAttribute("aria-expanded", "true");
  saveNote.addEventListener("click", async () => {
    const body = input.value;
    if (!body.trim()) return;
    saveNote.disabled = true;
    msg.textContent = "Saving…";
    try {
      const r = await addNote(element, body);
      input.value = "";
      msg.textContent = r.status === "queued" ? "Queued: will be sent when the server is back." : "";
    } catch (err) {
      msg.textContent = err.message;
    } finally {
      saveNote.disabled = false;
    }
  });
  fillNotesPanel(element, panel);
  input.focus();
}

function fillNotesPanel(element, panel) {
  const d = decorated.get(element);
  const info = known.get(d.key) || {};
  const list = panel.querySelector(".notes");
  // Redraw the list unless a note is being edited (that would throw the typing away).
  if (!list.querySelector("[data-editing]")) list.replaceChildren(...(info.notes || []).map((n) => noteItem(element, n)));
  const orphans = panel.querySelector(".orphans");
  const lost = info.orphans ? [...info.orphans.values()] : [];
  orphans.replaceChildren();
  if (lost.length) {
    orphans.append(el("div", { class: "orphans-title" }, "Highlights that no longer match the text:"));
    for (const h of lost) {
      const item = el("div", { class: "orphan", "data-papershelf-orphan": String(h.id) });
      item.append(el("q", {}, h.exact));
      if (h.comment) item.append(el("span", { class: "comment" }, ` — ${h.comment}`));
      orphans.append(item);
    }
  }
}

function noteItem(element, note) {
  const li = el("li", { "data-papershelf-note": String(note.id) });
  li.append(el("span", { "data-papershelf-note-body": "" }, note.body)); // user text: always text
  if (String(note.id).startsWith("queued-")) {
    li.append(el("span", { class: "msg" }, " (waiting for the server)"));
    return li;
  }
  const edit = el("button", { type: "button", class: "small", "data-papershelf-action": "edit-note" }, "Edit");
  const del = el("button", { type: "button", class: "small", "data-papershelf-action": "delete-note" }, "Delete");
  const msg = el("span", { class: "msg", role: "status" });
  li.append(" ", edit, del, msg);
  edit.addEventListener("click", () => editNote(element, li, note));
  del.addEventListener("click", async () => {
    if (del.dataset.confirm !== "1") {
      del.dataset.confirm = "1";
      del.textContent = "Delete for good?";
      return;
    }
    try {
      await send(MessageType.DELETE_NOTE, { id: note.id });
      const d = decorated.get(element);
      const info = known.get(d.key) || {};
      setKnown(d.key, { notes: (info.notes || []).filter((n) => n.id !== note.id) });
    } catch (err) {
      msg.textContent = err.message;
    }
  });
  return li;
}

function editNote(element, li, note) {
  const area = el("textarea", { rows: "3", "data-editing": "", "aria-label": "Edit note" });
  area.value = note.body;
  const save = el("button", { type: "button", "data-papershelf-action": "update-note" }, "Save");
  const cancel = el("button", { type: "button" }, "Cancel");
  const msg = el("span", { class: "msg", role: "status" });
  li.replaceChildren(area, el("div", { class: "row" }));
  li.lastChild.append(save, cancel, msg);
  const d = decorated.get(element);
  cancel.addEventListener("click", () => li.replaceWith(noteItem(element, note)));
  save.addEventListener("click", async () => {
    try {
      const updated = await send(MessageType.UPDATE_NOTE, { id: note.id, body: area.value });
      const info = known.get(d.key) || {};
      li.replaceWith(noteItem(element, updated));
      setKnown(d.key, { notes: (info.notes || []).map((n) => (n.id === note.id ? updated : n)) });
    } catch (err) {
      msg.textContent = err.message;
    }
  });
  area.focus();
}

async function addNote(element, body) {
  const d = decorated.get(element);
  const info = known.get(d.key) || {};
  const r = await send(MessageType.NOTE, { key: d.key, paper_id: info.paper_id || null, paper: paperBody(element), body });
  const notes = [...(info.notes || []), r.status === "queued" ? { id: `queued-${r.client_id}`, body } : r.note];
  const patch = { notes };
  if (r.paper) Object.assign(patch, { status: "saved", paper_id: r.paper.id, citation_key: r.paper.citation_key });
  setKnown(d.key, patch);
  return r;
}

// ---------------------------------------------------------------------------------------------
// Highlights

function fieldsOf(element) {
  const d = decorated.get(element);
  if (!d) return {};
  if (!d.fields || Object.values(d.fields).some((f) => f && !f.isConnected)) {
    d.fields = paperFields(d.entry, document);
  }
  return d.fields;
}

/** Paint the known highlights of `keys` in every element that shows them; note orphans. */
function paintAll(keys) {
  for (const key of keys) {
    const info = known.get(key);
    if (!info || !info.highlights || (!info.highlights.length && !paintedKeys.has(key))) continue;
    paintedKeys.add(key);
    const orphans = new Map();
    const placedSomewhere = new Set();
    const ids = new Set(info.highlights.map((h) => String(h.id)));
    for (const element of elementsFor(key)) {
      const fields = fieldsOf(element);
      // Marks of highlights the server no longer lists (deleted, or a queued one now stored
      // under its real id) go first, so that nothing is painted twice.
      for (const fieldEl of Object.values(fields)) {
        if (!fieldEl) continue;
        for (const mark of fieldEl.querySelectorAll("mark[data-papershelf-highlight]")) {
          const id = mark.getAttribute("data-papershelf-highlight");
          if (!ids.has(id)) unpaint(fieldEl, id);
        }
      }
      for (const h of info.highlights) {
        const fieldEl = fields[h.field];
        if (!fieldEl) continue;
        if (fieldEl.querySelector(`mark[data-papershelf-highlight="${CSS.escape(String(h.id))}"]`)) {
          placedSomewhere.add(h.id);
          continue;
        }
        const model = textModel(fieldEl);
        const at = anchor(model.text, h);
        if (at) {
          paint(fieldEl, at.start, at.end, { id: h.id, color: h.color || DEFAULT_COLOR, title: h.comment || "", model });
          placedSomewhere.add(h.id);
        } else {
          orphans.set(h.id, h);
        }
      }
    }
    for (const id of placedSomewhere) orphans.delete(id);
    const prev = info.orphans;
    if (orphans.size || (prev && prev.size)) setKnown(key, { orphans });
  }
}

function selectionTarget() {
  const sel = document.getSelection();
  if (!sel || sel.isCollapsed || !sel.rangeCount) return null;
  const range = sel.getRangeAt(0);
  const node = range.commonAncestorContainer;
  const start = node.nodeType === 1 ? node : node.parentElement;
  if (!start || start.closest(`[${UI_ATTR}]`)) return null;
  const element = start.closest(`[${PAPER_ATTR}]`);
  if (!element || !decorated.has(element)) return null;
  const fields = fieldsOf(element);
  for (const field of ["abstract", "title"]) {
    const f = fields[field];
    if (f && f.contains(range.startContainer) && f.contains(range.endContainer)) {
      const model = textModel(f);
      const at = offsetsFromRange(model, range);
      if (!at) return null;
      return { element, field, fieldEl: f, selector: describeRange(model.text, at.start, at.end), rect: range.getBoundingClientRect() };
    }
  }
  return null;
}

function ensureToolbar() {
  if (toolbar && toolbar.host.isConnected) return toolbar;
  const host = el("div", { [UI_ATTR]: "highlight-toolbar" });
  const root = host.attachShadow({ mode: "open" });
  attachStyles(root, toolbarSheet, TOOLBAR_CSS);
  const box = el("div", { class: "tb", role: "dialog", "aria-label": "Highlight" });
  const colors = el("div", { class: "colors", role: "radiogroup", "aria-label": "Colour" });
  for (const { name, background } of PALETTE) {
    const b = el("button", { type: "button", class: "swatch", role: "radio", "aria-checked": name === DEFAULT_COLOR ? "true" : "false", "data-color": name, title: name, "aria-label": name });
    b.style.background = background;
    b.addEventListener("click", () => {
      for (const s of colors.children) s.setAttribute("aria-checked", s === b ? "true" : "false");
    });
    colors.append(b);
  }
  const comment = el("input", { type: "text", class: "comment", placeholder: "Comment (optional)", "aria-label": "Comment", maxlength: "2000" });
  const go = el("button", { type: "button", "data-papershelf-action": "highlight" }, "Highlight");
  box.append(colors, comment, go);
  root.append(box);
  // Keep the page's selection while using the toolbar.
  box.addEventListener("mousedown", (ev) => {
    if (ev.target !== comment) ev.preventDefault();
  });
  for (const type of ["keydown", "keyup", "keypress"]) host.addEventListener(type, (ev) => ev.stopPropagation());
  go.addEventListener("click", () => {
    const color = colors.querySelector('[aria-checked="true"]').dataset.color;
    createHighlight(color, comment.value);
  });
  comment.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter") go.click();
    if (ev.key === "Escape") hideToolbar();
  });
  document.body.appendChild(host);
  toolbar = { host, root, comment, colors };
  return toolbar;
}

function showToolbar(target) {
  const tb = ensureToolbar();
  pendingSelection = target;
  tb.comment.value = "";
  const top = target.rect.top + scrollY - 44;
  const left = Math.max(8, Math.min(target.rect.left + scrollX, scrollX + innerWidth - 360));
  tb.host.style.cssText = `position:absolute;z-index:2147483646;top:${Math.max(scrollY + 4, top)}px;left:${left}px;`;
  tb.host.hidden = false;
}

function hideToolbar() {
  if (toolbar) toolbar.host.hidden = true;
  pendingSelection = null;
}

async function createHighlight(color, comment) {
  const target = pendingSelection;
  hideToolbar();
  if (!target) return;
  const { element, field, selector } = target;
  const d = decorated.get(element);
  if (!d) return;
  const info = known.get(d.key) || {};
  const highlight = { field, ...selector, color, comment: comment || "" };
  let r;
  try {
    r = await send(MessageType.HIGHLIGHT, { key: d.key, paper_id: info.paper_id || null, paper: paperBody(element), highlight });
  } catch (err) {
    setKnown(d.key, { error: err.message });
    return;
  }
  const saved = r.status === "queued" ? { ...highlight, id: `queued-${r.client_id}` } : r.highlight;
  const patch = { highlights: [...(info.highlights || []), saved] };
  if (r.paper) Object.assign(patch, { status: "saved", paper_id: r.paper.id, citation_key: r.paper.citation_key });
  else if (r.status === "queued" && info.status !== "saved") patch.status = "queued";
  setKnown(d.key, patch);
  document.getSelection().removeAllRanges();
  paintAll([d.key]);
}

function onSelectionEnd(ev) {
  if (ev && ev.target && ev.target.closest && ev.target.closest(`[${UI_ATTR}]`)) return;
  setTimeout(() => {
    const target = selectionTarget();
    if (target) showToolbar(target);
    else hideToolbar();
  }, 0);
}

// ---------------------------------------------------------------------------------------------
// Keeping up with the page

function isOurs(node) {
  if (!node || node.nodeType !== 1) return false;
  return node.hasAttribute(UI_ATTR) || (node.tagName === "MARK" && node.hasAttribute("data-papershelf-highlight"));
}

function onMutations(records) {
  for (const r of records) {
    if (r.type === "attributes") continue;
    const target = r.target.nodeType === 1 ? r.target : r.target.parentElement;
    if (target && target.closest(`[${UI_ATTR}]`)) continue;
    const nodes = [...r.addedNodes, ...r.removedNodes];
    if (nodes.length && nodes.every((n) => isOurs(n) || n.nodeType === 3) && [...r.addedNodes].some(isOurs)) continue;
    if (nodes.length && nodes.every((n) => n.nodeType === 3) && target && target.closest("mark[data-papershelf-highlight]")) continue;
    scheduleScan();
    return;
  }
}

function scheduleScan() {
  clearTimeout(scanTimer);
  scanTimer = setTimeout(() => {
    scanTimer = null;
    refresh(false);
  }, SCAN_DEBOUNCE_MS);
}

/** User Timing entries for bench/page.py (shared with the page's performance timeline). */
function measure(name, startMark) {
  try {
    // Bounded: a long-lived single-page app re-scans often.
    if (performance.getEntriesByName(name, "measure").length >= 100) performance.clearMeasures(name);
    performance.measure(name, startMark);
  } catch {
    // a page that replaced performance.measure: no figures, nothing else changes
  }
}

function refresh(force) {
  performance.mark("papershelf:scan-start");
  if (location.href !== lastHref) {
    lastHref = location.href; // in-app navigation: look everything up again
    force = true;
  }
  const fresh = scan();
  measure("papershelf:mark", "papershelf:scan-start");
  const freshSet = new Set(fresh);
  const keys = force ? [...byKey.keys()] : fresh;
  const again = [...byKey.keys()].filter((k) => !freshSet.has(k) && known.has(k));
  if (keys.length) lookup(keys);
  // Re-rendered elements whose paper is already known: paint again without asking the server.
  if (!force && again.length) paintAll(again);
  for (const k of fresh.filter((k) => known.has(k))) renderKey(k);
}

export function start() {
  if (window.__papershelfStarted) return;
  window.__papershelfStarted = true;
  refresh(true);
  observer = new MutationObserver(onMutations);
  observer.observe(document.documentElement, { childList: true, subtree: true, characterData: true });
  document.addEventListener("mouseup", onSelectionEnd, true);
  document.addEventListener("keyup", (ev) => {
    if (ev.shiftKey || ev.key.startsWith("Arrow")) onSelectionEnd(ev);
  }, true);
  document.addEventListener("keydown", (ev) => {
    // Fallback for the extension command (Alt+Shift+S) when the browser does not route it.
    if (ev.altKey && ev.shiftKey && !ev.ctrlKey && !ev.metaKey && ev.code === "KeyS") {
      if (saveFocused()) ev.preventDefault();
    }
  }, true);
  addEventListener("popstate", () => scheduleScan());
  chrome.runtime.onMessage.addListener((msg, _sender, sendResponse) => {
    if (!msg || typeof msg !== "object") return false;
    if (msg.type === MessageType.REFRESH) {
      lookedUp.clear();
      refresh(true);
      sendResponse({ ok: true });
    } else if (msg.type === MessageType.SAVE_FOCUSED) {
      sendResponse({ ok: saveFocused() });
    }
    return false;
  });
}
