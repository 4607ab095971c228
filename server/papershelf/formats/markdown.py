"""Markdown for Obsidian-style notes: one section per paper with its metadata, abstract,
highlights (quoted, in text order, with comments) and notes (their Markdown as written)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from papershelf.domain.names import name_text

from . import highlights_in_order, notes_in_order, page_label, paper_url

_INLINE_SPECIAL = re.compile(r"([\\`*_{}\[\]<>()#+!|~])")


def escape_inline(text: str) -> str:
    """Text that Markdown shows as written (no emphasis, links or HTML)."""
    return _INLINE_SPECIAL.sub(r"\\\1", " ".join(text.split()))


def _quote(text: str) -> str:
    return "\n".join("> " + escape_inline(line) if line.strip() else ">" for line in text.split("\n"))


def _tag(tag: str) -> str:
    return "#" + re.sub(r"[^\w/-]+", "-", tag.strip()).strip("-")


def _venue(record: dict) -> str:
    """Where the work appeared, in a line: "Journal, vol. 12, no. 3, pp. 1–10; Publisher"."""
    get = record.get
    head = [p for p in (get("journal") or get("booktitle"),
                        f"vol. {get('volume')}" if get("volume") else None,
                        f"no. {get('number')}" if get("number") else None,
                        f"pp. {get('pages')}" if get("pages") else None) if p]
    tail = [p for p in (get("publisher"), f"{get('edition')} ed." if get("edition") else None) if p]
    return "; ".join(p for p in (", ".join(head), ", ".join(tail)) if p)


def _section(record: dict, abstract: bool) -> str:
    out = [f"## {escape_inline(record.get('title') or '')}", ""]
    authors = [escape_inline(name_text(a)) for a in record.get("authors") or [] if a.strip()]
    if authors:
        more = record.get("authors_more") or 0
        out.append("- **Authors:** " + ", ".join(authors) + (f" and {more} more" if more else ""))
    editors = [escape_inline(name_text(a)) for a in record.get("editors") or [] if a.strip()]
    if editors:
        out.append("- **Editors:** " + ", ".join(editors))
    if record.get("published"):
        size = {"year": 4, "month": 7}.get(record.get("published_precision") or "", 10)
        out.append(f"- **Published:** {record['published'][:size]}")
    where = _venue(record)
    if where:
        out.append(f"- **In:** {escape_inline(where)}")
    url = paper_url(record)
    if record.get("arxiv_id"):
        out.append(f"- **arXiv:** [{escape_inline(record['arxiv_id'])}](<{url}>)")
    elif url:
        out.append(f"- **Link:** <{url}>")
    if record.get("doi"):
        out.append(f"- **DOI:** [{escape_inline(record['doi'])}](<https://doi.org/{record['doi']}>)")
    if record.get("journal_ref") and not where:
        out.append(f"- **Journal:** {escape_inline(record['journal_ref'])}")
    if record.get("citation_key"):
        out.append(f"- **Citation key:** `{record['citation_key'].replace('`', '')}`")
    tags = [_tag(t) for t in record.get("tags") or [] if _tag(t) != "#"]
    if tags:
        out.append("- **Tags:** " + " ".join(tags))
    if abstract and record.get("abstract"):
        out += ["", "### Abstract", "", _quote(record["abstract"])]
    highlights = highlights_in_order(record)
    if highlights:
        out += ["", "### Highlights", ""]
        section = ""
        for h in highlights:
            if h.get("field") == "body" and (h.get("section") or "") != section:
                section = h.get("section") or ""  # the full text's highlights, by section
                out += [f"*{escape_inline(section)}*" if section else "*Full text*", ""]
            page = page_label(h)  # a PDF's highlight: "p. 3: …"
            out.append(_quote(f"{page}: {h.get('exact') or ''}" if page else h.get("exact") or ""))
            if h.get("comment"):
                out.append(">")
                out.append("> — " + escape_inline(h["comment"]))
            out.append("")
        out.pop()
    notes = notes_in_order(record)
    if notes:
        out += ["", "### Notes"]
        for note in notes:
            body = (note.get("body") or "").replace("\r\n", "\n").strip("\n")
            out += ["", body]
    return "\n".join(out) + "\n"


def write_markdown(records: Iterable[dict], *, abstract: bool = True, **_options) -> Iterator[str]:
    """A Markdown document, one ``##`` section per paper."""
    yield "# Papers\n"
    for record in records:
        yield "\n" + _section(record, abstract)
