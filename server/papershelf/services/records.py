"""Rows → plain JSON-ready dicts: the one shape the API answers and the exports read."""

from collections import defaultdict
from datetime import date, datetime

from papershelf.models import Highlight, Note, Paper, PaperTag, Tag


def iso(value) -> str | None:
    if value is None:
        return None
    if isinstance(value, datetime):
        return value.isoformat(timespec="microseconds") + "Z"
    if isinstance(value, date):
        return value.isoformat()
    return str(value)


def note_record(n: Note) -> dict:
    return {
        "id": n.id,
        "paper_id": n.paper_id,
        "body": n.body,
        "created_at": iso(n.created_at),
        "updated_at": iso(n.updated_at),
    }


def highlight_record(h: Highlight) -> dict:
    return {
        "id": h.id,
        "paper_id": h.paper_id,
        "field": h.field,
        "exact": h.exact,
        "prefix": h.prefix,
        "suffix": h.suffix,
        "start": h.start,
        "end": h.end,
        "color": h.color,
        "comment": h.comment,
        "created_at": iso(h.created_at),
        "updated_at": iso(h.updated_at),
    }


def enrichment_record(p: Paper) -> dict:
    return {"state": p.enrichment, "reason": p.enrichment_reason, "at": iso(p.enrichment_at)}


def paper_record(p: Paper, tags: list[str], notes: list[dict], highlights: list[dict]) -> dict:
    return {
        "id": p.id,
        "arxiv_id": p.arxiv_id,
        "arxiv_version": p.arxiv_version,
        "doi": p.doi,
        "url": p.url,
        "title": p.title,
        "authors": p.authors or [],
        "authors_more": p.authors_more,
        "abstract": p.abstract or "",
        "published": iso(p.published),
        "affiliations": p.affiliations or [],
        "topics": p.topics or [],
        "tags": tags,
        "primary_category": p.primary_category,
        "categories": p.categories or [],
        "journal_ref": p.journal_ref,
        "comments": p.comments,
        "source_url": p.source_url,
        "citation_key": p.citation_key,
        "edited_fields": p.edited_fields or [],
        "enrichment": enrichment_record(p),
        "created_at": iso(p.created_at),
        "updated_at": iso(p.updated_at),
        "notes": notes,
        "highlights": highlights,
    }


def tags_by_paper(paper_ids) -> dict[int, list[str]]:
    out = defaultdict(list)
    if not paper_ids:
        return out
    rows = (PaperTag.select(PaperTag.paper_id, Tag.name)
            .join(Tag).where(PaperTag.paper.in_(list(paper_ids)))
            .order_by(PaperTag.paper_id, PaperTag.position, Tag.name).tuples())
    for paper_id, name in rows:
        out[paper_id].append(name)
    return out


def notes_by_paper(paper_ids) -> dict[int, list[dict]]:
    out = defaultdict(list)
    if paper_ids:
        for n in Note.select().where(Note.paper.in_(list(paper_ids))).order_by(Note.id):
            out[n.paper_id].append(note_record(n))
    return out


def highlights_by_paper(paper_ids) -> dict[int, list[dict]]:
    out = defaultdict(list)
    if paper_ids:
        query = (Highlight.select().where(Highlight.paper.in_(list(paper_ids)))
                 .order_by(Highlight.field, Highlight.start, Highlight.id))
        for h in query:
            out[h.paper_id].append(highlight_record(h))
    return out


def paper_records(papers: list[Paper]) -> list[dict]:
    """Records for a page of papers, with their tags, notes and highlights in three queries."""
    ids = [p.id for p in papers]
    tags, notes, highlights = tags_by_paper(ids), notes_by_paper(ids), highlights_by_paper(ids)
    return [paper_record(p, tags[p.id], notes[p.id], highlights[p.id]) for p in papers]
