"""BibTeX and BibLaTeX: the writers (the main export) and the BibTeX reader.

Writer rules (product.md §6): arXiv preprints as ``@misc`` with ``eprint`` (no version),
``archivePrefix``, ``primaryClass``, ``url`` and the arXiv DOI, or ``@article`` with the journal
when a publisher's DOI and a journal reference are known; year and month of the first version;
``Last, First and …`` with ``and others`` for a list the page cut short; every user-typed string
through ``latex.encode_latex`` so that nothing can unbalance or end an entry; notes and highlights
in one ``annote`` (or ``note``) field. Entries come out in the order given, and the bytes depend on
nothing but the records.

The reader (bibtexparser 2 underneath) maps entries back to records; a BibTeX ``annote``/``note``
becomes one note, so that export → import → export gives the same bytes.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Iterator
from functools import lru_cache

from papershelf.domain.identifiers import (
    doi_without_prefix,
    find_arxiv_id,
    is_arxiv_doi,
    is_arxiv_url,
)
from papershelf.domain.record import new_record

from . import (
    FormatError,
    highlight_line,
    highlights_in_order,
    journal_doi,
    notes_in_order,
)
from .latex import decode_latex, encode_latex, encode_title
from .names import bibtex_names, parse_bibtex_names, split_at_depth0

MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTH_OF = {f"{i + 1:02d}": m for i, m in enumerate(MONTHS)}
NOTES_FIELDS = ("annote", "note")
ENCODINGS = ("latex", "utf8")

_KEY_UNSAFE = re.compile(r"[^A-Za-z0-9_\-:./+]")
_URL_UNSAFE = re.compile(r"[{}\\\s\"]")


# (a bytes.translate that deletes the harmless characters is the quick test: this machine's
# regular expressions cost more than the rest of an entry)
_KEY_SAFE = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-:./+"
_URL_SAFE = bytes(b for b in range(33, 128) if b not in b'{}\\"')


def safe_key(key: str | None) -> str:
    """A citation key BibTeX accepts (characters that would break the entry become ``-``)."""
    if key and key.isascii() and not key.encode().translate(None, _KEY_SAFE):
        return key
    return _KEY_UNSAFE.sub("-", key or "") or "paper"


def _verbatim(value: str) -> str:
    """A URL or DOI: written as is (styles print it with ``\\url``), braces and spaces escaped
    the URL way so they cannot touch the entry's structure."""
    if value.isascii() and not value.encode().translate(None, _URL_SAFE):
        return value
    return _URL_UNSAFE.sub(lambda m: f"%{ord(m.group()):02X}", value)


def _note_key(note: dict):
    return note["created_at"], note["id"]


def _highlight_key(h: dict):
    return h["field"] != "title", h["start"], h["end"], h["id"]


def annotation_text(record: dict) -> str:
    """The notes (in the order written) and the highlights (in text order, quoted, with their
    comments) of a record as one text, paragraphs apart."""
    notes, highlights = record.get("notes"), record.get("highlights")
    if not notes and not highlights:
        return ""
    parts = []
    if notes:
        if len(notes) > 1:
            try:
                notes = sorted(notes, key=_note_key)
            except (KeyError, TypeError):  # a partial record: the careful (slower) order
                notes = notes_in_order(record)
        parts = [n.get("body") or "" for n in notes]
    if highlights:
        if len(highlights) > 1:
            try:
                highlights = sorted(highlights, key=_highlight_key)
            except (KeyError, TypeError):
                highlights = highlights_in_order(record)
        parts += [highlight_line(h) for h in highlights]
    text = "\n\n".join([p for p in parts if p and not p.isspace()])
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


@lru_cache(maxsize=256)  # a library has few distinct tag lists; bounded, so memory stays flat
def _keywords(tags: tuple[str, ...], utf8: bool) -> str:
    """Tags as a ``keywords`` list; a tag with a comma (or semicolon) in it is braced whole."""
    tags = [" ".join(t.split()) for t in tags]
    return ", ".join(
        "{" + encode_latex(t, utf8=utf8) + "}" if "," in t or ";" in t else encode_latex(t, utf8=utf8)
        for t in tags if t
    )


