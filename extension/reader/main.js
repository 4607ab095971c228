/**
 * The PDF reader, reader.html?file=<PDF URL>: an extension page that shows a PDF with pdf.js and
 * offers, for the paper it is, what a page offers: the Save/Note bar, highlights of selected text
 * with the toolbar, the notes panel, painted highlights. Those are the content roles themselves
 * (content/paperbar.js, toolbar.js, paint.js, panel.js, state.js, watch.js's lookup), run here
 * on the reader's one paper element; like a page's content script, the reader asks the
 * background worker for everything on a port and holds no token (background/trust.js: the
 * reader's role may send the types lib/messages.js lists in READER_TYPES).
 *
 * The paper is known by the PDF's URL (an arXiv PDF: its arXiv id), else by what the PDF says of
 * itself (its metadata, its first page: title, authors, DOI), else by the title the user types.
 * A highlight is made in one page's text layer (field "pdf", with its page); it is painted when
 * its page's text layer is rendered, found on another page of a new version by its quote
 * (lib/pdf.js findOnPages), else listed as an orphan. Roles of this folder: document.js (fetch,
 * check, open with pdf.js), pages.js (pages, lazy rendering, zoom, links, page texts), find.js.
 */

import { MessageType } from "../lib/messages.js";
import {
  PDF_FIELD,
  arxivPaperOfPdf,
  fileFromSearch,
  findOnPages,
  paperFromPdfMetadata,
  readerFragment,
} from "../lib/pdf.js";
import { fromOurWorker, request } from "../content/messaging.js";
import { paintAll, scrollToLinkedHighlight } from "../content/paint.js";
import { mountBar, renderPaper } from "../content/paperbar.js";
import { PANEL_MESSAGES, onPaperChanged } from "../content/panel.js";
import { onPaperChange, state } from "../content/state.js";
import { Measure, timed } from "../content/timing.js";
import { onSelectionEnd } from "../content/toolbar.js";
import { lookup } from "../content/watch.js";
import { ReaderError, askToRead, mayRead, openPdf, startWorker } from "./document.js";
import { createFind } from "./find.js";
import { createPages, endSelecting } from "./pages.js";

const $ = (id) => document.getElementById(id);
export const READER_MEASURE = Object.freeze({
  FIRST_PAGE: "papershelf:reader-first-page", // navigation start → the first page painted
  OPEN: "papershelf:reader-open", // navigation start → the PDF parsed by pdf.js
  TEXTS: "papershelf:reader-texts", // join every page's text (main thread)
  PLACE: "papershelf:reader-place", // find the page of every highlight (main thread)
});

const reader = {
  url: null,
  key: null,
  entry: null,
  pages: null,
  find: null,
  /** highlight id → {page} (where it lies now) or null (an orphan); cleared when texts change */
  placed: new Map(),
};

function showMessage(text) {
  $("message").textContent = text;
  $("message").hidden = false;
}

function showNotice(text) {
  $("notice").textContent = text;
  $("notice").hidden = false;
}

// ---- where each PDF highlight goes (content/paint.js asks state.pdf) ---------------------

/** Where every saved highlight of the paper lies in this PDF, once every page's text is read
 * (the main thread's part of anchoring: lib/pdf.js findOnPages, measured). */
function placeAll() {
  const info = state.known.get(reader.key);
  const texts = reader.pages && reader.pages.view.texts;
  if (!info || !texts) return;
  timed(READER_MEASURE.PLACE, () => {
    for (const h of info.highlights || []) {
      if (h.field !== PDF_FIELD || reader.placed.has(String(h.id))) continue;
      const where = findOnPages(texts, h);
      reader.placed.set(String(h.id), where && { page: where.page });
    }
  });
}

/** Where highlight `h` is painted (content/paint.js asks): its page's text layer; "pending" while
 * that page is not rendered or the texts are not read yet; null when it is nowhere in this PDF
 * (an orphan). Before the texts are read, a highlight goes on its own page if it is found there. */
function placeOf(h) {
  const pages = reader.pages;
  if (!pages) return "pending";
  const id = String(h.id);
  if (!reader.placed.has(id) && pages.view.texts) placeAll();
  if (!reader.placed.has(id)) return pages.layerOf(h.page) || "pending";
  const where = reader.placed.get(id);
  if (!where) return null;
  return pages.layerOf(where.page) || "pending";
}

state.pdf = { placeOf };

// ---- the paper ----------------------------------------------------------------------------

function titleShown() {
  const input = $("title-input");
  return input.hidden ? $("paper-title").textContent : input.value.trim();
}

