"""Papers: save (idempotent, merging), read, edit, delete, list and search, page lookup, tags."""

import base64
import json
from datetime import date

from peewee import IntegrityError, fn

from papershelf import arxiv
from papershelf.domain.errors import Conflict, Invalid, NotFound
from papershelf.formats.citekey import base_key, make_citation_key
from papershelf.services import search
from papershelf.store import papers as queries
from papershelf.store import records
from papershelf.store.db import run_write, write_transaction
from papershelf.store.models import Paper, PaperTag, Tag, User, utcnow

# Fields a page save can fill. Lists merge as described in save_paper.
PAGE_FIELDS = (
    "arxiv_id", "arxiv_version", "doi", "url", "title", "authors", "authors_more", "abstract",
    "published", "affiliations", "topics", "primary_category", "categories", "journal_ref",
    "comments", "source_url",
)
IDENTITY_FIELDS = ("arxiv_id", "doi", "url")
SAVE_ATTEMPTS = 5


def get_paper(user: User, paper_id: int) -> Paper:
    paper = Paper.get_or_none((Paper.id == paper_id) & (Paper.user == user))
    if paper is None:
        raise NotFound("no such paper")
    return paper


def paper_detail(paper: Paper) -> dict:
    fresh_tags = getattr(paper, "fresh_tags", None)
    if fresh_tags is not None:  # created in this request: no notes or highlights yet
        return records.paper_record(paper, fresh_tags, [], [])
    return records.paper_records([paper])[0]


def find_existing(user: User, data: dict) -> Paper | None:
    """The saved paper this save is about: by client_id, then arXiv id, then DOI, then URL."""
    keys = [k for k in ("client_id",) + IDENTITY_FIELDS if data.get(k)]
    if not keys:
        return None
    rows = queries.rows_with_any(user.id, {k: data[k] for k in keys})
    if not rows:
        return None

    def rank(row):
        return next(i for i, k in enumerate(keys) if row[i + 1] == data[k])

    return Paper.get_by_id(min(rows, key=rank)[0])


def _default_url(data: dict) -> None:
    if data.get("arxiv_id") and not data.get("url"):
        data["url"] = arxiv.arxiv_abs_url(data["arxiv_id"])


def _assign_citation_key(user: User, paper_fields: dict) -> str:
    record = {
        "title": paper_fields.get("title", ""),
        "authors": paper_fields.get("authors") or [],
        "published": (paper_fields["published"].isoformat()
                      if isinstance(paper_fields.get("published"), date)
                      else paper_fields.get("published")),
        "arxiv_id": paper_fields.get("arxiv_id"),
    }
    base = base_key(record)
    return make_citation_key(record, queries.keys_starting_with(user.id, base), base)


def set_tags(paper: Paper, names: list[str]) -> None:
    PaperTag.delete().where(PaperTag.paper == paper.id).execute()
    for position, name in enumerate(names):
        tag = Tag.get_or_none((Tag.user == paper.user_id) & (Tag.name == name))
        if tag is None:
            tag = Tag.create(user=paper.user_id, name=name)
        PaperTag.create(paper=paper.id, tag=tag, position=position)


def tag_names(paper: Paper) -> list[str]:
    return records.tags_by_paper([paper.id])[paper.id]


def _merge_page_fields(paper: Paper, data: dict) -> bool:
    """A later page save fills gaps and refreshes page data, but never touches what the user
    edited, and never replaces what arXiv's API supplied with the page's shorter version."""
    protected = set(paper.edited_fields or []) | set(paper.enriched_fields or [])
    changed = False
    for key in PAGE_FIELDS:
        if key not in data or key in protected:
            continue
        new = data[key]
        old = getattr(paper, key)
        if key == "topics":
            new = old + [t for t in new if t.casefold() not in {o.casefold() for o in old}]
        elif key == "arxiv_version":
            new = max(old or 0, new or 0) or None
        elif new in (None, "", []):
            continue  # a page that lacks a field does not erase it
        elif key == "authors_more" and "authors" in protected:
            continue
        if key in IDENTITY_FIELDS and old and new != old:
            continue  # a paper's identity is set once; the user can PATCH it
        if new != old:
            setattr(paper, key, new)
            changed = True
    return changed


