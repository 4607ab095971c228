"""Papers: save from a page (idempotent, merging into the saved paper it is), find the same
work (for imports), read one, edit, delete, and set its tags. Listing and search are
``listing``'s; a page's lookup is ``page_lookup``'s.

A paper is known by each of its identities (``domain.identities``: its DOI, arXiv id, the
site's own id that its landing page and its PDF both show, else its URLs), stored with it on
every save and edit: a save whose identity matches a stored paper merges into that paper."""

from peewee import IntegrityError

from papershelf.domain import identifiers, identities
from papershelf.domain.entry_types import fields_refused
from papershelf.domain.errors import Conflict, Invalid, NotFound
from papershelf.domain.merge import (
    IDENTITY_FIELDS,
    PAGE_FIELDS,
    page_save_changes,
    titles_compatible,
)
from papershelf.domain.record import provisional_title
from papershelf.services import citekeys, enrichment, groups, published, search, trash
from papershelf.store import papers as queries
from papershelf.store import records
from papershelf.store.db import violated_index, write
from papershelf.store.models import Paper, PaperTag, User, utcnow


def get_paper(user: User, paper_id: int) -> Paper:
    paper = Paper.get_or_none((Paper.id == paper_id) & (Paper.user == user))
    if paper is None:
        raise NotFound("no such paper")
    return paper


def paper_detail(paper: Paper) -> dict:
    fresh_tags = getattr(paper, "fresh_tags", None)
    if fresh_tags is not None:  # created in this request: no notes or highlights yet
        return records.paper_record(paper, fresh_tags, [], [])
    return records.paper_records([paper])[0]


def _candidates(user: User, data: dict, keys: tuple) -> list[tuple[str, int, str]]:
    """The user's papers sharing one of ``keys`` with ``data``: ``(key, id, title)``, by the
    first key they share in the order of ``keys``, then oldest first."""
    keys = [k for k in keys if data.get(k)]
    if not data.get("arxiv_id"):
        wanted = queries.identities_of_data(data)
        if wanted:  # saves of one paper by any of its forms take turns
            queries.lock_identity(user.id, wanted[0])
    if not keys:
        return []
    rows = queries.rows_with_any(user.id, {k: data[k] for k in keys})
    found = [(next(k for i, k in enumerate(keys) if row[i + 2] == data[k]), row[0], row[1])
             for row in rows]
    return sorted(found, key=lambda c: (keys.index(c[0]), c[1]))


def _by_identity(user: User, data: dict, *, title_must_fit: bool) -> Paper | None:
    """The saved paper sharing the strongest of ``data``'s identities: of several, the oldest
    whose title fits (an arXiv id needs no title); else, unless ``title_must_fit``, the first
    that shares more than an address (``url:``: a page many papers were saved from). A paper
    with another arXiv id is never the one."""
    wanted = queries.identities_of_data(data)
    matches = queries.papers_with_identities(user.id, wanted)
    if not matches:
        return None
    rank = {identity: n for n, identity in enumerate(wanted)}
    best: dict[int, int] = {}
    for paper_id, identity in matches:
        best[paper_id] = min(best.get(paper_id, len(rank)), rank.get(identity, len(rank)))
    rows = {r.id: r for r in Paper.select(Paper.id, Paper.title, Paper.arxiv_id)
            .where(Paper.id.in_(list(best)))}
    arxiv_id = data.get("arxiv_id")
    ordered = [(best[pid], pid) for pid in sorted(best)
               if pid in rows and not (arxiv_id and rows[pid].arxiv_id
                                       and rows[pid].arxiv_id != arxiv_id)]
    ordered.sort()
    for n, pid in ordered:
        if wanted[n].startswith("arxiv:") or titles_compatible(rows[pid].title, data.get("title")):
            return Paper.get_by_id(pid)
    strong = [pid for n, pid in ordered if not wanted[n].startswith("url:")]
    return None if title_must_fit or not strong else Paper.get_by_id(strong[0])


def find_existing(user: User, data: dict) -> Paper | None:
    """The saved paper this page save is about: by client_id, then arXiv id, then DOI, then URL
    (of several papers sharing a DOI or URL, the first whose title fits), then any of its
    identities (a landing page's paper saved again from its PDF)."""
    found = _candidates(user, data, ("client_id",) + IDENTITY_FIELDS)
    if not found:
        return _by_identity(user, data, title_must_fit=False)
    best = found[0]
    if best[0] in ("doi", "url"):
        best = next((c for c in found if c[0] == best[0]
                     and titles_compatible(c[2], data.get("title"))), best)
    return Paper.get_by_id(best[1])


def find_same_work(user: User, data: dict) -> Paper | None:
    """The saved paper an imported entry is the same work as: the same arXiv id, or the same
    DOI or URL with a compatible title (``domain.merge.titles_compatible``); else None."""
    for key, paper_id, title in _candidates(user, data, IDENTITY_FIELDS):
        if key == "arxiv_id" or titles_compatible(title, data.get("title")):
            return Paper.get_by_id(paper_id)
    return _by_identity(user, data, title_must_fit=True)


