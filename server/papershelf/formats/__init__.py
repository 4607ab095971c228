"""Export and import formats: pure functions, records in, text out (and back).

Nothing here knows about Flask, peewee or the rest of papershelf but the pure rules of
``papershelf.domain`` (identifiers, names, LaTeX text, the record's shape). A *record* is the
plain dict the server hands out for a paper (see ``backup.py`` for the full shape). Writers take
an iterable of records and yield text chunks, so an HTTP response or a CLI run streams with flat
memory; callers pass records already ordered by citation key (``services.transfer`` does), which
is what makes an export deterministic. Readers take text and return ``(records, report)``: the
report lists the entries skipped and, marked ``"imported": True``, the entries read without some
of their fields, each with why; a file that cannot be read at all raises :class:`FormatError`.

The rooms: ``FORMATS`` (below) names each format's writer and reader; ``bibtex_write`` and
``bibtex_read`` (BibTeX and BibLaTeX), ``csljson``, ``ris``, ``markdown``, ``jsonld`` (W3C Web
Annotations), ``backup`` (the lossless JSON backup); ``upload`` turns an uploaded file's bytes
into text and tells which format it is in. This module also holds what several writers share: a
paper's address, its journal DOI and venue, notes and highlights in order, the export's file name.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from datetime import UTC, datetime

from papershelf.domain.identifiers import arxiv_abs_url, is_arxiv_doi
from papershelf.domain.journal_ref import read_journal_ref


class FormatError(ValueError):
    """The file is not valid in the format it claims to be in; nothing was read from it."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Format:
    """One file format: what it is called, its media type and extension, and where its writer
    (and, for formats that import, its reader) is: ``"module.function"`` in this package."""

    name: str
    label: str
    media_type: str
    extension: str
    writer: str
    reader: str | None = None
    import_label: str | None = None
    file_suffix: str = ""  # after the date in the file's name: "-biblatex", "-backup"


FORMATS = (
    Format("bibtex", "BibTeX", "application/x-bibtex; charset=utf-8", "bib",
           "bibtex_write.write_bibtex", "bibtex_read.read_bibtex"),
    Format("biblatex", "BibLaTeX", "application/x-bibtex; charset=utf-8", "bib",
           "bibtex_write.write_biblatex", file_suffix="-biblatex"),
    Format("csljson", "CSL-JSON", "application/vnd.citationstyles.csl+json; charset=utf-8", "json",
           "csljson.write_csljson", "csljson.read_csljson"),
    Format("ris", "RIS", "application/x-research-info-systems; charset=utf-8", "ris",
           "ris.write_ris"),
    Format("markdown", "Markdown", "text/markdown; charset=utf-8", "md",
           "markdown.write_markdown"),
    Format("jsonld", "Web Annotation (JSON-LD)", "application/ld+json; charset=utf-8", "jsonld",
           "jsonld.write_jsonld", file_suffix="-annotations"),
    Format("json", "Full backup (JSON)", "application/json; charset=utf-8", "json",
           "backup.write_backup", "backup.read_backup", import_label="papershelf backup (JSON)",
           file_suffix="-backup"),
)
BY_NAME = {f.name: f for f in FORMATS}
# name -> (media type, file extension), in menu order
EXPORT_FORMATS: dict[str, tuple[str, str]] = {f.name: (f.media_type, f.extension) for f in FORMATS}
IMPORT_FORMATS = tuple(f.name for f in FORMATS if f.reader)


def _load(where: str):
    # Imported on first use, so that importing this package stays cheap.
    module, function = where.rsplit(".", 1)
    return getattr(importlib.import_module(f"{__name__}.{module}"), function)


def writer_for(name: str):
    """The writer function for an export format name (``KeyError`` when unknown)."""
    return _load(BY_NAME[name].writer)


def reader_for(name: str):
    """The reader function for an import format name (``KeyError`` when unknown)."""
    if name not in IMPORT_FORMATS:
        raise KeyError(name)
    return _load(BY_NAME[name].reader)


