"""The HTTP API: one blueprint per resource. Views parse, call one service, present."""

import json
import re

from flask import current_app, g, request

from papershelf.http.errors import BadRequest, UnsupportedMediaType, ValidationFailed


def _reject_constant(name):
    raise ValueError(f"{name} is not JSON")


_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
UNSTORABLE_TEXT = "must not contain NUL characters or unpaired UTF-16 surrogates"


def unstorable(text: str) -> bool:
    """Text that no store keeps: NUL (PostgreSQL refuses it) or a lone surrogate (not UTF-8)."""
    return _UNSTORABLE.search(text) is not None


def _unstorable_paths(data) -> dict:
    """{dotted path: [message]} for every string (key or value) in ``data`` that is unstorable."""
    found, stack = {}, [("", data)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, str):
            if unstorable(value):
                found[path or "_schema"] = [UNSTORABLE_TEXT]
        elif isinstance(value, dict):
            for key, item in value.items():
                where = f"{path}.{key}" if path else str(key)
                if unstorable(key):
                    found[path or "_schema"] = [UNSTORABLE_TEXT]
                stack.append((where, item))
        elif isinstance(value, list):
            stack.extend((f"{path}.{i}" if path else str(i), item) for i, item in enumerate(value))
    return found


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
    if b"\\u" in raw:  # NUL and surrogates can only arrive escaped (raw ones fail to parse)
        bad = _unstorable_paths(data)
        if bad:
            raise ValidationFailed(fields=bad)
    return schema.load(data, partial=partial)


def query_args(schema) -> dict:
    args = {}
    for key in request.args:
        values = request.args.getlist(key)
        if unstorable(key) or any(unstorable(v) for v in values):
            raise ValidationFailed(fields={key: [UNSTORABLE_TEXT]})
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
