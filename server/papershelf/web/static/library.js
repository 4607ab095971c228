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

function flash(message) {
  const box = document.getElementById("flash");
  box.textContent = message;
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
    flash(groups.length ? "Shared." : "Private: shared with no group.");
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
    if (e.title.value !== e.title.defaultValue) change.title = e.title.value;
    if (e.authors.value !== e.authors.defaultValue) {
      change.authors = e.authors.value.split("\n").map((a) => a.trim()).filter(Boolean);
    }
    if (e.authors_more.value !== e.authors_more.defaultValue) change.authors_more = Number(e.authors_more.value) || 0;
    if (e.citation_key.value.trim() !== e.citation_key.defaultValue) change.citation_key = e.citation_key.value.trim();
    if (Object.keys(change).length) await api("PATCH", paperUrl, change);
    await refresh("#edit-details summary", form);
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
  const out = document.getElementById("import-result");
  out.replaceChildren();
  const summary = document.createElement("p");
  summary.textContent =
    `Imported ${file.name}: ${result.created} created, ${result.updated} merged, ${result.skipped} skipped` +
    (result.errors && result.errors.length ? `, ${result.errors.length} with errors.` : ".");
  out.append(summary);
  if (result.errors && result.errors.length) {
    const list = document.createElement("ul");
    for (const err of result.errors.slice(0, 20)) {
      const li = document.createElement("li");
      li.textContent = typeof err === "string" ? err : JSON.stringify(err);
      list.append(li);
    }
    out.append(list);
  }
  out.querySelector("p").tabIndex = -1;
  out.querySelector("p").focus();
}

// ---- copying what LaTeX needs --------------------------------------------------------------

async function copyText(text, done) {
  await navigator.clipboard.writeText(text);
  flash(done);
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
  flash("Feed revoked: its URL answers 404 now.");
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
  flash("Token revoked.");
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
  const button = event.target.closest("button[data-action], #toast-undo");
  if (!button) return;
  if (button.id === "toast-undo") {
    undoLatest();
    return;
  }
  const action = button.dataset.action;
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
});

document.addEventListener("selectionchange", captureSelection);

function isTyping(target) {
  return target.closest("input, textarea, select, [contenteditable]") !== null;
}

document.addEventListener("keydown", (event) => {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key === "Escape") {
    const open = document.activeElement && document.activeElement.closest("details[open]");
    if (open) {
      open.open = false;
      open.querySelector("summary").focus();
    }
    return;
  }
  if (isTyping(event.target)) return;
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
setInterval(commitDue, 500);
