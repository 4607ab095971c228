"""Anchoring a highlight in a paper's field: where a stored selector lies in the text now.

One specification, written in server/papershelf/domain/anchoring.py and extension/lib/anchoring.js,
held together by the shared vectors in tests/shared/anchoring.json:

Text: a field's normalized text: NFC, every run of whitespace (JavaScript's \\s) folded to one space,
trimmed. Offsets and lengths count UTF-16 code units (an emoji counts 2).

Selector: {exact, prefix, suffix, start, end}: the quote, the text just before and after it (at most
CONTEXT_CHARS = 64 units each, never half of a surrogate pair) and its offsets when it was made.

Anchoring tries, in order:
1. position: the quote stands at its stored start, the stored prefix right before it and the stored
   suffix right after it. (That is the best a match can score; it is taken without a search.)
2. quote: every exact occurrence of the quote, scored; the best wins.
3. fuzzy: for a quote of at least 4 units, its approximate occurrences: the ends in the text where
   the fewest edits (Levenshtein distance over UTF-16 units) turn the quote into the text before them,
   at most max(1, floor(length / 4)), each starting as early as that allows. A quote over 256 units
   is found by its first 64 units (the occurrence with the fewest edits, at most 16, nearest the
   stored start), then its last 64 units after them (the same, nearest where the quote's length puts
   them); the span from one to the other is the match if its length is within 25% of the quote's and
   it is at most floor(length / 4) edits from the quote. Each match sheds the spaces at its ends and
   is widened so that it never splits a surrogate pair; then it is scored, and the best wins if it
   scores at least 0.5.
Anything else is an orphan (None in Python, null in JavaScript): listed, never guessed.

Score, Hypothesis's match-quote weights, from 0 to 1:
    (50 * quote + 20 * prefix + 20 * suffix + 2 * position) / 92, where
    quote    = 1 - edits / length of the quote;
    prefix   = how many units at the end of the stored prefix the text before the match ends with,
               divided by the prefix's length (1 when there is no stored prefix);
    suffix   = how many units at the start of the stored suffix the text after the match starts
               with, divided by the suffix's length (1 when there is no stored suffix);
    position = max(0, 1 - |match start - stored start| / max(1, text length)) (stored start 0 when
               it is missing).
On a tie, the match that ends first wins (for the ends of a long quote too).
"""

import re
import sys
import unicodedata
from array import array
from dataclasses import dataclass

CONTEXT_CHARS = 64
QUOTE_WEIGHT, PREFIX_WEIGHT, SUFFIX_WEIGHT, POSITION_WEIGHT = 50, 20, 20, 2
FUZZY_MIN_LENGTH = 4
FUZZY_MIN_SCORE = 0.5
LONG_QUOTE = 256  # longer quotes are found by their two ends
LONG_QUOTE_END = 64
LONG_QUOTE_END_ERRORS = 16

# JavaScript's \s, so that both languages fold the same characters and count the same offsets.
_WHITESPACE = re.compile("[\t\n\x0b\x0c\r \xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+")


def normalize_text(text: str | None) -> str:
    """NFC, whitespace runs folded to one space, trimmed: the text highlights are anchored in."""
    return _WHITESPACE.sub(" ", unicodedata.normalize("NFC", text or "")).strip(" ")


def utf16_units(text: str) -> str:
    """``text`` with one character per UTF-16 code unit (astral characters as surrogate pairs), so
    that indexes, slices and ``len`` count as JavaScript's do."""
    if not text or max(text) <= "\uffff":
        return text
    units = array("H", text.encode("utf-16-le", "surrogatepass"))
    if sys.byteorder == "big":
        units.byteswap()
    return "".join(map(chr, units))


def code_point_index(text: str, offset: int) -> int | None:
    """The index in ``text`` of UTF-16 ``offset`` (None if it falls mid-character or past the end)."""
    units = 0
    for i, ch in enumerate(text):
        if units == offset:
            return i
        units += 2 if ord(ch) > 0xFFFF else 1
        if units > offset:
            return None
    return len(text) if units == offset else None


