/**
 * The page's state, in one object: what is known of each paper (by lib/ids.js paperKey), which
 * elements show it, what was looked up and painted, the highlight toolbar with the selection it
 * offers, and the notes panel's frame. Small functions read and change it. Nothing here is a
 * note's or a comment's text: the worker tells the page only counts and where highlights go. A change to a paper's info is announced to the
 * onPaperChange listeners (main.js wires the paper bar to it): state knows nothing of rendering.
 */

import { describePaper, paperFields, toSavePayload } from "../lib/adapters/index.js";

export const state = {
  /** key → {status: "saved"|"queued"|"saving"|"unsaved", paper_id, citation_key, note_count,
   *  highlights (without comments), orphans?: Map, completed?, error?} */
  known: new Map(),
  /** paper element → {entry, key, bar, fields}: the elements we decorated. */
  decorated: new Map(),
  /** key → Set of elements showing that paper (a List-view row and the detail panel, say). */
  byKey: new Map(),
  /** Keys asked of the server already, or being asked. */
  lookedUp: new Set(),
  /** key → how many saves of that paper began on this page. A lookup asked before a save and
   * answered after it began tells what was true before the save: it is not applied to that
   * paper (the save's own answer is). */
  saves: new Map(),
  /** Keys that have (or had) painted highlights on this page. */
  paintedKeys: new Set(),
  /** The highlight toolbar once built: {host, comment, colors}. */
  toolbar: null,
  /** The selection the toolbar offers to highlight: {element, field, selector, rect}. */
  selection: null,
  /** The notes panel once made: {host, frame, element, key, orphans} (content/panel.js). */
  panel: null,
  /** Counts the page's DOM changes (the MutationObserver's calls, ours included): a field's
   * text model read at one count is good until the next. */
  domVersion: 0,
  /** field element → {version, model}: the last text model read of a field (a 100,000-character
   * body is not read again for every selection). */
  fieldModels: new WeakMap(),
  /** In the PDF reader: {placeOf(highlight) → its page's text layer, "pending" or null (an
   * orphan)}, which paint.js asks for PDF highlights (reader/main.js sets it). */
  pdf: null,
  /** A page outside alphaXiv, arXiv and the named listing sites: its DOM shows nothing of what
   * the library holds (no saved state, counts or painted highlights), only what the person did
   * here (a Save clicked on this page). */
  private: false,
  /** The ids of the highlights made on this page: all a private page paints. */
  ownHighlights: new Set(),
};

export function track(key, element) {
  let set = state.byKey.get(key);
  if (!set) state.byKey.set(key, (set = new Set()));
  set.add(element);
}

export function untrack(key, element) {
  const set = state.byKey.get(key);
  if (set) {
    set.delete(element);
    if (!set.size) state.byKey.delete(key);
  }
}

export function elementsFor(key) {
  return state.byKey.has(key) ? [...state.byKey.get(key)] : [];
}

/** What is known of a paper; a paper not heard of is unsaved. */
export function infoOf(key) {
  return state.known.get(key) || { status: "unsaved" };
}

const paperListeners = [];

/** Call `listener(key)` after each change to a paper's info. */
export function onPaperChange(listener) {
  paperListeners.push(listener);
}

export function setKnown(key, patch) {
  const info = { ...infoOf(key), ...patch };
  state.known.set(key, info);
  for (const listener of paperListeners) listener(key);
  return info;
}

/** A save of `key` begins on this page. */
export function saveBegun(key) {
  state.saves.set(key, (state.saves.get(key) || 0) + 1);
}

/** How many saves of each of `keys` began so far: what a lookup compares once answered. */
export function savesOf(keys) {
  return new Map(keys.map((key) => [key, state.saves.get(key) || 0]));
}

/** The patch that a paper the server returned is saved. */
export function savedFrom(paper) {
  return { status: "saved", paper_id: paper.id, citation_key: paper.citation_key };
}

/** The text model of a field element, read again only after the DOM changed. */
export function fieldModel(fieldEl, read) {
  const cached = state.fieldModels.get(fieldEl);
  if (cached && cached.version === state.domVersion) return cached.model;
  const model = read(fieldEl);
  state.fieldModels.set(fieldEl, { version: state.domVersion, model });
  return model;
}

/** The body for saving the paper of a decorated element, read from the page now. */
export function savePayloadFor(element) {
  const d = state.decorated.get(element);
  const paper = describeEntry(d.entry);
  d.fields = paper.fields;
  return toSavePayload(paper, d.entry.source_url || location.href);
}

/** An entry's paper: the adapters' description, or the entry's own (`describe()`: the reader's
 * PDF, whose paper no adapter reads from a page). */
function describeEntry(entry) {
  return typeof entry.describe === "function" ? entry.describe() : describePaper(entry, document);
}

/** The field elements ({title, abstract}) of a decorated element, read again when re-rendered. */
export function fieldsOf(element) {
  const d = state.decorated.get(element);
  if (!d) return {};
  if (!d.fields || Object.values(d.fields).some((f) => f && !f.isConnected)) {
    d.fields = typeof d.entry.describe === "function" ? d.entry.describe().fields : paperFields(d.entry, document);
  }
  return d.fields;
}