/** What the reader knows of the paper now, as adapters describe one (lib/adapters/). */
function describe(meta, arxiv) {
  return () => ({
    arxiv_id: arxiv ? arxiv.arxiv_id : null,
    version: arxiv ? arxiv.version : null,
    url: arxiv ? null : reader.url,
    doi: meta.doi || null,
    // the PDF itself: the server then knows the save is from the PDF, whose title never
    // replaces the one its landing page or arXiv gave
    pdf_url: reader.url.replace(/#.*$/, ""),
    title: titleShown() || (arxiv ? arxiv.arxiv_id : ""),
    authors: meta.authors || [],
    authors_more: 0,
    abstract: "",
    affiliations: [],
    topics: [],
    fields: { [PDF_FIELD]: $("viewer") },
  });
}

async function identify(doc) {
  const arxiv = arxivPaperOfPdf(reader.url);
  let meta = { title: "", authors: [], doi: null };
  try {
    const [{ info, metadata }, first] = await Promise.all([doc.getMetadata(), reader.pages.textOf(1)]);
    const page = await doc.getPage(1);
    meta = paperFromPdfMetadata({ info, metadata, firstPage: first.items, pageHeight: page.view[3] });
  } catch {
    // no metadata: the URL, or the user's title
  }
  const title = $("paper-title");
  const input = $("title-input");
  if (arxiv) {
    title.textContent = meta.title || `arXiv:${arxiv.arxiv_id}`;
  } else {
    // Not an arXiv PDF: the title is what the PDF says, and the user can put it right.
    title.textContent = "";
    title.hidden = true;
    input.hidden = false;
    input.value = meta.title || "";
  }
  document.title = `${meta.title || (arxiv ? `arXiv:${arxiv.arxiv_id}` : new URL(reader.url).pathname.split("/").pop() || "PDF")} · papershelf reader`;
  const paperEl = $("paper");
  const key = arxiv ? arxiv.arxiv_id : reader.url.replace(/#.*$/, "");
  const entry = { kind: "pdf", element: paperEl, arxiv_id: arxiv && arxiv.arxiv_id, version: arxiv && arxiv.version, url: arxiv ? null : key, source_url: reader.url, describe: describe(meta, arxiv) };
  reader.key = key;
  reader.entry = entry;
  onPaperChange(renderPaper);
  onPaperChange(onPaperChanged);
  mountBar(entry, key);
  lookup([key]);
}

// ---- the pages ----------------------------------------------------------------------------

function repaint() {
  if (reader.key && state.known.has(reader.key)) timed(Measure.PAINT, () => paintAll([reader.key]));
  if (reader.find) reader.find.refresh();
}

function onTexts(texts) {
  reader.placed.clear();
  placeAll();
  if (texts.every((t) => !t)) {
    showNotice("This PDF has no text (a scanned document?): it can be read here, but there is nothing to select or highlight.");
  }
  repaint();
  goToLinked();
}

function showPage(n) {
  $("page-input").value = String(n);
}

/** The page and highlight the address names (#page=N&papershelf-highlight=ID). */
function goToLinked() {
  const { page, highlight } = readerFragment(location.hash);
  if (highlight && reader.placed.has(highlight)) {
    const where = reader.placed.get(highlight);
    if (where) reader.pages.goTo(where.page);
    return;
  }
  if (highlight && reader.pages && reader.pages.view.texts) {
    const info = state.known.get(reader.key);
    const h = info && (info.highlights || []).find((x) => String(x.id) === highlight);
    const where = h && findOnPages(reader.pages.view.texts, h);
    if (where) return reader.pages.goTo(where.page);
  }
  if (page) reader.pages.goTo(page);
}

async function start() {
  if (window.top !== window) {
    // Never inside another page's frame (web-accessible for arXiv's redirect): nothing to click.
    document.body.textContent = "";
    return;
  }
  reader.url = fileFromSearch(location.search);
  $("original").addEventListener("click", (ev) => {
    ev.preventDefault();
    if (!ev.isTrusted || !reader.url) return;
    request(MessageType.ORIGINAL_PDF, { url: reader.url }).catch((err) => showMessage(err.message));
  });
  if (!reader.url) {
    $("original").hidden = true;
    $("paper-title").textContent = "No PDF";
    showMessage("Give the reader the address of a PDF: reader.html?file=https://… (an http or https address).");
    return;
  }
  $("original").href = reader.url;
  startWorker();
  if (!(await mayRead(reader.url))) {
    const host = new URL(reader.url).host;
    $("paper-title").textContent = host;
    $("permission-text").textContent = `To open PDFs from ${host} here, papershelf needs your permission to read that site (with your cookies, as you see it).`;
    $("permission").hidden = false;
    $("permission-grant").addEventListener("click", async (ev) => {
      if (!ev.isTrusted) return;
      if (await askToRead(reader.url)) {
        $("permission").hidden = true;
        load();
      }
    });
    return;
  }
  load();
}

async function load() {
  let doc;
  try {
    doc = await openPdf(reader.url);
  } catch (err) {
    $("viewer").hidden = true;
    $("paper-title").textContent = "Could not open this PDF";
    showMessage(err instanceof ReaderError ? err.message : `This PDF could not be read: ${err.message}`);
    return;
  }
  performance.measure(READER_MEASURE.OPEN, { start: 0 });
  $("page-count").textContent = `/ ${doc.numPages}`;
  const pages = createPages(doc, $("viewer"), {
    onFirstPage: () => {
      performance.measure(READER_MEASURE.FIRST_PAGE, { start: 0 });
      // Every page's text once the first page is drawn (pdf.js's worker reads them; they would
      // only slow that page down): anchoring on other pages and find need them all.
      const start = performance.now();
      pages.readTexts().then(() => performance.measure(READER_MEASURE.TEXTS, { start }), () => {});
      identify(doc);
    },
    onTextLayer: () => {
      repaint();
      scrollToLinkedHighlight();
    },
    onPageInView: showPage,
    onTexts,
  });
  reader.pages = pages;
  await pages.layout();
  const { page } = readerFragment(location.hash);
  if (page) pages.goTo(page);
  reader.find = createFind(pages, {
    input: $("find-input"),
    count: $("find-count"),
    onGoTo: (m) => pages.goTo(m.page, 0),
  });
  wireControls(pages);
}

function wireControls(pages) {
  $("prev").addEventListener("click", () => pages.goTo(pages.view.current - 1));
  $("next").addEventListener("click", () => pages.goTo(pages.view.current + 1));
  $("page-input").addEventListener("change", () => {
    const n = Number.parseInt($("page-input").value, 10);
    if (Number.isInteger(n)) pages.goTo(n);
    else showPage(pages.view.current);
  });
  $("zoom").addEventListener("change", () => pages.setZoom($("zoom").value));
  const stepZoom = (d) => {
    pages.zoomStep(d);
    const option = [...$("zoom").options].find((o) => o.value === pages.view.zoom);
    if (option) $("zoom").value = option.value;
  };
  $("zoom-in").addEventListener("click", () => stepZoom(1));
  $("zoom-out").addEventListener("click", () => stepZoom(-1));
  $("find").addEventListener("submit", (ev) => {
    ev.preventDefault();
    reader.find.next();
  });
  $("find-prev").addEventListener("click", () => reader.find.previous());
  $("find-input").addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && ev.shiftKey) {
      ev.preventDefault();
      reader.find.previous();
    } else if (ev.key === "Escape") reader.find.clear();
  });
  document.addEventListener("keydown", (ev) => {
    const typing = ev.target && ev.target.closest && ev.target.closest("input, textarea, select, [contenteditable]");
    if ((ev.ctrlKey || ev.metaKey) && ev.key === "f") {
      ev.preventDefault();
      $("find-input").focus();
      $("find-input").select();
    } else if (!typing && !ev.ctrlKey && !ev.metaKey && !ev.altKey) {
      if (ev.key === "j" || ev.key === "PageDown") pages.goTo(pages.view.current + 1);
      else if (ev.key === "k" || ev.key === "PageUp") pages.goTo(pages.view.current - 1);
      else if (ev.key === "+" || ev.key === "=") stepZoom(1);
      else if (ev.key === "-") stepZoom(-1);
      else return;
      ev.preventDefault();
    }
  });
  addEventListener("hashchange", () => {
    goToLinked();
    scrollToLinkedHighlight();
  });
  let resizeTimer = null;
  addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => {
      if (pages.view.zoom === "page-width") pages.setZoom("page-width");
    }, 200);
  });
}

