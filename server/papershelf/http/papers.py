"""Papers: save from a page, list and search, look up a page's papers, read, edit, delete."""

from flask import Blueprint, current_app

from papershelf.domain.errors import NotFound
from papershelf.domain.validation import TAG_LEN
from papershelf.http import current_user, doc, json_body, query_args, unstorable
from papershelf.http.schemas import (
    BulkPatchSchema,
    BulkResultSchema,
    DeletedSchema,
    DuplicatesSchema,
    IdsSchema,
    LookupResultSchema,
    LookupSchema,
    MergeSchema,
    PaperPageSchema,
    PaperPatchSchema,
    PaperQuerySchema,
    PaperSaveSchema,
    PaperSchema,
    RestoredSchema,
    TagCountSchema,
    TagPatchSchema,
    TagsSchema,
)
from papershelf.services import duplicates, listing, page_lookup, papers, tags, trash
from papershelf.settings import enrichment_enabled

bp = Blueprint("api_papers", __name__, url_prefix="/api")

# Built once: marshmallow schemas are reusable and costly to build per request.
PAPER_SAVE_SCHEMA = PaperSaveSchema()
PAPER_QUERY_SCHEMA = PaperQuerySchema()
LOOKUP_SCHEMA = LookupSchema()
PAPER_PATCH_SCHEMA = PaperPatchSchema()
BULK_PATCH_SCHEMA = BulkPatchSchema()
IDS_SCHEMA = IdsSchema()
MERGE_SCHEMA = MergeSchema()
TAG_PATCH_SCHEMA = TagPatchSchema()


def _wake_enrichment():
    for name in ("papershelf_enricher", "papershelf_resolver"):  # arXiv, then the catalogues
        worker = current_app.extensions.get(name)
        if worker is not None:
            worker.wake()


@bp.post("/papers")
@doc(summary="Save a paper (201 new, 200 already saved and merged)", body=PaperSaveSchema,
     responses={201: PaperSchema, 200: PaperSchema})
def create_paper():
    data = json_body(PAPER_SAVE_SCHEMA)
    paper, created = papers.save_paper(
        current_user(), data, enrich=enrichment_enabled(current_app.config))
    if paper.enrichment == "pending":
        _wake_enrichment()
    return papers.paper_detail(paper), 201 if created else 200


@bp.get("/papers")
@doc(summary="List, filter, sort and search saved papers (a page, with the total count)",
     query=PaperQuerySchema,
     responses={200: PaperPageSchema})
def list_papers():
    args = query_args(PAPER_QUERY_SCHEMA)
    return listing.list_papers(current_user(), **args)


@bp.post("/papers/lookup")
@doc(summary="Which of a page's papers are saved (one call per page)", body=LookupSchema,
     responses={200: LookupResultSchema})
def lookup():
    data = json_body(LOOKUP_SCHEMA)
    return page_lookup.saved_papers_on_page(current_user(), data["arxiv_ids"], data["urls"],
                                            data["ids"])


@bp.get("/papers/<id:paper_id>")
@doc(summary="A paper with its notes and highlights", responses={200: PaperSchema})
def get_paper(paper_id):
    return papers.paper_detail(papers.get_paper(current_user(), paper_id))


@bp.patch("/papers/<id:paper_id>")
@doc(summary="Edit a paper; edited fields are never overwritten by a page save",
     body=PaperPatchSchema, responses={200: PaperSchema})
def update_paper(paper_id):
    data = json_body(PAPER_PATCH_SCHEMA, partial=True)
    paper = papers.update_paper(current_user(), paper_id, data,
                                enrich=enrichment_enabled(current_app.config))
    if paper.enrichment == "pending":
        _wake_enrichment()
    return papers.paper_detail(paper)


@bp.delete("/papers/<id:paper_id>")
@doc(summary="Delete a paper with its notes and highlights", responses={204: None})
def delete_paper(paper_id):
    papers.delete_paper(current_user(), paper_id)
    return "", 204


@bp.patch("/papers")
@doc(summary="Change many papers in one transaction: reading state, star, tags added or "
             "removed, a group share (all or none)",
     body=BulkPatchSchema, responses={200: BulkResultSchema})
def bulk_update():
    data = json_body(BULK_PATCH_SCHEMA)
    return papers.bulk_update(current_user(), data["ids"], set_fields=data["set"],
                              add_tags=data["add_tags"], remove_tags=data["remove_tags"],
                              share_group=data.get("share_group"))


@bp.delete("/papers")
@doc(summary="Delete many papers in one transaction; POST /api/papers/restore with their ids "
             "brings them back for an hour",
     body=IdsSchema, responses={200: DeletedSchema})
def bulk_delete():
    return trash.delete_papers(current_user(), json_body(IDS_SCHEMA)["ids"])


@bp.post("/papers/restore")
@doc(summary="Restore papers deleted within the last hour, with their notes, highlights, tags "
             "and shares (and their ids)",
     body=IdsSchema, responses={200: RestoredSchema})
def restore():
    return trash.restore_papers(current_user(), json_body(IDS_SCHEMA)["ids"])


@bp.post("/papers/<id:paper_id>/merge")
@doc(summary="Merge another paper into this one: its notes, highlights, tags, shares and the "
             "fields this one lacks come over; its key becomes an alias; it is deleted",
     body=MergeSchema, responses={200: PaperSchema})
def merge(paper_id):
    other = json_body(MERGE_SCHEMA)["other"]
    return papers.paper_detail(duplicates.merge_papers(current_user(), paper_id, other))


@bp.get("/duplicates")
@doc(summary="Papers that are one work: by arXiv id, DOI, or title + first author + year",
     responses={200: DuplicatesSchema})
def list_duplicates():
    return {"groups": duplicates.find_duplicates(current_user())}


@bp.get("/tags")
@doc(summary="Your tags with how many papers carry each (the most used first), and the "
             "pages' topics apart", responses={200: TagsSchema})
def list_tags():
    return tags.tags_record(current_user())


def _tag_name(name: str) -> str:
    """A tag's name from the path: one no store can hold (a NUL, a lone surrogate) is no tag."""
    if unstorable(name) or len(name) > TAG_LEN:
        raise NotFound("no such tag")
    return name


@bp.patch("/tags/<path:name>")
@doc(summary="Rename a tag; to another tag's name: merge the two",
     body=TagPatchSchema, responses={200: TagCountSchema})
def rename_tag(name):
    return tags.rename_tag(current_user(), _tag_name(name), json_body(TAG_PATCH_SCHEMA)["name"])


@bp.delete("/tags/<path:name>")
@doc(summary="Remove a tag from every paper (the papers stay)", responses={204: None})
def delete_tag(name):
    tags.delete_tag(current_user(), _tag_name(name))
    return "", 204
