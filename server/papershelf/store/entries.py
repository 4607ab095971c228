"""The entries exports wrote (``models.WrittenEntry``): read and kept in batches, one kind of
export (format, options, the writer's code) at a time."""

from __future__ import annotations

from papershelf.store.db import db, in_list

_KEEP_BATCH = 150  # rows per INSERT: 3 parameters each and 2 more, under SQLite's oldest limit


def written(kind: str, paper_ids: list[int]) -> dict[int, tuple[bytes, str]]:
    """``{paper id: (digest, entry)}`` of the entries of ``kind`` kept for ``paper_ids``."""
    if not paper_ids:
        return {}
    where, params = in_list("paper_id", paper_ids)
    rows = db.execute_sql(
        f"SELECT paper_id, digest, entry FROM written_entry WHERE kind = {db.param} AND {where}",
        [kind, *params]).fetchall()
    return {pid: (bytes(digest), entry) for pid, digest, entry in rows}


def keep(kind: str, writer: str, rows: list[tuple[int, bytes, str]]) -> None:
    """``rows`` (paper id, digest, entry) become the papers' entries of ``kind``, each in place
    of the one it had; a paper deleted since it was read is passed over."""
    p = db.param
    for i in range(0, len(rows), _KEEP_BATCH):
        batch = rows[i:i + _KEEP_BATCH]
        db.execute_sql(
            "WITH v (paper_id, digest, entry) AS (VALUES "
            + ", ".join([f"({p}, {p}, {p})"] * len(batch)) + ")"
            f" INSERT INTO written_entry (paper_id, kind, writer, digest, entry)"
            f" SELECT v.paper_id, {p}, {p}, v.digest, v.entry FROM v"
            " JOIN paper ON paper.id = v.paper_id WHERE TRUE"  # (SQLite: before ON CONFLICT)
            " ON CONFLICT (paper_id, kind) DO UPDATE"
            " SET writer = excluded.writer, digest = excluded.digest, entry = excluded.entry",
            [*(v for row in batch for v in row), kind, writer])


def forget_other_writers(writer: str) -> int:
    """Entries another version of the writer wrote are dropped (no export asks for them)."""
    return db.execute_sql(f"DELETE FROM written_entry WHERE writer <> {db.param}",
                          (writer,)).rowcount


def papers_without(user_id: int, kind: str, limit: int) -> list[int]:
    """The ids of up to ``limit`` of the user's papers that have no entry of ``kind``, oldest
    first."""
    p = db.param
    return [pid for (pid,) in db.execute_sql(
        f"SELECT p.id FROM paper p WHERE p.user_id = {p} AND NOT EXISTS (SELECT 1 FROM"
        f" written_entry w WHERE w.paper_id = p.id AND w.kind = {p}) ORDER BY p.id LIMIT {p}",
        (user_id, kind, limit)).fetchall()]
