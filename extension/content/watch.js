/**
 * Keeping up with the page: scan() finds its papers and gives each new or re-rendered one a paper
 * bar, forgetting removed ones; refresh() scans and asks the worker, in one lookup call, about the
 * papers not looked up yet, and paints again where the page re-rendered a known paper. Page
 * changes (a debounced MutationObserver, in-app navigation) schedule a refresh.
 */

import { findPaperElements } from "../lib/adapters/index.js";
import { paperKey } from "../lib/ids.js";
import { LIMITS } from "../lib/limits.js";
import { MessageType } from "../lib/messages.js";
import { HIGHLIGHT_ATTR, UI_ATTR } from "./dom.js";
import { request } from "./messaging.js";
import { paintAll, paintShared } from "./paint.js";
import { mountBar, renderPaper, unmountBar } from "./paperbar.js";
import { prewarmPanel } from "./panel.js";
import { savedFrom, savesOf, setKnown, state } from "./state.js";
import { Measure, timed } from "./timing.js";

const SCAN_DEBOUNCE_MS = 120;
let scanTimer = null;
let lastHref = location.href;

/** Find papers, decorate new or re-rendered ones, forget removed ones. Returns new keys. */
function scan() {
  const entries = timed(Measure.FIND, () => findPaperElements(document));
  const seen = new Set();
  const newKeys = [];
  for (const entry of entries) {
    const key = paperKey(entry);
    if (!key) continue;
    const element = entry.element;
    seen.add(element);
    const d = state.decorated.get(element);
    if (!d || d.key !== key || !d.bar.isConnected || d.bar.parentNode !== element) {
      mountBar(entry, key);
      if (!state.lookedUp.has(key)) newKeys.push(key);
    } else {
      d.entry = entry;
    }
  }
  for (const element of [...state.decorated.keys()]) {
    if (!seen.has(element)) unmountBar(element);
  }
  return [...new Set(newKeys)];
}

/** What the server completed from arXiv (full author list, category), once it has. */
function completedFromArxiv(p) {
  if (!p.enrichment || p.enrichment.state !== "done" || !Array.isArray(p.authors)) return null;
  const more = p.authors_more ? ` +${p.authors_more}` : "";
  const category = p.primary_category ? ` · ${p.primary_category}` : "";
  return `${p.authors.join(", ")}${more}${category}`;
}

/** Apply a lookup answer to the state: saved, queued, or (no longer) saved; not to a paper whose
 * save began since the lookup was asked (`savesBefore`, from savesOf): the save's answer shows it. */
function showLookup(keys, result, savesBefore) {
  const queued = new Set(result.queued || []);
  for (const key of keys) {
    if ((state.saves.get(key) || 0) !== savesBefore.get(key)) continue;
    const p = result.papers && result.papers[key];
    if (p) {
      setKnown(key, { ...savedFrom(p), note_count: p.note_count || 0, highlights: p.highlights || [], completed: completedFromArxiv(p), error: "" });
    } else if (queued.has(key)) {
      setKnown(key, { status: "queued" });
    } else if (state.known.has(key) && state.known.get(key).status !== "unsaved") {
      setKnown(key, { status: "unsaved", paper_id: null, note_count: 0, highlights: [] });
    } else {
      // Not saved, and shown as such already (the template's state): nothing to redraw.
      state.known.set(key, { ...(state.known.get(key) || {}), status: "unsaved", paper_id: null, note_count: 0, highlights: [] });
    }
  }
  // Group members who saved these papers ("Saved by bob · Lab"), with their read-only highlights.
  for (const key of keys) {
    const others = (result.shared && result.shared[key]) || [];
    const had = state.known.has(key) && state.known.get(key).shared;
    if (others.length || (had && had.length)) setKnown(key, { shared: others });
  }
}

/** One call marks every paper of `keys` that is already saved, and paints its highlights (the
 * PDF reader's one paper too). A listing of more papers than a lookup answers (a DBLP person page
 * of 1,500 records) is asked in as many calls as it takes. */
export async function lookup(keys) {
  if (keys.length > LIMITS.lookup) {
    const calls = [];
    for (let i = 0; i < keys.length; i += LIMITS.lookup) calls.push(lookup(keys.slice(i, i + LIMITS.lookup)));
    await Promise.all(calls);
    return;
  }
  if (!keys.length) return;
  keys.forEach((k) => state.lookedUp.add(k));
  const savesBefore = savesOf(keys);
  let result;
  try {
    result = await request(MessageType.LOOKUP, { keys });
  } catch (err) {
    keys.forEach((k) => state.lookedUp.delete(k));
    console.debug("papershelf: lookup failed", err.message);
    return;
  }
  // A private page's lookup only lights the badge: the answer tells it nothing to show.
  if (state.private) return;
  timed(Measure.SAVED_SHOWN, () => showLookup(keys, result, savesBefore));
  timed(Measure.PAINT, () => {
    paintAll(keys);
    paintShared(keys);
  });
  prewarmPanel();
}

/** Scan, look up what is new (everything, when `force` or after in-app navigation), repaint. */
export function refresh(force) {
  if (location.href !== lastHref) {
    lastHref = location.href; // in-app navigation: look everything up again
    force = true;
  }
  const fresh = timed(Measure.MARK, scan);
  const freshSet = new Set(fresh);
  let keys = force ? [...state.byKey.keys()] : fresh;
  if (state.private) keys = keys.slice(0, 1); // its one paper, never a list of them
  const again = [...state.byKey.keys()].filter((k) => !freshSet.has(k) && state.known.has(k));
  if (keys.length) lookup(keys);
  // Re-rendered elements whose paper is already known: paint again without asking the server.
  if (!force && again.length) {
    paintAll(again);
    paintShared(again);
  }
  for (const k of fresh.filter((k) => state.known.has(k))) renderPaper(k);
}

/** The worker sent what waited: look every paper up again. */
export function refreshAll() {
  state.lookedUp.clear();
  refresh(true);
}

export function scheduleScan() {
  clearTimeout(scanTimer);
  scanTimer = setTimeout(() => {
    scanTimer = null;
    refresh(false);
  }, SCAN_DEBOUNCE_MS);
}

function isOurs(node) {
  if (!node || node.nodeType !== 1) return false;
  return node.hasAttribute(UI_ATTR) || (node.tagName === "MARK" && node.hasAttribute(HIGHLIGHT_ATTR));
}

/** MutationObserver callback: a change of the page's own content schedules a scan; ours do not. */
export function onMutations(records) {
  for (const r of records) {
    if (r.type === "attributes") continue;
    const target = r.target.nodeType === 1 ? r.target : r.target.parentElement;
    if (target && target.closest(`[${UI_ATTR}]`)) continue;
    const nodes = [...r.addedNodes, ...r.removedNodes];
    if (nodes.length && nodes.every((n) => isOurs(n) || n.nodeType === 3) && [...r.addedNodes].some(isOurs)) continue;
    if (nodes.length && nodes.every((n) => n.nodeType === 3) && target && target.closest(`mark[${HIGHLIGHT_ATTR}]`)) continue;
    scheduleScan();
    return;
  }
}
