"""The published version of a preprint: found in the catalogues, accepted by the rule, stored
with its evidence, and the user's choice of what to cite.

The queue is the store itself, as enrichment's: a paper waits when ``resolve = 'pending'``, its
``resolve_due`` has come and arXiv has answered for it (``enrichment`` is not pending: the
authors, the DOI and the journal reference come from arXiv). ``run_batch`` leases up to 500
waiting papers (one Semantic Scholar call), asks the catalogues and writes what they said, 20
papers at a time as their checks end; what a batch cut short did not write stays pending.

For each paper, in order, until a version is accepted:
1. arXiv's own journal DOI: Crossref's record of it; arXiv's journal reference
   (``domain.journal_ref``) is evidence for the searches below: a paper Semantic Scholar
   knows as a preprint only is still searched when it has one, Crossref's search is given it
   (and goes before DBLP's when it reads as a journal's volume, pages and year), DBLP's hit of
   its year is preferred, and a Crossref record it names (journal and year) takes the volume,
   issue and pages it lacks from it;
2. Semantic Scholar by arXiv id (one batch call for the whole batch): its DOI gives Crossref's
   record (the batch's DOIs 50 a call, ``works?filter=doi:…``), else its DBLP key DBLP's
   (``rec/<key>.bib``); a paper it knows as a preprint only
   (no venue key, no DOI, an arXiv venue) is not searched further;
3. DBLP's search by title and first author (a second page when the first is look-alikes), and
   the record of the hit the rule accepts;
4. Crossref's bibliographic search.
Steps 1 and 2 are links to the arXiv id; 3 and 4 (with or without a journal reference) are
accepted only by title, authors and year
(``domain.same_work``). The venue's year, pages, volume and DOI are the venue's record's, never
Semantic Scholar's ``year``. A match the user rejected is never offered again.

A catalogue that fails (429, 5xx, a timeout, HTML or truncated JSON) leaves the paper as it was:
it is tried again later, with backoff, ``RESOLVE_MAX_ATTEMPTS`` times. Calls to each catalogue
are spaced by its interval across processes and hosts (the store's clock row per host, as
arXiv's), and a 429 pushes that host's next call back by its ``Retry-After``.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import timedelta

from papershelf import catalogues
from papershelf.catalogues import CatalogueError, CatalogueUnavailable, Client, Record
from papershelf.domain.citekey import ascii_fold
from papershelf.domain.errors import Invalid
from papershelf.domain.identifiers import is_arxiv_doi
from papershelf.domain.journal_ref import JournalRef, names_agree, read_journal_ref
from papershelf.domain.latex import decode_latex
from papershelf.domain.same_work import Work, family_name, is_preprint_venue, same_work
from papershelf.domain.venues import short_venue
from papershelf.formats import FormatError
from papershelf.formats.bibtex_read import read_bibtex
from papershelf.services.enrichment import (  # noqa: F401 - Cancelled: what a stop raises
    Cancelled,
    backoff,
    host_of,
    limiter_for,
    run_batches,
    take_store_slot,
)
from papershelf.settings import catalogue_enabled, default, resolving_enabled
from papershelf.store import locks
from papershelf.store.db import let_other_writers_in, skip_locked, write
from papershelf.store.models import Paper, utcnow

log = logging.getLogger(__name__)

BATCH_SIZE = catalogues.S2_BATCH_MAX  # papers a batch checks: one Semantic Scholar call
DBLP_HITS = 10
DBLP_PAGES = 2
CROSSREF_ROWS = 5
MAX_BACKOFF = 24 * 3600.0
CITE = ("published", "preprint")
VERSION_FIELDS = ("entry_type", "venue", "booktitle", "journal", "year", "volume", "number",
                  "pages", "publisher", "doi", "dblp", "source", "evidence", "checked_at")


def _get(cfg: dict, name: str):
    value = cfg.get(name)
    return default(name) if value is None else value


def settings(cfg: dict) -> dict:
    timeout = float(_get(cfg, "CATALOGUE_TIMEOUT"))
    mail = cfg.get("CONTACT_EMAIL") or None

    def client(name, setting, interval, **more):
        if not catalogue_enabled(cfg, setting):
            return None
        return Client(name, cfg.get(setting) or default(setting), timeout=timeout,
                      contact_email=mail, **more), float(_get(cfg, interval))

    return {
        "s2": client("Semantic Scholar", "S2_API", "S2_MIN_INTERVAL",
                     api_key=cfg.get("S2_API_KEY") or None),
        "dblp": client("DBLP", "DBLP_API", "DBLP_MIN_INTERVAL"),
        "crossref": client("Crossref", "CROSSREF_API", "CROSSREF_MIN_INTERVAL"),
        "timeout": timeout,
        "retry_base": float(_get(cfg, "RESOLVE_RETRY_BASE")),
        "max_attempts": int(_get(cfg, "RESOLVE_MAX_ATTEMPTS")),
    }


# ---- calling the catalogues, within their limits --------------------------------------------


class Session:
    """The catalogues of one batch: each call waits for its host's slot (this process's and
    the store's), and a 429 moves the host's next slot back by what the service asked."""

    def __init__(self, s: dict, cancel: threading.Event | None = None):
        self.s = s
        self.cancel = cancel
        self.calls: dict[str, int] = {}
        self.sequence: list[str] = []  # the services called, in order (bench/resolve.py)
        self.works: dict[str, Record] = {}  # Crossref's records of the batch's DOIs

    def has(self, name: str) -> bool:
        return self.s[name] is not None

    def call(self, name: str, fn, *args, **kwargs):
        client, interval = self.s[name]
        host = host_of(client.base_url)
        limiter = limiter_for(client.base_url)
        limiter.acquire(interval, self.cancel)
        spacing = interval
        try:
            take_store_slot(host, {"timeout": self.s["timeout"], "interval": interval},
                            self.cancel)
            self.calls[name] = self.calls.get(name, 0) + 1
            self.sequence.append(name)
            try:
                return fn(client, *args, **kwargs)
            except CatalogueUnavailable as e:
                if e.retry_after:
                    spacing = max(interval, min(e.retry_after, MAX_BACKOFF))
                elif e.status == 429:
                    spacing = max(interval, 60.0)
                raise
        finally:
            locks.call_ended(host, spacing)
            limiter.release(True)


# ---- the queue -------------------------------------------------------------------------------

CALLS_PER_PAPER = 4  # the most a paper's check makes after the batch's Semantic Scholar call


def _lease(s: dict, papers: int) -> float:
    """Seconds a batch's papers stay reserved to the process checking them: long enough for
    every call the limits let it make (another process takes them again after that)."""
    spacing = max([entry[1] for entry in (s["s2"], s["dblp"], s["crossref"]) if entry] or [0])
    return papers * CALLS_PER_PAPER * (spacing + 0.05) + 4 * s["timeout"] + 60.0


def queued_fields(now=None) -> dict:
    """A paper's check columns once it is (back) in the queue."""
    return {"resolve": "pending", "resolve_due": now or utcnow(), "resolve_attempts": 0,
            "resolve_reason": None}


