"""Groups on both stores: owners and members, sharing on save and edit, a group's shelf with
every sharer's notes and highlights, the page lookup's group part, exports and feeds of a group;
to a non-member a group does not exist (404)."""

import pytest

from tests.test_answers_match_openapi import check


@pytest.fixture
def carol(make_user):
    return make_user("carol")


@pytest.fixture
def lab(client, alice, bob):
    """A group alice owns with bob in it: its id."""
    r = client.post("/api/groups", json={"name": "Lab"}, headers=alice)
    assert r.status_code == 201, r.json
    gid = r.json["id"]
    r = client.post(f"/api/groups/{gid}/members", json={"user": "bob"}, headers=alice)
    assert r.status_code == 200, r.json
    return gid


HIGHLIGHT = {"exact": "reasoning", "start": 50, "end": 59, "prefix": "exhibit strong ",
             "suffix": " and", "color": "green"}


def _share_with_notes(client, headers, paper_data, gid, note="alice's note"):
    r = client.post("/api/papers", json={**paper_data, "groups": [gid]}, headers=headers)
    assert r.status_code in (200, 201), r.json
    pid = r.json["id"]
    assert client.post(f"/api/papers/{pid}/notes", json={"body": note},
                       headers=headers).status_code == 201
    assert client.post(f"/api/papers/{pid}/highlights", json=HIGHLIGHT,
                       headers=headers).status_code == 201
    return pid


def test_the_creator_owns_a_group_and_members_see_it(client, alice, bob, lab):
    mine = client.get("/api/groups", headers=alice).json["items"]
    assert [(g["name"], g["owner"], g["role"], g["members"]) for g in mine] == [
        ("Lab", "alice", "owner", ["alice", "bob"])]
    theirs = client.get("/api/groups", headers=bob).json["items"]
    assert [(g["id"], g["role"]) for g in theirs] == [(lab, "member")]


@pytest.mark.parametrize("method,path,body", [
    ("GET", "/api/groups/{gid}", None),
    ("GET", "/api/groups/{gid}/papers", None),
    ("POST", "/api/groups/{gid}/members", {"user": "carol"}),
    ("DELETE", "/api/groups/{gid}/members/bob", None),
    ("DELETE", "/api/groups/{gid}", None),
    ("GET", "/api/export?group={gid}", None),
    ("POST", "/api/feeds", {"format": "bibtex", "group": "{gid}"}),
])
def test_a_non_member_gets_404_as_for_a_group_that_does_not_exist(client, carol, lab, method,
                                                                   path, body):
    for gid in (lab, lab + 1000):
        if body is not None:
            body = {k: (gid if v == "{gid}" else v) for k, v in body.items()}
        r = client.open(path.format(gid=gid), method=method, json=body, headers=carol)
        assert r.status_code == 404, r.json
        assert r.json["error"]["code"] == "not_found"
    assert client.get(f"/api/groups/{lab}", headers=carol).status_code == 404


def test_only_the_owner_changes_members(client, alice, bob, carol, lab):
    r = client.post(f"/api/groups/{lab}/members", json={"user": "carol"}, headers=bob)
    assert r.status_code == 403 and r.json["error"]["code"] == "forbidden"
    r = client.delete(f"/api/groups/{lab}/members/alice", headers=bob)
    assert r.status_code == 403
    r = client.post(f"/api/groups/{lab}/members", json={"user": "nobody"}, headers=alice)
    assert r.status_code == 422 and "user" in r.json["error"]["fields"]
    r = client.post(f"/api/groups/{lab}/members", json={"user": "carol"}, headers=alice)
    assert r.json["members"] == ["alice", "bob", "carol"]
    assert client.delete(f"/api/groups/{lab}/members/carol", headers=alice).status_code == 204
    assert client.get(f"/api/groups/{lab}", headers=carol).status_code == 404


def test_private_stays_the_default(client, alice, bob, lab, paper_data):
    assert client.post("/api/papers", json=paper_data, headers=alice).status_code == 201
    assert client.get(f"/api/groups/{lab}/papers", headers=bob).json["items"] == []
    found = client.post("/api/papers/lookup", json={"arxiv_ids": [paper_data["arxiv_id"]]},
                        headers=bob).json
    assert found["papers"] == {} and found["shared"] == {}


