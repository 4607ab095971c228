"""Rows → plain JSON-ready dicts in the one record shape (``domain.record``) the API answers
and the exports read."""

import json
from collections import defaultdict
from datetime import date, datetime

from papershelf.domain.record import ENTRY_HIGHLIGHT, ENTRY_NOTE, HIGHLIGHT_RECORD, NOTE_RECORD
from papershelf.store.db import db, in_list, is_postgres
from papershelf.store.models import Highlight, Note, Paper


def iso(value) -> str | None:
    if value is None:
        return None
    if isinstance(value, datetime):
        return value.isoformat(timespec="microseconds") + "Z"
    if isinstance(value, date):
        return value.isoformat()
    return str(value)


NOTE_COLUMNS = NOTE_RECORD
HIGHLIGHT_COLUMNS = HIGHLIGHT_RECORD


def _record(columns, values) -> dict:
    """One note or highlight, from a model or a raw row alike (timestamps through ``ts``)."""
    out = dict(zip(columns, values, strict=True))
    out["created_at"], out["updated_at"] = ts(out["created_at"]), ts(out["updated_at"])
    return out


def note_record(n: Note) -> dict:
    return _record(NOTE_COLUMNS, [getattr(n, c) for c in NOTE_COLUMNS])


def highlight_record(h: Highlight) -> dict:
    return _record(HIGHLIGHT_COLUMNS, [getattr(h, c) for c in HIGHLIGHT_COLUMNS])


def enrichment_record(p: Paper) -> dict:
    return {"state": p.enrichment, "reason": p.enrichment_reason, "at": iso(p.enrichment_at)}


def cite_of(p: Paper) -> str:
    return _cite(p.published_version, p.cite)


def _cite(published_version, cite) -> str:
    """What the exports cite: the preprint when the user said so or no version is known."""
    return "published" if published_version and cite != "preprint" else "preprint"


def paper_record(p: Paper, tags: list[str], notes: list[dict], highlights: list[dict]) -> dict:
    """The record of a model instance: the same builder as a raw row's (``_paper_dict``)."""
    values = tuple(getattr(p, c) for c in _PAPER_COLUMNS)
    times = (iso(p.enrichment_at), iso(p.created_at), iso(p.updated_at))
    return _paper_dict(values + times, [getattr(p, c) for c in _JSON_COLUMNS], tags, notes, highlights)


def ts(value) -> str | None:
    """A timestamp read by raw SQL (SQLite: text, PostgreSQL: datetime) in the API's form."""
    if value is None or isinstance(value, datetime):
        return iso(value)
    text = str(value).replace(" ", "T")
    if "." not in text:
        text += ".000000"
    return text + "Z"


def _in_rows(sql: str, column: str, ids, order: str):
    """Run ``sql WHERE column IN ids order`` in chunks; one query for up to 5,000 ids."""
    ids = list(ids)
    for i in range(0, len(ids), 5000):
        where, params = in_list(column, ids[i:i + 5000])
        yield from db.execute_sql(f"{sql} WHERE {where} {order}", params).fetchall()


# The order of a paper's tags, notes and highlights, wherever they are read.
TAG_ORDER = "pt.position, t.name"
NOTE_ORDER = "id"
HIGHLIGHT_ORDER = 'field, "start", id'

# PostgreSQL renders a timestamp as ``iso`` does (microseconds, "Z"); see children_json_sql.
_PG_API_TIME = """'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'"""


def _pg_json_record(columns: tuple) -> str:
    return "json_build_object(" + ", ".join(
        f"'{c}', " + (f'to_char("{c}", {_PG_API_TIME})' if c.endswith("_at") else f'"{c}"')
        for c in columns) + ")"


pg_json_record = _pg_json_record  # one note or highlight row as the API's JSON (PostgreSQL)


