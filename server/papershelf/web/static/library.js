// The library page's behaviour: edits through the JSON API (session cookie, same origin), deletes
// that can be undone, highlighting a selection, and keyboard shortcuts.
// User text only ever enters the DOM as textContent; the HTML swapped in by refresh() is the
// server's own rendering of this page (escaped by Jinja, notes sanitized by nh3).
// A new highlight is described as the extension describes one: anchoring.js here is the
// extension's own lib/anchoring.js (a link in the package; the wheel carries the file).

import { describeRange } from "./anchoring.js";
import "./note-preview.js";

const PENDING_KEY = "papershelf.pendingDeletes";
const body = document.body;
const undoMs = (Number(body.dataset.undoSeconds) || 8) * 1000;

// ---- talking to the API --------------------------------------------------------------------

class ApiError extends Error {
  constructor(status, error) {
    super(describe(error) || `The server answered ${status}.`);
    this.status = status;
  }
}

function describe(error) {
  if (!error) return "";
  const fields = error.fields
    ? Object.entries(error.fields)
        .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(" ") : JSON.stringify(v)}`)
        .join("; ")
    : "";
  return fields ? `${error.message} (${fields})` : error.message;
}

async function api(method, url, payload) {
  const options = { method, credentials: "same-origin", headers: { Accept: "application/json" } };
  if (payload instanceof FormData) {
    options.body = payload;
  } else if (payload !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(payload);
  }
  const response = await fetch(url, options);
  if (response.status === 401) {
    location.assign("/signin?next=" + encodeURIComponent(location.pathname + location.search));
    throw new ApiError(401, { message: "Your session has ended; sign in again." });
  }
  if (!response.ok) {
    let error = null;
    try {
      error = (await response.json()).error;
    } catch {
      /* not JSON */
    }
    throw new ApiError(response.status, error);
  }
  return response.status === 204 ? null : response.json();
}

// A message in the style of its kind: "ok" (done), "err" (refused, failed), "progress".
function flash(message, kind = "err") {
  const box = document.getElementById("flash");
  box.textContent = message;
  box.className = `flash ps-msg-${kind}`;
  box.setAttribute("role", kind === "err" ? "alert" : "status");
  box.setAttribute("aria-live", kind === "err" ? "assertive" : "polite");
  box.hidden = false;
  clearTimeout(flash.timer);
  flash.timer = setTimeout(() => (box.hidden = true), 8000);
}

// Text typed elsewhere on the page (a half-written note) survives a refresh; the form that was
// just saved starts clean.
function unsavedFields(except) {
  const kept = [];
  for (const el of document.querySelectorAll("#main textarea[id], #main input[id]")) {
    if (except && except.contains(el)) continue;
    if (el.type === "file" || el.type === "hidden") continue;
    if (el.value !== el.defaultValue) {
      const details = el.closest("details");
      kept.push({ id: el.id, value: el.value, open: details ? details.open : null });
    }
  }
  return kept;
}

function restoreFields(kept) {
  for (const { id, value, open } of kept) {
    const el = document.getElementById(id);
    if (!el) continue;
    el.value = value;
    const details = el.closest("details");
    if (details && open) details.open = true;
  }
}

// Re-render the page from the server and swap <main>, keeping the scroll position.
async function refresh(focusSelector, savedForm) {
  const response = await fetch(location.href, { credentials: "same-origin" });
  if (!response.ok) {
    location.reload();
    return;
  }
  const html = await response.text();
  const fresh = new DOMParser().parseFromString(html, "text/html").getElementById("main");
  const current = document.getElementById("main");
  if (!fresh || !current) {
    location.reload();
    return;
  }
  const y = window.scrollY;
  const kept = unsavedFields(savedForm);
  current.replaceWith(document.adoptNode(fresh));
  removedRows = 0; // the fresh count already leaves them out
  restoreFields(kept);
  window.scrollTo(0, y);
  hidePending();
  selectionState.reset();
  picks.restore();
  showTypeFields();
  if (focusSelector) {
    const target = document.querySelector(focusSelector);
    if (target) target.focus({ preventScroll: false });
  }
}

async function run(button, action) {
  if (button) button.disabled = true;
  try {
    await action();
  } catch (e) {
    flash(e.message || String(e));
  } finally {
    if (button && button.isConnected) button.disabled = false;
  }
}

// ---- delete with undo ----------------------------------------------------------------------
// A delete is only a promise for the first few seconds: the element is hidden and a toast offers
// Undo. The DELETE request goes out when the time is up. Pending deletes live in sessionStorage,
// so they carry over to the next page of this tab; if the tab is closed first, nothing is deleted.

function loadPending() {
  try {
    const list = JSON.parse(sessionStorage.getItem(PENDING_KEY) || "[]");
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

function savePending(list) {
  sessionStorage.setItem(PENDING_KEY, JSON.stringify(list));
}

function deletables(url) {
  return [...document.querySelectorAll("[data-delete-url]")].filter((el) => el.dataset.deleteUrl === url);
}

function hidePending() {
  for (const p of loadPending()) for (const el of deletables(p.url)) el.hidden = true;
  updateCount();
}

// The list's count leaves out what is being deleted (hidden) or was deleted (removed) here.
let removedRows = 0;

function updateCount() {
  const heading = document.getElementById("results-heading");
  if (!heading || !heading.dataset.total) return;
  const total = Number(heading.dataset.total);
  const gone = removedRows + document.querySelectorAll("li.paper[hidden]").length;
  if (heading.dataset.text === undefined) heading.dataset.text = heading.textContent;
  if (!gone) {
    heading.textContent = heading.dataset.text;
    return;
  }
  const n = Math.max(0, total - gone);
  heading.textContent = `${n} ${n === 1 ? "paper" : "papers"}`;
}

function scheduleDelete(element) {
  const list = loadPending().filter((p) => p.url !== element.dataset.deleteUrl);
  list.push({ url: element.dataset.deleteUrl, label: element.dataset.deleteLabel || "an item",
              deadline: Date.now() + undoMs });
  savePending(list);
  hidePending();
  showToast(true);
}

function undoLatest() {
  const list = loadPending();
  const last = list.pop();
  if (!last) return;
  savePending(list);
  const restored = deletables(last.url);
  for (const el of restored) el.hidden = false;
  updateCount();
  showToast(false);
  const focusable = restored[0] && restored[0].querySelector("a, button");
  if (focusable) focusable.focus();
  else if (restored.length === 0 && last.url.startsWith("/api/papers/") && body.dataset.page === "library") {
    refresh(); // restored a paper that is not on this page yet
  }
}

function showToast(focusUndo) {
  const toast = document.getElementById("toast");
  const list = loadPending();
  if (!list.length) {
    const hadFocus = toast.contains(document.activeElement);
    toast.hidden = true;
    if (hadFocus) document.getElementById("main").focus();
    return;
  }
  const last = list[list.length - 1];
  const more = list.length > 1 ? ` (and ${list.length - 1} more)` : "";
  document.getElementById("toast-text").textContent = `Deleted ${last.label}${more}.`;
  toast.hidden = false;
  if (focusUndo) document.getElementById("toast-undo").focus();
}

const inFlight = new Set();

async function commitDue() {
  const now = Date.now();
  for (const p of loadPending()) {
    if (p.deadline > now || inFlight.has(p.url)) continue;
    inFlight.add(p.url);
    try {
      await api("DELETE", p.url);
      forget(p.url);
    } catch (e) {
      if (e.status === 404) forget(p.url); // already gone
      else {
        // keep it pending and try again a little later
        savePending(loadPending().map((q) => (q.url === p.url ? { ...q, deadline: Date.now() + 5000 } : q)));
        flash(`Could not delete yet: ${e.message}`);
      }
    } finally {
      inFlight.delete(p.url);
    }
  }
}

function forget(url) {
  savePending(loadPending().filter((q) => q.url !== url));
  for (const el of deletables(url)) {
    if (el.matches("li.paper")) removedRows += 1;
    el.remove();
  }
  updateCount();
  showToast(false);
}

// ---- highlighting a selection in the abstract ----------------------------------------------

const selectionState = {
  quote: null,
  reset() {
    this.quote = null;
    const button = document.getElementById("hl-button");
    const hint = document.getElementById("hl-hint");
    if (button) button.disabled = true;
    if (hint) hint.textContent = "Select words in the abstract to highlight them.";
  },
};

function captureSelection() {
  const abstract = document.getElementById("abstract");
  const selection = document.getSelection();
  if (!abstract || !selection || selection.rangeCount === 0 || selection.isCollapsed) return;
  const range = selection.getRangeAt(0);
  if (!abstract.contains(range.startContainer) || !abstract.contains(range.endContainer)) return;
  const before = document.createRange();
  before.selectNodeContents(abstract);
  before.setEnd(range.startContainer, range.startOffset);
  const raw = range.toString();
  const exact = raw.trim();
  if (!exact) return;
  const text = abstract.textContent;
  const start = before.toString().length + (raw.length - raw.trimStart().length);
  const end = start + exact.length; // JavaScript lengths are UTF-16 code units, as the API wants
  const form = document.getElementById("highlight-form");
  if (text.slice(start, end) !== exact || exact.length > Number(form.dataset.exactMax)) return;
  // The quote, its context (the server's CONTEXT_CHARS on each side) and its offsets.
  selectionState.quote = { field: "abstract", ...describeRange(text, start, end) };
  document.getElementById("hl-button").disabled = false;
  const shown = exact.length > 60 ? exact.slice(0, 57) + "…" : exact;
  document.getElementById("hl-hint").textContent = `Selected: “${shown}”`;
}

// ---- the forms on a paper's page -----------------------------------------------------------

const paperId = body.dataset.paperId;
const paperUrl = paperId ? `/api/papers/${paperId}` : null;

const forms = {
  // ---- teams: tokens, groups, sharing ----
  "create-token": async (form) => {
    const name = form.elements.name.value.trim();
    const days = form.elements.expires_in_days.value;
    const made = await api("POST", "/api/tokens",
      { name, expires_in_days: days ? Number(days) : null });
    await refresh(null, form);
    // The secret is in this answer only: shown here, never fetched again.
    document.getElementById("new-token-secret").textContent = made.token;
    document.getElementById("new-token").hidden = false;
    document.querySelector('[data-action="copy-token"]').focus();
  },
  "create-group": async (form) => {
    const group = await api("POST", "/api/groups", { name: form.elements.name.value.trim() });
    location.assign(`/groups/${group.id}`);
  },
  "add-member": async (form) => {
    await api("POST", `/api/groups/${body.dataset.groupId}/members`,
      { user: form.elements.user.value.trim() });
    await refresh("#member-name", form);
  },
  async share(form) {
    const groups = [...form.querySelectorAll('input[name="groups"]:checked')].map((i) => Number(i.value));
    await api("PATCH", paperUrl, { groups });
    flash(groups.length ? "Shared." : "Private: shared with no group.", "ok");
  },
  "create-feed": async (form) => {
    const payload = Object.fromEntries(new FormData(form).entries());
    const feed = await api("POST", "/api/feeds", payload);
    await refresh(`[data-feed-id="${feed.id}"] [data-action="copy-feed"]`);
  },
  async note(form) {
    const text = form.elements.body.value;
    if (!text.trim()) throw new Error("A note cannot be blank.");
    const note = await api("POST", `${paperUrl}/notes`, { body: text });
    await refresh(`#note-${note.id}`, form);
  },
  async "note-edit"(form) {
    const note = await api("PATCH", `/api/notes/${form.dataset.noteId}`, { body: form.elements.body.value });
    await refresh(`#note-${note.id}`, form);
  },
  async tag(form) {
    const name = form.elements.tag.value.trim();
    if (!name) return;
    const paper = await api("GET", paperUrl);
    if (!paper.tags.some((t) => t.toLowerCase() === name.toLowerCase())) {
      await api("PATCH", paperUrl, { tags: [...paper.tags, name] });
    }
    await refresh("#new-tag", form);
  },
  async details(form) {
    const e = form.elements;
    const change = {};
    const lines = (el) => el.value.split("\n").map((a) => a.trim()).filter(Boolean);
    const changed = (el) => el.value !== el.defaultValue;
    if (changed(e.title)) change.title = e.title.value;
    if (changed(e.authors)) change.authors = lines(e.authors);
    if (changed(e.editors)) change.editors = lines(e.editors);
    if (changed(e.authors_more)) change.authors_more = Number(e.authors_more.value) || 0;
    const type = e.entry_type;
    const typeChanged = [...type.options].some((o) => o.selected !== o.defaultSelected);
    if (typeChanged) change.entry_type = type.value || null;
    // Empty text is "no value"; a venue field the type does not take is cleared with it.
    for (const name of ["published", "journal", "booktitle", "publisher", "volume", "number", "pages",
                        "edition", "doi", "url", "arxiv_id"]) {
      const el = e[name];
      const hidden = el.closest("[data-venue-field]")?.hidden;
      if (hidden && el.defaultValue) change[name] = null;
      else if (!hidden && changed(el)) change[name] = el.value.trim() || null;
    }
    if (e.editors.closest("[data-venue-field]")?.hidden && e.editors.defaultValue) change.editors = [];
    if (changed(e.abstract)) change.abstract = e.abstract.value;
    if (e.citation_key.value.trim() !== e.citation_key.defaultValue) change.citation_key = e.citation_key.value.trim();
    if (Object.keys(change).length) await api("PATCH", paperUrl, change);
    await refresh("#edit-details summary", form);
    flash("Details saved.", "ok");
  },
  async "rename-tag"(form) {
    const from = form.elements.from.value;
    const to = form.elements.tag.value.trim();
    if (!to) throw new Error("Give the tag a name.");
    const tag = await api("PATCH", `/api/tags/${encodeURIComponent(from)}`, { name: to });
    await refresh("#manage-tag", form);
    flash(`Tag “${from}” is now “${tag.name}” (${tag.count} ${tag.count === 1 ? "paper" : "papers"}).`, "ok");
  },
  async "citekey-format"(form) {
    const formula = form.elements.citekey_format.value.trim();
    await api("PATCH", "/api/settings", { citekey_format: formula || null });
    flash("Key formula saved: keys that are not fixed yet follow it.", "ok");
  },
  async "export-defaults"(form) {
    const e = form.elements;
    await api("PATCH", "/api/settings", { export: {
      abstract: e.abstract.checked, notes_field: e.notes_field.value, encoding: e.encoding.value,
      cite: e.cite.value } });
    flash("Export defaults saved.", "ok");
  },
  async highlight(form) {
    if (!selectionState.quote) throw new Error("Select some words in the abstract first.");
    const h = await api("POST", `${paperUrl}/highlights`, {
      ...selectionState.quote,
      color: form.elements.color.value,
      comment: form.elements.comment.value,
    });
    document.getSelection().removeAllRanges();
    await refresh(`#highlight-${h.id}`, form);
  },
  async "highlight-edit"(form) {
    const id = form.dataset.highlightId;
    await api("PATCH", `/api/highlights/${id}`, {
      color: form.elements.color.value,
      comment: form.elements.comment.value,
    });
    await refresh(`#highlight-${id}`, form);
  },
};

