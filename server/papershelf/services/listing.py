"""Listing a user's papers: filters (search, tag, topic, ids), sorting, cursors, and the tag and
topic counts the library page shows."""

import base64
import json
from collections import Counter
from datetime import date

from peewee import Case, fn

from papershelf.domain.entry_types import READING_STATES
from papershelf.domain.errors import Invalid
from papershelf.services import search
from papershelf.store import papers as queries
from papershelf.store import records
from papershelf.store.models import Paper, PaperTag, Tag, User

NOT_A_CURSOR = "not a cursor from this API"


def encode_cursor(values: list) -> str:
    """An opaque cursor holding ``values`` (JSON, URL-safe base64)."""
    return base64.urlsafe_b64encode(json.dumps(values).encode()).decode().rstrip("=")


def is_row_id(value) -> bool:
    return type(value) is int and 0 < value < 2**63


def decode_cursor(cursor: str, length: int) -> list:
    """The ``length`` values of a cursor ``encode_cursor`` made; anything else (not base64, not
    JSON, another shape) is a field error. The caller checks what the values mean."""
    try:
        pad = "=" * (-len(cursor) % 4)
        values = json.loads(base64.urlsafe_b64decode(cursor + pad))
        if not isinstance(values, list) or len(values) != length:
            raise ValueError
    except (ValueError, TypeError, UnicodeDecodeError, RecursionError) as e:
        raise Invalid(fields={"cursor": [NOT_A_CURSOR]}) from e
    return values


def _decode_cursor(cursor: str, sort: str) -> tuple[date | None, int]:
    """``(published, last id)`` of a cursor this API gave for ``sort``; anything else (a forged
    cursor, one of the other sort's) is a field error."""
    published, last_id = decode_cursor(cursor, 2)
    if not is_row_id(last_id):
        raise Invalid(fields={"cursor": [NOT_A_CURSOR]})
    if sort == "published":
        try:
            return date.fromisoformat(published), last_id
        except (TypeError, ValueError):
            raise Invalid(fields={"cursor": ["not a cursor of sort=published"]}) from None
    if published is not None:
        raise Invalid(fields={"cursor": ["not a cursor of sort=saved"]})
    return None, last_id


def filtered(user: User, q: str | None = None, tag: str | None = None,
             topic: str | None = None, ids: list[int] | None = None, state: str | None = None,
             starred: bool | None = None):
    """The user's papers matching the filters (a peewee query, unordered)."""
    query = Paper.select().where(Paper.user == user)
    if ids is not None:
        query = query.where(Paper.id.in_(ids))
    if state:
        query = query.where(Paper.reading_state == state)
    if starred is not None:
        query = query.where(Paper.starred == starred)
    return narrowed(query, q=q, tag=tag, topic=topic, tag_owner=user)


def narrowed(query, *, q=None, tag=None, topic=None, tag_owner=None):
    """``query`` (of papers) with the filters: ``tag`` names a tag of ``tag_owner`` (of any
    user when None: a group's shelf, where each sharer tags their own copy)."""
    if tag:
        named = fn.LOWER(Tag.name) == tag.lower()
        if tag_owner is not None:
            named &= Tag.user == tag_owner
        tagged = PaperTag.select(PaperTag.paper).join(Tag).where(named)
        query = query.where(Paper.id.in_(tagged))
    if topic:
        query = query.where(queries.has_topic(topic))
    if q:
        match = search.matching(q)
        if match is not None:
            query = query.where(match)
    return query


def count_papers(user: User, q=None, tag=None, topic=None, state=None, starred=None) -> int:
    return filtered(user, q=q, tag=tag, topic=topic, state=state, starred=starred).count()


def matching_ids(user: User, **filters) -> list[int]:
    """The ids of every paper of the user's that the filters match, newest first ("select all
    matching")."""
    return [pid for (pid,) in filtered(user, **filters).select(Paper.id)
            .order_by(Paper.id.desc()).tuples()]


# Sorts in pages of a position (numbered pages); "saved" (= "added") and "published" go on
# from the last paper (a keyset cursor), as they always did.
def _venue():
    return fn.LOWER(fn.COALESCE(Paper.journal, Paper.booktitle, Paper.publisher,
                                Paper.journal_ref, "\uffff"))


