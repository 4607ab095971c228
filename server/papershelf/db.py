"""The database: one proxy, connection hooks, schema creation, versioned migrations, search index.

SQLite runs in WAL mode with foreign keys on and every write transaction begun IMMEDIATE, so
concurrent writers queue on the lock instead of failing with "database is locked".
PostgreSQL is reached through the same ``DATABASE_URL`` (playhouse.db_url), pooled.
"""

import logging
import queue
import threading
from contextlib import contextmanager

from peewee import DatabaseProxy, PostgresqlDatabase, SqliteDatabase
from playhouse import db_url

log = logging.getLogger(__name__)

db = DatabaseProxy()

SCHEMA_VERSION = 2


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
        try:
            import psycopg  # noqa: F401 - the driver peewee will use
        except ImportError:
            raise StoreError("a PostgreSQL store needs its driver: "
                             "python -m pip install 'papershelf[team]'") from None
        scheme, rest = url.split("://", 1)
        # psycopg 3, even where psycopg2 is installed too: the one driver papershelf is tested on.
        return db_url.connect(
            f"{scheme}+pool://{rest}", max_connections=64, stale_timeout=300, timeout=30,
            prefer_psycopg3=True,
        )
    return db_url.connect(url)


def is_sqlite(database=None) -> bool:
    return isinstance((database or db.obj), SqliteDatabase)


def is_postgres(database=None) -> bool:
    return isinstance((database or db.obj), PostgresqlDatabase)


def in_list(column: str, values: list) -> tuple[str, list]:
    """``column`` is one of ``values``, as SQL and parameters: ``= ANY(%s)`` with one array on
    PostgreSQL (a 600-item IN list cost 6 ms there, mostly parsing), ``IN (?, …)`` on SQLite."""
    if is_postgres():
        return f"{column} = ANY({db.param})", [list(values)]
    return f"{column} IN ({', '.join([db.param] * len(values))})", list(values)


def bind(database) -> None:
    db.initialize(database)


def connect() -> None:
    db.connect(reuse_if_open=True)


def close() -> None:
    if not db.is_closed():
        db.close()


# SQLite admits one writer at a time. A writer that finds the lock taken waits in SQLite's busy
# handler, which sleeps in steps of up to 100 ms: under 16 concurrent clients most of the time
# went to sleeping. Writers of this process queue on this lock instead and are woken at once;
# other processes (a CLI import beside the server) still meet BEGIN IMMEDIATE + busy_timeout.
_sqlite_writer = threading.RLock()


class _Job:
    """One request's writes. ``done`` is held until the writer has run and committed them (a
    bare lock: a third of the cost of an Event, which the writer paid once per save)."""

    __slots__ = ("fn", "done", "result", "error")

    def __init__(self, fn):
        self.fn, self.result, self.error = fn, None, None
        self.done = threading.Lock()
        self.done.acquire()


class GroupCommitter:
    """SQLite's writes from request threads, run by one writer thread in shared transactions.

    Each request's work runs in a savepoint of its own (its failure undoes only its work); the
    batch commits once and only then are the requests answered, so an acknowledged write is
    committed. One commit for up to ``MAX_BATCH`` saves instead of one each, and no request
    thread waits for the write lock while holding the interpreter.
    """

    MAX_BATCH = 64

    def __init__(self):
        self._queue = queue.SimpleQueue()
        self._start = threading.Lock()
        self._thread = None

    def run(self, fn):
        if self._thread is None:
            with self._start:
                if self._thread is None:
                    self._thread = threading.Thread(target=self._loop, name="papershelf-writer",
                                                    daemon=True)
                    self._thread.start()
        job = _Job(fn)
        self._queue.put(job)
        job.done.acquire()
        if job.error is not None:
            raise job.error
        return job.result

    def _loop(self):
        while True:
            batch = [self._queue.get()]
            while len(batch) < self.MAX_BATCH:
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            try:
                self._run_batch(batch)
            except Exception as e:  # noqa: BLE001 - the commit itself failed: every job fails
                for job in batch:
                    if job.error is None:
                        job.error = e
            finally:
                for job in batch:
                    job.done.release()

    @staticmethod
    def _run_batch(batch):
        with _sqlite_writer:
            db.connect(reuse_if_open=True)
            try:
                with db.atomic():
                    for job in batch:
                        # A savepoint per request, in plain SQL (peewee's nested atomic() cost
                        # more than the two statements themselves).
                        db.execute_sql("SAVEPOINT papershelf_job")
                        try:
                            job.result = job.fn()
                        except Exception as e:  # noqa: BLE001 - handed to the request's thread
                            job.error = e
                            db.execute_sql("ROLLBACK TO SAVEPOINT papershelf_job")
                        db.execute_sql("RELEASE SAVEPOINT papershelf_job")
            finally:
                db.close()


_committer = GroupCommitter()


def run_write(fn):
    """Run ``fn`` (the writes of one request) in a write transaction and answer its result.
    On SQLite it runs on the group-commit writer; elsewhere in this thread."""
    if is_sqlite() and not db.in_transaction():
        return _committer.run(fn)
    with db.atomic():  # PostgreSQL, or already inside a transaction (a bulk import): inline
        return fn()


@contextmanager
def write_transaction():
    """One transaction per writing request; on SQLite it begins IMMEDIATE (see lock_type)."""
    if is_sqlite():
        with _sqlite_writer, db.atomic():
            yield
    else:
        with db.atomic():
            yield


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
        _search_documents_inline()


def _search_documents_inline() -> None:
    """Keep each tsvector in the table's own pages rather than TOAST. The planner does not count
    the cost of fetching TOASTed values, so it judged a sequential scan of the small-looking
    table cheaper than the GIN index: 96 ms instead of 0.1 ms for a search with 10,000 papers."""
    if is_postgres():
        db.execute_sql("ALTER TABLE paper_search ALTER COLUMN document SET STORAGE MAIN")


# version -> function bringing a store from version-1 to version. Each runs in a transaction.
MIGRATIONS: dict = {
    # 2: PostgreSQL search documents stored inline (rows move as they are next written).
    2: _search_documents_inline,
}


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
