"""The loop a background worker of the server process runs: arXiv enrichment
(``enrichment_worker``), the published-version check (``published_worker``) and the BibTeX
entries written ahead of the next export (``entries_worker``).

A worker is registered on the app as ``app.extensions[<name>]`` (its ``wake()`` is what a save
calls) and its start hooked into ``app.extensions["papershelf_start_background"]``, which
``papershelf serve`` calls; nothing else starts it, so an app made in a test talks to nothing
unless the test asks. It never starts when its work is off (``enabled``) or
``ENRICH_IN_BACKGROUND`` is false.

The thread keeps no queue: each round (``round``) asks the store what is due and works one
batch, so it resumes whatever was pending when the server stopped. A round answers how long to
sleep, or None to go on at once (more may be due; the limiters space the calls); a round that
fails is retried with backoff, up to 5 minutes apart.
"""

from __future__ import annotations

import atexit
import logging
import threading
from datetime import timedelta

from papershelf.services.enrichment import Cancelled
from papershelf.settings import default
from papershelf.store.db import db
from papershelf.store.models import utcnow

log = logging.getLogger(__name__)


class BackgroundWorker:
    thread_name = "papershelf-background"
    what = "background work"  # for the log
    when_due = 0.05  # seconds to sleep while the next paper is due but not taken yet

    def __init__(self, app):
        self.app = app
        self.database = app.extensions["papershelf_db"]
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.batches: list = []

    # -- what a worker says -----------------------------------------------------------------

    def enabled(self) -> bool:
        raise NotImplementedError

    def round(self) -> float | None:
        """One round inside a connection to the store: seconds to sleep, None: go on."""
        raise NotImplementedError

    def next_due(self):
        """When the next pending paper comes due (None: nothing pending)."""
        raise NotImplementedError

    def started(self) -> None:
        """Called in ``start`` before the thread runs."""

    def stopped(self) -> None:
        """Called in ``stop`` after the thread ended."""

    # -- control ---------------------------------------------------------------------------

    @property
    def cfg(self) -> dict:
        return self.app.config

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def wake(self) -> None:
        """A paper was queued: look at the store soon. Does nothing when not started."""
        self._wake.set()

    def start(self) -> bool:
        """Start the thread (once). False when the work is off or not to run in background."""
        if self.running:
            return True
        if not self.enabled() or not self.cfg.get("ENRICH_IN_BACKGROUND", True):
            return False
        self._stop.clear()
        self.started()
        self._thread = threading.Thread(target=self._run, name=self.thread_name, daemon=True)
        self._thread.start()
        atexit.register(self.stop)
        return True

    def stop(self, timeout: float = 10.0) -> None:
        """Stop after the batch in flight (a call in progress is not cut). What was not applied
        stays pending in the store."""
        self._stop.set()
        self._wake.set()
        atexit.unregister(self.stop)
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)
        self._thread = None
        self.stopped()

    # -- the loop --------------------------------------------------------------------------

    def poll(self) -> float:
        value = self.cfg.get("ENRICH_POLL")
        return float(default("ENRICH_POLL") if value is None else value)

    def sleep_time(self) -> float:
        """Until the next paper comes due, at most ``ENRICH_POLL`` seconds."""
        poll, due = self.poll(), self.next_due()
        if due is None:
            return poll
        wait = (due - utcnow()) / timedelta(seconds=1)
        return max(0.05, min(poll, self.when_due if wait <= 0 else wait))

    def _run(self) -> None:
        log.info("%s worker started", self.what)
        failures = 0
        while not self._stop.is_set():
            self._wake.clear()
            try:
                if db.obj is not self.database:
                    # Another app in this process took the store proxy (tests): stand aside.
                    sleep = 0.5
                else:
                    sleep = self.round()
                    if sleep is None:
                        continue
                failures = 0
            except Cancelled:
                break
            except Exception:
                failures += 1
                log.exception("%s round failed", self.what)
                sleep = min(300.0, 2.0 ** failures)
            self._wake.wait(sleep)
        log.info("%s worker stopped", self.what)


def register(app, name: str, make) -> BackgroundWorker:
    """The worker ``make(app)`` registered on ``app`` as ``name`` (once), started by ``serve``
    with the other background work."""
    worker = app.extensions.get(name)
    if worker is not None:
        return worker
    worker = make(app)
    app.extensions[name] = worker
    previous = app.extensions.get("papershelf_start_background")

    def start_background():
        if previous is not None:
            previous()
        worker.start()

    app.extensions["papershelf_start_background"] = start_background
    return worker
