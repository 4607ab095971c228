"""The BibTeX and BibLaTeX reader.

bibtexparser 2's splitter underneath, then BibTeX's own rules: ``@string`` macros, ``#``
concatenation, the first of a repeated field. Entries map back to records and everything else is
kept: an entry that does not parse is reported and the rest of the file read; a field it cannot
make sense of (a DOI that is none, a season for a month) stays in the record's ``extra`` as
written, with the other fields it does not model (``note``, ``isbn``, ``address``, ``file``…),
and is exported back. A modelled field the file wrote in a form the writer would not reproduce (a
title with a macro of the user's, ``$\\PQb$``; braces protecting case; a surname in braces) is
kept in ``verbatim`` with a fingerprint of the values it was read as (``bibtex_write``), and
written back as it was for as long as the paper keeps those values. ``annote`` becomes one note,
so that export → import → export gives the same bytes.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator

from papershelf.domain.identifiers import (
    find_arxiv_id,
    is_arxiv_doi,
    is_arxiv_url,
    normalize_doi,
    normalize_url,
)
from papershelf.domain.latex import balanced, decode_latex
from papershelf.domain.names import parse_bibtex_names, split_at_depth0
from papershelf.domain.record import new_record
from papershelf.domain.validation import FIELD_NAME

from . import FormatError
from .bibtex_write import (
    CANONICAL,
    MONTHS,
    SOURCES,
    derived_type,
    entry_fields,
    fingerprint,
)
from .edtf import day_of, more_than_a_date, read_edtf

_MONTH_NAMES = {m: i + 1 for i, m in enumerate(MONTHS)}
_MONTH_NAMES.update({
    "january": 1, "february": 2, "march": 3, "april": 4, "june": 6, "july": 7, "august": 8,
    "september": 9, "october": 10, "november": 11, "december": 12, "sept": 9,
})
_EDTF = re.compile(r"^\s*(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?")
_YEAR = re.compile(r"(?<!\d)(\d{4})(?!\d)")
_MONTH_WORD = re.compile(r"[a-z]+|\d+")
_KEYWORD_SEP = re.compile(r"\s*[,;]\s*")
_NOTE_FIELDS = ("annote", "annotation")
_URL_MACRO = re.compile(r"^\\(?:url|path|href)\s*\{(.*)\}$", re.DOTALL)
_SCHEMELESS = re.compile(r"^(?:www\.|[a-z0-9-]+(?:\.[a-z0-9-]+)+/)", re.IGNORECASE)  # doi.acm.org/…
_ESCAPED = re.compile(r"\\([_%&#$~])(?:\{\})?")


def _text(latex: str) -> str:
    """A field's text: its LaTeX decoded, leading and trailing space off."""
    return decode_latex(latex).strip()


def _day_of(year: int, month: int | None, day: str | None) -> int | None:
    return day_of(year, month, int(day)) if day and day.isdigit() else None


def _month(raw: str) -> int | None:
    """The (first) month a ``month`` field names: ``jan``, ``January``, ``1``, ``May--June``;
    None for a season or anything else."""
    word = _MONTH_WORD.search(_text(raw).lower())
    if not word:
        return None
    value = word.group()
    if value.isdigit():
        return int(value) if 1 <= int(value) <= 12 else None
    return _MONTH_NAMES.get(value) or _MONTH_NAMES.get(value[:3]) if len(value) >= 3 else None


def _published(fields: dict[str, str]) -> tuple[str | None, str | None, set[str], str | None]:
    """``(date, precision, fields read, the date as written when it says more than the store
    holds)`` of an entry: BibLaTeX's ``date`` (EDTF: a season or an interval gives its year, a
    year before the common era none) or ``year``/``month``/``day``; what does not say a date (a
    season in ``month``, "in press") is not read, and stays as written."""
    if "date" in fields:
        text = " ".join(fields["date"].replace("{", "").replace("}", "").split())  # "~" is EDTF's
        edtf = read_edtf(text)
        if edtf is not None and edtf.published is None:
            return None, None, {"date"}, text
        # a year (month, day) beside the date says the same, for BibTeX's styles
        beside = {"date"} | ({"year", "month", "day"} & set(fields))
        if edtf is not None:
            return edtf.published, edtf.precision, beside, None if edtf.exact else text
        m = _EDTF.match(text)  # a date with more after it (a time of day)
        if m:
            year = int(m[1])
            month = int(m[2]) if m[2] and 1 <= int(m[2]) <= 12 else None
            day = _day_of(year, month, m[3])
            precision = None if day else "month" if month else "year"
            return f"{year:04d}-{month or 1:02d}-{day or 1:02d}", precision, beside, None
    m = _YEAR.search(_text(fields.get("year", "")))
    if not m:
        return None, None, set(), None
    year, used = int(m[1]), {"year"}
    month = _month(fields["month"]) if "month" in fields else None
    if month:
        used.add("month")
    day = _day_of(year, month, _text(fields.get("day", "")))
    if day:
        used.add("day")
    precision = None if day else "month" if month else "year"
    return f"{year:04d}-{month or 1:02d}-{day or 1:02d}", precision, used, None


