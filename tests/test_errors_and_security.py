"""The error shape on every endpoint, authentication, per-user isolation, Host and CORS checks,
body limits and content types."""

import json
import re

import pytest

PUBLIC = {"/api/health", "/api/openapi.json"}


def assert_error(r, status, code):
    assert r.status_code == status, (r.status_code, r.data[:300])
    assert r.mimetype == "application/json"
    body = r.json
    assert set(body) == {"error"}
    assert body["error"]["code"] == code
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    assert set(body["error"]) <= {"code", "message", "fields"}


@pytest.fixture
def owned(client, alice):
    """alice's paper, note, highlight and feed ids."""
    p = client.post("/api/papers", json={"title": "Alice's paper", "abstract": "Secret words",
                                         "arxiv_id": "2603.11111"}, headers=alice).json
    n = client.post(f"/api/papers/{p['id']}/notes", json={"body": "alice's note"}, headers=alice).json
    h = client.post(f"/api/papers/{p['id']}/highlights",
                    json={"exact": "Secret", "start": 0, "end": 6}, headers=alice).json
    f = client.post("/api/feeds", json={"format": "bibtex"}, headers=alice).json
    g = client.post("/api/groups", json={"name": "Alice's group"}, headers=alice).json
    t = client.post("/api/tokens", json={"name": "laptop"}, headers=alice).json
    return {"paper_id": p["id"], "note_id": n["id"], "highlight_id": h["id"], "feed_id": f["id"],
            "group_id": g["id"], "token_id": t["id"], "name": "alice"}


def api_routes(app, owned):
    """(method, url) of every authenticated API route, with alice's ids filled in."""
    out = []
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/") or rule.rule in PUBLIC:
            continue
        url = re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(owned[m.group(1)]), rule.rule)
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            out.append((method, url))
    return sorted(out)


JSON_BODIES = {
    ("POST", "/api/papers"): {"title": "x"},
    ("POST", "/api/papers/lookup"): {"arxiv_ids": []},
    ("PATCH", "/api/papers/{paper_id}"): {"title": "x"},
    ("POST", "/api/papers/{paper_id}/notes"): {"body": "x"},
    ("PATCH", "/api/notes/{note_id}"): {"body": "x"},
    ("POST", "/api/papers/{paper_id}/highlights"): {"exact": "x", "start": 0, "end": 1},
    ("PATCH", "/api/highlights/{highlight_id}"): {"color": "blue"},
    ("POST", "/api/feeds"): {"format": "ris"},
    ("PATCH", "/api/settings"): {"citekey_format": "[auth][year]"},
    ("POST", "/api/groups"): {"name": "x"},
    ("POST", "/api/groups/{group_id}/members"): {"user": "bob"},
    ("POST", "/api/tokens"): {"name": "x"},
    ("PATCH", "/api/papers"): {"ids": [1], "set": {"starred": True}},
    ("POST", "/api/papers/restore"): {"ids": [1]},
    ("POST", "/api/papers/{paper_id}/merge"): {"other": 2**40},
    ("PATCH", "/api/tags/{name}"): {"name": "x"},
    ("POST", "/api/settings/preview"): {"citekey_format": "[auth]"},
}


def json_routes(owned):
    return [(m, u.format(**owned), body) for (m, u), body in JSON_BODIES.items()]


def test_every_api_route_is_covered_here(app, owned):
    """A new JSON endpoint must be added to JSON_BODIES so the checks below reach it."""
    json_methods = {(m, u.format(**owned)) for (m, u) in JSON_BODIES}
    for method, url in api_routes(app, owned):
        if method in ("POST", "PATCH") and "export" not in url and "import" not in url \
                and not url.endswith(("/enrich", "/rekey")):
            assert (method, url) in json_methods, (method, url)


@pytest.mark.parametrize("headers", [
    {},
    {"Authorization": "Bearer ps_wrong"},
    {"Authorization": "Basic YWxpY2U6cGFzcw=="},
    {"Authorization": "Bearer"},
    {"Authorization": "ps_" + "x" * 40},
    {"Authorization": "Bearer " + "x" * 5000},
])
def test_every_endpoint_refuses_a_missing_or_wrong_token(client, app, owned, headers):
    app.config["AUTH_FAILURES_PER_MINUTE"] = 1000  # more routes than the brake's default
    for method, url in api_routes(app, owned):
        r = client.open(url, method=method, headers=headers, json={})
        assert_error(r, 401, "unauthorized")


