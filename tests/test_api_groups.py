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
    # answered under the key the page asked with, as its own papers are
    asked = f"arXiv:{paper_data['arxiv_id']}v1"
    found = client.post("/api/papers/lookup", json={"arxiv_ids": [asked]}, headers=bob).json
    assert [e["user"] for e in found["shared"][asked]] == ["alice"]
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


# ---- the shelf in pages -------------------------------------------------------------------


def _walk(client, headers, gid, query=""):
    """Every page of the group's shelf (checked against the OpenAPI description): the items."""
    spec = client.get("/api/openapi.json").json
    items, cursor, pages = [], None, 0
    while True:
        path = f"/api/groups/{gid}/papers?limit=3{query}" + (f"&cursor={cursor}" if cursor else "")
        page = check(spec, "GET", path, client.get(path, headers=headers))
        assert len(page["items"]) <= 3
        items += page["items"]
        pages += 1
        cursor = page["next_cursor"]
        if cursor is None:
            return items, pages


def test_pages_walk_the_whole_shelf_each_work_once_latest_shared_first(client, alice, bob, lab,
                                                                       paper_data):
    ids = [f"2603.{30000 + i}" for i in range(8)]
    for i, aid in enumerate(ids):
        client.post("/api/papers", json={**paper_data, "arxiv_id": aid, "title": f"Work {i}",
                                         "groups": [lab]}, headers=alice if i % 2 else bob)
    # bob shares alice's work 1 too (his own copy): it is one work, shared latest
    client.post("/api/papers", json={**paper_data, "arxiv_id": ids[1], "title": "Work 1",
                                     "groups": [lab]}, headers=bob)
    # a paper without an arXiv id, a DOI or a URL is a work of its own
    client.post("/api/papers", json={"title": "Notes without ids", "groups": [lab]}, headers=bob)
    items, pages = _walk(client, alice, lab)
    assert pages == 3
    titles = [i["title"] for i in items]
    assert len(titles) == len(set(titles)) == 9
    assert titles[:3] == ["Notes without ids", "Work 1", "Work 7"]
    assert titles[3:] == [f"Work {i}" for i in (6, 5, 4, 3, 2, 0)]
    work1 = items[1]
    assert [s["user"] for s in work1["shared_by"]] == ["alice", "bob"]  # in the order they shared
    assert work1["id"] == work1["shared_by"][0]["paper_id"]  # the first share's paper
    # a limit of its own and the default
    assert len(client.get(f"/api/groups/{lab}/papers", headers=bob).json["items"]) == 9
    r = client.get(f"/api/groups/{lab}/papers?limit=9", headers=bob).json
    assert len(r["items"]) == 9 and r["next_cursor"] is None
    for bad in ("0", "201", "x"):
        r = client.get(f"/api/groups/{lab}/papers?limit={bad}", headers=bob)
        assert r.status_code == 422 and "limit" in r.json["error"]["fields"]


def test_a_work_shared_by_two_members_is_one_entry_on_its_page_with_both_sharers(
        client, alice, bob, lab, paper_data):
    _share_with_notes(client, alice, paper_data, lab)
    for i in range(4):
        client.post("/api/papers", json={**paper_data, "arxiv_id": f"2603.3100{i}",
                                         "title": f"Filler {i}", "groups": [lab]}, headers=alice)
    _share_with_notes(client, bob, paper_data, lab, note="bob's note")
    items, _ = _walk(client, bob, lab)
    assert len(items) == 5
    [item] = [i for i in items if i["arxiv_id"] == paper_data["arxiv_id"]]
    assert item is items[0]  # bob's share is the latest
    assert [s["user"] for s in item["shared_by"]] == ["alice", "bob"]
    assert [(n["user"], n["body"]) for n in item["notes"]] == [("alice", "alice's note"),
                                                               ("bob", "bob's note")]
    assert [h["user"] for h in item["highlights"]] == ["alice", "bob"]
    assert all(i["notes"] == [] for i in items[1:])


