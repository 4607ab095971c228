"""Papers: save (idempotent, merging), read, edit, delete, list and search, page lookup, tags."""

import base64
import json
from datetime import date

from peewee import IntegrityError, fn

from papershelf.db import db, in_list, is_postgres, is_sqlite, run_write, write_transaction
from papershelf.domain import identifiers
from papershelf.errors import Conflict, NotFound, ValidationFailed
from papershelf.formats.citekey import base_key, make_citation_key
from papershelf.models import Paper, PaperTag, Tag, User, utcnow
from papershelf.services import records, search

# Fields a page save can fill. Lists merge as described in save_paper.
PAGE_FIELDS = (
    "arxiv_id", "arxiv_version", "doi", "url", "title", "authors", "authors_more", "abstract",
    "published", "affiliations", "topics", "primary_category", "categories", "journal_ref",
    "comments", "source_url",
)
IDENTITY_FIELDS = ("arxiv_id", "doi", "url")
SAVE_ATTEMPTS = 5


def lock_user(user: User) -> None:
    """Serialize an edit or an import with the user's other edits and imports, and with saves
    that insert a paper (on PostgreSQL their foreign key takes a share lock on the same row).
    SQLite's IMMEDIATE transactions already do. Page saves do not take it: they run side by side
    and the unique indexes settle a race between two saves (see save_paper)."""
    if is_postgres():
        db.execute_sql('SELECT id FROM "user" WHERE id = %s FOR UPDATE', (user.id,))


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
    p = db.param
    # PostgreSQL: the rows found stay locked to this save, so two saves of one paper merge one
    # after the other (the second reads what the first wrote).
    rows = db.execute_sql(
        f"SELECT id, {', '.join(keys)} FROM paper WHERE user_id = {p} AND ("
        + " OR ".join(f"{k} = {p}" for k in keys) + ")"
        + (" FOR UPDATE" if is_postgres() else ""),
        [user.id] + [data[k] for k in keys]).fetchall()
    if not rows:
        return None

    def rank(row):
        return next(i for i, k in enumerate(keys) if row[i + 1] == data[k])

    return Paper.get_by_id(min(rows, key=rank)[0])


def _default_url(data: dict) -> None:
    if data.get("arxiv_id") and not data.get("url"):
        data["url"] = identifiers.arxiv_abs_url(data["arxiv_id"])


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
    if is_postgres():
        # Saves run side by side on PostgreSQL: two papers with one base key take turns here,
        # so the second sees the first's key (others do not wait).
        db.execute_sql("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (user.id, base))
    # Keys are ASCII; every suffix sorts below "~", so this range is "starts with base".
    p = db.param
    taken = {k for (k,) in db.execute_sql(
        f"SELECT citation_key FROM paper WHERE user_id = {p} AND citation_key >= {p}"
        f" AND citation_key < {p}", (user.id, base, base + "~")).fetchall()}
    return make_citation_key(record, taken, base)


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


_INSERT_SQL: dict[str, str] = {}
_INSERT_FIELDS = [f for f in Paper._meta.sorted_fields if f.name != "id"]


def _insert_paper(paper: Paper) -> Paper:
    """INSERT one paper with a statement built once per store (peewee's per-call SQL generation
    was a fifth of a save's time); values go through the fields' own db_value conversion."""
    p = db.param
    sql = _INSERT_SQL.get(p)
    if sql is None:
        cols = ", ".join(f'"{f.column_name}"' for f in _INSERT_FIELDS)
        sql = _INSERT_SQL[p] = (f'INSERT INTO "paper" ({cols}) VALUES '
                                f'({", ".join([p] * len(_INSERT_FIELDS))}) RETURNING "id"')
    data = paper.__data__
    values = [f.db_value(data.get(f.name)) for f in _INSERT_FIELDS]
    paper.id = db.execute_sql(sql, values).fetchone()[0]
    return paper


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
    paper = _insert_paper(Paper(
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
        lock_user(user)
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
                raise ValidationFailed(fields={key: ["cannot be empty"]})
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
        raise ValidationFailed(fields={"cursor": ["not a cursor from this API"]}) from e


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
        # topics are a JSON list: the quoted, JSON-escaped name matches one whole element.
        needle = json.dumps(topic, ensure_ascii=False).lower()
        position = fn.instr if is_sqlite() else fn.strpos
        query = query.where(position(fn.LOWER(Paper.topics), needle) > 0)
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


_LOOKUP_COLUMNS = ("id, arxiv_id, url, source_url, citation_key, authors, authors_more,"
                   " primary_category, enrichment, enrichment_reason, enrichment_at")


def lookup(user: User, arxiv_ids: list[str], urls: list[str]) -> dict:
    """Which of a page's papers are saved, with their tags, notes and highlights. PostgreSQL
    answers all of it in one query (each round trip cost milliseconds); SQLite, in process, in
    one query for the papers and one each for their tags, notes and highlights."""
    wanted_ids, wanted_urls, invalid = {}, {}, []
    for raw in arxiv_ids:
        norm = identifiers.try_arxiv_id(raw)
        if norm is None:
            invalid.append(raw)
        else:
            wanted_ids[norm] = True
    for raw in urls:
        norm = identifiers.try_arxiv_id(raw)
        if norm is not None:
            wanted_ids[norm] = True
            continue
        try:
            wanted_urls[identifiers.normalize_url(raw)] = True
        except ValueError:
            invalid.append(raw)
    if not wanted_ids and not wanted_urls:
        return {"papers": {}, "invalid": invalid}
    # Hot path (a page load): plain SQL, no model objects. One query finds the papers.
    p = db.param
    where = []
    params = [user.id]
    for column, values in (("arxiv_id", wanted_ids), ("url", wanted_urls),
                           ("source_url", wanted_urls)):
        if values:
            sql, more = in_list(column, list(values))
            where.append(sql)
            params += more
    where = f"user_id = {p} AND ({' OR '.join(where)})"
    if is_postgres():
        ctes, children, joins = records.children_json_sql("p")
        rows = db.execute_sql(
            f"WITH p AS (SELECT {_LOOKUP_COLUMNS} FROM paper WHERE {where}), {ctes}"
            f" SELECT p.*, {children} FROM p {joins}", params).fetchall()
    else:
        rows = db.execute_sql(f"SELECT {_LOOKUP_COLUMNS} FROM paper WHERE {where}",
                              params).fetchall()
        ids = [r[0] for r in rows]
        tags = records.tags_by_paper(ids)
        notes = records.notes_by_paper(ids)
        highlights = records.highlights_by_paper(ids)
        rows = [(*r, tags[r[0]], notes[r[0]], highlights[r[0]]) for r in rows]
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

