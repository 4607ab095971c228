"""The background check for published versions inside the server process.

``init_published(app)`` registers it as ``app.extensions["papershelf_resolver"]`` (its
``wake()`` is what a save calls) and hooks its start into
``app.extensions["papershelf_start_background"]``, as the enrichment worker does; nothing else
starts it, and it never starts when every catalogue is off (or arXiv is, which switches all
network calls off) or ``ENRICH_IN_BACKGROUND`` is false.

Several processes may run it on one store: each batch leases its papers in the store
(``services.published.claim``) and each catalogue's calls are spaced through the store's
clock row for its host, so the limits hold across all of them without a lock of their own.
The thread keeps no queue: each round asks the store what is due (a paper waits until arXiv
has answered for it), so it resumes whatever was pending when the server stopped.
"""

from __future__ import annotations

import atexit
import logging
import threading
from datetime import timedelta

from papershelf.services import published
from papershelf.settings import default, resolving_enabled
from papershelf.store.db import db
from papershelf.store.models import utcnow

log = logging.getLogger(__name__)

WAITING_FOR_ARXIV = 2.0  # seconds between looks while papers wait for arXiv's answer


class PublishedWorker:
    def __init__(self, app):
        self.app = app
        self.database = app.extensions["papershelf_db"]
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.batches: list[published.BatchResult] = []

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def wake(self) -> None:
        self._wake.set()

    def start(self) -> bool:
        if self.running:
            return True
        if not resolving_enabled(self.app.config) or not self.app.config.get(
                "ENRICH_IN_BACKGROUND", True):
            return False
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="papershelf-published",
                                        daemon=True)
        self._thread.start()
        atexit.register(self.stop)
        return True

    def stop(self, timeout: float = 10.0) -> None:
        self._stop.set()
        self._wake.set()
        atexit.unregister(self.stop)
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)
        self._thread = None

    def _sleep_time(self) -> float:
        poll = float(self.app.config.get("ENRICH_POLL") or default("ENRICH_POLL"))
        due = published.next_due()
        if due is None:
            return poll
        wait = (due - utcnow()) / timedelta(seconds=1)
        if wait <= 0:  # due, but waiting for arXiv's answer
            return min(poll, WAITING_FOR_ARXIV)
        return max(0.05, min(poll, wait))

    def _run(self) -> None:
        failures = 0
        while not self._stop.is_set():
            self._wake.clear()
            sleep = 1.0
            try:
                if db.obj is not self.database:
                    sleep = 0.5  # another app in this process took the store proxy (tests)
                else:
                    with self.database.connection_context():
                        result = published.run_batch(self.app.config, cancel=self._stop)
                        if result is not None:
                            self.batches.append(result)
                            log.info("published versions: %d papers, %d found, %d none, "
                                     "%d retrying", result.papers, result.found, result.missing,
                                     result.retrying)
                            continue
                        sleep = self._sleep_time()
                failures = 0
            except published.Cancelled:
                break
            except Exception:
                failures += 1
                log.exception("published-version round failed")
                sleep = min(300.0, 2.0 ** failures)
            self._wake.wait(sleep)


def init_published(app) -> PublishedWorker:
    worker = app.extensions.get("papershelf_resolver")
    if worker is not None:
        return worker
    worker = PublishedWorker(app)
    app.extensions["papershelf_resolver"] = worker
    previous = app.extensions.get("papershelf_start_background")

    def start_background():
        if previous is not None:
            previous()
        worker.start()

    app.extensions["papershelf_start_background"] = start_background
    return worker
