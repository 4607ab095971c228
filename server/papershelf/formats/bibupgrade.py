"""Surgery on a .bib file the shelf never saw: find its arXiv entries, and rewrite one entry in
place as its published version, leaving every other byte of the file as it was (other entries,
comments, ``@string``s, the entry's key, its other fields and their layout).

``scan(text)`` answers the file's entries (:class:`BibEntry`: type, key, fields with their
spans); ``arxiv_of(entry)`` the arXiv id an entry names (``eprint``, an arXiv ``journal``,
``note``, ``url`` or ``howpublished``) and ``is_preprint(entry)`` whether it is a preprint at all;
``upgrade(text, entry, version)`` the text with that entry rewritten. Pure: text in, text out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from papershelf.domain.identifiers import find_arxiv_id
from papershelf.domain.latex import decode_latex, encode_latex
from papershelf.domain.names import parse_bibtex_names
from papershelf.domain.same_work import is_preprint_venue

_AT = re.compile(r"@\s*([A-Za-z]+)\s*([{(])")
_FIELD = re.compile(r"\s*([A-Za-z][\w:.+-]*)\s*=\s*", re.ASCII)
_SKIP = {"comment", "string", "preamble"}
# fields that only say "this is a preprint": dropped when the entry becomes its version
_PREPRINT_FIELDS = ("journal", "journaltitle", "booktitle", "howpublished", "publisher",
                    "volume", "number", "note", "pages", "type", "institution")
_ARXIV_TEXT = re.compile(r"\barxiv\b|\bcorr\b|arxiv\.org", re.IGNORECASE)


@dataclass
class BibField:
    name: str  # lower case
    value: str  # as written, without its outer braces or quotes
    start: int  # where the field's name starts
    end: int  # just after its value


@dataclass
class BibEntry:
    type: str
    key: str
    start: int  # the "@"
    end: int  # just after the closing brace
    type_span: tuple[int, int]
    fields: list[BibField] = field(default_factory=list)

    def get(self, name: str) -> str | None:
        for f in self.fields:
            if f.name == name:
                return f.value
        return None

    def text(self, name: str) -> str:
        """A field's value as plain text (TeX decoded, whitespace folded)."""
        return " ".join(decode_latex(self.get(name) or "").split())


def _closing(text: str, i: int, close: str) -> int | None:
    """The index of the brace closing the group opened just before ``i``."""
    depth = 1
    opener = "{" if close == "}" else "("
    while i < len(text):
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == "{" or (opener == "(" and c == "("):
            depth += 1
        elif c == "}" or (opener == "(" and c == ")"):
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return None


def _value_end(body: str, i: int) -> tuple[str, int]:
    """A field value starting at ``i``: ``(value without outer delimiters, end)``."""
    parts, start = [], i
    while i < len(body):
        c = body[i]
        if c == "{":
            end = _closing(body, i + 1, "}")
            if end is None:
                return body[i + 1:], len(body)
            parts.append(body[i + 1:end])
            i = end + 1
        elif c == '"':
            j = i + 1
            depth = 0
            while j < len(body) and not (body[j] == '"' and depth == 0):
                depth += {"{": 1, "}": -1}.get(body[j], 0)
                j += 1
            parts.append(body[i + 1:j])
            i = j + 1
        else:
            m = re.compile(r"[^\s,#}]+").match(body, i)
            if not m:
                break
            parts.append(m.group())
            i = m.end()
        m = re.compile(r"\s*#\s*").match(body, i)
        if not m or m.end() == i:
            break
        i = m.end()
    return ("".join(parts) if len(parts) != 1 else parts[0]), i if i > start else start


def scan(text: str) -> list[BibEntry]:
    """The entries of a .bib file, in order (``@comment``, ``@string``, ``@preamble`` left out)."""
    entries, i = [], 0
    while True:
        m = _AT.search(text, i)
        if not m:
            return entries
        line = text[text.rfind("\n", 0, m.start()) + 1:m.start()]
        if line.lstrip().startswith("%"):  # a comment line, as the readers take it
            i = m.end()
            continue
        kind, close = m.group(1).lower(), "}" if m.group(2) == "{" else ")"
        end = _closing(text, m.end(), close)
        if end is None:
            return entries
        i = end + 1
        if kind in _SKIP:
            continue
        body_start = m.end()
        comma = text.find(",", body_start, end)
        key = text[body_start:comma if comma >= 0 else end].strip()
        entry = BibEntry(kind, key, m.start(), end + 1, (m.start(1), m.end(1)))
        j = comma + 1 if comma >= 0 else end
        while j < end:
            fm = _FIELD.match(text, j)
            if not fm:
                nxt = text.find(",", j, end)
                if nxt < 0:
                    break
                j = nxt + 1
                continue
            value, vend = _value_end(text[:end], fm.end())
            entry.fields.append(BibField(fm.group(1).lower(), value, fm.start(1), vend))
            nxt = text.find(",", vend, end)
            j = end if nxt < 0 else nxt + 1
        entries.append(entry)


