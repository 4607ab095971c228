/**
 * The User Timing measures that bench/page.py reads, all named and taken here. They go on the
 * page's performance timeline (shared with the content script); each name keeps its last 100
 * entries, as a long-lived single-page app re-scans often. A measure is taken only when the
 * measured work completed.
 */

export const Measure = Object.freeze({
  FIND: "papershelf:find", // find the paper elements on the page
  MARK: "papershelf:mark", // find them and give each a paper bar (bar: 600 cards ≤ 100 ms)
  SAVED_SHOWN: "papershelf:saved-shown", // apply the one lookup answer: mark the saved "Saved"
  PAINT: "papershelf:paint", // anchor and paint the saved highlights
  SAVE_DESCRIBE: "papershelf:save-describe", // read a paper off the page and show "Saving…"
  SAVE_ROUNDTRIP: "papershelf:save-roundtrip", // a save to the worker and the server, and back
  TOOLBAR: "papershelf:toolbar", // the end of a selection (its mouseup) to the Highlight toolbar shown
});

const KEPT_PER_NAME = 100;

function record(name, start) {
  try {
    if (performance.getEntriesByName(name, "measure").length >= KEPT_PER_NAME) performance.clearMeasures(name);
    performance.measure(name, { start });
  } catch {
    // a page that broke the performance timeline: no figures, nothing else changes
  }
}

/** A measure under `name` from `start` (an event's timeStamp, say) to now. */
export function since(name, start) {
  record(name, start);
}

/** fn(), measured under `name`. */
export function timed(name, fn) {
  const start = performance.now();
  const result = fn();
  record(name, start);
  return result;
}

/** await fn(), measured under `name` until its promise resolves. */
export async function timedAsync(name, fn) {
  const start = performance.now();
  const result = await fn();
  record(name, start);
  return result;
}