def _identifier_text(raw: str) -> str:
    """A DOI's or URL's text as files write it: ``\\url{…}`` unwrapped, ``\\_`` unescaped."""
    text = " ".join(raw.split())
    m = _URL_MACRO.match(text)
    if m:
        text = m[1]
    text = _ESCAPED.sub(r"\1", text).replace("{}", "").strip()
    while len(text) > 1 and text[0] == "{" and text[-1] == "}" and balanced(text[1:-1]):
        text = text[1:-1].strip()  # {10.1016/j.x}: braces that protect nothing
    return text


def _first_valid(text: str, normalize) -> str | None:
    for candidate in [text, *re.split(r"[\s,;]+", text)]:
        try:
            return normalize(candidate)
        except ValueError:
            continue
    return None


class _Entry:
    """One entry being read: its fields (lower-case names, values as written), what it became,
    and what could not be read."""

    def __init__(self, key: str, kind: str, fields: dict[str, str]):
        self.key, self.kind, self.fields = key, kind, fields
        self.used: set[str] = set()
        self.problems: dict[str, list[str]] = {}

    def take(self, name: str) -> str:
        self.used.add(name)
        return self.fields.get(name, "")

    def problem(self, name: str, message: str) -> None:
        self.problems.setdefault(name, []).append(message)


def _arxiv(entry: _Entry) -> tuple[str | None, int | None]:
    fields = entry.fields
    prefix = _text(fields.get("archiveprefix") or fields.get("eprinttype") or "").lower()
    eprint = fields.get("eprint", "") if prefix in ("", "arxiv") else ""
    found = find_arxiv_id(_identifier_text(eprint), _identifier_text(fields.get("url", "")),
                          *_dois(entry))
    if found[0] and eprint:
        entry.used.update(n for n in ("eprint", "archiveprefix", "eprinttype") if n in fields)
    return found


def _identifier(entry: _Entry, name: str, normalize, of_arxiv, what: str, arxiv_id) -> str | None:
    """The entry's DOI or URL, normalized; None when it is arXiv's own (the id implies it) or
    is none (then it stays as written, and is reported)."""
    if name not in entry.fields:
        return None
    text = _identifier_text(entry.fields[name])
    value = _first_valid(text, normalize)
    if value is None and name == "url" and _SCHEMELESS.match(text):
        value = _first_valid("http://" + text, normalize)  # as browsers read it
    if value or (arxiv_id and of_arxiv(text)):
        entry.used.add(name)
    else:
        entry.problem(name, f"not {what}: {text[:200]!r} (kept as written)")
    if value and of_arxiv(value) and (arxiv_id or name == "doi"):
        return None  # arXiv's DOI and page are implied by the id
    return value


def _dois(entry: _Entry) -> list[str]:
    """The DOIs the entry gives, by the one DOI rule: its ``doi`` field, then its ``url`` when
    that is a resolver's address (``http://dx.doi.org/10.…``, ``http://doi.acm.org/10.…``)."""
    found = []
    for name in ("doi", "url"):
        if name in entry.fields:
            doi = _first_valid(_identifier_text(entry.fields[name]), normalize_doi)
            if doi:
                found.append(doi)
    return found


