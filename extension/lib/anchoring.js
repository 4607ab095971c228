/**
 * Anchoring highlights in a paper's field (abstract, title or an arXiv HTML page's body).
 *
 * One specification, written in server/papershelf/domain/anchoring.py and extension/lib/anchoring.js,
 * held together by the shared vectors in tests/shared/anchoring.json:
 *
 * Text: a field's normalized text: NFC, every run of whitespace (JavaScript's \s) folded to one space,
 * trimmed. Offsets and lengths count UTF-16 code units (an emoji counts 2).
 *
 * Selector: {exact, prefix, suffix, start, end}: the quote, the text just before and after it (at most
 * CONTEXT_CHARS = 64 units each, never half of a surrogate pair) and its offsets when it was made.
 *
 * Anchoring tries, in order:
 * 1. position: the quote stands at its stored start, the stored prefix right before it and the stored
 *    suffix right after it. (That is the best a match can score; it is taken without a search.)
 * 2. quote: every exact occurrence of the quote, scored; the best wins.
 * 3. fuzzy: for a quote of at least 4 units, its approximate occurrences: the ends in the text where
 *    the fewest edits (Levenshtein distance over UTF-16 units) turn the quote into the text before them,
 *    at most max(1, floor(length / 4)), each starting as early as that allows. A quote over 256 units
 *    is found by its first 64 units (the occurrence with the fewest edits, at most 16, nearest the
 *    stored start), then its last 64 units after them (the same, nearest where the quote's length puts
 *    them); the span from one to the other is the match if its length is within 25% of the quote's and
 *    it is at most floor(length / 4) edits from the quote. Each match sheds the spaces at its ends and
 *    is widened so that it never splits a surrogate pair; then it is scored, and the best wins if it
 *    scores at least 0.5.
 * Anything else is an orphan (None in Python, null in JavaScript): listed, never guessed.
 *
 * Score, Hypothesis's match-quote weights, from 0 to 1:
 *     (50 * quote + 20 * prefix + 20 * suffix + 2 * position) / 92, where
 *     quote    = 1 - edits / length of the quote;
 *     prefix   = how many units at the end of the stored prefix the text before the match ends with,
 *                divided by the prefix's length (1 when there is no stored prefix);
 *     suffix   = how many units at the start of the stored suffix the text after the match starts
 *                with, divided by the suffix's length (1 when there is no stored suffix);
 *     position = max(0, 1 - |match start - stored start| / max(1, text length)) (stored start 0 when
 *                it is missing).
 * On a tie, the match that ends first wins (for the ends of a long quote too).
 *
 * The fuzzy search is lib/approx.js (Myers' bit-parallel algorithm). The string functions are pure. The DOM helpers (textModel, paint) only use standard DOM calls,
 * no chrome.*, so they run under linkedom in node tests too.
 */

import { approximateMatches, editDistance } from "./approx.js";

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

const QUOTE_WEIGHT = 50;
const PREFIX_WEIGHT = 20;
const SUFFIX_WEIGHT = 20;
const POSITION_WEIGHT = 2;
const FUZZY_MIN_LENGTH = 4;
const FUZZY_MIN_SCORE = 0.5;
const LONG_QUOTE = 256; // longer quotes are found by their two ends
const LONG_QUOTE_END = 64;
const LONG_QUOTE_END_ERRORS = 16;

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

/** The score of a match {start, end, errors} (see the specification above), from 0 to 1. */
function score(text, match, ctx) {
  const quote = 1 - match.errors / ctx.exact.length;
  let prefix = 1;
  if (ctx.prefix) {
    const before = text.slice(Math.max(0, match.start - ctx.prefix.length), match.start);
    prefix = commonSuffixLength(before, ctx.prefix) / ctx.prefix.length;
  }
  let suffix = 1;
  if (ctx.suffix) {
    const after = text.slice(match.end, match.end + ctx.suffix.length);
    suffix = commonPrefixLength(after, ctx.suffix) / ctx.suffix.length;
  }
  const position = Math.max(0, 1 - Math.abs(match.start - ctx.hint) / Math.max(1, text.length));
  const total = QUOTE_WEIGHT + PREFIX_WEIGHT + SUFFIX_WEIGHT + POSITION_WEIGHT;
  return (QUOTE_WEIGHT * quote + PREFIX_WEIGHT * prefix + SUFFIX_WEIGHT * suffix + POSITION_WEIGHT * position) / total;
}

