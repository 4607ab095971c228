"""Notes: add to a paper, edit, delete."""

from flask import Blueprint

from papershelf.http import current_user, doc, json_body
from papershelf.http.schemas import NoteInSchema, NoteSchema
from papershelf.services import notes
from papershelf.store.records import note_record

bp = Blueprint("api_notes", __name__, url_prefix="/api")

# Built once: marshmallow schemas are reusable and costly to build per request.
NOTE_IN_SCHEMA = NoteInSchema()
NOTE_EDIT_SCHEMA = NoteInSchema(exclude=("client_id",))


@bp.post("/papers/<id:paper_id>/notes")
@doc(summary="Add a note (Markdown) to a paper", body=NoteInSchema,
     responses={201: NoteSchema, 200: NoteSchema})
def add_note(paper_id):
    note, created = notes.add_note(current_user(), paper_id, json_body(NOTE_IN_SCHEMA))
    return note_record(note), 201 if created else 200


@bp.patch("/notes/<id:note_id>")
@doc(summary="Edit a note", body=NoteInSchema, responses={200: NoteSchema})
def update_note(note_id):
    data = json_body(NoteInSchema(exclude=("client_id",)))
    return note_record(notes.update_note(current_user(), note_id, data))


@bp.delete("/notes/<id:note_id>")
@doc(summary="Delete a note", responses={204: None})
def delete_note(note_id):
    notes.delete_note(current_user(), note_id)
    return "", 204
