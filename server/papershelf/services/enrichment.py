"""Enrichment: completing saved papers from the arXiv API, a batch at a time.

The queue is the store itself: a paper is waiting when ``enrichment = 'pending'`` and its
``enrichment_due`` has come. ``run_batch`` takes up to 100 waiting papers (of every user), makes
one API call for their ids and applies the answer. Nothing is held in memory between batches, so
a restart (or a crash) loses nothing: a batch that was interrupted is still pending in the store.

While a batch is in flight its papers are *leased*: their ``enrichment_due`` moves ``lease``
seconds ahead, so a second worker (another server process, or ``papershelf enrich`` running
next to ``serve``) does not ask for them again; if this one dies, the lease runs out and they
are taken again.

What arXiv answers is applied under two rules: a field the user edited (``edited_fields``) is
never touched, and what the page gave is replaced only by better data (the full author list, the
first version's date, the latest version). Fields taken from arXiv are listed in
``enriched_fields`` so that a later page save keeps them.

Calls are spaced by ``ARXIV_MIN_INTERVAL`` seconds (arXiv asks for one every 3 s) with one
limiter per arXiv host for the whole process and, across processes and hosts, the store's
clock row for that host (``store.locks.reserve_call``: a call takes the slot under the row's
lock, and the next may start ``ARXIV_MIN_INTERVAL`` after it ended); 5xx answers and network
errors are retried with exponential backoff, ``ARXIV_MAX_ATTEMPTS`` times, before the paper is marked failed.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field
from datetime import timedelta
from urllib.parse import urlsplit

from papershelf import arxiv_api
from papershelf.domain.identifiers import is_arxiv_doi
from papershelf.domain.record import is_provisional_title
from papershelf.services import citekeys, search
from papershelf.settings import default, enrichment_enabled
from papershelf.store import locks
from papershelf.store import papers as paper_queries
from papershelf.store.db import let_other_writers_in, skip_locked, write
from papershelf.store.models import Paper, User, utcnow

log = logging.getLogger(__name__)

BATCH_SIZE = 100
MAX_BACKOFF = 6 * 3600.0


def settings(cfg: dict) -> dict:
    """The enrichment settings of ``cfg``; what it lacks comes from the settings table."""
    def get(name):
        value = cfg.get(name)
        return default(name) if value is None else value

    timeout = float(get("ARXIV_TIMEOUT"))
    return {
        "base_url": cfg["ARXIV_API"],
        "interval": float(get("ARXIV_MIN_INTERVAL")),
        "timeout": timeout,
        "lease": float(cfg.get("ARXIV_LEASE") or (timeout + 30.0)),
        "retry_base": float(get("ARXIV_RETRY_BASE")),
        "max_attempts": int(get("ARXIV_MAX_ATTEMPTS")),
    }


# ---- the rate limiter ------------------------------------------------------------------------


class Cancelled(Exception):
    """The wait for a call slot was cut short (the worker is stopping)."""


class RateLimiter:
    """At most one call every ``interval`` seconds, counted from the end of the previous call,
    and never two at once."""

    def __init__(self):
        self._lock = threading.Lock()
        self._last_end: float | None = None

    def acquire(self, interval: float, cancel: threading.Event | None = None) -> None:
        """Take the slot (blocks); the caller must ``release`` it."""
        while not self._lock.acquire(timeout=0.1):
            if cancel is not None and cancel.is_set():
                raise Cancelled()
        if self._last_end is not None:
            delay = self._last_end + interval - time.monotonic()
            if delay > 0:
                stopped = cancel.wait(delay) if cancel is not None else time.sleep(delay)
                if stopped:
                    self._lock.release()
                    raise Cancelled()

    def release(self, called: bool) -> None:
        if called:
            self._last_end = time.monotonic()
        self._lock.release()


_limiters: dict[str, RateLimiter] = {}
_limiters_lock = threading.Lock()


def host_of(base_url: str) -> str:
    parts = urlsplit(base_url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def limiter_for(base_url: str) -> RateLimiter:
    """The process's limiter for the host behind ``base_url``."""
    with _limiters_lock:
        return _limiters.setdefault(host_of(base_url), RateLimiter())


def take_store_slot(host: str, s: dict, cancel: threading.Event | None = None) -> None:
    """Wait until the store's clock lets this process call ``host`` (another process or host
    may have called it less than the interval ago), and take the slot."""
    while True:
        wait = locks.reserve_call(host, s["timeout"] + s["interval"])
        if wait <= 0:
            return
        if cancel is not None:
            if cancel.wait(min(wait, 1.0)):
                raise Cancelled()
        else:
            time.sleep(min(wait, 1.0))


