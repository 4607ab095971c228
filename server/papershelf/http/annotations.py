"""Notes and highlights: add to a paper, edit, delete."""

from flask import Blueprint

from papershelf.http import current_user, doc, json_body
from papershelf.http.schemas import (
    HighlightInSchema,
    HighlightPatchSchema,
    HighlightSchema,
    NoteInSchema,
    NoteSchema,
)
from papershelf.services import annotations

bp = Blueprint("api_annotations", __name__, url_prefix="/api")

# Built once: marshmallow schemas are reusable and costly to build per request.
NOTE_IN_SCHEMA = NoteInSchema()
NOTE_EDIT_SCHEMA = NoteInSchema(exclude=("client_id",))
HIGHLIGHT_IN_SCHEMA = HighlightInSchema()
HIGHLIGHT_PATCH_SCHEMA = HighlightPatchSchema()


def _added(kind, paper_id, schema):
    record, created = annotations.add(kind, current_user(), paper_id, json_body(schema))
    return record, 201 if created else 200


def _updated(kind, row_id, schema):
    return annotations.update(kind, current_user(), row_id, json_body(schema))


def _deleted(kind, row_id):
    annotations.delete(kind, current_user(), row_id)
    return "", 204


@bp.post("/papers/<id:paper_id>/notes")
@doc(summary="Add a note (Markdown) to a paper", body=NoteInSchema,
     responses={201: NoteSchema, 200: NoteSchema})
def add_note(paper_id):
    return _added("note", paper_id, NOTE_IN_SCHEMA)


@bp.patch("/notes/<id:note_id>")
@doc(summary="Edit a note", body=NoteInSchema, responses={200: NoteSchema})
def update_note(note_id):
    return _updated("note", note_id, NOTE_EDIT_SCHEMA)


@bp.delete("/notes/<id:note_id>")
@doc(summary="Delete a note", responses={204: None})
def delete_note(note_id):
    return _deleted("note", note_id)


@bp.post("/papers/<id:paper_id>/highlights")
@doc(summary="Highlight a quote in a paper's title, abstract or full text", body=HighlightInSchema,
     responses={201: HighlightSchema, 200: HighlightSchema})
def add_highlight(paper_id):
    return _added("highlight", paper_id, HIGHLIGHT_IN_SCHEMA)


@bp.patch("/highlights/<id:highlight_id>")
@doc(summary="Change a highlight's colour or comment", body=HighlightPatchSchema,
     responses={200: HighlightSchema})
def update_highlight(highlight_id):
    return _updated("highlight", highlight_id, HIGHLIGHT_PATCH_SCHEMA)


@bp.delete("/highlights/<id:highlight_id>")
@doc(summary="Delete a highlight", responses={204: None})
def delete_highlight(highlight_id):
    return _deleted("highlight", highlight_id)
