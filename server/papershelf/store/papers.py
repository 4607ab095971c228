"""The queries a save, an edit and a page lookup make, with their dialect differences.

Saves are the hot path: these are plain SQL built once, not peewee's per-call generation.
"""

import functools
import hashlib
import json

import orjson
from peewee import fn

from papershelf.domain.identities import SCHEMES, identities_of, identities_of_url
from papershelf.store import groups as group_queries
from papershelf.store import page_cache, records
from papershelf.store.db import db, execute_prepared, in_list, is_postgres, is_sqlite
from papershelf.store.models import Paper


def lock_user(user_id: int) -> None:
    """Serialize an import or a re-keying with the user's other imports and re-keyings
    (SQLite's IMMEDIATE transactions already do). An advisory lock, not the user's row: every
    insert of a paper or a tag takes a key-share lock on that row, so holding it for update
    made saves and edits of one user wait on each other and deadlock. Saves and edits do not
    take it: they lock the paper they write first, and the unique indexes settle the rest."""
    if is_postgres():
        db.execute_sql("SELECT pg_advisory_xact_lock(%s, hashtext('user'))", (user_id,))


def lock_paper(user_id: int, paper_id: int) -> bool:
    """Lock the user's paper for this transaction (PostgreSQL), the first lock an edit takes,
    as a save takes it first too: one order, so the two never deadlock. False: no such paper.
    ``FOR NO KEY UPDATE``: notes and highlights being added to it (their foreign key takes a
    key-share lock) do not wait."""
    p = db.param
    lock = " FOR NO KEY UPDATE" if is_postgres() else ""
    return db.execute_sql(f"SELECT id FROM paper WHERE id = {p} AND user_id = {p}{lock}",
                          (paper_id, user_id)).fetchone() is not None


def papers_of(ids: list[int]) -> list[Paper]:
    """The papers of ``ids`` that exist, in that order, read 500 at a time."""
    by_id = {}
    for i in range(0, len(ids), 500):
        by_id.update((p.id, p) for p in Paper.select().where(Paper.id.in_(ids[i:i + 500])))
    return [by_id[pid] for pid in ids if pid in by_id]


def lock_papers(user_id: int, paper_ids: list[int]) -> set[int]:
    """``lock_paper`` for many papers in a few statements: the user's papers among
    ``paper_ids``, locked in id order (rows are locked as the sorted scan returns them), as a
    ``lock_paper`` for each in that order would."""
    p = db.param
    lock = " FOR NO KEY UPDATE" if is_postgres() else ""
    ids = sorted(set(paper_ids))
    found: set[int] = set()
    for i in range(0, len(ids), 5000):
        where, params = in_list("id", ids[i:i + 5000])
        found.update(pid for (pid,) in db.execute_sql(
            f"SELECT id FROM paper WHERE user_id = {p} AND {where} ORDER BY id{lock}",
            [user_id, *params]).fetchall())
    return found


def ensure_tags(user_id: int, names: list[str]) -> dict[str, int]:
    """The ids of the user's tags named ``names``, creating those missing. Inserts are
    optimistic (``ON CONFLICT DO NOTHING``: a tag another save created meanwhile is simply
    read) and made in one order (by name), so two saves creating the same new tags wait for one
    another instead of deadlocking."""
    wanted = sorted(set(names))
    if not wanted:
        return {}
    p = db.param
    for name in wanted:
        db.execute_sql(f"INSERT INTO tag (user_id, name) VALUES ({p}, {p})"
                       " ON CONFLICT (user_id, name) DO NOTHING", (user_id, name))
    where, params = in_list("name", wanted)
    return dict(db.execute_sql(f"SELECT name, id FROM tag WHERE user_id = {p} AND {where}",
                               [user_id, *params]).fetchall())


def rows_with_any(user_id: int, values: dict) -> list[tuple]:
    """The user's papers whose column equals the value for any of ``values`` ({column: value}):
    ``(id, title, *those columns)``, oldest first. On PostgreSQL the rows found stay locked to
    this transaction, so two saves of one paper merge one after the other (the second reads what
    the first wrote). The lock is the one ``lock_paper`` takes."""
    keys = list(values)
    p = db.param
    return db.execute_sql(
        f"SELECT id, title, {', '.join(keys)} FROM paper WHERE user_id = {p} AND ("
        + " OR ".join(f"{k} = {p}" for k in keys) + ") ORDER BY id"
        + (" FOR NO KEY UPDATE" if is_postgres() else ""),
        [user_id] + [values[k] for k in keys]).fetchall()


