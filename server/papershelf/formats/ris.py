"""RIS (Zotero, EndNote, Mendeley): one ``TAG  - value`` line per field, ``ER  -`` ends a record.

RIS is line-based, so line breaks inside a value (abstracts, notes) are folded to spaces; each
note and each highlight is its own ``N1`` line. The reference type follows the entry type
(``JOUR``, ``CPAPER``, ``CHAP``, ``BOOK``, ``THES``, ``RPRT``…; an arXiv preprint is ``UNPB``),
with the venue in ``JO``/``T2``, ``VL``, ``IS``, ``SP``/``EP``, ``PB``, ``ET`` and the editors in
``A2``; a date is as precise as known (``DA  - 2017///``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from papershelf.domain.identifiers import arxiv_abs_url, arxiv_doi
from papershelf.domain.names import name_parts

from . import highlight_line, highlights_in_order, is_journal_article, journal_doi, notes_in_order, venue
from .cited import cited_records

EOL = "\r\n"  # the RIS specification's line end
TYPES = {
    "article": "JOUR", "inproceedings": "CPAPER", "conference": "CPAPER", "incollection": "CHAP",
    "inbook": "CHAP", "book": "BOOK", "mvbook": "BOOK", "collection": "EDBOOK",
    "proceedings": "CONF", "phdthesis": "THES", "mastersthesis": "THES", "thesis": "THES",
    "techreport": "RPRT", "report": "RPRT", "manual": "RPRT", "unpublished": "UNPB",
    "online": "ELEC", "electronic": "ELEC", "www": "ELEC", "booklet": "PAMP", "dataset": "DATA",
    "software": "COMP", "patent": "PAT", "misc": "GEN",
}
_RANGE = re.compile(r"\s*[-\u2010-\u2015]+\s*")


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _author(name: str) -> str:
    parts = name_parts(_one_line(name))
    if parts is None:
        return ""
    if parts.literal:
        return parts.last
    last = " ".join(p for p in (parts.von, parts.last) if p)
    return ", ".join(p for p in (last, parts.first, parts.jr) if p)


def _type(record: dict) -> str:
    kind = record.get("entry_type")
    if kind:
        if kind == "misc" and record.get("arxiv_id"):
            return "UNPB"
        return TYPES.get(kind, "GEN")
    return "JOUR" if is_journal_article(record) else "UNPB"


def _record(record: dict, abstract: bool) -> str:
    doi = journal_doi(record)
    arxiv_id = record.get("arxiv_id")
    lines = [("TY", _type(record))]
    if record.get("citation_key"):
        lines.append(("ID", record["citation_key"]))
    lines.append(("TI", record.get("title") or ""))
    lines += [("AU", _author(a)) for a in record.get("authors") or [] if a.strip()]
    lines += [("A2", _author(a)) for a in record.get("editors") or [] if a.strip()]
    published = record.get("published")
    if published:
        y, m, d = (published[:10].split("-") + ["", ""])[:3]
        precision = record.get("published_precision")
        if precision == "year":
            m = d = ""
        elif precision == "month":
            d = ""
        lines += [("PY", y), ("DA", f"{y}/{m}/{d}/")]
    where = venue(record)
    if where.get("journal"):
        lines.append(("JO", where["journal"]))
    if where.get("booktitle"):
        lines.append(("T2", where["booktitle"]))
    lines += [(tag, where[name]) for tag, name in (("VL", "volume"), ("IS", "issue"),
                                                   ("IS", "number")) if where.get(name)]
    if where.get("pages"):
        pages = _RANGE.split(where["pages"], maxsplit=1)
        lines.append(("SP", pages[0]))
        if len(pages) > 1:
            lines.append(("EP", pages[1]))
    if where.get("edition"):
        lines.append(("ET", where["edition"]))
    if arxiv_id:
        publisher = where.get("publisher") or (None if where.get("journal") else "arXiv")
        lines += [("PB", publisher or ""), ("M1", f"arXiv:{arxiv_id}"),
                  ("DO", doi or arxiv_doi(arxiv_id)), ("UR", arxiv_abs_url(arxiv_id))]
    else:
        if where.get("publisher"):
            lines.append(("PB", where["publisher"]))
        if doi:
            lines.append(("DO", doi))
        if record.get("url"):
            lines.append(("UR", record["url"]))
    if abstract and record.get("abstract"):
        lines.append(("AB", record["abstract"]))
    lines += [("KW", t) for t in record.get("tags") or []]
    lines += [("N1", n.get("body") or "") for n in notes_in_order(record)]
    lines += [("N1", highlight_line(h)) for h in highlights_in_order(record)]
    out = [f"{tag}  - {_one_line(value)}" for tag, value in lines if tag == "TY" or value.strip()]
    out.append("ER  - ")
    return EOL.join(out) + EOL


def write_ris(records: Iterable[dict], *, abstract: bool = True, **_options) -> Iterator[str]:
    """RIS records, a blank line apart."""
    records = cited_records(records, **_options)
    first = True
    for record in records:
        chunk = _record(record, abstract)
        yield chunk if first else EOL + chunk
        first = False
