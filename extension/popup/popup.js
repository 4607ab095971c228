/** Popup: what waits in the outbox, recent saves (each a link to its page in the library), the
 * library itself, and the BibTeX export (fetched by the background worker with the token, handed
 * here as text, downloaded as a file); on a PDF tab, "Open this PDF in the reader". */

import { libraryUrl } from "../lib/api.js";
import { MessageType, resultOf } from "../lib/messages.js";
import { isPdfTabUrl } from "../lib/pdf.js";

const $ = (id) => document.getElementById(id);

async function ask(type, payload = {}) {
  return resultOf(await chrome.runtime.sendMessage({ type, payload }), "no answer");
}

/** Open `url` (the library) in a new tab and close the popup. */
function openTab(url) {
  chrome.tabs.create({ url });
  window.close();
}

/** A link that opens in a new tab (one listener below): the library, or a paper's page in it. */
function libraryLink(link, url) {
  link.href = url;
  link.setAttribute("data-papershelf-library-link", "");
  return link;
}

document.addEventListener("click", (ev) => {
  const link = ev.target.closest && ev.target.closest("a[data-papershelf-library-link]");
  if (!link) return;
  ev.preventDefault();
  openTab(link.href);
});

function item(title, meta, href) {
  const li = document.createElement("li");
  const t = href ? libraryLink(document.createElement("a"), href) : document.createElement("div");
  if (href) t.title = "Open in library";
  t.textContent = title; // user and page text: always text
  li.append(t);
  if (meta) {
    const m = document.createElement("div");
    m.className = "meta";
    m.textContent = meta;
    li.append(m);
  }
  return li;
}

function empty(text) {
  const li = item(text);
  li.className = "empty";
  return li;
}

async function render() {
  const s = await ask(MessageType.STATUS);
  $("setup").hidden = s.configured;
  const queued = s.queued.map((q) => item(q.title || q.kind, `${q.kind}${q.attempts ? ` · ${q.attempts} attempt${q.attempts > 1 ? "s" : ""}` : ""}${q.last_error ? ` · ${q.last_error}` : ""}`));
  const failed = s.failed.map((f) => item(f.title || f.kind, `not sent: ${f.last_error}`));
  $("queued").replaceChildren(...(queued.length || failed.length ? [...queued, ...failed] : [empty("Nothing waiting.")]));
  $("queued-count").textContent = s.queued.length ? `(${s.queued.length})` : "";
  $("retry").hidden = !s.queued.length;
  libraryLink($("open-library"), libraryUrl(s.serverUrl));
  const recent = s.recent.map((r) => item(
    r.title,
    [r.citation_key, r.arxiv_id, new Date(r.at).toLocaleString()].filter(Boolean).join(" · "),
    r.id != null ? libraryUrl(s.serverUrl, r.id) : null,
  ));
  $("recent").replaceChildren(...(recent.length ? recent : [empty("No saves yet.")]));
}

/** Say `busy`, run `action`, then say what it returns or why it failed. */
async function report(busy, action) {
  say("progress", busy);
  try {
    say("ok", await action());
  } catch (err) {
    say("err", err.message);
  }
}

/** The message line, in the style of its kind: ok, err or progress. */
function say(kind, text) {
  $("msg").className = `ps-msg-${kind}`;
  $("msg").textContent = text;
}

async function exportBibtex() {
  const { text, filename, type } = await ask(MessageType.EXPORT, { format: "bibtex" });
  const url = URL.createObjectURL(new Blob([text], { type: type || "application/x-bibtex" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = filename || "papershelf.bib";
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
  return `Downloaded ${a.download}.`;
}

async function savePage() {
  const r = await ask(MessageType.SAVE_PAGE);
  return r.status === "queued" ? "Queued: the server is not reachable." : "Saved.";
}

async function retryNow() {
  const r = await ask(MessageType.FLUSH);
  return r.remaining ? `${r.remaining} still waiting.` : "All sent.";
}

for (const id of ["options", "options2"]) {
  $(id).addEventListener("click", (ev) => {
    ev.preventDefault();
    chrome.runtime.openOptionsPage();
  });
}
$("export").addEventListener("click", () => report("Exporting…", exportBibtex));
$("save-page").addEventListener("click", async () => {
  await report("Saving…", savePage);
  render();
});
$("retry").addEventListener("click", async () => {
  await report("Retrying…", retryNow);
  render();
});
// A PDF tab (its URL is ours to read while the popup is open: activeTab): offer the reader.
chrome.tabs.query({ active: true, currentWindow: true }).then(([tab]) => {
  if (!tab || !isPdfTabUrl(tab.url)) return;
  $("read-pdf").hidden = false;
  $("read-pdf").addEventListener("click", () => report("Opening…", async () => {
    await ask(MessageType.OPEN_READER, { url: tab.url, tabId: tab.id });
    window.close();
    return "";
  }));
}, () => {});
render().catch((err) => say("err", err.message));