def _default_url(data: dict) -> None:
    if data.get("arxiv_id") and not data.get("url"):
        data["url"] = identifiers.arxiv_abs_url(data["arxiv_id"])
    if not data.get("doi"):  # a DOI written as its resolver's address is the DOI
        doi = identities.resolver_doi(data.get("url")) or identities.resolver_doi(
            data.get("pdf_url"))
        if doi:
            data["doi"] = doi


def set_tags(paper: Paper, names: list[str]) -> None:
    """The paper's tags become ``names``, in that order (the caller holds the paper's lock)."""
    replace_tags(paper.user_id, {paper.id: names})


def replace_tags(user_id: int, names_of: dict[int, list[str]]) -> None:
    """Each paper's tags become its list of names, in that order, in a few statements for any
    number of papers (the caller holds their locks)."""
    ids = sorted(names_of)
    for i in range(0, len(ids), 500):
        PaperTag.delete().where(PaperTag.paper.in_(ids[i:i + 500])).execute()
    tag_ids = queries.ensure_tags(user_id, [name for names in names_of.values() for name in names])
    rows = [{"paper": pid, "tag": tag_ids[name], "position": position}
            for pid in ids for position, name in enumerate(names_of[pid])]
    for i in range(0, len(rows), 500):
        PaperTag.insert_many(rows[i:i + 500]).execute()


def tag_names(paper: Paper) -> list[str]:
    return records.tags_by_paper([paper.id])[paper.id]


def _merge_page_fields(paper: Paper, data: dict) -> bool:
    """Apply a later page save to ``paper`` by the merge rule; answers whether it changed."""
    protected = set(paper.edited_fields or []) | set(paper.enriched_fields or [])
    current = {key: getattr(paper, key) for key in PAGE_FIELDS}
    changes = page_save_changes(current, data, protected)
    for key, value in changes.items():
        setattr(paper, key, value)
    return bool(changes)


def save_paper(user: User, data: dict, *, enrich: bool = False,
               find=find_existing) -> tuple[Paper, bool]:
    """Save a paper from a page. Returns (paper, created). Saving again merges, never duplicates.
    ``find``: which saved paper this one is (an import passes ``find_same_work``)."""
    data = dict(data)
    _default_url(data)
    tags = data.pop("tags", None)
    shared_to = data.pop("groups", None)
    fields = {k: v for k, v in data.items() if k in PAGE_FIELDS}
    # On PostgreSQL saves are not serialized: another save may create the same paper between
    # our look and our insert, and the unique index refuses ours. Looked at again, the paper is
    # found and merged.
    return write(lambda: _shared(user, _save(user, data, fields, tags, enrich, find), shared_to),
                 retry_unique=True)


def _shared(user: User, saved: tuple[Paper, bool], group_ids) -> tuple[Paper, bool]:
    if group_ids:
        groups.share(user, saved[0], group_ids, replace=False)
    return saved


def _save(user, data, fields, tags, enrich, find) -> tuple[Paper, bool]:
    paper = find(user, data)
    if paper is not None:
        changed = _merge_page_fields(paper, data)
        if enrich and paper.arxiv_id and paper.enrichment is None:
            enrichment.mark_queued(paper)  # saved while enrichment was off
            changed = True
        if tags:
            current = tag_names(paper)
            extra = [t for t in tags if t.casefold() not in {c.casefold() for c in current}]
            if extra:
                set_tags(paper, current + extra)
                changed = True
        if changed and not paper.citation_key_fixed:
            citekeys.settle(paper, user.citekey_format)  # a provisional key follows the page
        if changed:
            paper.updated_at = utcnow()
            paper.save()
            search.reindex(paper)
        # What this save knew it by finds it from now on, as what it was known by does.
        queries.add_identities([(paper.id, user.id, queries.identities_of_data(paper)
                                 + queries.identities_of_data(data))])
        return paper, False
    if not fields.get("title"):  # saved from its arXiv id alone: arXiv's answer titles it
        fields["title"] = provisional_title(fields["arxiv_id"])
    now = utcnow()
    paper = Paper(user=user, client_id=data.get("client_id"), created_at=now, updated_at=now,
                  **fields)
    if enrich and fields.get("arxiv_id"):
        enrichment.mark_queued(paper, now)
    paper.citation_key, paper.citation_key_fixed = citekeys.new_key(user, fields, paper.enrichment)
    paper = queries.insert_paper(paper)
    queries.add_identities([(paper.id, user.id, queries.identities_of_data(paper))])
    if tags:
        set_tags(paper, tags)
    search.index_new(paper, tags or [])
    paper.fresh_tags = list(tags or [])
    return paper, True


_IDENTITY_SOURCES = {"url", "source_url", "doi", "arxiv_id", "pdf_url"}


def update_paper(user: User, paper_id: int, data: dict, *, enrich: bool = False) -> Paper:
    """A person's edit: applied as given, and remembered so no page save overwrites it."""
    try:
        return write(lambda: _update_paper(user, paper_id, dict(data), enrich),
                     retry_unique=True)
    except IntegrityError as e:
        # PostgreSQL: a page save merging into another paper filled in this arXiv id (or took
        # this key) after our check, and again after each retry.
        which = "citation key" if "citation_key" in violated_index(e) else "arXiv id"
        raise Conflict(f"another paper was just saved with this {which}") from None


