"""The store's schema: tables, the search index, and versioned migrations.

``init_schema`` creates what is missing on a new store and brings an older one forward, one
numbered migration at a time, each in the transaction that records its version.
"""

import itertools
import logging
import string
from collections import defaultdict

from papershelf.store import models, papers
from papershelf.store.db import StoreError, db, is_postgres, is_sqlite

log = logging.getLogger(__name__)

SCHEMA_VERSION = 16
SCHEMA_LOCK_KEY = 0x7061706572736863  # a single-key advisory lock, apart from every other


def _create_search_index() -> None:
    if is_sqlite():
        db.execute_sql(
            "CREATE VIRTUAL TABLE IF NOT EXISTS paper_search USING fts5("
            "body, tokenize = 'porter unicode61 remove_diacritics 2')"
        )
    else:
        db.execute_sql(
            "CREATE TABLE IF NOT EXISTS paper_search ("
            " paper_id INTEGER PRIMARY KEY REFERENCES paper(id) ON DELETE CASCADE,"
            " document TSVECTOR NOT NULL)"
        )
        db.execute_sql(
            "CREATE INDEX IF NOT EXISTS paper_search_document ON paper_search USING GIN (document)"
        )
        _search_documents_inline()


def _search_documents_inline() -> None:
    """Keep each tsvector in the table's own pages rather than TOAST. The planner does not count
    the cost of fetching TOASTed values, so it judged a sequential scan of the small-looking
    table cheaper than the GIN index: 96 ms instead of 0.1 ms for a search with 10,000 papers."""
    if is_postgres():
        db.execute_sql("ALTER TABLE paper_search ALTER COLUMN document SET STORAGE MAIN")


# The columns version 4 adds to ``paper``: what works other than arXiv preprints need.
_WORK_COLUMNS = (
    ("published_precision", "VARCHAR(8)"),
    ("entry_type", "VARCHAR(32)"),
    ("journal", "TEXT"),
    ("booktitle", "TEXT"),
    ("volume", "TEXT"),
    ("number", "TEXT"),
    ("pages", "TEXT"),
    ("publisher", "TEXT"),
    ("edition", "TEXT"),
    ("editors", "TEXT NOT NULL DEFAULT '[]'"),
    ("extra", "TEXT NOT NULL DEFAULT '{}'"),
    ("verbatim", "TEXT NOT NULL DEFAULT '{}'"),
)


def _key_suffixes():
    for n in itertools.count(1):
        for letters in itertools.product(string.ascii_lowercase, repeat=n):
            yield "".join(letters)


def _citation_keys_without_case() -> None:
    """Citation keys unique per user without regard to case (BibTeX's rule). A key that clashes
    with an older paper's but for case gets the first free suffix, as a new clash would."""
    taken: dict[int, set[str]] = defaultdict(set)
    clashes = []
    for paper_id, user_id, key in db.execute_sql(
            "SELECT id, user_id, citation_key FROM paper ORDER BY id").fetchall():
        if key.lower() in taken[user_id]:
            clashes.append((paper_id, user_id, key))
        else:
            taken[user_id].add(key.lower())
    for paper_id, user_id, key in clashes:
        new = next(key + s for s in _key_suffixes() if (key + s).lower() not in taken[user_id])
        taken[user_id].add(new.lower())
        db.execute_sql(f"UPDATE paper SET citation_key = {db.param} WHERE id = {db.param}",
                       (new, paper_id))
        log.warning("paper %s: citation key %r differed from another only in case; now %r",
                    paper_id, key, new)
    db.execute_sql("DROP INDEX IF EXISTS paper_user_id_citation_key")
    db.execute_sql(f"CREATE UNIQUE INDEX IF NOT EXISTS {models.CITATION_KEY_INDEX}"
                   " ON paper (user_id, LOWER(citation_key))")


