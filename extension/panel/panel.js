/**
 * The notes panel: an extension page that our content script shows in an iframe at the side of
 * arXiv and alphaXiv pages. Everything the user writes about a paper lives here: its notes (add,
 * edit, delete with a confirm; shown as Markdown by the library's rules, lib/markdown.js), its
 * highlights with their comments (orphans listed apart), its tags and the groups it is shared to
 * (saving it with them, the tags used last one click away), its reading state and star, Copy key,
 * Copy BibTeX and Open in library once it is saved. The host page cannot read this document (another origin)
 * and cannot drive it: the panel takes no window messages, and the worker answers it about the
 * paper its frame was bound to by the content script, and nothing else.
 *
 * It talks to the worker on a port (lib/port.js). It becomes its tab's panel by handing the worker
 * the one-time ticket our content script posted to this frame; the worker rings (PANEL_CHANGED,
 * no data) when the panel was given another paper or closed, and the panel asks for its state.
 * Keyboard: focus lands in the note box on open, Escape leaves an editor and else closes the panel
 * (focus goes back to the page's Note button), Ctrl+Enter saves the text being written.
 */

import { LIMITS } from "../lib/limits.js";
import { renderMarkdown } from "../lib/markdown.js";
import { MessageType, PORT_NAME } from "../lib/messages.js";
import { createPortClient } from "../lib/port.js";
import { backgroundOf } from "../lib/palette.js";

const { request } = createPortClient(() => chrome.runtime.connect({ name: PORT_NAME }));

const EDITABLE_MARK = "papershelf:panel-editable"; // bench/page.py: click on Note → this
const SHOWN_MARK = "papershelf:panel-shown"; // …and → a paper's notes shown
const ACTION = "data-papershelf-action";

const $ = (id) => document.getElementById(id);
const ui = {
  title: $("paper-title"),
  error: $("error"),
  cite: $("cite"),
  key: $("citation-key"),
  citeMsg: $("cite-msg"),
  published: $("published"),
  notes: $("notes"),
  noNotes: $("no-notes"),
  input: $("new-note"),
  noteMsg: $("note-msg"),
  save: document.querySelector('[data-papershelf-action="save-note"]'),
  highlightsSection: $("highlights-section"),
  highlights: $("highlights"),
  orphansHeading: $("orphans-heading"),
  orphans: $("orphans"),
  librarySection: $("library-section"),
  controls: $("paper-controls"),
  star: document.querySelector('[data-papershelf-action="star"]'),
  readingState: $("reading-state"),
  openLibrary: $("open-library"),
  stateMsg: $("state-msg"),
  tags: $("tags"),
  recentTags: $("recent-tags"),
  groupsBox: $("groups-box"),
  groups: $("groups"),
  savePaper: document.querySelector('[data-papershelf-action="save-paper"]'),
  saveMsg: $("save-msg"),
};

/** This frame as the worker sees it ({tabId, frameId}); known after the first answer. */
let me = null;
/** The state shown: the worker's last answer. */
let shown = { bound: false };
/** Unsaved text of the new-note box, per paper, while this page lives. */
const drafts = new Map();
let loads = 0;

function el(tag, attrs = {}, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text != null) node.textContent = text; // user text is always text, never HTML
  return node;
}

function say(node, text) {
  node.textContent = text;
}

/** Ask the worker for this frame's state and show it. */
async function load() {
  const mine = ++loads;
  let view;
  try {
    view = await request(MessageType.PANEL_STATE);
  } catch (err) {
    if (mine === loads) showError(err.message);
    return;
  }
  if (mine !== loads || view.stale) return; // a newer answer is on its way
  me = view.frame || me;
  render(view);
}

function showError(text) {
  ui.error.hidden = !text;
  say(ui.error, text || "");
}

/** A list the user is acting in (a note being edited, a delete waiting for its confirmation): a
 * state update does not redraw it under them. */
function editing(list) {
  return Boolean(list.querySelector('[data-editing], [data-confirm="1"]'));
}