def _due(now):
    return ((Paper.resolve == "pending") & (Paper.resolve_due <= now)
            & ((Paper.enrichment.is_null()) | (Paper.enrichment != "pending")))


def due_count(limit: int = BATCH_SIZE) -> int:
    return Paper.select(Paper.id).where(_due(utcnow())).limit(limit).count()


def pending_count() -> int:
    return Paper.select().where(Paper.resolve == "pending").count()


def next_due():
    row = (Paper.select(Paper.resolve_due).where(Paper.resolve == "pending")
           .order_by(Paper.resolve_due).limit(1).first())
    return row.resolve_due if row else None


def queue_all(everything: bool = False) -> int:
    """Queue the papers with an arXiv id (``everything``: checked ones too) for a check."""
    where = Paper.arxiv_id.is_null(False)
    if not everything:
        where &= Paper.resolve.is_null() | (Paper.resolve == "failed")
    return write(lambda: Paper.update(**queued_fields()).where(where).execute())


@dataclass
class Preprint:
    id: int
    arxiv_id: str | None
    title: str
    authors: list[str]
    year: int | None
    doi: str | None
    rejected: list[str]
    journal_ref: str | None = None

    @property
    def work(self) -> Work:
        return Work(self.title, tuple(self.authors), self.year, arxiv_id=self.arxiv_id)

    @property
    def ref(self) -> JournalRef | None:
        """arXiv's journal reference, read; None when there is none or it names a preprint
        server."""
        ref = read_journal_ref(self.journal_ref)
        return ref if ref.journal and not is_preprint_venue(ref.journal) else None