def test_another_users_rows_answer_404_and_stay_unchanged(client, app, owned, alice, bob):
    for method, url in api_routes(app, owned):
        if not any(str(owned[k]) in url.split("/") for k in owned):
            continue
        body = next((b for m, u, b in json_routes(owned) if (m, u) == (method, url)), None)
        r = client.open(url, method=method, headers=bob, json=body)
        assert_error(r, 404, "not_found")
    mine = client.get(f"/api/papers/{owned['paper_id']}", headers=alice).json
    assert mine["title"] == "Alice's paper"
    assert [n["body"] for n in mine["notes"]] == ["alice's note"]
    assert [h["color"] for h in mine["highlights"]] == ["yellow"]


def test_another_users_papers_never_appear(client, owned, bob):
    assert client.get("/api/papers", headers=bob).json["items"] == []
    assert client.get("/api/papers?q=secret", headers=bob).json["items"] == []
    r = client.post("/api/papers/lookup", json={"arxiv_ids": ["2603.11111"]}, headers=bob)
    assert r.json["papers"] == {}


def test_same_paper_saved_by_two_users_is_two_rows(client, owned, alice, bob):
    r = client.post("/api/papers", json={"title": "Bob's copy", "arxiv_id": "2603.11111"}, headers=bob)
    assert r.status_code == 201 and r.json["id"] != owned["paper_id"]
    assert client.get(f"/api/papers/{owned['paper_id']}", headers=alice).json["title"] == "Alice's paper"


def test_malformed_json_is_400(client, owned, alice):
    for method, url, _ in json_routes(owned):
        for raw in (b"{", b'{"title": }', b"\xff\xfe", b"NaN", b'{"a": NaN}', b"[" * 100_000):
            r = client.open(url, method=method, headers=alice, data=raw,
                            content_type="application/json")
            assert_error(r, 400, "bad_request")


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded",
                                          "multipart/form-data; boundary=x", None])
def test_non_json_body_is_415(client, owned, alice, content_type):
    for method, url, body in json_routes(owned):
        r = client.open(url, method=method, headers=alice, data=json.dumps(body),
                        content_type=content_type)
        assert_error(r, 415, "unsupported_media_type")


def test_json_that_is_not_an_object_is_422(client, owned, alice):
    for method, url, _ in json_routes(owned):
        for raw in ("[]", '"x"', "1", "null"):
            r = client.open(url, method=method, headers=alice, data=raw,
                            content_type="application/json")
            assert_error(r, 422, "validation_error")


def test_unknown_fields_are_validation_errors(client, owned, alice):
    for method, url, body in json_routes(owned):
        r = client.open(url, method=method, headers=alice, json={**body, "is_admin": True})
        assert_error(r, 422, "validation_error")
        assert r.json["error"]["fields"] == {"is_admin": ["Unknown field."]}


def test_a_10_mb_body_is_413_and_loses_nothing(client, owned, alice):
    big = json.dumps({"title": "x", "abstract": "a" * (10 << 20)})
    for method, url, _ in json_routes(owned):
        r = client.open(url, method=method, headers=alice, data=big, content_type="application/json")
        assert_error(r, 413, "payload_too_large")
    p = client.get(f"/api/papers/{owned['paper_id']}", headers=alice).json
    assert p["title"] == "Alice's paper" and len(p["notes"]) == 1


@pytest.mark.parametrize(("field", "value"), [
    ("title", "t" * 1001), ("abstract", "a" * 20_001), ("authors", ["a"] * 2001),
    ("tags", [f"t{i}" for i in range(101)]), ("tags", ["t" * 101]), ("title", ""),
    ("title", "   "), ("title", None), ("authors", "not a list"), ("authors_more", -1),
    ("published", "31/03/2026"), ("published", "2026-02-30"), ("arxiv_id", "2613.01234"),
    ("arxiv_id", 2603.01234), ("doi", "not-a-doi"), ("url", "javascript:alert(1)"),
    ("source_url", "file:///etc/passwd"), ("client_id", "123"), ("arxiv_version", 0),
])
def test_bad_paper_fields_are_field_errors_and_store_nothing(client, alice, field, value):
    body = {"title": "fine", field: value}
    r = client.post("/api/papers", json=body, headers=alice)
    assert_error(r, 422, "validation_error")
    assert field in r.json["error"]["fields"]
    assert client.get("/api/papers", headers=alice).json["items"] == []


