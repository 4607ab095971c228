/**
 * The PDF's pages in the reader: one placeholder per page at its size, rendered when it comes near
 * the viewport (a canvas, pdf.js's text layer with `data-page-number`, and the page's links), the
 * canvas let go again when the page is far away; zoom, going to a page, the page in view; and
 * each page's normalized text (lib/pdf.js pageText), read for every page once the document is
 * open, for anchoring highlights on pages not rendered yet and for find.
 *
 * A link in the PDF becomes an <a> only when it is http(s) (opened in a new tab, without the
 * opener) or a destination inside the document; javascript:, file:, Launch and every other action
 * become nothing. No annotation layer, no forms, no scripting: a PDF's own code never runs.
 */

import { PixelsPerInch, TextLayer } from "../vendor/pdfjs/build/pdf.min.mjs";
import { isHttpUrl, pageText } from "../lib/pdf.js";

export const PAGE_ATTR = "data-page-number";
const NEAR = "150% 0px"; // render pages within one and a half screens of the viewport
const KEEP_CANVASES = 8; // rendered canvases kept; the farthest beyond that are let go
const ZOOMS = [0.5, 0.75, 1, 1.25, 1.5, 2, 3];

/** A view of `doc` (a pdf.js PDFDocumentProxy) in `container`. Callbacks: onTextLayer(page,
 * layer) when a page's text layer is in the DOM, onPageInView(page), onTexts(texts) once every
 * page's text is read, onFirstPage() when the first page shown is painted (or could not be). */
