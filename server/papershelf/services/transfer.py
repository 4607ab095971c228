"""Exports and imports: the store's papers through the pure writers and readers of ``formats``.

Exports decide, write, then stream: the user's matching papers are ordered by citation key
(Python's code-point order, the same on SQLite and PostgreSQL) and their keys fixed (an exported
key is cited from then on) before the first record is handed out, so a failure of that write is
an error answer, never a cut file; the records are then read in batches of ``BATCH`` with their
tags, notes and highlights, so memory stays flat whatever the library's size. BibTeX and
BibLaTeX entries are written once for what they are written from (``entry_cache``): an export
after an earlier one writes only the entries whose papers changed, and an import writes its
papers' BibTeX entries ahead, as the user's export will ask for them.

Imports are written in batches, one transaction each: a file that cannot be read at all raises
before anything is written. A bad entry or field never costs the file: the reader keeps what it
can of an entry and reports the rest, and each record is validated like an API save (the same
schema) with what is invalid dropped and reported (the report's ``errors``; an entry imported
without some of its fields is marked ``imported``). One record's import first works out what it
brings (its fields, its key, notes, highlights and fields as written, all held to the API's
rules), then writes: the paper is created, or merged into the paper that is the same work
(``papers.find_same_work``: the same arXiv id, or the same DOI or URL with a compatible title) by
the save path, and what the save path does not know of (the file's key, its fields as written, a
backup's timestamps and state) goes onto it in one more write, with its notes and highlights. A
merge only fills what the paper lacks. A BibTeX or CSL-JSON note is added once; a backup also
restores citation keys, timestamps, edited fields, enrichment state, notes and highlights
exactly.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime

from papershelf.domain import palette
from papershelf.domain.entry_types import READING_STATES
from papershelf.domain.errors import Invalid
from papershelf.domain.merge import IDENTITY_FIELDS, PAGE_FIELDS
from papershelf.domain.validation import (
    CITATION_KEY,
    CONTEXT_MAX,
    EXTRA_FIELD_NAME,
    EXTRA_VALUE_MAX,
    HighlightInSchema,
    NoteInSchema,
    PaperCreateSchema,
    load,
)
from papershelf.formats import IMPORT_FORMATS, FormatError, annotation_text, reader_for, writer_for
from papershelf.formats.upload import decode_upload, sniff_format
from papershelf.services import citekeys, entry_cache, listing, papers, published, search, settings
from papershelf.store import entries as kept_entries
from papershelf.store import papers as queries
from papershelf.store import records
from papershelf.store.db import let_other_writers_in, plain_rows, write
from papershelf.store.models import Highlight, Note, Paper, User, utcnow

log = logging.getLogger(__name__)

BATCH = 500
_PAPER_SCHEMA = PaperCreateSchema()
_HIGHLIGHT_SCHEMA = HighlightInSchema()
_NOTE_SCHEMA = NoteInSchema()
_SCHEMA_FIELDS = (*PAGE_FIELDS, "tags")


# ---- export --------------------------------------------------------------------------------


def export_order(user: User, *, q: str | None = None, tag: str | None = None,
                 topic: str | None = None, ids: list[int] | None = None) -> list[int]:
    """The ids of the user's papers matching the filters, in citation-key order, their keys
    fixed (cited from now on: a failure raises here, before anything is sent)."""
    query = (listing.filtered(user, q=q, tag=tag, topic=topic, ids=ids)
             .select(Paper.id, Paper.citation_key))
    rows = plain_rows(query)  # (no model per row: 10,000 of them for a library)
    order = [pid for pid, _ in sorted(rows, key=lambda row: (row[1], row[0]))]
    citekeys.fix_exported(user, order)
    return order


def export_records(user: User, *, backup: bool = False, **filters) -> Iterator[dict]:
    """The user's papers matching the filters (``export_order``), as records, streamed
    (``backup``: with what the backup keeps beside them, ``published.with_choices``).

    Not a generator: the papers are chosen and their keys fixed here, when it is called; the
    records are read as they are taken."""
    records = _records_in_order(export_order(user, **filters))
    return published.with_choices(records) if backup else records


def _records_in_order(order: list[int]) -> Iterator[dict]:
    for i in range(0, len(order), BATCH):
        # raw rows: building a model instance for each costs more than the query
        yield from records.records_by_id(order[i:i + BATCH])


CHUNK = 1 << 16  # characters an answer sends at a time (an entry each would cost a write each)


def in_chunks(pieces: Iterator[str], size: int = CHUNK) -> Iterator[str]:
    """``pieces`` joined into chunks of about ``size`` characters, in order."""
    held, length = [], 0
    for piece in pieces:
        held.append(piece)
        length += len(piece)
        if length >= size:
            yield "".join(held)
            held, length = [], 0
    if held:
        yield "".join(held)


def export_chunks(user: User, fmt: str, *, q=None, tag=None, topic=None, ids=None,
                  **options) -> Iterator[str]:
    """The export file, in chunks (its keys fixed before the first). ``options``: abstract,
    notes_field, encoding… BibTeX and BibLaTeX entries are written once for what they are
    written from (``entry_cache``)."""
    order = export_order(user, q=q, tag=tag, topic=topic, ids=ids)
    if fmt in entry_cache.ENTRY_WRITERS:
        return in_chunks(entry_cache.file_for(fmt, order, options))
    records = _records_in_order(order)
    if fmt == "json":  # the backup: with the published-version choices beside each record
        records = published.with_choices(records)
    return in_chunks(writer_for(fmt)(records, **options))


# ---- import --------------------------------------------------------------------------------


def _unreadable(error: FormatError) -> Invalid:
    return Invalid(f"the file cannot be imported: {error.message}", fields={"file": [error.message]})


def read_file(text: str, fmt: str | None) -> tuple[str, list[dict], list[dict]]:
    """(format, records, report entries: entries skipped, and with ``"imported": True`` entries
    read without some of their fields) — a file that cannot be read raises Invalid (nothing
    written)."""
    fmt = fmt or sniff_format(text)
    if fmt not in IMPORT_FORMATS:
        raise Invalid(fields={"format": [f"one of {', '.join(IMPORT_FORMATS)}"]})
    try:
        found, skipped = reader_for(fmt)(text)
    except FormatError as error:
        raise _unreadable(error) from None
    return fmt, found, skipped


def _timestamp(value) -> datetime | None:
    if not isinstance(value, str) or not value:
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return None
    if parsed.tzinfo is not None:
        try:
            parsed = parsed.astimezone(UTC).replace(tzinfo=None)
        except OverflowError:  # 0001-01-01T00:00+14:00 is before the first representable instant
            return None
    return parsed


def _paper_fields(record: dict) -> tuple[dict, dict]:
    """The record's fields held to the API's rules: ``(valid fields, {field: why dropped})``.
    What is invalid is dropped (an invalid element of a list, an invalid key of ``extra``: only
    that) and the rest kept; an invalid title raises ``Invalid`` (there is nothing to keep)."""
    data = {k: record.get(k) for k in _SCHEMA_FIELDS if record.get(k) not in (None, "", [], {})}
    data.setdefault("title", record.get("title") or "")
    dropped: dict = {}
    for _ in range(len(_SCHEMA_FIELDS)):
        try:
            return load(_PAPER_SCHEMA, data), dropped
        except Invalid as error:
            problems = error.fields or {}
            if "title" in problems or not set(problems) & set(data):
                raise
            for name, messages in problems.items():
                _drop_invalid(data, name, messages)
                dropped[name] = messages
    raise Invalid(fields=dropped)


def _drop_invalid(data: dict, name: str, messages) -> None:
    """Remove from ``data`` what marshmallow's ``messages`` for field ``name`` reject."""
    value = data.get(name)
    bad = set(messages) if isinstance(messages, dict) else set()
    if isinstance(value, list) and bad and all(isinstance(i, int) for i in bad):
        data[name] = [v for i, v in enumerate(value) if i not in bad]
    elif isinstance(value, dict) and bad and bad <= set(value):
        data[name] = {k: v for k, v in value.items() if k not in bad}
    else:
        data.pop(name, None)