# ---- the queue -------------------------------------------------------------------------------


def _due(now):
    return (Paper.enrichment == "pending") & (Paper.enrichment_due <= now)


def due_count(limit: int = BATCH_SIZE) -> int:
    """How many papers wait now (counted up to ``limit``)."""
    return (Paper.select(Paper.id).where(_due(utcnow())).limit(limit).count())


def newest_queued():
    """When the last paper was queued and not yet tried (None: none waits): a save queues its
    paper due at once, so this is the last save's time, whichever process made it."""
    row = (Paper.select(Paper.enrichment_due)
           .where(_due(utcnow()) & (Paper.enrichment_attempts == 0))
           .order_by(Paper.enrichment_due.desc()).limit(1).first())
    return row.enrichment_due if row else None


def next_due():
    """When the next pending paper comes due (None: nothing pending)."""
    row = (Paper.select(Paper.enrichment_due).where(Paper.enrichment == "pending")
           .order_by(Paper.enrichment_due).limit(1).first())
    return row.enrichment_due if row else None


def pending_count() -> int:
    return Paper.select().where(Paper.enrichment == "pending").count()


def claim(lease: float, limit: int = BATCH_SIZE) -> list[tuple[int, str]]:
    """Lease up to ``limit`` due papers: ``[(paper id, arXiv id)]``, oldest due first."""
    now = utcnow()

    def lease_due() -> list[tuple[int, str]]:
        query = (Paper.select(Paper.id, Paper.arxiv_id).where(_due(now))
                 .order_by(Paper.enrichment_due, Paper.id).limit(limit))
        rows = [(p.id, p.arxiv_id) for p in skip_locked(query)]
        orphans = [paper_id for paper_id, arxiv_id in rows if not arxiv_id]
        if orphans:  # the user removed the arXiv id: nothing to ask arXiv about
            (Paper.update(enrichment=None, enrichment_due=None, enrichment_reason=None)
             .where(Paper.id.in_(orphans)).execute())
            rows = [r for r in rows if r[1]]
        if rows:
            (Paper.update(enrichment_due=now + timedelta(seconds=lease))
             .where(Paper.id.in_([r[0] for r in rows])).execute())
        return rows

    return write(lease_due)


def queued_fields(now=None) -> dict:
    """A paper's enrichment columns once it is (back) in the queue, due ``now``: the one rule
    for a save, an edit, an import, ``enrich`` and ``enrich --all``. The check for a published
    version (``services.published``) is queued with it and waits for arXiv's answer."""
    now = now or utcnow()
    return {"enrichment": "pending", "enrichment_due": now, "enrichment_attempts": 0,
            "enrichment_reason": None, "enrichment_at": None,
            "resolve": "pending", "resolve_due": now, "resolve_attempts": 0, "resolve_reason": None}


def mark_queued(paper: Paper, now=None) -> None:
    """Put ``paper`` in the queue as part of a write that saves it."""
    for name, value in queued_fields(now).items():
        setattr(paper, name, value)


def queue(paper: Paper) -> Paper:
    """Ask for ``paper`` to be completed (again) as soon as possible."""
    write(lambda: Paper.update(**queued_fields()).where(Paper.id == paper.id).execute())
    return Paper.get_by_id(paper.id)


def queue_all() -> int:
    """Queue every paper with an arXiv id (of every user); answers how many."""
    return write(lambda: Paper.update(**queued_fields())
                 .where(Paper.arxiv_id.is_null(False)).execute())


# ---- applying an answer ----------------------------------------------------------------------


def _looks_cut(text: str) -> bool:
    return text.rstrip().endswith(("…", "..."))