async function removeTag(chip) {
  const name = chip.dataset.tag;
  const paper = await api("GET", paperUrl);
  await api("PATCH", paperUrl, { tags: paper.tags.filter((t) => t !== name) });
  await refresh("#new-tag");
}

async function importFile(form) {
  const file = form.elements.file.files[0];
  if (!file) throw new Error("Choose a file to import.");
  const format = form.querySelector("[data-import-format]").value;
  const data = new FormData();
  data.append("file", file);
  const result = await api("POST", `/api/import?format=${encodeURIComponent(format)}`, data);
  await refresh(null, form);
  showImportReport(file.name, result);
}

// The import's report as a list a person reads: the counts, then each entry's problem.
function showImportReport(name, result) {
  const out = document.getElementById("import-result");
  out.replaceChildren();
  const summary = document.createElement("p");
  summary.className = result.errors && result.errors.some((e) => !e.imported) ? "ps-msg-err" : "ps-msg-ok";
  summary.textContent = `Imported ${name}.`;
  out.append(summary);
  const counts = document.createElement("ul");
  counts.className = "import-counts";
  const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;
  for (const line of [
    `${result.created} created`,
    `${result.updated} merged into papers you had`,
    `${plural(result.unchanged || 0, "was", "were")} already there`,
    `${result.skipped} skipped`,
  ]) {
    const li = document.createElement("li");
    li.textContent = line;
    counts.append(li);
  }
  out.append(counts);
  if (result.errors && result.errors.length) {
    const list = document.createElement("ul");
    for (const err of result.errors.slice(0, 50)) {
      const li = document.createElement("li");
      li.textContent = describeImportProblem(err);
      list.append(li);
    }
    if (result.errors.length > 50) {
      const li = document.createElement("li");
      li.textContent = `… and ${result.errors.length - 50} more.`;
      list.append(li);
    }
    out.append(list);
  }
  summary.tabIndex = -1;
  summary.focus();
}