@pytest.mark.parametrize("raw", [
    '{"title": "nul \\u0000 here"}',
    '{"title": "lone \\ud800 surrogate"}',
    '{"title": "fine", "tags": ["ok", "bad\\udfff"]}',
    '{"title": "fine", "authors": ["Ann \\u0000 Bee"]}',
])
def test_nul_and_lone_surrogates_in_a_body_are_field_errors(client, owned, alice, raw):
    before = client.get("/api/papers", headers=alice).json
    r = client.post("/api/papers", data=raw, content_type="application/json", headers=alice)
    assert_error(r, 422, "validation_error")
    r = client.patch(f"/api/papers/{owned['paper_id']}", data=raw, content_type="application/json",
                     headers=alice)
    assert_error(r, 422, "validation_error")
    lookup = '{"arxiv_ids": ["2603.29001\\ud800"]}'
    r = client.post("/api/papers/lookup", data=lookup, content_type="application/json",
                    headers=alice)
    assert_error(r, 422, "validation_error")
    assert client.get("/api/papers", headers=alice).json == before


@pytest.mark.parametrize("url", ["/api/papers?tag=a%00b", "/api/papers?q=%00",
                                 "/api/export?tag=a%00b", "/api/papers?topic=x%00"])
def test_nul_in_a_query_parameter_is_a_field_error(client, owned, alice, url):
    r = client.get(url, headers=alice)
    assert_error(r, 422, "validation_error")
    assert list(r.json["error"]["fields"]) == [url.split("?")[1].split("=")[0]]


def test_bad_patch_changes_nothing(client, owned, alice):
    url = f"/api/papers/{owned['paper_id']}"
    r = client.patch(url, json={"title": "new", "authors": "oops"}, headers=alice)
    assert_error(r, 422, "validation_error")
    assert client.get(url, headers=alice).json["title"] == "Alice's paper"
    r = client.patch(url, json={"citation_key": "has space"}, headers=alice)
    assert_error(r, 422, "validation_error")


@pytest.mark.parametrize(("method", "url"), [
    ("PUT", "/api/papers"), ("DELETE", "/api/papers/lookup"), ("POST", "/api/health"),
    ("GET", "/api/papers/lookup"), ("PUT", "/api/notes/1"),
])
def test_wrong_method_is_405(client, alice, method, url):
    r = client.open(url, method=method, headers=alice)
    assert_error(r, 405, "method_not_allowed")
    assert r.headers.get("Allow")


@pytest.mark.parametrize("url", ["/api/nothing-here", "/api/papers/abc", "/api/papers/99999999"])
def test_unknown_paths_are_404(client, alice, url):
    assert_error(client.get(url, headers=alice), 404, "not_found")


@pytest.mark.parametrize("host", ["evil.example", "127.0.0.1.nip.io", "localhost.evil.com",
                                  "192.168.1.5:5180", "attacker"])
def test_a_foreign_host_is_refused(client, alice, host):
    for url in ("/api/health", "/api/papers"):
        r = client.get(url, headers={**alice, "Host": host})
        assert_error(r, 403, "forbidden")


@pytest.mark.parametrize("host", ["127.0.0.1:5180", "localhost", "localhost:5180", "[::1]:5180"])
def test_loopback_hosts_are_allowed(client, host):
    assert client.get("/api/health", headers={"Host": host}).status_code == 200


def test_allowed_hosts_extend_from_settings(make_app):
    app = make_app(ALLOWED_HOSTS=["127.0.0.1", "papers.lab.example"])
    r = app.test_client().get("/api/health", headers={"Host": "papers.lab.example"})
    assert r.status_code == 200


EXT_ORIGIN = "chrome-extension://" + "abcdefghijklmnopabcdefghijklmnop"