export function createPages(doc, container, callbacks) {
  const view = {
    doc,
    count: doc.numPages,
    zoom: "page-width",
    scale: 1,
    pages: [], // [{n, div, layer, links, size: {width, height} in PDF units, state, canvas, task}]
    texts: null, // [page text] once all are read
    itemsOf: new Map(), // page → its text content (kept: the text layer is rebuilt on zoom)
    current: 1,
    observer: null,
    firstPainted: false,
    destroyed: false,
  };

  function cssScale() {
    if (view.zoom !== "page-width") return Number(view.zoom) * PixelsPerInch.PDF_TO_CSS_UNITS;
    const widest = Math.max(...view.pages.map((p) => p.size.width));
    const room = Math.max(320, container.clientWidth - 32);
    return Math.min(4, room / widest);
  }

  function sizePage(p) {
    p.div.style.width = `${Math.floor(p.size.width * view.scale)}px`;
    p.div.style.height = `${Math.floor(p.size.height * view.scale)}px`;
    p.div.style.setProperty("--total-scale-factor", String(view.scale));
  }

  async function layout() {
    const first = await doc.getPage(1);
    const base = first.getViewport({ scale: 1 });
    for (let n = 1; n <= view.count; n++) {
      const div = document.createElement("div");
      div.className = "page";
      div.dataset.page = String(n);
      div.setAttribute("data-loading", `Page ${n}`);
      div.setAttribute("aria-label", `Page ${n}`);
      container.append(div);
      view.pages.push({ n, div, layer: null, links: null, size: { width: base.width, height: base.height }, state: "empty", canvas: null, task: null });
    }
    view.scale = cssScale();
    view.pages.forEach(sizePage);
    view.observer = new IntersectionObserver(onIntersect, { rootMargin: NEAR });
    for (const p of view.pages) view.observer.observe(p.div);
    addEventListener("scroll", onScroll, { passive: true });
  }

  /** The other pages' sizes, as their dictionaries arrive (most papers: all the same), once the
   * first page is drawn (asked before, they would hold it up in pdf.js's worker). */
  function sizeOtherPages() {
    for (let n = 2; n <= view.count; n++) {
      doc.getPage(n).then((page) => {
        const vp = page.getViewport({ scale: 1 });
        const p = view.pages[n - 1];
        if (vp.width !== p.size.width || vp.height !== p.size.height) {
          p.size = { width: vp.width, height: vp.height };
          sizePage(p);
        }
      }, () => {});
    }
  }

  /** The first page drawn, or failed: what waited for it may start. */
  function firstPageDone(n) {
    if (view.firstPainted) return;
    view.firstPainted = true;
    sizeOtherPages();
    callbacks.onFirstPage(n);
  }

  const queue = new Set();
  let running = false;

  function onIntersect(entries) {
    for (const e of entries) {
      const p = view.pages[Number(e.target.dataset.page) - 1];
      if (e.isIntersecting && p.state === "empty") queue.add(p);
      if (!e.isIntersecting) queue.delete(p);
    }
    pump();
  }

  async function pump() {
    if (running || view.destroyed) return;
    running = true;
    try {
      while (queue.size) {
        // The page nearest the one in view first.
        const next = [...queue].sort((a, b) => Math.abs(a.n - view.current) - Math.abs(b.n - view.current))[0];
        queue.delete(next);
        await renderPage(next);
      }
    } finally {
      running = false;
    }
  }

  async function textOf(n) {
    if (!view.itemsOf.has(n)) {
      const page = await doc.getPage(n);
      view.itemsOf.set(n, await page.getTextContent({ includeMarkedContent: true }));
    }
    return view.itemsOf.get(n);
  }

  async function renderPage(p) {
    if (p.state !== "empty") return;
    p.state = "rendering";
    const scale = view.scale;
    try {
      const page = await doc.getPage(p.n);
      const viewport = page.getViewport({ scale });
      const ratio = window.devicePixelRatio || 1;
      const canvas = document.createElement("canvas");
      canvas.width = Math.floor(viewport.width * ratio);
      canvas.height = Math.floor(viewport.height * ratio);
      canvas.setAttribute("aria-hidden", "true");
      const task = page.render({
        canvas,
        canvasContext: canvas.getContext("2d", { alpha: false }),
        viewport,
        transform: ratio !== 1 ? [ratio, 0, 0, ratio, 0, 0] : null,
        annotationMode: 0, // AnnotationMode.DISABLE: no form widgets, no annotation appearance scripts
      });
      p.task = task;
      await task.promise;
      if (scale !== view.scale) return; // zoomed meanwhile: rendered again at the new scale
      p.div.prepend(canvas);
      if (p.canvas) p.canvas.remove();
      p.canvas = canvas;
      p.div.removeAttribute("data-loading");
      firstPageDone(p.n);
      if (!p.layer) await buildTextLayer(p, page, viewport);
      if (!p.links) buildLinks(p, page, viewport);
      p.state = "rendered";
      releaseFarCanvases();
    } catch (err) {
      if (err && err.name === "RenderingCancelledException") return;
      p.div.setAttribute("data-loading", `Page ${p.n} could not be shown: ${err && err.message}`);
      p.state = "failed";
      firstPageDone(p.n);
    } finally {
      p.task = null;
      if (p.state === "rendering") p.state = "empty";
    }
  }

  async function buildTextLayer(p, page, viewport) {
    const content = await textOf(p.n);
    const layer = document.createElement("div");
    layer.className = "textLayer";
    layer.setAttribute(PAGE_ATTR, String(p.n));
    const textLayer = new TextLayer({ textContentSource: content, container: layer, viewport });
    await textLayer.render();
    // An end of line is a space between its words, in the page's text as in a copy.
    for (const br of layer.querySelectorAll("br")) br.before(document.createTextNode(" "));
    const end = document.createElement("div");
    end.className = "endOfContent";
    layer.append(end);
    layer.addEventListener("mousedown", () => layer.classList.add("selecting"));
    p.div.append(layer);
    p.layer = layer;
    p.textLayer = textLayer;
    callbacks.onTextLayer(p.n, layer);
  }

  function buildLinks(p, page, viewport) {
    const links = document.createElement("div");
    links.className = "linkLayer";
    p.div.append(links);
    p.links = links;
    page.getAnnotations({ intent: "display" }).then((annotations) => {
      for (const a of annotations) {
        if (a.subtype !== "Link") continue;
        const [x1, y1] = viewport.convertToViewportPoint(a.rect[0], a.rect[1]);
        const [x2, y2] = viewport.convertToViewportPoint(a.rect[2], a.rect[3]);
        const box = document.createElement("a");
        box.style.left = `${Math.min(x1, x2)}px`;
        box.style.top = `${Math.min(y1, y2)}px`;
        box.style.width = `${Math.abs(x2 - x1)}px`;
        box.style.height = `${Math.abs(y2 - y1)}px`;
        if (typeof a.url === "string" && isHttpUrl(a.url)) {
          box.href = a.url;
          box.target = "_blank";
          box.rel = "noopener noreferrer";
          box.title = a.url;
        } else if (a.dest) {
          box.href = "#";
          box.title = "Go to this place in the PDF";
          box.addEventListener("click", (ev) => {
            ev.preventDefault();
            goToDestination(a.dest);
          });
        } else {
          continue; // javascript:, file:, Launch, named and other actions: nothing
        }
        links.append(box);
      }
    }, () => {});
  }

  async function goToDestination(dest) {
    try {
      const explicit = typeof dest === "string" ? await doc.getDestination(dest) : dest;
      if (!Array.isArray(explicit)) return;
      const index = typeof explicit[0] === "object" ? await doc.getPageIndex(explicit[0]) : explicit[0];
      if (Number.isInteger(index)) goTo(index + 1);
    } catch {
      // a broken destination: stay
    }
  }

  function releaseFarCanvases() {
    const rendered = view.pages.filter((p) => p.canvas);
    if (rendered.length <= KEEP_CANVASES) return;
    rendered.sort((a, b) => Math.abs(b.n - view.current) - Math.abs(a.n - view.current));
    for (const p of rendered.slice(0, rendered.length - KEEP_CANVASES)) {
      p.canvas.width = 0;
      p.canvas.height = 0;
      p.canvas.remove();
      p.canvas = null;
      p.state = "empty"; // drawn again when it comes near; its text layer stays
      p.div.setAttribute("data-loading", `Page ${p.n}`);
    }
  }

  let scrollTimer = null;

  function onScroll() {
    if (scrollTimer) return;
    scrollTimer = setTimeout(() => {
      scrollTimer = null;
      const middle = innerHeight / 3;
      let found = view.current;
      for (const p of view.pages) {
        const r = p.div.getBoundingClientRect();
        if (r.top <= middle && r.bottom > middle) {
          found = p.n;
          break;
        }
      }
      if (found !== view.current) {
        view.current = found;
        callbacks.onPageInView(found);
      }
    }, 80);
  }

  /** Scroll page `n` into view (its top, or the point `y` of its height from 0 to 1). */
  function goTo(n, y = 0) {
    const p = view.pages[Math.max(1, Math.min(view.count, n)) - 1];
    if (!p) return;
    const bar = document.getElementById("bar");
    const top = p.div.getBoundingClientRect().top + scrollY - (bar ? bar.offsetHeight : 0) - 8;
    scrollTo({ top: top + y * p.div.offsetHeight, behavior: "instant" });
    view.current = p.n;
    callbacks.onPageInView(p.n);
  }

  /** Zoom to `zoom` ("page-width" or a factor), keeping the page in view. */
  function setZoom(zoom) {
    const keep = view.current;
    const p = view.pages[keep - 1];
    const r = p.div.getBoundingClientRect();
    const within = r.height ? Math.max(0, Math.min(1, -r.top / r.height)) : 0;
    view.zoom = zoom;
    view.scale = cssScale();
    for (const q of view.pages) {
      if (q.task) q.task.cancel();
      sizePage(q);
      if (q.textLayer) q.textLayer.update({ viewport: { scale: view.scale, rotation: 0 } });
      if (q.state === "rendered" || q.state === "rendering") q.state = "empty";
      if (q.canvas) q.div.setAttribute("data-loading", "");
    }
    goTo(keep, within);
    // Re-observe: the observer reports again what is near now.
    for (const q of view.pages) {
      view.observer.unobserve(q.div);
      view.observer.observe(q.div);
    }
  }

  function zoomStep(direction) {
    const now = view.scale / PixelsPerInch.PDF_TO_CSS_UNITS;
    const next = direction > 0 ? ZOOMS.find((z) => z > now + 0.01) : [...ZOOMS].reverse().find((z) => z < now - 0.01);
    if (next) setZoom(String(next));
    return view.zoom;
  }

  /** Every page's text, read once (pdf.js reads them in its worker; the main thread joins them). */
  async function readTexts() {
    const texts = [];
    for (let n = 1; n <= view.count; n++) {
      texts.push(pageText((await textOf(n)).items));
    }
    view.texts = texts;
    callbacks.onTexts(texts);
    return texts;
  }

  function layerOf(n) {
    const p = view.pages[n - 1];
    return p && p.layer && p.layer.isConnected ? p.layer : null;
  }

  function destroy() {
    view.destroyed = true;
    if (view.observer) view.observer.disconnect();
    removeEventListener("scroll", onScroll);
  }

  return { view, layout, goTo, setZoom, zoomStep, readTexts, layerOf, textOf, destroy };
}

/** Stop a selection drag's text-layer mode once the mouse is up (pdf.js's viewer does the same). */
export function endSelecting() {
  for (const layer of document.querySelectorAll(".textLayer.selecting")) layer.classList.remove("selecting");
}
