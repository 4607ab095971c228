"""The queries of groups: memberships, shares, a group's shelf, and what members saved of a
page's papers (the page lookup's group part), with their dialect differences."""

from collections import defaultdict

from papershelf.store import records
from papershelf.store.db import db, in_list, is_postgres
from papershelf.store.models import Group, GroupMember, PaperShare, User, utcnow


def groups_of(user_id: int) -> list[tuple]:
    """``(id, name, owner id, owner name, created_at)`` of the user's groups, by id."""
    p = db.param
    return db.execute_sql(
        'SELECT g.id, g.name, g.owner_id, o.name, g.created_at FROM user_group g'
        ' JOIN group_member m ON m.group_id = g.id JOIN "user" o ON o.id = g.owner_id'
        f' WHERE m.user_id = {p} ORDER BY g.id', (user_id,)).fetchall()


def group_of_member(group_id: int, user_id: int) -> Group | None:
    """The group, if the user is one of its members (else None, as if it did not exist)."""
    return (Group.select().join(GroupMember)
            .where((Group.id == group_id) & (GroupMember.user == user_id)).first())


def member_names(group_ids: list[int]) -> dict[int, list[str]]:
    """Each group's members' names, in the order they joined."""
    out = defaultdict(list)
    if not group_ids:
        return out
    where, params = in_list("m.group_id", group_ids)
    for gid, name in db.execute_sql(
            f'SELECT m.group_id, u.name FROM group_member m JOIN "user" u ON u.id = m.user_id'
            f' WHERE {where} ORDER BY m.group_id, m.id', params).fetchall():
        out[gid].append(name)
    return out


def add_member(group_id: int, user_id: int) -> None:
    """Add the user (nothing happens when they are a member already)."""
    p = db.param
    db.execute_sql(f"INSERT INTO group_member (group_id, user_id, added_at) VALUES ({p}, {p}, {p})"
                   " ON CONFLICT (group_id, user_id) DO NOTHING",
                   (group_id, user_id, utcnow()))


def remove_member(group_id: int, user_id: int) -> bool:
    """Remove the user and take back what they shared to the group; False: not a member."""
    removed = GroupMember.delete().where((GroupMember.group == group_id)
                                         & (GroupMember.user == user_id)).execute()
    p = db.param
    db.execute_sql(f"DELETE FROM paper_share WHERE group_id = {p} AND paper_id IN"
                   f" (SELECT id FROM paper WHERE user_id = {p})", (group_id, user_id))
    return bool(removed)


def member_group_ids(user_id: int, group_ids: list[int]) -> set[int]:
    """Which of ``group_ids`` the user is a member of."""
    if not group_ids:
        return set()
    where, params = in_list("group_id", group_ids)
    p = db.param
    return {gid for (gid,) in db.execute_sql(
        f"SELECT group_id FROM group_member WHERE user_id = {p} AND {where}",
        [user_id, *params]).fetchall()}


def shared_group_ids(paper_id: int) -> list[int]:
    return [s.group_id for s in PaperShare.select(PaperShare.group)
            .where(PaperShare.paper == paper_id).order_by(PaperShare.group)]


def share(paper_id: int, group_ids) -> None:
    """Share the paper to ``group_ids`` (those it is shared to already stay as they are)."""
    p = db.param
    for gid in sorted(set(group_ids)):
        db.execute_sql(f"INSERT INTO paper_share (paper_id, group_id, shared_at)"
                       f" VALUES ({p}, {p}, {p}) ON CONFLICT (paper_id, group_id) DO NOTHING",
                       (paper_id, gid, utcnow()))


def unshare(paper_id: int, group_ids) -> None:
    if group_ids:
        (PaperShare.delete().where((PaperShare.paper == paper_id)
                                   & (PaperShare.group.in_(list(group_ids)))).execute())


def shelf_rows(group_id: int) -> list[tuple]:
    """``(paper id, sharer's user id, sharer's name, shared_at)`` of what members shared to
    the group, the latest share first."""
    p = db.param
    return db.execute_sql(
        'SELECT s.paper_id, p.user_id, u.name, s.shared_at FROM paper_share s'
        ' JOIN paper p ON p.id = s.paper_id JOIN "user" u ON u.id = p.user_id'
        f' WHERE s.group_id = {p} ORDER BY s.shared_at DESC, s.id DESC', (group_id,)).fetchall()


# A paper's work: its arXiv id, else its DOI, else its URL, else the paper alone. Shares of one
# work (members' copies of a paper) are one entry on a shelf.
WORK_KEY = ("COALESCE('arxiv_id:' || NULLIF(p.arxiv_id, ''), 'doi:' || NULLIF(p.doi, ''),"
            " 'url:' || NULLIF(p.url, ''), 'paper:' || p.id)")


