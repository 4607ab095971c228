"""Which of a page's papers the user saved: one call marks a whole page."""

import json

from papershelf.domain import identifiers
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
        return {"papers": {}, "invalid": invalid}
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
    return {"papers": out, "invalid": invalid}

