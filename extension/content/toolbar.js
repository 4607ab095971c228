/**
 * The highlight toolbar: a selection inside a paper's abstract or title (or anywhere in the text
 * of an arXiv HTML paper: its body, with the section it falls under; in the PDF reader, a page's
 * text layer: a PDF highlight with its page) offers the palette's
 * colours, Highlight, which saves the highlight (and the paper, when it was not saved) and paints
 * it, and Comment…, which does the same and opens the notes panel on the new highlight's comment.
 * The comment is written in the panel's frame, never in the page. In an open shadow root at the
 * end of the body; it answers trusted events only (a page script's click() or dispatched event
 * is not the user).
 */

import { sectionOf } from "../lib/adapters/index.js";
import { describeRange, offsetsFromRange, textModel } from "../lib/anchoring.js";
import { LIMITS } from "../lib/limits.js";
import { MessageType } from "../lib/messages.js";
import { queuedId } from "../lib/outbox.js";
import { DEFAULT_COLOR, PALETTE } from "../lib/palette.js";
import { PDF_FIELD } from "../lib/pdf.js";
import { ACTION_ATTR, PAPER_ATTR, UI_ATTR, adoptStyles, el, keepKeysFromPage } from "./dom.js";
import { request } from "./messaging.js";
import { paintAll } from "./paint.js";
import { openPanel } from "./panel.js";
import { fieldModel, fieldsOf, infoOf, savePayloadFor, savedFrom, setKnown, state } from "./state.js";
import { TOOLBAR_CSS } from "./styles.js";
import { Measure, since } from "./timing.js";

// In this order: a selection in an arXiv HTML paper's abstract is an abstract highlight (painted
// on its other pages too), anywhere else in its text a body highlight with its section.
const HIGHLIGHTABLE_FIELDS = ["abstract", "title", "body", PDF_FIELD];
/** A PDF page's text layer (the reader's): a PDF highlight lies in one page's text. */
const PAGE_LAYER = "[data-page-number]";

/** The decorated paper whose own fields hold `node` outside its element: the PDF reader's paper,
 * whose bar is in the reader's header and whose pages are below it, and a publisher's page, whose
 * bar is under the title and whose abstract is elsewhere on the page. */
function paperHolding(node) {
  for (const [element, d] of state.decorated) {
    // The reader's PDF, and a publisher's page whose abstract lies outside the title's block.
    if (typeof d.entry.describe !== "function" && d.entry.kind !== "embedded") continue;
    if (Object.values(fieldsOf(element)).some((f) => f && f.contains(node))) return element;
  }
  return null;
}

/** A selection in the PDF reader: the page it starts on, its offsets in that page's text (the
 * part of it on later pages is left out: a highlight lies in one page). */
function pdfSelection(range) {
  const startNode = range.startContainer.nodeType === 1 ? range.startContainer : range.startContainer.parentElement;
  const layer = startNode && startNode.closest(PAGE_LAYER);
  if (!layer) return null;
  let inPage = range;
  if (!layer.contains(range.endContainer)) {
    inPage = range.cloneRange();
    inPage.setEnd(layer, layer.childNodes.length);
  }
  const model = fieldModel(layer, textModel);
  const at = offsetsFromRange(model, inPage);
  if (!at) return null;
  const selector = describeRange(model.text, at.start, at.end);
  selector.page = Number(layer.getAttribute("data-page-number"));
  return { selector, rect: inPage.getBoundingClientRect() };
}

/** The current selection, when it lies within one highlightable field of a paper. */
function selectionTarget() {
  const sel = document.getSelection();
  if (!sel || sel.isCollapsed || !sel.rangeCount) return null;
  const range = sel.getRangeAt(0);
  const node = range.commonAncestorContainer;
  const start = node.nodeType === 1 ? node : node.parentElement;
  if (!start || start.closest(`[${UI_ATTR}]`)) return null;
  const element = start.closest(`[${PAPER_ATTR}]`) || paperHolding(start);
  if (!element || !state.decorated.has(element)) return null;
  const fields = fieldsOf(element);
  for (const field of HIGHLIGHTABLE_FIELDS) {
    const f = fields[field];
    if (f && f.contains(range.startContainer) && f.contains(range.endContainer)) {
      if (field === PDF_FIELD) {
        const target = pdfSelection(range);
        return target && { element, field, ...target };
      }
      const model = fieldModel(f, textModel);
      const at = offsetsFromRange(model, range);
      if (!at) return null;
      const selector = describeRange(model.text, at.start, at.end);
      if (selector.exact.length > LIMITS.exact) return null; // longer than a highlight the server keeps
      if (field === "body") selector.section = sectionOf(range.startContainer, f);
      return { element, field, selector, rect: range.getBoundingClientRect() };
    }
  }
  return null;
}