const ITEM_ATTRS = ["data-papershelf-note", "data-papershelf-highlight-item", "data-papershelf-orphan"];

/** Replace a list's items, keeping keyboard focus on the same button of the same item. */
function redraw(list, items) {
  const active = document.activeElement;
  const item = active && list.contains(active) ? active.closest("li") : null;
  const attr = item && ITEM_ATTRS.find((a) => item.hasAttribute(a));
  const action = active && active.getAttribute(ACTION);
  list.replaceChildren(...items);
  if (!attr) return;
  const again = list.querySelector(`li[${attr}="${CSS.escape(item.getAttribute(attr))}"]`);
  const target = again && (again.querySelector(`[${ACTION}="${CSS.escape(action || "")}"]`) || again.querySelector("button"));
  if (target) target.focus();
}

function render(view) {
  const samePaper = shown.bound && view.bound && shown.key === view.key;
  if (!samePaper) {
    if (shown.bound) {
      drafts.set(shown.key, ui.input.value);
      ui.input.value = view.bound ? drafts.get(view.key) || "" : "";
    } else if (view.bound && !ui.input.value) {
      ui.input.value = drafts.get(view.key) || "";
    } // what was typed before the panel knew its paper (a slow worker) is kept, for that paper
    say(ui.noteMsg, "");
    say(ui.citeMsg, "");
    ui.notes.replaceChildren();
    ui.highlights.replaceChildren();
    ui.orphans.replaceChildren();
  }
  shown = view;
  showError(view.error);
  say(ui.title, view.bound ? view.title : "Open a paper's notes with its Note button.");
  ui.cite.hidden = !(view.bound && view.paper_id && view.citation_key);
  say(ui.key, view.citation_key || "");
  ui.published.hidden = !(view.bound && view.published);
  say(ui.published, view.published || "");
  const notes = view.notes || [];
  if (!editing(ui.notes)) redraw(ui.notes, notes.map(noteItem));
  ui.noNotes.hidden = !view.bound || notes.length > 0;
  const highlights = view.highlights || [];
  const placed = highlights.filter((h) => !h.orphan);
  const lost = highlights.filter((h) => h.orphan);
  if (!editing(ui.highlights)) redraw(ui.highlights, placed.map((h) => highlightItem(h, "data-papershelf-highlight-item")));
  if (!editing(ui.orphans)) redraw(ui.orphans, lost.map((h) => highlightItem(h, "data-papershelf-orphan")));
  ui.orphansHeading.hidden = lost.length === 0;
  ui.highlightsSection.hidden = highlights.length === 0;
  renderLibrary(view, samePaper);
  if (!samePaper && view.bound) performance.mark(SHOWN_MARK);
  if (view.focus && view.focus.highlight) {
    const item = document.querySelector(`[data-papershelf-highlight-item="${CSS.escape(view.focus.highlight)}"], [data-papershelf-orphan="${CSS.escape(view.focus.highlight)}"]`);
    const edit = item && item.querySelector('[data-papershelf-action="edit-comment"]');
    if (edit) edit.click();
  }
}

// ---- notes

function noteItem(note) {
  const li = el("li", { "data-papershelf-note": note.id });
  const body = el("div", { "data-papershelf-note-body": "", class: "markdown" });
  body.append(renderMarkdown(note.body)); // the library's allowlist: no script, no image, http(s) links only
  // A link opens in a new tab: the panel's frame stays the panel.
  for (const a of body.querySelectorAll("a[href]")) a.target = "_blank";
  li.append(body);
  if (note.queued) {
    li.append(el("div", { class: "waiting" }, "Waiting for the server: it will be sent when it is back."));
    return li;
  }
  const row = el("div", { class: "row" });
  const edit = el("button", { type: "button", class: "ps-btn", [ACTION]: "edit-note", "aria-label": "Edit this note" }, "Edit");
  const del = el("button", { type: "button", class: "ps-btn", [ACTION]: "delete-note", "aria-label": "Delete this note" }, "Delete");
  const msg = el("span", { class: "msg", role: "status" });
  row.append(edit, del, msg);
  li.append(row);
  edit.addEventListener("click", () => editNote(li, note));
  del.addEventListener("click", () => deleteNote(del, msg, note));
  del.addEventListener("blur", () => {
    if (del.dataset.confirm === "1") {
      del.dataset.confirm = "";
      say(del, "Delete");
      del.setAttribute("aria-label", "Delete this note");
      say(msg, "");
    }
  });
  return li;
}

