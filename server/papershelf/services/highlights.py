"""Highlights: a quote in a paper's abstract or title, anchored by quote, context and position."""

from papershelf.domain.errors import NotFound
from papershelf.services.papers import get_paper, touch
from papershelf.store.db import write_transaction
from papershelf.store.models import Highlight, User, utcnow


def get_highlight(user: User, highlight_id: int) -> Highlight:
    h = Highlight.get_or_none((Highlight.id == highlight_id) & (Highlight.user == user))
    if h is None:
        raise NotFound("no such highlight")
    return h


def add_highlight(user: User, paper_id: int, data: dict) -> tuple[Highlight, bool]:
    """``data`` as ``domain.validation.HighlightInSchema`` loads it."""
    with write_transaction():
        paper = get_paper(user, paper_id)
        if data.get("client_id"):
            existing = Highlight.get_or_none((Highlight.user == user)
                                             & (Highlight.client_id == data["client_id"]))
            if existing is not None:
                return existing, False
        h = Highlight.create(user=user, paper=paper, **data)
        touch(paper)
    return h, True


def update_highlight(user: User, highlight_id: int, data: dict) -> Highlight:
    with write_transaction():
        h = get_highlight(user, highlight_id)
        for key, value in data.items():
            setattr(h, key, value)
        h.updated_at = utcnow()
        h.save()
        touch(h.paper)
    return h


def delete_highlight(user: User, highlight_id: int) -> None:
    with write_transaction():
        h = get_highlight(user, highlight_id)
        paper = h.paper
        h.delete_instance()
        touch(paper)
