"""LaTeX encoding: the fast encoder equals the reference one and decodes back to the text."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from papershelf.formats.latex import (
    _encode_by_pattern,
    as_exported,
    decode_latex,
    encode_latex,
    encode_title,
)

_alphabet = st.sampled_from(list("ab -'\\{}&%$#_~^<>|`@\n\x01\ue000éτ²东😀\u0301ﬁ⅓ "))
_text = st.text(_alphabet, max_size=40) | st.text(max_size=40)


@settings(max_examples=400, deadline=None)
@given(text=_text, utf8=st.booleans())
def test_fast_encoder_equals_the_reference_encoder(text, utf8):
    assert encode_latex(text, utf8=utf8) == _encode_by_pattern(text, utf8)


@settings(max_examples=300, deadline=None)
@given(text=_text.filter(lambda t: "\r" not in t))
def test_encoded_text_decodes_to_itself(text):
    expected = as_exported(text)  # control characters become spaces
    assert decode_latex(encode_latex(text)) == expected
    assert decode_latex(encode_latex(text, utf8=True)) == expected
    assert decode_latex(encode_title(text)) == expected


@settings(max_examples=200, deadline=None)
@given(text=_text)
def test_encoded_text_has_balanced_braces_and_no_bare_specials(text):
    encoded = encode_latex(text)
    depth = 0
    for ch in encoded:
        depth += (ch == "{") - (ch == "}")
        assert depth >= 0
    assert depth == 0
    stripped = encoded.replace("\\%", "").replace("\\#", "").replace("\\&", "")
    assert "%" not in stripped and "#" not in stripped and "&" not in stripped


@pytest.mark.parametrize(("text", "latex"), [
    ("a--b", "a-{}-b"),
    ("It''s", "It'{}'s"),
    ("50% of $5", "50\\% of \\$5"),
    ("{x}", "{\\textbraceleft}x{\\textbraceright}"),
    ("Café", "Caf{\\'e}"),
    ("東京", "東京"),
])
def test_examples(text, latex):
    assert encode_latex(text) == latex