def _record(entry: _Entry) -> dict:
    fields, take = entry.fields, entry.take
    authors, more = parse_bibtex_names(take("author")) if "author" in fields else ([], 0)
    editors = parse_bibtex_names(take("editor"))[0] if "editor" in fields else []
    arxiv_id, version = _arxiv(entry)
    doi = _identifier(entry, "doi", normalize_doi, is_arxiv_doi, "a DOI", arxiv_id)
    url = _identifier(entry, "url", normalize_url, is_arxiv_url, "an http(s) or ftp URL", arxiv_id)
    if doi is None and not arxiv_id:
        doi = next((d for d in _dois(entry) if not is_arxiv_doi(d)), None)  # a resolver's URL
    published, precision, dated, as_written = _published(fields)
    entry.used |= dated
    if as_written is not None:
        entry.problem("date", more_than_a_date(as_written, published))
    for name in ("year", "month", "day", "date"):
        if name in fields and name not in dated:
            entry.problem(name, f"not a date: {_text(fields[name])[:100]!r} (kept as written)")
    category = fields.get("primaryclass") or fields.get("eprintclass")
    if category and arxiv_id:
        entry.used.update({"primaryclass", "eprintclass"} & set(fields))
    tags = [
        _text(t[1:-1] if t.startswith("{") and t.endswith("}") else t)
        for t in split_at_depth0(take("keywords"), _KEYWORD_SEP)
    ]
    notes = [{"body": decode_latex(take(name)), "created_at": None, "updated_at": None}
             for name in _NOTE_FIELDS if fields.get(name, "").strip()]
    venue = {name: _text(take(name)) or None
             for name in ("booktitle", "volume", "number", "pages", "publisher", "edition")}
    journal = fields.get("journal") or fields.get("journaltitle")
    entry.used.update({"journal", "journaltitle"} & set(fields))
    return new_record(
        citation_key=entry.key or None,
        entry_type=entry.kind,
        title=decode_latex(take("title")),
        authors=authors,
        authors_more=more,
        editors=editors,
        abstract=decode_latex(take("abstract")),
        published=published,
        published_precision=precision if published else None,
        arxiv_id=arxiv_id,
        arxiv_version=version,
        doi=doi,
        url=url,
        primary_category=_text(category) if category and arxiv_id else None,
        journal=_text(journal) if journal else None,
        tags=[t for t in tags if t],
        notes=notes,
        **venue,
    )


def _as_written(entry: _Entry, record: dict) -> tuple[dict, dict]:
    """``(extra, verbatim)``: the entry's fields the record does not hold, as written, and those
    it holds that the writers would write otherwise, with their fingerprints."""
    extra = {name: value for name, value in entry.fields.items()
             if name not in entry.used and value.strip()}
    written: dict[str, set[str]] = {}
    for biblatex in (False, True):
        _, _, fields = entry_fields(record, biblatex=biblatex, abstract=True,
                                    notes_field="annote", utf8=False)
        for name, value in fields:
            value = value[1:-1] if value.startswith("{") else value
            written.setdefault(CANONICAL.get(name.lower(), name.lower()), set()).add(
                " ".join(value.split()))
    verbatim = {}
    for name in sorted(entry.used & set(entry.fields)):
        canonical = CANONICAL.get(name, name)
        if canonical not in SOURCES or canonical in verbatim:
            continue
        raw = entry.fields[name]
        if raw.strip() and " ".join(raw.split()) not in written.get(canonical, ()):
            verbatim[canonical] = [raw, fingerprint(record, canonical)]
    return extra, verbatim


_parser_log = logging.getLogger("bibtexparser")
_quiet = logging.NullHandler()
_MONTH_MACROS = {m: m for m in MONTHS}


def _at_top(raw: str) -> Iterator[tuple[int, str, bool]]:
    """``(index, character, outside any value)`` for each character of ``raw``: outside braces
    and quotes, where BibTeX's ``#`` and ``,`` separate."""
    depth, quoted = 0, False
    for i, ch in enumerate(raw):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == '"' and depth == 0:
            quoted = not quoted
        yield i, ch, depth == 0 and not quoted and ch not in '{}"'


def _split_concatenation(raw: str) -> list[str]:
    """A field's value split at BibTeX's ``#`` (outside braces and quotes)."""
    parts, start = [], 0
    for i, ch, top in _at_top(raw):
        if ch == "#" and top:
            parts.append(raw[start:i])
            start = i + 1
    parts.append(raw[start:])
    return [p.strip() for p in parts]


MAX_VALUE = 200_000  # characters of one value once macros are expanded


_TOO_LONG_MACRO = object()  # a macro defined past MAX_VALUE: every use of it is too long


class _TooLong(ValueError):
    """A value whose macros expand beyond ``MAX_VALUE`` (``@string{b = a # a}`` doubles ``a``:
    thirty such lines make a gigabyte)."""


def _resolve(raw: str, strings: dict[str, str], undefined: list[str]) -> str:
    """A field's value as BibTeX reads it (enclosing braces or quotes off, ``@string`` macros
    and month names resolved, ``#`` joined); an undefined macro is kept as its name. Raises
    ``_TooLong`` past ``MAX_VALUE`` characters."""
    out = []
    size = 0
    for part in _split_concatenation(raw.strip()):
        known = strings.get(part.lower(), part)
        if known is _TOO_LONG_MACRO:
            raise _TooLong(part)
        size += len(known)
        if size > MAX_VALUE:
            raise _TooLong(part)
        if len(part) >= 2 and ((part[0] == "{" and part[-1] == "}") or (part[0] == part[-1] == '"')):
            out.append(part[1:-1])
        elif part.isdigit():
            out.append(part)
        elif part.lower() in strings:
            out.append(strings[part.lower()])
        elif part.lower() in _MONTH_MACROS:
            out.append(part.lower())
        elif part:
            undefined.append(part)
            out.append(part)
    return "".join(out)