def save_paper(user: User, data: dict, *, enrich: bool = False) -> tuple[Paper, bool]:
    """Save a paper from a page. Returns (paper, created). Saving again merges, never duplicates."""
    data = dict(data)
    _default_url(data)
    tags = data.pop("tags", None)
    fields = {k: v for k, v in data.items() if k in PAGE_FIELDS}
    for attempt in range(SAVE_ATTEMPTS):
        try:
            return run_write(lambda: _save(user, data, fields, tags, enrich))
        except IntegrityError:
            # On PostgreSQL saves are not serialized: another save created the same paper (or
            # the same new tag) between our look and our insert, and the unique index refused
            # ours. Look again: this time the paper is found and merged.
            if attempt == SAVE_ATTEMPTS - 1:
                raise
    raise AssertionError("unreachable")


def _save(user, data, fields, tags, enrich) -> tuple[Paper, bool]:
    paper = find_existing(user, data)
    if paper is not None:
        changed = _merge_page_fields(paper, data)
        if enrich and paper.arxiv_id and paper.enrichment is None:
            queue_enrichment(paper)  # saved while enrichment was off
            changed = True
        if tags:
            current = tag_names(paper)
            extra = [t for t in tags if t.casefold() not in {c.casefold() for c in current}]
            if extra:
                set_tags(paper, current + extra)
                changed = True
        if changed:
            paper.updated_at = utcnow()
            paper.save()
            search.reindex(paper)
        return paper, False
    now = utcnow()
    queued = bool(enrich and fields.get("arxiv_id"))
    paper = queries.insert_paper(Paper(
        user=user,
        client_id=data.get("client_id"),
        citation_key=_assign_citation_key(user, fields),
        enrichment="pending" if queued else None,
        enrichment_due=now if queued else None,
        created_at=now,
        updated_at=now,
        **fields,
    ))
    if tags:
        set_tags(paper, tags)
    search.index_new(paper, tags or [])
    paper.fresh_tags = list(tags or [])
    return paper, True


def queue_enrichment(paper: Paper) -> None:
    """Put a paper (back) in the store's enrichment queue, due now."""
    paper.enrichment = "pending"
    paper.enrichment_reason = None
    paper.enrichment_due = utcnow()
    paper.enrichment_attempts = 0


def update_paper(user: User, paper_id: int, data: dict, *, enrich: bool = False) -> Paper:
    """A person's edit: applied as given, and remembered so no page save overwrites it."""
    try:
        return _update_paper(user, paper_id, dict(data), enrich)
    except IntegrityError:
        # PostgreSQL: a page save merging into another paper filled in this arXiv id, DOI or
        # URL after our check (a merge does not wait for the user's lock); the unique index
        # refused ours.
        raise Conflict("another paper was just saved with this arXiv id, DOI or URL") from None


def _update_paper(user: User, paper_id: int, data: dict, enrich: bool) -> Paper:
    with write_transaction():
        queries.lock_user(user.id)
        paper = get_paper(user, paper_id)
        tags = data.pop("tags", None)
        if "citation_key" in data and data["citation_key"] != paper.citation_key:
            clash = Paper.get_or_none((Paper.user == user)
                                      & (Paper.citation_key == data["citation_key"]))
            if clash is not None:
                raise Conflict(f"the citation key {data['citation_key']!r} is taken",
                               fields={"citation_key": ["already used by another paper"]})
        for key in IDENTITY_FIELDS:
            if data.get(key) and data[key] != getattr(paper, key):
                clash = Paper.get_or_none((Paper.user == user) & (getattr(Paper, key) == data[key]))
                if clash is not None:
                    raise Conflict(f"another paper has this {key}",
                                   fields={key: [f"already saved as paper {clash.id}"]})
        edited = list(paper.edited_fields or [])
        for key, value in data.items():
            if key in ("title",) and not value:
                raise Invalid(fields={key: ["cannot be empty"]})
            if key in ("authors", "affiliations", "topics", "categories") and value is None:
                value = []
            if key == "abstract" and value is None:
                value = ""
            if key == "authors_more" and value is None:
                value = 0
            setattr(paper, key, value)
            if key not in edited:
                edited.append(key)
        if tags is not None:
            set_tags(paper, tags)
            if "tags" not in edited:
                edited.append("tags")
        if enrich and paper.arxiv_id and "arxiv_id" in data:
            queue_enrichment(paper)  # a new arXiv id: complete the paper from it
        paper.edited_fields = edited
        paper.updated_at = utcnow()
        paper.save()
        search.reindex(paper)
    return paper


def delete_paper(user: User, paper_id: int) -> None:
    with write_transaction():
        paper = get_paper(user, paper_id)
        search.unindex(paper.id)
        paper.delete_instance()  # notes, highlights and tag links go by ON DELETE CASCADE


