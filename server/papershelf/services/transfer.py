"""Exports and imports: the store's papers through the pure writers and readers of ``formats``.

Exports stream: the user's matching papers are ordered by citation key (Python's code-point
order, the same on SQLite and PostgreSQL) and read in batches of ``BATCH`` with their tags, notes
and highlights, so memory stays flat whatever the library's size.

Imports are one transaction: a file that cannot be read at all raises before anything is
written, and any failure part-way rolls everything back. A bad entry or field never costs the
file: the reader keeps what it can of an entry and reports the rest, and each record is
validated like an API save (the same schema) with what is invalid dropped and reported (the
report's ``errors``; an entry imported without some of its fields is marked ``imported``). A
record is then created, or merged into the paper that is the same work
(``papers.find_same_work``: the same arXiv id, or the same DOI or URL with a compatible title);
a merge only fills what the paper lacks. A BibTeX or CSL-JSON note is added once; a backup also
restores citation keys, timestamps, edited fields, enrichment state, notes and highlights
exactly.
"""

from __future__ import annotations

import codecs
import re
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime

from papershelf.domain import palette
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
from papershelf.formats import EXPORT_FORMATS, IMPORT_FORMATS, FormatError, reader_for, writer_for
from papershelf.formats.bibtex import annotation_text
from papershelf.services import citekeys, listing, papers, search
from papershelf.store import papers as queries
from papershelf.store import records
from papershelf.store.db import let_other_writers_in, write_transaction
from papershelf.store.models import Highlight, Note, Paper, User, utcnow

BATCH = 500
_PAPER_SCHEMA = PaperCreateSchema()
_HIGHLIGHT_SCHEMA = HighlightInSchema()
_NOTE_SCHEMA = NoteInSchema()
_SCHEMA_FIELDS = (*PAGE_FIELDS, "tags")


# ---- export --------------------------------------------------------------------------------


def export_records(user: User, *, q: str | None = None, tag: str | None = None,
                   topic: str | None = None, ids: list[int] | None = None) -> Iterator[dict]:
    """The user's papers matching the filters, as records, in citation-key order, streamed."""
    query = (listing.filtered(user, q=q, tag=tag, topic=topic, ids=ids)
             .select(Paper.id, Paper.citation_key))
    order = sorted(query.tuples(), key=lambda row: (row[1], row[0]))
    citekeys.fix_exported(user, [pid for pid, _ in order])  # cited from now on: keys stay
    for i in range(0, len(order), BATCH):
        batch_ids = [pid for pid, _ in order[i:i + BATCH]]
        rows = {p.id: p for p in Paper.select().where(Paper.id.in_(batch_ids))}
        yield from records.paper_records([rows[pid] for pid in batch_ids if pid in rows])


def export_chunks(user: User, fmt: str, *, q=None, tag=None, topic=None, ids=None,
                  **options) -> Iterator[str]:
    """The export file, in chunks. ``options``: abstract, notes_field, encoding."""
    return writer_for(fmt)(export_records(user, q=q, tag=tag, topic=topic, ids=ids), **options)


def export_filename(fmt: str, tag: str | None = None, today: str | None = None) -> str:
    extension = EXPORT_FORMATS[fmt][1]
    stem = "papershelf"
    if tag:
        slug = re.sub(r"[^A-Za-z0-9]+", "-", tag).strip("-").lower()[:40]
        if slug:
            stem += "-" + slug
    stem += "-" + (today or datetime.now(UTC).date().isoformat())
    if fmt == "biblatex":
        stem += "-biblatex"
    elif fmt == "jsonld":
        stem += "-annotations"
    elif fmt == "json":
        stem += "-backup"
    return f"{stem}.{extension}"


# ---- import --------------------------------------------------------------------------------


# Windows-1252 for the bytes 0x80-0x9F it defines; the five it leaves undefined keep their
# Latin-1 meaning, so that every byte decodes (as BibTeX, which reads bytes, would take them).
_CP1252 = {b: bytes([b]).decode("cp1252") for b in range(0x80, 0xA0)
           if b not in (0x81, 0x8D, 0x8F, 0x90, 0x9D)}
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
         (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))


def _utf16_without_bom(data: bytes) -> str | None:
    """UTF-16 written without a BOM (every other byte NUL in ASCII text): its byte order."""
    if len(data) < 4 or len(data) % 2:
        return None
    if data[1::2].count(0) > len(data) // 4 and not data[0::2].count(0):
        return "utf-16-le"
    if data[0::2].count(0) > len(data) // 4 and not data[1::2].count(0):
        return "utf-16-be"
    return None


