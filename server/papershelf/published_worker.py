"""The background check for published versions inside the server process.

``init_published(app)`` registers it as ``app.extensions["papershelf_resolver"]``, run by
``background.BackgroundWorker``'s loop as the enrichment worker is; it never starts when every
catalogue is off (or arXiv is, which switches all network calls off) or
``ENRICH_IN_BACKGROUND`` is false.

Several processes may run it on one store: each batch leases its papers in the store
(``services.published.claim``) and each catalogue's calls are spaced through the store's
clock row for its host, so the limits hold across all of them without a lock of their own.
A paper waits until arXiv has answered for it.
"""

from __future__ import annotations

import logging

from papershelf import background
from papershelf.services import published
from papershelf.settings import resolving_enabled

log = logging.getLogger(__name__)

WAITING_FOR_ARXIV = 2.0  # seconds between looks while papers wait for arXiv's answer


class PublishedWorker(background.BackgroundWorker):
    thread_name = "papershelf-published"
    what = "published-version"
    when_due = WAITING_FOR_ARXIV  # due, but waiting for arXiv's answer

    def __init__(self, app):
        super().__init__(app)
        self.batches: list[published.BatchResult] = []

    def enabled(self) -> bool:
        return resolving_enabled(self.cfg)

    def next_due(self):
        return published.next_due()

    def round(self) -> float | None:
        with self.database.connection_context():
            result = published.run_batch(self.cfg, cancel=self._stop)
            if result is not None:
                self.batches.append(result)
                log.info("published versions: %d papers, %d found, %d none, %d retrying",
                         result.papers, result.found, result.missing, result.retrying)
                return None
            return self.sleep_time()


def init_published(app) -> PublishedWorker:
    return background.register(app, "papershelf_resolver", PublishedWorker)
