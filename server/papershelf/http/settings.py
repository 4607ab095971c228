"""The user's settings: the citation-key formula, and re-keying papers after changing it."""

from flask import Blueprint
from marshmallow import fields, validate

from papershelf.http import current_user, doc, json_body
from papershelf.http.schemas import StrictSchema
from papershelf.services import citekeys

bp = Blueprint("api_settings", __name__, url_prefix="/api")


class SettingsPatchSchema(StrictSchema):
    citekey_format = fields.String(
        allow_none=True, required=True, validate=validate.Length(max=200),
        metadata={"description": "a key formula such as [auth][year][shorttitle]; null: the "
                                 "default"})


class SettingsSchema(StrictSchema):
    citekey_format = fields.String(required=True)
    citekey_default = fields.String(required=True)


class RekeySchema(StrictSchema):
    rekeyed = fields.Integer(required=True)


SETTINGS_PATCH = SettingsPatchSchema()


@bp.get("/settings")
@doc(summary="The user's settings", responses={200: SettingsSchema})
def get_settings():
    return citekeys.settings_record(current_user())


@bp.patch("/settings")
@doc(summary="Set the citation-key formula (keys not fixed yet follow it)",
     body=SettingsPatchSchema, responses={200: SettingsSchema})
def patch_settings():
    citekeys.set_formula(current_user(), json_body(SETTINGS_PATCH)["citekey_format"])
    return citekeys.settings_record(current_user())


@bp.post("/settings/rekey")
@doc(summary="Give every paper whose key the user did not set the key the formula makes",
     responses={200: RekeySchema})
def rekey():
    return {"rekeyed": citekeys.rekey(current_user())}