def _free_key(user: User, key, paper: Paper) -> bool:
    """A valid citation key (never a URL, as Zotero's CSL-JSON ids are) that no other paper of
    the user's has, without regard to case."""
    return (isinstance(key, str) and CITATION_KEY.fullmatch(key) is not None and "://" not in key
            and queries.citation_key_owner(user.id, key) in (None, paper.id))


def _valid_note(note, exact: bool) -> dict | None:
    """A note of a file held to the API's rules: ``{"body", "created_at", "updated_at"}`` (the
    file's timestamps only when ``exact``, a backup), or None."""
    if not isinstance(note, dict):
        return None
    try:
        body = load(_NOTE_SCHEMA, {"body": note.get("body")})["body"]
    except Invalid:
        return None
    created = _timestamp(note.get("created_at")) if exact else None
    updated = _timestamp(note.get("updated_at")) if exact else None
    return {"body": body, "created_at": created, "updated_at": updated or created}


def _valid_highlight(h) -> dict | None:
    """A highlight of a file, held to the API's rules (context cut to its limit, an unknown
    colour made the default first, as the file may come from an older papershelf): the clean
    fields with the file's timestamps, or None."""
    if not isinstance(h, dict):
        return None
    data = {k: h[k] for k in ("field", "section", "page", "exact", "start", "end", "comment")
            if h.get(k) is not None}
    for side in ("prefix", "suffix"):
        data[side] = str(h.get(side) or "")[:CONTEXT_MAX]
    data["color"] = h.get("color") if h.get("color") in palette.NAMES else palette.DEFAULT
    try:
        clean = load(_HIGHLIGHT_SCHEMA, data)
    except Invalid:
        return None
    created = _timestamp(h.get("created_at"))
    return {**clean, "created_at": created, "updated_at": _timestamp(h.get("updated_at")) or created}