MAX_DEPTH = 100  # TeX itself stops at 255 levels of grouping


def _too_deep(raw: str) -> bool:
    if raw.count("{") <= MAX_DEPTH:
        return False
    depth = 0
    for ch in raw:
        depth += (ch == "{") - (ch == "}")
        if depth > MAX_DEPTH:
            return True
    return False


def _entry_key(raw: str | None) -> str | None:
    m = re.match(r"\s*@\s*\w+\s*[{(]\s*([^,\s{}()]+)", raw or "")
    return m[1] if m else None


def read_bibtex(text: str) -> tuple[list[dict], list[dict]]:
    """Records from a BibTeX/BibLaTeX file, and what it could not read: report entries
    (``{"key", "reason"}``; ``"imported": True`` for an entry read without some of its fields).

    Raises ``FormatError`` when the file holds no entry at all (an entry that does not parse,
    or text that is no BibTeX).
    """
    import bibtexparser
    from bibtexparser.model import (
        DuplicateBlockKeyBlock,
        DuplicateFieldKeyBlock,
        Entry,
        ParsingFailedBlock,
    )

    # The parser logs each block it cannot read; we report those ourselves (FormatError or
    # a report entry), so its records reach a server's log but are not printed by default,
    # where they would break the CLI's one-line error.
    _parser_log.addHandler(_quiet)
    if not isinstance(text, str):
        raise FormatError("the file is not text")
    if not text.strip():
        return [], []
    try:
        library = bibtexparser.parse_string(text, parse_stack=[])
    except Exception as error:  # noqa: BLE001 - any failure of the parser means "not BibTeX"
        raise FormatError(f"not valid BibTeX: {str(error)[:200]}") from None
    strings: dict[str, str] = {}
    for block in library.strings:
        try:
            strings[block.key.lower()] = _resolve(str(block.value), strings, [])
        except _TooLong:
            strings[block.key.lower()] = _TOO_LONG_MACRO
    entries: list[tuple[Entry, dict[str, list[str]]]] = []
    problems: list[dict] = []
    failed = []
    lines = _line_starts(text)
    mended_to = -1  # the last line of an entry mended below: the parser's blocks in it are its
    for block in library.blocks:
        if isinstance(block, DuplicateFieldKeyBlock | DuplicateBlockKeyBlock):
            block = block.ignore_error_block
        if (block.start_line or 0) <= mended_to:
            continue
        if isinstance(block, ParsingFailedBlock) or (
                isinstance(block, Entry) and _too_deep(block.raw or "")):
            mended = _mended(text, lines, block) if isinstance(block, ParsingFailedBlock) else None
            if mended:
                entries.append(mended[:2])
                mended_to = mended[2]
            else:
                failed.append(block)
        elif isinstance(block, Entry):
            entries.append((block, {}))
    for block in failed:
        line = (block.start_line or 0) + 1
        problems.append({"key": _entry_key(block.raw) or f"line {line}",
                         "reason": f"the entry starting on line {line} does not parse"
                         + (f" (braces nested deeper than {MAX_DEPTH})"
                            if _too_deep(block.raw or "") else "")})
    if not entries:
        if failed:
            raise FormatError(f"not valid BibTeX: {problems[0]['reason']}")
        raise FormatError("not BibTeX: the file has no entries")
    records = []
    for index, (block, mended) in enumerate(entries):
        record, entry_problems = _read_entry(block, strings, index, mended)
        if record is None:
            problems.append(entry_problems)
            continue
        if entry_problems:
            problems.append(entry_problems)
        records.append(record)
    return records, problems


# ---- entries BibTeX reads that the parser does not -------------------------------------------

_NO_KEY = "papershelf-entry-without-key"  # stands in while the parser reads a keyless entry
_ENTRY_OPEN = re.compile(r"\s*@\s*\w+\s*[{(]")
_KEYLESS = re.compile(r"\s*(?:(,)|[^\s,={}()\"#]+\s*=)")


def _line_starts(text: str) -> list[int]:
    starts = [0]
    starts += [i + 1 for i, ch in enumerate(text) if ch == "\n"]
    return starts


