"""BibTeX and BibLaTeX writers: the main export.

Rules: arXiv preprints as ``@misc`` with ``eprint`` (no version), ``archivePrefix``,
``primaryClass``, ``url`` and the arXiv DOI, or ``@article`` with the journal when a publisher's
DOI and a journal reference are known; other works as their entry type with their venue (journal,
booktitle, volume, number, pages, publisher, edition, editors); the year (and month, when the date
has one) of the first version; ``Last, First and …`` with ``and others`` for a list the page cut
short; every user-typed string through ``domain.latex.encode_latex`` so that nothing can unbalance
or end an entry; notes and highlights in one ``annote`` (or ``note``) field. Entries come out in
the order given, and the bytes depend on nothing but the records.

Fields an imported entry wrote its own way (``verbatim``: each with a fingerprint of the values
it was read as, see ``fingerprint``) are written back as they were for as long as the paper keeps
those values; the entry's other fields (``extra``) are written back after papershelf's own.
``bibtex_read`` asks this module what it would write, to know which fields to keep verbatim.
"""

from __future__ import annotations

import json
import re
import unicodedata
import zlib
from collections.abc import Iterable, Iterator
from functools import lru_cache

from papershelf.domain.identifiers import arxiv_abs_url, arxiv_doi
from papershelf.domain.latex import balanced, encode_latex, encode_raw, encode_title
from papershelf.domain.names import bibtex_names
from papershelf.domain.validation import FIELD_NAME

from . import annotation_text, journal_doi
from .cited import cited_records

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


@lru_cache(maxsize=256)  # a library has few distinct tag lists; bounded, so memory stays flat
def _keywords(tags: tuple[str, ...], utf8: bool) -> str:
    """Tags as a ``keywords`` list; a tag with a comma (or semicolon) in it is braced whole."""
    tags = [" ".join(t.split()) for t in tags]
    return ", ".join(
        "{" + encode_latex(t, utf8=utf8) + "}" if "," in t or ";" in t else encode_latex(t, utf8=utf8)
        for t in tags if t
    )


# ---- fields kept as a file wrote them ------------------------------------------------------

# BibTeX fields the reader models, each with the record fields it is read into: a field kept
# verbatim is written back only while those still have the values it was read as.
SOURCES = {
    "title": ("title",),
    "author": ("authors", "authors_more"),
    "editor": ("editors",),
    "year": ("published", "published_precision"),
    "month": ("published", "published_precision"),
    "day": ("published", "published_precision"),
    "date": ("published", "published_precision"),
    "journal": ("journal",),
    "booktitle": ("booktitle",),
    "volume": ("volume",),
    "number": ("number",),
    "pages": ("pages",),
    "publisher": ("publisher",),
    "edition": ("edition",),
    "doi": ("doi", "arxiv_id"),
    "url": ("url", "arxiv_id"),
    "eprint": ("arxiv_id",),
    "archiveprefix": ("arxiv_id",),
    "primaryclass": ("primary_category", "arxiv_id"),
    "abstract": ("abstract",),
    "keywords": ("tags",),
}
# BibLaTeX's names for the same fields (the writer uses them for BibLaTeX; the reader reads both)
BIBLATEX_NAMES = {"journal": "journaltitle", "archiveprefix": "eprinttype",
                  "primaryclass": "eprintclass"}
CANONICAL = {v: k for k, v in BIBLATEX_NAMES.items()}


def _normalized(value):
    """A value as the store keeps it: text NFC with its whitespace folded, empty as None."""
    if isinstance(value, str):
        return " ".join(unicodedata.normalize("NFC", value).split()) or None
    if isinstance(value, list):
        return [_normalized(v) for v in value] or None
    return value or None