async function deleteNote(del, msg, note) {
  if (del.dataset.confirm !== "1") {
    del.dataset.confirm = "1";
    say(del, "Delete for good?");
    del.setAttribute("aria-label", "Delete this note for good? Press again to confirm");
    say(msg, "Press again to delete.");
    return;
  }
  del.disabled = true;
  try {
    await request(MessageType.DELETE_NOTE, { id: note.id });
    say(ui.noteMsg, "Note deleted.");
    const li = del.closest("li");
    const next = li.nextElementSibling || li.previousElementSibling;
    li.remove();
    (next ? next.querySelector("button") : ui.input).focus();
    await load();
  } catch (err) {
    del.disabled = false;
    say(msg, err.message);
  }
}

/** In an editor, Escape leaves it (not the panel) and Ctrl+Enter saves. */
function editorKeys(area, save, leave) {
  area.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape") {
      ev.stopPropagation();
      leave();
    }
    if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) save.click();
  });
}

function editNote(li, note) {
  const area = el("textarea", { rows: "4", "data-editing": "", "aria-label": "Edit note", maxlength: String(LIMITS.note) });
  area.value = note.body;
  const save = el("button", { type: "button", class: "ps-btn ps-btn-primary", [ACTION]: "update-note" }, "Save");
  const cancel = el("button", { type: "button", class: "ps-btn", [ACTION]: "cancel-edit" }, "Cancel");
  const msg = el("span", { class: "msg", role: "status" });
  const row = el("div", { class: "row" });
  row.append(save, cancel, msg);
  li.replaceChildren(area, row);
  const done = (focusEdit) => {
    const fresh = noteItem(note);
    li.replaceWith(fresh);
    if (focusEdit) fresh.querySelector(`[${ACTION}="edit-note"]`).focus();
  };
  cancel.addEventListener("click", () => done(true));
  editorKeys(area, save, () => done(true));
  save.addEventListener("click", async () => {
    save.disabled = true;
    try {
      const updated = await request(MessageType.UPDATE_NOTE, { id: note.id, body: area.value });
      note = { ...note, body: updated.body };
      done(true);
      say(ui.noteMsg, "Note saved.");
      load();
    } catch (err) {
      save.disabled = false;
      say(msg, err.message);
    }
  });
  area.focus();
}

async function addNote() {
  const body = ui.input.value;
  if (!body.trim()) {
    say(ui.noteMsg, "Write something first.");
    return;
  }
  ui.save.disabled = true;
  say(ui.noteMsg, "Saving…");
  try {
    const r = await request(MessageType.NOTE, { body });
    ui.input.value = "";
    if (shown.bound) drafts.delete(shown.key);
    say(ui.noteMsg, r.status === "queued" ? "Queued: will be sent when the server is back." : "Note saved.");
    await load();
  } catch (err) {
    say(ui.noteMsg, err.message);
  } finally {
    ui.save.disabled = false;
  }
}

// ---- highlights and their comments

function highlightItem(h, attr) {
  const li = el("li", { [attr]: h.id });
  const swatch = el("span", { class: "swatch", "aria-hidden": "true" });
  swatch.style.background = backgroundOf(h.color);
  li.append(swatch, el("q", {}, h.exact));
  if (h.page) li.append(pageLink(h));
  if (h.comment) li.append(el("p", { class: "comment", "data-papershelf-comment": "" }, h.comment));
  if (h.queued) {
    li.append(el("div", { class: "waiting" }, "Waiting for the server."));
    return li;
  }
  const row = el("div", { class: "row" });
  const edit = el("button", { type: "button", class: "ps-btn", [ACTION]: "edit-comment" }, h.comment ? "Edit comment" : "Add comment");
  row.append(edit);
  li.append(row);
  edit.addEventListener("click", () => editComment(li, h, attr));
  return li;
}

