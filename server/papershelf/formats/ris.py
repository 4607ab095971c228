"""RIS (Zotero, EndNote, Mendeley): one ``TAG  - value`` line per field, ``ER  -`` ends a record.

RIS is line-based, so line breaks inside a value (abstracts, notes) are folded to spaces; each
note and each highlight is its own ``N1`` line.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from . import highlight_line, highlights_in_order, journal_doi, notes_in_order
from .names import name_parts

EOL = "\r\n"  # the RIS specification's line end


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


def _record(record: dict, abstract: bool) -> str:
    doi = journal_doi(record)
    arxiv_id = record.get("arxiv_id")
    is_article = bool(doi and record.get("journal_ref"))
    lines = [("TY", "JOUR" if is_article else "UNPB")]
    if record.get("citation_key"):
        lines.append(("ID", record["citation_key"]))
    lines.append(("TI", record.get("title") or ""))
    lines += [("AU", _author(a)) for a in record.get("authors") or [] if a.strip()]
    published = record.get("published")
    if published:
        y, m, d = (published[:10].split("-") + ["", ""])[:3]
        lines += [("PY", y), ("DA", f"{y}/{m}/{d}/")]
    if is_article:
        lines.append(("JO", record["journal_ref"]))
    if arxiv_id:
        lines += [("PB", "arXiv"), ("M1", f"arXiv:{arxiv_id}"),
                  ("DO", doi or f"10.48550/arXiv.{arxiv_id}"),
                  ("UR", f"https://arxiv.org/abs/{arxiv_id}")]
    else:
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
    first = True
    for record in records:
        chunk = _record(record, abstract)
        yield chunk if first else EOL + chunk
        first = False
