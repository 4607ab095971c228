"""Deleting papers so that they can be restored: a deleted paper's rows (the paper, its tag
links, notes, highlights and group shares) are kept, as they were, for ``RESTORE_WINDOW``; a
restore writes them back with their ids. A paper whose arXiv id or citation key another paper
took in the meantime comes back with a free key, or not at all (the arXiv id: a conflict)."""

from datetime import timedelta

from papershelf.domain.errors import Conflict
from papershelf.services import search
from papershelf.store import papers as queries
from papershelf.store import trash as rows
from papershelf.store.db import write
from papershelf.store.models import DeletedPaper, Paper, User, utcnow

RESTORE_WINDOW = timedelta(hours=1)


def discard(user: User, paper_ids: list[int]) -> list[int]:
    """Delete the user's papers among ``paper_ids`` (inside a write), keeping their rows to be
    restored. Answers the ids deleted."""
    DeletedPaper.delete().where(DeletedPaper.deleted_at < utcnow() - RESTORE_WINDOW).execute()
    ids = [pid for (pid,) in Paper.select(Paper.id).where(
        (Paper.user == user) & Paper.id.in_(list(paper_ids))).tuples()]
    if not ids:
        return []
    kept = rows.rows_of(ids)
    DeletedPaper.delete().where((DeletedPaper.user == user)
                                & DeletedPaper.paper_id.in_(ids)).execute()
    now = utcnow()
    DeletedPaper.insert_many([{"user": user.id, "paper_id": pid, "rows": kept[pid],
                               "deleted_at": now} for pid in ids]).execute()
    for pid in ids:
        search.unindex(pid)
    Paper.delete().where(Paper.id.in_(ids)).execute()  # the rest goes by ON DELETE CASCADE
    return ids


def delete_papers(user: User, paper_ids: list[int]) -> dict:
    """Delete many papers in one transaction: ``{"deleted": [ids], "restorable_until"}``."""
    ids = write(lambda: discard(user, paper_ids))
    return {"deleted": ids, "restorable_for": int(RESTORE_WINDOW.total_seconds())}


def restore_papers(user: User, paper_ids: list[int]) -> dict:
    """Bring back papers deleted within the window, with their notes, highlights, tags and
    shares, and their ids (unless another paper took one since): ``{"restored": [ids]}`` (ids
    not deleted lately are left out)."""
    def restore():
        since = utcnow() - RESTORE_WINDOW
        found = list(DeletedPaper.select().where(
            (DeletedPaper.user == user) & DeletedPaper.paper_id.in_(list(paper_ids))
            & (DeletedPaper.deleted_at >= since)).order_by(DeletedPaper.paper_id))
        restored = []
        for item in found:
            paper = dict(item.rows["paper"])
            if paper.get("arxiv_id") and Paper.get_or_none(
                    (Paper.user == user) & (Paper.arxiv_id == paper["arxiv_id"])):
                raise Conflict(f"paper {item.paper_id}: its arXiv id was saved again since")
            owner = queries.citation_key_owner(user.id, paper["citation_key"])
            if owner is not None:
                taken = queries.keys_starting_with(user.id, paper["citation_key"])
                paper["citation_key"] = next(paper["citation_key"] + c
                                             for c in "abcdefghijklmnopqrstuvwxyz"
                                             if (paper["citation_key"] + c).lower() not in taken)
            paper_id = rows.write_back({**item.rows, "paper": paper})
            item.delete_instance()
            search.reindex(Paper.get_by_id(paper_id))
            restored.append(paper_id)
        return restored

    return {"restored": write(restore)}
