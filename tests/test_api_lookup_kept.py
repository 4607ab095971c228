"""A page lookup keeps what it read of each paper by the paper's version (PostgreSQL:
``store.page_cache``): after every kind of write that changes what a page is answered about a
paper (its notes, highlights, tags, tag names, key, enrichment, a merge, the trash, a fellow
member's notes and highlights, a share), the next lookup answers exactly what a
lookup with nothing kept answers, and shows the change. Both stores (SQLite keeps nothing: the
same answers hold there too)."""

import pytest

from papershelf.store import page_cache
from papershelf.store.db import write
from papershelf.store.models import Paper

DOI = "10.5555/kept.1"
URL = f"https://dl.acm.org/doi/{DOI}"
HIGHLIGHT = {"exact": "reasoning", "start": 50, "end": 59, "prefix": "exhibit strong ",
             "suffix": " and", "color": "green"}


def _ok(r, *codes):
    assert r.status_code in (codes or (200, 201, 204)), (r.status_code, r.get_json())
    return r.get_json()


def _asked(arxiv_id):
    return {"arxiv_ids": [arxiv_id], "urls": [URL], "ids": [f"doi:{DOI}"]}


def _lookup(client, headers, body):
    return _ok(client.post("/api/papers/lookup", json=body, headers=headers), 200)


def _fresh(client, headers, body):
    """The answer with nothing kept: what every lookup must answer."""
    page_cache.CACHE.clear()
    return _lookup(client, headers, body)


def _same(client, headers, body):
    """The lookup (kept answers allowed) equals the lookup with nothing kept; answers it."""
    kept = _lookup(client, headers, body)
    assert kept == _fresh(client, headers, body)
    return kept


@pytest.fixture
def two(client, alice, paper_data):
    """Two of alice's papers: an arXiv preprint and a DOI paper from its ACM page, both looked
    up once so that their answers are kept."""
    a = _ok(client.post("/api/papers", json=paper_data, headers=alice))
    b = _ok(client.post("/api/papers", json={"title": "A venue paper", "url": URL, "doi": DOI,
                                             "tags": ["venue"]}, headers=alice))
    body = _asked(paper_data["arxiv_id"])
    first = _lookup(client, alice, body)
    assert first["papers"][paper_data["arxiv_id"]]["id"] == a["id"]
    assert first["papers"][URL]["id"] == b["id"]
    return a, b, body


def test_notes_and_highlights_written_edited_and_deleted_show_at_once(client, alice, two):
    a, _, body = two
    arxiv_id = next(iter(body["arxiv_ids"]))
    note = _ok(client.post(f"/api/papers/{a['id']}/notes", json={"body": "first"}, headers=alice))
    assert [n["body"] for n in _same(client, alice, body)["papers"][arxiv_id]["notes"]] == ["first"]
    _ok(client.patch(f"/api/notes/{note['id']}", json={"body": "edited"}, headers=alice))
    assert [n["body"] for n in _same(client, alice, body)["papers"][arxiv_id]["notes"]] == [
        "edited"]
    mark = _ok(client.post(f"/api/papers/{a['id']}/highlights", json=HIGHLIGHT, headers=alice))
    assert [h["color"] for h in _same(client, alice, body)["papers"][arxiv_id]["highlights"]] == [
        "green"]
    _ok(client.patch(f"/api/highlights/{mark['id']}", json={"color": "blue"}, headers=alice))
    assert [h["color"] for h in _same(client, alice, body)["papers"][arxiv_id]["highlights"]] == [
        "blue"]
    _ok(client.delete(f"/api/highlights/{mark['id']}", headers=alice))
    _ok(client.delete(f"/api/notes/{note['id']}", headers=alice))
    answer = _same(client, alice, body)["papers"][arxiv_id]
    assert answer["notes"] == [] and answer["highlights"] == []


def test_tags_set_bulk_renamed_merged_and_deleted_show_at_once(client, alice, two):
    a, b, body = two
    arxiv_id = body["arxiv_ids"][0]
    _ok(client.patch(f"/api/papers/{a['id']}", json={"tags": ["rl", "agents"]}, headers=alice))
    assert _same(client, alice, body)["papers"][arxiv_id]["tags"] == ["rl", "agents"]
    _ok(client.patch("/api/papers", json={"ids": [a["id"], b["id"]], "add_tags": ["to-cite"]},
                     headers=alice))
    answer = _same(client, alice, body)["papers"]
    assert answer[arxiv_id]["tags"] == ["rl", "agents", "to-cite"]
    assert answer[URL]["tags"] == ["venue", "to-cite"]
    _ok(client.patch("/api/tags/to-cite", json={"name": "cite"}, headers=alice))
    assert _same(client, alice, body)["papers"][URL]["tags"] == ["venue", "cite"]
    _ok(client.patch("/api/tags/venue", json={"name": "cite"}, headers=alice))  # a merge
    assert _same(client, alice, body)["papers"][URL]["tags"] == ["cite"]
    _ok(client.delete("/api/tags/cite", headers=alice))
    answer = _same(client, alice, body)["papers"]
    assert answer[URL]["tags"] == [] and answer[arxiv_id]["tags"] == ["rl", "agents"]


