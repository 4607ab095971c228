"""A user's tags as a whole: their counts, renaming, merging one into another, deleting. The
topics of the pages papers were saved from are apart (``listing.topic_counts``): a page's, not
the user's, they are neither renamed nor deleted here."""

from peewee import fn

from papershelf.domain.errors import NotFound
from papershelf.services import listing, search
from papershelf.store import papers as queries
from papershelf.store.db import write
from papershelf.store.models import Paper, PaperTag, Tag, User, utcnow


def tags_record(user: User) -> dict:
    """``{"tags": [{"name", "count"}], "topics": [{"name", "count"}]}``, the most used first."""
    return {"tags": [{"name": n, "count": c} for n, c in listing.tag_counts(user)],
            "topics": [{"name": n, "count": c} for n, c in listing.topic_counts(user, most=1000)]}


def _touch(paper_ids: list[int]) -> None:
    """The papers' tags changed: their search documents and ``updated_at`` follow."""
    ids = sorted(set(paper_ids))
    now = utcnow()
    for i in range(0, len(ids), 500):
        Paper.update(updated_at=now).where(Paper.id.in_(ids[i:i + 500])).execute()
    search.reindex_many(queries.papers_of(ids))


def _named(user: User, name: str) -> list[Tag]:
    """The user's tags of this name in any case (BibTeX and people take them for one), oldest
    first."""
    found = list(Tag.select().where((Tag.user == user) & (fn.LOWER(Tag.name) == name.lower()))
                 .order_by(Tag.id))
    if not found:
        raise NotFound("no such tag")
    return found


def _move_links(source: Tag, target: Tag) -> list[int]:
    """Every paper tagged ``source`` is tagged ``target`` instead (once); answers their ids."""
    papers = [pid for (pid,) in PaperTag.select(PaperTag.paper).where(PaperTag.tag == source)
              .tuples()]
    both = [pid for (pid,) in PaperTag.select(PaperTag.paper)
            .where((PaperTag.tag == target) & PaperTag.paper.in_(papers)).tuples()]
    if both:
        PaperTag.delete().where((PaperTag.tag == source) & PaperTag.paper.in_(both)).execute()
    PaperTag.update(tag=target).where(PaperTag.tag == source).execute()
    source.delete_instance()
    return papers


def rename_tag(user: User, name: str, new_name: str) -> dict:
    """Rename the tag (all its spellings by case); to the name of another tag of the user's,
    merge it into that one (each paper keeps one, where the first stood). Answers
    ``{"name", "count"}``."""
    def rename():
        olds = _named(user, name)
        old_ids = {t.id for t in olds}
        target = next((t for t in Tag.select().where(
            (Tag.user == user) & (fn.LOWER(Tag.name) == new_name.lower())).order_by(Tag.id)
            if t.id not in old_ids), None)
        papers = []
        if target is None:
            target = olds.pop(0)
            papers += [pid for (pid,) in PaperTag.select(PaperTag.paper)
                       .where(PaperTag.tag == target).tuples()]
            target.name = new_name  # also a change of case only
            target.save()
        for old in olds:
            papers += _move_links(old, target)
        _touch(papers)
        return {"name": target.name, "count": PaperTag.select().where(PaperTag.tag == target).count()}

    return write(rename)


def delete_tag(user: User, name: str) -> None:
    """Remove the tag from every paper; the papers stay."""
    def delete():
        papers = []
        for tag in _named(user, name):
            papers += [pid for (pid,) in PaperTag.select(PaperTag.paper)
                       .where(PaperTag.tag == tag).tuples()]
            tag.delete_instance()  # its links go by ON DELETE CASCADE
        _touch(papers)

    write(delete)
