"""API tokens: ``/api/tokens`` lists the user's tokens (never a secret), creates one (its
secret answered once) and revokes one."""

from flask import Blueprint
from marshmallow import Schema, fields, validate

from papershelf.http import current_user, doc, json_body
from papershelf.http.schemas import StrictSchema
from papershelf.services import auth

bp = Blueprint("api_tokens", __name__, url_prefix="/api")


class TokenInSchema(StrictSchema):
    name = fields.String(load_default="", validate=validate.Length(max=auth.TOKEN_NAME_MAX))
    expires_in_days = fields.Integer(
        allow_none=True, load_default=None,
        validate=validate.Range(min=1, max=auth.EXPIRY_DAYS_MAX),
        metadata={"description": "null or absent: the token never expires"})


class TokenSchema(Schema):
    id = fields.Integer(required=True)
    name = fields.String(required=True)
    created_at = fields.String(required=True)
    last_used_at = fields.String(required=True, allow_none=True,
                                 metadata={"description": "to the minute"})
    expires_at = fields.String(required=True, allow_none=True)
    state = fields.String(required=True, metadata={"description": "active, expired or revoked"})


class NewTokenSchema(TokenSchema):
    token = fields.String(required=True, metadata={
        "description": "the secret: shown this once, never again"})


class TokenListSchema(Schema):
    items = fields.List(fields.Nested(TokenSchema), required=True)


TOKEN_IN = TokenInSchema()


@bp.get("/tokens")
@doc(summary="Your API tokens: name, created, last used, expiry (never the secret)",
     responses={200: TokenListSchema})
def list_tokens():
    return {"items": [auth.token_record(t) for t in auth.list_tokens(current_user())]}


@bp.post("/tokens")
@doc(summary="Create a token; its secret is in this answer only", body=TokenInSchema,
     responses={201: NewTokenSchema})
def create_token():
    data = json_body(TOKEN_IN)
    row, secret = auth.create_named_token(current_user(), data["name"], data["expires_in_days"])
    return {**auth.token_record(row), "token": secret}, 201


@bp.delete("/tokens/<id:token_id>")
@doc(summary="Revoke a token: it and the sessions signed in with it stop working",
     responses={204: None})
def revoke_token(token_id):
    auth.revoke_token_id(current_user(), token_id)
    return "", 204