def _valid_list(items, name: str, valid, lost: list[str]) -> list[dict]:
    """The items of a record's ``notes`` or ``highlights`` that ``valid`` keeps; what it does
    not is named in ``lost``."""
    if not items:
        return []
    if not isinstance(items, list):
        lost.append(f"{name}s: not a list")
        return []
    kept = []
    for number, item in enumerate(items):
        clean = valid(item)
        if clean is None:
            lost.append(f"{name} {number}: not a {name} the API would accept (dropped)")
        else:
            kept.append(clean)
    return kept


def _valid_verbatim(verbatim) -> dict:
    """The fields a file wrote in a form of its own (``{name: [as written, fingerprint]}``)
    that are well formed."""
    if not isinstance(verbatim, dict):
        return {}
    return {k: list(v) for k, v in verbatim.items()
            if isinstance(k, str) and EXTRA_FIELD_NAME.fullmatch(k)
            and isinstance(v, (list, tuple)) and len(v) == 2
            and all(isinstance(x, str) for x in v) and len(v[0]) <= EXTRA_VALUE_MAX}


_ADDITIVE = ("tags", "topics", "extra", *IDENTITY_FIELDS)


def _gaps_only(existing: Paper | None, data: dict) -> dict:
    """What a file may change of ``existing``, the paper that is the same work, if one is saved:
    only what the paper lacks (and more tags, topics and other fields). A file is often coarser
    than the store (BibTeX has the month, not the day, and "and others", not how many), so it
    never overwrites what the store knows."""
    if existing is None:
        return data
    kept = {k: v for k, v in data.items()
            if k in _ADDITIVE or getattr(existing, k, None) in (None, "", [], 0)}
    if existing.authors:
        kept.pop("authors_more", None)
    if "published" not in kept:
        kept.pop("published_precision", None)  # a precision goes with its date
    return kept


def _same_unidentified(user: User, data: dict, record: dict) -> Paper | None:
    """A paper with no arXiv id, DOI or URL has no identity to merge by; the same citation key
    and title make it the same paper, so that importing a file twice does not duplicate it."""
    if any(data.get(k) for k in IDENTITY_FIELDS) or not record.get("citation_key"):
        return None
    return Paper.get_or_none((Paper.user == user) & (Paper.citation_key == record["citation_key"])
                             & (Paper.title == data["title"]))


@dataclass
class _Import:
    """One import under way: whose, what kind of file, when it started, and its report."""

    user: User
    backup: bool
    enrich: bool
    started: datetime = field(default_factory=utcnow)
    report: dict = field(default_factory=lambda: {"created": 0, "updated": 0, "unchanged": 0,
                                                  "skipped": 0, "errors": []})
    # the papers created or changed (a batch run again after a deadlock may add an id that its
    # rollback took back: reading it finds nothing)
    written: set[int] = field(default_factory=set)

    def tell(self, index: int, record: dict | None, reason: str, **more) -> None:
        where = {"index": index}
        if record and record.get("citation_key"):
            where["key"] = record["citation_key"]
        self.report["errors"].append({**where, "reason": reason, **more})