def test_a_forged_or_foreign_cursor_is_a_field_error(client, alice, bob, lab, paper_data):
    import base64
    import json

    for i in range(3):
        client.post("/api/papers", json={**paper_data, "arxiv_id": f"2603.3200{i}",
                                         "groups": [lab]}, headers=alice)
    cursor = client.get(f"/api/groups/{lab}/papers?limit=1", headers=bob).json["next_cursor"]
    assert cursor
    other = client.post("/api/groups", json={"name": "Other"}, headers=bob).json["id"]
    library = client.get("/api/papers?limit=1", headers=alice).json["next_cursor"]
    assert library

    def enc(value):
        return base64.urlsafe_b64encode(json.dumps(value).encode()).decode().rstrip("=")

    forged = ["x", "!!!", enc({"a": 1}), enc(["shelf", lab, "not a time", 1]),
              enc(["shelf", lab, "2026-01-01 00:00:00", 0]),
              enc(["shelf", lab, "2026-01-01 00:00:00+05:00", 3]),
              enc(["shelf", lab, "2026-01-01 00:00:00", 2**63]),
              enc(["shelf", lab, 5, 3]), enc(["shelf", str(lab), "2026-01-01", 3]),
              library]
    for bad in forged:
        r = client.get(f"/api/groups/{lab}/papers?cursor={bad}", headers=bob)
        assert r.status_code == 422 and "cursor" in r.json["error"]["fields"], (bad, r.json)
    # another group's cursor
    r = client.get(f"/api/groups/{other}/papers?cursor={cursor}", headers=bob)
    assert r.status_code == 422 and "cursor" in r.json["error"]["fields"]
    # the shelf's cursor is not the library's
    r = client.get(f"/api/papers?cursor={cursor}", headers=bob)
    assert r.status_code == 422 and "cursor" in r.json["error"]["fields"]
    # a well-formed cursor from no page of ours is a position like any other
    r = client.get(f"/api/groups/{lab}/papers?cursor=" + enc(["shelf", lab, "1999-01-01", 9]),
                   headers=bob)
    assert r.status_code == 200 and r.json["items"] == []


def test_a_non_member_cannot_page_a_shelf(client, alice, bob, carol, lab, paper_data):
    for i in range(2):
        client.post("/api/papers", json={**paper_data, "arxiv_id": f"2603.3300{i}",
                                         "groups": [lab]}, headers=alice)
    cursor = client.get(f"/api/groups/{lab}/papers?limit=1", headers=bob).json["next_cursor"]
    for path in (f"/api/groups/{lab}/papers?limit=1", f"/api/groups/{lab}/papers?cursor={cursor}",
                 f"/api/groups/{lab}/papers?cursor=forged"):
        assert client.get(path, headers=carol).status_code == 404


def test_the_shelf_filters_by_search_and_by_any_sharers_tag_in_pages(client, alice, bob, lab,
                                                                     paper_data):
    for i in range(5):
        client.post("/api/papers", json={**paper_data, "arxiv_id": f"2603.3400{i}",
                                         "title": f"Zebra study {i}" if i % 2 else f"Other {i}",
                                         "tags": ["rl"] if i < 3 else [], "groups": [lab]},
                    headers=alice)
    # bob's copy of work 4 carries his tag: the work is found through it, with both sharers
    client.post("/api/papers", json={**paper_data, "arxiv_id": "2603.34004", "title": "Other 4",
                                     "tags": ["Mine"], "groups": [lab]}, headers=bob)
    items, _ = _walk(client, bob, lab, "&q=zebra")
    assert [i["title"] for i in items] == ["Zebra study 3", "Zebra study 1"]
    items, _ = _walk(client, bob, lab, "&tag=RL")
    assert [i["title"] for i in items] == ["Other 2", "Zebra study 1", "Other 0"]
    items, _ = _walk(client, alice, lab, "&tag=mine")
    assert [(i["title"], [s["user"] for s in i["shared_by"]]) for i in items] == [
        ("Other 4", ["alice", "bob"])]
    items, _ = _walk(client, alice, lab, "&q=zebra&tag=rl")
    assert [i["title"] for i in items] == ["Zebra study 1"]
    assert _walk(client, alice, lab, "&q=nothinglikethis")[0] == []
    assert len(_walk(client, alice, lab, "&q=&tag=")[0]) == 5