function describeImportProblem(err) {
  if (typeof err === "string") return err;
  const where = err.key ? `Entry ${err.key}` : `Entry ${Number(err.index) + 1}`;
  const what = err.imported ? "imported without some of it" : "skipped";
  let detail = "";
  if (err.fields && typeof err.fields === "object") {
    detail = Object.entries(err.fields)
      .map(([field, msgs]) => `${field}: ${flatten(msgs).join(" ")}`)
      .join("; ");
  }
  return `${where}, ${what}: ${err.reason || "a problem"}${detail ? ` — ${detail}` : ""}.`;
}

function flatten(value) {
  if (Array.isArray(value)) return value.flatMap(flatten);
  if (value && typeof value === "object") return Object.values(value).flatMap(flatten);
  return [String(value)];
}

// ---- copying what LaTeX needs --------------------------------------------------------------

async function copyText(text, done) {
  await navigator.clipboard.writeText(text);
  flash(done, "ok");
}

// The paper's entry exactly as the export writes it (same escaping, notes in annote).
async function copyBibtex() {
  const response = await fetch(`/api/export?format=bibtex&ids=${body.dataset.paperId}`,
    { credentials: "same-origin" });
  if (!response.ok) throw new ApiError(response.status, (await response.json()).error);
  await copyText(await response.text(), "BibTeX entry copied.");
}

