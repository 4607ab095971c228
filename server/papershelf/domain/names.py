"""Names of people and organisations by BibTeX's rules: one module for import, export and keys.

A paper keeps each author as text for display, in one of the forms a person writes by hand:

- ``FAMILY Given`` ("ZHANG Wei", "LI Fei-Fei"): a surname in capitals before the given names, as
  East Asian names are often written, is the surname (kept as written: ``ZHANG, Wei`` in BibTeX,
  as "Wei ZHANG" is);
- ``First von Last Jr.`` ("Wei Jiang", "Ludwig van Beethoven", "Martin Luther King Jr."): split as
  BibTeX splits a name without commas — the words from the first lower-case one up to the last
  lower-case one before the final word are the *von* part, the rest before them *First*, the rest
  after them *Last* (the final word always is); a trailing "Jr."/"Sr."/"II"… is the *Jr* part;
- ``von Last, First`` and ``von Last, Jr, First`` ("Den Hertog, M I", "Da Lozzo, Giordano"): the
  surname exactly as given, for names whose split the first form would get wrong;
- one unit: an organisation ("OpenAI", "Qwen Team", "The ATLAS Collaboration", "Meta AI":
  recognised by the form of the name, ``is_organisation``, so "Ai, Tao", "Li Ai" and "Ofir Press"
  stay people) or any name braced whole, as BibTeX writes it ("{European Space Agency}").

``name_parts`` reads a display name into its :class:`NameParts`; ``display_name`` writes parts in
the plainest of those forms that reads back to the same parts; ``parse_bibtex_name`` reads a name
of a BibTeX ``author`` field (LaTeX, braces and all) by BibTeX's own rules (as pybtex does);
``bibtex_name`` writes a display name so that BibTeX reads it back into the same parts. The
exports (BibTeX, CSL-JSON, RIS) and the citation keys (``last_name``) all take their parts here.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import NamedTuple

from .latex import as_exported, decode_latex, encode_latex

SUFFIXES = frozenset({"jr", "jr.", "sr", "sr.", "ii", "iii", "iv"})

# Words that say a name is an institution's, whatever the other words are (compared lower-case).
# Only words that are no one's given name or surname: "Press" is Ofir Press's surname, "Meta",
# "Apple" or "Amazon" someone's given name, so a company's own name says nothing.
_ORG_WORDS = frozenset(
    """team teams lab labs laboratory laboratories university universität université universidad
    università universiteit universitat institute institut instituto istituto institution
    consortium collaboration group project foundation council committee commission association
    society academy agency ministry department organization organisation federation alliance
    initiative contributors developers community center centre network research hospital
    museum library company corporation corp corp. inc inc. ltd ltd. llc gmbh plc""".split()
)
_ORG_PUNCT = str.maketrans(",()", "   ")
_INITIALS = re.compile(r"^(?:[A-Z]\.?){1,3}$")


def _acronym(word: str) -> bool:
    """An all-caps word of two letters or more: ``AI``, ``ATLAS``, ``LIGO``."""
    letters = [c for c in word if c.isalpha()]
    return len(letters) >= 2 and all(c.isupper() for c in letters)


_VOWELS = frozenset("AEIOUY")


def _capitals_surname(word: str) -> bool:
    """A surname written in capitals, as many write theirs ("Wei ZHANG", "Kaiming HE"): letters
    only, with a vowel and a consonant (an acronym such as ``AI``, ``NLP`` or ``ML`` lacks one)."""
    if not word.isalpha():
        return False
    bases = {unicodedata.normalize("NFD", c)[0] for c in word}
    return bool(bases & _VOWELS) and bool(bases - _VOWELS)


def _capitalized(word: str) -> bool:
    """A word written as a given name is: a capital, then lower case, each part of a hyphenated
    one alike ("Wei", "Min-jun", "Fei-Fei")."""
    head, *rest = word.split("-")
    return (head[:1].isupper() and (head[1:].islower() or not head[1:])
            and all(p.islower() or (p[:1].isupper() and p[1:].islower()) for p in rest))


def _family_first(words: list[str]) -> bool:
    """A surname written in capitals before the given names, as Chinese, Korean or Japanese
    names often are ("ZHANG Wei", "LI Fei-Fei", "KIM Min-jun"): the first word in capitals with
    a vowel and a consonant (``_capitals_surname``), every other word written as a given name.
    Two capitals are a surname only consonant first ("LI", "HE", "XU"): "AJ" or "ED" before a
    name are initials ("AJ Smith")."""
    head = words[0]
    if len(words) < 2 or not (head.isupper() and _capitals_surname(head)):
        return False
    if len(head) == 2 and not (head[0] not in _VOWELS and head[1] in _VOWELS):
        return False
    return all(_capitalized(w) for w in words[1:])


class NameParts(NamedTuple):
    """A name's four parts, as text; a name that is one unit (an organisation, a braced name) has
    only ``last``."""

    first: str
    von: str
    last: str
    jr: str

    @property
    def literal(self) -> bool:
        return not (self.first or self.von or self.jr)


def _literal(text: str) -> NameParts:
    return NameParts("", "", text, "")


def is_organisation(name: str) -> bool:
    """A name that is an organisation's, by its form, not by who it might be: one word with no
    given name (``OpenAI``, ``DeepSeek-AI``); ``The …``; an ampersand; a word no person is named
    (``Collaboration``, ``University``, ``Team``, ``Inc.``: ``_ORG_WORDS``); or, in a name
    without a comma (``Last, First`` is a person's), an all-caps acronym (``Meta AI``) other than
    a person's leading initials (``AJ Smith``) or a surname written in capitals after the given
    names (``Wei ZHANG``: a final word with a vowel and a consonant, which ``AI`` or ``NLP`` is
    not) or before them (``ZHANG Wei``, ``_family_first``). So "Meta Kowalski", "Ofir Press",
    "Apple Xu", "Li Ai", "Kaiming HE" and "ZHANG Wei" are people."""
    words = name.translate(_ORG_PUNCT).split()
    if not words:
        return False
    if len(words) == 1:
        return "," not in name and words[0].lower() not in ("others", "and")
    if words[0] == "The" or "&" in name or any(w.lower() in _ORG_WORDS for w in words):
        return True
    if "," in name or _family_first(words):
        return False
    leading = 0  # initials before the surname ("AJ Smith", "J.R.R. Tolkien") are a person's
    while leading < len(words) - 1 and _INITIALS.match(words[leading]):
        leading += 1
    named = words[leading:]
    if _capitals_surname(words[-1]):
        named = words[leading:-1]  # "Wei ZHANG": given names, then the surname in capitals
    return any(_acronym(w) for w in named)


# ---- case, as BibTeX sees it ---------------------------------------------------------------


def _word_case(word: str) -> str | None:
    """"lower", "upper" or None: the case of a display word as BibTeX will see it once written,
    in LaTeX and in UTF-8 alike (a word starting with "º", "±" or "{" has none)."""
    first = word[:1]
    if first.isascii() and first.isalpha():  # the common case, and the same in both forms
        return "lower" if first.islower() else "upper"
    case = _latex_case(encode_latex(word))
    return case if case == _latex_case(encode_latex(word, utf8=True)) else None


# Special characters whose case is their control sequence's (BibTeX's own list)
_SPECIAL_LETTERS = {"i": "lower", "j": "lower", "oe": "lower", "ae": "lower", "aa": "lower",
                    "o": "lower", "l": "lower", "ss": "lower", "OE": "upper", "AE": "upper",
                    "AA": "upper", "O": "upper", "L": "upper"}
_CONTROL_WORD = re.compile(r"[A-Za-z]+")


def _special_case(inner: str) -> str | None:
    """The case of a BibTeX special character ``{\\…}`` (``inner``: what follows the backslash):
    the letter's own for ``{\\l}``, ``{\\OE}``…, else the first letter after its control
    sequence."""
    word = _CONTROL_WORD.match(inner)
    if word and word.group() in _SPECIAL_LETTERS:
        return _SPECIAL_LETTERS[word.group()]
    control = True
    for ch in inner:
        if control:
            control = ch.isalpha()
        elif ch.isalpha():
            return "lower" if ch.islower() else "upper"
    return None


def _latex_case(token: str) -> str | None:
    """The case of a LaTeX word as BibTeX (and pybtex) decide it: its first letter outside
    braces, or the letter of a special character ``{\\"u}``; braced groups have none."""
    if not token:
        return None
    if token[0].isupper():
        return "upper"
    if token[0].islower():
        return "lower"
    depth, i = 0, 0
    while i < len(token):
        ch = token[i]
        if ch == "{":
            if depth == 0 and token[i + 1:i + 2] == "\\":
                end = _closing_brace(token, i)
                return _special_case(token[i + 2:end])
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == "\\":
            i += 2
            continue
        elif depth == 0 and ch.isalpha():
            return "lower" if ch.islower() else "upper"
        i += 1
    return None


def _closing_brace(text: str, start: int) -> int:
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    return len(text)


# ---- the split, shared by both readers -----------------------------------------------------


def _von_last(words: list[str], case) -> tuple[list[str], list[str]]:
    """``von Last`` words split: von runs up to the last lower-case word before the final one."""
    end = 0
    for i in range(len(words) - 1):
        if case(words[i]) == "lower":
            end = i + 1
    return words[:end], words[end:]


def _first_von_last(words: list[str], case) -> tuple[list[str], list[str], list[str]]:
    """``First von Last`` words split (no commas): First runs up to the first lower-case word."""
    start = next((i for i, w in enumerate(words) if case(w) == "lower"), len(words))
    if start == len(words):  # no von: the final word is the last name
        start = len(words) - 1
    von, last = _von_last(words[start:], case)
    return words[:start], von, last


def _parts(first: list[str], von: list[str], last: list[str], jr: list[str], text) -> NameParts:
    return NameParts(*(" ".join(text(w) for w in ws) for ws in (first, von, last, jr)))


# ---- display names -------------------------------------------------------------------------


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
    return depth == 0


@lru_cache(maxsize=1024)  # bounded: authors recur across a library; memory stays flat
def name_parts(name: str) -> NameParts | None:
    """The parts of a display name (see the module's docstring); None for a blank one."""
    name = " ".join(name.split())
    if not name:
        return None
    if _whole_group(name) and name[1:-1].strip():
        return _literal(" ".join(name[1:-1].split()))
    lowered = name.lower().translate(_ORG_PUNCT).split()
    if "and" in lowered or lowered == ["others"] or is_organisation(name):
        return _literal(name)
    if "," in name:
        pieces = [p.strip() for p in name.split(",")]
        if len(pieces) > 3 or not all(pieces):
            return _literal(name)
        von, last = _von_last(pieces[0].split(), _word_case)
        jr = pieces[1].split() if len(pieces) == 3 else []
        return _parts(pieces[-1].split(), von, last, jr, str)
    words = name.split()
    if _family_first(words):  # "ZHANG Wei": the surname first, in capitals
        return NameParts(" ".join(words[1:]), "", words[0], "")
    jr = [words.pop()] if len(words) > 2 and words[-1].lower() in SUFFIXES else []
    first, von, last = _first_von_last(words, _word_case)
    return _parts(first, von, last, jr, str)


def display_name(parts: NameParts) -> str:
    """The plainest display form of ``parts`` that ``name_parts`` reads back into them."""
    first, von, last, jr = parts
    if parts.literal:
        if name_parts(last) == parts or "{" in last or "}" in last:
            return last
        return "{" + last + "}"
    natural = " ".join(p for p in (first, von, last, jr) if p)
    if name_parts(natural) == parts:
        return natural
    comma = " ".join(p for p in (von, last) if p)
    if jr:
        comma += ", " + jr + ","
        return comma + (" " + first if first else "")
    return comma + (", " + first if first else "")


def name_text(name: str) -> str:
    """A display name as plain text: a name braced whole loses its braces."""
    parts = name_parts(name)
    if parts is None:
        return ""
    return parts.last if parts.literal else " ".join(name.split())


def last_name(name: str) -> str:
    """The surname of a display name, with its von part (an organisation's whole name): what a
    citation key starts with."""
    parts = name_parts(name)
    if parts is None:
        return ""
    return " ".join(p for p in (parts.von, parts.last) if p)


# ---- BibTeX --------------------------------------------------------------------------------


def _tokens(raw: str, separators: str) -> list[str]:
    """``raw`` LaTeX split at the characters of ``separators`` outside braces (``~`` only when
    not escaped; ``\\ `` is a space)."""
    out, word, depth, i = [], [], 0, 0
    while i < len(raw):
        ch = raw[i]
        if ch == "\\" and i + 1 < len(raw):
            if raw[i + 1] == " " and depth == 0 and " " in separators:
                out.append("".join(word))
                word = []
            else:
                word.append(raw[i:i + 2])
            i += 2
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        if depth == 0 and (ch in separators or (ch.isspace() and " " in separators)):
            out.append("".join(word))
            word = []
        else:
            word.append(ch)
        i += 1
    out.append("".join(word))
    return out


def parse_bibtex_name(raw: str) -> NameParts | None:
    """One name of a BibTeX name list (LaTeX) into its parts (decoded text), by BibTeX's rules."""
    raw = raw.strip()
    if not raw:
        return None
    if _whole_group(raw):
        text = " ".join(decode_latex(raw[1:-1]).split())
        return _literal(text) if text else None
    pieces = [p.strip() for p in _tokens(raw, ",")]
    if len(pieces) > 3:  # BibTeX's "too many commas": the rest is the first name
        pieces = [pieces[0], pieces[1], ", ".join(pieces[2:])]

    def words(piece: str) -> list[str]:
        return [w for w in _tokens(piece, " ~") if w]

    if len(pieces) == 1:
        first, von, last = _first_von_last(words(pieces[0]), _latex_case)
        jr = []
    else:
        von, last = _von_last(words(pieces[0]), _latex_case)
        jr = words(pieces[1]) if len(pieces) == 3 else []
        first = words(pieces[-1])
    parts = _parts(first, von, last, jr, lambda w: " ".join(decode_latex(w).split()))
    if not parts.last:
        text = " ".join(decode_latex(raw).split())
        return _literal(text) if text else None
    return parts


def _encode_word(word: str, utf8: bool) -> str:
    """One word of a name in LaTeX. A word that stays UTF-8 in LaTeX output (CJK has no LaTeX
    macro) is made one BibTeX "special character", ``{\\relax 山田}``: styles that cut names to
    initials or to three-letter labels (abbrv, alpha) would otherwise cut a UTF-8 sequence in half.
    A comma, and the word "and", are braced: BibTeX would read them as separators."""
    encoded = encode_latex(word, utf8=utf8)
    if "," in encoded:
        encoded = encoded.replace(",", "{,}")
    if encoded.lower() == "and":
        return "{" + encoded + "}"
    if not utf8 and not encoded.isascii():
        return "{\\relax " + encoded + "}"
    return encoded


def _caseless(word: str) -> str:
    return "{{}" + word + "}" if word.startswith("\\") else "{" + word + "}"


def format_bibtex_name(parts: NameParts, utf8: bool = False) -> str:
    """``parts`` as BibTeX writes a name, so that BibTeX reads the same parts back."""
    if parts.literal:
        words = parts.last.split()
        if not words:
            return "{}"
        if words[0][0] in "{}":
            # biber takes a literal brace for the name's initial and writes it bare into the
            # .bbl, which then does not compile; "\relax" first gives it a harmless one
            return "{\\relax " + encode_latex(" ".join(words), utf8=utf8) + "}"
        if len(words) == 1 and words[0].lower() not in ("and", "others"):
            # one unit however BibTeX reads it ("{OpenAI}"); a word that stays UTF-8 is one
            # special character already
            word = _encode_word(words[0], utf8)
            return word if word.startswith("{\\relax ") else "{" + word + "}"
        return "{" + encode_latex(" ".join(words), utf8=utf8) + "}"
    von = [_encode_word(w, utf8) for w in parts.von.split()]
    last = [_encode_word(w, utf8) for w in parts.last.split()]
    # BibTeX would take a lower-case word before the final one for a von part: brace it (with
    # an empty group first when it starts with a macro: ``{\\&x}`` would be a special character).
    last = [_caseless(w) if i < len(last) - 1 and _latex_case(w) == "lower" else w
            for i, w in enumerate(last)]
    head = " ".join(von + last)
    first = " ".join(_encode_word(w, utf8) for w in parts.first.split())
    if parts.jr:
        jr = " ".join(_encode_word(w, utf8) for w in parts.jr.split())
        return f"{head}, {jr}, {first}"
    return f"{head}, {first}" if first else head


_NOT_PLAIN = frozenset(",()&")


def _plain_person(name: str, words: list[str]) -> bool:
    """Two or three words each written as a given name is, one capital then lower case ("Wei
    Jiang", "José García", "Zoë Yılmaz42"): a person whose surname is the final word (no
    acronym, no von, no jr; no word of an institution's, no "and", no comma, bracket or
    ampersand)."""
    return (1 < len(words) < 4 and words[0] != "The"
            and all(w[:1].isupper() and w[1:].islower() and w.lower() not in _ORG_WORDS
                    and w.lower() != "and" for w in words)
            and words[-1].lower() not in SUFFIXES and _NOT_PLAIN.isdisjoint(name))


@lru_cache(maxsize=2048)  # bounded: authors recur across a library; memory stays flat
def bibtex_name(name: str, utf8: bool = False) -> str:
    """One display name as it goes into a BibTeX ``author`` list (``{}`` for a blank one)."""
    if not name.isprintable():
        name = as_exported(name)  # control characters are spaces in an export
    words = name.split()
    if _plain_person(name, words):
        # the common case: ``Last, First``, each word encoded as ``format_bibtex_name`` does
        # (an export spends a good part of its time on names; the general way below gives the
        # same: ``name_parts`` finds no von part, since no word is lower case, and no
        # organisation)
        if name.isascii() and encode_latex(name) is name:
            return f"{words[-1]}, {' '.join(words[:-1])}"
        return (_encode_word(words[-1], utf8) + ", "
                + " ".join([_encode_word(w, utf8) for w in words[:-1]]))
    parts = name_parts(name)
    return "{}" if parts is None else format_bibtex_name(parts, utf8)


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


def parse_bibtex_names(value: str) -> tuple[list[str], int]:
    """Display names of a BibTeX name list and the "others" count (1 when it ends in
    ``and others``)."""
    value = " ".join(value.split())
    if not value:
        return [], 0
    names, more = [], 0
    for raw in split_at_depth0(value, _AUTHOR_SEP):
        raw = raw.strip()
        if raw.lower() == "others":
            more = 1
            continue
        parts = parse_bibtex_name(raw)
        if parts is not None:
            names.append(display_name(parts))
    return names, more


def bibtex_names(names, more: int = 0, utf8: bool = False) -> str | None:
    """A BibTeX name list: ``Last, First and …``, ending in ``and others`` when ``more``."""
    written = [bibtex_name(n, utf8) for n in names]
    if "{}" in written:  # blank names
        written = [n for n in written if n != "{}"]
    if more:
        written.append("others")
    return " and ".join(written) if written else None
