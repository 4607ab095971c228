"""The database: one proxy, connection hooks, schema creation, versioned migrations, search index.

SQLite runs in WAL mode with foreign keys on and every write transaction begun IMMEDIATE, so
concurrent writers queue on the lock instead of failing with "database is locked".
PostgreSQL is reached through the same ``DATABASE_URL`` (playhouse.db_url), pooled.
"""

import logging

from peewee import DatabaseProxy, PostgresqlDatabase, SqliteDatabase
from playhouse import db_url

log = logging.getLogger(__name__)

db = DatabaseProxy()

SCHEMA_VERSION = 1


class StoreError(RuntimeError):
    """The store cannot be used by this papershelf (e.g. it was written by a newer one)."""

SQLITE_PRAGMAS = {
    "journal_mode": "wal",
    "foreign_keys": 1,
    "busy_timeout": 30000,
    "synchronous": "normal",  # with WAL: durable across a process kill, fast
    "cache_size": -16000,
}


def open_database(url: str):
    """A peewee database for ``url`` (``sqlite:///path`` or ``postgresql://…``)."""
    if url.startswith("sqlite:"):
        # Pooled: a connection per thread stays open, so the pragmas run once per connection
        # and the last close does not checkpoint the WAL after every request.
        return db_url.connect(
            "sqlite+pool:" + url[len("sqlite:"):], pragmas=SQLITE_PRAGMAS, lock_type="IMMEDIATE",
            check_same_thread=False, max_connections=64, stale_timeout=600,
        )
    if url.startswith(("postgres://", "postgresql://")):
        scheme, rest = url.split("://", 1)
        return db_url.connect(
            f"{scheme}+pool://{rest}", max_connections=64, stale_timeout=300, timeout=30
        )
    return db_url.connect(url)


def is_sqlite(database=None) -> bool:
    return isinstance((database or db.obj), SqliteDatabase)


def is_postgres(database=None) -> bool:
    return isinstance((database or db.obj), PostgresqlDatabase)


def bind(database) -> None:
    db.initialize(database)


def connect() -> None:
    db.connect(reuse_if_open=True)


def close() -> None:
    if not db.is_closed():
        db.close()


def write_transaction():
    """One transaction per writing request; on SQLite it begins IMMEDIATE (see lock_type)."""
    return db.atomic()


def _models():
    from papershelf import models

    return models.ALL_MODELS


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


# version -> function bringing a store from version-1 to version. Each runs in a transaction.
MIGRATIONS: dict = {}


def init_schema() -> int:
    """Create what is missing and migrate an older store forward. Returns the schema version."""
    with db.atomic():
        db.execute_sql("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        row = db.execute_sql("SELECT MAX(version) FROM schema_version").fetchone()
        current = row[0] if row and row[0] is not None else 0
        if current > SCHEMA_VERSION:
            raise StoreError(
                f"the store has schema version {current}, newer than this papershelf "
                f"({SCHEMA_VERSION}); upgrade papershelf"
            )
        if current == 0:
            db.create_tables(_models(), safe=True)
            _create_search_index()
            db.execute_sql(f"INSERT INTO schema_version (version) VALUES ({SCHEMA_VERSION})")
            return SCHEMA_VERSION
        for version in range(current + 1, SCHEMA_VERSION + 1):
            log.info("migrating the store to schema version %s", version)
            MIGRATIONS[version]()
            db.execute_sql(f"INSERT INTO schema_version (version) VALUES ({version})")
    return SCHEMA_VERSION