def fingerprint(record: dict, name: str) -> str:
    """A short, stable digest of the record's values the BibTeX field ``name`` is read from
    (compared as the store keeps them, so that a file's record and the stored paper agree)."""
    sources = SOURCES[name]
    if name == "url" and record.get("arxiv_id"):
        sources = ("arxiv_id",)  # an arXiv paper's URL is its abstract page, whatever it holds
    values = [_normalized(record.get(f)) for f in sources]
    data = json.dumps(values, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return format(zlib.crc32(data.encode("utf-8", "surrogatepass")), "08x")


_LINE_AT = re.compile(r"\n\s*@")


def _raw(value: str, utf8: bool) -> str:
    """A value kept as a file wrote it, for an export: as written where its braces balance, as
    plain text otherwise (a hand-edited ``extra`` must not break an entry); a line starting with
    ``@`` (a parser would start an entry there) joins the one before."""
    text = encode_raw(value, utf8=utf8)
    if not balanced(text):
        return encode_latex(" ".join(value.split()), utf8=utf8)
    return " ".join(text.split()) if _LINE_AT.search(text) else text


def kept_as_written(record: dict, name: str) -> str | None:
    """The file's own writing of modelled field ``name``, while the record still has the values
    it was read as; else None."""
    kept = (record.get("verbatim") or {}).get(name)
    if (isinstance(kept, list) and len(kept) == 2 and isinstance(kept[0], str)
            and kept[1] == fingerprint(record, name)):
        return kept[0]
    return None


# ---- writing -------------------------------------------------------------------------------


def _pages(pages: str, utf8: bool) -> str:
    """Pages in LaTeX, a range's en dash as BibTeX files write it: ``12--19``."""
    return "--".join(encode_latex(part, utf8=utf8) for part in pages.split("\u2013"))


@lru_cache(maxsize=1024)  # papers share their dates (and a library has few categories)
def _date_fields(published: str, precision: str | None, biblatex: bool) -> tuple[tuple[str, str], ...]:
    if biblatex:
        size = {"year": 4, "month": 7}.get(precision or "", 10)
        return (("date", "{" + published[:size] + "}"),)
    year = ("year", "{" + published[:4] + "}")
    month = _MONTH_OF.get(published[5:7]) if precision != "year" else None
    return (year, ("month", month)) if month else (year,)


@lru_cache(maxsize=256)
def _category(category: str) -> str:
    return "{" + encode_latex(category) + "}"


def entry_fields(
    record: dict, *, biblatex: bool, abstract: bool, notes_field: str, utf8: bool,
    with_state: bool = False,
) -> tuple[str, str, list[tuple[str, str]]]:
    """``(entry type, key, [(field, value with its braces), …])`` for one record."""
    get = record.get
    arxiv_id = get("arxiv_id")
    doi = journal_doi(record)
    entry_type = get("entry_type")
    journal = get("journal")
    if not journal and not entry_type and doi and get("journal_ref"):
        journal = get("journal_ref")  # arXiv's journal reference of a published preprint
    fields: list[tuple[str, str]] = []
    append = fields.append

    authors = bibtex_names(get("authors") or (), get("authors_more"), utf8)
    if authors:
        append(("author", "{" + authors + "}"))
    append(("title", "{" + encode_title(get("title") or "", utf8=utf8) + "}"))
    editors = get("editors")
    if editors:
        append(("editor", "{" + bibtex_names(editors, 0, utf8) + "}"))
    if journal:
        append(("journaltitle" if biblatex else "journal", "{" + encode_latex(journal, utf8=utf8) + "}"))
    for name in ("booktitle", "volume", "number", "pages", "publisher", "edition"):
        value = get(name)
        if value:
            value = _pages(value, utf8) if name == "pages" else encode_latex(value, utf8=utf8)
            append((name, "{" + value + "}"))
    published = get("published")
    if published:
        fields += _date_fields(published, get("published_precision"), biblatex)
    if arxiv_id:
        arxiv_id = _verbatim(arxiv_id)
        append(("eprint", "{" + arxiv_id + "}"))
        append(("eprinttype", "{arxiv}") if biblatex else ("archivePrefix", "{arXiv}"))
        category = get("primary_category")
        if category:
            append(("eprintclass" if biblatex else "primaryClass", _category(category)))
        append(("doi", "{" + (_verbatim(doi) if doi else arxiv_doi(arxiv_id)) + "}"))
        append(("url", "{" + arxiv_abs_url(arxiv_id) + "}"))
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
    aliases = get("key_aliases")
    if aliases:  # the keys of papers merged into this one (BibLaTeX's ids; BibTeX ignores it)
        append(("ids", "{" + ", ".join(safe_key(a) for a in aliases) + "}"))
    tags = list(get("tags") or ())
    if with_state:  # the reader's state and star, as keywords (asked for: with_state)
        tags.append("state:" + (get("reading_state") or "unread"))
        if get("starred"):
            tags.append("starred")
    if tags:
        keywords = _keywords(tuple(tags), utf8)
        if keywords:
            append(("keywords", "{" + keywords + "}"))
    extra = get("extra") or {}
    verbatim = get("verbatim")
    if verbatim or extra:
        fields = _with_fields_as_written(record, fields, extra, verbatim, biblatex, abstract, utf8)
    # last, so that an export's notes read back into "note" come out where they were
    own_note = extra.get("note")
    annotation = annotation_text(record)
    if own_note and (notes_field != "note" or not annotation):
        fields.append(("note", "{" + _raw(own_note, utf8) + "}"))
    if annotation:
        value = encode_latex(annotation, utf8=utf8)
        if own_note and notes_field == "note":  # the file's own note comes first
            value = _raw(own_note, utf8) + " " + value
        fields.append((notes_field, "{" + value + "}"))

    kind = entry_type or derived_type(record, biblatex)
    return kind, safe_key(get("citation_key")), fields


def derived_type(record: dict, biblatex: bool) -> str:
    """The entry type of a paper that has none of its own: an arXiv paper published in a journal
    is an ``article``, anything else ``misc`` (BibLaTeX: ``online``)."""
    if journal_doi(record) and (record.get("journal") or record.get("journal_ref")):
        return "article"
    return "online" if biblatex else "misc"


def _with_fields_as_written(record, fields, extra, verbatim, biblatex, abstract, utf8):
    """``fields`` with the modelled ones the file wrote its own way as it wrote them (while they
    still hold), then the file's other fields, each once."""
    out, written = [], set()
    for name, value in fields:
        canonical = CANONICAL.get(name.lower(), name.lower())
        if verbatim and canonical in SOURCES:
            kept = kept_as_written(record, canonical)
            raw = _raw(kept, utf8) if kept is not None else None
            # names that stay UTF-8 in LaTeX output (CJK) are written papershelf's way, each
            # word one special character: styles cut names into labels (see domain.names)
            if raw is not None and (utf8 or raw.isascii() or canonical not in ("author", "editor")):
                value = "{" + raw + "}"
        out.append((name, value))
        written.add(canonical)
    for canonical in sorted(verbatim or ()):
        if canonical not in written and canonical in SOURCES and (abstract or canonical != "abstract"):
            kept = kept_as_written(record, canonical)
            if kept is not None and not (biblatex and canonical in ("year", "month", "day")):
                name = BIBLATEX_NAMES.get(canonical, canonical) if biblatex else canonical
                out.append((name, "{" + _raw(kept, utf8) + "}"))
                written.add(canonical)
    for name, value in sorted(extra.items()):  # one order, whatever store or backup held them
        canonical = CANONICAL.get(name, name)
        if canonical not in written and FIELD_NAME.fullmatch(name) and isinstance(value, str) \
                and name not in NOTES_FIELDS:  # (the entry's own note comes last, see above)
            out.append((name, "{" + _raw(value, utf8) + "}"))
            written.add(canonical)
    return out


def _entry(record: dict, **options) -> str:
    kind, key, fields = entry_fields(record, **options)
    body = ",\n  ".join([f"{name} = {value}" for name, value in fields])
    return f"@{kind}{{{key},\n  {body}\n}}\n"


def _check_options(notes_field: str, encoding: str) -> None:
    if notes_field not in NOTES_FIELDS:
        raise ValueError(f"notes_field must be one of {', '.join(NOTES_FIELDS)}")
    if encoding not in ENCODINGS:
        raise ValueError(f"encoding must be one of {', '.join(ENCODINGS)}")


def bibtex_entries(
    records: Iterable[dict],
    *,
    abstract: bool = True,
    notes_field: str = "annote",
    encoding: str = "latex",
    biblatex: bool = False,
    version: str = "published",
    venue: str = "full",
    with_state: bool = False,
) -> Iterator[str]:
    """One BibTeX entry for each of ``records``, each depending on its record alone (and the
    options); ``join_entries`` makes them a file. Options are checked before the first."""
    records = cited_records(records, version, venue)
    _check_options(notes_field, encoding)
    utf8 = encoding == "utf8"
    for record in records:
        yield _entry(record, biblatex=biblatex, abstract=abstract,
                     notes_field=notes_field, utf8=utf8, with_state=with_state)


def join_entries(entries: Iterable[str]) -> Iterator[str]:
    """Entries as a file: in order, a blank line apart (one chunk each)."""
    first = True
    for entry in entries:
        yield entry if first else "\n" + entry
        first = False


def write_bibtex(records: Iterable[dict], **options) -> Iterator[str]:
    """BibTeX entries for ``records`` (see ``bibtex_entries`` for the options), one chunk per
    entry, entries a blank line apart."""
    return join_entries(bibtex_entries(records, **options))


def write_biblatex(records: Iterable[dict], **options) -> Iterator[str]:
    """BibLaTeX: ``@online`` with ``eprinttype``/``eprintclass`` and a full ``date``."""
    return write_bibtex(records, biblatex=True, **options)