def claim(lease: float, limit: int = BATCH_SIZE) -> list[Preprint]:
    now = utcnow()

    def lease_due() -> list[Preprint]:
        query = (Paper.select(Paper.id, Paper.arxiv_id, Paper.title, Paper.authors,
                              Paper.published, Paper.doi, Paper.published_rejected,
                              Paper.journal_ref)
                 .where(_due(now)).order_by(Paper.resolve_due, Paper.id).limit(limit))
        rows = list(skip_locked(query))
        orphans = [p.id for p in rows if not p.arxiv_id]
        if orphans:
            (Paper.update(resolve=None, resolve_due=None).where(Paper.id.in_(orphans)).execute())
        rows = [p for p in rows if p.arxiv_id]
        if rows:
            (Paper.update(resolve_due=now + timedelta(seconds=lease))
             .where(Paper.id.in_([p.id for p in rows])).execute())
        return [Preprint(p.id, p.arxiv_id, p.title, p.authors or [],
                         p.published.year if p.published else None,
                         p.doi if p.doi and not is_arxiv_doi(p.doi) else None,
                         p.published_rejected or [], p.journal_ref) for p in rows]

    return write(lease_due)


# ---- finding the version -----------------------------------------------------------------------


@dataclass
class Found:
    version: dict


@dataclass
class Missing:
    reason: str


def identities(version: dict) -> list[str]:
    """What a version is known by, to remember a rejected match."""
    out = []
    if version.get("dblp"):
        out.append(f"dblp:{version['dblp']}")
    if version.get("doi"):
        out.append(f"doi:{version['doi'].lower()}")
    if not out:
        out.append(f"venue:{(version.get('venue') or '').lower()}|{version.get('year')}")
    return out


def version_of(record: Record, source: str, evidence: str) -> dict:
    """The stored version of a catalogue's record."""
    kind = record.entry_type or ("article" if record.journal and not record.booktitle
                                 else "inproceedings")
    container = record.booktitle if kind == "inproceedings" else record.journal
    container = container or record.venue
    version = {
        "entry_type": kind,
        "venue": short_venue(container, record.year) or record.venue or container,
        "booktitle": container if kind == "inproceedings" else None,
        "journal": container if kind == "article" else None,
        "year": record.year,
        "volume": record.volume,
        "number": record.number,
        "pages": record.pages,
        "publisher": record.publisher,
        "doi": record.doi,
        "dblp": record.dblp,
        "source": source,
        "evidence": evidence,
        "checked_at": utcnow().isoformat(timespec="seconds") + "Z",
    }
    return version


def record_from_bibtex(text: str, key: str | None) -> Record | None:
    """DBLP's ``rec/<key>.bib`` as a record (its first entry; a CoRR entry is the preprint)."""
    try:
        found, _ = read_bibtex(text)
    except FormatError:
        return None
    if not found:
        return None
    r = found[0]
    year = int(r["published"][:4]) if r.get("published") else None
    return Record(source="dblp", title=r.get("title") or "", authors=list(r.get("authors") or []),
                  year=year, venue=r.get("booktitle") or r.get("journal"),
                  entry_type=r.get("entry_type") if r.get("entry_type") in (
                      "inproceedings", "article") else None,
                  booktitle=r.get("booktitle"), journal=r.get("journal"), volume=r.get("volume"),
                  number=r.get("number"), pages=r.get("pages"), publisher=r.get("publisher"),
                  doi=r.get("doi") if r.get("doi") and not is_arxiv_doi(r["doi"]) else None,
                  dblp=key)


def _rejected(record: Record, rejected: list[str]) -> bool:
    if not rejected:
        return False
    mine = identities({"dblp": record.dblp, "doi": record.doi, "venue": record.venue,
                       "year": record.year})
    return any(i in rejected for i in mine)


def _accept(preprint: Preprint, record: Record | None, linked: bool):
    """The rule's verdict on ``record`` (None when there is no record or the user rejected it)."""
    if record is None or _rejected(record, preprint.rejected):
        return None
    candidate = Work(record.title, tuple(record.authors), record.year,
                     record.venue or record.booktitle or record.journal,
                     arxiv_id=preprint.arxiv_id if linked else None)
    verdict = same_work(preprint.work, candidate)
    return verdict if verdict else None