/** A PDF highlight's page, linked to the reader at it (in the reader itself: the same tab). */
function pageLink(h) {
  const attrs = { class: "page", "data-papershelf-page": String(h.page) };
  if (!h.link) return el("span", attrs, `p. ${h.page}`);
  return el("a", { ...attrs, href: h.link, target: shown.in_reader ? "_top" : "_blank", rel: "noopener" }, `p. ${h.page}`);
}

function editComment(li, h, attr) {
  const label = `Comment on “${h.exact.length > 60 ? `${h.exact.slice(0, 57)}…` : h.exact}”`;
  const area = el("textarea", { rows: "3", "data-editing": "", "data-papershelf-comment-input": "", "aria-label": label, maxlength: String(LIMITS.comment) });
  area.value = h.comment || "";
  const save = el("button", { type: "button", class: "ps-btn ps-btn-primary", [ACTION]: "save-comment" }, "Save comment");
  const cancel = el("button", { type: "button", class: "ps-btn", [ACTION]: "cancel-edit" }, "Cancel");
  const msg = el("span", { class: "msg", role: "status" });
  const row = el("div", { class: "row" });
  row.append(save, cancel, msg);
  const swatch = li.querySelector(".swatch");
  li.replaceChildren(swatch, el("q", {}, h.exact), area, row);
  const done = () => {
    const fresh = highlightItem(h, attr);
    li.replaceWith(fresh);
    const again = fresh.querySelector(`[${ACTION}="edit-comment"]`);
    if (again) again.focus();
  };
  cancel.addEventListener("click", done);
  editorKeys(area, save, done);
  save.addEventListener("click", async () => {
    save.disabled = true;
    try {
      const updated = await request(MessageType.UPDATE_HIGHLIGHT, { id: h.id, comment: area.value });
      h = { ...h, comment: updated.comment };
      done();
      say(msg, "");
      load();
    } catch (err) {
      save.disabled = false;
      say(msg, err.message);
    }
  });
  area.focus();
}

// ---- the paper in the library: tags and groups (on save), reading state, star, Open in library

/** What the choices shown are for ("key|paper_id"), and whether the user changed the tags or
 * groups since (then a fresh answer does not overwrite them). */
let choicesFor = null;
let choicesEdited = false;
let choiceLoads = 0;

function sayMsg(node, kind, text) {
  node.className = `ps-msg-${kind}`;
  node.textContent = text;
}

/** The tags in the box: split at commas, trimmed, each once. */
function typedTags() {
  const seen = new Map();
  for (const t of ui.tags.value.split(",")) {
    const tag = t.trim();
    if (tag && !seen.has(tag.toLowerCase())) seen.set(tag.toLowerCase(), tag);
  }
  return [...seen.values()];
}

function chosenGroups() {
  return [...ui.groups.querySelectorAll("input[type=checkbox]:checked")].map((c) => Number(c.value));
}

function renderLibrary(view, samePaper) {
  ui.librarySection.hidden = !view.bound;
  if (!view.bound) return;
  ui.openLibrary.hidden = !view.library_url;
  if (view.library_url) ui.openLibrary.href = view.library_url;
  ui.savePaper.textContent = view.paper_id ? "Save tags and groups" : "Save to papershelf";
  if (!samePaper) {
    choicesEdited = false;
    ui.tags.value = "";
    sayMsg(ui.saveMsg, "progress", "");
    say(ui.stateMsg, "");
  }
  const wanted = `${view.key}|${view.paper_id || ""}`;
  if (wanted !== choicesFor) {
    choicesFor = wanted;
    loadChoices();
  }
}