@dataclass
class _Incoming:
    """What one record of a file brings, held to the API's rules, before anything is written."""

    index: int
    record: dict
    data: dict  # the paper's fields, as an API save takes them
    notes: list[dict]
    highlights: list[dict]
    verbatim: dict
    lost: list[str]  # notes or highlights the API would refuse


def _incoming(run: _Import, index: int, record: dict) -> _Incoming:
    """The record's fields, notes, highlights and fields as written; what is dropped is told.
    Raises ``Invalid`` for a record with nothing to keep (an invalid title)."""
    data, dropped = _paper_fields(record)
    if dropped:
        run.tell(index, record, "fields dropped", fields=dropped, imported=True)
    lost: list[str] = []
    notes = _valid_list(record.get("notes"), "note", lambda n: _valid_note(n, run.backup), lost)
    highlights = _valid_list(record.get("highlights"), "highlight", _valid_highlight, lost)
    return _Incoming(index, record, data, notes, highlights,
                     _valid_verbatim(record.get("verbatim")), lost)


def _saved(run: _Import, incoming: _Incoming) -> tuple[Paper, bool]:
    """The paper the record is, created or merged by the save path: ``(paper, created)``."""
    paper = _same_unidentified(run.user, incoming.data, incoming.record)
    if paper is not None:
        return paper, False
    # The paper is found by the whole record (its title too), not by what it adds. The save's
    # first attempt takes the lookup just made in this transaction (its rows stay locked); a
    # retry after a race looks again.
    existing = [papers.find_same_work(run.user, incoming.data)]

    def same_work(user, _fields, data=incoming.data):
        return existing.pop() if existing else papers.find_same_work(user, data)

    return papers.save_paper(run.user, _gaps_only(existing[0], incoming.data),
                             enrich=run.enrich, find=same_work)


def _free_key(user: User, key, paper: Paper) -> bool:
    """A valid citation key (never a URL, as Zotero's CSL-JSON ids are) that no other paper of
    the user's has, without regard to case."""
    return (isinstance(key, str) and CITATION_KEY.fullmatch(key) is not None and "://" not in key
            and queries.citation_key_owner(user.id, key) in (None, paper.id))


def _keep_file_key(run: _Import, incoming: _Incoming, paper: Paper) -> bool:
    """A new paper takes the key the user's LaTeX files cite, when it is free; else the report
    says which key it got. Answers whether the paper changed."""
    key = incoming.record.get("citation_key")
    if not key or key == paper.citation_key:
        return False
    if _free_key(run.user, key, paper):
        paper.citation_key = key
        citekeys.taken_in_bulk(run.user.id, key)
        citekeys.pin(paper)
        return True
    why = ("is another paper's (BibTeX ignores case)" if CITATION_KEY.fullmatch(key) and "://" not in key
           else "is not a valid citation key")
    run.tell(incoming.index, incoming.record, f"the key {why}: imported as {paper.citation_key}",
             imported=True)
    return False


def _keep_verbatim(paper: Paper, verbatim: dict) -> bool:
    """Keep the fields the file wrote in a form of its own, where the paper has none yet (each is
    used by an export only while the paper still has the values it was read as)."""
    have = paper.verbatim or {}
    new = {k: v for k, v in verbatim.items() if k not in have}
    if new:
        paper.verbatim = {**have, **new}
    return bool(new)


def _new_notes(paper: Paper, notes: list[dict], *, exact: bool, fresh: bool) -> list[dict]:
    """The notes the paper lacks (same body = same note). Unless ``exact`` (a backup), a note
    equal to the paper's own notes-and-highlights text, as a BibTeX or CSL-JSON export writes
    it, is that export coming back and adds nothing. ``fresh``: the paper has nothing yet."""
    have = set()
    if not fresh and notes:
        have = {body for (body,) in Note.select(Note.body).where(Note.paper == paper.id).tuples()}
        if not exact:
            have.add(annotation_text(records.paper_records([paper])[0]))
    new = []
    for note in notes:
        if note["body"] not in have:
            have.add(note["body"])
            new.append(note)
    return new


