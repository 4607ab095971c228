/**
 * Approximate string matching: the edit distance of a pattern to every prefix of a text, or to
 * the best substring ending at each position (Sellers' search), with Myers' bit-parallel
 * algorithm in Hyyrö's block formulation: one column of the edit-distance table per character of
 * the text, 32 rows of it per machine word, so a 64-unit quote is searched in a 100,000-unit
 * paper in about 200,000 word steps instead of 6.4 million table cells. The same algorithm as
 * approx-string-match (Hypothesis's matcher) and as _edit_distances in
 * server/papershelf/domain/anchoring.py, which uses Python's unbounded integers as one word.
 * Strings are compared by UTF-16 code units. Pure: no DOM, no chrome.*.
 */

const WORD = 32;

/** For each block of 32 pattern units, which rows hold each unit: Map(code → Int32Array). */
function patternMasks(pattern, blocks) {
  const masks = new Map();
  for (let i = 0; i < pattern.length; i++) {
    const code = pattern.charCodeAt(i);
    let m = masks.get(code);
    if (!m) masks.set(code, (m = new Int32Array(blocks)));
    m[(i / WORD) | 0] |= 1 << i % WORD;
  }
  return masks;
}

/**
 * For each end j = 1..text.length, the fewest edits turning `pattern` into text[0, j)
 * (`anchored`) or into some text[i, j) (not anchored). Returns an Int32Array of text.length.
 */
export function editDistances(pattern, text, { anchored = false } = {}) {
  const m = pattern.length;
  const out = new Int32Array(text.length);
  if (!m) {
    for (let j = 0; j < text.length; j++) out[j] = anchored ? j + 1 : 0;
    return out;
  }
  const blocks = Math.ceil(m / WORD);
  const masks = patternMasks(pattern, blocks);
  const none = new Int32Array(blocks);
  const pv = new Int32Array(blocks).fill(-1); // vertical deltas +1 (all rows, at column 0)
  const mv = new Int32Array(blocks); // vertical deltas -1
  const lastBit = 1 << (m - 1) % WORD;
  const top = anchored ? 1 : 0; // the horizontal delta of row 0: D[0][j] = j, or 0
  let score = m;
  for (let j = 0; j < text.length; j++) {
    const eqs = masks.get(text.charCodeAt(j)) || none;
    let hin = top;
    for (let b = 0; b < blocks; b++) {
      const negative = hin < 0 ? 1 : 0;
      const eq = eqs[b] | negative;
      const p = pv[b];
      const n = mv[b];
      const xv = eq | n;
      const xh = (((eq & p) + p) ^ p) | eq;
      let ph = n | ~(xh | p);
      let mh = p & xh;
      const rowBit = b === blocks - 1 ? lastBit : 1 << 31;
      const hout = (ph & rowBit ? 1 : 0) - (mh & rowBit ? 1 : 0);
      ph = (ph << 1) | (hin > 0 ? 1 : 0);
      mh = (mh << 1) | negative;
      pv[b] = mh | ~(xv | ph);
      mv[b] = ph & xv;
      hin = hout;
    }
    score += hin;
    out[j] = score;
  }
  return out;
}

function reversed(s) {
  let r = "";
  for (let i = s.length - 1; i >= 0; i--) r += s[i];
  return r;
}

/**
 * The places where `pattern` occurs in `text` with the fewest edits (at most maxErrors): every
 * end reaching that number, with the earliest start that does. [{start, end, errors}] in text order.
 */
export function approximateMatches(text, pattern, maxErrors) {
  const distances = editDistances(pattern, text);
  let fewest = maxErrors + 1;
  for (let j = 0; j < distances.length; j++) if (distances[j] < fewest) fewest = distances[j];
  if (fewest > maxErrors) return [];
  const backwards = reversed(pattern);
  const matches = [];
  for (let j = 0; j < distances.length; j++) {
    if (distances[j] !== fewest) continue;
    const end = j + 1;
    const lo = Math.max(0, end - pattern.length - maxErrors);
    // back[k - 1]: the edits between the pattern and text[end - k, end).
    const back = editDistances(backwards, reversed(text.slice(lo, end)), { anchored: true });
    let longest = 0;
    for (let k = back.length; k >= 1; k--) {
      if (back[k - 1] === fewest) {
        longest = k;
        break;
      }
    }
    matches.push({ start: end - longest, end, errors: fewest });
  }
  return matches;
}

/** The edit distance between a and b. */
export function editDistance(a, b) {
  if (!b.length) return a.length;
  return editDistances(a, b, { anchored: true })[b.length - 1];
}
