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
from papershelf.store import groups as group_queries
from papershelf.store import papers as queries
from papershelf.store import records
from papershelf.store.models import User


class _Asked:
    """The page's keys: by the identity each stands for, the keys to answer under."""

    def __init__(self) -> None:
        self.keys: dict[str, list[str]] = {}  # identity -> [normalized form, asked keys…]
        self.invalid: list[str] = []
        self.arxiv_ids: dict[str, list[str]] = {}  # for the group shelves: id -> keys
        self.urls: dict[str, list[str]] = {}  # canonical URL -> keys

    def add(self, identity: str | None, norm: str | None, raw: str) -> None:
        if identity is None:
            self.invalid.append(raw)
            return
        keys = self.keys.setdefault(identity, [])
        for key in (norm, raw):
            if key and key not in keys:
                keys.append(key)
        if identity.startswith("arxiv:"):
            self.also(self.arxiv_ids, identity[6:], norm, raw)
        elif identity.startswith("url:"):
            self.also(self.urls, identity[4:], norm, raw)

    @staticmethod
    def also(where: dict, value: str, norm: str | None, raw: str) -> None:
        keys = where.setdefault(value, [])
        for key in (norm, raw):
            if key and key not in keys:
                keys.append(key)


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
            asked.also(asked.urls, found[0], found[0], raw)  # group shelves find them by URL
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
    # Hot path (a page load): plain SQL, no model objects.
    rows = queries.lookup_rows(user.id, list(asked.keys))
    out = {}
    for (pid, _arxiv_id, _url, _source_url, key, authors, more, category, state, reason,
         at, matched, tags_, notes_, highlights_) in rows:
        entry = {
            "id": pid,
            "citation_key": key,
            "enrichment": {"state": state, "reason": reason, "at": records.ts(at)},
            "tags": tags_ or [],
            "notes": notes_ or [],
            "highlights": highlights_ or [],
        }
        if state == "done":  # what arXiv completed; the page has its own list until then
            entry.update(authors=json.loads(authors) if authors else [], authors_more=more,
                         primary_category=category)
        if isinstance(matched, str):
            matched = json.loads(matched)
        for stored in matched:
            for answer in asked.keys.get(by_key.get(stored, stored), ()):
                out.setdefault(answer, entry)  # of two papers, the older answers
    return {"papers": out, "invalid": asked.invalid,
            "shared": shared_on_page(user, asked.arxiv_ids, asked.urls)}


def _answer_keys(asked: dict, norm: str | None) -> list[str]:
    """The keys a paper known by ``norm`` is answered under: each that asked for it."""
    return list(asked.get(norm, ())) if norm else []


def shared_on_page(user: User, wanted_ids: dict, wanted_urls: dict) -> dict:
    """Which of the page's papers other members of the user's groups shared to one of them:
    ``{key: [{"user", "paper_id", "groups", "notes", "highlights"}]}`` (``notes``: how many;
    ``highlights``: theirs, to paint read-only), whether or not the user saved it too."""
    out: dict[str, list] = {}
    if not wanted_ids and not wanted_urls:
        return out
    for pid, name, arxiv_id, url, groups_, notes, highlights in group_queries.shared_on_page(
            user.id, list(wanted_ids), list(wanted_urls)):
        if isinstance(groups_, str):
            groups_ = json.loads(groups_)
        entry = {"user": name, "paper_id": pid, "groups": groups_, "notes": notes,
                 "highlights": [{**h, "user": name} for h in highlights or []]}
        keys = _answer_keys(wanted_ids, arxiv_id)
        keys += [k for k in _answer_keys(wanted_urls, url) if k not in keys]
        for key in keys:
            out.setdefault(key, []).append(entry)
    return out
