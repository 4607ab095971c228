"""Notes (Markdown source, stored verbatim) and highlights (a quote in a paper's text, anchored
by quote, context and position) on a user's papers: add, edit, delete.

Both kinds follow one rule: they belong to a paper of the user, a retry with the same
``client_id`` answers the row already made, and every change refreshes the paper's search
document and ``updated_at``. ``kind`` is ``"note"`` or ``"highlight"``.
"""

from papershelf.domain.errors import NotFound
from papershelf.services.papers import get_paper, touch
from papershelf.store.db import write
from papershelf.store.models import Highlight, Note, User, utcnow
from papershelf.store.records import highlight_record, note_record

MODELS = {"note": Note, "highlight": Highlight}
RECORDS = {"note": note_record, "highlight": highlight_record}


def get(kind: str, user: User, row_id: int):
    """The user's note or highlight ``row_id`` (another user's is not found either)."""
    model = MODELS[kind]
    row = model.get_or_none((model.id == row_id) & (model.user == user))
    if row is None:
        raise NotFound(f"no such {kind}")
    return row


def add(kind: str, user: User, paper_id: int, data: dict) -> tuple[dict, bool]:
    """(record, created) for ``data`` as ``domain.validation`` loads a note or a highlight."""
    model = MODELS[kind]

    def create():
        paper = get_paper(user, paper_id)
        if data.get("client_id"):
            existing = model.get_or_none((model.user == user)
                                         & (model.client_id == data["client_id"]))
            if existing is not None:
                return existing, False
        row = model.create(user=user, paper=paper, **data)
        touch(paper)
        return row, True

    # Two tries with one client_id at once (PostgreSQL): the loser finds the winner's row.
    row, created = write(create, retry_unique=True)
    return RECORDS[kind](row), created


def update(kind: str, user: User, row_id: int, data: dict) -> dict:
    def change():
        row = get(kind, user, row_id)
        for key, value in data.items():
            setattr(row, key, value)
        row.updated_at = utcnow()
        row.save()
        touch(row.paper)
        return row

    return RECORDS[kind](write(change))


def delete(kind: str, user: User, row_id: int) -> None:
    def remove():
        row = get(kind, user, row_id)
        paper = row.paper
        row.delete_instance()
        touch(paper)

    write(remove)
