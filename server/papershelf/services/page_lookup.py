"""Which of a page's papers the user saved: one call marks a whole page.

A paper is answered under the key the page asked with as well as under its normalized form
(``domain.identifiers``: the arXiv id without version, the canonical URL), so that a page that
keys a paper by ``…/p?utm_source=x#s`` or ``arXiv:2603.01234v2`` finds it under that key.
"""

import json

from papershelf.domain import identifiers
from papershelf.store import groups as group_queries
from papershelf.store import papers as queries
from papershelf.store import records
from papershelf.store.models import User


def _asked(arxiv_ids: list[str], urls: list[str]) -> tuple[dict, dict, list]:
    """The page's keys by their normalized form: ``({id: [asked…]}, {url: [asked…]}, invalid)``.
    An arXiv address among the URLs stands for its id."""
    ids: dict[str, list[str]] = {}
    found_urls: dict[str, list[str]] = {}
    invalid = []
    for raw in arxiv_ids:
        norm = identifiers.try_arxiv_id(raw)
        if norm is None:
            invalid.append(raw)
        else:
            ids.setdefault(norm, []).append(raw)
    for raw in urls:
        norm = identifiers.try_arxiv_id(raw)
        if norm is not None:
            ids.setdefault(norm, []).append(raw)
            continue
        try:
            found_urls.setdefault(identifiers.normalize_url(raw), []).append(raw)
        except ValueError:
            invalid.append(raw)
    return ids, found_urls, invalid


def _answer_keys(asked: dict, norm: str | None) -> list[str]:
    """The keys a paper known by ``norm`` is answered under: ``norm`` and each key that asked."""
    if not norm or norm not in asked:
        return []
    return [norm] + [raw for raw in asked[norm] if raw != norm]


def saved_papers_on_page(user: User, arxiv_ids: list[str], urls: list[str]) -> dict:
    """Which of a page's papers are saved, with their tags, notes and highlights."""
    wanted_ids, wanted_urls, invalid = _asked(arxiv_ids, urls)
    if not wanted_ids and not wanted_urls:
        return {"papers": {}, "invalid": invalid, "shared": {}}
    # Hot path (a page load): plain SQL, no model objects.
    rows = queries.lookup_rows(user.id, list(wanted_ids), list(wanted_urls))
    out = {}
    for (pid, arxiv_id, url, source_url, key, authors, more, category, state, reason,
         at, tags_, notes_, highlights_) in rows:
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
        for answer in (_answer_keys(wanted_ids, arxiv_id) + _answer_keys(wanted_urls, url)
                       + _answer_keys(wanted_urls, source_url)):
            out[answer] = entry
    return {"papers": out, "invalid": invalid,
            "shared": shared_on_page(user, wanted_ids, wanted_urls)}


def shared_on_page(user: User, wanted_ids: dict, wanted_urls: dict) -> dict:
    """Which of the page's papers other members of the user's groups shared to one of them:
    ``{key: [{"user", "paper_id", "groups", "notes", "highlights"}]}`` (``notes``: how many;
    ``highlights``: theirs, to paint read-only), whether or not the user saved it too."""
    out: dict[str, list] = {}
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
