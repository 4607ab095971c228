"""The database: one proxy, connecting, the dialect checks, and the one write path, ``write``.

SQLite runs in WAL mode with foreign keys on and every write transaction begun IMMEDIATE, so
concurrent writers queue on the lock instead of failing with "database is locked"; a process's
writes go through one writer thread that commits them in groups. PostgreSQL is reached through
the same ``DATABASE_URL`` (playhouse.db_url), pooled; its writes run in the request's thread and
are run again when PostgreSQL aborts them for a deadlock.
"""

import contextvars
import logging
import queue
import random
import threading
import time
from datetime import datetime
from urllib.parse import parse_qs, urlsplit

from peewee import (
    DatabaseProxy,
    IntegrityError,
    OperationalError,
    PostgresqlDatabase,
    SqliteDatabase,
)
from playhouse import db_url

log = logging.getLogger(__name__)

db = DatabaseProxy()

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
        # No query prepared by psycopg by itself (a threshold never reached; None would refuse
        # ``execute_prepared`` too): it prepares a query after 5 runs, and PostgreSQL then reuses
        # a generic plan made while a table was small (a new store): a 20,000-paper import
        # through a running server took 140 s, against 37 s in a fresh process; planned each
        # time, 42 s.
        # No JIT: PostgreSQL compiles a plan's expressions again at every execution (nothing is
        # reused), which costs 30-40 ms, once a plan's estimated cost crosses jit_above_cost, as
        # a page lookup's did on a new, not yet analyzed store (a 1-key lookup took 42 ms, 4 ms
        # without). papershelf's statements are short; none gains from it. Options the URL gives
        # (``?options=…``) are kept.
        given = parse_qs(urlsplit(url).query).get("options", [""])[-1]
        return db_url.connect(
            f"{scheme}+pool://{rest}", max_connections=64, stale_timeout=300, timeout=30,
            prefer_psycopg3=True, prepare_threshold=2**31 - 1,
            options=f"{given} -c jit=off".strip(),
        )
    return db_url.connect(url)


def is_sqlite(database=None) -> bool:
    return isinstance((database or db.obj), SqliteDatabase)


def is_postgres(database=None) -> bool:
    return isinstance((database or db.obj), PostgresqlDatabase)


def read_timestamp(value) -> datetime | None:
    """A timestamp read by raw SQL or an aggregate: a datetime on PostgreSQL, text on SQLite."""
    if value is None or isinstance(value, datetime):
        return value
    return datetime.fromisoformat(str(value))


def in_list(column: str, values: list) -> tuple[str, list]:
    """``column`` is one of ``values``, as SQL and parameters: ``= ANY(%s)`` with one array on
    PostgreSQL (a 600-item IN list cost 6 ms there, mostly parsing), ``IN (?, …)`` on SQLite."""
    if is_postgres():
        return f"{column} = ANY({db.param})", [list(values)]
    return f"{column} IN ({', '.join([db.param] * len(values))})", list(values)


def execute_prepared(sql: str, params):
    """PostgreSQL: ``sql`` run as a server-side prepared statement (planned once per
    connection), for a hot query whose plan does not depend on the tables' sizes (a page
    lookup: probes driven by its keys). Statements are not prepared otherwise (``open_database``
    says why). Errors as ``execute_sql`` raises them."""
    from peewee import __exception_wrapper__

    database = db.obj
    database._log_query(sql, params)
    with __exception_wrapper__:
        cursor = database.cursor()
        cursor.execute(sql, params, prepare=True)
    return cursor


def plain_rows(query) -> list[tuple]:
    """A select's rows as the driver gives them, plain tuples: peewee's cursor wrapper costs
    more than the query for the 10,000 rows of a library."""
    return db.execute_sql(*query.sql()).fetchall()


def skip_locked(query):
    """``query`` taking row locks that other workers' claims skip (PostgreSQL); SQLite has one
    writer at a time, so the plain query is the same there."""
    return query.for_update("FOR UPDATE SKIP LOCKED") if is_postgres() else query


# SQLite's busy handler makes a waiting writer sleep up to 100 ms between tries: without a pause
# between a long job's transactions a save could wait for the whole job (seconds, measured).
# PostgreSQL locks rows, and a save takes no lock such a job's updates hold.
SQLITE_WRITER_PAUSE = 0.11


def let_other_writers_in() -> None:
    """Between two transactions of a long job: give a waiting save its turn."""
    if is_sqlite():
        time.sleep(SQLITE_WRITER_PAUSE)


# PostgreSQL aborts one transaction of a deadlock (40P01) or a serialization failure (40001);
# run again, it succeeds.
TRANSIENT_SQLSTATES = {"40P01", "40001"}