def entry_fields(
    record: dict, *, biblatex: bool, abstract: bool, notes_field: str, utf8: bool
) -> tuple[str, str, list[tuple[str, str]]]:
    """``(entry type, key, [(field, value with its braces), …])`` for one record."""
    get = record.get
    arxiv_id = get("arxiv_id")
    doi = journal_doi(record)
    journal = get("journal_ref")
    is_article = bool(doi and journal)
    fields: list[tuple[str, str]] = []
    append = fields.append

    authors = bibtex_names(get("authors") or (), get("authors_more"), utf8)
    if authors:
        append(("author", "{" + authors + "}"))
    append(("title", "{" + encode_title(get("title") or "", utf8=utf8) + "}"))
    if is_article:
        append(("journaltitle" if biblatex else "journal",
                "{" + encode_latex(journal, utf8=utf8) + "}"))
    published = get("published")
    if published:
        if biblatex:
            append(("date", "{" + published[:10] + "}"))
        else:
            append(("year", "{" + published[:4] + "}"))
            month = _MONTH_OF.get(published[5:7])
            if month:
                append(("month", month))
    if arxiv_id:
        arxiv_id = _verbatim(arxiv_id)
        append(("eprint", "{" + arxiv_id + "}"))
        append(("eprinttype", "{arxiv}") if biblatex else ("archivePrefix", "{arXiv}"))
        category = get("primary_category")
        if category:
            append(("eprintclass" if biblatex else "primaryClass",
                    "{" + encode_latex(category) + "}"))
        append(("doi", "{" + _verbatim(doi) + "}" if doi else "{10.48550/arXiv." + arxiv_id + "}"))
        append(("url", "{https://arxiv.org/abs/" + arxiv_id + "}"))
    else:
        if doi:
            append(("doi", "{" + _verbatim(doi) + "}"))
        url = get("url")
        if url:
            append(("url", "{" + _verbatim(url) + "}"))
    if abstract:
        text = get("abstract")
        if text:
            append(("abstract", "{" + encode_latex(text, utf8=utf8) + "}"))
    tags = get("tags")
    if tags:
        keywords = _keywords(tuple(tags), utf8)
        if keywords:
            append(("keywords", "{" + keywords + "}"))
    annotation = annotation_text(record)
    if annotation:
        append((notes_field, "{" + encode_latex(annotation, utf8=utf8) + "}"))

    if is_article:
        kind = "article"
    else:
        kind = "online" if biblatex else "misc"
    return kind, safe_key(get("citation_key")), fields


def _entry(record: dict, **options) -> str:
    kind, key, fields = entry_fields(record, **options)
    body = ",\n".join([f"  {name} = {value}" for name, value in fields])
    return f"@{kind}{{{key},\n{body}\n}}\n"


def _check_options(notes_field: str, encoding: str) -> None:
    if notes_field not in NOTES_FIELDS:
        raise ValueError(f"notes_field must be one of {', '.join(NOTES_FIELDS)}")
    if encoding not in ENCODINGS:
        raise ValueError(f"encoding must be one of {', '.join(ENCODINGS)}")


def write_bibtex(
    records: Iterable[dict],
    *,
    abstract: bool = True,
    notes_field: str = "annote",
    encoding: str = "latex",
    biblatex: bool = False,
) -> Iterator[str]:
    """BibTeX entries for ``records``, one chunk per entry, entries a blank line apart."""
    _check_options(notes_field, encoding)
    utf8 = encoding == "utf8"
    first = True
    for record in records:
        entry = _entry(record, biblatex=biblatex, abstract=abstract,
                       notes_field=notes_field, utf8=utf8)
        yield entry if first else "\n" + entry
        first = False


def write_biblatex(records: Iterable[dict], **options) -> Iterator[str]:
    """BibLaTeX: ``@online`` with ``eprinttype``/``eprintclass`` and a full ``date``."""
    return write_bibtex(records, biblatex=True, **options)


# --- reading ---------------------------------------------------------------------------------

_MONTH_NAMES = {m: i + 1 for i, m in enumerate(MONTHS)}
_MONTH_NAMES.update({
    "january": 1, "february": 2, "march": 3, "april": 4, "june": 6, "july": 7, "august": 8,
    "september": 9, "october": 10, "november": 11, "december": 12, "sept": 9,
})
_DATE_RE = re.compile(r"^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?")
_KEYWORD_SEP = re.compile(r"\s*[,;]\s*")


