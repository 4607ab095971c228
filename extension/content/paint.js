/**
 * Painting saved highlights: each highlight of a paper is anchored in its field (lib/anchoring.js:
 * quote, then position, then fuzzy match) in every element that shows the paper, and painted
 * there once; what cannot be anchored anywhere is kept as an orphan (the notes panel lists it).
 * A mark carries the highlight's id and colour only: its comment is the panel's, never the page's.
 *
 * A field's text is read once for all its highlights (an arXiv HTML paper's body is 100,000
 * characters with 200 highlights): all are anchored in that one model, then painted from the
 * last to the first, since painting splits text nodes only after the places still to paint.
 * A link to `#papershelf-highlight=<id>` (the library page's) scrolls to that highlight. In the
 * PDF reader a PDF highlight is painted in the text layer of its page (state.pdf.placeOf: the
 * page it lies on now, once that page is rendered).
 */

import { anchor, paint, textModel, unpaint } from "../lib/anchoring.js";
import { DEFAULT_COLOR } from "../lib/palette.js";
import { PDF_FIELD } from "../lib/pdf.js";
import { HIGHLIGHT_ATTR } from "./dom.js";
import { elementsFor, fieldsOf, setKnown, state } from "./state.js";

// `#papershelf-highlight=<id>`, also after the PDF reader's `#page=N&`.
export const FRAGMENT = /^#(?:[^&]*&)*papershelf-highlight=([\w-]+)(?:&|$)/;

let scrolledTo = null;

const PENDING = "pending";

/** The text layer a PDF highlight is painted in, PENDING, or null (the reader's state.pdf). */
function pdfTarget(h) {
  return state.pdf ? state.pdf.placeOf(h) : null;
}

/** Anchor `highlights` (none painted yet) in `fieldEl` and paint them; answers the ids placed. */
function paintField(fieldEl, highlights) {
  const placed = [];
  if (!highlights.length) return placed;
  let model = textModel(fieldEl);
  const found = [];
  for (const h of highlights) {
    const at = anchor(model.text, h);
    if (at) found.push({ h, at });
  }
  found.sort((a, b) => b.at.start - a.at.start || b.at.end - a.at.end);
  let paintedFrom = Infinity; // the start of the earliest mark painted so far
  for (const { h, at } of found) {
    // Overlapping an earlier-painted mark: its text nodes were split, read them again.
    if (at.end > paintedFrom) model = textModel(fieldEl);
    paint(fieldEl, at.start, at.end, { id: h.id, color: h.color || DEFAULT_COLOR, model });
    paintedFrom = Math.min(paintedFrom, at.start);
    placed.push(h.id);
  }
  return placed;
}

/** Paint the known highlights of `keys` in every element that shows them; note orphans. */
/** The highlights of a paper the page may show: on a private page, only those made on it. */
function visibleHighlights(info) {
  if (!info || !info.highlights) return null;
  return state.private ? info.highlights.filter((h) => state.ownHighlights.has(String(h.id))) : info.highlights;
}