// ---- live bibliographies (feeds) -----------------------------------------------------------

async function copyFeed(button) {
  const url = new URL(button.dataset.path, location.origin).href;
  await copyText(url, "Feed URL copied: paste it into Overleaf (New file → From external URL).");
}

// Revoking asks twice: the first press arms the button for a few seconds, the second revokes.
async function revokeFeed(button) {
  if (button.dataset.armed !== "1") {
    button.dataset.armed = "1";
    button.textContent = "Press again to revoke";
    setTimeout(() => {
      if (!button.isConnected) return;
      delete button.dataset.armed;
      button.textContent = "Revoke";
    }, 4000);
    return;
  }
  await api("DELETE", `/api/feeds/${button.closest("[data-feed-id]").dataset.feedId}`);
  await refresh("#feed-format");
  flash("Feed revoked: its URL answers 404 now.", "ok");
}

// ---- tokens and groups ----------------------------------------------------------------------

// Asks twice, as revoking a feed does.
function armed(button, label) {
  if (button.dataset.armed === "1") return true;
  button.dataset.armed = "1";
  const before = button.textContent;
  button.textContent = label;
  setTimeout(() => {
    if (!button.isConnected) return;
    delete button.dataset.armed;
    button.textContent = before;
  }, 4000);
  return false;
}

