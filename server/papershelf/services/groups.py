"""Groups: a team's shared shelf. Whoever creates a group owns it and alone adds and removes
members; nothing is shared unless its owner shares it (``"groups": [...]`` on a save or an
edit). A group's shelf lists what members shared, each work once, with who shared it and every
sharer's notes and highlights on it, each marked with its author, a page at a time (the work
shared latest first, a keyset cursor); exports and feeds of a group read the same shelf whole.
To anyone who is not a member, a group does not exist (404).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

from papershelf.domain.citekey import KeyRun
from papershelf.domain.errors import Conflict, Forbidden, Invalid, NotFound
from papershelf.formats import writer_for
from papershelf.services import listing, search
from papershelf.store import groups as queries
from papershelf.store import records
from papershelf.store.db import write
from papershelf.store.models import Group, Paper, User

NAME_MAX = 100
BATCH = 500


def _record(gid, name, owner_id, owner_name, created_at, members: list[str], user: User) -> dict:
    return {"id": gid, "name": name, "owner": owner_name,
            "role": "owner" if owner_id == user.id else "member",
            "members": members, "created_at": records.ts(created_at)}


def list_groups(user: User) -> list[dict]:
    """The user's groups (those they own and those they are a member of), oldest first."""
    rows = queries.groups_of(user.id)
    names = queries.member_names([r[0] for r in rows])
    return [_record(*r, names[r[0]], user) for r in rows]


def get_group(user: User, group_id: int) -> Group:
    """The group, for one of its members; NotFound for anyone else."""
    group = queries.group_of_member(group_id, user.id)
    if group is None:
        raise NotFound("no such group")
    return group


def group_record(user: User, group_id: int) -> dict:
    found = next((g for g in list_groups(user) if g["id"] == group_id), None)
    if found is None:
        raise NotFound("no such group")
    return found


def create_group(user: User, name: str) -> dict:
    def create():
        group = Group.create(name=name, owner=user.id)
        queries.add_member(group.id, user.id)
        return group

    return group_record(user, write(create).id)


def _owned(user: User, group_id: int) -> Group:
    group = get_group(user, group_id)
    if group.owner_id != user.id:
        raise Forbidden("only the group's owner may change its members")
    return group


def add_member(user: User, group_id: int, member_name: str) -> dict:
    """The owner adds the user named ``member_name``."""
    def add():
        group = _owned(user, group_id)
        member = User.get_or_none(User.name == member_name)
        if member is None:
            raise Invalid(fields={"user": [f"no user is named {member_name!r}"]})
        queries.add_member(group.id, member.id)

    write(add)
    return group_record(user, group_id)


def remove_member(user: User, group_id: int, member_name: str) -> None:
    """The owner removes a member, or a member leaves; what they shared leaves with them."""
    def remove():
        group = get_group(user, group_id)
        if member_name != user.name and group.owner_id != user.id:
            raise Forbidden("only the group's owner may remove other members")
        member = User.get_or_none(User.name == member_name)
        if member is not None and member.id == group.owner_id:
            raise Conflict("the owner cannot leave the group; delete it instead")
        if member is None or not queries.remove_member(group.id, member.id):
            raise NotFound(f"{member_name!r} is not a member of this group")

    write(remove)


def delete_group(user: User, group_id: int) -> None:
    """The owner deletes the group: its shares and its feeds go with it (the papers stay)."""
    def delete():
        group = get_group(user, group_id)
        if group.owner_id != user.id:
            raise Forbidden("only the group's owner may delete it")
        group.delete_instance()

    write(delete)


# ---- sharing ------------------------------------------------------------------------------


def check_groups(user: User, group_ids: list[int]) -> list[int]:
    """``group_ids`` if the user is a member of each; else Invalid (a group the user is not in
    is described as a group that does not exist)."""
    wanted = list(dict.fromkeys(group_ids))
    missing = [g for g in wanted if g not in queries.member_group_ids(user.id, wanted)]
    if missing:
        raise Invalid(fields={"groups": [f"no such group: {g}" for g in missing]})
    return wanted


def share(user: User, paper: Paper, group_ids: list[int], *, replace: bool) -> None:
    """Share the user's ``paper`` to ``group_ids`` (inside the write that saves it). A save adds
    to the groups it is shared to; an edit (``replace``) makes them exactly these, leaving
    untouched only groups the user is no longer in (they cannot see those)."""
    wanted = check_groups(user, group_ids)
    if replace:
        current = queries.shared_group_ids(paper.id)
        queries.unshare(paper.id, [g for g in current if g not in wanted])
    queries.share(paper.id, wanted)


def paper_groups(user: User, paper_id: int) -> list[dict]:
    """The groups (of the user's) the user's paper is shared to: ``[{"id", "name"}]``."""
    shared = set(queries.shared_group_ids(paper_id))
    return [{"id": g["id"], "name": g["name"]} for g in list_groups(user) if g["id"] in shared]


# ---- the shelf ----------------------------------------------------------------------------


def _work_key(rec: dict) -> str:
    for name in ("arxiv_id", "doi", "url"):
        if rec.get(name):
            return f"{name}:{rec[name]}"
    return f"paper:{rec['id']}"