function showStar(on) {
  ui.star.setAttribute("aria-pressed", on ? "true" : "false");
  ui.star.textContent = on ? "★ Starred" : "☆ Star";
}

function recentChip(tag) {
  const chip = el("button", { type: "button", class: "ps-btn chip", "data-papershelf-recent-tag": tag, "aria-pressed": "false" }, tag);
  chip.addEventListener("click", () => {
    const tags = typedTags();
    const at = tags.findIndex((t) => t.toLowerCase() === tag.toLowerCase());
    if (at >= 0) tags.splice(at, 1);
    else tags.push(tag);
    ui.tags.value = tags.join(", ");
    choicesEdited = true;
    markChips();
  });
  return chip;
}

/** A recent tag's chip is pressed while the tag is in the box. */
function markChips() {
  const tags = new Set(typedTags().map((t) => t.toLowerCase()));
  for (const chip of ui.recentTags.querySelectorAll("[data-papershelf-recent-tag]")) {
    chip.setAttribute("aria-pressed", tags.has(chip.dataset.papershelfRecentTag.toLowerCase()) ? "true" : "false");
  }
}

async function loadChoices() {
  const mine = ++choiceLoads;
  let choices;
  try {
    choices = await request(MessageType.PANEL_CHOICES);
  } catch (err) {
    if (mine === choiceLoads) sayMsg(ui.saveMsg, "err", err.message);
    return;
  }
  if (mine !== choiceLoads) return;
  const paper = choices.paper;
  const label = ui.recentTags.querySelector("#recent-tags-label");
  ui.recentTags.replaceChildren(label, ...choices.recent_tags.map(recentChip));
  ui.recentTags.hidden = choices.recent_tags.length === 0;
  if (!choicesEdited) {
    ui.tags.value = paper ? paper.tags.join(", ") : "";
    ui.groups.replaceChildren(...choices.groups.map((g) => {
      const box = el("input", { type: "checkbox", value: String(g.id), "data-papershelf-group": g.name });
      box.checked = Boolean(paper && paper.groups.includes(g.id));
      box.addEventListener("change", () => (choicesEdited = true));
      const label = el("label", {});
      label.append(box, document.createTextNode(g.name));
      return label;
    }));
  }
  ui.groupsBox.hidden = choices.groups.length === 0;
  markChips();
  // The reading state and the star, once the paper is saved on a server that keeps them.
  const known = Boolean(paper && (paper.reading_state != null || paper.starred != null));
  ui.controls.hidden = !known;
  if (known) {
    ui.readingState.value = paper.reading_state || "unread";
    showStar(Boolean(paper.starred));
  }
}

async function savePaper() {
  ui.savePaper.disabled = true;
  sayMsg(ui.saveMsg, "progress", "Saving…");
  try {
    const tags = typedTags();
    const groups = chosenGroups();
    const r = await request(MessageType.PANEL_SAVE, { tags, groups });
    choicesEdited = false;
    if (r.status === "queued") {
      sayMsg(ui.saveMsg, "progress", "Queued: it will be saved when the server is back.");
      return;
    }
    const names = groups.map((id) => ui.groups.querySelector(`input[value="${id}"]`).dataset.papershelfGroup);
    const parts = [r.tags.length ? `tagged ${r.tags.join(", ")}` : "no tags", names.length ? `shared with ${names.join(", ")}` : "private"];
    sayMsg(ui.saveMsg, "ok", `Saved: ${parts.join("; ")}.`);
  } catch (err) {
    sayMsg(ui.saveMsg, "err", err.message);
  } finally {
    ui.savePaper.disabled = false;
  }
}

async function patchPaper(change, done) {
  say(ui.stateMsg, "Saving…");
  try {
    const r = await request(MessageType.PANEL_PATCH, change);
    showStar(Boolean(r.starred));
    if (r.reading_state) ui.readingState.value = r.reading_state;
    say(ui.stateMsg, done(r));
  } catch (err) {
    say(ui.stateMsg, err.message);
  }
}