def export_filename(fmt: str, tag: str | None = None, today: str | None = None) -> str:
    """The export's file name: ``papershelf[-<tag>]-<date>[-<kind>].<extension>``."""
    stem = "papershelf"
    if tag:
        slug = re.sub(r"[^A-Za-z0-9]+", "-", tag).strip("-").lower()[:40]
        if slug:
            stem += "-" + slug
    stem += "-" + (today or datetime.now(UTC).date().isoformat())
    return f"{stem}{BY_NAME[fmt].file_suffix}.{BY_NAME[fmt].extension}"


def paper_url(record: dict) -> str | None:
    """The paper's canonical address: arXiv abstract page, else its URL, else its DOI resolver."""
    if record.get("arxiv_id"):
        return arxiv_abs_url(record["arxiv_id"])
    if record.get("url"):
        return record["url"]
    if record.get("doi"):
        return f"https://doi.org/{record['doi']}"
    return None


def journal_doi(record: dict) -> str | None:
    """The record's DOI when it is a publisher's DOI, not the one arXiv mints (10.48550/arXiv.…)."""
    doi = record.get("doi")
    return None if not doi or is_arxiv_doi(doi) else doi


def notes_in_order(record: dict) -> list[dict]:
    return sorted(record.get("notes") or [], key=lambda n: (n.get("created_at") or "", n.get("id") or 0))


def page_label(h: dict) -> str:
    """Where a PDF highlight is, as a reader cites it (``p. 3``); "" for any other highlight."""
    page = h.get("page")
    return f"p. {page}" if h.get("field") == "pdf" and isinstance(page, int) else ""


def highlight_line(h: dict) -> str:
    """A highlight as a line of text: its page (a PDF's), the quote, then its comment."""
    exact = h.get("exact") or ""
    comment = h.get("comment")
    page = page_label(h)
    line = f"{page}: “{exact}”" if page else f"“{exact}”"
    return f"{line} — {comment}" if comment else line


_FIELD_ORDER = {"title": 0, "abstract": 1}


def highlight_order(h: dict) -> tuple:
    """A highlight's place in reading order: the title's, then the abstract's, then the full
    text's and the PDF's (page by page), each by position."""
    return (_FIELD_ORDER.get(h.get("field"), 2), h.get("field") == "pdf", h.get("page") or 0,
            h.get("start") or 0, h.get("end") or 0, h.get("id") or 0)


def highlights_in_order(record: dict) -> list[dict]:
    """Highlights in reading order (``highlight_order``)."""
    return sorted(record.get("highlights") or [], key=highlight_order)


def _note_key(note: dict):
    return note["created_at"], note["id"]


def _highlight_key(h: dict):
    """``highlight_order`` for a record as the store gives it (every key present): faster."""
    field = h["field"]
    return _FIELD_ORDER.get(field, 2), field == "pdf", h.get("page") or 0, h["start"], h["end"], h["id"]


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


# ---- venue ---------------------------------------------------------------------------------

def parse_journal_ref(ref: str | None) -> dict:
    """arXiv's journal reference (free text) as ``{"journal", "volume", "issue", "pages"}``: all
    of it when it has one of the common shapes (``Nature 596, 583–589 (2021)``), else the
    journal's name alone (the text before its first number), else the whole reference as the
    name (``domain.journal_ref``)."""
    return read_journal_ref(ref).parts()


def is_journal_article(record: dict) -> bool:
    """A journal article: so typed, or an arXiv paper with a journal DOI and reference."""
    if record.get("entry_type"):
        return record["entry_type"] == "article" and bool(record.get("journal"))
    return bool(journal_doi(record) and (record.get("journal") or record.get("journal_ref")))


def venue(record: dict) -> dict:
    """Where the work appeared, as text formats name it: ``journal`` (the journal's name alone),
    ``booktitle``, ``volume``, ``issue`` (BibTeX's ``number`` of an article), ``number`` (of a
    report), ``pages``, ``publisher``, ``edition``; only what is known."""
    out = {k: record.get(k) for k in ("journal", "booktitle", "volume", "pages", "publisher",
                                       "edition") if record.get(k)}
    if record.get("number"):
        out["issue" if record.get("entry_type") in (None, "article") else "number"] = record["number"]
    if not out.get("journal") and is_journal_article(record):
        parsed = parse_journal_ref(record.get("journal_ref"))
        out = {**parsed, **out}
    return out
