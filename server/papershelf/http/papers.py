"""Papers: save from a page, list and search, look up a page's papers, read, edit, delete."""

from flask import Blueprint, current_app

from papershelf.http import current_user, doc, json_body, query_args
from papershelf.http.schemas import (
    LookupResultSchema,
    LookupSchema,
    PaperPageSchema,
    PaperPatchSchema,
    PaperQuerySchema,
    PaperSaveSchema,
    PaperSchema,
)
from papershelf.services import listing, page_lookup, papers
from papershelf.settings import enrichment_enabled

bp = Blueprint("api_papers", __name__, url_prefix="/api")

# Built once: marshmallow schemas are reusable and costly to build per request.
PAPER_SAVE_SCHEMA = PaperSaveSchema()
PAPER_QUERY_SCHEMA = PaperQuerySchema()
LOOKUP_SCHEMA = LookupSchema()
PAPER_PATCH_SCHEMA = PaperPatchSchema()


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
@doc(summary="List and search saved papers, newest first", query=PaperQuerySchema,
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
