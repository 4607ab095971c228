"""LaTeX encoding: the fast encoder equals the reference one and decodes back to the text."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from papershelf.domain.latex import (
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


@pytest.mark.parametrize(("latex", "text"), [
    ("$\\PQb$-tagged jets", "$\\PQb$-tagged jets"),  # math with a macro of a package: as written
    ("$\\alpha$-divergence", "α-divergence"),  # math pylatexenc knows: as text
    ("The \\ours{} model and \\ours", "The \\ours model and \\ours"),  # unknown macros kept
    ("See \\href{https://x.org/a_b}{the site}", "See the site <https://x.org/a_b>"),
    ("{\\noopsort{a}}Zeta and {\\relax 張偉}", "Zeta and 張偉"),
    ("Aza{\\\"\\i}s and Aza{\\\"{\\i}}s", "Azaïs and Azaïs"),
])
def test_decoding_keeps_what_it_cannot_render(latex, text):
    assert decode_latex(latex) == text


def test_an_accent_on_an_i_goes_on_the_letter_for_biber():
    # biber turns {\\"\\i} into a dotless i and a combining diaeresis, which pdfLaTeX stops on
    assert encode_latex("Azaïs") == "Aza{\\\"{i}}s"
    assert decode_latex(encode_latex("Azaïs íì")) == "Azaïs íì"


_latexish = st.text(st.sampled_from(list("ab \\{}$^_#&%~'`\"@ihref")), max_size=40)


@settings(max_examples=300, deadline=None)
@given(latex=_latexish)
def test_decoding_never_fails(latex):
    assert isinstance(decode_latex(latex), str)
