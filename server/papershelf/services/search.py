"""Full-text search over a paper's title, authors, abstract, tags, notes and highlights.

SQLite: an FTS5 table keyed by paper id. PostgreSQL: a tsvector per paper with a GIN index.
``reindex`` rebuilds one paper's document; the services call it after every change.
"""

import re

from peewee import SQL

from papershelf.db import db, is_sqlite
from papershelf.models import Highlight, Note, Paper, PaperTag, Tag

_WORD = re.compile(r"\w+", re.UNICODE)
MAX_TERMS = 16


def terms(q: str) -> list[str]:
    return _WORD.findall(q or "")[:MAX_TERMS]


def document(paper: Paper, tags: list[str], annotations: list[str]) -> str:
    parts = [paper.title, " ".join(paper.authors or []), paper.abstract or "", " ".join(tags),
             *annotations]
    return "\n".join(p for p in parts if p)


def _store(paper_id: int, text: str, *, replace: bool) -> None:
    if is_sqlite():
        if replace:
            db.execute_sql("DELETE FROM paper_search WHERE rowid = ?", (paper_id,))
        db.execute_sql("INSERT INTO paper_search (rowid, body) VALUES (?, ?)", (paper_id, text))
    else:
        db.execute_sql(
            "INSERT INTO paper_search (paper_id, document) VALUES (%s, to_tsvector('english', %s))"
            + (" ON CONFLICT (paper_id) DO UPDATE SET document = EXCLUDED.document"
               if replace else ""),
            (paper_id, text),
        )


def index_new(paper: Paper, tags: list[str]) -> None:
    """Index a paper just created: it has no notes or highlights yet."""
    _store(paper.id, document(paper, tags, []), replace=False)


def reindex(paper: Paper) -> None:
    tags = [t for (t,) in Tag.select(Tag.name).join(PaperTag)
            .where(PaperTag.paper == paper.id).tuples()]
    annotations = [b for (b,) in Note.select(Note.body).where(Note.paper == paper.id).tuples()]
    for exact, comment in (Highlight.select(Highlight.exact, Highlight.comment)
                           .where(Highlight.paper == paper.id).tuples()):
        annotations += [exact, comment]
    _store(paper.id, document(paper, tags, annotations), replace=True)


def unindex(paper_id: int) -> None:
    if is_sqlite():
        db.execute_sql("DELETE FROM paper_search WHERE rowid = ?", (paper_id,))
    # PostgreSQL: ON DELETE CASCADE from paper removes the row.


def matching(q: str):
    """A peewee expression selecting papers whose document has every word of ``q`` (as prefixes),
    or None when ``q`` has no words."""
    words = terms(q)
    if not words:
        return None
    if is_sqlite():
        match = " AND ".join('"' + w.replace('"', "") + '"*' for w in words)
        return Paper.id.in_(SQL("(SELECT rowid FROM paper_search WHERE paper_search MATCH ?)", [match]))
    tsquery = " & ".join("'" + w.replace("'", "") + "':*" for w in words)
    return Paper.id.in_(SQL(
        "(SELECT paper_id FROM paper_search WHERE document @@ to_tsquery('english', %s))", [tsquery]))
