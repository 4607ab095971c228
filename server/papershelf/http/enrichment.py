"""POST /api/papers/<id>/enrich: complete a paper from arXiv again, now (answers 202)."""

from flask import Blueprint, current_app

from papershelf.domain.errors import Conflict, Invalid
from papershelf.http import current_user, doc
from papershelf.http.schemas import PaperSchema
from papershelf.services import enrichment, papers
from papershelf.settings import enrichment_enabled

bp = Blueprint("api_enrichment", __name__, url_prefix="/api")


@bp.post("/papers/<id:paper_id>/enrich")
@doc(summary="Queue a paper for completion from the arXiv API (202; its state is pending)",
     responses={202: PaperSchema, 409: "Error"})
def enrich_paper(paper_id):
    paper = papers.get_paper(current_user(), paper_id)
    if not enrichment_enabled(current_app.config):
        raise Conflict("enrichment from arXiv is switched off on this server")
    if not paper.arxiv_id:
        raise Invalid("the paper has no arXiv id",
                      fields={"arxiv_id": ["needed to complete a paper from arXiv"]})
    paper = enrichment.queue(paper)
    current_app.extensions["papershelf_enricher"].wake()
    return papers.paper_detail(paper), 202
