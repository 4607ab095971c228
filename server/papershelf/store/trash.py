"""A deleted paper's rows as plain JSON values, and writing them back (``services.trash``)."""

from datetime import date, datetime

from papershelf.store import papers as queries
from papershelf.store.db import db, in_list

_CHILDREN = ("note", "highlight", "paper_share", "paper_identity")


def _plain(value):
    if isinstance(value, datetime | date):
        return value.isoformat(sep=" ") if isinstance(value, datetime) else value.isoformat()
    return value


def _select(table: str, column: str, ids: list[int]) -> list[dict]:
    where, params = in_list(column, ids)
    cursor = db.execute_sql(f'SELECT * FROM "{table}" WHERE {where}', params)
    names = [d[0] for d in cursor.description]
    return [{n: _plain(v) for n, v in zip(names, row, strict=True)} for row in cursor.fetchall()]


def rows_of(paper_ids: list[int]) -> dict[int, dict]:
    """``{paper id: {"paper": row, "tags": [name, …], "note": [rows], …}}``."""
    out = {row["id"]: {"paper": row, "tags": [], **{t: [] for t in _CHILDREN}}
           for row in _select("paper", "id", paper_ids)}
    where, params = in_list("pt.paper_id", paper_ids)
    for paper_id, name in db.execute_sql(
            "SELECT pt.paper_id, t.name FROM paper_tag pt JOIN tag t ON t.id = pt.tag_id"
            f" WHERE {where} ORDER BY pt.paper_id, pt.position", params).fetchall():
        out[paper_id]["tags"].append(name)
    for table in _CHILDREN:
        for row in _select(table, "paper_id", paper_ids):
            out[row["paper_id"]][table].append(row)
    return out


def _insert(table: str, row: dict) -> int:
    """Insert ``row`` with its id, or with a new one when its id was given to another row since
    (SQLite hands the highest id out again once its row is deleted). Answers the id."""
    p = db.param
    if "id" in row and db.execute_sql(f'SELECT 1 FROM "{table}" WHERE id = {p}',
                                      (row["id"],)).fetchone():
        row = {k: v for k, v in row.items() if k != "id"}
    cols = ", ".join(f'"{c}"' for c in row)
    return db.execute_sql(f'INSERT INTO "{table}" ({cols}) VALUES ({", ".join([p] * len(row))})'
                          ' RETURNING id', list(row.values())).fetchone()[0]


def write_back(rows: dict) -> int:
    """Insert a paper's rows as ``rows_of`` kept them (tags by name; shares to groups that are
    gone are left out). Answers the paper's id: its own, unless another paper has it now."""
    paper = rows["paper"]
    paper_id = _insert("paper", paper)
    ids = queries.ensure_tags(paper["user_id"], rows["tags"])
    for position, name in enumerate(rows["tags"]):
        _insert("paper_tag", {"paper_id": paper_id, "tag_id": ids[name], "position": position})
    for table in ("note", "highlight"):
        for row in rows[table]:
            _insert(table, {**row, "paper_id": paper_id})
    # What found it finds it again: its identities as kept (a paper deleted before they were
    # kept with it has none there) and those of its fields.
    queries.add_identities([(paper_id, paper["user_id"], [
        *(row["identity"] for row in rows.get("paper_identity", ())),
        *queries.identities_of_data(paper)])])
    for row in rows["paper_share"]:
        if db.execute_sql(f"SELECT 1 FROM user_group WHERE id = {db.param}",
                          (row["group_id"],)).fetchone():
            _insert("paper_share", {**row, "paper_id": paper_id})
    return paper_id