def touch(paper: Paper) -> None:
    """A note or highlight changed: the paper's search document and updated_at follow."""
    Paper.update(updated_at=utcnow()).where(Paper.id == paper.id).execute()
    search.reindex(paper)


# ---- listing -------------------------------------------------------------------------------


def _encode_cursor(values: list) -> str:
    return base64.urlsafe_b64encode(json.dumps(values).encode()).decode().rstrip("=")


def _decode_cursor(cursor: str) -> list:
    try:
        pad = "=" * (-len(cursor) % 4)
        values = json.loads(base64.urlsafe_b64decode(cursor + pad))
        if not isinstance(values, list) or len(values) != 2 or not isinstance(values[1], int):
            raise ValueError
        return values
    except (ValueError, TypeError, UnicodeDecodeError) as e:
        raise Invalid(fields={"cursor": ["not a cursor from this API"]}) from e


def _like_escape(s: str) -> str:
    return s.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def filtered(user: User, q: str | None = None, tag: str | None = None,
             topic: str | None = None, ids: list[int] | None = None):
    """The user's papers matching the filters (a peewee query, unordered)."""
    query = Paper.select().where(Paper.user == user)
    if ids is not None:
        query = query.where(Paper.id.in_(ids))
    if tag:
        tagged = (PaperTag.select(PaperTag.paper).join(Tag)
                  .where((Tag.user == user) & (fn.LOWER(Tag.name) == tag.lower())))
        query = query.where(Paper.id.in_(tagged))
    if topic:
        query = query.where(queries.has_topic(topic))
    if q:
        match = search.matching(q)
        if match is not None:
            query = query.where(match)
    return query


def list_papers(user: User, *, q=None, tag=None, topic=None, limit=50, cursor=None,
                sort="saved") -> dict:
    query = filtered(user, q=q, tag=tag, topic=topic)
    if sort == "published":
        # Papers without a date sort last: treat them as 0001-01-01.
        key = fn.COALESCE(Paper.published, date(1, 1, 1))
        if cursor:
            pub, last_id = _decode_cursor(cursor)
            pub = date.fromisoformat(pub)
            query = query.where((key < pub) | ((key == pub) & (Paper.id < last_id)))
        query = query.order_by(key.desc(), Paper.id.desc())
    else:
        if cursor:
            _, last_id = _decode_cursor(cursor)
            query = query.where(Paper.id < last_id)
        query = query.order_by(Paper.id.desc())
    papers = list(query.limit(limit + 1))
    more = len(papers) > limit
    papers = papers[:limit]
    next_cursor = None
    if more and papers:
        last = papers[-1]
        first = (last.published or date(1, 1, 1)).isoformat() if sort == "published" else None
        next_cursor = _encode_cursor([first, last.id])
    return {"items": records.paper_records(papers), "next_cursor": next_cursor}


# ---- page lookup ---------------------------------------------------------------------------


def lookup(user: User, arxiv_ids: list[str], urls: list[str]) -> dict:
    """Which of a page's papers are saved, with their tags, notes and highlights."""
    wanted_ids, wanted_urls, invalid = {}, {}, []
    for raw in arxiv_ids:
        norm = arxiv.try_arxiv_id(raw)
        if norm is None:
            invalid.append(raw)
        else:
            wanted_ids[norm] = True
    for raw in urls:
        norm = arxiv.try_arxiv_id(raw)
        if norm is not None:
            wanted_ids[norm] = True
            continue
        try:
            wanted_urls[arxiv.normalize_url(raw)] = True
        except ValueError:
            invalid.append(raw)
    if not wanted_ids and not wanted_urls:
        return {"papers": {}, "invalid": invalid}
    # Hot path (a page load): plain SQL, no model objects.
    rows = queries.lookup_rows(user.id, list(wanted_ids), list(wanted_urls))
    out = {}
    for (pid, arxiv_id, url, source_url, key, authors, more, category, state, reason,
         at, tags_, notes_, highlights_) in rows:
        entry = {
            "id": pid,
            "citation_key": key,
            "enrichment": {"state": state, "reason": reason, "at": records.ts(at)},
            "tags": tags_ or [],
            "notes": notes_ or [],
            "highlights": highlights_ or [],
        }
        if state == "done":  # what arXiv completed; the page has its own list until then
            entry.update(authors=json.loads(authors) if authors else [], authors_more=more,
                         primary_category=category)
        if arxiv_id and arxiv_id in wanted_ids:
            out[arxiv_id] = entry
        for u in (url, source_url):
            if u and u in wanted_urls:
                out[u] = entry
    return {"papers": out, "invalid": invalid}