def _mended(text: str, lines: list[int], block):
    """An entry the parser refuses but BibTeX reads, once mended: one without a key (EndNote
    writes ``@article{,`` or ``@article{ title = …``), or with an empty field between two commas
    (``title = {X},, year = 2001``). ``(entry, {what: [why]}, its last line)``, or None for
    anything else. (The parser stops at the fault; the entry is taken from the text, up to the
    brace that closes it.)"""
    import bibtexparser
    from bibtexparser.model import Entry

    line = block.start_line or 0
    start = text.find("@", lines[line] if line < len(lines) else len(text))
    opened = _ENTRY_OPEN.match(text, start) if start >= 0 else None
    end = _closing(text, opened.end() - 1) if opened else None
    if end is None:
        return None
    at = opened.end()
    mended, repairs = text[start:at], {}
    keyless = _KEYLESS.match(text, at, end)
    if keyless:  # (reported with every entry without a key)
        mended += _NO_KEY + ("" if keyless[1] else ",")
    mended += _without_empty_fields(text[at:end + 1], repairs)
    if not repairs and not keyless:
        return None
    blocks = bibtexparser.parse_string(mended, parse_stack=[]).blocks
    if len(blocks) != 1 or not isinstance(blocks[0], Entry):
        return None
    return blocks[0], repairs, line + text.count("\n", start, end)


def _closing(text: str, opening: int) -> int | None:
    """Where the brace (or parenthesis) at ``opening`` is closed, braces counted as BibTeX
    counts them; None when it never is."""
    close = "}" if text[opening] == "{" else ")"
    depth = 0
    for i in range(opening + 1, len(text)):
        ch = text[i]
        if ch == "{":
            depth += 1
        elif ch == "}" and depth:
            depth -= 1
        elif ch == close and depth == 0:
            return i
        elif ch == "@" and depth == 0 and text[i - 1] == "\n":
            return None  # the next entry: this one never closed
    return None


def _without_empty_fields(body: str, repairs: dict) -> str:
    """An entry's body with each empty field (a comma that follows a comma, outside any value)
    left out, and said in ``repairs``."""
    out, last = [], ""
    for _, ch, top in _at_top(body):
        if ch == "," and top and last == ",":
            repairs.setdefault("@syntax", []).append("an empty field between two commas (skipped)")
            continue
        if not ch.isspace():
            last = ch
        out.append(ch)
    return "".join(out)


def _read_entry(block, strings: dict[str, str], index: int,
                mended: dict[str, list[str]]) -> tuple[dict | None, dict | None]:
    """One entry: its record (None when it has no title) and what to report about it (with
    ``mended``: what was mended for the parser to read it)."""
    key = (block.key or "").strip()
    if key == _NO_KEY:
        key = ""
    fields: dict[str, str] = {}
    undefined: list[str] = []
    entry = _Entry(key, block.entry_type.strip().lower(), fields)
    entry.problems.update({name: list(why) for name, why in mended.items()})
    if not key:
        entry.problem("@key", "the entry has no citation key: one is made from the key formula")
    for field in block.fields:
        name = field.key.strip().lower()
        try:
            value = _resolve(str(field.value), strings, undefined)
        except _TooLong:
            entry.problem(name[:64], f"longer than {MAX_VALUE:,} characters (dropped)")
            continue
        if not FIELD_NAME.fullmatch(name):
            entry.problem(name[:64], "not a field name BibTeX reads (dropped)")
        elif name not in fields:
            fields[name] = value
        elif name in _NOTE_FIELDS or name == "keywords":
            joiner = "\n\n" if name in _NOTE_FIELDS else ", "
            fields[name] = fields[name] + joiner + value  # both kept
        elif " ".join(value.split()) != " ".join(fields[name].split()):
            entry.problem(name, f"given twice: the first kept, BibTeX's rule; dropped "
                          f"{_text(value)[:200]!r}")
    for name in dict.fromkeys(undefined):
        entry.problem("@string", f"undefined macro {name[:64]!r}: kept as its name")
    if entry.kind not in ("", None) and not re.match(r"^[a-z][a-z0-9_-]{0,31}$", entry.kind):
        entry.problem("@type", f"not an entry type: {entry.kind[:40]!r} (read as misc)")
        entry.kind = "misc"
    record = _record(entry)
    if record["arxiv_id"] and record["entry_type"] == derived_type(record, biblatex=False):
        record["entry_type"] = None  # what papershelf writes for an arXiv paper anyway
    where = {"key": key} if key else {"index": index}
    if not record["title"].strip():
        return None, {**where, "reason": "no title"}
    record["extra"], record["verbatim"] = _as_written(entry, record)
    if entry.problems:
        return record, {**where, "reason": "fields not read", "fields": entry.problems,
                        "imported": True}
    return record, None
