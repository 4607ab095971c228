"""Groups: ``/api/groups`` (create, list, members) and a group's shelf; which groups a paper is
shared to. A group answers 404 to anyone who is not a member."""

from flask import Blueprint
from marshmallow import Schema, fields, pre_load, validate

from papershelf.domain.record import HIGHLIGHT_RECORD, NOTE_RECORD
from papershelf.http import current_user, doc, json_body, query_args
from papershelf.http.schemas import (
    QUERY_MAX,
    TAG_LEN,
    USER_NAME_MAX,
    NoteSchema,
    PaperSchema,
    SharedHighlightSchema,
    StrictSchema,
)
from papershelf.services import groups, papers

bp = Blueprint("api_groups", __name__, url_prefix="/api")


class GroupInSchema(StrictSchema):
    name = fields.String(required=True, validate=validate.Length(min=1, max=groups.NAME_MAX))


class MemberInSchema(StrictSchema):
    user = fields.String(required=True, validate=validate.Length(min=1, max=USER_NAME_MAX))


class GroupSchema(Schema):
    id = fields.Integer(required=True)
    name = fields.String(required=True)
    owner = fields.String(required=True, metadata={"description": "the owner's user name"})
    role = fields.String(required=True, metadata={"description": "owner or member: yours"})
    members = fields.List(fields.String(), required=True)
    created_at = fields.String(required=True)


class GroupListSchema(Schema):
    items = fields.List(fields.Nested(GroupSchema), required=True)


class GroupRefSchema(Schema):
    id = fields.Integer(required=True)
    name = fields.String(required=True)


class PaperGroupsSchema(Schema):
    items = fields.List(fields.Nested(GroupRefSchema), required=True)


_AUTHOR = {"description": "who wrote it: read-only to everyone else"}
GroupNoteSchema = Schema.from_dict(
    {**NoteSchema().fields, "user": fields.String(metadata=_AUTHOR)}, name="GroupNoteSchema")
assert set(NOTE_RECORD) < set(GroupNoteSchema().fields)
assert set(HIGHLIGHT_RECORD) < set(SharedHighlightSchema().fields)


class ShareSchema(Schema):
    user = fields.String(required=True)
    paper_id = fields.Integer(required=True, metadata={"description": "the sharer's paper"})
    shared_at = fields.String(required=True)


class SharedPaperSchema(PaperSchema):
    """A work on a group's shelf: the first sharer's paper, who shared it (in the order they
    shared), and every sharer's notes and highlights, each marked with its author."""

    shared_by = fields.List(fields.Nested(ShareSchema))
    notes = fields.List(fields.Nested(GroupNoteSchema), dump_only=True)
    highlights = fields.List(fields.Nested(SharedHighlightSchema), dump_only=True)


class ShelfSchema(Schema):
    group = fields.Nested(GroupSchema, required=True)
    items = fields.List(fields.Nested(SharedPaperSchema), required=True)
    next_cursor = fields.String(required=True, allow_none=True,
                                metadata={"description": "the next page's cursor; null: the last"})


class ShelfQuerySchema(StrictSchema):
    q = fields.String(validate=validate.Length(max=QUERY_MAX))
    tag = fields.String(validate=validate.Length(max=TAG_LEN),
                        metadata={"description": "any sharer's tag"})
    topic = fields.String(validate=validate.Length(max=TAG_LEN))
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))
    cursor = fields.String(validate=validate.Length(max=200))

    @pre_load
    def blank_is_absent(self, data, **kwargs):
        return {k: v for k, v in data.items() if v != ""}


GROUP_IN = GroupInSchema()
MEMBER_IN = MemberInSchema()
SHELF_QUERY = ShelfQuerySchema()


@bp.post("/groups")
@doc(summary="Create a group (you own it)", body=GroupInSchema, responses={201: GroupSchema})
def create_group():
    return groups.create_group(current_user(), json_body(GROUP_IN)["name"]), 201


@bp.get("/groups")
@doc(summary="Your groups: those you own and those you are a member of",
     responses={200: GroupListSchema})
def list_groups():
    return {"items": groups.list_groups(current_user())}


@bp.get("/groups/<id:group_id>")
@doc(summary="One of your groups", responses={200: GroupSchema})
def get_group(group_id):
    return groups.group_record(current_user(), group_id)


@bp.delete("/groups/<id:group_id>")
@doc(summary="Delete a group you own (its members' papers stay theirs)", responses={204: None})
def delete_group(group_id):
    groups.delete_group(current_user(), group_id)
    return "", 204


@bp.post("/groups/<id:group_id>/members")
@doc(summary="Add a member (owner only)", body=MemberInSchema, responses={200: GroupSchema})
def add_member(group_id):
    return groups.add_member(current_user(), group_id, json_body(MEMBER_IN)["user"])


@bp.delete("/groups/<id:group_id>/members/<name>")
@doc(summary="Remove a member (owner only), or leave; what they shared leaves with them",
     responses={204: None})
def remove_member(group_id, name):
    groups.remove_member(current_user(), group_id, name)
    return "", 204


@bp.get("/groups/<id:group_id>/papers")
@doc(summary="The group's shelf, a page at a time: each work members shared once, the latest "
     "shared first, with who shared it and their notes and highlights", query=ShelfQuerySchema,
     responses={200: ShelfSchema})
def shelf(group_id):
    return groups.shelf(current_user(), group_id, **query_args(SHELF_QUERY))


@bp.get("/papers/<id:paper_id>/groups")
@doc(summary="The groups your paper is shared to", responses={200: PaperGroupsSchema})
def paper_groups(paper_id):
    paper = papers.get_paper(current_user(), paper_id)
    return {"items": groups.paper_groups(current_user(), paper.id)}
