"""The full-text index, in each dialect: SQLite FTS5 keyed by paper id; PostgreSQL a tsvector
per paper with a GIN index (created in ``migrations``)."""

from peewee import SQL

from papershelf.store.db import db, is_sqlite
from papershelf.store.models import Paper


def write_document(paper_id: int, text: str, *, replace: bool) -> None:
    """Store ``text`` as the paper's search document (``replace``: it may have one already)."""
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


def drop_document(paper_id: int) -> None:
    if is_sqlite():
        db.execute_sql("DELETE FROM paper_search WHERE rowid = ?", (paper_id,))
    # PostgreSQL: ON DELETE CASCADE from paper removes the row.


def papers_matching(words: list[str]):
    """A peewee expression: papers whose document has every one of ``words`` (as prefixes)."""
    if is_sqlite():
        match = " AND ".join('"' + w.replace('"', "") + '"*' for w in words)
        return Paper.id.in_(SQL("(SELECT rowid FROM paper_search WHERE paper_search MATCH ?)", [match]))
    tsquery = " & ".join("'" + w.replace("'", "") + "':*" for w in words)
    return Paper.id.in_(SQL(
        "(SELECT paper_id FROM paper_search WHERE document @@ to_tsquery('english', %s))", [tsquery]))