function ensureToolbar() {
  if (state.toolbar && state.toolbar.host.isConnected) return state.toolbar;
  const host = el("div", { [UI_ATTR]: "highlight-toolbar" });
  const root = host.attachShadow({ mode: "open" });
  adoptStyles(root, TOOLBAR_CSS);
  const box = el("div", { class: "tb", role: "dialog", "aria-label": "Highlight" });
  const colors = el("div", { class: "colors", role: "radiogroup", "aria-label": "Colour" });
  for (const { name, background } of PALETTE) {
    const b = el("button", { type: "button", class: "swatch", role: "radio", "aria-checked": name === DEFAULT_COLOR ? "true" : "false", "data-color": name, title: name, "aria-label": name });
    b.style.background = background;
    b.addEventListener("click", (ev) => {
      if (!ev.isTrusted) return;
      for (const s of colors.children) s.setAttribute("aria-checked", s === b ? "true" : "false");
    });
    colors.append(b);
  }
  const go = el("button", { type: "button", [ACTION_ATTR]: "highlight" }, "Highlight");
  const withComment = el("button", { type: "button", class: "secondary", [ACTION_ATTR]: "highlight-comment", "aria-label": "Highlight and add a comment" }, "Comment…");
  box.append(colors, go, withComment);
  root.append(box);
  // Keep the page's selection while using the toolbar.
  box.addEventListener("mousedown", (ev) => ev.preventDefault());
  keepKeysFromPage(host);
  const color = () => colors.querySelector('[aria-checked="true"]').dataset.color;
  go.addEventListener("click", (ev) => {
    if (ev.isTrusted) createHighlight(color(), { thenComment: false });
  });
  withComment.addEventListener("click", (ev) => {
    if (ev.isTrusted) createHighlight(color(), { thenComment: true });
  });
  box.addEventListener("keydown", (ev) => {
    if (ev.isTrusted && ev.key === "Escape") hideToolbar();
  });
  document.body.appendChild(host);
  state.toolbar = { host, colors };
  return state.toolbar;
}

function showToolbar(target) {
  const tb = ensureToolbar();
  state.selection = target;
  const top = target.rect.top + scrollY - 44;
  const left = Math.max(8, Math.min(target.rect.left + scrollX, scrollX + innerWidth - 360));
  tb.host.style.cssText = `position:absolute;z-index:2147483646;top:${Math.max(scrollY + 4, top)}px;left:${left}px;`;
  tb.host.hidden = false;
}

function hideToolbar() {
  if (state.toolbar) state.toolbar.host.hidden = true;
  state.selection = null;
}

async function createHighlight(color, { thenComment }) {
  const target = state.selection;
  hideToolbar();
  if (!target) return;
  const { element, field, selector } = target;
  const d = state.decorated.get(element);
  if (!d) return;
  const info = infoOf(d.key);
  const highlight = { field, ...selector, color, comment: "" };
  let r;
  try {
    r = await request(MessageType.HIGHLIGHT, { key: d.key, paper_id: info.paper_id || null, paper: savePayloadFor(element), highlight });
  } catch (err) {
    setKnown(d.key, { error: err.message });
    return;
  }
  const saved = r.status === "queued" ? { ...highlight, id: queuedId(r.client_id) } : r.highlight;
  const patch = { highlights: [...(infoOf(d.key).highlights || []), saved], savedHere: true };
  state.ownHighlights.add(String(saved.id));
  if (r.paper) Object.assign(patch, savedFrom(r.paper));
  else if (r.status === "queued" && info.status !== "saved") patch.status = "queued";
  setKnown(d.key, patch);
  document.getSelection().removeAllRanges();
  paintAll([d.key]);
  if (thenComment && element.isConnected) openPanel(element, { focus: { highlight: String(saved.id) } });
}

/** mouseup, or a key that moves a selection: offer the toolbar for what is selected now. */
export function onSelectionEnd(ev) {
  if (!ev || !ev.isTrusted) return;
  if (ev.target && ev.target.closest && ev.target.closest(`[${UI_ATTR}]`)) return;
  const ended = ev.timeStamp;
  setTimeout(() => {
    const target = selectionTarget();
    if (target) {
      showToolbar(target);
      since(Measure.TOOLBAR, ended);
    } else hideToolbar();
  }, 0);
}
