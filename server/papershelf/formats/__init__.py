"""Export and import formats: pure functions, records in, text out (and back).

Nothing here knows about Flask, peewee or the rest of papershelf but the pure rules of
``papershelf.domain`` (arXiv ids, DOIs: ``domain.identifiers``). A *record* is the plain dict the
server hands out for a paper (see ``backup.py`` for the full shape). Writers take an iterable of
records and yield text chunks, so an HTTP response or a CLI run streams with flat memory; callers
pass records already ordered by citation key (``services.transfer`` does), which is what makes an
export deterministic. Readers take text and return ``(records, report)``: the report lists
the entries skipped and, marked ``"imported": True``, the entries read without some of their
fields, each with why; a file that cannot be read at all raises :class:`FormatError`.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass

from papershelf.domain.identifiers import arxiv_abs_url, is_arxiv_doi


class FormatError(ValueError):
    """The file is not valid in the format it claims to be in; nothing was read from it."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Format:
    """One file format: what it is called, its media type and extension, and the module whose
    ``write_<name>`` (and, for formats that import, ``read_…``) does the work."""

    name: str
    label: str
    media_type: str
    extension: str
    module: str
    writer: str
    reader: str | None = None
    import_label: str | None = None


FORMATS = (
    Format("bibtex", "BibTeX", "application/x-bibtex; charset=utf-8", "bib",
           "bibtex", "write_bibtex", "read_bibtex"),
    Format("biblatex", "BibLaTeX", "application/x-bibtex; charset=utf-8", "bib",
           "bibtex", "write_biblatex"),
    Format("csljson", "CSL-JSON", "application/vnd.citationstyles.csl+json; charset=utf-8", "json",
           "csljson", "write_csljson", "read_csljson"),
    Format("ris", "RIS", "application/x-research-info-systems; charset=utf-8", "ris",
           "ris", "write_ris"),
    Format("markdown", "Markdown", "text/markdown; charset=utf-8", "md",
           "markdown", "write_markdown"),
    Format("jsonld", "Web Annotation (JSON-LD)", "application/ld+json; charset=utf-8", "jsonld",
           "jsonld", "write_jsonld"),
    Format("json", "Full backup (JSON)", "application/json; charset=utf-8", "json",
           "backup", "write_backup", "read_backup", import_label="papershelf backup (JSON)"),
)
BY_NAME = {f.name: f for f in FORMATS}
# name -> (media type, file extension), in menu order
EXPORT_FORMATS: dict[str, tuple[str, str]] = {f.name: (f.media_type, f.extension) for f in FORMATS}
IMPORT_FORMATS = tuple(f.name for f in FORMATS if f.reader)


def _load(module: str, function: str):
    # Imported on first use, so that importing this package stays cheap.
    return getattr(importlib.import_module(f"{__name__}.{module}"), function)


def writer_for(name: str):
    """The writer function for an export format name (``KeyError`` when unknown)."""
    return _load(BY_NAME[name].module, BY_NAME[name].writer)


def reader_for(name: str):
    """The reader function for an import format name (``KeyError`` when unknown)."""
    if name not in IMPORT_FORMATS:
        raise KeyError(name)
    return _load(BY_NAME[name].module, BY_NAME[name].reader)


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


# ---- venue ---------------------------------------------------------------------------------

_REF_FULL = re.compile(  # "Nature 596, 583–589 (2021)", "Phys. Rev. Lett. 120(3), 031101 (2018)"
    r"^(?P<journal>.*?[^\d\s,])\s+(?P<volume>\d+)(?:\s*\((?P<issue>[^)]+)\))?\s*[,:]\s*"
    r"(?:pp?\.\s*)?(?P<pages>[A-Za-z]?\d+(?:\s*[-–]+\s*[A-Za-z]?\d+)?)\s*"
    r"(?:[,(]\s*(?P<year>\d{4})\s*\)?)?\s*\.?$")
_REF_TITLE = re.compile(r"^(?P<journal>.*?[A-Za-z.)\]])\s*(?:\d|vol\b|pp?\.|\(\d)", re.IGNORECASE)


def parse_journal_ref(ref: str | None) -> dict:
    """arXiv's journal reference (free text) as ``{"journal", "volume", "issue", "pages"}``: all
    of it when it has the common shape (``Nature 596, 583–589 (2021)``), else the journal's
    name alone (the text before its first number), else the whole reference as the name."""
    ref = " ".join((ref or "").split())
    if not ref:
        return {}
    m = _REF_FULL.match(ref)
    if m and not (len(m["volume"]) == 4 and 1900 <= int(m["volume"]) <= 2100 and not m["year"]):
        return {k: v for k, v in m.groupdict().items() if v and k != "year"}
    m = _REF_TITLE.match(ref)
    return {"journal": (m["journal"] if m else ref).rstrip(" ,;:")}


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