def _published(fields: dict[str, str]) -> str | None:
    m = _DATE_RE.match(fields.get("date", "").strip())
    if m:
        year, month, day = m.group(1), m.group(2) or "01", m.group(3) or "01"
        return f"{year}-{month}-{day}"
    year = fields.get("year", "").strip()
    if not (len(year) == 4 and year.isdigit()):
        return None
    month_raw = decode_latex(fields.get("month", "")).strip().lower().rstrip(".")
    month = int(month_raw) if month_raw.isdigit() else _MONTH_NAMES.get(month_raw, 1)
    month = month if 1 <= month <= 12 else 1
    return f"{year}-{month:02d}-01"


def _arxiv(fields: dict[str, str]) -> tuple[str | None, int | None]:
    prefix = (fields.get("archiveprefix") or fields.get("eprinttype") or "").strip().lower()
    eprint = fields.get("eprint", "") if prefix in ("", "arxiv") else ""
    return find_arxiv_id(eprint, fields.get("url", ""), fields.get("doi", ""))


def _doi(raw: str) -> str | None:
    doi = doi_without_prefix(raw)
    return None if not doi or is_arxiv_doi(doi) else doi


def _record(key: str, fields: dict[str, str]) -> dict:
    authors, more = parse_bibtex_names(fields.get("author", ""))
    arxiv_id, version = _arxiv(fields)
    url = fields.get("url", "").strip() or None
    if arxiv_id and is_arxiv_url(url):
        url = None  # the arXiv page is implied by the id
    tags = [
        decode_latex(t[1:-1] if t.startswith("{") and t.endswith("}") else t).strip()
        for t in split_at_depth0(fields.get("keywords", ""), _KEYWORD_SEP)
    ]
    notes = [
        {"body": decode_latex(fields[name]), "created_at": None, "updated_at": None}
        for name in NOTES_FIELDS
        if fields.get(name, "").strip()
    ]
    journal = fields.get("journal") or fields.get("journaltitle")
    category = fields.get("primaryclass") or fields.get("eprintclass")
    return new_record(
        citation_key=key,
        title=decode_latex(fields.get("title", "")),
        authors=authors,
        authors_more=more,
        abstract=decode_latex(fields.get("abstract", "")),
        published=_published(fields),
        arxiv_id=arxiv_id,
        arxiv_version=version,
        doi=_doi(fields.get("doi", "")),
        url=url,
        primary_category=decode_latex(category).strip() if category else None,
        journal_ref=decode_latex(journal).strip() if journal else None,
        tags=[t for t in tags if t],
        notes=notes,
    )


_parser_log = logging.getLogger("bibtexparser")
_quiet = logging.NullHandler()


def read_bibtex(text: str) -> tuple[list[dict], list[dict]]:
    """Records from a BibTeX/BibLaTeX file, and the entries skipped (``{"key", "reason"}``).

    Raises ``FormatError`` when the file is not BibTeX: a block that does not parse, or text with
    no entry at all.
    """
    import bibtexparser
    from bibtexparser.model import DuplicateBlockKeyBlock, DuplicateFieldKeyBlock

    # The parser logs each block it cannot read; we report those ourselves (FormatError or
    # ``skipped``), so its records reach a server's log but are not printed by default, where
    # they would break the CLI's one-line error.
    _parser_log.addHandler(_quiet)
    if not isinstance(text, str):
        raise FormatError("the file is not text")
    if not text.strip():
        return [], []
    try:
        library = bibtexparser.parse_string(text)
    except Exception as error:  # noqa: BLE001 - any failure of the parser means "not BibTeX"
        raise FormatError(f"not valid BibTeX: {str(error)[:200]}") from None
    skipped = []
    for block in library.failed_blocks:
        if isinstance(block, DuplicateBlockKeyBlock):
            skipped.append({"key": block.key, "reason": "duplicate citation key"})
        elif isinstance(block, DuplicateFieldKeyBlock):
            skipped.append({"key": block.key, "reason": "a field appears twice"})
        else:
            line = (block.start_line or 0) + 1
            raise FormatError(f"not valid BibTeX: the entry starting on line {line} does not parse")
    if not library.entries and not skipped:
        raise FormatError("not BibTeX: the file has no entries")
    records = []
    for entry in library.entries:
        fields = {name.lower(): str(f.value) for name, f in entry.fields_dict.items()}
        if entry.entry_type.lower() in ("string", "preamble", "comment"):
            continue
        record = _record(entry.key, fields)
        if not record["title"].strip():
            skipped.append({"key": entry.key, "reason": "no title"})
            continue
        records.append(record)
    return records, skipped