def _new_highlights(paper: Paper, highlights: list[dict], fresh: bool) -> list[dict]:
    """The highlights the paper lacks (same field, span and quote = same highlight)."""
    have = set()
    if not fresh and highlights:
        have = set(Highlight.select(Highlight.field, Highlight.start, Highlight.end,
                                    Highlight.exact).where(Highlight.paper == paper.id).tuples())
    new = []
    for h in highlights:
        same = (h["field"], h["start"], h["end"], h["exact"])
        if same not in have:
            have.add(same)
            new.append(h)
    return new


def _restore_exactly(user: User, paper: Paper, record: dict) -> None:
    """A backup's paper, just created: the key, timestamps, edits and enrichment it had."""
    key = record.get("citation_key")
    if key != paper.citation_key and _free_key(user, key, paper):
        paper.citation_key = key
        citekeys.taken_in_bulk(user.id, key)
    paper.citation_key_pinned = record.get("citation_key_pinned") is True
    paper.citation_key_fixed = record.get("citation_key_fixed") is not False  # backups before it
    paper.edited_fields = [f for f in record.get("edited_fields") or [] if isinstance(f, str)]
    paper.enriched_fields = [f for f in record.get("enriched_fields") or [] if isinstance(f, str)]
    enrichment = record.get("enrichment") or {}
    if isinstance(enrichment, dict) and enrichment.get("state") in ("pending", "done", "failed"):
        paper.enrichment = enrichment["state"] if paper.arxiv_id else None
        paper.enrichment_reason = enrichment.get("reason")
        paper.enrichment_at = _timestamp(enrichment.get("at"))
        paper.enrichment_due = utcnow() if paper.enrichment == "pending" else None
    published.restore(paper, record)  # the published version found and what its user cites
    paper.created_at = _timestamp(record.get("created_at")) or paper.created_at
    paper.updated_at = _timestamp(record.get("updated_at")) or paper.updated_at
    if record.get("reading_state") in READING_STATES:
        paper.reading_state = record["reading_state"]
    paper.starred = record.get("starred") is True
    paper.key_aliases = [k for k in record.get("key_aliases") or []
                         if isinstance(k, str) and CITATION_KEY.match(k)][:100]


def _write(run: _Import, incoming: _Incoming) -> None:
    """Create or merge one record (inside the batch's transaction): the save path writes the
    paper; what it does not know of goes onto the paper in one more write, with the notes and
    highlights the paper lacks."""
    user, record = run.user, incoming.record
    paper, created = _saved(run, incoming)
    changed = created or paper.updated_at >= run.started
    dirty = _keep_verbatim(paper, incoming.verbatim)
    added = dirty and not created  # a merge that brings fields as written changes the export
    if created and not run.backup:
        dirty |= _keep_file_key(run, incoming, paper)
    notes = _new_notes(paper, incoming.notes, exact=run.backup, fresh=created)
    highlights = _new_highlights(paper, incoming.highlights, fresh=created)
    if incoming.lost:
        run.tell(incoming.index, record, "notes or highlights not imported",
                 fields={"annotations": incoming.lost}, imported=True)
    now = utcnow()
    if notes:
        Note.insert_many([{"user": user.id, "paper": paper.id, "body": n["body"],
                           "created_at": n["created_at"] or now,
                           "updated_at": n["updated_at"] or now} for n in notes]).execute()
    if highlights:
        Highlight.insert_many([{**h, "user": user.id, "paper": paper.id,
                                "created_at": h["created_at"] or now,
                                "updated_at": h["updated_at"] or h["created_at"] or now}
                               for h in highlights]).execute()
    annotated = bool(notes or highlights)
    if created and run.backup:
        _restore_exactly(user, paper, record)
        dirty = True
    elif annotated or added:
        paper.updated_at = now
        dirty = changed = True
    if dirty:
        paper.save()
    if annotated or (created and run.backup):
        search.reindex(paper)
    if created:
        run.report["created"] += 1
        run.written.add(paper.id)
    elif changed:
        run.report["updated"] += 1
        run.written.add(paper.id)
    else:
        run.report["unchanged"] += 1  # already in the library as the file has it


