"""Full-text search over a paper's title, authors, abstract, tags, notes and highlights.

The index itself, in each dialect, is ``store.search``. ``reindex`` rebuilds one paper's
document; the services call it after every change.
"""

import re
from collections import defaultdict

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
    reindex_many([paper])


def reindex_many(papers: list[Paper]) -> None:
    """Rebuild the documents of ``papers``: their tags, notes and highlights read 500 papers at
    a time."""
    tags, annotations = defaultdict(list), defaultdict(list)
    for i in range(0, len(papers), 500):
        ids = [p.id for p in papers[i:i + 500]]
        for pid, name in (PaperTag.select(PaperTag.paper, Tag.name).join(Tag)
                          .where(PaperTag.paper.in_(ids)).tuples()):
            tags[pid].append(name)
        for pid, body in Note.select(Note.paper, Note.body).where(Note.paper.in_(ids)).tuples():
            annotations[pid].append(body)
        for pid, exact, comment in (Highlight.select(Highlight.paper, Highlight.exact,
                                                     Highlight.comment)
                                    .where(Highlight.paper.in_(ids)).tuples()):
            annotations[pid] += [exact, comment]
    for paper in papers:
        index.write_document(paper.id, document(paper, tags[paper.id], annotations[paper.id]),
                             replace=True)


def unindex(paper_id: int) -> None:
    index.drop_document(paper_id)


def matching(q: str):
    """A peewee expression selecting papers whose document has every word of ``q`` (as prefixes),
    or None when ``q`` has no words."""
    words = terms(q)
    return index.papers_matching(words) if words else None