def _works_beyond_arxiv() -> None:
    """Entry type, venue, date precision and an entry's other fields; DOIs and URLs shared by
    several works (no longer unique); citation keys unique without regard to case."""
    have = {column.name for column in db.get_columns("paper")}
    for name, sql in _WORK_COLUMNS:
        if name not in have:
            db.execute_sql(f'ALTER TABLE paper ADD COLUMN "{name}" {sql}')
    for column in ("doi", "url"):
        db.execute_sql(f"DROP INDEX IF EXISTS paper_user_id_{column}")
        db.execute_sql(f"CREATE INDEX IF NOT EXISTS paper_user_id_{column} ON paper (user_id, {column})")
    _citation_keys_without_case()


# version -> function bringing a store from version-1 to version. Each runs in a transaction.
def _feeds_table() -> None:
    db.create_tables([models.Feed], safe=True)


def _key_formulas() -> None:
    """Users' key formulas; a paper's key pinned (set by its user) or fixed. Every key a store
    holds today has never moved, so they all start fixed. And the index a feed's version reads."""
    false, true = ("FALSE", "TRUE") if is_postgres() else ("0", "1")
    if "citekey_format" not in {c.name for c in db.get_columns("user")}:
        db.execute_sql('ALTER TABLE "user" ADD COLUMN citekey_format VARCHAR(200)')
    have = {c.name for c in db.get_columns("paper")}
    for column in ("citation_key_pinned", "citation_key_fixed"):
        if column not in have:
            db.execute_sql(f"ALTER TABLE paper ADD COLUMN {column} BOOLEAN NOT NULL DEFAULT {false}")
    db.execute_sql(f"UPDATE paper SET citation_key_fixed = {true}")
    db.execute_sql("CREATE INDEX IF NOT EXISTS paper_user_id_updated_at ON paper (user_id, updated_at)")
    # What the user edited is pinned.
    db.execute_sql(f"UPDATE paper SET citation_key_pinned = {true} "
                   f"WHERE edited_fields LIKE {db.param}", ('%"citation_key"%',))


def _sessions_in_the_store() -> None:
    """Library-page sessions and the failed-sign-in brake kept in the store."""
    db.create_tables([models.WebSession, models.AuthFailure], safe=True)


def _highlight_sections() -> None:
    """Body highlights (the full text of an arXiv HTML page) say which section they fall under."""
    if "section" not in {c.name for c in db.get_columns("highlight")}:
        db.execute_sql("ALTER TABLE highlight ADD COLUMN section VARCHAR(300) NOT NULL DEFAULT ''")


def _teams() -> None:
    """Groups, their members and the papers shared to them; a token's expiry; a feed of a
    group's shelf; the store-wide clock that spaces arXiv calls. Idempotent."""
    db.create_tables([models.Group, models.GroupMember, models.PaperShare, models.ArxivClock],
                     safe=True)
    if "expires_at" not in {c.name for c in db.get_columns("api_token")}:
        timestamp = "TIMESTAMP" if is_postgres() else "DATETIME"
        db.execute_sql(f"ALTER TABLE api_token ADD COLUMN expires_at {timestamp}")
    if "group_id" not in {c.name for c in db.get_columns("feed")}:
        db.execute_sql("ALTER TABLE feed ADD COLUMN group_id INTEGER"
                       " REFERENCES user_group (id) ON DELETE CASCADE")
        db.execute_sql("CREATE INDEX IF NOT EXISTS feed_group_id ON feed (group_id)")


def _shelf_pages() -> None:
    """The index a group's shelf reads to filter by any sharer's tag (of a name, without regard
    to case); a shelf page reads the group's shares through ``paper_share_group_id`` and its
    papers' notes, highlights and tags through their ``paper_id`` indexes. Idempotent."""
    db.execute_sql(f"CREATE INDEX IF NOT EXISTS {models.TAG_NAME_INDEX} ON tag (LOWER(name))")