def _shelf_entries(rows: list[tuple]) -> list[dict]:
    """Shares ``(paper id, user id, user name, shared_at)`` → one entry per work: the first
    share's paper, with every share's sharer and the sharers' notes and highlights."""
    papers = {p.id: p for p in Paper.select().where(Paper.id.in_([r[0] for r in rows]))}
    recs = {rec["id"]: rec for rec in records.paper_records(
        [papers[r[0]] for r in rows if r[0] in papers])}
    entries: dict[str, dict] = {}
    for paper_id, _uid, name, shared_at in rows:
        rec = recs.get(paper_id)
        if rec is None:
            continue
        key = _work_key(rec)
        entry = entries.get(key)
        if entry is None:
            entry = entries[key] = {**rec, "notes": [], "highlights": [], "shared_by": []}
        if any(s["paper_id"] == paper_id for s in entry["shared_by"]):
            continue  # one paper shared to the group once; rows are per share
        entry["shared_by"].append({"user": name, "paper_id": paper_id,
                                   "shared_at": records.ts(shared_at)})
        entry["notes"] += [{**n, "user": name} for n in rec["notes"]]
        entry["highlights"] += [{**h, "user": name} for h in rec["highlights"]]
    return list(entries.values())


SHELF_CURSOR = "shelf"


def _encode_cursor(group_id: int, at, share_id: int) -> str:
    at = at.isoformat(sep=" ") if isinstance(at, datetime) else str(at)
    return listing.encode_cursor([SHELF_CURSOR, group_id, at, share_id])


def _decode_cursor(cursor: str, group_id: int) -> tuple:
    """``(shared_at, share id)`` of a cursor this API gave for the group's shelf; anything
    else (a forged cursor, another group's, one of the library's) is a field error."""
    kind, gid, at, share_id = listing.decode_cursor(cursor, 4)
    try:
        if kind != SHELF_CURSOR or not listing.is_row_id(share_id) or not isinstance(at, str):
            raise ValueError
        at = datetime.fromisoformat(at)
        if at.tzinfo is not None:
            raise ValueError
    except ValueError:
        raise Invalid(fields={"cursor": [listing.NOT_A_CURSOR]}) from None
    if gid != group_id:
        raise Invalid(fields={"cursor": ["not a cursor of this group's shelf"]})
    return at, share_id


def _matching(q=None, tag=None, topic=None):
    """The filters as a query of paper ids, or None: no filter."""
    if not (search.terms(q) or tag or topic):
        return None
    return listing.narrowed(Paper.select(Paper.id), q=q, tag=tag, topic=topic)


def _page_entries(rows: list[tuple]) -> list[dict]:
    """Rows of ``queries.shelf_page`` → one entry per work: the first share's paper, with every
    share's sharer (in the order they shared) and the sharers' notes and highlights."""
    papers = list(Paper.select().where(Paper.id.in_([r[2] for r in rows])))
    recs = {rec["id"]: rec for rec in records.paper_records(papers)}
    entries: dict[int, dict] = {}
    for _at, last, paper_id, name, shared_at in rows:
        rec = recs.get(paper_id)
        if rec is None:
            continue  # deleted since
        entry = entries.get(last)
        if entry is None:
            entry = entries[last] = {**rec, "notes": [], "highlights": [], "shared_by": []}
        entry["shared_by"].append({"user": name, "paper_id": paper_id,
                                   "shared_at": records.ts(shared_at)})
        entry["notes"] += [{**n, "user": name} for n in rec["notes"]]
        entry["highlights"] += [{**h, "user": name} for h in rec["highlights"]]
    return list(entries.values())


def shelf(user: User, group_id: int, *, limit: int = 50, cursor: str | None = None,
          q=None, tag=None, topic=None) -> dict:
    """A page of the group's shelf for one of its members: ``{"group", "items",
    "next_cursor"}``, each work once, the work shared latest first. ``q``, ``tag`` and
    ``topic`` keep the works of which a share matches (``tag``: any sharer's tag)."""
    get_group(user, group_id)
    after = _decode_cursor(cursor, group_id) if cursor else None
    rows = queries.shelf_page(group_id, limit + 1, after, _matching(q, tag, topic))
    lasts = list(dict.fromkeys(r[1] for r in rows))
    more = len(lasts) > limit
    if more:
        page = set(lasts[:limit])
        rows = [r for r in rows if r[1] in page]
    next_cursor = _encode_cursor(group_id, rows[-1][0], rows[-1][1]) if more else None
    return {"group": group_record(user, group_id), "items": _page_entries(rows),
            "next_cursor": next_cursor}


def filtered(group_id: int, *, q=None, tag=None, topic=None):
    """The papers shared to the group matching the filters (a peewee query); ``tag`` is any
    sharer's tag of that name."""
    query = Paper.select().where(Paper.id.in_(queries.shelf_paper_ids(group_id)))
    return listing.narrowed(query, q=q, tag=tag, topic=topic)


def export_records(group_id: int, *, q=None, tag=None, topic=None) -> Iterator[dict]:
    """The group's shelf as export records, each work once (the first sharer's paper, with
    every sharer's notes and highlights), in citation-key order; a key two works share gets
    ``a``, ``b``… as a clash in one library would."""
    wanted = {pid for (pid,) in filtered(group_id, q=q, tag=tag, topic=topic)
              .select(Paper.id).tuples()}
    rows = [r for r in queries.shelf_rows(group_id) if r[0] in wanted]
    rows.reverse()  # the first share of a work is its entry
    entries = sorted(_shelf_entries(rows), key=lambda e: (e["citation_key"], e["id"]))
    taken: set[str] = set()
    runs: dict[str, KeyRun] = {}  # one per key, all on ``taken``
    for entry in entries:
        base = entry["citation_key"]
        run = runs.get(base.lower()) or runs.setdefault(base.lower(), KeyRun(taken))
        rec = {k: v for k, v in entry.items() if k != "shared_by"}
        rec["citation_key"] = run.next_key(base)
        yield rec


def export_chunks(user: User, group_id: int, fmt: str, *, q=None, tag=None, topic=None,
                  **options) -> Iterator[str]:
    """The group's export file, in chunks, for one of its members."""
    get_group(user, group_id)
    return writer_for(fmt)(export_records(group_id, q=q, tag=tag, topic=topic), **options)
