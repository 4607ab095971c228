"""Duplicates in a user's library and merging two papers into one.

Two papers are duplicates when they share an identity (a DOI, an arXiv id, one named by a DOI or
an address: ``identities``, the one place that says what a paper's identities are) or, lacking
one, the same reduced title, first author's surname and year (an arXiv record and the venue's
record of one work). A merge keeps one paper, its key fixed, and brings onto it everything of
the other: notes, highlights, tags, group shares, the fields it lacks, its identities (a page
lookup by either finds the one kept), the other's key as an alias (exported as BibLaTeX
``ids``); the other paper is then deleted.
"""

from collections import defaultdict

from papershelf.domain import identifiers
from papershelf.domain.entry_types import READING_STATES
from papershelf.domain.errors import Invalid, NotFound
from papershelf.domain.merge import PAGE_FIELDS, title_words
from papershelf.domain.names import last_name
from papershelf.services import search
from papershelf.services.papers import set_tags
from papershelf.store import groups as group_rows
from papershelf.store import models, records
from papershelf.store import papers as queries
from papershelf.store.db import write
from papershelf.store.models import Highlight, Note, Paper, User, utcnow

_COLUMNS = (Paper.id, Paper.arxiv_id, Paper.doi, Paper.url, Paper.title, Paper.authors,
            Paper.published)


def identities(arxiv_id, doi, url) -> set[str]:
    """A paper's identities, as ``"kind:value"``: its arXiv id (also as arXiv's DOI or an
    arxiv.org address names it) and its DOI. Other identities (OpenReview, ACL Anthology,
    PubMed) are added here."""
    found = set()
    arxiv = arxiv_id or identifiers.find_arxiv_id(
        *[v for v in (doi if identifiers.is_arxiv_doi(doi) else None,
                      url if identifiers.is_arxiv_url(url) else None) if v])[0]
    if arxiv:
        found.add("arxiv:" + arxiv)
    if doi and not identifiers.is_arxiv_doi(doi):
        found.add("doi:" + doi.lower())
    return found


def work_key(title, authors, published) -> str | None:
    """Reduced title, first author's surname and year: what two records of one work share."""
    words = title_words(title)
    if not words or not authors or published is None:
        return None
    return f"{words}|{title_words(last_name(authors[0]))}|{published.year}"


def find_duplicates(user: User) -> list[dict]:
    """Groups of the user's papers that are one work: ``[{"reason", "papers": [records]}]``,
    oldest paper first in each."""
    by_key: dict[str, set[int]] = defaultdict(set)
    for pid, arxiv_id, doi, url, title, authors, published in (
            Paper.select(*_COLUMNS).where(Paper.user == user).order_by(Paper.id).tuples()):
        for identity in identities(arxiv_id, doi, url):
            by_key[identity].add(pid)
        key = work_key(title, authors, published)
        if key:
            by_key["title:" + key].add(pid)
    for pid, identity in _stored_identities(user):
        by_key[identity].add(pid)
    groups, seen = [], set()
    for key in sorted(by_key, key=lambda k: (k.startswith("title:"), k)):
        ids = tuple(sorted(by_key[key]))
        if len(ids) < 2 or ids in seen:
            continue
        seen.add(ids)
        groups.append((key.split(":", 1)[0], ids))
    papers = {p.id: p for p in Paper.select().where(Paper.id.in_(
        sorted({i for _, ids in groups for i in ids})))}
    recs = {r["id"]: r for r in records.paper_records(list(papers.values()))}
    return [{"reason": _REASONS.get(kind, kind),
             "papers": [recs[i] for i in ids]} for kind, ids in groups]


_REASONS = {"arxiv": "arXiv id", "doi": "DOI", "title": "title, first author, year"}


def _stored_identities(user: User) -> list[tuple[int, str]]:
    """``(paper id, identity)`` of the identities the store keeps for the user's papers (its
    identities table, where the store has one: OpenReview, ACL Anthology, PubMed ids …), but
    addresses (two works may share one page)."""
    table = getattr(models, "PaperIdentity", None)
    if table is None:
        return []
    return [(pid, identity) for pid, identity in table.select(table.paper, table.identity)
            .where(table.user == user).tuples() if not identity.startswith("url:")]


_STATE_RANK = {s: i for i, s in enumerate(READING_STATES)}


def merge_papers(user: User, keep_id: int, other_id: int) -> Paper:
    """Merge paper ``other_id`` into ``keep_id`` (both the user's): see the module's note."""
    if keep_id == other_id:
        raise Invalid(fields={"other": ["a paper cannot be merged with itself"]})

    def merge() -> Paper:
        for pid in sorted((keep_id, other_id)):  # one lock order: by id
            if not queries.lock_paper(user.id, pid):
                if pid == keep_id:
                    raise NotFound("no such paper")
                raise Invalid(fields={"other": [f"no such paper: {pid}"]})
        keep, other = Paper.get_by_id(keep_id), Paper.get_by_id(other_id)
        Note.update(paper=keep.id).where(Note.paper == other.id).execute()
        Highlight.update(paper=keep.id).where(Highlight.paper == other.id).execute()
        tags = records.tags_by_paper([keep.id, other.id])
        have = {t.casefold() for t in tags[keep.id]}
        extra = [t for t in tags[other.id] if t.casefold() not in have]
        group_rows.share(keep.id, group_rows.shared_group_ids(other.id))
        filled = {f: getattr(other, f) for f in PAGE_FIELDS
                  if getattr(keep, f) in (None, "", [], {}) and getattr(other, f) not in (None, "", [], {})}
        aliases = [a for a in [*(keep.key_aliases or []), other.citation_key,
                               *(other.key_aliases or [])]
                   if a.lower() != keep.citation_key.lower()]
        state = max(keep.reading_state, other.reading_state, key=lambda s: _STATE_RANK.get(s, 0))
        starred = keep.starred or other.starred
        search.unindex(other.id)
        queries.copy_identities(other.id, keep.id)  # what found either finds the one kept
        other.delete_instance()  # its arXiv id and key are free now
        for field, value in filled.items():
            setattr(keep, field, value)
        keep.key_aliases = list(dict.fromkeys(aliases))
        keep.reading_state, keep.starred = state, starred
        keep.citation_key_fixed = True  # cited by either key now: it never moves by itself
        keep.updated_at = utcnow()
        keep.save()
        if extra:
            set_tags(keep, tags[keep.id] + extra)
        search.reindex(keep)
        return keep

    return write(merge)

