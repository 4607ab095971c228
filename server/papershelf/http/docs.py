"""GET /api/openapi.json: the OpenAPI 3 description, generated from the views' @doc and the
marshmallow schemas they name."""

import re

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from flask import Blueprint, current_app

from papershelf import __version__
from papershelf.http import doc
from papershelf.http.errors import CODES
from papershelf.http.schemas import ErrorSchema

bp = Blueprint("api_docs", __name__, url_prefix="/api")

_CONVERTER = re.compile(r"<(?:(\w+):)?(\w+)>")


def build_spec(app) -> dict:
    spec = APISpec(
        title="papershelf",
        version=__version__,
        openapi_version="3.0.3",
        plugins=[MarshmallowPlugin()],
        info={"description": "Save, annotate and cite arXiv papers. Errors share one shape."},
    )
    spec.components.security_scheme("bearer", {"type": "http", "scheme": "bearer"})
    spec.components.schema("Error", schema=ErrorSchema)
    paths: dict[str, dict] = {}
    for rule in sorted(app.url_map.iter_rules(), key=lambda r: r.rule):
        view = app.view_functions.get(rule.endpoint)
        info = getattr(view, "_openapi", None)
        if info is None:
            continue
        path = _CONVERTER.sub(lambda m: "{" + m.group(2) + "}", rule.rule)
        params = [
            {"in": "path", "name": name, "required": True,
             "schema": ({"type": "integer", "minimum": 1, "maximum": 2**63 - 1}
                        if conv in ("int", "id") else {"type": "string"})}
            for conv, name in _CONVERTER.findall(rule.rule)
        ]
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            op = {"summary": info.get("summary", ""), "operationId": rule.endpoint.split(".")[-1],
                  "responses": {}}
            if info.get("tags"):
                op["tags"] = info["tags"]
            if params or info.get("query"):
                op["parameters"] = list(params)
                if info.get("query"):
                    op["parameters"].append({"in": "query", "schema": info["query"]})
            if info.get("body") is not None:
                op["requestBody"] = {"required": True, "content": {
                    "application/json": {"schema": info["body"]}}}
            for status, schema in info.get("responses", {}).items():
                resp = {"description": "OK" if status < 300 else CODES.get(status, "")}
                if isinstance(schema, dict):  # a raw content description (files)
                    resp["content"] = schema
                elif schema is not None:
                    resp["content"] = {"application/json": {"schema": schema}}
                op["responses"][str(status)] = resp
            errors = [400, 401, 403, 404, 405, 413, 415, 422, 429]
            if info.get("auth", True) is False:
                errors = [403, 405]
            else:
                op["security"] = [{"bearer": []}]
            for status in errors + [500]:
                op["responses"].setdefault(str(status), {
                    "description": CODES[status],
                    "content": {"application/json": {"schema": "Error"}}})
            paths.setdefault(path, {})[method.lower()] = op
    for path, ops in paths.items():
        spec.path(path=path, operations=ops)
    return spec.to_dict()


@bp.get("/openapi.json")
@doc(summary="This description", responses={200: {"application/json": {"schema": {"type": "object"}}}},
     auth=False)
def openapi():
    spec = current_app.extensions.get("papershelf_openapi")
    if spec is None:
        spec = current_app.extensions["papershelf_openapi"] = build_spec(current_app)
    return spec