def merge_metadata(paper: Paper, meta: arxiv_api.ArxivPaper) -> list[str]:
    """Apply arXiv's metadata to ``paper`` (not saved); answers the fields arXiv supplied."""
    edited = set(paper.edited_fields or [])
    supplied: list[str] = []

    def put(name, value):
        if name in edited:
            return
        setattr(paper, name, value)
        supplied.append(name)

    page_authors = paper.authors or []
    if meta.authors and "authors" not in edited and (
            len(meta.authors) >= len(page_authors) or paper.authors_more):
        put("authors", list(meta.authors))
        if "authors_more" not in edited:
            put("authors_more", 0)
    if meta.primary_category:
        put("primary_category", meta.primary_category)
    if meta.categories:
        put("categories", list(meta.categories))
    if meta.published and "published" not in edited:
        put("published", meta.published)  # the first version's date, whatever the page showed
        if paper.published_precision is not None:
            put("published_precision", None)  # a full date
    if meta.affiliations and not paper.affiliations:
        put("affiliations", list(meta.affiliations))
    if meta.version and meta.version >= (paper.arxiv_version or 0):
        put("arxiv_version", meta.version)
    if meta.journal_ref:
        put("journal_ref", meta.journal_ref)
    if meta.comments:
        put("comments", meta.comments)
    if meta.doi and "doi" not in edited:
        current = paper.doi
        if not current or is_arxiv_doi(current) or current == meta.doi:
            clash = (Paper.select(Paper.id).where((Paper.user == paper.user_id)
                                                  & (Paper.doi == meta.doi) & (Paper.id != paper.id))
                     .exists())
            if clash:
                log.info("paper %s: DOI %s is another saved paper's; not set", paper.id, meta.doi)
            else:
                put("doi", meta.doi)
    if meta.summary and "abstract" not in edited:
        page = paper.abstract or ""
        if not page.strip() or (_looks_cut(page) and len(meta.summary) > len(page)):
            put("abstract", meta.summary)
    provisional = is_provisional_title(paper.title, paper.arxiv_id)  # saved from its id alone
    if meta.title and "title" not in edited and (provisional or _looks_cut(paper.title or "")):
        put("title", meta.title)
    return supplied


@dataclass
class BatchResult:
    papers: int = 0
    ids: int = 0
    done: int = 0
    failed: int = 0
    retrying: int = 0
    called: bool = False
    error: str | None = None
    failures: list[tuple[int, str]] = field(default_factory=list)

    def count(self, applied: BatchResult) -> None:
        """Add what one committed write of the answer did."""
        self.done += applied.done
        self.failed += applied.failed
        self.retrying += applied.retrying
        self.failures += applied.failures


def _fail(paper: Paper, reason: str, now, result: BatchResult) -> None:
    paper.enrichment = "failed"
    paper.enrichment_reason = reason[:1000]
    paper.enrichment_at = now
    paper.enrichment_due = None
    result.failed += 1
    result.failures.append((paper.id, reason))


def _apply_one(paper: Paper, answer: arxiv_api.ArxivAnswer, now, result: BatchResult) -> None:
    aid = paper.arxiv_id
    if aid in answer.papers:
        supplied = merge_metadata(paper, answer.papers[aid])
        paper.enriched_fields = sorted(set(paper.enriched_fields or []) | set(supplied))
        paper.enrichment = "done"
        paper.enrichment_reason = None
        paper.enrichment_at = now
        paper.enrichment_due = None
        paper.enrichment_attempts = 0
        paper.updated_at = now
        result.done += 1
    elif aid in answer.withdrawn:
        w = answer.withdrawn[aid]
        version = f" (v{w.version})" if w.version else ""
        _fail(paper, f"withdrawn on arXiv{version}: {w.comments or w.summary[:200]}", now, result)
    elif aid in answer.rejected:
        _fail(paper, f"arXiv rejected the id: {answer.rejected[aid]}", now, result)
    else:
        _fail(paper, f"unknown to arXiv: no paper with the id {aid}", now, result)


def backoff(attempts: int, base: float, retry_after: float | None, most: float) -> float:
    """Seconds before the next try after ``attempts`` failed ones: doubling from ``base``,
    at least what the service's ``Retry-After`` asked, at most ``most``. Both queues' rule."""
    delay = min(most, base * 2 ** (attempts - 1))
    if retry_after:
        delay = max(delay, min(most, retry_after))
    return delay


def _backoff(paper: Paper, error: arxiv_api.ArxivUnavailable, cfg: dict, now,
             result: BatchResult) -> None:
    paper.enrichment_attempts = (paper.enrichment_attempts or 0) + 1
    attempts = paper.enrichment_attempts
    if attempts >= cfg["max_attempts"]:
        _fail(paper, f"arXiv unavailable after {attempts} attempts: {error}", now, result)
        return
    delay = backoff(attempts, cfg["retry_base"], error.retry_after, MAX_BACKOFF)
    paper.enrichment_due = now + timedelta(seconds=delay)
    paper.enrichment_reason = (f"{error}; attempt {attempts} of {cfg['max_attempts']}, "
                               f"next try in {round(delay)} s")
    result.retrying += 1


TEXT_FIELDS = {"title", "authors", "abstract"}  # what the search document holds


APPLY_CHUNK = 10  # papers per write transaction when applying an answer


