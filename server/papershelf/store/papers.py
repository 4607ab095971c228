"""The queries a save, an edit and a page lookup make, with their dialect differences.

Saves are the hot path: these are plain SQL built once, not peewee's per-call generation.
"""

import hashlib
import json

from peewee import fn

from papershelf.domain.identities import SCHEMES, identities_of, identities_of_url
from papershelf.store import records
from papershelf.store.db import db, in_list, is_postgres, is_sqlite
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


LOOKUP_COLUMNS = ("id, arxiv_id, url, source_url, citation_key, authors, authors_more,"
                  " primary_category, enrichment, enrichment_reason, enrichment_at")


def lookup_rows(user_id: int, keys: list[str]) -> list[tuple]:
    """The user's papers known by one of ``keys`` (identities as stored, ``identity_key``, each
    once): rows of ``LOOKUP_COLUMNS`` followed by the keys they matched, then their tags, notes
    and highlights. PostgreSQL answers all of it in one query (each round trip cost
    milliseconds); SQLite, in process, in one query for the papers matched and one each for
    their tags, notes and highlights."""
    p = db.param
    if not keys:
        return []
    where, params = in_list("identity", keys)
    matches = f"SELECT paper_id, identity FROM paper_identity WHERE user_id = {p} AND {where}"
    columns = ", ".join(f"paper.{c.strip()}" for c in LOOKUP_COLUMNS.split(","))
    if is_postgres():
        # One JSON text of every row: decoded at once, not each row's four JSON values apart
        # (the driver's decoding of those was a third of the lookup's time). The timestamp is
        # written as SQLite keeps it, for records.ts.
        ctes, children, joins = records.children_json_sql("p")
        row = ", ".join(f"p.{c.strip()}" if c.strip() != "enrichment_at" else
                        "to_char(p.enrichment_at, 'YYYY-MM-DD HH24:MI:SS.US')"
                        for c in LOOKUP_COLUMNS.split(","))
        (text,) = db.execute_sql(
            f"WITH m AS ({matches}), mi AS (SELECT paper_id, json_agg(identity) AS j FROM m"
            f" GROUP BY paper_id), p AS (SELECT {columns}, mi.j AS matched FROM paper"
            f" JOIN mi ON mi.paper_id = paper.id WHERE paper.user_id = {p}), {ctes}"
            f" SELECT json_agg(json_build_array({row}, p.matched, {children}) ORDER BY p.id)::text"
            f" FROM p {joins}", [user_id, *params, user_id]).fetchone()
        return json.loads(text) if text else []
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