async function revokeToken(button) {
  if (!armed(button, "Press again to revoke")) return;
  await api("DELETE", `/api/tokens/${button.closest("[data-token-id]").dataset.tokenId}`);
  await refresh("#token-name");
  flash("Token revoked.", "ok");
}

async function removeMember(button) {
  if (!armed(button, "Press again")) return;
  const name = button.closest("[data-member]").dataset.member;
  await api("DELETE", `/api/groups/${body.dataset.groupId}/members/${encodeURIComponent(name)}`);
  if (button.textContent.includes("leave") || name === document.querySelector(".who .user")?.textContent) {
    location.assign("/groups");
  } else {
    await refresh("#member-name");
  }
}


// ---- selecting many papers ------------------------------------------------------------------
// Checkboxes on the rows; shift-click picks the range from the last one clicked; "Select all N
// matching" takes every paper the filter matches (the page lists their ids). What is picked
// survives a refresh of the list.

const picks = {
  ids: new Set(),
  last: null,
  boxes() {
    return [...document.querySelectorAll("input[data-pick]")].filter((b) => !b.closest("[hidden]"));
  },
  set(id, on) {
    if (on) this.ids.add(id);
    else this.ids.delete(id);
  },
  click(box, shift) {
    const boxes = this.boxes();
    const at = boxes.indexOf(box);
    if (shift && this.last !== null && this.last !== at && at !== -1) {
      const [from, to] = this.last < at ? [this.last, at] : [at, this.last];
      for (const b of boxes.slice(from, to + 1)) {
        b.checked = box.checked;
        this.set(Number(b.value), box.checked);
      }
    } else {
      this.set(Number(box.value), box.checked);
    }
    this.last = at;
    this.show();
  },
  page(on) {
    for (const b of this.boxes()) this.set(Number(b.value), on);
    this.show();
  },
  all() {
    const bar = document.getElementById("bulk");
    for (const id of (bar.dataset.allIds || "").split(",").filter(Boolean)) this.ids.add(Number(id));
    this.show();
  },
  clear() {
    this.ids.clear();
    this.last = null;
    this.show();
  },
  restore() {
    const present = new Set(this.boxes().map((b) => Number(b.value)));
    const all = new Set((document.getElementById("bulk")?.dataset.allIds || "").split(",").map(Number));
    for (const id of [...this.ids]) if (!present.has(id) && !all.has(id)) this.ids.delete(id);
    this.show();
  },
  show() {
    const bar = document.getElementById("bulk");
    if (!bar) return;
    for (const b of document.querySelectorAll("input[data-pick]")) {
      b.checked = this.ids.has(Number(b.value));
      b.closest("li.paper")?.classList.toggle("is-picked", b.checked);
    }
    const page = document.getElementById("pick-page");
    const boxes = this.boxes();
    if (page) {
      const on = boxes.filter((b) => b.checked).length;
      page.checked = on > 0 && on === boxes.length;
      page.indeterminate = on > 0 && on < boxes.length;
    }
    const n = this.ids.size;
    bar.hidden = n === 0;
    document.getElementById("bulk-count").textContent = `${n} selected`;
  },
};

