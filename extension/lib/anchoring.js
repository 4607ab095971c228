/**
 * Anchoring highlights in a paper's field (abstract or title).
 *
 * A field's text is normalized (NFC, whitespace runs folded to one space, trimmed) and a highlight
 * is described by its quote (`exact`), up to 64 chars of context on each side and its UTF-16
 * offsets in that normalized text. Re-anchoring tries, in order: the stored position (when the
 * text there and its context still match), the quote with the best matching context, a fuzzy match
 * of the quote; what cannot be placed is an orphan (null), never a guess.
 *
 * The string functions are pure. The DOM helpers (textModel, paint) only use standard DOM calls,
 * no chrome.*, so they run under linkedom in node tests too.
 */

export const CONTEXT_CHARS = 64;

/** NFC, whitespace runs folded to one space, trimmed. */
export function normalizeText(s) {
  return String(s ?? "").normalize("NFC").replace(/\s+/g, " ").trim();
}

function isHighSurrogate(code) {
  return code >= 0xd800 && code <= 0xdbff;
}
function isLowSurrogate(code) {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Move `i` off the middle of a surrogate pair (to the pair's start). */
function snap(text, i) {
  if (i > 0 && i < text.length && isLowSurrogate(text.charCodeAt(i)) && isHighSurrogate(text.charCodeAt(i - 1))) {
    return i - 1;
  }
  return i;
}

/** Describe [start, end) of normalized `text` as a selector the server stores. */
export function describeRange(text, start, end) {
  start = snap(text, Math.max(0, Math.min(start, text.length)));
  end = snap(text, Math.max(start, Math.min(end, text.length)));
  if (end < text.length && isLowSurrogate(text.charCodeAt(end))) end += 1;
  // Context never splits a surrogate pair and never exceeds 64 units.
  let prefixStart = Math.max(0, start - CONTEXT_CHARS);
  if (prefixStart > 0 && isLowSurrogate(text.charCodeAt(prefixStart))) prefixStart += 1;
  let suffixEnd = Math.min(text.length, end + CONTEXT_CHARS);
  if (suffixEnd < text.length && isLowSurrogate(text.charCodeAt(suffixEnd))) suffixEnd -= 1;
  return {
    exact: text.slice(start, end),
    prefix: text.slice(prefixStart, start),
    suffix: text.slice(end, suffixEnd),
    start,
    end,
  };
}

function commonSuffixLength(a, b) {
  let n = 0;
  while (n < a.length && n < b.length && a[a.length - 1 - n] === b[b.length - 1 - n]) n++;
  return n;
}
function commonPrefixLength(a, b) {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

function contextScore(text, start, end, sel) {
  const before = text.slice(Math.max(0, start - CONTEXT_CHARS), start);
  const after = text.slice(end, end + CONTEXT_CHARS);
  return commonSuffixLength(before, sel.prefix || "") + commonPrefixLength(after, sel.suffix || "");
}

function contextIsIntact(text, start, end, sel) {
  const prefix = sel.prefix || "";
  const suffix = sel.suffix || "";
  return text.slice(start - prefix.length, start) === prefix && text.slice(end, end + suffix.length) === suffix;
}

/** Levenshtein distance with an early exit once it exceeds `max`. */
function editDistance(a, b, max = Infinity) {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = new Array(b.length + 1);
  let cur = new Array(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = cur[0];
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const cost = ca === b.charCodeAt(j - 1) ? 0 : 1;
      cur[j] = Math.min(prev[j - 1] + cost, prev[j] + 1, cur[j - 1] + 1);
      if (cur[j] < rowMin) rowMin = cur[j];
    }
    if (rowMin > max) return max + 1;
    [prev, cur] = [cur, prev];
  }
  return prev[b.length];
}

/**
 * Approximate substring search (Sellers): the places where `pattern` occurs in `text` with the
 * fewest edits (≤ maxErrors). Returns {start, end, errors} closest to `hint`, or null.
 */
function approximateFind(text, pattern, maxErrors, hint) {
  const m = pattern.length;
  let prev = new Array(m + 1);
  let cur = new Array(m + 1);
  for (let i = 0; i <= m; i++) prev[i] = i;
  let best = maxErrors + 1;
  let ends = [];
  for (let j = 1; j <= text.length; j++) {
    cur[0] = 0;
    const tc = text.charCodeAt(j - 1);
    for (let i = 1; i <= m; i++) {
      const cost = pattern.charCodeAt(i - 1) === tc ? 0 : 1;
      cur[i] = Math.min(prev[i - 1] + cost, prev[i] + 1, cur[i - 1] + 1);
    }
    if (cur[m] < best) {
      best = cur[m];
      ends = [j];
    } else if (cur[m] === best) {
      ends.push(j);
    }
    [prev, cur] = [cur, prev];
  }
  if (best > maxErrors) return null;
  let found = null;
  for (const end of ends) {
    // The start: the window ending at `end` that is closest to the pattern.
    let bestStart = -1;
    let bestDist = Infinity;
    const lo = Math.max(0, end - m - maxErrors);
    const hi = Math.max(0, end - m + maxErrors);
    for (let s = lo; s <= hi && s < end; s++) {
      const d = editDistance(text.slice(s, end), pattern, bestDist);
      if (d < bestDist) {
        bestDist = d;
        bestStart = s;
      }
    }
    if (bestStart < 0) continue;
    const cand = { start: bestStart, end, errors: bestDist };
    if (!found || cand.errors < found.errors ||
        (cand.errors === found.errors && Math.abs(cand.start - hint) < Math.abs(found.start - hint))) {
      found = cand;
    }
  }
  return found;
}

/** Trim whitespace at the ends of a fuzzy match so a painted highlight starts on a word. */
function trimMatch(text, m) {
  let { start, end } = m;
  while (start < end && text[start] === " ") start++;
  while (end > start && text[end - 1] === " ") end--;
  return { ...m, start, end };
}

const FUZZY_MAX_PATTERN = 256;

/**
 * Find where a stored highlight lies in (normalized) `text` now.
 * Returns {start, end, method: "position"|"quote"|"fuzzy"} or null (orphan).
 */
export function anchor(text, sel) {
  const exact = sel.exact || "";
  if (!exact) return null;
  const start = Number.isInteger(sel.start) ? sel.start : -1;
  const end = Number.isInteger(sel.end) ? sel.end : -1;
  // 1. Unchanged text: the quote is where it was, with its context around it.
  if (start >= 0 && text.slice(start, end) === exact && contextIsIntact(text, start, end, sel)) {
    return { start, end, method: "position" };
  }
  // 2. Moved text: every occurrence of the quote, ranked by matching context, then nearness.
  let bestQuote = null;
  for (let i = text.indexOf(exact); i !== -1; i = text.indexOf(exact, i + 1)) {
    const score = contextScore(text, i, i + exact.length, sel);
    const dist = start >= 0 ? Math.abs(i - start) : i;
    if (!bestQuote || score > bestQuote.score || (score === bestQuote.score && dist < bestQuote.dist)) {
      bestQuote = { start: i, end: i + exact.length, score, dist };
    }
  }
  if (bestQuote) return { start: bestQuote.start, end: bestQuote.end, method: "quote" };
  // 3. Slightly edited text: the closest approximate occurrence within a quarter of the quote.
  if (exact.length < 4) return null;
  const hint = Math.max(0, start);
  if (exact.length <= FUZZY_MAX_PATTERN) {
    const maxErrors = Math.max(1, Math.floor(exact.length / 4));
    const m = approximateFind(text, exact, maxErrors, hint);
    return m ? { ...trimMatch(text, m), method: "fuzzy" } : null;
  }
  // Long quotes: anchor their head and tail, and take the span between them if it is plausible.
  const head = exact.slice(0, 64);
  const tail = exact.slice(-64);
  const h = approximateFind(text, head, 16, hint);
  if (!h) return null;
  const t = approximateFind(text.slice(h.start), tail, 16, exact.length - 64);
  if (!t) return null;
  const spanEnd = h.start + t.end;
  const len = spanEnd - h.start;
  if (len < exact.length * 0.75 || len > exact.length * 1.25) return null;
  if (editDistance(text.slice(h.start, spanEnd), exact, Math.floor(exact.length / 4)) > exact.length / 4) return null;
  return { ...trimMatch(text, { start: h.start, end: spanEnd }), method: "fuzzy" };
}

// ---------------------------------------------------------------------------------------------
// DOM side: the normalized text of an element, mapped back to its text nodes.

/** Subtrees whose text is not part of a field as the reader sees it. `.descriptor` is arXiv's
 * visually hidden "Title:"/"Abstract:" label; KaTeX repeats each formula as TeX annotation and as
 * an aria-hidden rendering, of which the MathML text alone is kept. */
export const SKIP_SELECTOR =
  'script, style, noscript, template, annotation, [aria-hidden="true"], [data-papershelf-ui], .descriptor';

const TEXT_NODE = 3;
const ELEMENT_NODE = 1;

function collectTextNodes(root, out) {
  for (let n = root.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === TEXT_NODE) out.push(n);
    else if (n.nodeType === ELEMENT_NODE && !n.matches(SKIP_SELECTOR)) collectTextNodes(n, out);
  }
  return out;
}

/** What /\s/ matches, without a regex per character. */
function isSpace(code) {
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  if (code < 160) return false;
  return (
    code === 160 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 ||
    code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff
  );
}

/**
 * The normalized text of `root` and, for each UTF-16 unit of it, the text node and offset it
 * came from: {text, nodes, nodeOf: Int32Array, offsetOf: Int32Array}.
 */
export function textModel(root) {
  const nodes = collectTextNodes(root, []);
  const chars = [];
  const nodeOf = [];
  const offsetOf = [];
  let pendingSpace = null; // [nodeIndex, offset] of the first whitespace of a run
  for (let k = 0; k < nodes.length; k++) {
    const raw = nodes[k].data;
    const data = raw.normalize("NFC");
    const exactMap = data.length === raw.length;
    for (let i = 0; i < data.length; i++) {
      const c = data[i];
      const off = exactMap ? i : Math.min(i, raw.length - 1);
      if (isSpace(data.charCodeAt(i))) {
        if (chars.length && !pendingSpace) pendingSpace = [k, off];
        continue;
      }
      if (pendingSpace) {
        chars.push(" ");
        nodeOf.push(pendingSpace[0]);
        offsetOf.push(pendingSpace[1]);
        pendingSpace = null;
      }
      chars.push(c);
      nodeOf.push(k);
      offsetOf.push(off);
    }
  }
  return { text: chars.join(""), nodes, nodeOf: Int32Array.from(nodeOf), offsetOf: Int32Array.from(offsetOf) };
}

/** The normalized, reader-visible text of an element. */
export function fieldText(root) {
  return textModel(root).text;
}

/**
 * Normalized offsets [start, end) of a DOM Range inside `root`, or null when the range does not
 * cover any of root's field text. Uses Range.comparePoint (browsers).
 */
export function offsetsFromRange(model, range) {
  let start = -1;
  let end = -1;
  const { nodes, nodeOf, offsetOf } = model;
  for (let i = 0; i < nodeOf.length; i++) {
    const node = nodes[nodeOf[i]];
    // A unit is selected when its start point lies in [range.start, range.end).
    const before = range.comparePoint(node, offsetOf[i]);
    if (before < 0) continue;
    if (before > 0) break;
    const isEnd = node === range.endContainer && offsetOf[i] >= range.endOffset;
    if (isEnd) break;
    if (start < 0) start = i;
    end = i + 1;
  }
  if (start < 0) return null;
  // Selections often end on a trailing space: leave it out.
  while (end > start && model.text[end - 1] === " ") end--;
  while (start < end && model.text[start] === " ") start++;
  return start < end ? { start, end } : null;
}

/** The text node pieces covering [start, end) of the model: [{node, from, to}]. */
export function segmentsFor(model, start, end) {
  const segs = [];
  for (let i = start; i < end; i++) {
    const node = model.nodes[model.nodeOf[i]];
    const off = model.offsetOf[i];
    const last = segs[segs.length - 1];
    if (last && last.node === node) last.to = off + 1;
    else segs.push({ node, from: off, to: off + 1 });
  }
  // A folded whitespace run maps to its first character; the rest of the run is included when
  // it lies between two painted units of the same node.
  return segs;
}

/** Text.splitText, written out (some DOM implementations lack it). Returns the second half. */
function splitTextNode(node, offset) {
  const rest = node.ownerDocument.createTextNode(node.data.slice(offset));
  node.data = node.data.slice(0, offset);
  node.parentNode.insertBefore(rest, node.nextSibling);
  return rest;
}

/**
 * Wrap [start, end) of `root`'s field text in <mark data-papershelf-highlight=id>. Returns the
 * marks. `model` (from textModel(root), unchanged since) saves walking the text again. Text is moved, never re-parsed: no HTML is created from page or user text.
 */
export function paint(root, start, end, { id, color = "yellow", title = "", model = textModel(root) } = {}) {
  const doc = root.ownerDocument;
  const marks = [];
  for (const seg of segmentsFor(model, start, end)) {
    let node = seg.node;
    if (seg.to < node.data.length) splitTextNode(node, seg.to);
    if (seg.from > 0) node = splitTextNode(node, seg.from);
    const mark = doc.createElement("mark");
    mark.setAttribute("data-papershelf-highlight", String(id));
    mark.setAttribute("data-papershelf-color", color);
    if (title) mark.title = title;
    node.parentNode.insertBefore(mark, node);
    mark.appendChild(node);
    marks.push(mark);
  }
  return marks;
}

/** Remove painted marks for `id` (or all) under root, restoring the text nodes. */
export function unpaint(root, id) {
  const sel = id == null ? "mark[data-papershelf-highlight]" : `mark[data-papershelf-highlight="${String(id).replace(/"/g, '\\"')}"]`;
  for (const mark of Array.from(root.querySelectorAll(sel))) {
    const parent = mark.parentNode;
    while (mark.firstChild) parent.insertBefore(mark.firstChild, mark);
    parent.removeChild(mark);
    parent.normalize();
  }
}