def decode_upload(data: bytes) -> str:
    """The uploaded file as text, read as BibTeX users expect: UTF-8 (a BOM is dropped); UTF-16
    or UTF-32 when a BOM (or UTF-16's NUL bytes) says so; anything else as Windows-1252, the
    8-bit encoding of files written on Windows (BibTeX reads bytes, so such files work there).
    A FormatError for what is no text at all."""
    encoding = next((name for bom, name in _BOMS if data.startswith(bom)), None)
    encoding = encoding or _utf16_without_bom(data)
    if encoding:
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError as error:
            raise FormatError(f"the file is not {encoding.upper()} text (byte {error.start})") from None
    else:
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = data.decode("latin-1").translate(_CP1252)
    if "\x00" in text:
        raise FormatError("the file is not text (it holds NUL bytes)")
    return text.removeprefix("\ufeff")


def sniff_format(text: str) -> str:
    head = text.lstrip()[:2000]
    if head.startswith("{") and "papershelf-backup" in head:
        return "json"
    if head.startswith(("[", "{")):
        return "csljson"
    return "bibtex"


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
        raise Invalid(f"the file cannot be imported: {error.message}",
                               fields={"file": [error.message]}) from None
    return fmt, found, skipped


def _where(index: int, record: dict | None) -> dict:
    where = {"index": index}
    if record and record.get("citation_key"):
        where["key"] = record["citation_key"]
    return where


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
    return (isinstance(key, str) and CITATION_KEY.match(key) is not None and "://" not in key
            and queries.citation_key_owner(user.id, key) in (None, paper.id))


def _valid_note_body(note) -> str | None:
    """A note of a file held to the API's rules: its body, or None."""
    if not isinstance(note, dict):
        return None
    try:
        return load(_NOTE_SCHEMA, {"body": note.get("body")})["body"]
    except Invalid:
        return None


def _valid_highlight(h: dict) -> dict | None:
    """A highlight of a file, held to the API's rules (context cut to its limit, an unknown
    colour made the default first, as the file may come from an older papershelf): the clean
    fields, or None."""
    if not isinstance(h, dict):
        return None
    data = {k: h[k] for k in ("field", "section", "exact", "start", "end", "comment")
            if h.get(k) is not None}
    for side in ("prefix", "suffix"):
        data[side] = str(h.get(side) or "")[:CONTEXT_MAX]
    data["color"] = h.get("color") if h.get("color") in palette.NAMES else palette.DEFAULT
    try:
        return load(_HIGHLIGHT_SCHEMA, data)
    except Invalid:
        return None


def _add_notes(user: User, paper: Paper, notes: list[dict], *, exact: bool, fresh: bool,
               dropped: list[str]) -> bool:
    """Add the notes this paper lacks (same body = same note). ``exact`` (a backup): keep their
    timestamps. Otherwise a note equal to the paper's own notes-and-highlights text, as a BibTeX
    or CSL-JSON export writes it, is that export coming back and adds nothing. ``fresh``: the
    paper was just created, it has nothing yet."""
    if not notes:
        return False
    if not isinstance(notes, list):
        dropped.append("notes: not a list")
        return False
    have = set()
    if not fresh:
        have = {body for (body,) in Note.select(Note.body).where(Note.paper == paper.id).tuples()}
        if not exact:
            have.add(annotation_text(records.paper_records([paper])[0]))
    added = False
    for number, note in enumerate(notes):
        body = _valid_note_body(note)
        if body is None:
            dropped.append(f"note {number}: not a note the API would accept (dropped)")
            continue
        if body in have:
            continue
        created = _timestamp(note.get("created_at")) if exact else None
        updated = _timestamp(note.get("updated_at")) if exact else None
        now = utcnow()
        Note.create(user=user, paper=paper, body=body, created_at=created or now,
                    updated_at=updated or created or now)
        have.add(body)
        added = True
    return added


def _add_highlights(user: User, paper: Paper, highlights: list[dict], dropped: list[str]) -> bool:
    if not highlights:
        return False
    if not isinstance(highlights, list):
        dropped.append("highlights: not a list")
        return False
    have = {(f, s, e, x) for f, s, e, x in Highlight.select(
        Highlight.field, Highlight.start, Highlight.end, Highlight.exact)
        .where(Highlight.paper == paper.id).tuples()}
    added = False
    for number, h in enumerate(highlights):
        clean = _valid_highlight(h)
        if clean is None:
            dropped.append(f"highlight {number}: not a highlight the API would accept (dropped)")
            continue
        field = clean["field"]
        if (field, clean["start"], clean["end"], clean["exact"]) in have:
            continue
        now = utcnow()
        created = _timestamp(h.get("created_at")) or now
        Highlight.create(user=user, paper=paper, **clean, created_at=created,
                         updated_at=_timestamp(h.get("updated_at")) or created)
        have.add((field, clean["start"], clean["end"], clean["exact"]))
        added = True
    return added


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


def _add_verbatim(paper: Paper, verbatim) -> bool:
    """Keep the fields the file wrote in a form of its own, where the paper has none yet (each is
    used by an export only while the paper still has the values it was read as)."""
    if not isinstance(verbatim, dict) or not verbatim:
        return False
    have = paper.verbatim or {}
    new = {k: list(v) for k, v in verbatim.items()
           if k not in have and isinstance(k, str) and EXTRA_FIELD_NAME.match(k)
           and isinstance(v, (list, tuple)) and len(v) == 2
           and all(isinstance(x, str) for x in v) and len(v[0]) <= EXTRA_VALUE_MAX}
    if new:
        paper.verbatim = {**have, **new}
    return bool(new)


