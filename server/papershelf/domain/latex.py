"""Text to LaTeX for BibTeX fields, and back.

``encode_latex`` turns stored text into a BibTeX field value that is always brace-balanced, never
contains a bare ``@``/``%``/``#`` that a parser could take for syntax, and decodes (``decode_latex``,
pylatexenc's latex2text with a few extra macros) to exactly the stored text. Plain ASCII text with
no special characters is returned as is (the fast path, taken by almost every abstract); the rest
goes through one regular-expression pass whose replacements are cached per character, with
pylatexenc deciding the LaTeX for non-ASCII characters. An accent on an i or j is written over
the letter itself (``{\\"{i}}``, not pylatexenc's ``{\\"\\i}``): biber reads an accent on the
dotless ``\\i`` as a combining character and writes it into the ``.bbl``, where pdfLaTeX stops.

``decode_latex`` reads what real files hold and never fails on it: a macro it does not know
(``\\PQb``, a package's or a preamble's) and math holding one are kept as written rather than
dropped, so that a title like ``$\\PQb$-tagged`` keeps its meaning as text.

Braces are written as ``{\\textbraceleft}``/``{\\textbraceright}`` rather than ``\\{``/``\\}``
because BibTeX (and pybtex) count escaped braces too: a lone ``\\{`` unbalances an entry.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from pylatexenc import latexwalker
from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, get_default_latex_context_db
from pylatexenc.latexencode import UnicodeToLatexEncoder
from pylatexenc.macrospec import MacroSpec

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
# control characters (but tab and line breaks) are not text: LaTeX stops on them; a space each
CONTROLS = "".join(chr(c) for c in [*range(0, 9), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F])
_ASCII.update(dict.fromkeys(CONTROLS, " "))
_SPECIAL_RE = re.compile(
    r"-(?=-)|'(?=')|[\\{}&%$#_~^<>|`@\x00-\x08\x0b\x0c\x0e-\x1f\x7f]|[^\x00-\x7f]")
_SPECIAL_UTF8_RE = re.compile(
    r"-(?=-)|'(?=')|[\\{}&%$#_~^<>|`@\x00-\x08\x0b\x0c\x0e-\x1f\x7f\x80-\x9f]")

# what latex2text would change; text without any of it decodes to itself
_LATEX_SYNTAX_RE = re.compile(r"[\\{}~$%&#^_'`\-]")

_encoder = UnicodeToLatexEncoder(
    non_ascii_only=True,
    replacement_latex_protection="braces-all",
    # keep what LaTeX has no macro for (CJK, emoji), without pylatexenc logging each one
    unknown_char_policy="keep",
    unknown_char_warning=False,
)

_SILENT = ("relax", "protect", "allowbreak", "nobreak", "xspace", "/", "null", "leavevmode")
_SILENT_WITH_ARGUMENT = ("noopsort", "noop", "sortnoop", "SortNoop", "NOOP", "nocite")
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
        MacroTextSpec("href", simplify_repl="%(2)s <%(1)s>"),
        # macros that print nothing: spacing and the sorting tricks of bibliography files
        *(MacroTextSpec(name, discard=True) for name in _SILENT),
        *(MacroTextSpec(name, discard=True) for name in _SILENT_WITH_ARGUMENT),
    ],
)
# The parser's side: which macros take arguments (pylatexenc's default lacks \href's two).
_walker_context = latexwalker.get_default_latex_context_db()
_walker_context.add_context_category(
    "papershelf", prepend=True,
    macros=[MacroSpec("href", "{{"), *(MacroSpec(name, "{") for name in _SILENT_WITH_ARGUMENT)])


def _unknown_macros(nodes, context) -> bool:
    """Whether ``nodes`` (a math node's content) use a macro the decoder has no text for."""
    for node in nodes or ():
        if node is None:
            continue
        if node.isNodeType(latexwalker.LatexMacroNode):
            if context.get_macro_spec(node.macroname) is None:
                return True
            args = node.nodeargd.argnlist if node.nodeargd and node.nodeargd.argnlist else ()
            if _unknown_macros(args, context):
                return True
        elif hasattr(node, "nodelist") and _unknown_macros(node.nodelist, context):
            return True
    return False


class _Decoder(LatexNodes2Text):
    """latex2text, but a macro it does not know is kept as written (``\\PQb``), and so is math
    that holds one: dropping them (pylatexenc's default) loses words of a title."""

    def macro_node_to_text(self, node):
        if self.latex_context.get_macro_spec(node.macroname) is None:
            return node.latex_verbatim()
        return super().macro_node_to_text(node)

    def math_node_to_text(self, node):
        if _unknown_macros(node.nodelist, self.latex_context):
            return node.latex_verbatim()
        return super().math_node_to_text(node)


_decoder = _Decoder(latex_context=_context, math_mode="text", strict_latex_spaces=True)


# ``\\"\\i`` -> ``\\"{i}``: an accent on the dotless i or j goes on the letter itself
_DOTLESS_ACCENT = re.compile(r"\\([\"'`^~=.uvHcdbkrt])\\([ij])(?![A-Za-z])")


@cache
def _non_ascii(ch: str) -> str:
    """LaTeX for one non-ASCII character, or the character itself when LaTeX has no spelling
    for it that decodes back to it (CJK, emoji, combining marks): those stay UTF-8."""
    if unicodedata.category(ch) == "Cc":  # C1 control characters
        return " "
    latex = _DOTLESS_ACCENT.sub(r"\\\1{\2}", _encoder.unicode_to_latex(ch))
    # no spaces in a replacement: ``encode_title`` relies on words keeping their boundaries
    if latex != ch and " " not in latex and decode_latex(latex) == ch:
        return latex
    return ch


def _replace(match: re.Match) -> str:
    s = match.group()
    return _ASCII.get(s) or _non_ascii(s)


def _replace_ascii(match: re.Match) -> str:
    return _ASCII.get(match.group(), " ")  # " " for C1 control characters


def _encode_by_pattern(text: str, utf8: bool) -> str:
    """The reference encoder: one regular-expression pass, one replacement per match."""
    if utf8:
        return _SPECIAL_UTF8_RE.sub(_replace_ascii, text)
    return _SPECIAL_RE.sub(_replace, text)


# The fast encoder works on the UTF-8 bytes (``bytes.replace`` of an ASCII byte runs several
# times faster than ``str.replace`` on text that is not pure ASCII). Placeholder bytes keep the
# ``\\``, ``{`` and ``}`` of the user's text apart from the ones the replacements bring in, so that
# the chain of replacements never escapes its own output; text that itself contains a placeholder
# byte goes the slow way.
_HOLD = ((b"\\", b"\x01"), (b"{", b"\x02"), (b"}", b"\x03"))
_HELD = tuple((held, _ASCII[ch.decode()].encode()) for ch, held in _HOLD)
_REST = tuple(
    (ch.encode(), _ASCII[ch].encode()) for ch in "&%$#_~^<>|`@" + CONTROLS.replace("\x01\x02\x03", "")
)


@cache
def _non_ascii_bytes(ch: str) -> tuple[bytes, bytes] | None:
    latex = _non_ascii(ch)
    return None if latex == ch else (ch.encode("utf-8", "surrogatepass"), latex.encode())


_SPECIAL_BYTES = b"\\{}-'&%$#_~^<>|`@" + CONTROLS.encode()
# deleting these leaves the special ASCII bytes and every byte of the non-ASCII characters
_NOT_SPECIAL = bytes(b for b in range(128) if b not in _SPECIAL_BYTES)
_ALL_ASCII = bytes(range(128))
_HOLD_BYTES = frozenset({1, 2, 3})
_LONE = frozenset(b"-'")  # harmless alone, ligatures in pairs
# the held characters first (their replacements bring in none of the others); then byte ->
# its replacement(s), which may run in any order: none brings in a character another replaces
_HOLD_STEPS = tuple((ch[0], ch, held) for ch, held in _HOLD)
_HELD_BYTES = frozenset(ch[0] for ch, _ in _HOLD)
_STEPS = {ord("-"): ((b"--", b"-{}-"), (b"--", b"-{}-")),  # twice: "---" -> "-{}--" -> "-{}-{}-"
          ord("'"): ((b"''", b"'{}'"), (b"''", b"'{}'"))}
_STEPS.update({ch[0]: ((ch, latex),) for ch, latex in _REST})
_SPECIAL_ASCII = _HELD_BYTES | _STEPS.keys()
_RELEASE = tuple((ord(ch), held, latex) for (ch, held), (_, latex) in zip(_HOLD, _HELD, strict=True))


def encode_latex(text: str, *, utf8: bool = False) -> str:
    """``text`` as a safe BibTeX field value; ``utf8=True`` keeps non-ASCII characters as they are.

    Gives the same result as ``_encode_by_pattern`` (the tests hold it to that), built from
    ``bytes.translate`` and ``bytes.replace`` calls that run in C: an export spends most of its
    time here. One ``translate`` finds which special characters occur; each then costs one
    ``replace`` over the text.
    """
    ascii_only = text.isascii()
    data = text.encode("utf-8", "surrogatepass")
    found = data.translate(None, _NOT_SPECIAL)
    if not found:
        return text  # the fast path: plain ASCII (a regular expression is several times slower)
    present = set(found)
    if not _HOLD_BYTES.isdisjoint(present):
        return _encode_by_pattern(text, utf8)
    present &= _SPECIAL_ASCII
    if present <= _LONE and b"--" not in data and b"''" not in data:
        if ascii_only or (utf8 and b"\xc2" not in found):  # (C1 controls are \xc2\x80-\x9f)
            return text
    held = not _HELD_BYTES.isdisjoint(present)
    if held:
        for byte, old, new in _HOLD_STEPS:
            if byte in present:
                data = data.replace(old, new)
        present -= _HELD_BYTES
    for byte in present:
        for old, new in _STEPS[byte]:
            data = data.replace(old, new)
    if not ascii_only:
        for ch in set(found.translate(None, _ALL_ASCII).decode("utf-8", "surrogatepass")):
            if not utf8 or ch <= "\x9f":  # UTF-8 output: C1 control characters only
                pair = _non_ascii_bytes(ch)
                if pair is not None:
                    data = data.replace(*pair)
    if held:
        for _, placeholder, latex in _RELEASE:
            data = data.replace(placeholder, latex)
    return data.decode("utf-8", "surrogatepass")


def _needs_protection(word: str, first: bool) -> bool:
    rest = word[1:]
    if rest.lower() != rest:  # an upper-case letter after the first: LLM, SWE-bench, τ²-Bench
        return True
    return not first and len(word) == 1 and word.isupper()


# ASCII letters to "A" (capital) or "a", space to " ", the rest to "x": a title needs a look
# word by word only if a capital follows another character ("xA", "aA", "AA") or stands alone.
_CASE_SHAPE = str.maketrans(
    {chr(c): "A" if chr(c).isupper() else "a" if chr(c).isalpha() else " " if c == 32 else "x"
     for c in range(128)})


def _maybe_protect(title: str) -> bool:
    if not title.isascii():
        return True
    shape = title.translate(_CASE_SHAPE)
    return ("aA" in shape or "AA" in shape or "xA" in shape or " A " in shape
            or shape.endswith(" A"))


def encode_title(title: str, *, utf8: bool = False) -> str:
    """Like ``encode_latex``, with words a bibliography style must not lower-case in braces."""
    if not title.isprintable():
        title = as_exported(title)  # control characters are spaces: words must line up below
    encoded = encode_latex(title, utf8=utf8)
    if not _maybe_protect(title):
        return encoded
    words = title.split(" ")
    protect = [i for i, w in enumerate(words) if w and _needs_protection(w, i == 0)]
    if not protect:
        return encoded
    # encoding neither adds nor removes spaces, so the encoded words line up with the words
    out = encoded.split(" ")
    for i in protect:
        out[i] = "{" + out[i] + "}"
    return " ".join(out)


# an accent on the dotless i or j, its argument braced or not: ``\\"\\i``, ``\\"{\\i}``
_RAW_DOTLESS = re.compile(r"\\([\"'`^~=.uvHcdbkrt])\s*(?:\\([ij])(?![A-Za-z])|\{\\([ij])\})")


# a BibTeX "special character": a brace group opening with a macro, e.g. {\\~{\\^e}}
_SPECIAL_GROUP = re.compile(r"\{\\[^{}]*(?:\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}[^{}]*)*\}")


def _one_character(group: re.Match) -> str:
    """A special character written the way ``encode_latex`` writes that character (biber turns
    ``{\\~{\\^e}}`` into ``{\\~ê}``, whose unbraced UTF-8 argument pdfLaTeX cannot read)."""
    text = unicodedata.normalize("NFC", decode_latex(group.group()))
    if len(text) == 1 and not text.isascii():
        return _non_ascii(text)
    return group.group()


def encode_raw(latex: str, *, utf8: bool = False) -> str:
    """A field value as a file wrote it (LaTeX, kept as is) made fit for an export: control
    characters as spaces, an accented letter written the way ``encode_latex`` writes it (biber
    mangles stacked accents ``{\\~{\\^e}}`` and accents on a dotless i, see above), and in LaTeX
    output its non-ASCII characters in LaTeX too (``Müller`` → ``M{\\"u}ller``)."""
    text = latex if latex.isprintable() else as_exported(latex)
    if "\\" in text:
        text = _SPECIAL_GROUP.sub(_one_character, text)
        text = _RAW_DOTLESS.sub(lambda m: "\\" + m[1] + "{" + (m[2] or m[3]) + "}", text)
    if not utf8 and not text.isascii():
        text = "".join(c if c.isascii() else _non_ascii(c) for c in text)
    return text


def balanced(latex: str) -> bool:
    """Whether the braces of ``latex`` balance as BibTeX counts them (escaped ones too)."""
    depth = 0
    for ch in latex:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def as_exported(text: str) -> str:
    """``text`` with control characters as spaces: what an export keeps of it."""
    return "".join(" " if unicodedata.category(c) == "Cc" and c not in "\t\n\r" else c
                   for c in text)


def decode_latex(latex: str) -> str:
    """Text of a LaTeX field value (protecting braces dropped, macros turned into characters,
    unknown macros kept as written). Never raises: what pylatexenc cannot read comes back with
    its braces removed."""
    if _LATEX_SYNTAX_RE.search(latex) is None:
        return latex
    try:
        walker = latexwalker.LatexWalker(latex, latex_context=_walker_context, tolerant_parsing=True)
        nodes, _, _ = walker.get_latex_nodes()
        return _decoder.nodelist_to_text(nodes)
    except Exception:  # noqa: BLE001 - a field of a hostile file must not cost the file
        return _UNESCAPED_BRACE.sub("", latex)


_UNESCAPED_BRACE = re.compile(r"(?<!\\)[{}]")
