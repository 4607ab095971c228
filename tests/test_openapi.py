"""/api/openapi.json: a valid OpenAPI 3 description of every route, generated from the schemas."""

import re

from openapi_spec_validator import validate


def test_openapi_is_valid_and_public(client):
    r = client.get("/api/openapi.json")
    assert r.status_code == 200
    validate(r.json)


def test_every_api_route_is_described(client, app):
    spec = client.get("/api/openapi.json").json
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/"):
            continue
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            assert method.lower() in spec["paths"][path], (method, path)


def test_request_bodies_come_from_the_marshmallow_schemas(client):
    spec = client.get("/api/openapi.json").json
    body = spec["paths"]["/api/papers"]["post"]["requestBody"]["content"]["application/json"]
    ref = body["schema"]["$ref"].rsplit("/", 1)[1]
    schema = spec["components"]["schemas"][ref]
    # A save needs a title or an arXiv id (a PDF tab): the schema says so in words.
    assert "title" not in schema.get("required", [])
    assert "arxiv_id" in schema["properties"]["title"]["description"]
    assert schema["properties"]["title"]["maxLength"] == 1000
    assert schema["properties"]["authors"]["maxItems"] == 2000
    assert schema["additionalProperties"] is False
    errors = spec["paths"]["/api/papers"]["post"]["responses"]["422"]
    assert errors["content"]["application/json"]["schema"]["$ref"].endswith("/Error")


def test_identities_are_described(client):
    spec = client.get("/api/openapi.json").json
    schemas = spec["components"]["schemas"]

    def body(path):
        content = spec["paths"][path]["post"]["requestBody"]["content"]["application/json"]
        return schemas[content["schema"]["$ref"].rsplit("/", 1)[1]]

    ids = body("/api/papers/lookup")["properties"]["ids"]
    assert ids["type"] == "array" and ids["maxItems"] == 1000
    assert "doi:" in ids["description"] and "as asked" in ids["description"]
    assert "pdf_url" in body("/api/papers")["properties"]
    assert "pdf_url" in schemas["Paper"]["properties"]