@pytest.mark.parametrize("origin", [EXT_ORIGIN, "moz-extension://0b6e6fd2-8d3e-4b6b-9c3c-1c2d3e4f5a6b"])
def test_cors_preflight_from_an_extension_is_allowed(client, origin):
    r = client.options("/api/papers", headers={
        "Origin": origin, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type"})
    assert r.status_code == 200
    assert r.headers["Access-Control-Allow-Origin"] == origin
    assert "authorization" in r.headers["Access-Control-Allow-Headers"].lower()


@pytest.mark.parametrize("origin", ["https://evil.example", "null", "http://127.0.0.1:5180",
                                    "chrome-extension://short", "https://www.alphaxiv.org"])
def test_cors_from_a_web_origin_is_not_allowed(client, alice, origin):
    r = client.options("/api/papers", headers={"Origin": origin,
                                               "Access-Control-Request-Method": "POST"})
    assert "Access-Control-Allow-Origin" not in r.headers
    r = client.get("/api/papers", headers={**alice, "Origin": origin})
    assert "Access-Control-Allow-Origin" not in r.headers


def test_cors_never_answers_star(make_app):
    app = make_app(CORS_ORIGINS=["*"])
    r = app.test_client().options("/api/papers", headers={
        "Origin": "https://evil.example", "Access-Control-Request-Method": "POST"})
    assert r.headers.get("Access-Control-Allow-Origin") not in ("*", "https://evil.example")


def test_guessing_tokens_is_rate_limited(make_app):
    app = make_app(AUTH_FAILURES_PER_MINUTE=5)
    c = app.test_client()
    codes = [c.get("/api/papers", headers={"Authorization": f"Bearer guess{i}"}).status_code
             for i in range(7)]
    assert codes[:5] == [401] * 5
    r = c.get("/api/papers", headers={"Authorization": "Bearer guess-again"})
    assert_error(r, 429, "rate_limited")
    assert r.headers["Retry-After"]


def test_internal_errors_hide_the_traceback(make_app, caplog):
    app = make_app()

    @app.get("/api/boom")
    def boom():
        raise RuntimeError("secret detail /etc/passwd")

    app.view_functions["boom"]._openapi = None
    from papershelf.http.security import PUBLIC_ENDPOINTS

    PUBLIC_ENDPOINTS.add("boom")
    try:
        r = app.test_client().get("/api/boom")
    finally:
        PUBLIC_ENDPOINTS.discard("boom")
    assert_error(r, 500, "internal_error")
    assert "secret" not in r.get_data(as_text=True)
    assert "secret detail" in caplog.text


def test_tokens_are_stored_hashed(app, alice):
    from papershelf.store.models import ApiToken

    token = alice["Authorization"].split()[1]
    with app.extensions["papershelf_db"].connection_context():
        stored = [t.token_hash for t in ApiToken.select()]
    assert token not in stored and all(len(h) == 64 for h in stored)


def test_behind_a_tls_proxy_the_session_origin_check_sees_the_public_origin(make_app):
    from papershelf.services import auth

    app = make_app(PROXY_FIX=1, ALLOWED_HOSTS=["papers.lab.example"])
    with app.extensions["papershelf_db"].connection_context():
        user = auth.get_or_create_user("alice")
        token = auth.create_token(user)
    c = app.test_client()
    proxied = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "papers.lab.example",
               "Host": "papers.lab.example"}
    r = c.post("/signin", data={"token": token}, base_url="http://papers.lab.example",
               headers={**proxied, "Origin": "https://papers.lab.example"})
    assert r.status_code == 302, r.data[:300]
    cookie = r.headers["Set-Cookie"]
    assert "papershelf_session=" in cookie and "Secure" in cookie and "HttpOnly" in cookie
    r = c.post("/api/papers", json={"title": "x"}, base_url="http://papers.lab.example",
               headers={**proxied, "Origin": "https://papers.lab.example"})
    assert r.status_code == 201, r.json
    r = c.post("/api/papers", json={"title": "y"}, base_url="http://papers.lab.example",
               headers={**proxied, "Origin": "https://evil.example"})
    assert r.status_code == 403
