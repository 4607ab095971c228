"""The background worker that writes BibTeX entries ahead inside the server process.

``init_entries(app)`` registers it as ``app.extensions["papershelf_entries"]``, run by
``background.BackgroundWorker``'s loop as the arXiv and published-version workers are (it never
starts when ``ENRICH_IN_BACKGROUND`` is false). Each round writes the entries of up to 500
papers that have none kept of the kind their user's export writes
(``services.transfer.write_due_entries``): a paper saved from a page is written ahead within a
poll (``ENRICH_POLL`` seconds), so that the first export, even of a server just started, reads
its entry rather than writing it. Several processes may run it on one store: they may write the
same entry twice, which keeps one.

A round that found the same papers due as the round before (their entries could not be kept:
the failure is logged) waits a poll before it tries again, rather than spinning.
"""

from __future__ import annotations

import logging

from papershelf import background
from papershelf.services import transfer

log = logging.getLogger(__name__)

BETWEEN_BATCHES = 0.2  # seconds between two full batches: saves run between them


class EntriesWorker(background.BackgroundWorker):
    thread_name = "papershelf-entries"
    what = "entries write-ahead"  # "entries write-ahead worker started"

    def __init__(self, app):
        super().__init__(app)
        self._last: list[int] = []

    def enabled(self) -> bool:
        return True

    def next_due(self):
        return None  # papers are found by looking: each poll

    def round(self) -> float | None:
        with self.database.connection_context():
            due = transfer.write_due_entries(transfer.BATCH)
        if due:
            self.batches.append(len(due))
            log.info("entries written ahead: %d papers", len(due))
        again = due and due != self._last and len(due) == transfer.BATCH
        self._last = due
        return BETWEEN_BATCHES if again else self.sleep_time()


def init_entries(app) -> EntriesWorker:
    return background.register(app, "papershelf_entries", EntriesWorker)