def _api_time_sql(column: str) -> str:
    """A timestamp column rendered by the store as ``ts`` renders it in Python (SQLite keeps
    ``YYYY-MM-DD HH:MM:SS[.ffffff]`` text; NULL stays NULL): no conversion per row."""
    if is_postgres():
        return f"to_char({column}, {_PG_API_TIME})"
    return (f"replace({column}, ' ', 'T') || CASE WHEN instr({column}, '.') > 0 THEN ''"
            f" ELSE '.000000' END || 'Z'")


def children_json_sql(papers: str = "p", as_text: bool = False) -> tuple[str, str, str]:
    """PostgreSQL: the tags, notes and highlights of the papers in the CTE ``papers`` (with an
    ``id`` column), one JSON array of each per paper, as the same records ``tags_by_paper``,
    ``notes_by_paper`` and ``highlights_by_paper`` build, in the same order. Answers (CTEs to
    append to a WITH, the three columns to select, the joins): a page lookup gets its papers and
    all their annotations in one round trip. ``as_text``: the arrays as JSON text, unparsed."""
    mine = f"IN (SELECT id FROM {papers})"
    ctes = (
        f"paper_tags AS (SELECT pt.paper_id, json_agg(t.name ORDER BY {TAG_ORDER}) AS j"
        f" FROM paper_tag pt JOIN tag t ON t.id = pt.tag_id WHERE pt.paper_id {mine}"
        " GROUP BY pt.paper_id),"
        f" paper_notes AS (SELECT paper_id, json_agg({_pg_json_record(NOTE_COLUMNS)}"
        f" ORDER BY {NOTE_ORDER}) AS j FROM note WHERE paper_id {mine} GROUP BY paper_id),"
        f" paper_highlights AS (SELECT paper_id, json_agg({_pg_json_record(HIGHLIGHT_COLUMNS)}"
        f" ORDER BY {HIGHLIGHT_ORDER}) AS j FROM highlight WHERE paper_id {mine}"
        " GROUP BY paper_id)"
    )
    joins = " ".join(f"LEFT JOIN {cte} ON {cte}.paper_id = {papers}.id"
                     for cte in ("paper_tags", "paper_notes", "paper_highlights"))
    cast = "::text" if as_text else ""
    columns = ", ".join(f"{cte}.j{cast}" for cte in ("paper_tags", "paper_notes", "paper_highlights"))
    return ctes, columns, joins


def tags_by_paper(paper_ids) -> dict[int, list[str]]:
    out = defaultdict(list)
    rows = _in_rows("SELECT pt.paper_id, t.name FROM paper_tag pt JOIN tag t ON t.id = pt.tag_id",
                    "pt.paper_id", paper_ids, f"ORDER BY pt.paper_id, {TAG_ORDER}")
    for paper_id, name in rows:
        out[paper_id].append(name)
    return out


def _child_rows(table: str, columns: tuple, paper_ids, order: str) -> dict[int, tuple]:
    """A table's rows (``columns``, one of them ``paper_id``; timestamps in the API's form) by
    paper, as tuples."""
    out = defaultdict(list)
    select = ", ".join(_api_time_sql(f'"{c}"') if c.endswith("_at") else f'"{c}"'
                       for c in columns)
    paper = columns.index("paper_id")
    for row in _in_rows(f"SELECT {select} FROM {table}", "paper_id", paper_ids, order):
        out[row[paper]].append(row)
    return {pid: tuple(rows) for pid, rows in out.items()}


def _with_children(rows: list, ids: list[int], note_columns: tuple,
                   highlight_columns: tuple) -> list[tuple]:
    """Paper rows (their id first) with their tags, notes and highlights (``_child_rows`` of
    those columns), as raw rows ``(paper row, tags, notes, highlights)`` in the order of
    ``ids``: the papers of ``ids`` that exist."""
    found = [row[0] for row in rows]
    tags = {pid: tuple(names) for pid, names in tags_by_paper(found).items()}
    notes = _child_rows("note", note_columns, found, f"ORDER BY {NOTE_ORDER}")
    highlights = _child_rows("highlight", highlight_columns, found,
                             f"ORDER BY paper_id, {HIGHLIGHT_ORDER}")
    by_id = {row[0]: (row, tags.get(row[0]), notes.get(row[0]), highlights.get(row[0]))
             for row in rows}
    return [by_id[pid] for pid in ids if pid in by_id]


