"""CSL-JSON, what Pandoc (``--citeproc``), Zotero and citeproc-js/-py read and write: a list of
items.

Writing. Each paper is an item of the CSL type its entry type maps to (``TYPES``). An arXiv
preprint is an ``article`` with ``number`` ``arXiv:<id>`` and ``publisher`` ``arXiv``, as Zotero
writes a preprint (its "Archive ID" and "Repository") and where the styles look for it: APA
prints "Title (arXiv:2603.01234). arXiv.", IEEE "arXiv: arXiv:2603.01234". A journal article's
arXiv id is never its ``number`` (APA would print "Article arXiv:…"): it keeps its arXiv address
as ``URL``, and its ``container-title`` is the journal's name alone (from arXiv's free-text
journal reference when that is all there is, its volume, issue and pages taken apart when it has
the usual shape). An author list cut short on the page ends in ``{"literal": "others"}``, as
Pandoc's own BibTeX reader writes ``and others``: Pandoc's citeproc renders it "et al.";
citeproc-js and citeproc-py have no such rule and print it as a name ("…, & others"), which
still says the list is incomplete where leaving it out would print a complete-looking list.
Dates are as precise as known (``[[2017]]`` for a year only). Titles and other text are plain
text (LaTeX is already decoded in the store); notes and highlights go into ``note``, after the
entry's own note if it had one.

Reading maps the item back (types, names with their particles, partial and EDTF dates, venue,
identifiers), keeps the variables papershelf does not model in ``extra`` (under their BibTeX
names where BibTeX has one: ``ISBN`` as ``isbn``), and reports what it could not use, item by
item, without losing the file.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator

from papershelf.domain.identifiers import (
    arxiv_abs_url,
    arxiv_doi,
    find_arxiv_id,
    is_arxiv_doi,
    is_arxiv_url,
    normalize_doi,
    normalize_url,
)
from papershelf.domain.latex import decode_latex, encode_latex
from papershelf.domain.names import NameParts, display_name, name_parts
from papershelf.domain.record import new_record
from papershelf.domain.validation import ENTRY_TYPE

from . import FormatError, annotation_text, is_journal_article, journal_doi, venue
from .bibtex_write import fingerprint, kept_as_written
from .cited import cited_records
from .edtf import csl_to_edtf, day_of, edtf_to_csl, more_than_a_date, read_edtf

# BibTeX entry type -> CSL type
TYPES = {
    "article": "article-journal", "inproceedings": "paper-conference",
    "conference": "paper-conference", "incollection": "chapter", "inbook": "chapter",
    "book": "book", "mvbook": "book", "collection": "book", "proceedings": "book",
    "phdthesis": "thesis", "mastersthesis": "thesis", "thesis": "thesis",
    "techreport": "report", "report": "report", "manual": "report", "misc": "article",
    "online": "webpage", "electronic": "webpage", "www": "webpage", "unpublished": "manuscript",
    "booklet": "pamphlet", "dataset": "dataset", "software": "software", "patent": "patent",
    "inreference": "entry-encyclopedia", "periodical": "periodical", "standard": "standard",
}
# CSL type -> BibTeX entry type (the other CSL types are kept by their own name)
ENTRY_TYPES = {
    "article-journal": "article", "article-magazine": "article", "article-newspaper": "article",
    "paper-conference": "inproceedings", "chapter": "incollection", "book": "book",
    "thesis": "phdthesis", "report": "techreport", "article": "misc", "webpage": "online",
    "manuscript": "unpublished", "pamphlet": "booklet", "dataset": "dataset",
    "software": "software", "patent": "patent", "entry-encyclopedia": "inreference",
    "periodical": "periodical", "standard": "standard",
}
_SUBTYPES = {"article-magazine": "magazine", "article-newspaper": "newspaper"}
CSL_TYPES = frozenset("""article article-journal article-magazine article-newspaper bill book
    broadcast chapter classic collection dataset document entry entry-dictionary
    entry-encyclopedia event figure graphic hearing interview legal_case legislation manuscript
    map motion_picture musical_score pamphlet paper-conference patent performance periodical
    personal_communication post post-weblog regulation report review review-book software song
    speech standard thesis treaty webpage""".split())
# CSL variable <-> the BibTeX field an entry keeps it in (``extra``), for what papershelf does
# not model itself
EXTRA_VARIABLES = {
    "ISBN": "isbn", "ISSN": "issn", "publisher-place": "address", "collection-title": "series",
    "collection-number": "series-number", "chapter-number": "chapter", "genre": "type",
    "language": "language", "title-short": "shorttitle", "container-title-short": "shortjournal",
    "number-of-pages": "pagetotal", "number-of-volumes": "volumes", "version": "version",
    "PMID": "pmid", "PMCID": "pmcid", "event-place": "venue", "status": "pubstate",
    "note": "note",
}
_BIBTEX_VARIABLES = {v: k for k, v in EXTRA_VARIABLES.items()}
_BIBTEX_VARIABLES.update({"location": "publisher-place", "school": "publisher",
                          "institution": "publisher", "organization": "publisher",
                          "journaltitle": "container-title"})
# CSL variables the reader turns into papershelf's own fields (or reads with them)
_MODELLED = {"id", "type", "citation-key", "title", "author", "editor", "issued", "DOI", "URL",
             "container-title", "volume", "issue", "number", "page", "publisher", "edition",
             "abstract", "keyword", "note"}
# CSL variables kept in ``extra`` under their own name (no BibTeX field for them)
_CSL_EXTRA = frozenset("""archive archive_location archive-place authority call-number
    container-title dimensions division event-title jurisdiction medium original-publisher
    original-publisher-place original-title part-number part-title printing references
    reviewed-genre reviewed-title scale section source supplement-number volume-title
    year-suffix""".split())
_NAME_VARIABLES = {"translator", "container-author", "collection-editor", "director",
                   "interviewer", "recipient", "reviewed-author", "composer", "illustrator"}
_DATE_VARIABLES = {"accessed", "event-date", "original-date", "submitted", "available-date"}
OTHERS = {"literal": "others"}


# ---- writing -------------------------------------------------------------------------------


def _name(name: str) -> dict | None:
    parts = name_parts(name)
    if parts is None:
        return None
    if parts.literal:
        return {"literal": parts.last}
    item = {"family": " ".join(p for p in (parts.von, parts.last) if p)}
    if parts.first:
        item["given"] = parts.first
    if parts.jr:
        item["suffix"] = parts.jr
    return item


def _names(names, more: int = 0) -> list[dict]:
    out = [n for n in map(_name, names or []) if n]
    if more and out:
        out.append(dict(OTHERS))
    return out


def _date_parts(published: str, precision: str | None) -> dict:
    parts = [int(p) for p in published[:10].split("-")]
    size = {"year": 1, "month": 2}.get(precision or "", 3)
    return {"date-parts": [parts[:size]]}


def _csl_type(record: dict) -> str:
    kind = record.get("entry_type")
    if not kind:
        return "article-journal" if is_journal_article(record) else "article"
    if kind == "article":
        subtype = (record.get("extra") or {}).get("entrysubtype")
        return {"magazine": "article-magazine", "newspaper": "article-newspaper"}.get(
            subtype or "", "article-journal")
    if kind in TYPES:
        return TYPES[kind]
    return kind if kind in CSL_TYPES else "article"


def csl_item(record: dict, *, abstract: bool = True) -> dict:
    arxiv_id = record.get("arxiv_id")
    doi = journal_doi(record)
    kind = _csl_type(record)
    item: dict = {
        "id": record.get("citation_key") or str(record.get("id", "")),
        "citation-key": record.get("citation_key"),
        "type": kind,
        "title": record.get("title") or "",
    }
    authors = _names(record.get("authors"), record.get("authors_more") or 0)
    if authors:
        item["author"] = authors
    editors = _names(record.get("editors"))
    if editors:
        item["editor"] = editors
    published = record.get("published")
    extra = record.get("extra") or {}
    edtf = kept_as_written(record, "date") or (None if published else extra.get("date"))
    issued = edtf_to_csl(edtf) if edtf else None
    if issued:
        item["issued"] = issued  # a season, an interval, a year before the common era
    elif published:
        item["issued"] = _date_parts(published, record.get("published_precision"))
    where = venue(record)
    container = where.get("journal") or where.get("booktitle")
    if container:
        item["container-title"] = container
    for name, variable in (("volume", "volume"), ("issue", "issue"), ("number", "number"),
                           ("pages", "page"), ("publisher", "publisher"), ("edition", "edition")):
        if where.get(name):
            item[variable] = where[name]
    for field, value in extra.items():
        variable = _BIBTEX_VARIABLES.get(field) or (field if field in _CSL_EXTRA else None)
        if variable and variable not in item and variable != "note":
            item[variable] = decode_latex(value)
    if extra.get("urldate") and "accessed" not in item:
        accessed, precision, _ = _issued({"raw": extra["urldate"]})
        if accessed:
            item["accessed"] = _date_parts(accessed, precision)
    preprint = arxiv_id and not container and kind == "article"
    if arxiv_id:
        if preprint:
            item["number"] = f"arXiv:{arxiv_id}"  # Zotero's "Archive ID" of a preprint
            item.setdefault("publisher", "arXiv")
        item["URL"] = arxiv_abs_url(arxiv_id)
        item["DOI"] = doi or arxiv_doi(arxiv_id)
    else:
        if doi or extra.get("doi"):  # (a DOI that is none, kept as the file wrote it)
            item["DOI"] = doi or decode_latex(extra["doi"])
        if record.get("url") or extra.get("url"):
            item["URL"] = record.get("url") or decode_latex(extra["url"])
    if abstract and record.get("abstract"):
        item["abstract"] = record["abstract"]
    if record.get("tags"):
        item["keyword"] = ", ".join(record["tags"])
    note = [decode_latex(extra["note"])] if extra.get("note") else []
    annotations = annotation_text(record)
    if annotations:
        note.append(annotations)
    if note:
        item["note"] = "\n\n".join(note)
    return item



def write_csljson(records: Iterable[dict], *, abstract: bool = True, **_options) -> Iterator[str]:
    """A CSL-JSON array, one item per chunk."""
    records = cited_records(records, **_options)
    yield "["
    sep = "\n"
    for record in records:
        yield sep + json.dumps(csl_item(record, abstract=abstract), ensure_ascii=False, indent=None)
        sep = ",\n"
    yield "\n]\n"


# ---- reading -------------------------------------------------------------------------------


def _text(value) -> str | None:
    """A CSL string variable (a number is fine; a list holds one) as text, or None."""
    if isinstance(value, list) and value:
        value = value[0]
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, str):
        return " ".join(value.split()) or None
    return None


def _person(author) -> str | None:
    """One CSL name as a display name, its surname kept as given."""
    if not isinstance(author, dict):
        return _text(author)
    literal = _text(author.get("literal"))
    if literal:
        return display_name(NameParts("", "", literal, ""))
    family = _text(author.get("family"))
    given = " ".join(p for p in (_text(author.get("given")), _text(author.get("dropping-particle")))
                     if p)
    particle = _text(author.get("non-dropping-particle"))
    if not family:
        return given or None
    # a particle written into the family name ("van Beethoven") reads as one
    parsed = name_parts(family + ", x")
    von, last = (parsed.von, parsed.last) if parsed and not parsed.literal else ("", family)
    von = " ".join(p for p in (particle, von) if p)
    return display_name(NameParts(given, von, last, _text(author.get("suffix")) or ""))


def _people(value) -> tuple[list[str], int]:
    if not isinstance(value, list):
        return [], 0
    names, more = [], 0
    for author in value:
        if isinstance(author, dict) and _text(author.get("literal")) in ("others", "et al.", "et al"):
            more = 1
            continue
        name = _person(author)
        if name:
            names.append(name)
    return names, more


_RAW_DATE = re.compile(r"^\s*(\d{4})(?:[-/](\d{1,2})(?:[-/](\d{1,2}))?)?")


def _issued(issued) -> tuple[str | None, str | None, str | None]:
    """``(date, precision, the date as EDTF when it says more than that)`` of a CSL date:
    ``date-parts`` (one date or two, numbers or strings, a season as month 13–16 or 21–24 or
    ``season``, ``circa``, a year before the common era), ``raw`` or ``literal`` text (EDTF, or
    a date at its start), or a bare string."""
    if isinstance(issued, str | int):
        issued = {"raw": str(issued)}
    if not isinstance(issued, dict):
        return None, None, None
    texts = [issued.get(key) for key in ("raw", "literal")]
    for edtf in [csl_to_edtf(issued), *[t.strip() for t in texts if isinstance(t, str)]]:
        read = read_edtf(edtf) if edtf else None
        if read is not None:
            return read.published, read.precision, None if read.exact else edtf
    for text in texts:
        m = _RAW_DATE.match(str(text or ""))
        if m:
            year, month, day = (int(g) if g else None for g in m.groups())
            month = month if month and 1 <= month <= 12 else None
            day = day_of(year, month, day)
            precision = None if day else "month" if month else "year"
            if 1 <= year:
                return f"{year:04d}-{month or 1:02d}-{day or 1:02d}", precision, None
    return None, None, None


def _entry_type(kind: str | None) -> str | None:
    if not isinstance(kind, str) or not kind.strip():
        return None
    kind = kind.strip()
    return ENTRY_TYPES.get(kind, kind if ENTRY_TYPE.fullmatch(kind) else None)


def _doi(value: str | None) -> str | None:
    """The DOI ``value`` names, by the one DOI rule (``domain.identifiers.normalize_doi``)."""
    try:
        return normalize_doi(value) if value else None
    except ValueError:
        return None


def _record(item: dict, problems: dict) -> dict:
    doi = _text(item.get("DOI"))
    url = _text(item.get("URL"))
    extra = {}
    for variable, value, normalize in (("DOI", doi, normalize_doi), ("URL", url, normalize_url)):
        try:
            if value and not is_arxiv_doi(value):
                normalize(value)
        except ValueError:
            problems[variable] = [f"not a {variable}: {value[:200]!r} (kept as written)"]
            extra[variable.lower()] = encode_latex(value)
    doi = _doi(doi) if "doi" not in extra else None
    url = None if "url" in extra else url
    if not doi and url:
        doi = _doi(url)  # a resolver's address (https://doi.org/10.…) names the DOI
    number = _text(item.get("number")) or ""
    arxiv_id, version = find_arxiv_id(
        number if number.lower().startswith("arxiv") else "", url or "", doi or "")
    if is_arxiv_doi(doi):
        doi = None
    if arxiv_id and is_arxiv_url(url):
        url = None
    if arxiv_id and number.lower().startswith("arxiv"):
        number = ""
    kind = item.get("type")
    entry_type = _entry_type(kind)
    if kind == "article" and arxiv_id:
        entry_type = None  # a preprint: papershelf's own
    keyword = item.get("keyword") or ""
    tags = [t.strip() for t in str(keyword).split(",") if t.strip()] if not isinstance(keyword, list) \
        else [str(t).strip() for t in keyword if str(t).strip()]
    note = _text(item.get("note")) if isinstance(item.get("note"), str) else None
    notes = [{"body": str(item["note"]), "created_at": None, "updated_at": None}] if note else []
    authors, more = _people(item.get("author"))
    editors, _ = _people(item.get("editor"))
    published, precision, edtf = _issued(item.get("issued"))
    if edtf is not None:
        problems["issued"] = [more_than_a_date(edtf, published)]
    elif item.get("issued") and not published:
        problems["issued"] = ["not a date (dropped)"]
    container = _text(item.get("container-title"))
    chapter_like = kind in ("chapter", "paper-conference") or str(kind).startswith("entry")
    if container and not chapter_like and kind not in (None, "periodical") \
            and not str(kind).startswith("article"):
        extra["container-title"] = encode_latex(container)  # a website's or series' name
        container = None
    if kind in _SUBTYPES:
        extra["entrysubtype"] = _SUBTYPES[kind]
    for variable, value in item.items():
        if variable in _MODELLED or not isinstance(variable, str):
            continue
        field = EXTRA_VARIABLES.get(variable) or (variable if variable in _CSL_EXTRA else None)
        text = _text(value)
        if field and text:
            extra[field] = encode_latex(text)
        elif variable in _DATE_VARIABLES and isinstance(value, dict):
            date, _, _ = _issued(value)
            if date and variable == "accessed":
                extra["urldate"] = date
    for variable in ("title", "abstract", "volume", "issue", "page", "publisher", "edition",
                     "container-title", "DOI", "URL"):
        value = item.get(variable)
        if value not in (None, "") and _text(value) is None:
            problems[variable] = ["not text (dropped)"]
    for variable in ("author", "editor"):
        if item.get(variable) not in (None, []) and not isinstance(item.get(variable), list):
            problems[variable] = ["not a list of names (dropped)"]
    key = item.get("citation-key") or item.get("id")
    record = new_record(
        citation_key=str(key) if key not in (None, "") else None,
        entry_type=entry_type,
        title=item["title"] if isinstance(item.get("title"), str) else _text(item.get("title")) or "",
        authors=authors,
        authors_more=more,
        editors=editors,
        abstract=item["abstract"] if isinstance(item.get("abstract"), str) else "",
        published=published,
        published_precision=precision if published else None,
        arxiv_id=arxiv_id,
        arxiv_version=version,
        doi=doi,
        url=url,
        journal=container if container and not chapter_like else None,
        booktitle=container if chapter_like else None,
        volume=_text(item.get("volume")),
        number=_text(item.get("issue")) or number or None,
        pages=_text(item.get("page")),
        publisher=None if arxiv_id and _text(item.get("publisher")) == "arXiv"
        else _text(item.get("publisher")),
        edition=_text(item.get("edition")),
        tags=tags,
        notes=notes,
        extra=extra,
    )
    if edtf is not None:  # kept as BibLaTeX writes it, and written back while the date stands
        record["verbatim"] = {"date": [edtf, fingerprint(record, "date")]}
    return record


def read_csljson(text: str) -> tuple[list[dict], list[dict]]:
    """Records from a CSL-JSON array (or ``{"items": […]}``), and report entries: items skipped
    (``{"index", "reason"}``) and items read without some of their variables (``"imported"``)."""
    try:
        data = json.loads(text)
    except (ValueError, TypeError, RecursionError) as error:
        raise FormatError(f"not CSL-JSON: {error}") from None
    if isinstance(data, dict) and isinstance(data.get("items"), list):
        data = data["items"]
    if not isinstance(data, list):
        raise FormatError("not CSL-JSON: expected an array of items")
    if data and not any(isinstance(item, dict) for item in data):
        raise FormatError("not CSL-JSON: its items are not objects")
    records, report = [], []
    for index, item in enumerate(data):
        if not isinstance(item, dict):
            report.append({"index": index, "reason": "not an item (an object)"})
            continue
        if not _text(item.get("title")):
            report.append({"index": index, "reason": "no title"})
            continue
        problems: dict = {}
        records.append(_record(item, problems))
        if problems:
            report.append({"index": index, "reason": "variables not read", "fields": problems,
                           "imported": True})
    return records, report