def _driver_error(error: Exception):
    """The driver's exception a peewee error wraps (peewee 4 keeps it as ``orig``)."""
    return getattr(error, "orig", None)


def is_transient(error: Exception) -> bool:
    """``error`` (a peewee error) is a deadlock or serialization failure worth a retry."""
    return getattr(_driver_error(error), "sqlstate", None) in TRANSIENT_SQLSTATES


def violated_index(error: Exception) -> str:
    """The unique index or constraint an IntegrityError names ("" when the driver says none):
    PostgreSQL's diagnostics, or SQLite's message (its column list)."""
    diag = getattr(_driver_error(error), "diag", None)
    if diag is not None:
        return diag.constraint_name or ""
    return str(error)


def bind(database) -> None:
    db.initialize(database)


def connect() -> None:
    db.connect(reuse_if_open=True)


def close() -> None:
    if not db.is_closed():
        db.close()


# ---- the one write path ------------------------------------------------------------------------


def write(fn, *, retry_unique: bool = False):
    """Run ``fn`` (the writes of one request) in a transaction and answer its result; what
    ``fn`` raises is raised here, and nothing it wrote is kept.

    - SQLite: on the group-commit writer (``GroupCommitter``), so the answer comes once the
      writes are committed; inline, in a savepoint, when this thread is in a transaction
      already (a bulk job's batch). SQLite has one writer at a time: nothing to retry.
    - PostgreSQL: in this thread, run again (up to ``WRITE_ATTEMPTS`` times) when PostgreSQL
      aborted it for a deadlock or a serialization failure (``is_transient``) and, with
      ``retry_unique``, when a unique index refused an insert that another transaction made
      first (run again, ``fn`` finds that row). A deadlock's cycle may run through locks the
      enclosing transaction took, which only its rollback lets go: only the outermost
      ``write`` retries one; a nested one retries a unique race alone, in its savepoint.

    ``fn`` may run more than once: it reads what it writes from the store each time and
    changes nothing outside the store that a second run would count twice.
    """
    if is_sqlite():
        if db.in_transaction():
            with db.atomic():
                return fn()
        return _committer.run(fn)
    return _run_retrying(fn, retry_unique, nested=db.in_transaction())


WRITE_ATTEMPTS = 5


def _run_retrying(fn, retry_unique: bool, nested: bool):
    for attempt in range(1, WRITE_ATTEMPTS + 1):
        try:
            with db.atomic():
                return fn()
        except IntegrityError:
            if not retry_unique or attempt == WRITE_ATTEMPTS:
                raise
        except OperationalError as e:
            if nested or not is_transient(e) or attempt == WRITE_ATTEMPTS:
                raise
            log.info("write aborted by PostgreSQL (%s); attempt %d of %d", e, attempt + 1,
                     WRITE_ATTEMPTS)
            # Two transactions that deadlocked once may meet again: one of them waits a little.
            time.sleep(random.uniform(0, 0.005 * attempt))
    raise AssertionError("unreachable")


# SQLite admits one writer at a time. A writer that finds the lock taken waits in SQLite's busy
# handler, which sleeps in steps of up to 100 ms: under 16 concurrent clients most of the time
# went to sleeping. Writers of this process queue for one writer thread instead and are woken
# at once; other processes (a CLI import beside the server) still meet BEGIN IMMEDIATE +
# busy_timeout.


class _Job:
    """One request's writes. ``done`` is held until the writer has run and committed them (a
    bare lock: a third of the cost of an Event, which the writer paid once per save). ``fn``
    runs in its caller's context (context variables such as ``citekeys.choosing_in_bulk``)."""

    __slots__ = ("fn", "context", "done", "result", "error")

    def __init__(self, fn):
        self.fn, self.result, self.error = fn, None, None
        self.context = contextvars.copy_context()
        self.done = threading.Lock()
        self.done.acquire()


class GroupCommitter:
    """SQLite's writes from request threads, run by one writer thread in shared transactions.

    Each request's work runs in a savepoint of its own (its failure undoes only its work); the
    batch commits once and only then are the requests answered, so an acknowledged write is
    committed. One commit for up to ``MAX_BATCH`` writes instead of one each, and no request
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
        db.connect(reuse_if_open=True)
        try:
            with db.atomic():
                for job in batch:
                    # A savepoint per request, in plain SQL (peewee's nested atomic() cost
                    # more than the two statements themselves).
                    db.execute_sql("SAVEPOINT papershelf_job")
                    try:
                        job.result = job.context.run(job.fn)
                    except Exception as e:  # noqa: BLE001 - handed to the request's thread
                        job.error = e
                        db.execute_sql("ROLLBACK TO SAVEPOINT papershelf_job")
                    db.execute_sql("RELEASE SAVEPOINT papershelf_job")
        finally:
            db.close()


_committer = GroupCommitter()


