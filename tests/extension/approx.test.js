import { test } from "node:test";
import assert from "node:assert/strict";
import { approximateMatches, editDistance, editDistances } from "../../extension/lib/approx.js";

/** The edit-distance table, filled cell by cell: what the bit-parallel search must equal. */
function tableDistances(pattern, text, anchored) {
  let prev = Array.from({ length: pattern.length + 1 }, (_, i) => i);
  const out = [];
  for (let j = 1; j <= text.length; j++) {
    const cur = [anchored ? j : 0];
    for (let i = 1; i <= pattern.length; i++) {
      const cost = pattern[i - 1] === text[j - 1] ? 0 : 1;
      cur.push(Math.min(prev[i - 1] + cost, prev[i] + 1, cur[i - 1] + 1));
    }
    out.push(cur[pattern.length]);
    prev = cur;
  }
  return out;
}

function seeded(seed) {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x80000000;
  };
}

for (const anchored of [false, true]) {
  test(`bit-parallel distances equal the table (${anchored ? "anchored" : "search"}), across word boundaries`, () => {
    const rnd = seeded(7);
    for (let n = 0; n < 300; n++) {
      const pick = (alphabet, len) => Array.from({ length: len }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join("");
      const pattern = pick("ab\ud83d", 1 + Math.floor(rnd() * 140));
      const text = pick("abc\ud83d", Math.floor(rnd() * 60));
      assert.deepEqual([...editDistances(pattern, text, { anchored })], tableDistances(pattern, text, anchored), `${pattern} / ${text}`);
    }
  });
}

test("edit distance of two strings", () => {
  assert.equal(editDistance("kitten", "sitting"), 3);
  assert.equal(editDistance("", "abc"), 3);
  assert.equal(editDistance("abc", ""), 3);
});

test("approximate matches: the fewest edits, each from its earliest start", () => {
  const text = "the critic reads the whole trajectory before it decides";
  assert.deepEqual(approximateMatches(text, "whole trajectroy", 4), [
    { start: 21, end: 35, errors: 2 },
    { start: 21, end: 36, errors: 2 },
    { start: 21, end: 37, errors: 2 },
  ]);
  assert.deepEqual(approximateMatches(text, "nothing like it at all", 3), []);
});

/** The best matches by the table: every end with the fewest edits (≤ maxErrors), each from the
 * earliest start reaching that number (the longest match). approx-string-match 2.0.0's `search`
 * was tried in lib/approx.js's place and failed this test: for "aabacabcabbaacbbc" in
 * "aadadbdcddcbdcdccaaaaabbadcabbcaabbdccabcdcddcbaddcddbaacddaad" it reports the match ending
 * at 35 with 6 errors from start 17, a span 8 edits away (from 20 it is 6). */
function tableMatches(text, pattern, maxErrors) {
  const ends = tableDistances(pattern, text, false);
  const fewest = Math.min(maxErrors + 1, ...ends);
  if (fewest > maxErrors) return [];
  const matches = [];
  ends.forEach((d, j) => {
    if (d !== fewest) return;
    const end = j + 1;
    for (let start = 0; start < end; start++) {
      if (editDistance(pattern, text.slice(start, end)) === fewest) {
        matches.push({ start, end, errors: fewest });
        return;
      }
    }
  });
  return matches;
}

test("approximate matches equal the table's best matches, starts included", () => {
  const rnd = seeded(11);
  const pick = (alphabet, len) => Array.from({ length: len }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join("");
  for (let n = 0; n < 300; n++) {
    const pattern = pick("abc", 1 + Math.floor(rnd() * 40));
    const text = pick("abcd", Math.floor(rnd() * 80));
    const maxErrors = Math.floor(rnd() * 8);
    const got = approximateMatches(text, pattern, maxErrors);
    const want = tableMatches(text, pattern, maxErrors);
    assert.deepEqual(got, want, `${pattern} / ${text} / ${maxErrors}`);
  }
});
