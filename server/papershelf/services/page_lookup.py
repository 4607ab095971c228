"""Which of a page's papers the user saved: one call marks a whole page.

A page asks by arXiv ids, URLs and identities (``domain.identities``: ``doi:…``,
``openreview:…``…); each key stands for one identity, and any identity of a stored paper finds
it (a paper saved from its landing page is found by its PDF's address). A paper is answered
under the key the page asked with as well as under its normalized form (the arXiv id without
version, the canonical URL, the identity in its one form), so that a page that keys a paper by
``…/p?utm_source=x#s`` or ``arXiv:2603.01234v2`` finds it under that key.
"""

import json

from papershelf.domain import identifiers, identities
from papershelf.store import papers as queries
from papershelf.store import records
from papershelf.store.models import User


class _Asked:
    """The page's keys: by the identity each stands for, the keys to answer under."""

    def __init__(self) -> None:
        self.keys: dict[str, list[str]] = {}  # identity -> [normalized form, asked keys…]
        self.invalid: list[str] = []

    def add(self, identity: str | None, norm: str | None, raw: str) -> None:
        if identity is None:
            self.invalid.append(raw)
            return
        keys = self.keys.setdefault(identity, [])
        for key in (norm, raw):
            if key and key not in keys:
                keys.append(key)

    def answer_keys(self, by_key: dict[str, str], matched) -> list[str]:
        """The keys a paper that matched the stored identities ``matched`` is answered under."""
        out: list[str] = []
        for stored in matched:
            out += [k for k in self.keys.get(by_key.get(stored, stored), ()) if k not in out]
        return out


def _asked(arxiv_ids: list[str], urls: list[str], ids: list[str]) -> _Asked:
    asked = _Asked()
    for raw in arxiv_ids:
        norm = identifiers.try_arxiv_id(raw)
        asked.add(f"arxiv:{norm}" if norm else None, norm, raw)
    for raw in urls:
        found = identities.url_identity(raw)
        if found is None:  # no address; a bare arXiv id, as pages sent them
            norm = identifiers.try_arxiv_id(raw)
            asked.add(f"arxiv:{norm}" if norm else None, norm, raw)
        elif found[1].startswith("arxiv:"):  # an arXiv address stands for its id
            asked.add(found[1], found[1][6:], raw)
        else:
            asked.add(found[1], found[0], raw)
    for raw in ids:
        identity = identities.normalize_identity(raw)
        asked.add(identity, identity, raw)
    return asked


def saved_papers_on_page(user: User, arxiv_ids: list[str], urls: list[str],
                         ids: list[str] = ()) -> dict:
    """Which of a page's papers are saved, with their tags, notes and highlights."""
    asked = _asked(arxiv_ids, urls, list(ids))
    if not asked.keys:
        return {"papers": {}, "invalid": asked.invalid, "shared": {}}
    by_key = {queries.identity_key(i): i for i in asked.keys}
    own, shared = queries.page_rows(user.id, list(by_key), _entry)
    out = {}
    for _pid, entry, matched in own:  # by paper id: of two papers, the older answers
        for answer in asked.answer_keys(by_key, matched):
            out.setdefault(answer, entry)
    return {"papers": out, "invalid": asked.invalid,
            "shared": _shared_on_page(shared, asked, by_key)}


def _entry(pid, key, state, reason, at, authors, more, category, tags_, notes_,
           highlights_) -> dict:
    """What a page is answered about one of the user's papers, from its row
    (``store.papers.LOOKUP_COLUMNS``, then its tags, notes and highlights). Built once for each
    version of the paper and kept (``store.papers.page_rows``): the answer holds it as it is."""
    entry = {
        "id": pid,
        "citation_key": key,
        "enrichment": {"state": state, "reason": reason, "at": records.ts(at)},
        "tags": tags_ or [],
        "notes": notes_ or [],
        "highlights": highlights_ or [],
    }
    if state == "done":  # what arXiv completed; the page has its own list until then
        if isinstance(authors, str):  # SQLite's text; PostgreSQL decoded it
            authors = json.loads(authors)
        entry.update(authors=authors or [], authors_more=more, primary_category=category)
    return entry


def _shared_on_page(rows: list, asked: _Asked, by_key: dict[str, str]) -> dict:
    """Which of the page's papers other members of the user's groups shared to one of them,
    found by any of their identities as the user's own are: ``{key: [{"user", "paper_id",
    "groups", "notes", "highlights"}]}`` (``notes``: how many; ``highlights``: theirs, to paint
    read-only), whether or not the user saved it too."""
    out: dict[str, list] = {}
    for pid, name, matched, groups_, notes, highlights in rows:
        entry = {"user": name, "paper_id": pid, "groups": groups_, "notes": notes,
                 "highlights": [{**h, "user": name} for h in highlights or []]}
        for key in asked.answer_keys(by_key, matched):
            out.setdefault(key, []).append(entry)
    return out