def _same_unidentified(user: User, data: dict, record: dict) -> Paper | None:
    """A paper with no arXiv id, DOI or URL has no identity to merge by; the same citation key
    and title make it the same paper, so that importing a file twice does not duplicate it."""
    if any(data.get(k) for k in IDENTITY_FIELDS) or not record.get("citation_key"):
        return None
    return Paper.get_or_none((Paper.user == user) & (Paper.citation_key == record["citation_key"])
                             & (Paper.title == data["title"]))


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
    paper.created_at = _timestamp(record.get("created_at")) or paper.created_at
    paper.updated_at = _timestamp(record.get("updated_at")) or paper.updated_at


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
    report = {"created": 0, "updated": 0,
              "skipped": sum(1 for s in skipped if not s.get("imported")),
              "errors": [dict(s) for s in skipped]}
    backup = fmt == "json"
    started = utcnow()
    index = 0
    while index < len(found):
        if index:
            let_other_writers_in()
        deadline = time.monotonic() + BATCH_SECONDS
        with write_transaction(), citekeys.choosing_in_bulk():
            queries.lock_user(user.id)
            end = min(index + BATCH_RECORDS, len(found))
            while index < end and time.monotonic() < deadline:
                _import_one(user, index, found[index], report, backup=backup, started=started,
                            enrich=enrich)
                index += 1
                if progress:
                    progress(1)
    return report


def _import_one(user: User, index: int, record: dict, report: dict, *, backup: bool,
                started: datetime, enrich: bool) -> None:
    """Create or merge one record of a file (inside the batch's transaction)."""
    try:
        data, dropped = _paper_fields(record)
    except Invalid as error:
        report["skipped"] += 1
        report["errors"].append({**_where(index, record), "reason": "invalid fields",
                                 "fields": error.fields})
        return
    if dropped:
        report["errors"].append({**_where(index, record), "reason": "fields dropped",
                                 "fields": dropped, "imported": True})
    paper = _same_unidentified(user, data, record)
    if paper is not None:
        created = False
    else:
        # The paper is found by the whole record (its title too), not by what it adds. The
        # save's first attempt takes the lookup just made in this transaction (its rows stay
        # locked); a retry after a race looks again.
        existing = [papers.find_same_work(user, data)]

        def same_work(user, _fields, data=data):
            return existing.pop() if existing else papers.find_same_work(user, data)

        paper, created = papers.save_paper(
            user, _gaps_only(existing[0], data), enrich=enrich, find=same_work)
    changed = created or paper.updated_at >= started
    if _add_verbatim(paper, record.get("verbatim")):
        if not created:
            paper.updated_at = utcnow()
            changed = True
        paper.save()
    if created and not backup:
        key = record.get("citation_key")
        if key and key != paper.citation_key:
            if _free_key(user, key, paper):
                paper.citation_key = key  # keep the key the user's LaTeX files cite
                citekeys.taken_in_bulk(user.id, key)
                citekeys.pin(paper)
                paper.save()
            else:
                why = ("is another paper's (BibTeX ignores case)"
                       if CITATION_KEY.match(key) and "://" not in key
                       else "is not a valid citation key")
                report["errors"].append({
                    **_where(index, record), "imported": True,
                    "reason": f"the key {why}: imported as {paper.citation_key}"})
    lost: list[str] = []
    notes_added = _add_notes(user, paper, record.get("notes") or [], exact=backup,
                             fresh=created, dropped=lost)
    highlights_added = _add_highlights(user, paper, record.get("highlights") or [], lost)
    if lost:
        report["errors"].append({**_where(index, record), "imported": True,
                                 "reason": "notes or highlights not imported",
                                 "fields": {"annotations": lost}})
    if created and backup:
        _restore_exactly(user, paper, record)
        paper.save()
    elif notes_added or highlights_added:
        paper.updated_at = utcnow()
        paper.save()
        changed = True
    if notes_added or highlights_added or (created and backup):
        search.reindex(paper)
    if created:
        report["created"] += 1
    elif changed:
        report["updated"] += 1


def import_file(user: User, data: bytes | str, fmt: str | None = None, *,
                progress: Callable[[int], None] | None = None, enrich: bool = False) -> dict:
    """Read and import one uploaded file (see ``read_file`` and ``import_records``)."""
    text = data if isinstance(data, str) else None
    if text is None:
        try:
            text = decode_upload(data)
        except FormatError as error:
            raise Invalid(f"the file cannot be imported: {error.message}",
                                   fields={"file": [error.message]}) from None
    fmt, found, skipped = read_file(text, fmt)
    return import_records(user, fmt, found, skipped, progress=progress, enrich=enrich)