export function paintAll(keys) {
  for (const key of keys) {
    const info = state.known.get(key);
    const highlights = visibleHighlights(info);
    if (!highlights || (!highlights.length && !state.paintedKeys.has(key))) continue;
    state.paintedKeys.add(key);
    const orphans = new Map();
    const placedSomewhere = new Set();
    const ids = new Set(highlights.map((h) => String(h.id)));
    for (const element of elementsFor(key)) {
      const fields = fieldsOf(element);
      // Marks of highlights the server no longer lists (deleted, or a queued one now stored
      // under its real id) go first, so that nothing is painted twice.
      const painted = new Map(); // field element → ids painted in it
      for (const fieldEl of new Set(Object.values(fields))) {
        if (!fieldEl) continue;
        const here = new Set();
        for (const mark of fieldEl.querySelectorAll(`mark[${HIGHLIGHT_ATTR}]`)) {
          const id = mark.getAttribute(HIGHLIGHT_ATTR);
          if (id.startsWith(SHARED_PREFIX)) continue; // a group member's: paintShared's
          if (!ids.has(id)) unpaint(fieldEl, id);
          else here.add(id);
        }
        painted.set(fieldEl, here);
      }
      const todo = new Map(); // field element → highlights to paint in it
      for (const h of highlights) {
        const fieldEl = fields[h.field];
        if (!fieldEl) continue;
        if (painted.get(fieldEl).has(String(h.id))) {
          placedSomewhere.add(h.id);
          continue;
        }
        // A PDF highlight is painted in the text layer of the page it lies on (the reader knows).
        const target = h.field === PDF_FIELD ? pdfTarget(h) : fieldEl;
        if (target === PENDING) {
          placedSomewhere.add(h.id); // its page is not rendered yet: not an orphan
          continue;
        }
        if (!target) {
          orphans.set(h.id, h);
          continue;
        }
        if (!todo.has(target)) todo.set(target, []);
        todo.get(target).push(h);
      }
      for (const [fieldEl, highlights] of todo) {
        const placed = new Set(paintField(fieldEl, highlights));
        for (const h of highlights) {
          if (placed.has(h.id)) placedSomewhere.add(h.id);
          else orphans.set(h.id, h);
        }
      }
    }
    for (const id of placedSomewhere) orphans.delete(id);
    const prev = info.orphans;
    if (orphans.size || (prev && prev.size)) setKnown(key, { orphans });
  }
  scrollToLinkedHighlight();
}

/** Once per link: the highlight the URL's fragment names, brought into view and pointed out. */
export function scrollToLinkedHighlight() {
  const m = FRAGMENT.exec(location.hash);
  if (!m || scrolledTo === location.href) return;
  const mark = document.querySelector(`mark[${HIGHLIGHT_ATTR}="${CSS.escape(m[1])}"]`);
  if (!mark) return;
  scrolledTo = location.href;
  mark.scrollIntoView({ block: "center" });
  for (const part of document.querySelectorAll(`mark[${HIGHLIGHT_ATTR}="${CSS.escape(m[1])}"]`)) {
    part.setAttribute("data-papershelf-linked", "");
  }
}

// ---- group members' highlights: painted read-only ------------------------------------------

/** A shared highlight's mark id: never one of the user's own ids, so no control acts on it. */
const SHARED_PREFIX = "shared-";
/** On a read-only mark: who made it (content/page.css gives it its own style). */
export const SHARED_BY_ATTR = "data-papershelf-shared-by";

/** Paint the highlights group members left on the papers of `keys` (the lookup's `shared`), in
 * a distinct style, marked with their author; they are read-only (no panel, no toolbar). */
export function paintShared(keys) {
  if (state.private) return;
  for (const key of keys) {
    const info = state.known.get(key);
    const entries = (info && info.shared) || [];
    for (const element of elementsFor(key)) {
      const fields = fieldsOf(element);
      const wanted = new Set();
      for (const entry of entries) {
        for (const h of entry.highlights || []) {
          const id = SHARED_PREFIX + h.id;
          wanted.add(id);
          if (!fields[h.field]) continue;
          const fieldEl = h.field === PDF_FIELD ? pdfTarget(h) : fields[h.field];
          if (!fieldEl || fieldEl === PENDING || fields[h.field].querySelector(`mark[${HIGHLIGHT_ATTR}="${CSS.escape(id)}"]`)) continue;
          const model = textModel(fieldEl);
          const at = anchor(model.text, h);
          if (!at) continue; // another's orphan is theirs to place
          for (const mark of paint(fieldEl, at.start, at.end, { id, color: h.color || DEFAULT_COLOR, model })) {
            mark.setAttribute(SHARED_BY_ATTR, entry.user);
            mark.title = `Highlighted by ${entry.user}`;
          }
        }
      }
      for (const fieldEl of new Set(Object.values(fields))) {
        if (!fieldEl) continue;
        for (const mark of fieldEl.querySelectorAll(`mark[${SHARED_BY_ATTR}]`)) {
          const id = mark.getAttribute(HIGHLIGHT_ATTR);
          if (!wanted.has(id)) unpaint(fieldEl, id);
        }
      }
    }
  }
}