def describe_range(text: str, start: int, end: int) -> dict:
    """The selector of [start, end) (UTF-16 offsets) of normalized ``text``: the quote, up to
    CONTEXT_CHARS units of context on each side (never half of a surrogate pair), the offsets.
    (extension/lib/anchoring.js's describeRange; the offsets here must already fall between
    characters.)"""
    units = utf16_units(text)
    pre = max(0, start - CONTEXT_CHARS)
    pre += _splits_pair(units, pre)
    post = min(len(units), end + CONTEXT_CHARS)
    post -= _splits_pair(units, post)
    def text_of(u: str) -> str:
        return u.encode("utf-16-le", "surrogatepass").decode("utf-16-le")

    return {"exact": text_of(units[start:end]), "prefix": text_of(units[pre:start]),
            "suffix": text_of(units[end:post]), "start": start, "end": end}


@dataclass(frozen=True)
class Anchor:
    """Where a highlight lies: UTF-16 offsets in the normalized text, and the step that found it."""

    start: int
    end: int
    method: str  # "position" | "quote" | "fuzzy"


@dataclass(frozen=True)
class _Match:
    start: int
    end: int
    errors: int


def anchor(text: str, selector: dict) -> Anchor | None:
    """Where ``selector`` lies in the normalized ``text`` now, or None (an orphan)."""
    exact = utf16_units(selector.get("exact") or "")
    if not exact:
        return None
    text = utf16_units(text)
    stored = selector.get("start")
    start = stored if isinstance(stored, int) and not isinstance(stored, bool) and stored >= 0 else -1
    context = _Context(exact, utf16_units(selector.get("prefix") or ""),
                       utf16_units(selector.get("suffix") or ""), max(0, start))
    if start >= 0 and text[start:start + len(exact)] == exact and context.intact(text, start):
        return Anchor(start, start + len(exact), "position")
    quoted = _best(text, _occurrences(text, exact), context)
    if quoted:
        return Anchor(quoted[0].start, quoted[0].end, "quote")
    if len(exact) < FUZZY_MIN_LENGTH:
        return None
    if len(exact) <= LONG_QUOTE:
        candidates = _approximate_matches(text, exact, max(1, len(exact) // 4))
    else:
        candidates = _long_quote_matches(text, exact, context.hint)
    fuzzy = _best(text, (_tidy(text, match) for match in candidates), context)
    if not fuzzy or fuzzy[1] < FUZZY_MIN_SCORE:
        return None
    return Anchor(fuzzy[0].start, fuzzy[0].end, "fuzzy")


# ---- scoring -------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Context:
    exact: str
    prefix: str
    suffix: str
    hint: int  # the stored start, 0 when missing

    def intact(self, text: str, start: int) -> bool:
        end = start + len(self.exact)
        return text.endswith(self.prefix, 0, start) and text.startswith(self.suffix, end)

    def score(self, text: str, match: _Match) -> float:
        quote = 1 - match.errors / len(self.exact)
        prefix = 1
        if self.prefix:
            before = text[max(0, match.start - len(self.prefix)):match.start]
            prefix = _common_suffix_length(before, self.prefix) / len(self.prefix)
        suffix = 1
        if self.suffix:
            after = text[match.end:match.end + len(self.suffix)]
            suffix = _common_prefix_length(after, self.suffix) / len(self.suffix)
        position = max(0, 1 - abs(match.start - self.hint) / max(1, len(text)))
        total = QUOTE_WEIGHT + PREFIX_WEIGHT + SUFFIX_WEIGHT + POSITION_WEIGHT
        return (QUOTE_WEIGHT * quote + PREFIX_WEIGHT * prefix + SUFFIX_WEIGHT * suffix
                + POSITION_WEIGHT * position) / total


def _best(text: str, matches, context: _Context) -> tuple[_Match, float] | None:
    """The best-scoring match and its score (the first of equals), or None."""
    best = None
    for match in matches:
        score = context.score(text, match)
        if best is None or score > best[1]:
            best = (match, score)
    return best


def _common_prefix_length(a: str, b: str) -> int:
    n = 0
    while n < len(a) and n < len(b) and a[n] == b[n]:
        n += 1
    return n


def _common_suffix_length(a: str, b: str) -> int:
    n = 0
    while n < len(a) and n < len(b) and a[-1 - n] == b[-1 - n]:
        n += 1
    return n


# ---- finding candidates --------------------------------------------------------------------


def _occurrences(text: str, exact: str):
    i = text.find(exact)
    while i != -1:
        yield _Match(i, i + len(exact), 0)
        i = text.find(exact, i + 1)


def _edit_distances(pattern: str, text: str, *, anchored: bool) -> list[int]:
    """For each end j = 1..len(text), the fewest edits turning ``pattern`` into ``text[:j]``
    (``anchored``) or into some ``text[i:j]`` (not anchored: Sellers' search). Myers' bit-parallel
    algorithm (Hyyrö's formulation), one column of the edit-distance table per character."""
    m = len(pattern)
    full, top = (1 << m) - 1, 1 << (m - 1)
    equal: dict[str, int] = {}
    for i, c in enumerate(pattern):
        equal[c] = equal.get(c, 0) | (1 << i)
    pv, mv, score, carry = full, 0, m, int(anchored)
    distances = []
    for c in text:
        eq = equal.get(c, 0)
        xv = eq | mv
        xh = (((eq & pv) + pv) ^ pv) | eq
        ph = mv | (~(xh | pv) & full)
        mh = pv & xh
        if ph & top:
            score += 1
        elif mh & top:
            score -= 1
        ph = ((ph << 1) | carry) & full
        mh = (mh << 1) & full
        pv = mh | (~(xv | ph) & full)
        mv = ph & xv
        distances.append(score)
    return distances


def _approximate_matches(text: str, pattern: str, max_errors: int) -> list[_Match]:
    """The places where ``pattern`` occurs in ``text`` with the fewest edits (at most
    ``max_errors``): every end reaching that number, with the earliest start that does."""
    distances = _edit_distances(pattern, text, anchored=False)
    fewest = min(distances, default=max_errors + 1)
    if fewest > max_errors:
        return []
    backwards = pattern[::-1]
    matches = []
    for end, errors in enumerate(distances, 1):
        if errors != fewest:
            continue
        lo = max(0, end - len(pattern) - max_errors)
        # back[k - 1]: the edits between the pattern and text[end - k:end].
        back = _edit_distances(backwards, text[lo:end][::-1], anchored=True)
        longest = max(k for k, d in enumerate(back, 1) if d == fewest)
        matches.append(_Match(end - longest, end, fewest))
    return matches


def _nearest(matches: list[_Match], hint: int) -> _Match | None:
    best = None
    for match in matches:
        if best is None or abs(match.start - hint) < abs(best.start - hint):
            best = match
    return best


def _long_quote_matches(text: str, exact: str, hint: int) -> list[_Match]:
    """A quote over LONG_QUOTE units, found by its two ends: a list of at most one match."""
    n = LONG_QUOTE_END
    head = _nearest(_approximate_matches(text, exact[:n], LONG_QUOTE_END_ERRORS), hint)
    if head is None:
        return []
    rest = text[head.start:]
    tail = _nearest(_approximate_matches(rest, exact[-n:], LONG_QUOTE_END_ERRORS), len(exact) - n)
    if tail is None:
        return []
    end = head.start + tail.end
    if not len(exact) * 0.75 <= end - head.start <= len(exact) * 1.25:
        return []
    errors = _edit_distances(exact, text[head.start:end], anchored=True)[-1]
    return [_Match(head.start, end, errors)] if errors <= len(exact) // 4 else []


def _splits_pair(text: str, i: int) -> bool:
    return 0 < i < len(text) and "\udc00" <= text[i] <= "\udfff" and "\ud800" <= text[i - 1] <= "\udbff"


def _tidy(text: str, match: _Match) -> _Match:
    """A fuzzy match without the spaces at its ends (a painted highlight starts on a word), widened
    so that it does not split a surrogate pair."""
    start, end = match.start, match.end
    while start < end and text[start] == " ":
        start += 1
    while end > start and text[end - 1] == " ":
        end -= 1
    start -= _splits_pair(text, start)
    end += _splits_pair(text, end)
    return _Match(start, end, match.errors)