POSITIONED_SORTS = {
    "title": lambda: (fn.LOWER(Paper.title).asc(), Paper.id.asc()),
    # authors is a JSON list: its text sorts by the first author's name as written
    "first_author": lambda: (fn.LOWER(Paper.authors).asc(), Paper.id.asc()),
    "venue": lambda: (_venue().asc(), Paper.id.asc()),
    "citation_key": lambda: (fn.LOWER(Paper.citation_key).asc(), Paper.id.asc()),
    # in reading order: unread, to read, reading, read
    "state": lambda: (Case(Paper.reading_state, [(s, i) for i, s in enumerate(READING_STATES)],
                           len(READING_STATES)).asc(), Paper.id.desc()),
}
SORTS = ("saved", "added", "published", *POSITIONED_SORTS)


def _position(cursor: str, sort: str) -> int:
    named, offset = decode_cursor(cursor, 2)
    if named != sort or type(offset) is not int or not 0 <= offset < 2**31:
        raise Invalid(fields={"cursor": [f"not a cursor of sort={sort}"]})
    return offset


def list_papers(user: User, *, q=None, tag=None, topic=None, limit=50, cursor=None,
                sort="saved", state=None, starred=None, page=None) -> dict:
    """A page of the user's papers: ``{"items", "next_cursor", "total", "page", "pages"}``.
    ``page`` (from 1) asks for a numbered page of any sort; ``cursor`` goes on from the last."""
    query = filtered(user, q=q, tag=tag, topic=topic, state=state, starred=starred)
    total = query.count()
    pages = max(1, -(-total // limit))
    if sort == "added":
        sort = "saved"
    if page is not None or sort in POSITIONED_SORTS:
        return _positioned(query, sort, limit, cursor, page, total, pages)
    answer = _keyset(query, sort, limit, cursor)
    return {**answer, "total": total, "page": None if cursor else 1, "pages": pages}


def _order(query, sort):
    if sort in POSITIONED_SORTS:
        return query.order_by(*POSITIONED_SORTS[sort]())
    if sort == "published":
        return query.order_by(fn.COALESCE(Paper.published, date(1, 1, 1)).desc(), Paper.id.desc())
    return query.order_by(Paper.id.desc())


def _positioned(query, sort, limit, cursor, page, total, pages) -> dict:
    offset = (page - 1) * limit if page is not None else (_position(cursor, sort) if cursor else 0)
    papers = list(_order(query, sort).offset(offset).limit(limit))
    more = offset + len(papers) < total
    return {"items": records.paper_records(papers),
            "next_cursor": encode_cursor([sort, offset + limit]) if more and papers else None,
            "total": total, "page": offset // limit + 1, "pages": pages}


def _keyset(query, sort, limit, cursor) -> dict:
    if sort == "published":
        # Papers without a date sort last: treat them as 0001-01-01.
        key = fn.COALESCE(Paper.published, date(1, 1, 1))
        if cursor:
            pub, last_id = _decode_cursor(cursor, sort)
            query = query.where((key < pub) | ((key == pub) & (Paper.id < last_id)))
        query = query.order_by(key.desc(), Paper.id.desc())
    else:
        if cursor:
            _, last_id = _decode_cursor(cursor, sort)
            query = query.where(Paper.id < last_id)
        query = query.order_by(Paper.id.desc())
    papers = list(query.limit(limit + 1))
    more = len(papers) > limit
    papers = papers[:limit]
    next_cursor = None
    if more and papers:
        last = papers[-1]
        first = (last.published or date(1, 1, 1)).isoformat() if sort == "published" else None
        next_cursor = encode_cursor([first, last.id])
    return {"items": records.paper_records(papers), "next_cursor": next_cursor}


def tag_counts(user: User) -> list[tuple[str, int]]:
    """The user's tags with how many papers carry each, the most used first (then by name)."""
    rows = (Tag.select(Tag.name, fn.COUNT(PaperTag.id))
            .join(PaperTag).join(Paper)
            .where((Tag.user == user) & (Paper.user == user))
            .group_by(Tag.id, Tag.name).tuples())
    return sorted(rows, key=lambda r: (-r[1], r[0].casefold()))


def topic_counts(user: User, most: int = 40) -> list[tuple[str, int]]:
    """The topics (page tags) of the user's papers, the most frequent first."""
    counts = Counter()
    for (topics,) in Paper.select(Paper.topics).where(Paper.user == user).tuples():
        for t in topics or []:
            counts[t] += 1
    return sorted(counts.items(), key=lambda r: (-r[1], r[0].casefold()))[:most]
