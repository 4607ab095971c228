"""Full-text search over a paper's title, authors, abstract, tags, notes and highlights.

The index itself, in each dialect, is ``store.search``. ``reindex`` rebuilds one paper's
document; the services call it after every change.
"""

import re

from papershelf.store import search as index
from papershelf.store.models import Highlight, Note, Paper, PaperTag, Tag

_WORD = re.compile(r"\w+", re.UNICODE)
MAX_TERMS = 16


def terms(q: str | None) -> list[str]:
    """The words of a search as the store matches them (each a word prefix), at most 16; the
    library page marks the same words in what it shows."""
    return _WORD.findall(q or "")[:MAX_TERMS]


def document(paper: Paper, tags: list[str], annotations: list[str]) -> str:
    parts = [paper.title, " ".join(paper.authors or []), paper.abstract or "", " ".join(tags),
             *annotations]
    return "\n".join(p for p in parts if p)


def index_new(paper: Paper, tags: list[str]) -> None:
    """Index a paper just created: it has no notes or highlights yet."""
    index.write_document(paper.id, document(paper, tags, []), replace=False)


def reindex(paper: Paper) -> None:
    tags = [t for (t,) in Tag.select(Tag.name).join(PaperTag)
            .where(PaperTag.paper == paper.id).tuples()]
    annotations = [b for (b,) in Note.select(Note.body).where(Note.paper == paper.id).tuples()]
    for exact, comment in (Highlight.select(Highlight.exact, Highlight.comment)
                           .where(Highlight.paper == paper.id).tuples()):
        annotations += [exact, comment]
    index.write_document(paper.id, document(paper, tags, annotations), replace=True)


def unindex(paper_id: int) -> None:
    index.drop_document(paper_id)


def matching(q: str):
    """A peewee expression selecting papers whose document has every word of ``q`` (as prefixes),
    or None when ``q`` has no words."""
    words = terms(q)
    return index.papers_matching(words) if words else None