def _import_one(run: _Import, index: int, record: dict) -> None:
    try:
        incoming = _incoming(run, index, record)
    except Invalid as error:
        run.report["skipped"] += 1
        run.tell(index, record, "invalid fields", fields=error.fields)
        return
    _write(run, incoming)


BATCH_RECORDS = 500
BATCH_SECONDS = 0.25


def import_records(user: User, fmt: str, found: list[dict], skipped: list[dict], *,
                   progress: Callable[[int], None] | None = None, enrich: bool = False) -> dict:
    """Create or merge ``found`` for ``user``; the import's report.

    The records are written in batches, each a transaction of at most ``BATCH_RECORDS`` records
    or ``BATCH_SECONDS``, with a pause between them: a save of another user (or of this one,
    from the extension) waits for one batch, never for the whole import, and a CLI import beside
    the running server never holds SQLite's lock long enough for "database is locked". A batch
    is whole or absent: an import stopped midway (a kill, a crash) keeps the batches it
    committed, and importing the file again merges them rather than duplicating them.
    """
    run = _Import(user, backup=fmt == "json", enrich=enrich)
    run.report["skipped"] = sum(1 for s in skipped if not s.get("imported"))
    run.report["errors"] = [dict(s) for s in skipped]
    index = 0
    while index < len(found):
        if index:
            let_other_writers_in()
        end = write(_batch(run, found, index))
        if progress:
            progress(end - index)
        index = end
    if run.written:
        write_entries_ahead(run.user, sorted(run.written))
    return run.report


def write_due_entries(limit: int = BATCH) -> list[int]:
    """Up to ``limit`` papers (of any user) that have no BibTeX entry kept of the kind their
    user's export writes, their entries written now and kept (a paper saved from a page, and
    not exported since, is found at once by the next export): their ids."""
    due: list[int] = []
    for user in User.select().order_by(User.id):
        options = settings.export_options(user)
        ids = kept_entries.papers_without(user.id, entry_cache.kind_of("bibtex", options),
                                          limit - len(due))
        if ids:  # (not the entries kept in memory: those the store lacks are kept)
            entry_cache.write_ahead("bibtex", ids, options, entry_cache.EntryCache(0))
            due += ids
        if len(due) >= limit:
            break
    return due


def write_entries_ahead(user: User, ids: list[int]) -> None:
    """The BibTeX entries of the user's papers ``ids`` as the user's export writes them, written
    now and kept (``entry_cache.write_ahead``), so that the first export after an import reads
    them. A failure is logged: the import is done."""
    try:
        entry_cache.write_ahead("bibtex", ids, settings.export_options(user))
    except Exception:  # noqa: BLE001 - a cache: the export writes what is missing
        log.warning("the entries of an import could not be written ahead", exc_info=True)


def _batch(run: _Import, found: list[dict], start: int):
    """One batch of the import from ``found[start]``, as a write that answers where the next
    batch starts. PostgreSQL may run it again after a deadlock: each run starts from the report
    as it was before the batch, so nothing is counted twice."""
    mark = {k: len(v) if isinstance(v, list) else v for k, v in run.report.items()}

    def attempt() -> int:
        for k, v in mark.items():
            if isinstance(run.report[k], list):
                del run.report[k][v:]
            else:
                run.report[k] = v
        deadline = time.monotonic() + BATCH_SECONDS
        index, end = start, min(start + BATCH_RECORDS, len(found))
        with citekeys.choosing_in_bulk():
            queries.lock_user(run.user.id)
            while index < end and time.monotonic() < deadline:
                _import_one(run, index, found[index])
                index += 1
        return index

    return attempt


def read_upload(data: bytes | str, fmt: str | None = None) -> tuple[str, list[dict], list[dict]]:
    """``read_file`` of an uploaded file's bytes (see ``formats.upload.decode_upload``)."""
    if not isinstance(data, str):
        try:
            data = decode_upload(data)
        except FormatError as error:
            raise _unreadable(error) from None
    return read_file(data, fmt)


def import_file(user: User, data: bytes | str, fmt: str | None = None, *,
                progress: Callable[[int], None] | None = None, enrich: bool = False) -> dict:
    """Read and import one uploaded file (see ``read_upload`` and ``import_records``)."""
    fmt, found, skipped = read_upload(data, fmt)
    return import_records(user, fmt, found, skipped, progress=progress, enrich=enrich)