def _pdf_highlights() -> None:
    """PDF highlights (field pdf) say which page of the PDF they are on. Idempotent."""
    if "page" not in {c.name for c in db.get_columns("highlight")}:
        db.execute_sql("ALTER TABLE highlight ADD COLUMN page INTEGER")


def _paper_identities() -> None:
    """A paper's PDF address; its identities (``domain.identities``), derived for every stored
    paper from its url, source_url, DOI and arXiv id. Idempotent."""
    if "pdf_url" not in {c.name for c in db.get_columns("paper")}:
        db.execute_sql("ALTER TABLE paper ADD COLUMN pdf_url VARCHAR(2000)")
    db.create_tables([models.PaperIdentity], safe=True)
    rows = db.execute_sql(
        "SELECT id, user_id, url, source_url, doi, arxiv_id, pdf_url FROM paper ORDER BY id"
    ).fetchall()
    for i in range(0, len(rows), 500):
        papers.add_identities([(paper_id, user_id, papers.identities_of_fields(
            url=url, source_url=source_url, doi=doi, arxiv_id=arxiv_id, pdf_url=pdf_url))
            for paper_id, user_id, url, source_url, doi, arxiv_id, pdf_url in rows[i:i + 500]])


# The columns version 12 adds to ``paper``: a preprint's published version and its check.
_PUBLISHED_COLUMNS = (
    ("published_version", "TEXT"),
    ("cite", "VARCHAR(16)"),
    ("published_rejected", "TEXT NOT NULL DEFAULT '[]'"),
    ("resolve", "VARCHAR(16)"),
    ("resolve_reason", "TEXT"),
    ("resolve_at", "{timestamp}"),
    ("resolve_attempts", "INTEGER NOT NULL DEFAULT 0"),
    ("resolve_due", "{timestamp}"),
)


def _published_versions() -> None:
    """A preprint's published version, what its user cites, the matches they rejected, and the
    queue of the check; every paper with an arXiv id queued for it. Idempotent."""
    timestamp = "TIMESTAMP" if is_postgres() else "DATETIME"
    have = {c.name for c in db.get_columns("paper")}
    for name, sql in _PUBLISHED_COLUMNS:
        if name not in have:
            db.execute_sql(f'ALTER TABLE paper ADD COLUMN "{name}" {sql.format(timestamp=timestamp)}')
    db.execute_sql("CREATE INDEX IF NOT EXISTS paper_resolve_resolve_due ON paper (resolve, resolve_due)")
    db.execute_sql(f"UPDATE paper SET resolve = 'pending', resolve_due = {db.param} "
                   "WHERE arxiv_id IS NOT NULL AND resolve IS NULL", (models.utcnow(),))


def _reading_state() -> None:
    """A paper's reading state and star, the keys of papers merged into it, a user's export
    defaults, and deleted papers kept for a while to be restored. Idempotent."""
    db.create_tables([models.DeletedPaper], safe=True)
    false = "FALSE" if is_postgres() else "0"
    have = {c.name for c in db.get_columns("paper")}
    for name, sql in (("reading_state", "VARCHAR(16) NOT NULL DEFAULT 'unread'"),
                      ("starred", f"BOOLEAN NOT NULL DEFAULT {false}"),
                      ("key_aliases", "TEXT NOT NULL DEFAULT '[]'")):
        if name not in have:
            db.execute_sql(f"ALTER TABLE paper ADD COLUMN {name} {sql}")
    db.execute_sql("CREATE INDEX IF NOT EXISTS paper_user_id_reading_state"
                   " ON paper (user_id, reading_state)")
    if "export_defaults" not in {c.name for c in db.get_columns("user")}:
        db.execute_sql("ALTER TABLE \"user\" ADD COLUMN export_defaults TEXT NOT NULL DEFAULT '{}'")


