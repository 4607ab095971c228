"""Notes on a paper: Markdown source, stored verbatim."""

from papershelf.domain.errors import NotFound
from papershelf.services.papers import get_paper, touch
from papershelf.store.db import write_transaction
from papershelf.store.models import Note, User, utcnow


def get_note(user: User, note_id: int) -> Note:
    note = Note.get_or_none((Note.id == note_id) & (Note.user == user))
    if note is None:
        raise NotFound("no such note")
    return note


def add_note(user: User, paper_id: int, data: dict) -> tuple[Note, bool]:
    """(note, created). A retry with the same client_id answers the note already made."""
    with write_transaction():
        paper = get_paper(user, paper_id)
        if data.get("client_id"):
            existing = Note.get_or_none((Note.user == user) & (Note.client_id == data["client_id"]))
            if existing is not None:
                return existing, False
        note = Note.create(user=user, paper=paper, body=data["body"],
                           client_id=data.get("client_id"))
        touch(paper)
    return note, True


def update_note(user: User, note_id: int, data: dict) -> Note:
    with write_transaction():
        note = get_note(user, note_id)
        note.body = data["body"]
        note.updated_at = utcnow()
        note.save()
        touch(note.paper)
    return note


def delete_note(user: User, note_id: int) -> None:
    with write_transaction():
        note = get_note(user, note_id)
        paper = note.paper
        note.delete_instance()
        touch(paper)