def arxiv_of(entry: BibEntry) -> str | None:
    """The arXiv id the entry names, or None."""
    eprint = entry.get("eprint")
    prefix = (entry.get("archiveprefix") or entry.get("eprinttype") or "").lower()
    candidates = []
    if eprint and (prefix in ("", "arxiv")):
        candidates.append(eprint if eprint.lower().startswith("arxiv") else f"arXiv:{eprint}")
    for name in ("journal", "journaltitle", "note", "url", "howpublished", "doi", "volume"):
        value = entry.get(name)
        if value and ("arxiv" in value.lower() or name == "url"):
            candidates.append(value)
    for value in candidates:
        found, _ = find_arxiv_id(*re.findall(r"[^\s{}]+", value)) if value else (None, None)
        if found:
            return found
    return None


def is_preprint(entry: BibEntry) -> bool:
    """An arXiv (or CoRR) preprint: it names an arXiv id, or its venue is arXiv."""
    if arxiv_of(entry):
        return True
    venue = " ".join(entry.text(n) for n in ("journal", "journaltitle", "booktitle",
                                             "howpublished", "publisher", "note"))
    return bool(_ARXIV_TEXT.search(venue)) or is_preprint_venue(entry.text("journal"))


def authors(entry: BibEntry) -> list[str]:
    names, _ = parse_bibtex_names(entry.get("author") or "")
    return names


def year(entry: BibEntry) -> int | None:
    m = re.search(r"\d{4}", entry.get("year") or entry.get("date") or "")
    return int(m.group()) if m else None


def _indent(text: str, entry: BibEntry) -> str:
    if not entry.fields:
        return "  "
    first = entry.fields[0].start
    line = text.rfind("\n", entry.start, first)
    return text[line + 1:first] if line >= 0 and not text[line + 1:first].strip() else "  "


def _brace(value: str) -> str:
    return "{" + encode_latex(value) + "}"


def upgraded_fields(version: dict, venue: str = "full") -> list[tuple[str, str]]:
    """The fields an entry gets from a published version, in BibTeX's order."""
    kind = version.get("entry_type") or "inproceedings"
    container = version.get("booktitle") if kind == "inproceedings" else version.get("journal")
    if venue == "short" and version.get("venue"):
        container = version["venue"]
    out = [("booktitle" if kind == "inproceedings" else "journal", container)]
    for name in ("volume", "number", "pages", "publisher", "year", "doi"):
        value = version.get(name)
        if value:
            out.append((name, str(value)))
    return [(n, v) for n, v in out if v]


def _field_value(name: str, value: str) -> str:
    if name == "pages":
        return "{" + "--".join(encode_latex(p.strip()) for p in re.split(r"\u2013|--?", value)) + "}"
    if name == "doi":
        return "{" + value + "}"
    if name in ("booktitle", "journal", "publisher"):
        return "{" + value + "}" if "{" in value or "\\" in value else _brace(value)
    return _brace(value)


def upgrade(text: str, entry: BibEntry, version: dict, venue: str = "full") -> str:
    """``text`` with ``entry`` rewritten as ``version``: its type, venue fields replaced, the
    fields that only said "preprint" dropped, the rest (key, eprint, url, every other field,
    the layout of what stays) as written."""
    new = dict(upgraded_fields(version, venue))
    kind = version.get("entry_type") or "inproceedings"
    pieces, at = [], entry.start
    pieces.append(text[at:entry.type_span[0]])
    pieces.append(kind)
    at = entry.type_span[1]
    written = set()
    indent = _indent(text, entry)
    for f in entry.fields:
        if f.name in new:
            pieces.append(text[at:f.start])
            pieces.append(f"{text[f.start:f.start + len(f.name)]} = {_field_value(f.name, new[f.name])}")
            written.add(f.name)
            at = f.end
        elif f.name in _PREPRINT_FIELDS and (f.name != "note" or _ARXIV_TEXT.search(f.value)):
            # drop the field with the separator before it
            cut = text.rfind(",", at, f.start)
            pieces.append(text[at:cut if cut >= 0 else f.start])
            at = f.end
    last = entry.fields[-1].end if entry.fields else entry.end - 1
    rest = [(n, v) for n, v in new.items() if n not in written]
    if at <= last:
        pieces.append(text[at:last])
        at = last
    for name, value in rest:
        pieces.append(f",\n{indent}{name} = {_field_value(name, value)}")
    pieces.append(text[at:entry.end])
    return text[:entry.start] + "".join(pieces) + text[entry.end:]
