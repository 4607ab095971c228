"""Live bibliographies: /api/feeds and /feeds/<secret>.<ext>, on SQLite and PostgreSQL."""

import re

import pytest


@pytest.fixture
def library(client, alice, paper_data):
    ids = []
    for i, tag in enumerate(["rl", "rl", "vision"]):
        body = {**paper_data, "arxiv_id": f"2603.2900{i}", "title": f"Paper {i} on {tag}",
                "tags": [tag]}
        ids.append(client.post("/api/papers", json=body, headers=alice).json["id"])
    return ids


class Got:
    """A response read whole and closed (a streamed answer holds its request context open)."""

    def __init__(self, response):
        with response:
            self.status_code, self.headers, self.data = (response.status_code, response.headers,
                                                         response.get_data())
        self.json = response.json if response.is_json else None


def fetch(client, path, **kwargs):
    return Got(client.get(path, **kwargs))


def make_feed(client, headers, **body):
    r = client.post("/api/feeds", json=body, headers=headers)
    assert r.status_code == 201, r.json
    return r.json


def test_a_feed_answers_the_export_of_its_filter_without_a_token(client, alice, library):
    feed = make_feed(client, alice, format="bibtex", tag="rl")
    assert re.fullmatch(r"/feeds/f[A-Za-z0-9_-]{32}\.bib", feed["path"])
    assert feed["url"].endswith(feed["path"])
    r = fetch(client, feed["path"])  # no Authorization header
    assert r.status_code == 200
    assert r.headers["Content-Type"].startswith("application/x-bibtex")
    export = fetch(client, "/api/export?format=bibtex&tag=rl", headers=alice)
    assert r.data == export.data
    assert r.data.count(b"@misc{") == 2
    assert r.headers["ETag"].startswith('"') and r.headers["Last-Modified"]


@pytest.mark.parametrize("fmt", ["csljson", "ris", "markdown", "biblatex", "jsonld", "json"])
def test_every_export_format_can_be_a_feed(client, alice, library, fmt):
    feed = make_feed(client, alice, format=fmt, q="vision")
    r = fetch(client, feed["path"])
    assert r.status_code == 200
    assert r.data == fetch(client, f"/api/export?format={fmt}&q=vision", headers=alice).data


def test_an_unchanged_feed_answers_304_with_no_body_and_a_change_a_new_version(
        client, alice, library, paper_data):
    feed = make_feed(client, alice)
    first = fetch(client, feed["path"])
    again = fetch(client, feed["path"], headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""
    assert again.headers["ETag"] == first.headers["ETag"]
    since = fetch(client, feed["path"],
                  headers={"If-Modified-Since": first.headers["Last-Modified"]})
    assert since.status_code == 304
    changes = [
        lambda: client.post(f"/api/papers/{library[0]}/notes", json={"body": "new note"},
                            headers=alice),
        lambda: client.patch(f"/api/papers/{library[1]}", json={"title": "Renamed"}, headers=alice),
        lambda: client.delete(f"/api/papers/{library[2]}", headers=alice),
        lambda: client.post("/api/papers", json={**paper_data, "arxiv_id": "2603.29999"},
                            headers=alice),
    ]
    etag = first.headers["ETag"]
    for change in changes:
        assert change().status_code in (200, 201, 204)
        r = fetch(client, feed["path"], headers={"If-None-Match": etag})
        assert r.status_code == 200, "a change must give a new version"
        assert r.headers["ETag"] != etag
        assert r.data == fetch(client, "/api/export", headers=alice).data
        etag = r.headers["ETag"]


def test_a_feed_does_not_change_for_papers_outside_its_filter(client, alice, library, paper_data):
    feed = make_feed(client, alice, tag="vision")
    etag = fetch(client, feed["path"]).headers["ETag"]
    client.post("/api/papers", json={**paper_data, "arxiv_id": "2603.28888", "tags": ["rl"]},
                headers=alice)
    assert fetch(client, feed["path"], headers={"If-None-Match": etag}).status_code == 304


def test_revoked_unknown_and_mistyped_feeds_answer_404(client, alice, library):
    feed = make_feed(client, alice)
    stem = feed["path"].rsplit(".", 1)[0]
    other = "B" if stem.endswith("A") else "A"  # one character of the secret changed
    for path in (stem + ".ris", stem[:-1] + other + ".bib", "/feeds/nothing.bib", "/feeds/.bib"):
        r = fetch(client, path)
        assert r.status_code == 404 and r.json["error"]["code"] == "not_found"
    assert client.delete(f"/api/feeds/{feed['id']}", headers=alice).status_code == 204
    assert fetch(client, feed["path"]).status_code == 404
    assert client.get("/api/feeds", headers=alice).json == {"items": []}


def test_feeds_are_private_to_their_owner(client, alice, bob, library):
    feed = make_feed(client, alice)
    assert client.get("/api/feeds", headers=bob).json == {"items": []}
    r = client.delete(f"/api/feeds/{feed['id']}", headers=bob)
    assert r.status_code == 404
    assert fetch(client, feed["path"]).status_code == 200
    bobs = make_feed(client, bob)
    assert fetch(client, bobs["path"]).data.count(b"@misc{") == 0  # bob's library is empty
    assert client.post(f"/api/feeds/{feed['id']}", headers=alice).status_code == 405


def test_a_feed_is_read_only(client, alice, library):
    feed = make_feed(client, alice)
    for method in ("POST", "PUT", "PATCH", "DELETE"):
        assert client.open(feed["path"], method=method).status_code == 405
    assert fetch(client, feed["path"]).status_code == 200


def test_the_owner_can_list_the_url_again(client, alice, library):
    feed = make_feed(client, alice, format="ris", topic="LLM Agent Training")
    listed = client.get("/api/feeds", headers=alice).json["items"]
    assert [(f["id"], f["path"], f["format"], f["topic"]) for f in listed] == \
        [(feed["id"], feed["path"], "ris", "LLM Agent Training")]


def test_the_store_keeps_only_the_secrets_hash(app, client, alice, library):
    feed = make_feed(client, alice)
    secret = feed["path"].split("/")[-1].rsplit(".", 1)[0]
    from papershelf.store.models import Feed

    with app.extensions["papershelf_db"].connection_context():
        row = Feed.get_by_id(feed["id"])
    assert secret not in repr(row.__data__)
    assert len(secret) >= 32  # 192 bits in base64url


@pytest.mark.parametrize("body", [{"format": "docx"}, {"tag": "t" * 101}, {"group": "lab"},
                                  {"q": 5}])
def test_bad_feed_requests_are_field_errors(client, alice, body):
    r = client.post("/api/feeds", json=body, headers=alice)
    assert r.status_code == 422 and r.json["error"]["code"] == "validation_error"
    assert client.get("/api/feeds", headers=alice).json == {"items": []}
