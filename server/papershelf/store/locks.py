"""What several processes and hosts on one store agree through it: which process runs arXiv
enrichment (a lock), and when the next arXiv call may start (a clock row).

On PostgreSQL the enricher's lock is a session advisory lock held on a connection of its own
(not a pooled one, which another thread could be handed): the one process that holds it runs
enrichment, and when it dies its connection closes and the lock is free for another process,
on any host. On SQLite (one host) it is an exclusive lock on ``<data dir>/enrichment.lock``.
"""

from __future__ import annotations

import fcntl
import logging
from datetime import timedelta
from pathlib import Path

from peewee import PostgresqlDatabase

from papershelf.store.db import db, is_postgres, read_timestamp, write
from papershelf.store.models import utcnow

log = logging.getLogger(__name__)

# A single-key advisory lock: that key space is apart from the two-key locks saves take.
ENRICHER_LOCK_KEY = 0x7061706572736866  # "papershf"


class EnricherLock:
    """Held by the one process of a store that runs arXiv enrichment."""

    def __init__(self, database, data_dir: str):
        self.database = database
        self.path = Path(data_dir) / "enrichment.lock"
        self._conn = None  # PostgreSQL: the connection holding the lock
        self._file = None  # SQLite: the locked file

    @property
    def held(self) -> bool:
        if self._file is not None:
            return True
        if self._conn is None:
            return False
        try:  # the lock lives as long as its connection: check that it is still there
            self._conn.execute("SELECT 1").fetchone()
            return True
        except Exception:  # noqa: BLE001 - any failure: the connection, and the lock, are gone
            log.warning("lost the database connection that held the enrichment lock")
            self._drop_connection()
            return False

    def acquire(self) -> bool:
        """Take the lock if no other process holds it; answers whether this one holds it."""
        if self.held:
            return True
        if is_postgres(self.database):
            conn = PostgresqlDatabase._connect(self.database)  # not from the pool: ours alone
            try:
                got = conn.execute("SELECT pg_try_advisory_lock(%s)",
                                   (ENRICHER_LOCK_KEY,)).fetchone()[0]
            except Exception:
                conn.close()
                raise
            if got:
                self._conn = conn
            else:
                conn.close()
            return bool(got)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(self.path, "w")  # noqa: SIM115 - held while this process enriches
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            return False
        self._file = handle
        return True

    def release(self) -> None:
        if self._file is not None:
            self._file.close()  # closing the file ends its lock
            self._file = None
        self._drop_connection()

    def _drop_connection(self):
        if self._conn is not None:
            try:
                self._conn.close()  # the session's advisory lock goes with it
            except Exception:  # noqa: BLE001
                pass
            self._conn = None


# ---- the arXiv clock --------------------------------------------------------------------------


def _now():
    """The store's clock on PostgreSQL (hosts' clocks may differ), this host's on SQLite."""
    if is_postgres():
        return db.execute_sql("SELECT clock_timestamp() AT TIME ZONE 'UTC'").fetchone()[0]
    return utcnow()


def reserve_call(host: str, reserve: float) -> float:
    """Take the next arXiv call's slot for ``host`` if it has come: the slot is held for
    ``reserve`` seconds (the call's longest run plus the interval) and 0 is answered; else
    nothing changes and the seconds to wait are answered. Under the clock row's lock, so two
    processes never both take it."""
    p = db.param

    def take() -> float:
        db.execute_sql(f"INSERT INTO arxiv_clock (host, next_at) VALUES ({p}, {p})"
                       " ON CONFLICT (host) DO NOTHING", (host, utcnow() - timedelta(days=1)))
        lock = " FOR UPDATE" if is_postgres() else ""
        next_at = read_timestamp(db.execute_sql(
            f"SELECT next_at FROM arxiv_clock WHERE host = {p}{lock}", (host,)).fetchone()[0])
        now = _now()
        if next_at > now:
            return (next_at - now) / timedelta(seconds=1)
        db.execute_sql(f"UPDATE arxiv_clock SET next_at = {p} WHERE host = {p}",
                       (now + timedelta(seconds=reserve), host))
        return 0.0

    return write(take)


def _set_next_call(host: str, when) -> None:
    p = db.param
    db.execute_sql(f"UPDATE arxiv_clock SET next_at = {p} WHERE host = {p}", (when, host))


def call_ended(host: str, interval: float) -> None:
    """The call holding the slot ended now: the next may start ``interval`` seconds later."""
    write(lambda: _set_next_call(host, _now() + timedelta(seconds=interval)))


def call_not_made(host: str) -> None:
    """The slot was taken but no call was made: free it at once."""
    write(lambda: _set_next_call(host, utcnow() - timedelta(days=1)))
