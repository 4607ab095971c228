"""The background worker that completes saved papers from arXiv inside the server process.

``init_enrichment(app)`` registers it as ``app.extensions["papershelf_enricher"]`` (its
``wake()`` is what a save calls) and hooks its start into
``app.extensions["papershelf_start_background"]``, which ``papershelf serve`` calls. Nothing
starts it otherwise, so an app made in a test never talks to anything unless the test asks,
and it never starts when enrichment is off (``PAPERSHELF_ARXIV_API=off``) or
``ENRICH_IN_BACKGROUND`` is false.

Several processes (gunicorn workers, servers on several hosts) share one store: each starts the
thread, and only the one holding the store's enricher lock (``store.locks.EnricherLock``: a
PostgreSQL advisory lock, or a file lock in the data dir on SQLite) enriches; the others stand
by and take over when it goes. arXiv's 3-second interval is kept across all of them by the
store's clock row (``services.enrichment.run_batch``).

The thread keeps no queue of its own: each round asks the store what is due, so it resumes
whatever was pending when the server stopped. After a wake it lets a burst of saves settle
(until no save came for ``ENRICH_SETTLE`` seconds, or 100 papers wait) so that 250 papers
saved at once go out in 3 calls, not one call per paper.
"""

from __future__ import annotations

import atexit
import logging
import threading
import time
from datetime import timedelta

from papershelf.services import enrichment
from papershelf.settings import default, enrichment_enabled
from papershelf.store.db import db
from papershelf.store.locks import EnricherLock
from papershelf.store.models import utcnow

log = logging.getLogger(__name__)

STANDBY_POLL = 5.0  # seconds between a standing-by process's tries for the enricher lock


class EnrichmentWorker:
    def __init__(self, app):
        self.app = app
        self.database = app.extensions["papershelf_db"]
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._last_wake = 0.0
        self._last_batch = 0.0  # when our own last batch ended (it held the store's write lock)
        self.batches: list[enrichment.BatchResult] = []
        self.lock = EnricherLock(self.database, app.config["DATA_DIR"])
        self._last_try = time.monotonic()

    # -- control ---------------------------------------------------------------------------

    @property
    def cfg(self) -> dict:
        return self.app.config

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    @property
    def enriching(self) -> bool:
        """This process holds the store's enricher lock (the others stand by)."""
        return self.running and self.lock.held

    def _take_lock(self) -> bool:
        try:
            got = self.lock.acquire()
        except Exception:  # noqa: BLE001 - the store is unreachable: stand by, try again
            log.exception("could not ask the store for the enrichment lock")
            return False
        if got:
            log.info("this process runs arXiv enrichment for the store")
        return got

    def _standby_try(self) -> bool:
        """Try for the lock, at most once every STANDBY_POLL seconds (saves wake a standing-by
        worker as often as the one that enriches)."""
        now = time.monotonic()
        if now - self._last_try < STANDBY_POLL:
            return False
        self._last_try = now
        return self._take_lock()

    def wake(self) -> None:
        """A paper was queued: look at the store soon. Does nothing when not started."""
        self._last_wake = time.monotonic()
        self._wake.set()

    def start(self) -> bool:
        """Start the thread (once). False when enrichment is off or not to run in background."""
        if self.running:
            return True
        if not enrichment_enabled(self.cfg):
            log.info("arXiv enrichment is off (PAPERSHELF_ARXIV_API=off)")
            return False
        if not self.cfg.get("ENRICH_IN_BACKGROUND", True):
            return False
        self._stop.clear()
        self._take_lock()  # at once, so that the process that starts first enriches
        self._thread = threading.Thread(target=self._run, name="papershelf-enrichment",
                                        daemon=True)
        self._thread.start()
        atexit.register(self.stop)
        return True

    def stop(self, timeout: float = 10.0) -> None:
        """Stop after the batch in flight (a call in progress is not cut; it is at most
        ``ARXIV_TIMEOUT`` long). What was not applied stays pending in the store."""
        self._stop.set()
        self._wake.set()
        atexit.unregister(self.stop)
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)
        self._thread = None
        self.lock.release()

    # -- the loop --------------------------------------------------------------------------

    def _settle(self) -> None:
        settle = float(self.cfg.get("ENRICH_SETTLE", default("ENRICH_SETTLE")))
        longest = float(self.cfg.get("ENRICH_MAX_GATHER", default("ENRICH_MAX_GATHER")))
        started = time.monotonic()
        while not self._stop.is_set():
            # Saves blocked behind our own batch's transaction arrive late: count quiet time
            # from whichever came last. A save whose wake has not come yet (it commits first, or
            # another process made it) counts by the time it queued its paper.
            quiet = time.monotonic() - max(self._last_wake, self._last_batch)
            newest = enrichment.newest_queued()
            if newest is not None:
                quiet = min(quiet, (utcnow() - newest) / timedelta(seconds=1))
            if quiet >= settle or time.monotonic() - started >= longest:
                return
            if enrichment.due_count() >= enrichment.BATCH_SIZE:
                return
            self._stop.wait(min(0.05, settle - quiet))

    def _sleep_time(self) -> float:
        poll = float(self.cfg.get("ENRICH_POLL", default("ENRICH_POLL")))
        due = enrichment.next_due()
        if due is None:
            return poll
        return max(0.05, min(poll, (due - utcnow()) / timedelta(seconds=1)))

    def _run(self) -> None:
        log.info("arXiv enrichment worker started (%s)", self.cfg.get("ARXIV_API"))
        failures = 0
        while not self._stop.is_set():
            self._wake.clear()
            sleep = 1.0
            try:
                if db.obj is not self.database:
                    # Another app in this process took the store proxy (tests): stand aside.
                    sleep = 0.5
                elif not self.lock.held and not self._standby_try():
                    # Another process enriches; take over if it goes.
                    sleep = min(STANDBY_POLL, float(self.cfg.get("ENRICH_POLL")
                                                    or default("ENRICH_POLL")))
                else:
                    with self.database.connection_context():
                        self._settle()
                        if self._stop.is_set():
                            break
                        result = enrichment.run_batch(self.cfg, cancel=self._stop)
                        self._last_batch = time.monotonic()
                        if result is not None:
                            self.batches.append(result)
                            log.info("arXiv enrichment: %d papers, %d done, %d failed, %d retrying",
                                     result.papers, result.done, result.failed, result.retrying)
                            continue  # more may be due; the limiter spaces the calls
                        sleep = self._sleep_time()
                failures = 0
            except enrichment.Cancelled:
                break
            except Exception:
                failures += 1
                log.exception("arXiv enrichment round failed")
                sleep = min(300.0, 2.0 ** failures)
            self._wake.wait(sleep)
        log.info("arXiv enrichment worker stopped")


def init_enrichment(app) -> EnrichmentWorker:
    """Register the worker on ``app`` (once); ``serve`` starts it with the other background work."""
    worker = app.extensions.get("papershelf_enricher")
    if worker is not None:
        return worker
    worker = EnrichmentWorker(app)
    app.extensions["papershelf_enricher"] = worker
    previous = app.extensions.get("papershelf_start_background")

    def start_background():
        if previous is not None:
            previous()
        worker.start()

    app.extensions["papershelf_start_background"] = start_background
    return worker