const STATE_NAMES = { unread: "Unread", to_read: "To read", reading: "Reading", read: "Read" };

ui.tags.maxLength = LIMITS.tags * (LIMITS.tag + 2);
ui.tags.addEventListener("input", () => {
  choicesEdited = true;
  markChips();
});
ui.tags.addEventListener("keydown", (ev) => {
  if (ev.key === "Enter") savePaper();
});
ui.savePaper.addEventListener("click", savePaper);
ui.star.addEventListener("click", () => {
  const on = ui.star.getAttribute("aria-pressed") !== "true";
  patchPaper({ starred: on }, (r) => (r.starred ? "Starred." : "Star removed."));
});
ui.readingState.addEventListener("change", () => {
  patchPaper({ reading_state: ui.readingState.value }, (r) => `Marked ${STATE_NAMES[r.reading_state] || r.reading_state}.`);
});

// ---- Copy key, Copy BibTeX

async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    // no Clipboard API here (permissions policy, focus): the older way
  }
  const area = el("textarea", { readonly: "", "aria-hidden": "true" });
  area.value = text;
  area.style.cssText = "position:fixed;top:0;left:0;opacity:0;";
  document.body.append(area);
  area.select();
  const ok = document.execCommand("copy");
  area.remove();
  if (!ok) throw new Error("The browser did not let the panel use the clipboard.");
}

async function copy(what) {
  say(ui.citeMsg, "Copying…");
  try {
    const text = what === "key" ? shown.citation_key : (await request(MessageType.BIBTEX)).text;
    await copyText(text);
    say(ui.citeMsg, what === "key" ? "Key copied." : "BibTeX copied.");
  } catch (err) {
    say(ui.citeMsg, err.message);
  }
}

// ---- opening and closing

function close() {
  if (shown.bound) drafts.set(shown.key, ui.input.value);
  request(MessageType.CLOSE_PANEL).catch(() => {});
}

function focusInput() {
  if (document.activeElement === ui.input) return;
  ui.input.focus();
}

// The boxes take as much as the server keeps.
ui.input.maxLength = LIMITS.note;
ui.input.addEventListener("focus", () => performance.mark(EDITABLE_MARK));
ui.input.addEventListener("keydown", (ev) => {
  if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) addNote();
});
ui.save.addEventListener("click", addNote);
document.querySelector(`[${ACTION}="close-panel"]`).addEventListener("click", close);
document.querySelector(`[${ACTION}="copy-key"]`).addEventListener("click", () => copy("key"));
document.querySelector(`[${ACTION}="copy-bibtex"]`).addEventListener("click", () => copy("bibtex"));
document.addEventListener("keydown", (ev) => {
  if (ev.key === "Escape" && !ev.defaultPrevented) {
    ev.preventDefault();
    close();
  }
});
// The content script moves focus into this frame when the user opens it: land in the note box.
addEventListener("focus", () => {
  if (!document.activeElement || document.activeElement === document.body) focusInput();
});
// The one window message the panel takes: the one-time ticket our content script posts to this
// frame alone (the page cannot know it), handed to the worker, which alone decides. Nothing
// else a window message says is read.
addEventListener("message", (ev) => {
  if (ev.source !== parent || !ev.data || typeof ev.data.papershelfTicket !== "string") return;
  request(MessageType.CLAIM_PANEL, { ticket: ev.data.papershelfTicket }).catch(() => {});
});
// The worker's doorbell: this frame was bound to another paper, or closed. Only the worker rings
// (runtime messages come from our own extension alone), and it says nothing but "ask again".
chrome.runtime.onMessage.addListener((msg, sender) => {
  if (!msg || msg.type !== MessageType.PANEL_CHANGED || sender.id !== chrome.runtime.id || sender.tab) return false;
  const { tabId = null, frameId = null } = msg.payload || {};
  if (tabId !== null && me && (tabId !== me.tabId || frameId !== me.frameId)) return false;
  load();
  return false;
});

if (document.hasFocus()) focusInput();
load();