def lock_identity(user_id: int, identity: str) -> None:
    """PostgreSQL: saves of papers known by one DOI or URL (no unique index settles a race
    between them: works may share those) take turns from here to their commit."""
    if is_postgres():
        db.execute_sql("SELECT pg_advisory_xact_lock(%s, hashtext(%s))",
                       (user_id, "identity:" + identity))


def keys_starting_with(user_id: int, base: str) -> set[str]:
    """The user's citation keys that start with ``base`` without regard to case, lower-cased
    (keys are unique that way: BibTeX's rule). On PostgreSQL, saves of papers with one base key
    take turns from here to their commit (others do not wait), so the second sees the first's
    key."""
    base = base.lower()
    if is_postgres():
        db.execute_sql("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (user_id, base))
    # Every suffix sorts below "~", so this range is "starts with base" (the index on the user
    # and the lower-cased key answers it).
    p = db.param
    return {k.lower() for (k,) in db.execute_sql(
        f"SELECT citation_key FROM paper WHERE user_id = {p} AND LOWER(citation_key) >= {p}"
        f" AND LOWER(citation_key) < {p}", (user_id, base, base + "~")).fetchall()}


def citation_key_owner(user_id: int, key: str) -> int | None:
    """The id of the user's paper whose citation key is ``key`` but for case, or None."""
    p = db.param
    row = db.execute_sql(
        f"SELECT id FROM paper WHERE user_id = {p} AND LOWER(citation_key) = {p}",
        (user_id, key.lower())).fetchone()
    return row[0] if row else None


_INSERT_SQL: dict[str, str] = {}
_INSERT_FIELDS = [f for f in Paper._meta.sorted_fields if f.name != "id"]


def insert_paper(paper: Paper) -> Paper:
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


def has_topic(topic: str):
    """A peewee expression: the paper's topics (a JSON list) hold ``topic``, in any case."""
    # The quoted, JSON-escaped name matches one whole element.
    needle = json.dumps(topic, ensure_ascii=False).lower()
    position = fn.instr if is_sqlite() else fn.strpos
    return position(fn.LOWER(Paper.topics), needle) > 0


# An identity longer than this (in UTF-8) is stored as its SHA-256: an index entry has a size
# limit on PostgreSQL, and a URL may be 2,000 characters of any script.
IDENTITY_STORED_MAX = 500
_IDENTITY_BATCH = 300  # rows per INSERT: 900 parameters, under SQLite's oldest limit


def identity_key(identity: str) -> str:
    """An identity as the store keeps it and is asked for it: itself, or ``sha256:<hex>``."""
    if len(identity) * 4 <= IDENTITY_STORED_MAX:
        return identity
    data = identity.encode("utf-8", "surrogatepass")
    return identity if len(data) <= IDENTITY_STORED_MAX else (
        "sha256:" + hashlib.sha256(data).hexdigest())


def identities_of_fields(*, url=None, source_url=None, doi=None, arxiv_id=None,
                         pdf_url=None) -> list[str]:
    """A paper's identities from its stored fields, strongest first. The page it was saved from
    counts only when it names the paper (its PDF, a mirror) or the paper has no address of its
    own: a listing page's address is every paper's that was saved from it, no identity of one."""
    if not url:
        url, source_url = source_url, None
    found = identities_of(url=url, doi=doi, arxiv_id=arxiv_id, pdf_url=pdf_url)
    if source_url:
        found += [i for i in identities_of_url(source_url)
                  if not i.startswith("url:") and i not in found]
    return sorted(found, key=lambda i: SCHEMES.index(i.partition(":")[0]))


def identities_of_data(data) -> list[str]:
    """The identities of a paper's fields (a save's body, a stored paper or its row as a dict),
    strongest first."""
    get = data.get if isinstance(data, dict) else lambda k: getattr(data, k, None)
    return identities_of_fields(url=get("url"), source_url=get("source_url"), doi=get("doi"),
                                arxiv_id=get("arxiv_id"), pdf_url=get("pdf_url"))


def add_identities(rows) -> None:
    """``rows``: ``(paper_id, user_id, identities)``; each identity a paper lacks is added."""
    values = [(user_id, paper_id, key) for paper_id, user_id, found in rows
              for key in dict.fromkeys(identity_key(i) for i in found)]
    p = db.param
    for i in range(0, len(values), _IDENTITY_BATCH):
        batch = values[i:i + _IDENTITY_BATCH]
        db.execute_sql(
            "INSERT INTO paper_identity (user_id, paper_id, identity) VALUES "
            + ", ".join([f"({p}, {p}, {p})"] * len(batch))
            + " ON CONFLICT (paper_id, identity) DO NOTHING",
            [v for row in batch for v in row])


def copy_identities(from_paper: int, to_paper: int) -> None:
    """Every identity of ``from_paper`` becomes one of ``to_paper`` too (a merge: the paper
    kept is found by whatever found the other)."""
    p = db.param
    db.execute_sql(
        "INSERT INTO paper_identity (user_id, paper_id, identity) SELECT user_id, "
        f"{p}, identity FROM paper_identity WHERE paper_id = {p}"
        " ON CONFLICT (paper_id, identity) DO NOTHING", (to_paper, from_paper))


def replace_identities(user_id: int, paper_id: int, found: list[str]) -> None:
    """The paper's identities become ``found``."""
    db.execute_sql(f"DELETE FROM paper_identity WHERE paper_id = {db.param}", (paper_id,))
    add_identities([(paper_id, user_id, found)])


def papers_with_identities(user_id: int, found: list[str]) -> list[tuple[int, str]]:
    """``(paper id, identity)`` for each of the user's papers known by one of ``found``
    (identities, not yet keyed), oldest paper first."""
    if not found:
        return []
    keyed: dict[str, str] = {}
    for identity in found:
        keyed.setdefault(identity_key(identity), identity)
    where, params = in_list("identity", list(keyed))
    rows = db.execute_sql(
        f"SELECT paper_id, identity FROM paper_identity WHERE user_id = {db.param} AND {where}"
        " ORDER BY paper_id", [user_id, *params]).fetchall()
    return [(paper_id, keyed[key]) for paper_id, key in rows]


LOOKUP_COLUMNS = ("id", "citation_key", "enrichment", "enrichment_reason", "enrichment_at",
                  "authors", "authors_more", "primary_category")


def page_rows(user_id: int, keys: list[str], entry) -> tuple[list, list]:
    """What a page lookup reads of the papers known by one of ``keys`` (identities as stored,
    ``identity_key``, each once): the user's own, rows ``(paper id, entry, keys matched)`` by
    paper id, ``entry`` called with a row as ``lookup_rows``' (``LOOKUP_COLUMNS``, tags, notes,
    highlights); and those other members of the user's groups shared, rows as
    ``groups.shared_on_page``'. SQLite, in process: the rows at once. PostgreSQL: the papers
    and their versions in one query, and only what is not kept at that version
    (``page_cache``) in one more."""
    if not keys:
        return [], []
    if not is_postgres():
        own = [(row[0], entry(*row[:8], *row[9:]), row[8]) for row in lookup_rows(user_id, keys)]
        return own, group_queries.shared_on_page(user_id, keys)
    return _found_by_version(user_id, keys, entry)


def _found_by_version(user_id: int, keys: list[str], entry) -> tuple[list, list]:
    """PostgreSQL: the papers the keys find, with their versions, in one query; what is not kept
    at that version in ``page_cache.CACHE``, in one more (and kept there). Rows as
    ``page_rows``'; a paper deleted between the two queries is left out."""
    matches, shares, names = page_matches(user_id, keys)
    mine: dict[int, tuple[str, list[str]]] = {}
    theirs: dict[int, tuple[int, str, list[str]]] = {}
    for pid, owner, key, version in matches:
        if owner == user_id:
            mine.setdefault(pid, (version, []))[1].append(key)
        else:
            theirs.setdefault(pid, (owner, version, []))[2].append(key)
    groups_of: dict[int, list[dict]] = {}
    for pid, group_id, name in shares:
        groups_of.setdefault(pid, []).append({"id": group_id, "name": name})
    wanted = ([("own", pid, version) for pid, (version, _) in mine.items()]
              + [("shared", pid, theirs[pid][1]) for pid in groups_of])
    kept = page_cache.CACHE.get_many(wanted)
    found = {(kind, pid): value for (kind, pid, _), value in zip(wanted, kept, strict=True)}
    own_due = [pid for pid in mine if found[("own", pid)] is None]
    shared_due = [pid for pid in groups_of if found[("shared", pid)] is None]
    if own_due or shared_due:
        own_rows, shared_rows = page_entries(own_due, shared_due)
        read = [("own", row[0], row[8], entry(*row[:8], *row[9:])) for row in own_rows]
        read += [("shared", pid, version, (count, highlights))
                 for pid, version, count, highlights in shared_rows]
        page_cache.CACHE.put_many(read)
        for kind, pid, _, value in read:
            found[(kind, pid)] = value
    own = [(pid, found[("own", pid)], matched) for pid, (_, matched) in mine.items()
           if found[("own", pid)] is not None]
    shared = []
    for pid, groups_ in groups_of.items():
        if found[("shared", pid)] is not None:
            owner, _, matched = theirs[pid]
            count, highlights = found[("shared", pid)]
            shared.append((pid, names[owner], matched, groups_, count, highlights))
    return own, shared


def page_matches(user_id: int, keys: list[str]) -> tuple[list, list, dict]:
    """PostgreSQL: which papers a page's ``keys`` (identities as stored, ``identity_key``, each
    once) find, the user's own and those of fellow members of the user's groups, each with its
    *version*: the ``xmin`` of its row, the transaction that last wrote it. Every write of what
    a page is answered about a paper (its row, tags, notes, highlights) writes its row too, in
    the same transaction (``services.papers.touch``, ``tags._touch``; the feeds' Last-Modified
    rests on the same rule), so an answer kept for a paper at one version is still the answer
    while the version is unchanged; xmin is unique across the cluster, never reused by a row
    written again or by another database. Answers ``(matches, shares, names)``: matches ``[paper
    id, owner id, key matched, version]``, shares ``[paper id, group id, group name]`` of the
    members' papers shared to one of the user's groups (by group id), names ``{user id:
    name}``. Each key is looked up in the (user, identity) index for the user and each fellow
    member (nested probes, whatever the size of their libraries); the keys sent as one JSON
    text (orjson writes it in 0.05 ms, psycopg's binary array of 600 strings took 1 ms) and
    each match answered by its key's position; one JSON text decoded at once by orjson (the
    driver's decoding of rows was a third of the lookup's time); a prepared statement (its
    plan, probes driven by the keys, does not depend on the tables' sizes)."""
    if not keys:
        return [], [], {}
    (text,) = execute_prepared(_matches_sql(), [user_id, user_id, user_id,
                                                orjson.dumps(keys).decode(), user_id,
                                                user_id]).fetchone()
    matches, shares, names = orjson.loads(text)
    return ([(pid, owner, keys[n - 1], version) for pid, owner, n, version in matches or ()],
            shares or [], dict(names or ()))


@functools.cache
def _matches_sql() -> str:
    p = db.param
    return (
        f"WITH u AS (SELECT {p}::int AS user_id UNION ALL {group_queries.members_sql()}),"
        " k AS MATERIALIZED (SELECT pi.paper_id, pi.user_id, a.n FROM u CROSS JOIN"
        f" json_array_elements_text({p}::json) WITH ORDINALITY AS a(identity, n)"
        " CROSS JOIN LATERAL (SELECT paper_id, user_id FROM paper_identity pi"
        " WHERE pi.user_id = u.user_id AND pi.identity = a.identity OFFSET 0) pi)"
        " SELECT json_build_array("
        " (SELECT json_agg(json_build_array(k.paper_id, k.user_id, k.n, p.xmin)"
        "  ORDER BY k.paper_id) FROM k CROSS JOIN LATERAL (SELECT xmin FROM paper p"
        "  WHERE p.id = k.paper_id OFFSET 0) p),"
        " (SELECT json_agg(json_build_array(ps.paper_id, g.id, g.name) ORDER BY ps.paper_id, g.id)"
        "  FROM paper_share ps JOIN user_group g ON g.id = ps.group_id WHERE ps.paper_id IN"
        f"  (SELECT paper_id FROM k WHERE user_id <> {p}) AND ps.group_id IN"
        f"  (SELECT group_id FROM group_member WHERE user_id = {p})),"
        ' (SELECT json_agg(json_build_array(o.id, o.name)) FROM "user" o'
        "  WHERE o.id IN (SELECT user_id FROM u))"
        ")::text")


def page_entries(own: list[int], shared: list[int]) -> tuple[list, list]:
    """PostgreSQL: what a page is answered about papers, each with its version (as
    ``page_matches``', read in the same statement as the rest): for the user's own ``own``,
    rows as ``lookup_rows``' (``LOOKUP_COLUMNS``, version, tags, notes, highlights); for
    fellow members' ``shared``, rows ``(paper id, version, notes count, highlights)``. One
    query and one JSON text; the timestamp written as SQLite keeps it, for ``records.ts``; the
    authors, decoded, only where arXiv completed them (the page has its own list until
    then)."""
    if not own and not shared:
        return [], []
    (text,) = execute_prepared(_entries_sql(), [own, shared]).fetchone()
    papers, tags, notes, highlights, others = (part or [] for part in orjson.loads(text))
    tags_of = _by_paper(tags, lambda tag: tag[0], lambda tag: tag[1])
    notes_of = _by_paper(notes, lambda note: note["paper_id"])
    highlights_of = _by_paper(highlights, lambda highlight: highlight["paper_id"])
    return ([(*row, tags_of.get(row[0], []), notes_of.get(row[0], []),
              highlights_of.get(row[0], [])) for row in papers],
            [(pid, version, count, highlights_of.get(pid, [])) for pid, version, count in others])


def _by_paper(items, paper_of, value=lambda item: item) -> dict[int, list]:
    """paper id → the values of its ``items``, in their order."""
    grouped: dict[int, list] = {}
    for item in items:
        grouped.setdefault(paper_of(item), []).append(value(item))
    return grouped


@functools.cache
def _entries_sql() -> str:
    paper = ", ".join(
        "to_char(p.enrichment_at, 'YYYY-MM-DD HH24:MI:SS.US')" if c == "enrichment_at" else
        "CASE WHEN p.enrichment = 'done' THEN p.authors::json END" if c == "authors" else
        f"p.{c}" for c in LOOKUP_COLUMNS)
    note = records.pg_json_record(records.NOTE_COLUMNS)
    highlight = records.pg_json_record(records.HIGHLIGHT_COLUMNS)
    return (
        "WITH mine AS (SELECT unnest(%b::int[]) AS paper_id),"
        " theirs AS (SELECT unnest(%b::int[]) AS paper_id)"
        " SELECT json_build_array("
        f" (SELECT json_agg(json_build_array({paper}, p.xmin) ORDER BY p.id) FROM paper p"
        "  WHERE p.id IN (SELECT paper_id FROM mine)),"
        f" (SELECT json_agg(json_build_array(pt.paper_id, t.name) ORDER BY pt.paper_id,"
        f"  {records.TAG_ORDER}) FROM paper_tag pt JOIN tag t ON t.id = pt.tag_id"
        "  WHERE pt.paper_id IN (SELECT paper_id FROM mine)),"
        f" (SELECT json_agg({note} ORDER BY paper_id, {records.NOTE_ORDER}) FROM note"
        "  WHERE paper_id IN (SELECT paper_id FROM mine)),"
        f" (SELECT json_agg({highlight} ORDER BY paper_id, {records.HIGHLIGHT_ORDER})"
        "  FROM highlight WHERE paper_id IN (SELECT paper_id FROM mine"
        "  UNION ALL SELECT paper_id FROM theirs)),"
        " (SELECT json_agg(json_build_array(p.id, p.xmin,"
        "  (SELECT COUNT(*) FROM note n WHERE n.paper_id = p.id)) ORDER BY p.id) FROM paper p"
        "  WHERE p.id IN (SELECT paper_id FROM theirs))"
        ")::text")


def lookup_rows(user_id: int, keys: list[str]) -> list[tuple]:
    """The user's papers known by one of ``keys`` (identities as stored, ``identity_key``, each
    once): rows of ``LOOKUP_COLUMNS`` followed by the keys they matched, then their tags, notes
    and highlights. SQLite, in process: one query for the papers matched and one each for
    their tags, notes and highlights (PostgreSQL: ``page_matches``, ``page_entries``)."""
    if not keys:
        return []
    p = db.param
    where, params = in_list("identity", keys)
    columns = ", ".join(f"paper.{c}" for c in LOOKUP_COLUMNS)
    matched: dict[int, list[str]] = {}
    rows = {}
    for *row, key in db.execute_sql(
            f"SELECT {columns}, pi.identity FROM paper_identity pi JOIN paper"
            f" ON paper.id = pi.paper_id WHERE pi.user_id = {p} AND pi.{where}",
            [user_id, *params]).fetchall():
        rows.setdefault(row[0], row)
        matched.setdefault(row[0], []).append(key)
    ids = sorted(rows)
    rows = [rows[i] for i in ids]
    tags = records.tags_by_paper(ids)
    notes = records.notes_by_paper(ids)
    highlights = records.highlights_by_paper(ids)
    return [(*r, matched[r[0]], tags[r[0]], notes[r[0]], highlights[r[0]]) for r in rows]