def _apply_to(paper: Paper, arxiv_id: str, outcome, cfg: dict, now, result: BatchResult) -> None:
    if paper.arxiv_id != arxiv_id:
        # The user changed the id during the call: ask again for the new one (claim drops the
        # paper from the queue if the id was removed).
        paper.enrichment_due = now
    elif isinstance(outcome, arxiv_api.ArxivUnavailable):
        _backoff(paper, outcome, cfg, now, result)
    elif isinstance(outcome, arxiv_api.ArxivError):
        _fail(paper, f"malformed answer from arXiv: {outcome}", now, result)
    elif outcome.rejected and arxiv_id not in outcome.rejected and not (
            arxiv_id in outcome.papers or arxiv_id in outcome.withdrawn):
        # arXiv refused the whole query because of another id: this one was not looked at,
        # so it goes again in the next batch.
        paper.enrichment_due = now
    else:
        _apply_one(paper, outcome, now, result)


def _apply(claimed: list[tuple[int, str]], outcome, cfg: dict, result: BatchResult) -> None:
    """Write the answer (or the error) into the claimed papers, each as it is now (a user's
    edit made during the call is seen here), a few papers per short transaction."""
    formulas = {}  # user id -> key formula
    for start in range(0, len(claimed), APPLY_CHUNK):
        if start:
            let_other_writers_in()
        chunk = dict(claimed[start:start + APPLY_CHUNK])

        def apply_chunk(chunk=chunk) -> BatchResult:
            counts = BatchResult()  # this run's own: a run retried after a deadlock counts once
            for paper in Paper.select().where(Paper.id.in_(list(chunk))).order_by(Paper.id):
                if paper.enrichment != "pending":
                    continue
                before = {name: getattr(paper, name) for name in TEXT_FIELDS}
                doi = paper.doi
                _apply_to(paper, chunk[paper.id], outcome, cfg, utcnow(), counts)
                if paper.enrichment != "pending":  # arXiv answered: a provisional key settles
                    if paper.user_id not in formulas:
                        formulas[paper.user_id] = User.get_by_id(paper.user_id).citekey_format
                    citekeys.settle(paper, formulas[paper.user_id])
                paper.save()
                if paper.doi != doi:  # arXiv gave the published version's DOI: known by it too
                    paper_queries.add_identities([(paper.id, paper.user_id,
                                                   paper_queries.identities_of_fields(doi=paper.doi))])
                if any(getattr(paper, name) != value for name, value in before.items()):
                    search.reindex(paper)
            return counts

        result.count(write(apply_chunk))


def run_batch(cfg: dict, cancel: threading.Event | None = None) -> BatchResult | None:
    """Take up to 100 due papers, make one call, apply it. None when nothing was due (no call).

    Call it inside a connection to the store (``database.connection_context()``).
    """
    if not enrichment_enabled(cfg):
        return None
    s = settings(cfg)
    host = host_of(s["base_url"])
    limiter = limiter_for(s["base_url"])
    limiter.acquire(s["interval"], cancel)
    called = slot = False
    try:
        claimed = claim(s["lease"])
        if not claimed:
            return None
        take_store_slot(host, s, cancel)
        slot = True
        ids = list(dict.fromkeys(arxiv_id for _, arxiv_id in claimed))
        result = BatchResult(papers=len(claimed), ids=len(ids), called=True)
        called = True
        try:
            outcome = arxiv_api.fetch(ids, s["base_url"], s["timeout"])
        except arxiv_api.ArxivError as e:
            outcome = e
            result.error = str(e)
            log.warning("arXiv call for %d ids failed: %s", len(ids), e)
    finally:
        if slot:
            if called:
                locks.call_ended(host, s["interval"])
            else:
                locks.call_not_made(host)
        limiter.release(called)
    _apply(claimed, outcome, s, result)
    return result


def run_batches(run_batch, cfg: dict, on_batch=None,
                cancel: threading.Event | None = None) -> list:
    """Run ``run_batch(cfg, cancel)`` until it answers None, nothing due (papers backing off
    until later stay pending); ``on_batch`` is told of each batch's result. Enrichment's queue
    and the published-version check's alike."""
    results = []
    while cancel is None or not cancel.is_set():
        result = run_batch(cfg, cancel)
        if result is None:
            break
        results.append(result)
        if on_batch is not None:
            on_batch(result)
    return results


def run_due(cfg: dict, on_batch=None, cancel: threading.Event | None = None) -> list[BatchResult]:
    """Run batches until nothing is due (papers backing off until later stay pending)."""
    return run_batches(run_batch, cfg, on_batch, cancel)