def test_the_shelf_shows_who_shared_and_their_notes_marked_with_the_author(
        client, alice, bob, lab, paper_data):
    pid = _share_with_notes(client, alice, paper_data, lab)
    spec = client.get("/api/openapi.json").json
    shelf = check(spec, "GET", f"/api/groups/{lab}/papers",
                  client.get(f"/api/groups/{lab}/papers", headers=bob))
    [item] = shelf["items"]
    assert item["title"] == paper_data["title"]
    assert [s["user"] for s in item["shared_by"]] == ["alice"]
    assert [(n["user"], n["body"]) for n in item["notes"]] == [("alice", "alice's note")]
    assert [(h["user"], h["exact"]) for h in item["highlights"]] == [("alice", "reasoning")]
    # read-only to others: bob cannot change alice's note, highlight or paper
    note_id, hl_id = item["notes"][0]["id"], item["highlights"][0]["id"]
    assert client.patch(f"/api/notes/{note_id}", json={"body": "x"}, headers=bob).status_code == 404
    assert client.delete(f"/api/highlights/{hl_id}", headers=bob).status_code == 404
    assert client.patch(f"/api/papers/{pid}", json={"title": "x"}, headers=bob).status_code == 404


def test_one_work_shared_by_two_members_is_one_entry_with_both(client, alice, bob, lab,
                                                               paper_data):
    _share_with_notes(client, alice, paper_data, lab)
    _share_with_notes(client, bob, paper_data, lab, note="bob's note")
    [item] = client.get(f"/api/groups/{lab}/papers", headers=alice).json["items"]
    assert sorted(s["user"] for s in item["shared_by"]) == ["alice", "bob"]
    assert sorted(n["user"] for n in item["notes"]) == ["alice", "bob"]


def test_an_edit_sets_the_groups_and_can_make_a_paper_private_again(client, alice, bob, lab,
                                                                   paper_data):
    pid = client.post("/api/papers", json=paper_data, headers=alice).json["id"]
    r = client.patch(f"/api/papers/{pid}", json={"groups": [lab]}, headers=alice)
    assert r.status_code == 200, r.json
    assert r.json["edited_fields"] == []  # sharing is no edit of the paper's fields
    assert client.get(f"/api/papers/{pid}/groups", headers=alice).json["items"] == [
        {"id": lab, "name": "Lab"}]
    assert len(client.get(f"/api/groups/{lab}/papers", headers=bob).json["items"]) == 1
    assert client.patch(f"/api/papers/{pid}", json={"groups": []},
                        headers=alice).status_code == 200
    assert client.get(f"/api/groups/{lab}/papers", headers=bob).json["items"] == []
    # a page save with no groups leaves the sharing as it is
    client.patch(f"/api/papers/{pid}", json={"groups": [lab]}, headers=alice)
    client.post("/api/papers", json=paper_data, headers=alice)
    assert len(client.get(f"/api/groups/{lab}/papers", headers=bob).json["items"]) == 1


def test_sharing_to_a_group_one_is_not_in_is_refused_and_saves_nothing(client, alice, carol,
                                                                       lab, paper_data):
    r = client.post("/api/papers", json={**paper_data, "groups": [lab]}, headers=carol)
    assert r.status_code == 422, r.json
    assert r.json["error"]["fields"]["groups"] == [f"no such group: {lab}"]
    assert client.get("/api/papers", headers=carol).json["items"] == []


def test_a_member_who_leaves_takes_their_shares(client, alice, bob, lab, paper_data):
    _share_with_notes(client, bob, paper_data, lab, note="bob's")
    assert len(client.get(f"/api/groups/{lab}/papers", headers=alice).json["items"]) == 1
    assert client.delete(f"/api/groups/{lab}/members/bob", headers=bob).status_code == 204
    assert client.get(f"/api/groups/{lab}/papers", headers=alice).json["items"] == []
    assert client.get(f"/api/groups/{lab}", headers=bob).status_code == 404
    r = client.delete(f"/api/groups/{lab}/members/alice", headers=alice)
    assert r.status_code == 409  # the owner deletes the group instead