def _user_paper_ids() -> None:
    """The index of a user's paper ids: a count of a search's matches (the library's page count)
    reads it alone, not every paper's row. Idempotent."""
    db.execute_sql(f"CREATE INDEX IF NOT EXISTS {models.USER_PAPER_IDS_INDEX} ON paper (user_id, id)")


def _identity_index_with_paper() -> None:
    """The (user, identity) index of identities holds the paper's id: a page's lookup reads the
    index alone (on PostgreSQL, once the table is vacuumed). Idempotent."""
    db.execute_sql("CREATE INDEX IF NOT EXISTS paper_identity_user_id_identity_paper_id"
                   " ON paper_identity (user_id, identity, paper_id)")
    db.execute_sql("DROP INDEX IF EXISTS paper_identity_user_id_identity")


def _written_entries() -> None:
    """The entries exports wrote, kept for the next export. Idempotent."""
    db.create_tables([models.WrittenEntry], safe=True)


MIGRATIONS: dict = {
    # 2: PostgreSQL search documents stored inline (rows move as they are next written).
    2: _search_documents_inline,
    # 3: live bibliographies (feeds).
    3: _feeds_table,
    # 4: works other than arXiv preprints: entry types, venues, date precision, an entry's other
    #    fields; DOIs and URLs no longer unique; citation keys unique without regard to case.
    4: _works_beyond_arxiv,
    # 5: key formulas; pinned and fixed keys; the index a feed's version reads.
    5: _key_formulas,
    # 6: library-page sessions in the store (signing out ends them); the shared sign-in brake.
    6: _sessions_in_the_store,
    # 7: a highlight's section (body highlights on arXiv HTML pages).
    7: _highlight_sections,
    # 8: groups, members and shared papers; token expiry; group feeds; the arXiv clock.
    8: _teams,
    # 9: a group's shelf in pages: the index of tags by name without regard to case.
    9: _shelf_pages,
    # 10: a PDF highlight's page.
    10: _pdf_highlights,
    # 11: a paper's identities (any finds it: a landing page, its PDF, its DOI); its PDF address.
    11: _paper_identities,
    # 12: a preprint's published version, the choice to cite it, rejected matches, its queue.
    12: _published_versions,
    # 13: reading state and star; merged papers' keys (aliases); export defaults.
    13: _reading_state,
    # 14: the index of a user's paper ids (counting a search's matches).
    14: _user_paper_ids,
    # 15: the identities' (user, identity) index holds the paper's id (a lookup reads it alone).
    15: _identity_index_with_paper,
    # 16: the entries exports wrote (an export after a restart writes only what changed).
    16: _written_entries,
}


def init_schema() -> int:
    """Create what is missing and migrate an older store forward. Returns the schema version."""
    with db.atomic():
        if is_postgres():
            # Several processes (gunicorn workers, hosts) start on one new store at once: one
            # creates or migrates it, the others wait and find it done (CREATE TABLE IF NOT
            # EXISTS alone races: "duplicate key value violates pg_type_typname_nsp_index").
            db.execute_sql("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK_KEY,))
        db.execute_sql("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        row = db.execute_sql("SELECT MAX(version) FROM schema_version").fetchone()
        current = row[0] if row and row[0] is not None else 0
        if current > SCHEMA_VERSION:
            raise StoreError(
                f"the store has schema version {current}, newer than this papershelf "
                f"({SCHEMA_VERSION}); upgrade papershelf"
            )
        if current == 0:
            db.create_tables(models.ALL_MODELS, safe=True)
            _create_search_index()
            db.execute_sql(f"INSERT INTO schema_version (version) VALUES ({SCHEMA_VERSION})")
            return SCHEMA_VERSION
        for version in range(current + 1, SCHEMA_VERSION + 1):
            log.info("migrating the store to schema version %s", version)
            MIGRATIONS[version]()
            db.execute_sql(f"INSERT INTO schema_version (version) VALUES ({version})")
    return SCHEMA_VERSION
