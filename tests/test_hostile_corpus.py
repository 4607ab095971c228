"""The hostile corpus (tests/hostile.py) against the API on both stores: every request gets its
status in the product's error shape and leaves every user's store as it was; every file is either
refused whole (422, nothing written) or imported in part with each part left out reported, the
papers already stored unchanged. Then what only a real server shows: waitress's own failures in the
error shape, and the library page's errors as pages."""

import http.client
import json
import socket

import pytest

from tests.hostile import PARTIAL_FILES, REFUSED_FILES, REQUESTS
from tests.test_errors_and_security import assert_error


@pytest.fixture
def world(app, client, alice, bob):
    """alice's and bob's shelves (a paper each, a note, a highlight, a feed) and their ids."""
    p = client.post("/api/papers", json={
        "title": "A {Braced} 100% title", "arxiv_id": "2603.11111", "abstract": "Secret words $x^2$ 🧪",
        "authors": ["Ada Lovelace"], "published": "2026-03-01", "tags": ["mine"]}, headers=alice).json
    n = client.post(f"/api/papers/{p['id']}/notes", json={"body": "<script>alert(1)</script>"},
                    headers=alice).json
    h = client.post(f"/api/papers/{p['id']}/highlights",
                    json={"exact": "Secret", "start": 0, "end": 6}, headers=alice).json
    f = client.post("/api/feeds", json={"format": "bibtex"}, headers=alice).json
    b = client.post("/api/papers", json={"title": "Bob's own", "arxiv_id": "2603.22222"},
                    headers=bob).json
    client.post(f"/api/papers/{b['id']}/notes", json={"body": "bob's note"}, headers=bob)
    return {"paper": p["id"], "note": n["id"], "highlight": h["id"], "feed": f["id"],
            "bob_paper": b["id"]}


def snapshot(app) -> dict:
    """Every user's whole shelf (the lossless backup), their settings and every table's size."""
    from papershelf.services import transfer
    from papershelf.store import models

    with app.extensions["papershelf_db"].connection_context():
        shelves = {u.name: (u.citekey_format, json.loads("".join(transfer.export_chunks(u, "json"))))
                   for u in models.User.select()}
        counts = {m.__name__: m.select().count() for m in models.ALL_MODELS
                  if m is not models.AuthFailure}
    return {"shelves": shelves, "counts": counts}


@pytest.mark.parametrize(("name", "method", "url", "body", "status", "code"), REQUESTS,
                         ids=[r[0] for r in REQUESTS])
def test_hostile_request(app, client, alice, world, name, method, url, body, status, code):
    before = snapshot(app)
    headers = {**alice}
    if body is not None:
        headers["Content-Type"] = "application/json"
    r = client.open(url.format(**world), method=method, data=body, headers=headers)
    if code is None:  # an export: it answers, and holds nothing of bob's
        assert r.status_code == status and b"Bob" not in r.data
    else:
        assert_error(r, status, code)
    assert snapshot(app) == before


@pytest.mark.parametrize("name", list(REFUSED_FILES))
def test_hostile_file_is_refused_whole(app, client, alice, world, name):
    before = snapshot(app)
    r = client.post("/api/import", data=REFUSED_FILES[name], headers=alice,
                    content_type="application/octet-stream")
    assert_error(r, 422, "validation_error")
    assert r.json["error"]["fields"]["file"], r.json
    assert snapshot(app) == before


@pytest.mark.parametrize("name", list(PARTIAL_FILES))
def test_hostile_file_imports_what_is_good_and_reports_the_rest(app, client, alice, world, name):
    data, reported = PARTIAL_FILES[name]
    before = snapshot(app)
    r = client.post("/api/import", data=data, headers=alice,
                    content_type="application/octet-stream")
    assert r.status_code == 200, r.data[:400]
    report = r.json
    assert report["errors"] and reported in json.dumps(report["errors"]), report
    after = snapshot(app)
    # bob's shelf, and alice's papers that were there before, are untouched
    assert after["shelves"]["bob"] == before["shelves"]["bob"]
    old = {p["arxiv_id"]: p for p in before["shelves"]["alice"][1]["papers"]}
    now = {p["arxiv_id"]: p for p in after["shelves"]["alice"][1]["papers"] if p["arxiv_id"]}
    assert {k: now[k] for k in old} == old
    created = len(after["shelves"]["alice"][1]["papers"]) - len(old)
    assert created == report["created"]