def test_the_page_lookup_says_which_members_saved_a_paper(client, alice, bob, carol, lab,
                                                         paper_data):
    _share_with_notes(client, alice, paper_data, lab)
    spec = client.get("/api/openapi.json").json
    body = {"arxiv_ids": [paper_data["arxiv_id"], "2601.00001"]}
    found = check(spec, "POST", "/api/papers/lookup",
                  client.post("/api/papers/lookup", json=body, headers=bob))
    assert found["papers"] == {}  # bob has not saved it himself
    [entry] = found["shared"][paper_data["arxiv_id"]]
    assert entry["user"] == "alice" and entry["groups"] == [{"id": lab, "name": "Lab"}]
    assert entry["notes"] == 1
    assert [(h["user"], h["exact"], h["color"]) for h in entry["highlights"]] == [
        ("alice", "reasoning", "green")]
    # bob's own copy is in "papers", alice's in "shared"
    client.post("/api/papers", json=paper_data, headers=bob)
    found = client.post("/api/papers/lookup", json=body, headers=bob).json
    assert paper_data["arxiv_id"] in found["papers"]
    assert [e["user"] for e in found["shared"][paper_data["arxiv_id"]]] == ["alice"]
    # alice does not see her own copy as shared; carol sees nothing
    assert client.post("/api/papers/lookup", json=body, headers=alice).json["shared"] == {}
    assert client.post("/api/papers/lookup", json=body, headers=carol).json["shared"] == {}


def test_a_group_export_has_every_sharers_work_once(client, alice, bob, lab, paper_data):
    _share_with_notes(client, alice, paper_data, lab)
    _share_with_notes(client, bob, paper_data, lab, note="bob's")
    other = {**paper_data, "arxiv_id": "2603.29002", "title": "Another paper"}
    client.post("/api/papers", json={**other, "groups": [lab]}, headers=bob)
    client.post("/api/papers", json={**paper_data, "arxiv_id": "2603.29003"}, headers=bob)
    r = client.get(f"/api/export?group={lab}&format=bibtex", headers=alice)
    assert r.status_code == 200
    text = r.get_data(as_text=True)
    assert text.count("@misc{") == 2
    assert "2603.29001" in text and "2603.29002" in text and "2603.29003" not in text
    assert "alice's note" in text and "bob's" in text


def test_a_group_feed_follows_the_shelf_and_ends_when_its_owner_leaves(client, alice, bob, lab,
                                                                       paper_data):
    feed = client.post("/api/feeds", json={"format": "bibtex", "group": lab}, headers=bob)
    assert feed.status_code == 201, feed.json
    assert feed.json["group"] == lab
    path = feed.json["path"]
    first = client.get(path)
    assert first.status_code == 200 and first.get_data(as_text=True).count("@") == 0
    _share_with_notes(client, alice, paper_data, lab)
    second = client.get(path, headers={"If-None-Match": first.headers["ETag"]})
    assert second.status_code == 200 and "2603.29001" in second.get_data(as_text=True)
    assert client.get(path, headers={"If-None-Match": second.headers["ETag"]}).status_code == 304
    assert client.delete(f"/api/groups/{lab}/members/bob", headers=bob).status_code == 204
    assert client.get(path).status_code == 404


def test_deleting_a_group_keeps_the_papers(client, alice, bob, lab, paper_data):
    pid = _share_with_notes(client, alice, paper_data, lab)
    assert client.delete(f"/api/groups/{lab}", headers=bob).status_code == 403
    assert client.delete(f"/api/groups/{lab}", headers=alice).status_code == 204
    assert client.get(f"/api/papers/{pid}", headers=alice).status_code == 200
    assert client.get("/api/groups", headers=bob).json["items"] == []


def test_a_group_export_filters_by_any_sharers_tag(client, alice, bob, lab, paper_data):
    client.post("/api/papers", json={**paper_data, "tags": ["rl"], "groups": [lab]}, headers=alice)
    client.post("/api/papers", json={**paper_data, "arxiv_id": "2603.29002", "title": "Other",
                                     "groups": [lab]}, headers=bob)
    text = client.get(f"/api/export?group={lab}&tag=RL", headers=bob).get_data(as_text=True)
    assert "2603.29001" in text and "2603.29002" not in text
    r = client.get(f"/api/export?group={lab}&ids=1", headers=bob)
    assert r.status_code == 422 and "ids" in r.json["error"]["fields"]
