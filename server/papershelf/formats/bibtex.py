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

import re
from collections.abc import Iterable, Iterator

from . import FormatError, highlights_in_order, journal_doi, new_record, notes_in_order
from .latex import decode_latex, encode_latex, encode_title
from .names import bibtex_name, parse_bibtex_names, split_at_depth0

MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
NOTES_FIELDS = ("annote", "note")
ENCODINGS = ("latex", "utf8")

_KEY_UNSAFE = re.compile(r"[^A-Za-z0-9_\-:./+]")
_URL_UNSAFE = re.compile(r"[{}\\\s\"]")


def safe_key(key: str | None) -> str:
    """A citation key BibTeX accepts (characters that would break the entry become ``-``)."""
    return _KEY_UNSAFE.sub("-", key or "") or "paper"


def _verbatim(value: str) -> str:
    """A URL or DOI: written as is (styles print it with ``\\url``), braces and spaces escaped
    the URL way so they cannot touch the entry's structure."""
    return _URL_UNSAFE.sub(lambda m: f"%{ord(m.group()):02X}", value)


def annotation_text(record: dict) -> str:
    """The notes (in the order written) and the highlights (in text order, quoted, with their
    comments) of a record as one text, paragraphs apart."""
    parts = [n.get("body") or "" for n in notes_in_order(record)]
    for h in highlights_in_order(record):
        line = f"“{h.get('exact') or ''}”"
        if h.get("comment"):
            line += f" — {h['comment']}"
        parts.append(line)
    text = "\n\n".join(p for p in parts if p.strip())
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _keywords(tags: list[str], utf8: bool) -> str:
    """Tags as a ``keywords`` list; a tag with a comma (or semicolon) in it is braced whole."""
    tags = [" ".join(t.split()) for t in tags]
    return ", ".join(
        "{" + encode_latex(t, utf8=utf8) + "}" if "," in t or ";" in t else encode_latex(t, utf8=utf8)
        for t in tags if t
    )


def _authors(record: dict, utf8: bool) -> str | None:
    names = [bibtex_name(a, utf8=utf8) for a in record.get("authors") or [] if a.strip()]
    if record.get("authors_more"):
        names.append("others")
    return " and ".join(names) if names else None


def _entry(record: dict, *, biblatex: bool, abstract: bool, notes_field: str, utf8: bool) -> str:
    arxiv_id = record.get("arxiv_id")
    doi = journal_doi(record)
    journal = record.get("journal_ref")
    is_article = bool(doi and journal)
    fields: list[tuple[str, str]] = []

    authors = _authors(record, utf8)
    if authors:
        fields.append(("author", "{" + authors + "}"))
    fields.append(("title", "{" + encode_title(record.get("title") or "", utf8=utf8) + "}"))
    if is_article:
        fields.append(("journaltitle" if biblatex else "journal",
                       "{" + encode_latex(journal, utf8=utf8) + "}"))
    published = record.get("published")
    if published:
        if biblatex:
            fields.append(("date", "{" + published[:10] + "}"))
        else:
            fields.append(("year", "{" + published[:4] + "}"))
            month = published[5:7]
            if month.isdigit() and 1 <= int(month) <= 12:
                fields.append(("month", MONTHS[int(month) - 1]))
    if arxiv_id:
        fields.append(("eprint", "{" + arxiv_id + "}"))
        if biblatex:
            fields.append(("eprinttype", "{arxiv}"))
        else:
            fields.append(("archivePrefix", "{arXiv}"))
        if record.get("primary_category"):
            fields.append(("eprintclass" if biblatex else "primaryClass",
                           "{" + encode_latex(record["primary_category"]) + "}"))
    if doi:
        fields.append(("doi", "{" + _verbatim(doi) + "}"))
    elif arxiv_id:
        fields.append(("doi", "{10.48550/arXiv." + arxiv_id + "}"))
    url = f"https://arxiv.org/abs/{arxiv_id}" if arxiv_id else record.get("url")
    if url:
        fields.append(("url", "{" + _verbatim(url) + "}"))
    if abstract and record.get("abstract"):
        fields.append(("abstract", "{" + encode_latex(record["abstract"], utf8=utf8) + "}"))
    keywords = _keywords(record.get("tags") or [], utf8)
    if keywords:
        fields.append(("keywords", "{" + keywords + "}"))
    annotation = annotation_text(record)
    if annotation:
        fields.append((notes_field, "{" + encode_latex(annotation, utf8=utf8) + "}"))

    if biblatex:
        kind = "article" if is_article else "online"
    else:
        kind = "article" if is_article else "misc"
    body = ",\n".join(f"  {name} = {value}" for name, value in fields)
    return f"@{kind}{{{safe_key(record.get('citation_key'))},\n{body}\n}}\n"


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
_ARXIV_RE = re.compile(
    r"(?:arxiv:)?(\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})(?:v(\d+))?$", re.IGNORECASE
)
_ARXIV_URL_RE = re.compile(r"arxiv\.org/(?:abs|pdf)/([^?#]+?)(?:\.pdf)?$", re.IGNORECASE)
_ARXIV_DOI_RE = re.compile(r"^10\.48550/arxiv\.(.+)$", re.IGNORECASE)
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
    eprint = fields.get("eprint", "").strip()
    candidates = []
    if eprint and prefix in ("", "arxiv"):
        candidates.append(eprint)
    m = _ARXIV_URL_RE.search(fields.get("url", "").strip())
    if m:
        candidates.append(m.group(1))
    m = _ARXIV_DOI_RE.match(fields.get("doi", "").strip())
    if m:
        candidates.append(m.group(1))
    for c in candidates:
        m = _ARXIV_RE.match(c)
        if m:
            return m.group(1), int(m.group(2)) if m.group(2) else None
    return None, None


def _doi(raw: str) -> str | None:
    doi = re.sub(r"^(?:https?://(?:dx\.)?doi\.org/|doi:)", "", raw.strip(), flags=re.IGNORECASE)
    if not doi or _ARXIV_DOI_RE.match(doi):
        return None
    return doi


def _record(key: str, fields: dict[str, str]) -> dict:
    authors, more = parse_bibtex_names(fields.get("author", ""))
    arxiv_id, version = _arxiv(fields)
    url = fields.get("url", "").strip() or None
    if arxiv_id and url and _ARXIV_URL_RE.search(url):
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


def read_bibtex(text: str) -> tuple[list[dict], list[dict]]:
    """Records from a BibTeX/BibLaTeX file, and the entries skipped (``{"key", "reason"}``).

    Raises ``FormatError`` when the file is not BibTeX: a block that does not parse, or text with
    no entry at all.
    """
    import bibtexparser
    from bibtexparser.model import DuplicateBlockKeyBlock, DuplicateFieldKeyBlock

    if not isinstance(text, str):
        raise FormatError("the file is not text")
    if not text.strip():
        return [], []
    library = bibtexparser.parse_string(text)
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
