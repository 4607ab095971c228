"""Comparing a bibliography before and after a round trip through papershelf, with readers that
are not papershelf's: pybtex reads both sides (its LaTeX decoded by latexcodec, which pybtex
brings), bibtexparser checks that the export has no block it cannot read.

A field *matters* when a style can print it or a tool reads it: every field of the entry but
those papershelf turns into something else on purpose (``annote``, which becomes a note and
comes back as ``annote``; ``keywords``, compared as a set of tags). Values are compared as text:
LaTeX decoded, braces and spacing dropped; names part by part (first, von, last, jr); dates as
year and month; DOIs without case; eprints without their version.
"""

from __future__ import annotations

import codecs
import re
import unicodedata
from dataclasses import dataclass, field

import bibtexparser
import latexcodec  # noqa: F401 - registers the "ulatex" codec
import pybtex.database
import pybtex.errors

# fields compared in a way of their own, or not a field of the work at all
_SPECIAL = {"author", "editor", "year", "month", "day", "date", "keywords", "annote",
            "annotation", "doi", "eprint", "archiveprefix", "eprinttype", "primaryclass",
            "eprintclass", "url"}
_ALIASES = {"journaltitle": "journal", "location": "address"}
_MONTHS = {m: i + 1 for i, m in enumerate(
    "jan feb mar apr may jun jul aug sep oct nov dec".split())}


# LaTeX's names of typographic characters (textcomp), which latexcodec does not read
_TEXT_MACROS = {"textquotedblleft": "“", "textquotedblright": "”", "textquoteleft": "‘",
                "textquoteright": "’", "textellipsis": "…", "textendash": "–",
                "textemdash": "—", "textbullet": "•", "textdagger": "†"}
_TEXT_MACRO = re.compile(r"\\(" + "|".join(_TEXT_MACROS) + r")\b\s*(?:\{\})?")


# TeX's accents as combining characters, for the accents latexcodec leaves (stacked ones)
_COMBINING = {"~": "\u0303", "^": "\u0302", '"': "\u0308", "'": "\u0301", "`": "\u0300",
              "=": "\u0304", ".": "\u0307", "u": "\u0306", "v": "\u030c", "H": "\u030b",
              "c": "\u0327", "d": "\u0323", "b": "\u0331", "k": "\u0328", "r": "\u030a"}
_ACCENT = re.compile(r"\\([~^\"'`=.]|[uvHcdbkr](?![A-Za-z]))\s*([^\s\\])")


def _text(value: str) -> str:
    value = _TEXT_MACRO.sub(lambda m: _TEXT_MACROS[m[1]], value)
    value = re.sub(r"\\relax\b\s*", "", value)  # TeX's no-op
    for _ in range(3):  # (latexcodec decodes one level of nested accents at a time)
        try:
            value = codecs.decode(value, "ulatex")
        except Exception:  # noqa: BLE001 - a value latexcodec cannot read is compared as written
            break
        value = value.replace("{", "").replace("}", "")
    value = _ACCENT.sub(lambda m: m[2] + _COMBINING[m[1]], value)
    value = unicodedata.normalize("NFC", value.replace("~", " "))
    return " ".join(value.split())


def _person(person) -> tuple:
    return tuple(_text(" ".join(part)) for part in (
        person.first_names + person.middle_names, person.prelast_names, person.last_names,
        person.lineage_names))


def _date(fields: dict) -> tuple | None:
    if "date" in fields:
        m = re.match(r"\s*(\d{4})(?:-(\d{2}))?", _text(fields["date"]))
        if m:
            month = int(m[2]) if m[2] and 1 <= int(m[2]) <= 12 else None
            return int(m[1]), month
    m = re.search(r"(?<!\d)(\d{4})(?!\d)", _text(fields.get("year", "")))
    if not m:
        return None
    month = _text(fields.get("month", "")).lower()
    word = re.match(r"[a-z]+|\d+", month)
    number = None
    if word:
        number = int(word[0]) if word[0].isdigit() else _MONTHS.get(word[0][:3])
    return int(m[1]), number if number and 1 <= number <= 12 else None