async function bulk(change, done) {
  const ids = [...picks.ids];
  if (!ids.length) throw new Error("Select some papers first.");
  flash(`Changing ${ids.length} ${ids.length === 1 ? "paper" : "papers"}…`, "progress");
  const result = await api("PATCH", "/api/papers", { ids, ...change });
  await refresh("#bulk-count");
  flash(`${done}: ${result.updated} ${result.updated === 1 ? "paper" : "papers"}.`, "ok");
}

function bulkTag(remove) {
  const input = document.getElementById("bulk-tag");
  const name = input.value.trim();
  if (!name) throw new Error("Type the tag to add or remove.");
  input.value = "";
  return bulk(remove ? { remove_tags: [name] } : { add_tags: [name] },
    remove ? `Tag “${name}” removed` : `Tagged “${name}”`);
}

function bulkExport() {
  const ids = [...picks.ids];
  if (!ids.length) throw new Error("Select some papers first.");
  const format = document.getElementById("bulk-format").value;
  location.assign(`/api/export?format=${encodeURIComponent(format)}&ids=${ids.join(",")}`);
}

// Deleting many: at once, with Undo (the server keeps them restorable for a while).
let restorable = null;

async function bulkDelete() {
  const ids = [...picks.ids];
  if (!ids.length) throw new Error("Select some papers first.");
  const result = await api("DELETE", "/api/papers", { ids });
  picks.clear();
  await refresh();
  restorable = result.deleted;
  const n = result.deleted.length;
  document.getElementById("toast-text").textContent = `Deleted ${n} ${n === 1 ? "paper" : "papers"}.`;
  document.getElementById("toast").hidden = false;
  document.getElementById("toast-undo").focus();
}

async function undoBulkDelete() {
  const ids = restorable;
  restorable = null;
  document.getElementById("toast").hidden = true;
  const result = await api("POST", "/api/papers/restore", { ids });
  for (const id of result.restored) picks.ids.add(id);
  await refresh();
  flash(`Restored ${result.restored.length} ${result.restored.length === 1 ? "paper" : "papers"}.`, "ok");
}

// ---- reading state and star ----------------------------------------------------------------

function paperOf(el) {
  const row = el.closest("[data-paper-id]");
  return row ? row.dataset.paperId : body.dataset.paperId;
}

async function toggleStar(button) {
  const on = button.getAttribute("aria-pressed") !== "true";
  await api("PATCH", `/api/papers/${paperOf(button)}`, { starred: on });
  button.setAttribute("aria-pressed", String(on));
  button.textContent = on ? "★" : "☆";
}

async function setState(select) {
  await api("PATCH", `/api/papers/${paperOf(select)}`, { reading_state: select.value });
  select.className = select.className.replace(/\bstate-\w+/, `state-${select.value}`);
  flash(`Marked “${select.selectedOptions[0].textContent}”.`, "ok");
}

// ---- the paper's editor: the entry type decides which venue fields show ----------------------

function showTypeFields() {
  const form = document.getElementById("details-form");
  if (!form) return;
  let table;
  try {
    table = JSON.parse(form.dataset.typeFields);
  } catch {
    return;
  }
  const type = form.elements.entry_type.value;
  const shown = new Set(table[type] || table[""]);
  for (const box of form.querySelectorAll("[data-venue-field]")) {
    box.hidden = !shown.has(box.dataset.venueField);
  }
}

// ---- tags, duplicates, settings ------------------------------------------------------------

async function deleteTag(button) {
  const name = document.getElementById("manage-tag").value;
  if (!armed(button, `Press again to delete “${name}”`)) return;
  await api("DELETE", `/api/tags/${encodeURIComponent(name)}`);
  await refresh("#q");
  flash(`Tag “${name}” deleted; its papers stay.`, "ok");
}

async function mergePapers(button) {
  const keep = button.dataset.keep;
  const merged = await api("POST", `/api/papers/${keep}/merge`, { other: Number(button.dataset.other) });
  await refresh("#main");
  flash(`Merged into “${merged.title}” (${merged.citation_key}; also cited as ${merged.key_aliases.join(", ")}).`, "ok");
}

let previewTimer = null;
let previewRun = 0;