def _children_by_paper(table: str, columns: tuple, paper_ids, order: str) -> dict[int, list]:
    out = defaultdict(list)
    for pid, rows in _child_rows(table, columns, paper_ids, order).items():
        out[pid] = [dict(zip(columns, row, strict=True)) for row in rows]
    return out


def notes_by_paper(paper_ids) -> dict[int, list[dict]]:
    return _children_by_paper("note", NOTE_COLUMNS, paper_ids, f"ORDER BY {NOTE_ORDER}")


def highlights_by_paper(paper_ids) -> dict[int, list[dict]]:
    return _children_by_paper("highlight", HIGHLIGHT_COLUMNS, paper_ids,
                              f"ORDER BY paper_id, {HIGHLIGHT_ORDER}")


def paper_records(papers: list[Paper]) -> list[dict]:
    """Records for a page of papers, with their tags, notes and highlights in three queries."""
    ids = [p.id for p in papers]
    tags, notes, highlights = tags_by_paper(ids), notes_by_paper(ids), highlights_by_paper(ids)
    return [paper_record(p, tags[p.id], notes[p.id], highlights[p.id]) for p in papers]


# ---- records read in bulk (an export reads them all) ----------------------------------------

_PAPER_COLUMNS = (
    "id", "arxiv_id", "arxiv_version", "doi", "url", "title", "authors_more", "abstract",
    "published", "published_precision", "primary_category", "journal_ref", "comments",
    "entry_type", "journal", "booktitle", "volume", "number", "pages", "publisher", "edition",
    "source_url", "pdf_url", "citation_key", "citation_key_pinned", "citation_key_fixed",
    "enrichment", "enrichment_reason", "cite", "reading_state", "starred",
)
_TIME_COLUMNS = ("enrichment_at", "created_at", "updated_at")
# the JSON columns, read as one JSON array per paper (one parse instead of nine)
_JSON_COLUMNS = ("authors", "affiliations", "topics", "categories", "editors", "edited_fields",
                 "enriched_fields", "extra", "verbatim", "published_version", "key_aliases")


def _select_papers() -> str:
    json_array = " || ',' || ".join(f"coalesce(\"{c}\", 'null')" for c in _JSON_COLUMNS)
    return ("SELECT " + ", ".join(f'"{c}"' for c in _PAPER_COLUMNS) + ", "
            + ", ".join(_api_time_sql(f'"{c}"') for c in _TIME_COLUMNS)
            + f", '[' || {json_array} || ']' FROM paper")


_loads = json.JSONDecoder().decode