/** The best-scoring match and its score {match, score} (the first of equals), or null. */
function best(text, matches, ctx) {
  let found = null;
  for (const match of matches) {
    const s = score(text, match, ctx);
    if (!found || s > found.score) found = { match, score: s };
  }
  return found;
}

function isIntact(text, start, ctx) {
  const end = start + ctx.exact.length;
  return text.slice(Math.max(0, start - ctx.prefix.length), start) === ctx.prefix &&
    text.slice(end, end + ctx.suffix.length) === ctx.suffix;
}

function occurrences(text, exact) {
  const found = [];
  for (let i = text.indexOf(exact); i !== -1; i = text.indexOf(exact, i + 1)) {
    found.push({ start: i, end: i + exact.length, errors: 0 });
  }
  return found;
}

function nearest(matches, hint) {
  let found = null;
  for (const match of matches) {
    if (!found || Math.abs(match.start - hint) < Math.abs(found.start - hint)) found = match;
  }
  return found;
}

/** A quote over LONG_QUOTE units, found by its two ends: a list of at most one match. */
function longQuoteMatches(text, exact, hint) {
  const n = LONG_QUOTE_END;
  const head = nearest(approximateMatches(text, exact.slice(0, n), LONG_QUOTE_END_ERRORS), hint);
  if (!head) return [];
  const rest = text.slice(head.start);
  const tail = nearest(approximateMatches(rest, exact.slice(-n), LONG_QUOTE_END_ERRORS), exact.length - n);
  if (!tail) return [];
  const end = head.start + tail.end;
  if (end - head.start < exact.length * 0.75 || end - head.start > exact.length * 1.25) return [];
  const maxErrors = Math.floor(exact.length / 4);
  const errors = editDistance(exact, text.slice(head.start, end));
  return errors <= maxErrors ? [{ start: head.start, end, errors }] : [];
}

/**
 * A fuzzy match without the spaces at its ends (a painted highlight starts on a word), widened so
 * that it does not split a surrogate pair.
 */
function tidy(text, match) {
  let { start, end } = match;
  while (start < end && text[start] === " ") start++;
  while (end > start && text[end - 1] === " ") end--;
  return { start: snap(text, start), end: snap(text, end) < end ? end + 1 : end, errors: match.errors };
}

/**
 * Find where a stored highlight lies in (normalized) `text` now.
 * Returns {start, end, method: "position"|"quote"|"fuzzy"} or null (orphan).
 */
export function anchor(text, sel) {
  const exact = sel.exact || "";
  if (!exact) return null;
  const start = Number.isInteger(sel.start) && sel.start >= 0 ? sel.start : -1;
  const ctx = { exact, prefix: sel.prefix || "", suffix: sel.suffix || "", hint: Math.max(0, start) };
  if (start >= 0 && text.slice(start, start + exact.length) === exact && isIntact(text, start, ctx)) {
    return { start, end: start + exact.length, method: "position" };
  }
  const quoted = best(text, occurrences(text, exact), ctx);
  if (quoted) return { start: quoted.match.start, end: quoted.match.end, method: "quote" };
  if (exact.length < FUZZY_MIN_LENGTH) return null;
  const candidates = exact.length <= LONG_QUOTE
    ? approximateMatches(text, exact, Math.max(1, Math.floor(exact.length / 4)))
    : longQuoteMatches(text, exact, ctx.hint);
  const fuzzy = best(text, candidates.map((match) => tidy(text, match)), ctx);
  if (!fuzzy || fuzzy.score < FUZZY_MIN_SCORE) return null;
  return { start: fuzzy.match.start, end: fuzzy.match.end, method: "fuzzy" };
}

// ---------------------------------------------------------------------------------------------
// DOM side: the normalized text of an element, mapped back to its text nodes.

/** Subtrees whose text is not part of a field as the reader sees it. `.descriptor` is arXiv's
 * visually hidden "Title:"/"Abstract:" label; KaTeX repeats each formula as TeX annotation and as
 * an aria-hidden rendering, of which the MathML text alone is kept. */
const SKIP_SELECTOR =
  'script, style, noscript, template, annotation, annotation-xml, [aria-hidden="true"], [data-papershelf-ui], .descriptor';

/** A formula whose TeX source is in `alttext` (LaTeXML, arXiv's HTML papers): one unit of text,
 * read as `$<alttext>$`, so that a quote keeps the formula as TeX and not as its glyphs. */