@dataclass
class Entry:
    key: str
    type: str
    fields: dict[str, str]  # lower-case names, as pybtex gives them (macros resolved)
    persons: dict[str, list[tuple]] = field(default_factory=dict)

    def matters(self) -> dict[str, object]:
        """The entry's fields that matter, each as it is compared."""
        out: dict[str, object] = {"@type": self.type.lower()}
        for role in ("author", "editor"):
            if self.persons.get(role):
                out[role] = self.persons[role]
        date = _date(self.fields)
        if date:
            out["@date"] = date
        for name, value in self.fields.items():
            if name in _SPECIAL:
                continue
            if _text(value):
                out[_ALIASES.get(name, name)] = _text(value)
        if self.fields.get("keywords"):
            out["keywords"] = sorted({_text(k).lower() for k in
                                      re.split(r"[,;]", self.fields["keywords"]) if _text(k)})
        if self.fields.get("doi"):
            out["doi"] = re.sub(r"^(https?://[^/]*doi[^/]*/|doi:)", "", _text(self.fields["doi"]),
                                flags=re.I).lower()
        if self.fields.get("eprint"):
            out["eprint"] = re.sub(r"^arxiv:|v\d+$", "", _text(self.fields["eprint"]), flags=re.I)
        if self.fields.get("url"):
            out["url"] = _text(self.fields["url"])
        return out


def _from_pybtex(entry, key: str) -> Entry:
    persons = {role.lower(): [_person(p) for p in people] for role, people in entry.persons.items()}
    return Entry(key, entry.type, {k.lower(): str(v) for k, v in entry.fields.items()}, persons)


_ENTRY_START = re.compile(r"^[ \t]*@", re.MULTILINE)


def read_input(text: str) -> dict[str, Entry]:
    """The entries of a hand-kept file as pybtex reads them, entry by entry (a broken entry
    costs only itself here too), ``@string`` macros known to all; an entry pybtex cannot read
    at all is left out."""
    pybtex.errors.set_strict_mode(False)
    chunks = [text[m.start():] for m in _ENTRY_START.finditer(text)]
    chunks = [c[:n.start()] if (n := _ENTRY_START.search(c, 1)) else c for c in chunks]
    strings = "".join(c for c in chunks if re.match(r"\s*@string", c, re.I))
    out: dict[str, Entry] = {}
    for chunk in chunks:
        if re.match(r"\s*@(string|preamble|comment)\b", chunk, re.I):
            continue
        try:
            data = pybtex.database.parse_string(strings + chunk, "bibtex")
        except Exception:  # noqa: BLE001 - an entry pybtex cannot read is not an input
            continue
        for key, entry in data.entries.items():
            if key not in out and "title" in {k.lower() for k in entry.fields}:
                out[key] = _from_pybtex(entry, key)
    return out


def read_export(text: str) -> dict[str, Entry]:
    """An export as pybtex reads it in strict mode; bibtexparser must read every block too."""
    library = bibtexparser.parse_string(text)
    assert library.failed_blocks == [], library.failed_blocks
    pybtex.errors.set_strict_mode(True)
    try:
        data = pybtex.database.parse_string(text, "bibtex")
    finally:
        pybtex.errors.set_strict_mode(False)
    assert len(data.entries) == len(library.entries)
    return {key: _from_pybtex(entry, key) for key, entry in data.entries.items()}


@dataclass
class RoundTrip:
    entries_in: int = 0
    imported: int = 0
    changed: list[tuple[str, str, object, object]] = field(default_factory=list)
    added: list[tuple[str, str]] = field(default_factory=list)


def compare(before: dict[str, Entry], after: dict[str, Entry], renamed: dict[str, str]) -> RoundTrip:
    """Entry by entry: which fields that matter changed (or went missing), which were added."""
    result = RoundTrip(entries_in=len(before))
    for key, entry in before.items():
        out = after.get(renamed.get(key, key))
        if out is None:
            continue
        result.imported += 1
        old, new = entry.matters(), out.matters()
        for name, value in old.items():
            if new.get(name) != value:
                result.changed.append((key, name, value, new.get(name)))
        for name in ("annote", "annotation"):  # a note comes back in the one annote field
            if _text(entry.fields.get(name, "")) not in _text(out.fields.get("annote", "")):
                result.changed.append((key, name, entry.fields[name], out.fields.get("annote")))
        result.added += [(key, name) for name in new if name not in old]
    return result
