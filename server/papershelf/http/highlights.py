"""Highlights: add to a paper's abstract or title, recolour or comment, delete."""

from flask import Blueprint

from papershelf.http import current_user, doc, json_body
from papershelf.http.schemas import HighlightInSchema, HighlightPatchSchema, HighlightSchema
from papershelf.services import highlights
from papershelf.store.records import highlight_record

bp = Blueprint("api_highlights", __name__, url_prefix="/api")

# Built once: marshmallow schemas are reusable and costly to build per request.
HIGHLIGHT_IN_SCHEMA = HighlightInSchema()
HIGHLIGHT_PATCH_SCHEMA = HighlightPatchSchema()


@bp.post("/papers/<id:paper_id>/highlights")
@doc(summary="Highlight a quote in a paper's abstract or title", body=HighlightInSchema,
     responses={201: HighlightSchema, 200: HighlightSchema})
def add_highlight(paper_id):
    h, created = highlights.add_highlight(current_user(), paper_id,
                                          json_body(HIGHLIGHT_IN_SCHEMA))
    return highlight_record(h), 201 if created else 200


@bp.patch("/highlights/<id:highlight_id>")
@doc(summary="Change a highlight's colour or comment", body=HighlightPatchSchema,
     responses={200: HighlightSchema})
def update_highlight(highlight_id):
    data = json_body(HIGHLIGHT_PATCH_SCHEMA)
    return highlight_record(highlights.update_highlight(current_user(), highlight_id, data))


@bp.delete("/highlights/<id:highlight_id>")
@doc(summary="Delete a highlight", responses={204: None})
def delete_highlight(highlight_id):
    highlights.delete_highlight(current_user(), highlight_id)
    return "", 204