function schedulePreview() {
  clearTimeout(previewTimer);
  previewTimer = setTimeout(() => run(null, () => preview(false)), 250);
}

function formulaValue() {
  return document.getElementById("citekey-format").value.trim() || null;
}

async function preview(rekey) {
  const mine = ++previewRun;
  const error = document.getElementById("citekey-error");
  let answer;
  try {
    answer = await api("POST", "/api/settings/preview", { citekey_format: formulaValue(), rekey });
  } catch (e) {
    if (mine !== previewRun) return null;
    error.textContent = e.message;
    error.hidden = false;
    return null;
  }
  if (mine !== previewRun) return null; // a later keystroke's answer wins
  error.hidden = true;
  const rows = answer.examples.map((e) => {
    const tr = document.createElement("tr");
    const cells = [e.title, e.key, e.formula_key];
    cells.forEach((text, i) => {
      const td = document.createElement("td");
      if (i === 0) td.textContent = text;
      else {
        const code = document.createElement("code");
        code.textContent = text;
        td.append(code);
      }
      if (i === 2 && e.pinned) {
        const hint = document.createElement("span");
        hint.className = "hint";
        hint.textContent = " (yours: kept)";
        td.append(hint);
      }
      tr.append(td);
    });
    return tr;
  });
  document.querySelector("#key-preview tbody").replaceChildren(...rows);
  return answer;
}

async function rekeyPreview() {
  const answer = await preview(true);
  if (!answer) return;
  const box = document.getElementById("rekey");
  const list = document.getElementById("rekey-changes");
  const n = answer.changes.length;
  document.getElementById("rekey-summary").textContent = n
    ? `${n} ${n === 1 ? "key" : "keys"} would change (keys you set yourself stay). Nothing has changed yet.`
    : "No key would change.";
  list.replaceChildren(...answer.changes.map((c) => {
    const li = document.createElement("li");
    li.textContent = `${c.old} → ${c.new} (${c.title})`;
    return li;
  }));
  document.getElementById("rekey-button").hidden = n === 0;
  box.hidden = false;
  box.querySelector("h3").tabIndex = -1;
  box.querySelector("h3").focus();
}

async function rekey() {
  await api("PATCH", "/api/settings", { citekey_format: formulaValue() });
  const result = await api("POST", "/api/settings/rekey");
  document.getElementById("rekey").hidden = true;
  await preview(false);
  flash(`Re-keyed ${result.rekeyed} ${result.rekeyed === 1 ? "paper" : "papers"}.`, "ok");
}

// ---- keyboard shortcuts help ---------------------------------------------------------------

let helpReturn = null;

function showShortcuts(open) {
  const dialog = document.getElementById("shortcuts");
  if (open) {
    helpReturn = document.activeElement;
    dialog.hidden = false;
    dialog.querySelector("[role=dialog]").focus();
  } else {
    dialog.hidden = true;
    if (helpReturn && helpReturn.isConnected) helpReturn.focus();
  }
}

function focusedRow() {
  return document.activeElement && document.activeElement.closest("li.paper");
}

// ---- wiring (delegated, so that it survives refresh()) -------------------------------------

document.addEventListener("submit", (event) => {
  const form = event.target;
  const button = event.submitter || form.querySelector("[type=submit]");
  if (form.id === "import-form") {
    event.preventDefault();
    run(button, () => importFile(form));
    return;
  }
  const handler = forms[form.dataset.form];
  if (!handler) return;
  event.preventDefault();
  run(button, () => handler(form));
});

