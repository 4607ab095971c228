"""The background worker that completes saved papers from arXiv inside the server process.

``init_enrichment(app)`` registers it as ``app.extensions["papershelf_enricher"]``, run by
``background.BackgroundWorker``'s loop; it never starts when enrichment is off
(``PAPERSHELF_ARXIV_API=off``) or ``ENRICH_IN_BACKGROUND`` is false.

Several processes (gunicorn workers, servers on several hosts) share one store: each starts the
thread, and only the one holding the store's enricher lock (``store.locks.EnricherLock``: a
PostgreSQL advisory lock, or a file lock in the data dir on SQLite) enriches; the others stand
by and take over when it goes. arXiv's 3-second interval is kept across all of them by the
store's clock row (``services.enrichment.run_batch``).

After a wake it lets a burst of saves settle (until no save came for ``ENRICH_SETTLE`` seconds,
or 100 papers wait) so that 250 papers saved at once go out in 3 calls, not one call per paper.
"""

from __future__ import annotations

import logging
import time
from datetime import timedelta

from papershelf import background
from papershelf.services import enrichment
from papershelf.settings import default, enrichment_enabled
from papershelf.store.locks import EnricherLock
from papershelf.store.models import utcnow

log = logging.getLogger(__name__)

STANDBY_POLL = 5.0  # seconds between a standing-by process's tries for the enricher lock


class EnrichmentWorker(background.BackgroundWorker):
    thread_name = "papershelf-enrichment"
    what = "arXiv enrichment"

    def __init__(self, app):
        super().__init__(app)
        self._last_wake = 0.0
        self._last_batch = 0.0  # when our own last batch ended (it held the store's write lock)
        self.batches: list[enrichment.BatchResult] = []
        self.lock = EnricherLock(self.database, app.config["DATA_DIR"])
        self._last_try = time.monotonic()

    # -- control ---------------------------------------------------------------------------

    @property
    def enriching(self) -> bool:
        """This process holds the store's enricher lock (the others stand by)."""
        return self.running and self.lock.held

    def enabled(self) -> bool:
        if not enrichment_enabled(self.cfg):
            log.info("arXiv enrichment is off (PAPERSHELF_ARXIV_API=off)")
            return False
        return True

    def next_due(self):
        return enrichment.next_due()

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
        self._last_wake = time.monotonic()
        super().wake()

    def started(self) -> None:
        self._take_lock()  # at once, so that the process that starts first enriches

    def stopped(self) -> None:
        self.lock.release()

    # -- a round ---------------------------------------------------------------------------

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

    def round(self) -> float | None:
        if not self.lock.held and not self._standby_try():
            # Another process enriches; take over if it goes.
            return min(STANDBY_POLL, self.poll())
        with self.database.connection_context():
            self._settle()
            if self._stop.is_set():
                return 0.0
            result = enrichment.run_batch(self.cfg, cancel=self._stop)
            self._last_batch = time.monotonic()
            if result is not None:
                self.batches.append(result)
                log.info("arXiv enrichment: %d papers, %d done, %d failed, %d retrying",
                         result.papers, result.done, result.failed, result.retrying)
                return None  # more may be due; the limiter spaces the calls
            return self.sleep_time()


def init_enrichment(app) -> EnrichmentWorker:
    """Register the worker on ``app`` (once); ``serve`` starts it with the other background work."""
    return background.register(app, "papershelf_enricher", EnrichmentWorker)