def test_a_group_export_gives_works_that_share_a_key_the_next_suffixes(client, alice, bob, lab):
    """Members' different works with the same keys (each library has smith2020deep, …a … …n):
    in the export the first saved keeps its key and the other gets the next free suffix."""
    for n, who in enumerate([alice, bob] * 15):
        r = client.post("/api/papers", headers=who, json={
            "title": f"Deep study {n}", "authors": ["Ann Smith"], "published": "2020-01-01",
            "groups": [lab]})
        assert r.status_code == 201, r.json
    import re

    text = client.get(f"/api/export?group={lab}&format=bibtex", headers=alice).get_data(as_text=True)
    keys = re.findall(r"^@\w+\{([^,]+),", text, flags=re.M)
    assert len(keys) == 30 and len({k.lower() for k in keys}) == 30
    own = {p["citation_key"] for p in client.get("/api/papers", headers=alice).json["items"]}
    assert len(own) == 15 and own <= set(keys)  # alice saved first: her keys stand
    assert all(k.startswith("smith2020deep") for k in keys)


@pytest.mark.parametrize(("saved", "asked"), [
    ({"title": "A journal paper known by its DOI", "doi": "10.1145/3442188.3445922",
      "url": "https://dl.acm.org/doi/10.1145/3442188.3445922"},
     {"urls": ["https://dl.acm.org/doi/pdf/10.1145/3442188.3445922?download=true"],
      "ids": ["DOI:https://doi.org/10.1145/3442188.3445922"]}),
    ({"title": "A NeurIPS paper known by its site's id",
      "url": "https://proceedings.neurips.cc/paper/2017/hash/"
             "3f5ee243547dee91fbd053c1c4a845aa-Abstract.html"},
     {"urls": ["https://proceedings.neurips.cc/paper/2017/file/"
               "3f5ee243547dee91fbd053c1c4a845aa-Paper.pdf"],
      "ids": ["neurips:3F5EE243547DEE91FBD053C1C4A845AA"]}),
    ({"title": "An OpenReview paper", "url": "https://openreview.net/forum?id=YicbFdNTTy"},
     {"urls": ["https://openreview.net/pdf?id=YicbFdNTTy"], "ids": ["openreview:YicbFdNTTy"]}),
])
def test_the_page_lookup_finds_a_members_paper_by_any_of_its_identities(
        client, alice, bob, carol, lab, saved, asked):
    """A paper a member shared is found as the user's own are: by its DOI, its PDF's address, the
    site's own id, each answered under the key the page asked with."""
    pid = _share_with_notes(client, alice, {**saved, "source_url": saved["url"]}, lab)
    found = client.post("/api/papers/lookup", json=asked, headers=bob).json
    keys = asked["urls"] + asked["ids"]
    assert found["papers"] == {}
    assert set(keys) <= set(found["shared"])  # and under their normalized forms, as papers are
    for key in keys:
        [entry] = found["shared"][key]
        assert (entry["user"], entry["paper_id"], entry["notes"]) == ("alice", pid, 1), key
        assert entry["groups"] == [{"id": lab, "name": "Lab"}]
        assert [h["exact"] for h in entry["highlights"]] == ["reasoning"]
    assert client.post("/api/papers/lookup", json=asked, headers=carol).json["shared"] == {}
    # a paper alice keeps private is not shown by its DOI, though bob is in her group
    r = client.post("/api/papers", json={"title": "Private", "doi": "10.5555/private.1"},
                    headers=alice)
    assert r.status_code == 201
    found = client.post("/api/papers/lookup", json={"ids": ["doi:10.5555/PRIVATE.1"]},
                        headers=bob).json
    assert found["shared"] == {}