def _is_corr(key: str | None) -> bool:
    return bool(key) and key.startswith("journals/corr/")


def _dblp_record(session: Session, key: str, hit: Record | None = None) -> Record | None:
    text = session.call("dblp", catalogues.dblp_bibtex, key)
    if text is None:  # DBLP has no such record (any more)
        return hit
    record = record_from_bibtex(text, key)
    if record is None:
        raise catalogues.CatalogueBadAnswer(f"DBLP's record {key} does not read as BibTeX")
    if hit is not None:  # what the search knew and the record does not say
        for name in ("volume", "number", "pages", "doi"):
            if not getattr(record, name) and getattr(hit, name):
                setattr(record, name, getattr(hit, name))
    return record


def _query(preprint: Preprint) -> str:
    """Title words and the first author's family name: no punctuation, which DBLP's search
    reads as syntax (``venue:``, ``$``, ``|``)."""
    first = family_name(preprint.authors[0]) if preprint.authors else ""
    return f"{ascii_fold(decode_latex(preprint.title or ''))} {first}".strip()


def _crossref_record(session: Session, doi: str) -> Record | None:
    """Crossref's record of ``doi``: from the batch's one call for all its DOIs, else asked."""
    key = doi.lower()
    if key in session.works:
        return session.works[key]
    return session.call("crossref", catalogues.crossref_work, doi)


def _linked(preprint: Preprint, record: Record | None, source: str, why: str) -> Found | None:
    """The version a catalogue's link gives, if the rule accepts its record."""
    verdict = _accept(preprint, record, linked=True)
    if not verdict:
        return None
    record, taken = completed(record, preprint.ref)
    more = "; volume and pages from arXiv's journal reference" if taken else ""
    return Found(version_of(record, source, f"{why}; {verdict.reason}{more}"))


def _from_links(session: Session, preprint: Preprint, s2) -> Found | None:
    links = []  # (the record, asked when its turn comes; source; why)
    if preprint.doi and session.has("crossref"):
        links.append((lambda: _crossref_record(session, preprint.doi), "arxiv",
                      "arXiv gives its DOI"))
    # the DOI first: Crossref's records come 50 a call, DBLP's one a call
    if s2 is not None and s2.doi and s2.doi != preprint.doi and session.has("crossref"):
        links.append((lambda: _crossref_record(session, s2.doi), "semantic_scholar",
                      f"Semantic Scholar links it to DOI {s2.doi}"))
    if s2 is not None and s2.dblp and not _is_corr(s2.dblp) and session.has("dblp"):
        links.append((lambda: _dblp_record(session, s2.dblp), "semantic_scholar",
                      f"Semantic Scholar links it to DBLP {s2.dblp}"))
    for record, source, why in links:
        found = _linked(preprint, record(), source, why)
        if found is not None:
            return found
    return None


def _preferred(hits: list[Record], ref: JournalRef | None) -> Record | None:
    """The first of the hits the rule accepted, or the first of the year arXiv's journal
    reference gives (a workshop's version and the conference's share a title)."""
    if ref is not None and ref.year:
        for hit in hits:
            if hit.year == ref.year:
                return hit
    return hits[0] if hits else None


def _from_dblp_search(session: Session, preprint: Preprint) -> Found | None:
    query, ref = _query(preprint), preprint.ref
    for page in range(DBLP_PAGES):
        hits, total = session.call("dblp", catalogues.dblp_search, query, hits=DBLP_HITS,
                                   first=page * DBLP_HITS)
        accepted = [hit for hit in hits if not _is_corr(hit.dblp)
                    and not is_preprint_venue(hit.venue) and _accept(preprint, hit, linked=False)]
        hit = _preferred(accepted, ref)
        if hit is not None:
            record = _dblp_record(session, hit.dblp, hit) if hit.dblp else hit
            verdict = _accept(preprint, record, linked=False)
            if verdict:
                return Found(version_of(record, "dblp", "DBLP: " + verdict.reason))
        if total <= (page + 1) * DBLP_HITS or len(hits) < DBLP_HITS:
            break
    return None


