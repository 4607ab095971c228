"""Person and organisation names: display form ("First Last") to BibTeX form and back.

Display names are what the page showed. BibTeX wants ``Last, First``; names it would misparse
(organisations, anything with a comma or a stray ``and``) are braced whole so BibTeX takes them
as one last name and prints them as written.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .latex import as_exported, decode_latex, encode_latex

# lower-case particles that belong to the last name ("Ludwig van Beethoven" -> "van Beethoven")
PARTICLES = frozenset(
    "van von der den de del della di da dos das du la le ten ter zu af av".split()
)
SUFFIXES = frozenset({"jr", "jr.", "sr", "sr.", "ii", "iii", "iv"})

_ORG_WORDS = frozenset(
    """team lab labs laboratory laboratories inc inc. ltd ltd. llc corp corp. corporation company
    university institute institution consortium collaboration group project foundation center
    centre council committee organization organisation association society academy research ai
    deepmind openai google meta microsoft anthropic nvidia alibaba deepseek qwen mistral
    bytedance tencent baidu huawei""".split()
)


_ORG_PUNCT = str.maketrans(",()", "   ")


def is_organisation(name: str) -> bool:
    words = name.lower().translate(_ORG_PUNCT).split()
    return len(words) > 4 or (len(words) > 1 and not _ORG_WORDS.isdisjoint(words))


def split_name(name: str) -> tuple[str, str, str]:
    """``(first, last, suffix)`` of a personal display name."""
    words = name.split()
    suffix = ""
    if len(words) > 2 and words[-1].lower() in SUFFIXES:
        suffix = words.pop()
    if len(words) <= 1:
        return "", " ".join(words), suffix
    i = len(words) - 1  # the last word is always part of the last name
    while i > 1 and words[i - 1] in PARTICLES:
        i -= 1
    if words[0] in PARTICLES and i == 1:  # "van Gogh": no first name at all
        i = 0
    return " ".join(words[:i]), " ".join(words[i:]), suffix


def last_name(name: str) -> str:
    """The last name of a display name (an organisation's whole name)."""
    if is_organisation(name) or "," in name:
        return name
    return split_name(name)[1]


@lru_cache(maxsize=2048)  # bounded: authors recur across a library; memory stays flat
def bibtex_name(name: str, utf8: bool = False) -> str:
    """One display name as it goes into a BibTeX ``author`` list.

    In LaTeX output a word that stays UTF-8 (CJK has no LaTeX macro) is made one BibTeX "special
    character", ``{\\relax 山田}``: styles that cut names to initials or to three-letter labels
    (abbrv, alpha) would otherwise cut a UTF-8 sequence in half.
    """
    if not name.isprintable():
        name = as_exported(name)  # control characters are spaces in an export
    words = name.split()
    if not words:
        return "{}"
    lowered = name.lower().translate(_ORG_PUNCT).split()
    if (
        len(words) > 4
        or "," in name
        or "and" in lowered
        or lowered == ["others"]
        or (len(words) > 1 and not _ORG_WORDS.isdisjoint(lowered))
    ):
        return "{" + encode_latex(" ".join(words), utf8=utf8) + "}"
    if len(words) == 2 and words[0] not in PARTICLES:  # the common case: "Wei Jiang"
        n_first, n_suffix = 1, 0
    else:
        first, _, suffix = split_name(name)
        n_first, n_suffix = len(first.split()), 1 if suffix else 0
    # one encoding for the whole name; it neither adds nor removes spaces, so words line up
    encoded = encode_latex(" ".join(words), utf8=utf8)
    parts = encoded.split(" ")
    if not utf8 and not encoded.isascii():
        parts = [w if w.isascii() else "{\\relax " + w + "}" for w in parts]
    last = " ".join(parts[n_first:len(parts) - n_suffix])
    if not n_first:
        return last
    first = " ".join(parts[:n_first])
    return f"{last}, {parts[-1]}, {first}" if n_suffix else f"{last}, {first}"


def split_at_depth0(value: str, pattern: re.Pattern) -> list[str]:
    """``value`` split where ``pattern`` matches outside braces."""
    parts, start, depth, pos = [], 0, 0, 0
    n = len(value)
    while pos < n:
        ch = value[pos]
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == "\\":
            pos += 2  # an escaped character is never a separator
            continue
        elif depth == 0:
            m = pattern.match(value, pos)
            if m and m.end() > pos:
                parts.append(value[start:pos])
                start = pos = m.end()
                continue
        pos += 1
    parts.append(value[start:])
    return parts


_AUTHOR_SEP = re.compile(r"\s+and\s+", re.IGNORECASE)
_COMMA = re.compile(r"\s*,\s*")


def _whole_group(s: str) -> bool:
    """True when ``s`` is one brace group ``{...}`` from first to last character."""
    if not (s.startswith("{") and s.endswith("}")):
        return False
    depth = 0
    for i, ch in enumerate(s):
        depth += ch == "{"
        depth -= ch == "}"
        if depth == 0 and i < len(s) - 1:
            return False
    return True


def parse_bibtex_names(value: str) -> tuple[list[str], int]:
    """Display names and the "others" count (1 when the list ends in ``and others``)."""
    value = " ".join(value.split())
    if not value:
        return [], 0
    names, more = [], 0
    for raw in split_at_depth0(value, _AUTHOR_SEP):
        raw = raw.strip()
        if raw.lower() == "others":
            more = 1
            continue
        if _whole_group(raw):
            names.append(decode_latex(raw[1:-1]))
            continue
        parts = [decode_latex(p).strip() for p in split_at_depth0(raw, _COMMA)]
        if len(parts) == 1:
            names.append(parts[0])
        elif len(parts) == 2:
            names.append(" ".join(p for p in (parts[1], parts[0]) if p))
        else:
            names.append(" ".join(p for p in (parts[2], parts[0], parts[1]) if p))
    return names, more
