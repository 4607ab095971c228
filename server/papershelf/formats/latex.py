"""Text to LaTeX for BibTeX fields, and back.

``encode_latex`` turns stored text into a BibTeX field value that is always brace-balanced, never
contains a bare ``@``/``%``/``#`` that a parser could take for syntax, and decodes (``decode_latex``,
pylatexenc's latex2text with a few extra macros) to exactly the stored text. Plain ASCII text with
no special characters is returned as is (the fast path, taken by almost every abstract); the rest
goes through one regular-expression pass whose replacements are cached per character, with
pylatexenc deciding the LaTeX for non-ASCII characters.

Braces are written as ``{\\textbraceleft}``/``{\\textbraceright}`` rather than ``\\{``/``\\}``
because BibTeX (and pybtex) count escaped braces too: a lone ``\\{`` unbalances an entry.
"""

from __future__ import annotations

import re
from functools import cache

from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, get_default_latex_context_db
from pylatexenc.latexencode import UnicodeToLatexEncoder

# ASCII characters that LaTeX or a BibTeX parser would read as syntax, or that a font would turn
# into a different glyph (`` ` `` makes ligatures, ``<``/``>``/``|`` are other glyphs in OT1).
_ASCII = {
    "\\": "{\\textbackslash}",
    "{": "{\\textbraceleft}",
    "}": "{\\textbraceright}",
    "&": "\\&",
    "%": "\\%",
    "$": "\\$",
    "#": "\\#",
    "_": "\\_",
    "~": "{\\textasciitilde}",
    "^": "{\\textasciicircum}",
    "<": "{\\textless}",
    ">": "{\\textgreater}",
    "|": "{\\textbar}",
    "`": "{\\textasciigrave}",
    # bibtexparser starts a new entry at an ``@`` that opens a line, even inside a field value
    "@": "{@}",
    # ``--``, ``---`` and ``''`` are ligatures (en dash, em dash, closing quote): break them up
    "-": "-{}",
    "'": "'{}",
}
_SPECIAL_RE = re.compile(r"-(?=-)|'(?=')|[\\{}&%$#_~^<>|`@]|[^\x00-\x7f]")
_SPECIAL_UTF8_RE = re.compile(r"-(?=-)|'(?=')|[\\{}&%$#_~^<>|`@]")

# what latex2text would change; text without any of it decodes to itself
_LATEX_SYNTAX_RE = re.compile(r"[\\{}~$%&#^_'`\-]")

_encoder = UnicodeToLatexEncoder(
    non_ascii_only=True,
    replacement_latex_protection="braces-all",
    # keep what LaTeX has no macro for (CJK, emoji), without pylatexenc logging each one
    unknown_char_policy="keep",
    unknown_char_warning=False,
)

_context = get_default_latex_context_db()
_context.add_context_category(
    "papershelf",
    prepend=True,
    macros=[
        MacroTextSpec("textbraceleft", simplify_repl="{"),
        MacroTextSpec("textbraceright", simplify_repl="}"),
        MacroTextSpec("textasciicircum", simplify_repl="^"),
        MacroTextSpec("textasciitilde", simplify_repl="~"),
        MacroTextSpec("textbackslash", simplify_repl="\\"),
        MacroTextSpec("textless", simplify_repl="<"),
        MacroTextSpec("textgreater", simplify_repl=">"),
        MacroTextSpec("textbar", simplify_repl="|"),
        MacroTextSpec("textasciigrave", simplify_repl="`"),
        MacroTextSpec("textunderscore", simplify_repl="_"),
        MacroTextSpec("textquotedbl", simplify_repl='"'),
    ],
)
_decoder = LatexNodes2Text(latex_context=_context, math_mode="text", strict_latex_spaces=True)


@cache
def _non_ascii(ch: str) -> str:
    """LaTeX for one non-ASCII character, or the character itself when LaTeX has no spelling
    for it that decodes back to it (CJK, emoji, combining marks): those stay UTF-8."""
    latex = _encoder.unicode_to_latex(ch)
    if latex != ch and decode_latex(latex) == ch:
        return latex
    return ch


def _replace(match: re.Match) -> str:
    s = match.group()
    return _ASCII.get(s) or _non_ascii(s)


def _replace_ascii(match: re.Match) -> str:
    return _ASCII[match.group()]


def encode_latex(text: str, *, utf8: bool = False) -> str:
    """``text`` as a safe BibTeX field value; ``utf8=True`` keeps non-ASCII characters as they are."""
    if utf8:
        return _SPECIAL_UTF8_RE.sub(_replace_ascii, text)
    if text.isascii() and _SPECIAL_UTF8_RE.search(text) is None:
        return text
    return _SPECIAL_RE.sub(_replace, text)


def _needs_protection(word: str, first: bool) -> bool:
    if any(c.isupper() for c in word[1:]):  # LLM, GRPO, SWE-bench, τ²-Bench, arXiv
        return True
    return not first and len(word) == 1 and word.isupper()


def encode_title(title: str, *, utf8: bool = False) -> str:
    """Like ``encode_latex``, with words a bibliography style must not lower-case in braces."""
    words = title.split(" ")
    out = []
    for i, word in enumerate(words):
        encoded = encode_latex(word, utf8=utf8)
        out.append("{" + encoded + "}" if word and _needs_protection(word, i == 0) else encoded)
    return " ".join(out)


def decode_latex(latex: str) -> str:
    """Text of a LaTeX field value (protecting braces dropped, macros turned into characters)."""
    if _LATEX_SYNTAX_RE.search(latex) is None:
        return latex
    return _decoder.latex_to_text(latex)
