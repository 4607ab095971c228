"""CSL-JSON, what Pandoc (``--citeproc``) and Zotero read and write: a list of items.

Preprints are ``article`` items with ``number`` ``arXiv:<id>`` and ``publisher`` ``arXiv`` (as
Zotero writes them); a paper with a journal DOI and reference is ``article-journal``. Notes and
highlights go into ``note`` (the same text as BibTeX's ``annote``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator

from papershelf.domain.identifiers import find_arxiv_id, is_arxiv_doi, is_arxiv_url
from papershelf.domain.record import new_record

from . import FormatError, journal_doi
from .bibtex import annotation_text
from .names import name_parts


def _author(name: str) -> dict | None:
    parts = name_parts(name)
    if parts is None:
        return None
    if parts.literal:
        return {"literal": parts.last}
    author = {"family": " ".join(p for p in (parts.von, parts.last) if p)}
    if parts.first:
        author["given"] = parts.first
    if parts.jr:
        author["suffix"] = parts.jr
    return author


def csl_item(record: dict, *, abstract: bool = True) -> dict:
    arxiv_id = record.get("arxiv_id")
    doi = journal_doi(record)
    item: dict = {
        "id": record.get("citation_key") or str(record.get("id", "")),
        "citation-key": record.get("citation_key"),
        "type": "article-journal" if doi and record.get("journal_ref") else "article",
        "title": record.get("title") or "",
    }
    authors = [a for a in map(_author, record.get("authors") or []) if a]
    if authors:
        item["author"] = authors
    published = record.get("published")
    if published:
        item["issued"] = {"date-parts": [[int(p) for p in published[:10].split("-")]]}
    if item["type"] == "article-journal":
        item["container-title"] = record["journal_ref"]
    if arxiv_id:
        item["number"] = f"arXiv:{arxiv_id}"
        item["publisher"] = "arXiv"
        item["URL"] = f"https://arxiv.org/abs/{arxiv_id}"
        item["DOI"] = doi or f"10.48550/arXiv.{arxiv_id}"
    else:
        if doi:
            item["DOI"] = doi
        if record.get("url"):
            item["URL"] = record["url"]
    if abstract and record.get("abstract"):
        item["abstract"] = record["abstract"]
    if record.get("tags"):
        item["keyword"] = ", ".join(record["tags"])
    note = annotation_text(record)
    if note:
        item["note"] = note
    return item


def write_csljson(records: Iterable[dict], *, abstract: bool = True, **_options) -> Iterator[str]:
    """A CSL-JSON array, one item per chunk."""
    yield "["
    sep = "\n"
    for record in records:
        yield sep + json.dumps(csl_item(record, abstract=abstract), ensure_ascii=False, indent=None)
        sep = ",\n"
    yield "\n]\n"


def _name(author) -> str | None:
    if not isinstance(author, dict):
        return None
    if author.get("literal"):
        return str(author["literal"])
    parts = [author.get("given"), author.get("dropping-particle"),
             author.get("non-dropping-particle"), author.get("family"), author.get("suffix")]
    name = " ".join(str(p) for p in parts if p)
    return name or None


def _date(issued) -> str | None:
    if not isinstance(issued, dict):
        return None
    parts = issued.get("date-parts")
    if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
        try:
            nums = [int(p) for p in parts[0][:3]]
        except (TypeError, ValueError):
            return None
        nums += [1] * (3 - len(nums))
        return f"{nums[0]:04d}-{nums[1]:02d}-{nums[2]:02d}"
    raw = issued.get("raw")
    if isinstance(raw, str) and re.match(r"^\d{4}-\d{2}-\d{2}", raw):
        return raw[:10]
    return None


def _record(item: dict) -> dict:
    doi = str(item.get("DOI") or "") or None
    url = str(item.get("URL") or "") or None
    number = str(item.get("number") or "")
    arxiv_id, version = find_arxiv_id(
        number if number.lower().startswith("arxiv") else "", url or "", doi or "")
    if is_arxiv_doi(doi):
        doi = None
    if arxiv_id and is_arxiv_url(url):
        url = None
    keyword = item.get("keyword") or ""
    tags = [t.strip() for t in str(keyword).split(",") if t.strip()]
    note = item.get("note")
    notes = [{"body": str(note), "created_at": None, "updated_at": None}] if note else []
    names = [_name(a) for a in item.get("author") or [] if _name(a)]
    key = item.get("citation-key") or item.get("id")
    return new_record(
        citation_key=str(key) if key not in (None, "") else None,
        title=str(item.get("title") or ""),
        authors=names,
        abstract=str(item.get("abstract") or ""),
        published=_date(item.get("issued")),
        arxiv_id=arxiv_id,
        arxiv_version=version,
        doi=doi,
        url=url,
        journal_ref=(str(item["container-title"]) if item.get("container-title") else None),
        tags=tags,
        notes=notes,
    )


def read_csljson(text: str) -> tuple[list[dict], list[dict]]:
    """Records from a CSL-JSON array, and the items skipped (``{"index", "reason"}``)."""
    try:
        data = json.loads(text)
    except (ValueError, TypeError, RecursionError) as error:
        raise FormatError(f"not CSL-JSON: {error}") from None
    if isinstance(data, dict) and isinstance(data.get("items"), list):
        data = data["items"]
    if not isinstance(data, list):
        raise FormatError("not CSL-JSON: expected an array of items")
    records, skipped = [], []
    for index, item in enumerate(data):
        if not isinstance(item, dict):
            raise FormatError(f"not CSL-JSON: item {index} is not an object")
        if not str(item.get("title") or "").strip():
            skipped.append({"index": index, "reason": "no title"})
            continue
        records.append(_record(item))
    return records, skipped