def shelf_page(group_id: int, limit: int, after: tuple | None = None,
               matching=None) -> list[tuple]:
    """One page of the group's shelf, over works, the work with the latest share first: rows
    ``(latest shared_at, latest share id, paper id, sharer's name, shared_at)``, one per share
    of each of at most ``limit`` works, a work's shares in the order they were made. ``after``:
    ``(shared_at, share id)`` of the last work of the page before; ``matching``: a query of
    paper ids (peewee's): only works with a share of one of those. One query:
    the shelf's shares are grouped by work in the store, and only the page's are read."""
    p = db.param
    params: list = [group_id]
    where = []
    if matching is not None:
        sql, more = matching.sql()
        where.append(f"work IN (SELECT work FROM s WHERE paper_id IN ({sql}))")
        params += more
    grouped = ("SELECT work, MAX(shared_at) AS at, MAX(sid) AS last FROM s"
               + (f" WHERE {where[0]}" if where else "") + " GROUP BY work")
    later = ""
    if after is not None:
        at = after[0] if is_postgres() else str(after[0])  # SQLite: text, as it keeps them
        later = f" WHERE w.at < {p} OR (w.at = {p} AND w.last < {p})"
        params += [at, at, after[1]]
    params.append(limit)
    return db.execute_sql(
        "WITH s AS (SELECT ps.id AS sid, ps.paper_id, ps.shared_at, p.user_id,"
        f" {WORK_KEY} AS work FROM paper_share ps JOIN paper p ON p.id = ps.paper_id"
        f" WHERE ps.group_id = {p}),"
        f" w AS ({grouped}),"
        f" page AS (SELECT w.work, w.at, w.last FROM w{later}"
        f" ORDER BY w.at DESC, w.last DESC LIMIT {p})"
        " SELECT page.at, page.last, s.paper_id, u.name, s.shared_at FROM page"
        ' JOIN s ON s.work = page.work JOIN "user" u ON u.id = s.user_id'
        " ORDER BY page.at DESC, page.last DESC, s.shared_at, s.sid", params).fetchall()


def shelf_paper_ids(group_id: int) -> list[int]:
    p = db.param
    return [r[0] for r in db.execute_sql(
        f"SELECT paper_id FROM paper_share WHERE group_id = {p}", (group_id,)).fetchall()]


def user_names(user_ids) -> dict[int, str]:
    ids = list(set(user_ids))
    if not ids:
        return {}
    return {u.id: u.name for u in User.select(User.id, User.name).where(User.id.in_(ids))}


def members_sql() -> str:
    """The other members of the user's groups (two parameters: the user's id twice)."""
    p = db.param
    return (f"SELECT DISTINCT m.user_id FROM group_member m WHERE m.group_id IN"
            f" (SELECT group_id FROM group_member WHERE user_id = {p}) AND m.user_id <> {p}")


def shared_on_page(user_id: int, keys: list[str]) -> list[tuple]:
    """The papers known by one of the identities ``keys`` (as stored: ``store.papers.
    identity_key``) that other members of the user's groups shared to one of those groups, by
    the one identity rule the user's own lookup follows: rows ``(paper id, owner name, the keys
    it matched, groups [{"id", "name"}], notes count, highlights [records])``. Found through the
    (user, identity) index of the members' identities, so the size of their libraries does not
    matter. SQLite, in a few queries (PostgreSQL: ``store.papers.page_matches`` asks it with the
    user's own in one)."""
    if not keys:
        return []
    p = db.param
    mine = f"SELECT group_id FROM group_member WHERE user_id = {p}"
    where, params = in_list("pi.identity", keys)
    matches = (f"SELECT pi.paper_id, pi.user_id, pi.identity FROM paper_identity pi"
               f" WHERE pi.user_id IN ({members_sql()}) AND {where}")
    owners: dict[int, int] = {}
    matched = defaultdict(list)
    for pid, uid, key in db.execute_sql(matches, [user_id, user_id, *params]).fetchall():
        owners[pid] = uid
        matched[pid].append(key)
    if not owners:
        return []
    ids = sorted(owners)
    in_ids, id_params = in_list("ps.paper_id", ids)
    groups = defaultdict(list)
    for pid, gid, name in db.execute_sql(
            f"SELECT ps.paper_id, g.id, g.name FROM paper_share ps JOIN user_group g"
            f" ON g.id = ps.group_id WHERE {in_ids} AND ps.group_id IN ({mine}) ORDER BY g.id",
            [*id_params, user_id]).fetchall():
        groups[pid].append({"id": gid, "name": name})
    shared = [pid for pid in ids if groups[pid]]
    if not shared:
        return []
    in_notes, note_params = in_list("paper_id", shared)
    notes = dict(db.execute_sql(f"SELECT paper_id, COUNT(*) FROM note WHERE {in_notes}"
                                " GROUP BY paper_id", note_params).fetchall())
    highlights = records.highlights_by_paper(shared)
    names = user_names(owners[pid] for pid in shared)
    return [(pid, names[owners[pid]], matched[pid], groups[pid], notes.get(pid, 0),
             highlights[pid]) for pid in shared]