def test_a_re_save_with_a_tag_a_new_key_and_enrichment_show_at_once(client, alice, app, two,
                                                                    paper_data):
    a, b, body = two
    arxiv_id = body["arxiv_ids"][0]
    _ok(client.post("/api/papers", json={**paper_data, "tags": ["from-the-page"]},
                    headers=alice))
    assert _same(client, alice, body)["papers"][arxiv_id]["tags"] == ["from-the-page"]
    _ok(client.patch(f"/api/papers/{b['id']}", json={"citation_key": "venue2026"},
                     headers=alice))
    assert _same(client, alice, body)["papers"][URL]["citation_key"] == "venue2026"
    with app.extensions["papershelf_db"].connection_context():  # as the enrichment worker writes
        write(lambda: Paper.update(enrichment="done", authors=["Ada Lovelace"], authors_more=0,
                                   primary_category="cs.LG").where(Paper.id == a["id"]).execute())
    answer = _same(client, alice, body)["papers"][arxiv_id]
    assert answer["enrichment"]["state"] == "done" and answer["authors"] == ["Ada Lovelace"]


def test_a_merge_and_the_trash_show_at_once(client, alice, two):
    a, b, body = two
    arxiv_id = body["arxiv_ids"][0]
    _ok(client.post(f"/api/papers/{b['id']}/notes", json={"body": "on the venue"},
                    headers=alice))
    _lookup(client, alice, body)
    _ok(client.post(f"/api/papers/{a['id']}/merge", json={"other": b["id"]}, headers=alice))
    answer = _same(client, alice, body)["papers"]
    assert answer[arxiv_id]["id"] == a["id"]
    assert [n["body"] for n in answer[arxiv_id]["notes"]] == ["on the venue"]
    assert answer[URL]["id"] == a["id"]  # its identities came over
    _ok(client.delete("/api/papers", json={"ids": [a["id"]]}, headers=alice))
    assert _same(client, alice, body)["papers"] == {}
    _ok(client.post("/api/papers/restore", json={"ids": [a["id"]]}, headers=alice))
    answer = _same(client, alice, body)["papers"]
    assert [n["body"] for n in answer[arxiv_id]["notes"]] == ["on the venue"]


def test_a_fellow_members_notes_highlights_and_shares_show_at_once(
        client, alice, bob, paper_data):
    lab = _ok(client.post("/api/groups", json={"name": "Lab"}, headers=alice))["id"]
    _ok(client.post(f"/api/groups/{lab}/members", json={"user": "bob"}, headers=alice))
    theirs = _ok(client.post("/api/papers", json={**paper_data, "groups": [lab]}, headers=bob))
    body = {"arxiv_ids": [paper_data["arxiv_id"]]}
    arxiv_id = paper_data["arxiv_id"]
    first = _same(client, alice, body)
    assert first["papers"] == {}
    assert [(s["user"], s["notes"], s["highlights"]) for s in first["shared"][arxiv_id]] == [
        ("bob", 0, [])]
    _ok(client.post(f"/api/papers/{theirs['id']}/notes", json={"body": "bob's"}, headers=bob))
    mark = _ok(client.post(f"/api/papers/{theirs['id']}/highlights", json=HIGHLIGHT,
                           headers=bob))
    shared = _same(client, alice, body)["shared"][arxiv_id]
    assert shared[0]["notes"] == 1 and [h["id"] for h in shared[0]["highlights"]] == [mark["id"]]
    assert shared[0]["highlights"][0]["user"] == "bob"
    _ok(client.delete(f"/api/highlights/{mark['id']}", headers=bob))
    assert _same(client, alice, body)["shared"][arxiv_id][0]["highlights"] == []
    assert shared[0]["groups"] == [{"id": lab, "name": "Lab"}]
    _ok(client.patch(f"/api/papers/{theirs['id']}", json={"groups": []}, headers=bob))
    assert _same(client, alice, body)["shared"] == {}


def test_one_users_kept_answers_are_never_anothers(client, alice, bob, paper_data):
    """Kept by paper, found only through the asking user's own identities: bob asking for the
    page alice's papers were answered on learns nothing of them."""
    mine = _ok(client.post("/api/papers", json=paper_data, headers=alice))
    _ok(client.post(f"/api/papers/{mine['id']}/notes", json={"body": "private"}, headers=alice))
    body = {"arxiv_ids": [paper_data["arxiv_id"]]}
    assert _lookup(client, alice, body)["papers"][paper_data["arxiv_id"]]["id"] == mine["id"]
    assert _lookup(client, bob, body) == {"papers": {}, "invalid": [], "shared": {}}
    theirs = _ok(client.post("/api/papers", json=paper_data, headers=bob))
    answer = _lookup(client, bob, body)["papers"][paper_data["arxiv_id"]]
    assert answer["id"] == theirs["id"] and answer["notes"] == []
