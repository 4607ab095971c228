"""The user's settings: the citation-key formula (with a preview of what it makes and of what a
re-key would change), re-keying papers after changing it, and the export defaults."""

from flask import Blueprint
from marshmallow import fields, validate

from papershelf.http import current_user, doc, json_body
from papershelf.http.schemas import StrictSchema
from papershelf.services import citekeys, settings

bp = Blueprint("api_settings", __name__, url_prefix="/api")

_FORMULA = {"description": "a key formula such as [auth][year][shorttitle]; null: the default"}


class ExportDefaultsSchema(StrictSchema):
    abstract = fields.Boolean(truthy={True}, falsy={False},
                              metadata={"description": "exports carry abstracts"})
    notes_field = fields.String(validate=validate.OneOf(["annote", "note"]),
                                metadata={"description": "the BibTeX field notes go in"})
    encoding = fields.String(validate=validate.OneOf(["latex", "utf8"]))
    cite = fields.String(validate=validate.OneOf(["published", "preprint"]), metadata={
        "description": "which version an export cites by default"})


class SettingsPatchSchema(StrictSchema):
    citekey_format = fields.String(allow_none=True, validate=validate.Length(max=200),
                                   metadata=_FORMULA)
    export = fields.Nested(ExportDefaultsSchema, metadata={
        "description": "what an export does where its query says nothing"})


class SettingsSchema(StrictSchema):
    citekey_format = fields.String(required=True)
    citekey_default = fields.String(required=True)
    export = fields.Nested(ExportDefaultsSchema, required=True)


class RekeySchema(StrictSchema):
    rekeyed = fields.Integer(required=True)


class PreviewRequestSchema(StrictSchema):
    citekey_format = fields.String(allow_none=True, load_default=None,
                                   validate=validate.Length(max=200), metadata=_FORMULA)
    rekey = fields.Boolean(load_default=False, truthy={True}, falsy={False}, metadata={
        "description": "also list every key a re-key with this formula would change"})


class KeyExampleSchema(StrictSchema):
    id = fields.Integer(required=True)
    title = fields.String(required=True)
    key = fields.String(required=True, metadata={"description": "its key now"})
    formula_key = fields.String(required=True, metadata={
        "description": "the key the formula makes of it (before a clash suffix)"})
    pinned = fields.Boolean(required=True, metadata={"description": "set by the user: kept"})


class KeyChangeSchema(StrictSchema):
    id = fields.Integer(required=True)
    title = fields.String(required=True)
    old = fields.String(required=True)
    new = fields.String(required=True)


class PreviewSchema(StrictSchema):
    citekey_format = fields.String(required=True)
    examples = fields.List(fields.Nested(KeyExampleSchema), required=True)
    changes = fields.List(fields.Nested(KeyChangeSchema), metadata={
        "description": "with rekey: what POST /api/settings/rekey would change (nothing is "
                       "changed by the preview)"})


SETTINGS_PATCH = SettingsPatchSchema()
PREVIEW_REQUEST = PreviewRequestSchema()


@bp.get("/settings")
@doc(summary="The user's settings", responses={200: SettingsSchema})
def get_settings():
    return settings.settings_record(current_user())


@bp.patch("/settings")
@doc(summary="Set the citation-key formula (keys not fixed yet follow it) and export defaults",
     body=SettingsPatchSchema, responses={200: SettingsSchema})
def patch_settings():
    return settings.update_settings(current_user(), json_body(SETTINGS_PATCH))


@bp.post("/settings/preview")
@doc(summary="What a key formula makes of your newest papers, and what a re-key would change",
     body=PreviewRequestSchema, responses={200: PreviewSchema})
def preview():
    data = json_body(PREVIEW_REQUEST)
    return settings.preview(current_user(), data["citekey_format"], rekey=data["rekey"])


@bp.post("/settings/rekey")
@doc(summary="Give every paper whose key the user did not set the key the formula makes",
     responses={200: RekeySchema})
def rekey():
    return {"rekeyed": citekeys.rekey(current_user())}