def _update_paper(user: User, paper_id: int, data: dict, enrich: bool) -> Paper:
    # The paper's row first, the lock a save of it takes first too (see queries.lock_paper).
    if not queries.lock_paper(user.id, paper_id):
        raise NotFound("no such paper")
    paper = get_paper(user, paper_id)
    tags = data.pop("tags", None)
    shared_to = data.pop("groups", None)
    choice = published.take_choice(data)
    published.apply_choice(paper, choice)
    if shared_to is not None:
        groups.share(user, paper, shared_to, replace=True)
    if "citation_key" in data and data["citation_key"] != paper.citation_key:
        owner = queries.citation_key_owner(user.id, data["citation_key"])
        if owner is not None and owner != paper.id:
            raise Conflict(f"the citation key {data['citation_key']!r} is taken",
                           fields={"citation_key": [
                               "already used by another paper (BibTeX ignores case)"]})
    for key in ("arxiv_id",):  # works may share a DOI or a URL
        if data.get(key) and data[key] != getattr(paper, key):
            clash = Paper.get_or_none((Paper.user == user) & (getattr(Paper, key) == data[key]))
            if clash is not None:
                raise Conflict(f"another paper has this {key}",
                               fields={key: [f"already saved as paper {clash.id}"]})
    refused = fields_refused(data.get("entry_type", paper.entry_type), data)
    if refused:
        raise Invalid("the entry type takes no such field", fields=refused)
    for key in ("reading_state", "starred"):  # the reader's own: no page or arXiv sets them
        if key in data:
            setattr(paper, key, data.pop(key))
    edited = list(paper.edited_fields or [])
    for key, value in data.items():
        if key in ("title",) and not value:
            raise Invalid(fields={key: ["cannot be empty"]})
        if key in ("authors", "affiliations", "topics", "categories", "editors") and value is None:
            value = []
        if key == "extra" and value is None:
            value = {}
        if key == "abstract" and value is None:
            value = ""
        if key == "authors_more" and value is None:
            value = 0
        setattr(paper, key, value)
        if key not in edited:
            edited.append(key)
    if tags is not None:
        set_tags(paper, tags)
        if "tags" not in edited:
            edited.append("tags")
    if enrich and paper.arxiv_id and "arxiv_id" in data:
        enrichment.mark_queued(paper)  # a new arXiv id: complete the paper from it
    if "citation_key" in data:
        citekeys.pin(paper)
    else:
        citekeys.settle(paper, user.citekey_format)
    paper.edited_fields = edited
    paper.updated_at = utcnow()
    paper.save()
    search.reindex(paper)
    if _IDENTITY_SOURCES & set(data):  # the person's fields say who the paper is now
        queries.replace_identities(user.id, paper.id, queries.identities_of_data(paper))
    return paper


def delete_paper(user: User, paper_id: int) -> None:
    """Delete one paper (restorable for a while: ``trash``)."""
    def delete():
        get_paper(user, paper_id)
        trash.discard(user, [paper_id])

    write(delete)


def touch(paper: Paper) -> None:
    """A note or highlight changed: the paper's search document and updated_at follow."""
    Paper.update(updated_at=utcnow()).where(Paper.id == paper.id).execute()
    search.reindex(paper)


BULK_MAX = 10_000


def bulk_update(user: User, paper_ids: list[int], *, set_fields: dict | None = None,
                add_tags: list[str] = (), remove_tags: list[str] = (),
                share_group: int | None = None) -> dict:
    """One change to many papers, in one transaction: every paper changes or none does (a paper
    that is not the user's is a field error naming it). ``set_fields``: reading state and star.
    Answers ``{"updated": n}``."""
    ids = sorted(set(paper_ids))

    def change() -> int:
        found = queries.lock_papers(user.id, ids)  # one order: by id
        missing = [pid for pid in ids if pid not in found]
        if missing:
            raise Invalid("some of these papers do not exist",
                          fields={"ids": [f"no such paper: {pid}" for pid in missing[:20]]})
        if share_group is not None:
            groups.check_groups(user, [share_group])
        now = utcnow()
        for i in range(0, len(ids), 500):
            chunk = ids[i:i + 500]
            Paper.update(**(set_fields or {}), updated_at=now).where(Paper.id.in_(chunk)).execute()
        if add_tags or remove_tags:
            current = records.tags_by_paper(ids)
            gone = {t.casefold() for t in remove_tags}
            changed = {}
            for pid in ids:
                names = [t for t in current[pid] if t.casefold() not in gone]
                have = {t.casefold() for t in names}
                names += [t for t in add_tags if t.casefold() not in have and t.casefold() not in gone]
                if names != current[pid]:
                    changed[pid] = names
            replace_tags(user.id, changed)
            search.reindex_many(queries.papers_of(list(changed)))
        if share_group is not None:
            for paper in queries.papers_of(ids):
                groups.share(user, paper, [share_group], replace=False)
        return len(ids)

    return {"updated": write(change)}
