"""Every JSON answer the API gives has exactly the shape /api/openapi.json describes for it.

The description comes from the response schemas; the answers come from the store's records
(``store.records``; on PostgreSQL a page lookup builds its notes and highlights in SQL). This
test holds the two together on both stores: types by an OpenAPI 3.0 validator, and keys exactly
(every documented field present unless the schema lists the required ones, nothing
undocumented), object by object.
"""

import re

import pytest
from openapi_schema_validator import OAS30Validator, validate


@pytest.fixture
def spec(client):
    return client.get("/api/openapi.json").json


def _resolve(spec, schema):
    while "$ref" in schema:
        schema = spec["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    if "allOf" in schema and len(schema["allOf"]) == 1:
        return _resolve(spec, schema["allOf"][0])
    return schema


def assert_same_keys(spec, schema, value, where="answer"):
    schema = _resolve(spec, schema)
    if value is None:
        return
    if schema.get("type") == "array" or "items" in schema:
        for i, item in enumerate(value):
            assert_same_keys(spec, schema.get("items", {}), item, f"{where}[{i}]")
    elif "properties" in schema:
        # Nothing undocumented; every field present unless the schema names which are required.
        documented = set(schema["properties"])
        required = set(schema.get("required", documented))
        assert set(value) <= documented, (where, sorted(set(value) - documented))
        assert required <= set(value), (where, sorted(required - set(value)))
        for key, item in value.items():
            assert_same_keys(spec, schema["properties"][key], item, f"{where}.{key}")
    elif isinstance(schema.get("additionalProperties"), dict):
        for key, item in value.items():
            assert_same_keys(spec, schema["additionalProperties"], item, f"{where}[{key!r}]")


def check(spec, method, url, response):
    path = re.sub(r"/\d+(?=/|$)", "/{id}", url.split("?")[0])
    operations = next((ops for documented, ops in spec["paths"].items()
                       if re.sub(r"\{\w+\}", "{id}", documented) == path), None)
    assert operations is not None, f"{url} is not in the description"
    responses = operations[method.lower()]["responses"]
    assert str(response.status_code) in responses, (method, url, response.status_code)
    schema = responses[str(response.status_code)]["content"]["application/json"]["schema"]
    body = response.json
    validate(body, {**schema, "components": spec["components"]}, cls=OAS30Validator)
    assert_same_keys(spec, schema, body)
    return body


def test_every_answer_has_its_documented_shape(client, alice, spec, paper_data):
    calls = []

    def call(method, url, **kwargs):
        response = client.open(url, method=method, headers=alice, **kwargs)
        calls.append((method, url, response.status_code))
        return check(spec, method, url, response)

    paper = call("POST", "/api/papers", json={**paper_data, "tags": ["rl", "agents"]})
    pid = paper["id"]
    assert call("POST", "/api/papers", json=paper_data)["id"] == pid  # 200: merged
    note = call("POST", f"/api/papers/{pid}/notes", json={"body": "A *note* with <script>x</script>"})
    call("PATCH", f"/api/notes/{note['id']}", json={"body": "edited 🙂"})
    hl = call("POST", f"/api/papers/{pid}/highlights",
              json={"exact": "reasoning", "start": 50, "end": 59, "prefix": "exhibit strong ",
                    "suffix": " and", "color": "green", "comment": "key claim"})
    call("PATCH", f"/api/highlights/{hl['id']}", json={"color": "blue"})
    call("GET", f"/api/papers/{pid}")
    call("PATCH", f"/api/papers/{pid}", json={"title": "Edited {Title} with 100%"})
    call("GET", "/api/papers?limit=1")
    call("GET", "/api/papers?q=reasoning&sort=published")
    found = call("POST", "/api/papers/lookup",
                 json={"arxiv_ids": [paper_data["arxiv_id"], "not-an-id"], "urls": []})
    entry = found["papers"][paper_data["arxiv_id"]]
    assert [n["body"] for n in entry["notes"]] == ["edited 🙂"]
    assert [h["color"] for h in entry["highlights"]] == ["blue"]
    call("POST", f"/api/papers/{pid}/enrich")  # 409: enrichment is off in the tests
    feed = call("POST", "/api/feeds", json={"format": "ris", "tag": "rl"})
    assert [f["id"] for f in call("GET", "/api/feeds")["items"]] == [feed["id"]]
    call("GET", "/api/health")
    call("POST", "/api/import?format=bibtex", data="@misc{k, title = {T}}",
         content_type="application/x-bibtex")
    # errors have their documented shape too
    call("GET", "/api/papers/999999")
    call("POST", "/api/papers", json={"title": ""})
    call("POST", "/api/papers", data="{not json", content_type="application/json")
    statuses = {status for _, _, status in calls}
    assert {200, 201, 400, 404, 409, 422} <= statuses
