/**
 * The notes panel of a paper (Note on its bar): its notes, to add, edit and delete, and the
 * highlights that no longer match the text (orphans, listed, never dropped). In an open shadow
 * root inside the bar, so that the page's CSS cannot break it.
 */

import { MessageType } from "../lib/messages.js";
import { ACTION_ATTR, adoptStyles, el, keepKeysFromPage } from "./dom.js";
import { request } from "./messaging.js";
import { infoOf, isQueuedId, queuedId, savePayloadFor, savedFrom, setKnown, state } from "./state.js";
import { PANEL_CSS } from "./styles.js";

/** Open the element's notes panel, or close it when open. */
export function toggleNotes(element) {
  const d = state.decorated.get(element);
  const button = d.bar.querySelector(`[${ACTION_ATTR}="note"]`);
  if (d.panel) {
    d.panel.getRootNode().host.remove();
    d.panel = null;
    button.setAttribute("aria-expanded", "false");
    return;
  }
  const panelHost = el("span", { "data-papershelf-panel": "" });
  const shadow = panelHost.attachShadow({ mode: "open" });
  adoptStyles(shadow, PANEL_CSS);
  const panel = el("div", { class: "panel", role: "group", "aria-label": "papershelf notes" });
  const list = el("ul", { class: "notes" });
  const orphans = el("div", { class: "orphans" });
  const input = el("textarea", { "data-papershelf-note-input": "", rows: "3", placeholder: "Add a note (Markdown)…", "aria-label": "Note" });
  const row = el("div", { class: "row" });
  const saveNote = el("button", { type: "button", [ACTION_ATTR]: "save-note" }, "Save note");
  const msg = el("span", { class: "msg", role: "status" });
  row.append(saveNote, msg);
  panel.append(list, orphans, input, row);
  shadow.append(panel);
  d.bar.append(panelHost);
  d.panel = panel;
  keepKeysFromPage(panel);
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

/** Redraw an open panel from the state. */
export function fillNotesPanel(element, panel) {
  const d = state.decorated.get(element);
  const info = infoOf(d.key);
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
  if (isQueuedId(note.id)) {
    li.append(el("span", { class: "msg" }, " (waiting for the server)"));
    return li;
  }
  const edit = el("button", { type: "button", class: "small", [ACTION_ATTR]: "edit-note" }, "Edit");
  const del = el("button", { type: "button", class: "small", [ACTION_ATTR]: "delete-note" }, "Delete");
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
      await request(MessageType.DELETE_NOTE, { id: note.id });
      const { key } = state.decorated.get(element);
      setKnown(key, { notes: (infoOf(key).notes || []).filter((n) => n.id !== note.id) });
    } catch (err) {
      msg.textContent = err.message;
    }
  });
  return li;
}

function editNote(element, li, note) {
  const area = el("textarea", { rows: "3", "data-editing": "", "aria-label": "Edit note" });
  area.value = note.body;
  const save = el("button", { type: "button", [ACTION_ATTR]: "update-note" }, "Save");
  const cancel = el("button", { type: "button" }, "Cancel");
  const msg = el("span", { class: "msg", role: "status" });
  li.replaceChildren(area, el("div", { class: "row" }));
  li.lastChild.append(save, cancel, msg);
  const { key } = state.decorated.get(element);
  cancel.addEventListener("click", () => li.replaceWith(noteItem(element, note)));
  save.addEventListener("click", async () => {
    try {
      const updated = await request(MessageType.UPDATE_NOTE, { id: note.id, body: area.value });
      const info = infoOf(key);
      li.replaceWith(noteItem(element, updated));
      setKnown(key, { notes: (info.notes || []).map((n) => (n.id === note.id ? updated : n)) });
    } catch (err) {
      msg.textContent = err.message;
    }
  });
  area.focus();
}

async function addNote(element, body) {
  const { key } = state.decorated.get(element);
  const info = infoOf(key);
  const r = await request(MessageType.NOTE, { key, paper_id: info.paper_id || null, paper: savePayloadFor(element), body });
  const notes = [...(info.notes || []), r.status === "queued" ? { id: queuedId(r.client_id), body } : r.note];
  setKnown(key, r.paper ? { notes, ...savedFrom(r.paper) } : { notes });
  return r;
}