def completed(record: Record, ref: JournalRef | None) -> tuple[Record, bool]:
    """A Crossref record with what it lacks of its volume, issue and pages taken from arXiv's
    journal reference, when that reference reads whole and names the record's journal and
    year; answers whether anything was taken."""
    if (ref is None or not ref.full or record.source != "crossref" or ref.year != record.year
            or not names_agree(ref.journal, record.journal or record.venue)):
        return record, False
    taken = False
    for name, value in (("volume", ref.volume), ("number", ref.issue), ("pages", ref.pages)):
        if value and not getattr(record, name):
            setattr(record, name, value)
            taken = True
    return record, taken


def _from_crossref_search(session: Session, preprint: Preprint) -> Found | None:
    ref = preprint.ref
    query = _query(preprint) + (f" {preprint.journal_ref}" if ref is not None else "")
    for record in session.call("crossref", catalogues.crossref_search, query,
                               rows=CROSSREF_ROWS):
        if record.entry_type is None:  # posted content (a preprint), a book, a dataset
            continue
        verdict = _accept(preprint, record, linked=False)
        if verdict:
            record, taken = completed(record, ref)
            how = " (searched with arXiv's journal reference)" if ref is not None else ""
            more = "; volume and pages from arXiv's journal reference" if taken else ""
            return Found(version_of(record, "crossref", f"Crossref{how}: {verdict.reason}{more}"))
    return None


def _only_a_preprint(s2) -> bool:
    """Semantic Scholar knows the paper and links it to nothing but arXiv: no venue's DBLP key,
    no DOI, a preprint server (or nothing) as its venue."""
    return (s2 is not None and (not s2.dblp or _is_corr(s2.dblp)) and not s2.doi
            and (not s2.venue or is_preprint_venue(s2.venue)))


def _searches(session: Session, preprint: Preprint) -> list:
    """The title searches, in order: a reference that reads as a journal's (volume, pages,
    year) goes to Crossref first, which holds the journals DBLP does not."""
    order = [(_from_dblp_search, "dblp"), (_from_crossref_search, "crossref")]
    if preprint.ref is not None and preprint.ref.full:
        order.reverse()
    return [search for search, name in order if session.has(name)]


def resolve_one(session: Session, preprint: Preprint, s2) -> Found | Missing:
    """The published version of one preprint (raises CatalogueError when a catalogue failed)."""
    found = _from_links(session, preprint, s2)
    if found is None and _only_a_preprint(s2) and preprint.ref is None:
        # Semantic Scholar takes in DBLP and Crossref: a paper it knows as a preprint only is
        # not searched by title (most new preprints), which keeps a check to one call per 500;
        # unless arXiv's journal reference says it appeared somewhere
        return Missing("Semantic Scholar knows it as a preprint only"
                       + (f" ({s2.venue})" if s2.venue else ""))
    for search in _searches(session, preprint) if preprint.title else []:
        if found is not None:
            break
        found = search(session, preprint)
    if found is not None:
        return found
    asked = [n for n in ("s2", "dblp", "crossref") if session.has(n)]
    return Missing("no published version found (asked " + ", ".join(asked) + ")")


# ---- writing what was found --------------------------------------------------------------------


@dataclass
class BatchResult:
    papers: int = 0
    found: int = 0
    missing: int = 0
    retrying: int = 0
    failed: int = 0
    calls: dict = field(default_factory=dict)
    sequence: list = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    found_ids: list[int] = field(default_factory=list)


def _apply_found(paper: Paper, version: dict, now) -> None:
    known = paper.published_version or {}
    same = {k: v for k, v in known.items() if k not in ("checked_at", "evidence")} == {
        k: v for k, v in version.items() if k not in ("checked_at", "evidence")}
    if any(i in (paper.published_rejected or []) for i in identities(version)):
        return
    paper.published_version = version
    if not same:
        paper.updated_at = now  # a feed's version follows