function isTexMath(node) {
  return node.localName === "math" && node.hasAttribute("alttext");
}

/** The text a TeX formula stands for in a field: `$…$`, its whitespace folded. */
export function mathText(node) {
  return `$${normalizeText(node.getAttribute("alttext"))}$`;
}

const TEXT_NODE = 3;
const ELEMENT_NODE = 1;

function collectTextNodes(root, out) {
  for (let n = root.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === TEXT_NODE) out.push(n);
    else if (n.nodeType === ELEMENT_NODE && !n.matches(SKIP_SELECTOR)) {
      if (isTexMath(n)) out.push(n);
      else collectTextNodes(n, out);
    }
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
 * came from: {text, nodes, nodeOf: Int32Array, offsetOf: Int32Array}. A TeX formula is one of
 * `nodes` (the math element), each unit of its `$…$` at offset -1.
 */
export function textModel(root) {
  const nodes = collectTextNodes(root, []);
  const chars = [];
  const nodeOf = [];
  const offsetOf = [];
  let pendingSpace = null; // [nodeIndex, offset] of the first whitespace of a run
  for (let k = 0; k < nodes.length; k++) {
    if (nodes[k].nodeType === ELEMENT_NODE) {
      if (pendingSpace) {
        chars.push(" ");
        nodeOf.push(pendingSpace[0]);
        offsetOf.push(pendingSpace[1]);
        pendingSpace = null;
      }
      for (const c of mathText(nodes[k])) {
        for (let u = 0; u < c.length; u++) {
          chars.push(c[u]);
          nodeOf.push(k);
          offsetOf.push(-1);
        }
      }
      continue;
    }
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
 * cover any of root's field text. Uses Range.comparePoint and Range.intersectsNode (browsers).
 *
 * Each unit of the model lies before the range, in it, or after it, in that order along the
 * text: two binary searches find where the range starts and ends (a paper's body has 100,000
 * units; a selection must not cost one DOM call per unit).
 */
export function offsetsFromRange(model, range) {
  const { nodes, nodeOf, offsetOf } = model;
  // -1: before the range, 0: in it, 1: after it. A unit is in it when its start point lies in
  // [range.start, range.end); a formula is in it when the range touches any of it.
  const side = (i) => {
    const node = nodes[nodeOf[i]];
    if (offsetOf[i] < 0) {
      if (range.intersectsNode(node)) return 0;
      return range.comparePoint(node, 0) > 0 ? 1 : -1;
    }
    const where = range.comparePoint(node, offsetOf[i]);
    if (where !== 0) return where;
    return node === range.endContainer && offsetOf[i] >= range.endOffset ? 1 : 0;
  };
  const firstWith = (pred) => {
    let lo = 0;
    let hi = nodeOf.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pred(side(mid))) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
  let start = firstWith((s) => s >= 0);
  let end = firstWith((s) => s > 0);
  if (start >= end) return null;
  // Selections often end on a trailing space: leave it out.
  while (end > start && model.text[end - 1] === " ") end--;
  while (start < end && model.text[start] === " ") start++;
  return start < end ? { start, end } : null;
}

/** The text node pieces covering [start, end) of the model: [{node, from, to}]. */
function segmentsFor(model, start, end) {
  const segs = [];
  for (let i = start; i < end; i++) {
    const node = model.nodes[model.nodeOf[i]];
    const off = model.offsetOf[i];
    const last = segs[segs.length - 1];
    if (last && last.node === node) last.to = off + 1;
    else segs.push({ node, from: off, to: off + 1, whole: off < 0 });
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
 * marks. `model` (from textModel(root), unchanged since) saves walking the text again. Text is
 * moved, never re-parsed: no HTML is created from page text. A mark carries its id and colour
 * only (no title): it sits in the host page, and a highlight's comment is not the page's to read.
 */
export function paint(root, start, end, { id, color = "yellow", model = textModel(root) } = {}) {
  const doc = root.ownerDocument;
  const marks = [];
  for (const seg of segmentsFor(model, start, end)) {
    let node = seg.node;
    if (!seg.whole) {
      if (seg.to < node.data.length) splitTextNode(node, seg.to);
      if (seg.from > 0) node = splitTextNode(node, seg.from);
    }
    const mark = doc.createElement("mark");
    mark.setAttribute("data-papershelf-highlight", String(id));
    mark.setAttribute("data-papershelf-color", color);
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