def _paper_dict(values: tuple, jsons: list, tags: list, notes: list, highlights: list) -> dict:
    """The record of a paper's column values (``_PAPER_COLUMNS`` then ``_TIME_COLUMNS``, the
    times already in the API's form) and its JSON columns' values (``_JSON_COLUMNS``), from a
    raw row or a model alike."""
    (pid, arxiv_id, arxiv_version, doi, url, title, authors_more, abstract, published,
     precision, primary_category, journal_ref, comments, entry_type, journal, booktitle, volume,
     number, pages, publisher, edition, source_url, pdf_url, citation_key, pinned, fixed,
     enrichment, reason, cite, reading_state, starred, enrichment_at, created_at,
     updated_at) = values
    (authors, affiliations, topics, categories, editors, edited, enriched, extra,
     verbatim, published_version, key_aliases) = jsons
    return {
        "id": pid,
        "arxiv_id": arxiv_id,
        "arxiv_version": arxiv_version,
        "doi": doi,
        "url": url,
        "title": title,
        "authors": authors or [],
        "authors_more": authors_more,
        "abstract": abstract or "",
        "published": iso(published),
        "published_precision": precision if published else None,
        "affiliations": affiliations or [],
        "topics": topics or [],
        "tags": tags,
        "reading_state": reading_state or "unread",
        "starred": bool(starred),
        "primary_category": primary_category,
        "categories": categories or [],
        "journal_ref": journal_ref,
        "comments": comments,
        "entry_type": entry_type,
        "journal": journal,
        "booktitle": booktitle,
        "volume": volume,
        "number": number,
        "pages": pages,
        "publisher": publisher,
        "edition": edition,
        "editors": editors or [],
        "extra": extra or {},
        "verbatim": verbatim or {},
        "source_url": source_url,
        "pdf_url": pdf_url,
        "citation_key": citation_key,
        "key_aliases": key_aliases or [],
        "citation_key_pinned": bool(pinned),
        "citation_key_fixed": bool(fixed),
        "edited_fields": edited or [],
        "enriched_fields": enriched or [],
        "enrichment": {"state": enrichment, "reason": reason, "at": enrichment_at},
        "published_version": published_version,
        "cite": _cite(published_version, cite),
        "created_at": created_at,
        "updated_at": updated_at,
        "notes": notes,
        "highlights": highlights,
    }


_ROW_WIDTH = len(_PAPER_COLUMNS) + len(_TIME_COLUMNS)


def _children(value, columns: tuple | None) -> list:
    """A paper's tags, notes or highlights as ``rows_by_id`` holds them (SQLite: row tuples;
    PostgreSQL: JSON text; none: None) as the record's list."""
    if value is None:
        return []
    if isinstance(value, str):
        return _loads(value)
    return list(value) if columns is None else [dict(zip(columns, row, strict=True))
                                               for row in value]


def record_of(raw: tuple) -> dict:
    """The record of one of ``rows_by_id``'s raw rows."""
    row, tags, notes, highlights = raw
    return _paper_dict(row[:_ROW_WIDTH], _loads(row[_ROW_WIDTH]), _children(tags, None),
                   _children(notes, NOTE_COLUMNS), _children(highlights, HIGHLIGHT_COLUMNS))


_PUBLISHED = _PAPER_COLUMNS.index("published")


def _plain(row) -> tuple:
    """A PostgreSQL paper row with its date as text, as SQLite gives it (``iso`` of either is
    the same): a raw row holds plain values only."""
    row = list(row)
    row[_PUBLISHED] = iso(row[_PUBLISHED])
    return tuple(row)


def rows_by_id(ids: list[int]) -> list[tuple]:
    """The papers ``ids`` that exist, in the order of ``ids``, as raw rows with their tags,
    notes and highlights: ``(paper row, tags, notes, highlights)``, plain values only (text,
    numbers, None: everything its record is built from, ``record_of``, and nothing else). One
    query on PostgreSQL (the annotations as JSON text, ``children_json_sql``), four on
    SQLite."""
    if not ids:
        return []
    where, params = in_list("id", list(ids))
    select = _select_papers()
    if is_postgres():
        ctes, children, joins = children_json_sql("p", as_text=True)
        rows = db.execute_sql(f"WITH p AS ({select} WHERE {where}), {ctes}"
                              f" SELECT p.*, {children} FROM p {joins}", params).fetchall()
        n = _ROW_WIDTH + 1
        by_id = {row[0]: (_plain(row[:n]), row[n], row[n + 1], row[n + 2]) for row in rows}
        return [by_id[pid] for pid in ids if pid in by_id]
    rows = db.execute_sql(f"{select} WHERE {where}", params).fetchall()
    return _with_children(rows, ids, NOTE_COLUMNS, HIGHLIGHT_COLUMNS)


def records_by_id(ids: list[int]) -> list[dict]:
    """The records of the papers ``ids`` that exist, in the order of ``ids``, with their tags,
    notes and highlights, from raw rows (``rows_by_id``): the same records as
    ``paper_records``."""
    return [record_of(raw) for raw in rows_by_id(ids)]