// ---- the page's side of the content roles ---------------------------------------------------

/** What the worker tells the reader (as it tells a page's content script). */
const fromWorker = {
  [MessageType.REFRESH]() {
    if (reader.key) lookup([reader.key]);
    return { ok: true };
  },
  ...PANEL_MESSAGES,
};

chrome.runtime.onMessage.addListener((msg, sender, sendResponse) => {
  if (!msg || typeof msg !== "object" || !Object.hasOwn(fromWorker, msg.type)) return false;
  if (!fromOurWorker(sender)) return false;
  sendResponse(fromWorker[msg.type](msg.payload || {}));
  return false;
});

// Our own changes to the text layers (painted marks) date the cached text models, as on a page.
new MutationObserver(() => {
  state.domVersion++;
}).observe(document.documentElement, { childList: true, subtree: true, characterData: true });
document.addEventListener("mouseup", (ev) => {
  endSelecting();
  onSelectionEnd(ev);
}, true);
document.addEventListener("keyup", (ev) => {
  if (ev.shiftKey || ev.key.startsWith("Arrow")) onSelectionEnd(ev);
}, true);

// For tests and the bench: where each highlight went ({id: {page} | null}).
globalThis.papershelfReader = { placed: () => Object.fromEntries(reader.placed), texts: () => reader.pages && reader.pages.view.texts };

start();
