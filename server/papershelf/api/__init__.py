"""The HTTP API: one blueprint per resource. Views parse, call one service, present."""

import json

from flask import current_app, g, request

from papershelf.errors import BadRequest, UnsupportedMediaType, ValidationFailed


def _reject_constant(name):
    raise ValueError(f"{name} is not JSON")


def json_body(schema, *, partial=False) -> dict:
    """The request's JSON object, validated by ``schema`` (errors are raised, not returned)."""
    mimetype = request.mimetype or ""
    if mimetype != "application/json" and not (
        mimetype.startswith("application/") and mimetype.endswith("+json")
    ):
        raise UnsupportedMediaType()
    request.max_content_length = current_app.config["JSON_MAX_BYTES"]
    raw = request.get_data(cache=True)  # over the limit: 413 from werkzeug
    try:
        data = json.loads(raw.decode("utf-8"), parse_constant=_reject_constant)
    except (ValueError, UnicodeDecodeError, RecursionError) as e:
        raise BadRequest(f"the request body is not valid JSON: {str(e)[:200]}") from e
    if not isinstance(data, dict):
        raise ValidationFailed("the request body must be a JSON object",
                               fields={"_schema": ["Invalid input type."]})
    return schema.load(data, partial=partial)


def query_args(schema) -> dict:
    args = {}
    for key in request.args:
        values = request.args.getlist(key)
        args[key] = values[0] if len(values) == 1 else values
    return schema.load(args)


def current_user():
    return g.user


def doc(**info):
    """Describe a view for the OpenAPI document: summary, body, query, responses {status: schema}."""

    def wrap(view):
        view._openapi = info
        return view

    return wrap
