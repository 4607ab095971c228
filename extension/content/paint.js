/**
 * Painting saved highlights: each highlight of a paper is anchored in its field (lib/anchoring.js:
 * quote, then position, then fuzzy match) in every element that shows the paper, and painted
 * there once; what cannot be anchored anywhere is kept as an orphan (the notes panel lists it).
 * A mark carries the highlight's id and colour only: its comment is the panel's, never the page's.
 */

import { anchor, paint, textModel, unpaint } from "../lib/anchoring.js";
import { DEFAULT_COLOR } from "../lib/palette.js";
import { HIGHLIGHT_ATTR } from "./dom.js";
import { elementsFor, fieldsOf, setKnown, state } from "./state.js";

/** Paint the known highlights of `keys` in every element that shows them; note orphans. */
export function paintAll(keys) {
  for (const key of keys) {
    const info = state.known.get(key);
    if (!info || !info.highlights || (!info.highlights.length && !state.paintedKeys.has(key))) continue;
    state.paintedKeys.add(key);
    const orphans = new Map();
    const placedSomewhere = new Set();
    const ids = new Set(info.highlights.map((h) => String(h.id)));
    for (const element of elementsFor(key)) {
      const fields = fieldsOf(element);
      // Marks of highlights the server no longer lists (deleted, or a queued one now stored
      // under its real id) go first, so that nothing is painted twice.
      for (const fieldEl of Object.values(fields)) {
        if (!fieldEl) continue;
        for (const mark of fieldEl.querySelectorAll(`mark[${HIGHLIGHT_ATTR}]`)) {
          const id = mark.getAttribute(HIGHLIGHT_ATTR);
          if (!ids.has(id) && !id.startsWith(SHARED_PREFIX)) unpaint(fieldEl, id);
        }
      }
      for (const h of info.highlights) {
        const fieldEl = fields[h.field];
        if (!fieldEl) continue;
        if (fieldEl.querySelector(`mark[${HIGHLIGHT_ATTR}="${CSS.escape(String(h.id))}"]`)) {
          placedSomewhere.add(h.id);
          continue;
        }
        const model = textModel(fieldEl);
        const at = anchor(model.text, h);
        if (at) {
          paint(fieldEl, at.start, at.end, { id: h.id, color: h.color || DEFAULT_COLOR, model });
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

// ---- group members' highlights: painted read-only ------------------------------------------

/** A shared highlight's mark id: never one of the user's own ids, so no control acts on it. */
const SHARED_PREFIX = "shared-";
/** On a read-only mark: who made it (content/page.css gives it its own style). */
export const SHARED_BY_ATTR = "data-papershelf-shared-by";

/** Paint the highlights group members left on the papers of `keys` (the lookup's `shared`), in
 * a distinct style, marked with their author; they are read-only (no panel, no toolbar). */
export function paintShared(keys) {
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
          const fieldEl = fields[h.field];
          if (!fieldEl || fieldEl.querySelector(`mark[${HIGHLIGHT_ATTR}="${CSS.escape(id)}"]`)) continue;
          const model = textModel(fieldEl);
          const at = anchor(model.text, h);
          if (!at) continue; // another's orphan is theirs to place
          for (const mark of paint(fieldEl, at.start, at.end, { id, color: h.color || DEFAULT_COLOR, model })) {
            mark.setAttribute(SHARED_BY_ATTR, entry.user);
            mark.title = `Highlighted by ${entry.user}`;
          }
        }
      }
      for (const fieldEl of Object.values(fields)) {
        if (!fieldEl) continue;
        for (const mark of fieldEl.querySelectorAll(`mark[${SHARED_BY_ATTR}]`)) {
          const id = mark.getAttribute(HIGHLIGHT_ATTR);
          if (!wanted.has(id)) unpaint(fieldEl, id);
        }
      }
    }
  }
}
