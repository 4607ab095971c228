"""A user's tags as a whole: their counts, renaming, merging one into another, deleting. The
topics of the pages papers were saved from are apart (``listing.topic_counts``): a page's, not
the user's, they are neither renamed nor deleted here."""

from peewee import fn

from papershelf.domain.errors import NotFound
from papershelf.services import listing, search
from papershelf.store.db import write
from papershelf.store.models import Paper, PaperTag, Tag, User, utcnow


def tags_record(user: User) -> dict:
    """``{"tags": [{"name", "count"}], "topics": [{"name", "count"}]}``, the most used first."""
    return {"tags": [{"name": n, "count": c} for n, c in listing.tag_counts(user)],
            "topics": [{"name": n, "count": c} for n, c in listing.topic_counts(user, most=1000)]}


def _tag(user: User, name: str) -> Tag:
    tag = Tag.get_or_none((Tag.user == user) & (fn.LOWER(Tag.name) == name.lower()))
    if tag is None:
        raise NotFound("no such tag")
    return tag


def _touch(paper_ids: list[int]) -> None:
    """The papers' tags changed: their search documents and ``updated_at`` follow."""
    if paper_ids:
        Paper.update(updated_at=utcnow()).where(Paper.id.in_(paper_ids)).execute()
    for paper in Paper.select().where(Paper.id.in_(paper_ids)):
        search.reindex(paper)


def rename_tag(user: User, name: str, new_name: str) -> dict:
    """Rename the tag; to the name of another tag of the user's, merge it into that one (each
    paper keeps one of them, where the first stood). Answers ``{"name", "count"}``."""
    def rename():
        tag = _tag(user, name)
        other = Tag.get_or_none((Tag.user == user) & (fn.LOWER(Tag.name) == new_name.lower())
                                & (Tag.id != tag.id))
        papers = [pid for (pid,) in PaperTag.select(PaperTag.paper).where(PaperTag.tag == tag)
                  .tuples()]
        if other is None:
            tag.name = new_name  # also a change of case only
            tag.save()
        else:
            both = {pid for (pid,) in PaperTag.select(PaperTag.paper)
                    .where((PaperTag.tag == other) & PaperTag.paper.in_(papers)).tuples()}
            if both:
                PaperTag.delete().where((PaperTag.tag == tag) & PaperTag.paper.in_(list(both))
                                        ).execute()
            PaperTag.update(tag=other).where(PaperTag.tag == tag).execute()
            tag.delete_instance()
            tag = other
        _touch(papers)
        count = PaperTag.select().where(PaperTag.tag == tag).count()
        return {"name": tag.name, "count": count}

    return write(rename)


def delete_tag(user: User, name: str) -> None:
    """Remove the tag from every paper; the papers stay."""
    def delete():
        tag = _tag(user, name)
        papers = [pid for (pid,) in PaperTag.select(PaperTag.paper).where(PaperTag.tag == tag)
                  .tuples()]
        tag.delete_instance()  # its links go by ON DELETE CASCADE
        _touch(papers)

    write(delete)
