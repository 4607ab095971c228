"""Which of a page's papers the user saved: one call marks a whole page."""

import json

from papershelf.domain import identifiers
from papershelf.store import groups as group_queries
from papershelf.store import papers as queries
from papershelf.store import records
from papershelf.store.models import User


def saved_papers_on_page(user: User, arxiv_ids: list[str], urls: list[str]) -> dict:
    """Which of a page's papers are saved, with their tags, notes and highlights."""
    wanted_ids, wanted_urls, invalid = {}, {}, []
    for raw in arxiv_ids:
        norm = identifiers.try_arxiv_id(raw)
        if norm is None:
            invalid.append(raw)
        else:
            wanted_ids[norm] = True
    for raw in urls:
        norm = identifiers.try_arxiv_id(raw)
        if norm is not None:
            wanted_ids[norm] = True
            continue
        try:
            wanted_urls[identifiers.normalize_url(raw)] = True
        except ValueError:
            invalid.append(raw)
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
        if arxiv_id and arxiv_id in wanted_ids:
            out[arxiv_id] = entry
        for u in (url, source_url):
            if u and u in wanted_urls:
                out[u] = entry
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
        keys = [arxiv_id] if arxiv_id and arxiv_id in wanted_ids else []
        keys += [url] if url and url in wanted_urls and url not in keys else []
        for key in keys:
            out.setdefault(key, []).append(entry)
    return out