def _apply(paper: Paper, outcome, s: dict, now, result: BatchResult) -> None:
    if isinstance(outcome, CatalogueError):
        paper.resolve_attempts = (paper.resolve_attempts or 0) + 1
        attempts = paper.resolve_attempts
        if attempts >= s["max_attempts"]:
            paper.resolve, paper.resolve_due, paper.resolve_at = "failed", None, now
            paper.resolve_reason = f"catalogues unavailable after {attempts} attempts: {outcome}"
            result.failed += 1
            return
        delay = backoff(attempts, s["retry_base"], getattr(outcome, "retry_after", None),
                        MAX_BACKOFF)
        paper.resolve_due = now + timedelta(seconds=delay)
        paper.resolve_reason = (f"{outcome}; attempt {attempts} of {s['max_attempts']}, "
                                f"next try in {round(delay)} s")
        result.retrying += 1
        return
    if isinstance(outcome, Found):
        _apply_found(paper, outcome.version, now)
        paper.resolve_reason = outcome.version.get("evidence")
        result.found += 1
        result.found_ids.append(paper.id)
    else:
        paper.resolve_reason = outcome.reason
        result.missing += 1
    paper.resolve, paper.resolve_due, paper.resolve_at, paper.resolve_attempts = (
        "done", None, now, 0)


APPLY_CHUNK = 20


def _write(claimed: list[Preprint], outcomes: dict, s: dict, result: BatchResult) -> None:
    for start in range(0, len(claimed), APPLY_CHUNK):
        if start:
            let_other_writers_in()
        chunk = {p.id: p for p in claimed[start:start + APPLY_CHUNK]}

        def apply_chunk(chunk=chunk) -> BatchResult:
            counts = BatchResult()
            for paper in Paper.select().where(Paper.id.in_(list(chunk))).order_by(Paper.id):
                if paper.resolve != "pending":
                    continue
                if paper.arxiv_id != chunk[paper.id].arxiv_id:
                    paper.resolve_due = utcnow()  # the id changed during the calls: again
                else:
                    _apply(paper, outcomes[paper.id], s, utcnow(), counts)
                paper.save()
            return counts

        counts = write(apply_chunk)
        for name in ("found", "missing", "retrying", "failed"):
            setattr(result, name, getattr(result, name) + getattr(counts, name))
        result.found_ids += counts.found_ids


def run_batch(cfg: dict, cancel: threading.Event | None = None,
              limit: int = BATCH_SIZE) -> BatchResult | None:
    """Check up to ``limit`` due papers; None when nothing was due (no call made). Call it
    inside a connection to the store."""
    if not resolving_enabled(cfg):
        return None
    s = settings(cfg)
    claimed = claim(_lease(s, limit), limit)
    if not claimed:
        return None
    result = BatchResult(papers=len(claimed))
    checked: list[Preprint] = []

    def write_checked(preprint: Preprint | None, outcomes: dict) -> None:
        if preprint is not None:
            checked.append(preprint)
        if checked and (preprint is None or len(checked) >= APPLY_CHUNK):
            _write(checked, outcomes, s, result)
            checked.clear()

    find_versions(s, claimed, result, cancel, each=write_checked)
    return result


def find_versions(s: dict, preprints: list[Preprint], result: BatchResult,
                  cancel: threading.Event | None = None, each=None) -> dict:
    """``{preprint id: Found | Missing | the CatalogueError that stopped its check}``, with one
    Semantic Scholar call per 500 arXiv ids. ``s``: ``settings(cfg)``; ``each(preprint,
    outcomes)`` is told of each check as it ends, and ``each(None, outcomes)`` at the end."""
    session = Session(s, cancel)
    outcomes: dict = {}
    s2: dict = {}
    try:
        ids = list(dict.fromkeys(p.arxiv_id for p in preprints if p.arxiv_id))
        if session.has("s2"):
            for i in range(0, len(ids), catalogues.S2_BATCH_MAX):
                s2.update(session.call("s2", catalogues.s2_batch,
                                       ids[i:i + catalogues.S2_BATCH_MAX]))
        if session.has("crossref"):
            dois = list(dict.fromkeys(
                [p.doi for p in preprints if p.doi]
                + [s2[p.arxiv_id].doi for p in preprints if p.arxiv_id in s2 and s2[p.arxiv_id].doi]))
            step = catalogues.CROSSREF_BATCH_MAX
            for i in range(0, len(dois), step):
                found = session.call("crossref", catalogues.crossref_works, dois[i:i + step])
                session.works.update(found)
                # a DOI the batch does not answer for is not Crossref's: not asked again
                session.works.update({d.lower(): None for d in dois[i:i + step]
                                      if d.lower() not in found})
    except CatalogueError as e:
        log.warning("Semantic Scholar's batch failed: %s", e)
        result.errors.append(str(e))
        outcomes = {p.id: e for p in preprints if p.arxiv_id}
    for preprint in preprints:
        try:
            if preprint.id not in outcomes:
                outcomes[preprint.id] = resolve_one(session, preprint, s2.get(preprint.arxiv_id))
        except CatalogueError as e:
            log.info("paper %s: a catalogue failed: %s", preprint.id, e)
            result.errors.append(str(e))
            outcomes[preprint.id] = e
        if each is not None:
            each(preprint, outcomes)
    if each is not None:
        each(None, outcomes)
    result.calls = dict(session.calls)
    result.sequence = list(session.sequence)
    return outcomes