# ---- what an entry is written from (the BibTeX and BibLaTeX exports) ------------------------

# The paper columns of ``domain.record.ENTRY_FIELDS`` (and the id), the JSON ones read as one
# JSON array; each note's and highlight's of ``ENTRY_NOTE`` and ``ENTRY_HIGHLIGHT``, its paper's
# id last (``zip`` with the field names leaves it out). Plain queries on both stores: building
# the annotations' JSON in PostgreSQL cost more than the rest of an export's reads together.
_ENTRY_COLUMNS = (
    "id", "arxiv_id", "doi", "url", "title", "authors_more", "abstract", "published",
    "published_precision", "primary_category", "journal_ref", "entry_type", "journal", "booktitle",
    "volume", "number", "pages", "publisher", "edition", "citation_key", "cite", "reading_state",
    "starred",
)
_ENTRY_JSON = ("authors", "editors", "extra", "verbatim", "published_version", "key_aliases")


def _select_entry_papers() -> str:
    columns = ", ".join('"published"::text' if is_postgres() and c == "published" else f'"{c}"'
                        for c in _ENTRY_COLUMNS)
    json_array = " || ',' || ".join(f"coalesce(\"{c}\", 'null')" for c in _ENTRY_JSON)
    return f"SELECT {columns}, '[' || {json_array} || ']' FROM paper"


def entry_rows_by_id(ids: list[int]) -> list[tuple]:
    """The papers ``ids`` that exist, in the order of ``ids``, as raw rows of what their entries
    are written from: ``(paper row, tags, notes, highlights)``, plain values only (text,
    numbers, None; ``entry_record_of`` builds the record). Four queries on either store."""
    if not ids:
        return []
    where, params = in_list("id", list(ids))
    rows = db.execute_sql(f"{_select_entry_papers()} WHERE {where}", params).fetchall()
    return _with_children(rows, ids, (*ENTRY_NOTE, "paper_id"), (*ENTRY_HIGHLIGHT, "paper_id"))


def entry_record_of(raw: tuple) -> dict:
    """The record of one of ``entry_rows_by_id``'s raw rows: its ``ENTRY_FIELDS`` alone, each
    as the full record (``record_of``) has it."""
    row, tags, notes, highlights = raw
    (_, arxiv_id, doi, url, title, authors_more, abstract, published, precision,
     primary_category, journal_ref, entry_type, journal, booktitle, volume, number, pages,
     publisher, edition, citation_key, cite, reading_state, starred, jsons) = row
    authors, editors, extra, verbatim, published_version, key_aliases = _loads(jsons)
    return {
        "arxiv_id": arxiv_id,
        "doi": doi,
        "url": url,
        "title": title,
        "authors": authors or [],
        "authors_more": authors_more,
        "abstract": abstract or "",
        "published": published,
        "published_precision": precision if published else None,
        "tags": list(tags) if tags else [],
        "reading_state": reading_state or "unread",
        "starred": bool(starred),
        "primary_category": primary_category,
        "journal_ref": journal_ref,
        "entry_type": entry_type,
        "journal": journal,
        "booktitle": booktitle,
        "volume": volume,
        "number": number,
        "pages": pages,
        "publisher": publisher,
        "edition": edition,
        "editors": editors or [],
        "extra": extra or {},
        "verbatim": verbatim or {},
        "citation_key": citation_key,
        "key_aliases": key_aliases or [],
        "published_version": published_version,
        "cite": _cite(published_version, cite),
        # (each row ends in its paper's id, which zip leaves out)
        "notes": [dict(zip(ENTRY_NOTE, n, strict=False)) for n in notes] if notes else [],
        "highlights": ([dict(zip(ENTRY_HIGHLIGHT, h, strict=False)) for h in highlights]
                       if highlights else []),
    }