def test_a_cursor_walks_every_page_of_both_sorts(client, alice):
    """The cursor checks refuse only what the API did not give."""
    for i in range(7):
        client.post("/api/papers", json={"title": f"P{i}", "published": f"2026-01-0{i + 1}"},
                    headers=alice)
    for sort in ("saved", "published"):
        seen, cursor = [], None
        while True:
            url = f"/api/papers?limit=3&sort={sort}" + (f"&cursor={cursor}" if cursor else "")
            page = client.get(url, headers=alice).json
            seen += [p["title"] for p in page["items"]]
            cursor = page["next_cursor"]
            if not cursor:
                break
        assert sorted(seen) == [f"P{i}" for i in range(7)] and len(seen) == 7


# ---- a real server: waitress's own answers ------------------------------------------------


@pytest.fixture(scope="module")
def small_server(tmp_path_factory):
    from papershelf.testing import ServerProcess

    data = tmp_path_factory.mktemp("hostile") / "data"
    with ServerProcess(data, env={"PAPERSHELF_IMPORT_MAX_BYTES": "4096"}) as server:
        yield server


def raw_request(server, payload: bytes) -> tuple[int, dict, bytes]:
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(payload)
        s.shutdown(socket.SHUT_WR)
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:] if ": " in line)
    return int(lines[0].split()[1]), {k.lower(): v for k, v in headers.items()}, body


def assert_json_error(status, headers, body, want_status, want_code):
    assert status == want_status, (status, body[:300])
    assert headers["content-type"].startswith("application/json"), headers
    assert json.loads(body)["error"]["code"] == want_code


@pytest.mark.parametrize("size", [4097, 20_000])
def test_an_import_over_the_limit_is_a_json_413_by_content_length(small_server, size):
    conn = http.client.HTTPConnection("127.0.0.1", small_server.port, timeout=10)
    conn.request("POST", "/api/import", body=b"@misc{k, title={x}}" + b" " * size,
                 headers={"Authorization": f"Bearer {small_server.token}",
                          "Content-Type": "application/x-bibtex"})
    try:
        r = conn.getresponse()
        assert_json_error(r.status, {k.lower(): v for k, v in r.getheaders()}, r.read(), 413,
                          "payload_too_large")
    finally:
        conn.close()


@pytest.mark.parametrize("size", [5000, 8000])
def test_an_import_over_the_limit_is_a_json_413_when_chunked(small_server, size):
    body = b"@misc{k, title={x}}" + b" " * size
    chunks = b"".join(b"%x\r\n%s\r\n" % (len(body[i:i + 1000]), body[i:i + 1000])
                      for i in range(0, len(body), 1000)) + b"0\r\n\r\n"
    status, headers, answer = raw_request(small_server, (
        f"POST /api/import HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
        f"{small_server.token}\r\nContent-Type: application/x-bibtex\r\n"
        f"Transfer-Encoding: chunked\r\n\r\n").encode() + chunks)
    assert_json_error(status, headers, answer, 413, "payload_too_large")


@pytest.mark.parametrize("payload", [
    b"POST /api/papers HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -5\r\n\r\n",
    b"POST /api/papers HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    b"GARBAGE\r\n\r\n",
    b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header\r\n\r\n",
    b"POST /api/papers HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1, 2\r\n\r\n",
], ids=["negative length", "bad chunk", "no request line", "bad header", "two lengths"])
def test_a_malformed_request_is_answered_in_the_error_shape(small_server, payload):
    status, headers, body = raw_request(small_server, payload)
    assert 400 <= status < 500
    assert headers["content-type"].startswith("application/json"), (status, body[:200])
    assert json.loads(body)["error"]["code"] in ("bad_request", "payload_too_large")


# ---- the library page's errors are pages --------------------------------------------------


@pytest.mark.parametrize(("method", "path", "status"), [
    ("GET", "/no-such-page", 404), ("GET", "/papers/abc", 404),
    ("GET", "/papers/99999999", 404), ("DELETE", "/", 405), ("POST", "/signin/x", 404),
])
def test_library_paths_answer_html_error_pages(app, client, alice, method, path, status):
    token = alice["Authorization"].split()[1]
    client.post("/signin", data={"token": token}, headers={"Origin": "http://localhost"})
    r = client.open(path, method=method)
    assert r.status_code == status
    assert r.mimetype == "text/html"
    html = r.get_data(as_text=True)
    assert "<h1>" in html and "Back to the library" in html and '"error"' not in html
    assert r.headers["Content-Security-Policy"].startswith("default-src 'none'")


def test_a_library_page_crash_is_a_page_and_hides_the_detail(make_app, caplog):
    app = make_app()

    @app.get("/boom")
    def boom():
        raise RuntimeError("secret detail /etc/passwd")

    r = app.test_client().get("/boom")
    assert r.status_code == 500 and r.mimetype == "text/html"
    assert "secret" not in r.get_data(as_text=True) and "secret detail" in caplog.text
    r = app.test_client().get("/api/nothing")
    assert_error(r, 401, "unauthorized")  # the API's paths still answer JSON