def run_due(cfg: dict, on_batch=None, cancel: threading.Event | None = None) -> list[BatchResult]:
    """Check batches until nothing is due (papers backing off until later stay pending)."""
    return run_batches(run_batch, cfg, on_batch, cancel)


# ---- the user's choice -----------------------------------------------------------------------


def _valid_version(value) -> dict | None:
    """A backup's published version, if it has the shape this module writes (else None)."""
    if not isinstance(value, dict) or value.get("entry_type") not in ("inproceedings", "article"):
        return None
    out = {}
    for name in VERSION_FIELDS:
        v = value.get(name)
        if name == "year":
            v = v if isinstance(v, int) and not isinstance(v, bool) and 1000 <= v <= 9999 else None
        elif not isinstance(v, str) or "\x00" in v:
            v = None
        out[name] = v[:2000] if isinstance(v, str) else v
    return out if out.get("booktitle") or out.get("journal") or out.get("venue") else None


def restore(paper: Paper, record: dict) -> None:
    """A backup's paper, just created: the published version it had, the matches its user
    rejected and what they chose to cite (a backup before its version 3 has no choices: its
    ``cite`` of a paper with a version is the choice)."""
    version = _valid_version(record.get("published_version"))
    if version is not None:
        paper.published_version = version
    rejected = record.get("published_rejected")
    if isinstance(rejected, list):
        paper.published_rejected = list(dict.fromkeys(
            i[:2000] for i in rejected if isinstance(i, str)))[:REJECTED_KEPT]
    if "cite_choice" in record:
        paper.cite = record["cite_choice"] if record["cite_choice"] in CITE else None
    elif version is not None and record.get("cite") == "preprint":  # a choice, not the default
        paper.cite = "preprint"


REJECTED_KEPT = 1000  # identities of rejected matches a paper keeps


def with_choices(records: Iterator[dict], chunk: int = 500) -> Iterator[dict]:
    """``records`` with each paper's published-version choices (``formats.backup``'s
    ``published_rejected`` and ``cite_choice``), read a chunk of papers at a time."""
    held: list[dict] = []
    for record in records:
        held.append(record)
        if len(held) >= chunk:
            yield from _choices_of(held)
            held = []
    yield from _choices_of(held)


def _choices_of(records: list[dict]) -> list[dict]:
    if not records:
        return records
    rows = (Paper.select(Paper.id, Paper.cite, Paper.published_rejected)
            .where(Paper.id.in_([r["id"] for r in records])))
    choices = {p.id: (p.published_rejected or [], p.cite) for p in rows}
    for record in records:
        rejected, cite = choices.get(record["id"], ([], None))
        record["published_rejected"], record["cite_choice"] = list(rejected), cite
    return records


def take_choice(data: dict) -> dict:
    """The published-version part of a PATCH (``cite``, ``published_version``), taken out of
    ``data``."""
    return {k: data.pop(k) for k in ("cite", "published_version") if k in data}


def apply_choice(paper: Paper, choice: dict) -> None:
    """A person's choice, in the write that edits ``paper``: ``published_version: null``
    rejects the match (remembered: not offered again), ``cite`` says what exports cite and
    sticks across checks."""
    if "published_version" in choice:
        if choice["published_version"] is not None:
            raise Invalid(fields={"published_version": [
                "only null: reject the match (the version itself comes from the catalogues)"]})
        if paper.published_version:
            rejected = list(paper.published_rejected or [])
            rejected += [i for i in identities(paper.published_version) if i not in rejected]
            paper.published_rejected = rejected
        paper.published_version = None
    if "cite" in choice:
        cite = choice["cite"]
        if cite == "published" and not paper.published_version:
            raise Invalid(fields={"cite": ["no published version is known for this paper"]})
        paper.cite = cite
