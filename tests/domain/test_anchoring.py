"""Anchoring highlights: the shared vectors, which extension/lib/anchoring.js answers the same way
(tests/extension/anchoring.test.js runs the same file)."""

import json
import random
from pathlib import Path

import pytest

from papershelf.domain import anchoring, validation

VECTORS = json.loads((Path(__file__).parents[1] / "shared" / "anchoring.json").read_text(encoding="utf-8"))
CASES = {case["name"]: case for case in VECTORS["cases"]}


@pytest.mark.parametrize("name", CASES)
def test_anchors_like_the_shared_vector(name):
    case = CASES[name]
    text = anchoring.normalize_text(case["text"])
    found = anchoring.anchor(text, case["selector"])
    got = found and {"start": found.start, "end": found.end, "method": found.method}
    assert got == case["expected"]
    if found:  # never half of a surrogate pair: both ends map back to a character boundary
        assert anchoring.code_point_index(text, found.start) is not None
        assert anchoring.code_point_index(text, found.end) is not None


def test_context_length_is_the_shared_one():
    assert anchoring.CONTEXT_CHARS == VECTORS["context_chars"]


@pytest.mark.parametrize("case", VECTORS["describe_cases"], ids=lambda c: c["name"])
def test_a_new_highlight_is_described_like_the_shared_vector(case):
    assert anchoring.describe_range(case["text"], case["start"], case["end"]) == case["expected"]


def test_the_api_takes_the_context_a_highlight_keeps():
    assert anchoring.CONTEXT_CHARS == validation.CONTEXT_MAX


def test_the_library_page_describes_highlights_with_the_extensions_module():
    # One JavaScript rule: the page's anchoring.js (and what it imports) is the extension's file.
    static = Path(validation.__file__).parents[1] / "web" / "static"
    extension_lib = Path(__file__).parents[2] / "extension" / "lib"
    for name in ("anchoring.js", "approx.js"):
        assert (static / name).read_bytes() == (extension_lib / name).read_bytes(), name
    assert 'import { describeRange } from "./anchoring.js";' in (static / "library.js").read_text("utf-8")


def test_utf16_units_count_like_javascript():
    assert anchoring.utf16_units("a😀b") == "a\ud83d\ude00b"
    assert len(anchoring.utf16_units("𝜏-bench")) == 8
    assert anchoring.code_point_index("a😀b", 3) == 2
    assert anchoring.code_point_index("a😀b", 2) is None


def _table_distances(pattern, text, anchored):
    prev, out = list(range(len(pattern) + 1)), []
    for j, c in enumerate(text, 1):
        cur = [j if anchored else 0]
        for i, p in enumerate(pattern, 1):
            cur.append(min(prev[i - 1] + (p != c), prev[i] + 1, cur[i - 1] + 1))
        out.append(cur[-1])
        prev = cur
    return out


@pytest.mark.parametrize("anchored", [False, True])
def test_bit_parallel_edit_distances_equal_the_table(anchored):
    # The extension fills the edit-distance table; Python uses Myers' bit vectors for speed.
    rng = random.Random(7)
    for _ in range(300):
        pattern = "".join(rng.choice("ab\ud83d") for _ in range(rng.randint(1, 90)))
        text = "".join(rng.choice("abc\ud83d") for _ in range(rng.randint(0, 40)))
        assert anchoring._edit_distances(pattern, text, anchored=anchored) == _table_distances(
            pattern, text, anchored)