document.addEventListener("click", (event) => {
  const pick = event.target.closest("input[data-pick]");
  if (pick) {
    picks.click(pick, event.shiftKey);
    return;
  }
  if (event.target.id === "shortcuts") {
    showShortcuts(false); // a click beside the dialog
    return;
  }
  const button = event.target.closest("button[data-action], #toast-undo");
  if (!button) return;
  if (button.id === "toast-undo") {
    if (restorable) run(button, undoBulkDelete);
    else undoLatest();
    return;
  }
  const action = button.dataset.action;
  const bulkActions = {
    "pick-all": () => picks.all(),
    "pick-none": () => picks.clear(),
    "bulk-tag": () => run(button, () => bulkTag(false)),
    "bulk-untag": () => run(button, () => bulkTag(true)),
    "bulk-state": () => run(button, () => bulk({ set: { reading_state: document.getElementById("bulk-state").value } }, "State set")),
    "bulk-star": () => run(button, () => bulk({ set: { starred: true } }, "Starred")),
    "bulk-unstar": () => run(button, () => bulk({ set: { starred: false } }, "Unstarred")),
    "bulk-share": () => run(button, () => bulk({ share_group: Number(document.getElementById("bulk-group").value) }, "Shared")),
    "bulk-export": () => run(button, async () => bulkExport()),
    "bulk-delete": () => run(button, bulkDelete),
    star: () => run(button, () => toggleStar(button)),
    "delete-tag": () => run(button, () => deleteTag(button)),
    merge: () => run(button, () => mergePapers(button)),
    "rekey-preview": () => run(button, rekeyPreview),
    rekey: () => run(button, rekey),
    shortcuts: () => showShortcuts(true),
    "close-shortcuts": () => showShortcuts(false),
  };
  if (bulkActions[action]) {
    bulkActions[action]();
    return;
  }
  if (action === "delete") {
    const owner = button.closest("[data-delete-url]");
    if (owner) scheduleDelete(owner);
  } else if (action === "delete-paper") {
    const owner = document.getElementById("paper");
    scheduleDelete(owner);
    location.assign("/"); // the list shows the toast and sends the DELETE when the time is up
  } else if (action === "remove-tag") {
    run(button, () => removeTag(button.closest("[data-tag]")));
  } else if (action === "copy-key") {
    run(button, () => copyText(document.getElementById("citekey").textContent, "Key copied."));
  } else if (action === "cite" || action === "reject-version") {
    const change = action === "cite" ? { cite: button.dataset.cite } : { published_version: null };
    run(button, async () => {
      await api("PATCH", `/api/papers/${document.body.dataset.paperId}`, change);
      location.reload();
    });
  } else if (action === "copy-bibtex") {
    run(button, () => copyBibtex());
  } else if (action === "copy-feed") {
    run(button, () => copyFeed(button));
  } else if (action === "revoke-feed") {
    run(button, () => revokeFeed(button));
  } else if (action === "revoke-token") {
    run(button, () => revokeToken(button));
  } else if (action === "copy-token") {
    run(button, () => copyText(document.getElementById("new-token-secret").textContent, "Token copied."));
  } else if (action === "remove-member") {
    run(button, () => removeMember(button));
  }
});

document.addEventListener("change", (event) => {
  const select = event.target.closest("select[data-autosubmit]");
  if (select && select.form) select.form.requestSubmit();
  if (event.target.matches("select[data-row-state]")) run(event.target, () => setState(event.target));
  if (event.target.id === "edit-type") showTypeFields();
  if (event.target.id === "pick-page") picks.page(event.target.checked);
});

document.addEventListener("input", (event) => {
  if (event.target.id === "citekey-format") schedulePreview();
});

document.addEventListener("selectionchange", captureSelection);

function isTyping(target) {
  return target.closest("input, textarea, select, [contenteditable]") !== null;
}

document.addEventListener("keydown", (event) => {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key === "Escape") {
    if (!document.getElementById("shortcuts").hidden) {
      showShortcuts(false);
      return;
    }
    if (picks.ids.size && !isTyping(event.target)) {
      picks.clear();
      return;
    }
    const open = document.activeElement && document.activeElement.closest("details[open]");
    if (open) {
      open.open = false;
      open.querySelector("summary").focus();
    }
    return;
  }
  if (isTyping(event.target)) return;
  if (event.key === "?") {
    event.preventDefault();
    showShortcuts(true);
    return;
  }
  if (!document.getElementById("shortcuts").hidden) return;
  if ((event.key === "x" || event.key === "s") && focusedRow()) {
    event.preventDefault();
    const row = focusedRow();
    if (event.key === "x") {
      const box = row.querySelector("input[data-pick]");
      box.checked = !box.checked;
      picks.click(box, false);
    } else {
      run(null, () => toggleStar(row.querySelector("button[data-action=star]")));
    }
    return;
  }
  if (event.key === "/") {
    const search = document.getElementById("q");
    if (search) {
      event.preventDefault();
      search.focus();
      search.select();
    }
  } else if ((event.key === "j" || event.key === "k") && body.dataset.page === "library") {
    const links = [...document.querySelectorAll("a[data-nav]")].filter((a) => !a.closest("[hidden]"));
    if (!links.length) return;
    const at = links.indexOf(document.activeElement);
    const next = event.key === "j" ? Math.min(at + 1, links.length - 1) : Math.max(at - 1, 0);
    links[at === -1 ? 0 : next].focus();
    event.preventDefault();
  } else if (event.key === "u" && !document.getElementById("toast").hidden) {
    undoLatest();
  }
});

hidePending();
showToast(false);
picks.show();
showTypeFields();
setInterval(commitDue, 500);
