"""The library's everyday tools in the API: every field editable (by entry type), reading state
and star, sorts and numbered pages, many papers at once (one transaction), deleting with a
restore, tags as a whole, duplicates and merging, the key formula's preview, export defaults."""

import pytest

from papershelf.store import db as store
from papershelf.store import migrations


def save(client, headers, **fields):
    r = client.post("/api/papers", json=fields, headers=headers)
    assert r.status_code in (200, 201), r.json
    return r.json


def papers(client, headers, query=""):
    r = client.get("/api/papers" + query, headers=headers)
    assert r.status_code == 200, r.json
    return r.json


def ids(page):
    return [p["id"] for p in page["items"]]


# ---- every field, by entry type ----------------------------------------------------------


def test_every_field_is_editable_and_a_page_save_keeps_the_edit(client, alice, saved, paper_data):
    r = client.patch(f"/api/papers/{saved['id']}", headers=alice, json={
        "entry_type": "inproceedings", "booktitle": "Proceedings of ICML 2026", "volume": "267",
        "pages": "1--12", "doi": "https://doi.org/10.5555/ICML.2026.1", "published": "2026",
        "abstract": "Edited abstract.", "publisher": "PMLR"})
    assert r.status_code == 200, r.json
    p = r.json
    assert (p["entry_type"], p["booktitle"], p["volume"], p["pages"], p["doi"]) == (
        "inproceedings", "Proceedings of ICML 2026", "267", "1--12", "10.5555/icml.2026.1")
    assert p["published"] == "2026-01-01" and p["published_precision"] == "year"
    assert {"booktitle", "doi", "published", "abstract"} <= set(p["edited_fields"])
    again = client.post("/api/papers", json=paper_data, headers=alice).json  # the page, again
    assert again["abstract"] == "Edited abstract." and again["published"] == "2026-01-01"
    assert again["booktitle"] == "Proceedings of ICML 2026"


@pytest.mark.parametrize(("body", "field"), [
    ({"entry_type": "article", "booktitle": "Proc. of X"}, "booktitle"),
    ({"entry_type": "book", "journal": "Nature"}, "journal"),
    ({"entry_type": "phdthesis", "pages": "1--9"}, "pages"),
    ({"entry_type": "article bad"}, "entry_type"),
    ({"volume": "v" * 201}, "volume"),
    ({"doi": "10.1/\u0000"}, "doi"),
    ({"published": "2026-13-01"}, "published"),
])
def test_an_edit_the_entry_type_refuses_is_a_field_error_and_changes_nothing(client, alice, saved,
                                                                             body, field):
    r = client.patch(f"/api/papers/{saved['id']}", headers=alice, json=body)
    assert r.status_code == 422 and field in r.json["error"]["fields"], r.json
    after = client.get(f"/api/papers/{saved['id']}", headers=alice).json
    assert after["entry_type"] is None and after["booktitle"] is None and after["journal"] is None


def test_an_article_takes_a_journal_then_refuses_a_booktitle(client, alice, saved):
    url = f"/api/papers/{saved['id']}"
    r = client.patch(url, headers=alice, json={"entry_type": "article", "journal": "JMLR"})
    assert r.status_code == 200 and r.json["journal"] == "JMLR"
    r = client.patch(url, headers=alice, json={"booktitle": "NeurIPS"})
    assert r.status_code == 422 and "booktitle" in r.json["error"]["fields"]


# ---- reading state and star ----------------------------------------------------------------


def test_reading_state_and_star_default_filter_and_never_count_as_edits(client, alice, saved):
    assert (saved["reading_state"], saved["starred"]) == ("unread", False)
    other = save(client, alice, title="Second paper")
    r = client.patch(f"/api/papers/{saved['id']}", headers=alice,
                     json={"reading_state": "to_read", "starred": True})
    assert r.status_code == 200
    assert (r.json["reading_state"], r.json["starred"]) == ("to_read", True)
    assert "reading_state" not in r.json["edited_fields"]
    assert ids(papers(client, alice, "?state=to_read")) == [saved["id"]]
    assert ids(papers(client, alice, "?state=unread")) == [other["id"]]
    assert ids(papers(client, alice, "?starred=1")) == [saved["id"]]
    assert ids(papers(client, alice, "?starred=0")) == [other["id"]]


@pytest.mark.parametrize("body", [{"reading_state": "done"}, {"reading_state": None},
                                  {"starred": "yes"}, {"starred": None}, {"reading_state": 1}])
def test_a_bad_state_or_star_is_a_field_error(client, alice, saved, body):
    r = client.patch(f"/api/papers/{saved['id']}", headers=alice, json=body)
    assert r.status_code == 422 and set(body) <= set(r.json["error"]["fields"])


@pytest.mark.parametrize("query", ["?state=done", "?starred=maybe", "?sort=random", "?page=0",
                                   "?page=x"])
def test_bad_list_parameters_are_field_errors(client, alice, query):
    r = client.get("/api/papers" + query, headers=alice)
    assert r.status_code == 422 and r.json["error"]["code"] == "validation_error"


# ---- sorts and pages -----------------------------------------------------------------------


@pytest.fixture
def shelf(client, alice):
    """Five papers of several venues, authors and keys, saved in this order."""
    rows = [
        dict(title="Zebra finches sing", authors=["Carla Young"], published="2020-05-01",
             entry_type="article", journal="Nature"),
        dict(title="attention is all you need", authors=["Ashish Vaswani"], published="2017-06-12",
             entry_type="inproceedings", booktitle="NeurIPS"),
        dict(title="Mamba", authors=["Albert Gu"], published="2023-12-01"),
        dict(title="BERT", authors=["Jacob Devlin"], published="2019-06-01",
             entry_type="inproceedings", booktitle="ACL"),
        dict(title="Graph networks", authors=["Peter Battaglia"]),
    ]
    return [save(client, alice, **r) for r in rows]


def test_sorts_by_title_first_author_venue_key_and_published(client, alice, shelf):
    title = [p["title"] for p in papers(client, alice, "?sort=title")["items"]]
    assert title == ["attention is all you need", "BERT", "Graph networks", "Mamba",
                     "Zebra finches sing"]
    first = [p["authors"][0] for p in papers(client, alice, "?sort=first_author")["items"]]
    assert first == ["Albert Gu", "Ashish Vaswani", "Carla Young", "Jacob Devlin",
                     "Peter Battaglia"]
    venue = [p["journal"] or p["booktitle"] for p in papers(client, alice, "?sort=venue")["items"]]
    assert venue == ["ACL", "Nature", "NeurIPS", None, None]
    keys = [p["citation_key"] for p in papers(client, alice, "?sort=citation_key")["items"]]
    assert keys == sorted(keys, key=str.lower)
    published = [p["published"] for p in papers(client, alice, "?sort=published")["items"]]
    assert published == ["2023-12-01", "2020-05-01", "2019-06-01", "2017-06-12", None]
    added = ids(papers(client, alice, "?sort=added"))
    assert added == [p["id"] for p in reversed(shelf)]
    for paper, state in zip(shelf, ("read", "to_read", "unread", "reading", "to_read"), strict=True):
        client.patch(f"/api/papers/{paper['id']}", json={"reading_state": state}, headers=alice)
    states = [p["reading_state"] for p in papers(client, alice, "?sort=state")["items"]]
    assert states == ["unread", "to_read", "to_read", "reading", "read"]


def test_numbered_pages_and_cursors_cover_every_paper_once_with_the_total(client, alice, shelf):
    first = papers(client, alice, "?sort=title&limit=2")
    assert (first["total"], first["pages"], first["page"]) == (5, 3, 1)
    seen, page = ids(first), first
    while page["next_cursor"]:
        page = papers(client, alice, f"?sort=title&limit=2&cursor={page['next_cursor']}")
        seen += ids(page)
    assert sorted(seen) == sorted(p["id"] for p in shelf) and len(seen) == 5
    third = papers(client, alice, "?sort=title&limit=2&page=3")
    assert third["page"] == 3 and len(third["items"]) == 1 and third["next_cursor"] is None
    saved_pages = papers(client, alice, "?limit=2&page=2")
    assert ids(saved_pages) == [shelf[2]["id"], shelf[1]["id"]]
    beyond = papers(client, alice, "?limit=2&page=9")
    assert beyond["items"] == [] and beyond["total"] == 5


def test_a_cursor_of_another_sort_is_refused(client, alice, shelf):
    cursor = papers(client, alice, "?sort=title&limit=2")["next_cursor"]
    for sort in ("venue", "saved", "published"):
        r = client.get(f"/api/papers?sort={sort}&limit=2&cursor={cursor}", headers=alice)
        assert r.status_code == 422 and "cursor" in r.json["error"]["fields"]


# ---- many papers at once -------------------------------------------------------------------


def test_bulk_change_tags_state_star_and_share_in_one_go(client, alice, shelf):
    group = client.post("/api/groups", json={"name": "Lab"}, headers=alice).json
    chosen = [shelf[0]["id"], shelf[2]["id"]]
    client.patch(f"/api/papers/{shelf[0]['id']}", json={"tags": ["old", "keep"]}, headers=alice)
    r = client.patch("/api/papers", headers=alice, json={
        "ids": chosen, "set": {"reading_state": "read", "starred": True},
        "add_tags": ["survey", " thesis  ch2 "], "remove_tags": ["OLD"], "share_group": group["id"]})
    assert r.status_code == 200 and r.json == {"updated": 2}
    for pid in chosen:
        p = client.get(f"/api/papers/{pid}", headers=alice).json
        assert p["reading_state"] == "read" and p["starred"] is True
        assert "survey" in p["tags"] and "thesis ch2" in p["tags"] and "old" not in p["tags"]
    assert client.get(f"/api/papers/{shelf[0]['id']}", headers=alice).json["tags"] == [
        "keep", "survey", "thesis ch2"]
    shelf_ids = [e["paper_id"] if "paper_id" in e else e["id"] for e in client.get(
        f"/api/groups/{group['id']}/papers", headers=alice).json["items"]]
    assert len(shelf_ids) == 2
    assert ids(papers(client, alice, "?q=survey")) == sorted(chosen, reverse=True)


def test_a_bulk_tag_change_of_1200_papers_tags_each_once_in_order_and_search_follows(client,
                                                                                     alice):
    """More papers than one statement takes (500): every one changes, its tags keep their order
    and each tag is there once whatever its case; the search finds the tag, then no longer."""
    bib = "".join(f"@article{{k{n}, title={{Paper number {n}}}, author={{Doe, Ann}}, year={{2020}},"
                  f" journal={{J}}}}\n" for n in range(1200))
    r = client.post("/api/import?format=bibtex", data=bib.encode(), headers=alice,
                    content_type="text/plain")
    assert r.json["created"] == 1200
    all_ids, cursor = [], ""
    while True:
        page = papers(client, alice, f"?limit=200&cursor={cursor}")
        all_ids += ids(page)
        if not page["next_cursor"]:
            break
        cursor = page["next_cursor"]
    first, last = min(all_ids), max(all_ids)
    client.patch(f"/api/papers/{first}", json={"tags": ["keep", "Bulk"]}, headers=alice)
    r = client.patch("/api/papers", headers=alice,
                     json={"ids": all_ids, "add_tags": ["bulk", "Later"]})
    assert r.status_code == 200 and r.json == {"updated": 1200}
    tags_of = lambda pid: client.get(f"/api/papers/{pid}", headers=alice).json["tags"]  # noqa: E731
    assert tags_of(first) == ["keep", "Bulk", "Later"]
    assert tags_of(last) == ["bulk", "Later"]
    assert papers(client, alice, "?q=later&limit=1")["total"] == 1200
    assert papers(client, alice, "?tag=bulk&limit=1")["total"] == 1200
    r = client.patch("/api/papers", headers=alice, json={"ids": all_ids, "remove_tags": ["LATER"]})
    assert r.status_code == 200
    assert tags_of(first) == ["keep", "Bulk"] and tags_of(last) == ["bulk"]
    assert papers(client, alice, "?q=later&limit=1")["total"] == 0
    assert papers(client, alice, "?q=bulk&limit=1")["total"] == 1200


@pytest.mark.parametrize("body", [
    {"ids": [], "set": {"starred": True}},
    {"ids": "1", "set": {"starred": True}},
    {"ids": [1], "set": {"title": "x"}},
    {"ids": [1], "set": {"reading_state": "later"}},
    {"ids": [1], "add_tags": ["t" * 101]},
    {"ids": [1], "add_tags": [""]},
    {"ids": [-1]},
])
def test_a_bad_bulk_change_is_a_field_error(client, alice, shelf, body):
    r = client.patch("/api/papers", headers=alice, json=body)
    assert r.status_code == 422 and r.json["error"]["code"] == "validation_error"


def test_a_bulk_change_naming_a_foreign_paper_changes_none(client, alice, bob, shelf):
    theirs = save(client, bob, title="Bob's")
    r = client.patch("/api/papers", headers=alice, json={
        "ids": [shelf[0]["id"], theirs["id"]], "set": {"starred": True}, "add_tags": ["x"]})
    assert r.status_code == 422 and "ids" in r.json["error"]["fields"]
    mine = client.get(f"/api/papers/{shelf[0]['id']}", headers=alice).json
    assert mine["starred"] is False and mine["tags"] == []
    assert client.get(f"/api/papers/{theirs['id']}", headers=bob).json["starred"] is False
    r = client.patch("/api/papers", headers=alice, json={"ids": [shelf[0]["id"]],
                                                          "share_group": 424242})
    assert r.status_code == 422 and "groups" in r.json["error"]["fields"]


def test_delete_many_then_restore_brings_back_notes_highlights_tags_and_ids(client, alice, shelf):
    pid = shelf[1]["id"]
    client.patch(f"/api/papers/{pid}", json={"tags": ["nlp"], "reading_state": "reading"},
                 headers=alice)
    note = client.post(f"/api/papers/{pid}/notes", json={"body": "**key** idea"}, headers=alice).json
    hl = client.post(f"/api/papers/{pid}/highlights", headers=alice,
                     json={"field": "title", "exact": "attention", "start": 0, "end": 9}).json
    before = client.get(f"/api/papers/{pid}", headers=alice).json
    r = client.open("/api/papers", method="DELETE", headers=alice,
                    json={"ids": [pid, shelf[2]["id"], 999999]})
    assert r.status_code == 200 and sorted(r.json["deleted"]) == sorted([pid, shelf[2]["id"]])
    assert r.json["restorable_for"] >= 60
    assert papers(client, alice)["total"] == 3
    assert client.get(f"/api/papers/{pid}", headers=alice).status_code == 404
    assert ids(papers(client, alice, "?q=idea")) == []
    r = client.post("/api/papers/restore", json={"ids": [pid, shelf[2]["id"]]}, headers=alice)
    assert r.status_code == 200 and sorted(r.json["restored"]) == sorted([pid, shelf[2]["id"]])
    after = client.get(f"/api/papers/{pid}", headers=alice).json
    assert after == before
    assert [n["id"] for n in after["notes"]] == [note["id"]]
    assert [h["id"] for h in after["highlights"]] == [hl["id"]]
    assert ids(papers(client, alice, "?q=idea")) == [pid]
    again = client.post("/api/papers/restore", json={"ids": [pid]}, headers=alice)
    assert again.json == {"restored": []}


def test_a_restored_paper_whose_key_was_taken_gets_a_free_one(client, alice, bob, shelf):
    pid, key = shelf[3]["id"], shelf[3]["citation_key"]
    client.delete(f"/api/papers/{pid}", headers=alice)
    clash = client.post("/api/papers", headers=alice, json={
        "title": "Other", "authors": ["Zed Zulu"], "published": "2001"}).json
    client.patch(f"/api/papers/{clash['id']}", json={"citation_key": key}, headers=alice)
    assert client.post("/api/papers/restore", json={"ids": [pid]}, headers=bob).json == {
        "restored": []}  # not bob's
    r = client.post("/api/papers/restore", json={"ids": [pid]}, headers=alice)
    assert r.json == {"restored": [pid]}
    back = client.get(f"/api/papers/{pid}", headers=alice).json
    assert back["citation_key"] != key and back["citation_key"].startswith(key)


# ---- tags as a whole -----------------------------------------------------------------------


def test_tags_are_counted_by_use_and_topics_apart(client, alice, shelf, paper_data):
    for paper, tags in zip(shelf, (["b"], ["a", "b"], ["c", "b"], ["a"], []), strict=True):
        client.patch(f"/api/papers/{paper['id']}", json={"tags": tags}, headers=alice)
    save(client, alice, **paper_data)
    r = client.get("/api/tags", headers=alice).json
    assert r["tags"] == [{"name": "b", "count": 3}, {"name": "a", "count": 2},
                         {"name": "c", "count": 1}]
    assert {"name": "LLM Agent Training", "count": 1} in r["topics"]


def test_rename_merge_and_delete_a_tag(client, alice, shelf):
    a, b, c = (p["id"] for p in shelf[:3])
    client.patch(f"/api/papers/{a}", json={"tags": ["to-read", "RL"]}, headers=alice)
    client.patch(f"/api/papers/{b}", json={"tags": ["reinforcement learning", "rl"]}, headers=alice)
    client.patch(f"/api/papers/{c}", json={"tags": ["reinforcement learning"]}, headers=alice)
    r = client.patch("/api/tags/RL", json={"name": "Reinforcement  learning"}, headers=alice)
    assert r.status_code == 200 and r.json == {"name": "reinforcement learning", "count": 3}
    assert client.get(f"/api/papers/{a}", headers=alice).json["tags"] == [
        "to-read", "reinforcement learning"]
    assert client.get(f"/api/papers/{b}", headers=alice).json["tags"] == ["reinforcement learning"]
    r = client.patch("/api/tags/to-read", json={"name": "To read"}, headers=alice)
    assert r.json == {"name": "To read", "count": 1}
    assert ids(papers(client, alice, "?tag=to%20read")) == [a]
    assert client.delete("/api/tags/To read", headers=alice).status_code == 204
    assert [t["name"] for t in client.get("/api/tags", headers=alice).json["tags"]] == [
        "reinforcement learning"]
    assert papers(client, alice)["total"] == 5
    assert client.patch("/api/tags/nope", json={"name": "x"}, headers=alice).status_code == 404
    assert client.delete("/api/tags/nope", headers=alice).status_code == 404
    r = client.patch("/api/tags/reinforcement learning", json={"name": "   "}, headers=alice)
    assert r.status_code == 422


def test_a_tag_with_a_slash_is_renamed(client, alice, shelf):
    client.patch(f"/api/papers/{shelf[0]['id']}", json={"tags": ["ml/theory"]}, headers=alice)
    r = client.patch("/api/tags/ml/theory", json={"name": "theory"}, headers=alice)
    assert r.status_code == 200 and r.json["count"] == 1


# ---- duplicates and merging ----------------------------------------------------------------


def test_duplicates_by_arxiv_doi_and_by_title_author_year(client, alice):
    preprint = save(client, alice, arxiv_id="1706.03762", title="Attention Is All You Need",
                    authors=["Ashish Vaswani", "Noam Shazeer"], published="2017-06-12")
    venue = save(client, alice, title="Attention is all you need.",
                 authors=["A. Vaswani"], published="2017-12-04", entry_type="inproceedings",
                 booktitle="NeurIPS", doi="10.5555/3295222.3295349")
    # a save by arXiv's DOI would merge into the preprint: an edit gives another paper that DOI
    by_arxiv_doi = save(client, alice, title="Transformers", url="https://example.org/t")
    r = client.patch(f"/api/papers/{by_arxiv_doi['id']}", headers=alice,
                     json={"doi": "10.48550/arXiv.1706.03762"})
    assert r.status_code == 200, r.json
    doi_a = save(client, alice, title="A", doi="10.1000/XYZ")
    doi_b = save(client, alice, title="A (extended)", url="https://example.org/a")
    client.patch(f"/api/papers/{doi_b['id']}", json={"doi": "10.1000/xyz"}, headers=alice)
    save(client, alice, title="Alone")
    groups = client.get("/api/duplicates", headers=alice).json["groups"]
    found = {(g["reason"], tuple(p["id"] for p in g["papers"])) for g in groups}
    assert ("arXiv id", (preprint["id"], by_arxiv_doi["id"])) in found
    assert ("DOI", (doi_a["id"], doi_b["id"])) in found
    assert ("title, first author, year", (preprint["id"], venue["id"])) in found
    assert len(found) == 3


def test_merge_keeps_everything_of_both_and_the_other_key_as_alias(client, alice):
    keep = save(client, alice, arxiv_id="1706.03762", title="Attention Is All You Need",
                authors=["Ashish Vaswani"], published="2017-06-12", tags=["nlp"])
    other = save(client, alice, title="Attention is all you need", authors=["Ashish Vaswani"],
                 published="2017", entry_type="inproceedings", booktitle="NeurIPS",
                 doi="10.5555/3295222.3295349", tags=["transformers", "NLP"])
    group = client.post("/api/groups", json={"name": "Lab"}, headers=alice).json
    client.patch(f"/api/papers/{other['id']}", headers=alice,
                 json={"groups": [group["id"]], "reading_state": "read", "starred": True})
    n1 = client.post(f"/api/papers/{keep['id']}/notes", json={"body": "mine"}, headers=alice).json
    n2 = client.post(f"/api/papers/{other['id']}/notes", json={"body": "theirs"}, headers=alice).json
    h = client.post(f"/api/papers/{other['id']}/highlights", headers=alice,
                    json={"field": "title", "exact": "Attention", "start": 0, "end": 9}).json
    r = client.post(f"/api/papers/{keep['id']}/merge", json={"other": other["id"]}, headers=alice)
    assert r.status_code == 200, r.json
    m = r.json
    assert m["citation_key"] == keep["citation_key"] and m["citation_key_fixed"] is True
    assert m["key_aliases"] == [other["citation_key"]]
    assert [n["id"] for n in m["notes"]] == [n1["id"], n2["id"]]
    assert [x["id"] for x in m["highlights"]] == [h["id"]]
    assert m["tags"] == ["nlp", "transformers"]
    assert (m["booktitle"], m["doi"], m["arxiv_id"]) == ("NeurIPS", "10.5555/3295222.3295349",
                                                         "1706.03762")
    assert (m["reading_state"], m["starred"]) == ("read", True)
    assert client.get(f"/api/papers/{other['id']}", headers=alice).status_code == 404
    shelf = client.get(f"/api/groups/{group['id']}/papers", headers=alice).json["items"]
    assert len(shelf) == 1
    assert client.get("/api/duplicates", headers=alice).json["groups"] == []


def test_merge_refuses_itself_a_missing_or_foreign_paper(client, alice, bob, saved):
    theirs = save(client, bob, title="Bob's")
    url = f"/api/papers/{saved['id']}/merge"
    for other in (saved["id"], 99999, theirs["id"]):
        r = client.post(url, json={"other": other}, headers=alice)
        assert r.status_code == 422 and "other" in r.json["error"]["fields"]
    r = client.post(f"/api/papers/{theirs['id']}/merge", json={"other": saved["id"]}, headers=alice)
    assert r.status_code == 404
    assert client.get(f"/api/papers/{theirs['id']}", headers=bob).status_code == 200


# ---- settings: key formula preview, export defaults -----------------------------------------


def test_formula_preview_shows_keys_and_what_a_rekey_changes_without_changing_them(client, alice):
    a = save(client, alice, title="Attention Is All You Need", authors=["Ashish Vaswani"],
             published="2017-06-12")
    b = save(client, alice, title="Deep Residual Learning", authors=["Kaiming He"],
             published="2016")
    client.patch(f"/api/papers/{b['id']}", json={"citation_key": "resnet"}, headers=alice)
    r = client.post("/api/settings/preview", json={"citekey_format": "[Auth][year]", "rekey": True},
                    headers=alice)
    assert r.status_code == 200, r.json
    examples = {e["id"]: e for e in r.json["examples"]}
    assert examples[a["id"]]["formula_key"] == "Vaswani2017"
    assert examples[b["id"]]["pinned"] is True
    assert r.json["changes"] == [{"id": a["id"], "title": a["title"], "old": a["citation_key"],
                                  "new": "Vaswani2017"}]
    assert client.get(f"/api/papers/{a['id']}", headers=alice).json["citation_key"] == a["citation_key"]
    assert client.get("/api/settings", headers=alice).json["citekey_format"] != "[Auth][year]"
    r = client.post("/api/settings/preview", json={"citekey_format": "[nope]"}, headers=alice)
    assert r.status_code == 422 and "citekey_format" in r.json["error"]["fields"]


def test_export_defaults_are_kept_and_checked(client, alice):
    r = client.patch("/api/settings", json={"export": {"abstract": False, "encoding": "utf8",
                                                       "cite": "preprint"}}, headers=alice)
    assert r.status_code == 200
    assert r.json["export"] == {"abstract": False, "notes_field": "annote", "encoding": "utf8",
                                "cite": "preprint"}
    for bad in ({"encoding": "latin1"}, {"abstract": "no"}, {"cite": "x"}, {"other": 1}):
        r = client.patch("/api/settings", json={"export": bad}, headers=alice)
        assert r.status_code == 422
    assert client.get("/api/settings", headers=alice).json["export"]["encoding"] == "utf8"


# ---- the store -----------------------------------------------------------------------------


def test_a_version_10_store_gains_reading_state_and_the_migration_runs_twice(make_app, make_user):
    app = make_app()
    headers = make_user("alice")
    c = app.test_client()
    paper = c.post("/api/papers", json={"title": "Kept"}, headers=headers).json
    with app.extensions["papershelf_db"].connection_context():
        with store.db.atomic():
            for column in ("reading_state", "starred", "key_aliases"):
                store.db.execute_sql("DROP INDEX IF EXISTS paper_user_id_reading_state")
                store.db.execute_sql(f"ALTER TABLE paper DROP COLUMN {column}")
            store.db.execute_sql('ALTER TABLE "user" DROP COLUMN export_defaults')
            store.db.execute_sql("DROP TABLE deleted_paper")
            store.db.execute_sql("DELETE FROM schema_version")
            store.db.execute_sql("INSERT INTO schema_version (version) VALUES (10)")
    again = make_app()
    with again.extensions["papershelf_db"].connection_context():
        assert store.db.execute_sql("SELECT MAX(version) FROM schema_version").fetchone()[0] \
            == migrations.SCHEMA_VERSION
    with again.extensions["papershelf_db"].connection_context():
        with store.db.atomic():
            migrations.MIGRATIONS[13]()  # idempotent
    kept = again.test_client().get(f"/api/papers/{paper['id']}", headers=headers).json
    assert (kept["title"], kept["reading_state"], kept["starred"], kept["key_aliases"]) == (
        "Kept", "unread", False, [])


def test_importing_a_file_again_says_how_many_were_already_there(client, alice):
    bib = ("@article{a2020, title={First}, author={Doe, Ann}, year={2020}, journal={J}}\n"
           "@article{b2021, title={Second}, author={Roe, Bo}, year={2021}, journal={J}}\n")
    first = client.post("/api/import?format=bibtex", data=bib.encode(), headers=alice,
                        content_type="text/plain").json
    assert (first["created"], first["unchanged"]) == (2, 0)
    again = client.post("/api/import?format=bibtex", data=bib.encode(), headers=alice,
                        content_type="text/plain").json
    assert (again["created"], again["updated"], again["unchanged"], again["skipped"]) == (0, 0, 2, 0)


# ---- exports: aliases, state on request, the user's defaults -------------------------------


def _bibtex(client, headers, query=""):
    r = client.get("/api/export?format=bibtex" + query, headers=headers)
    assert r.status_code == 200, r.data[:300]
    return r.get_data(as_text=True)


def test_a_merged_papers_key_is_exported_as_ids_and_parses(client, alice):
    import bibtexparser
    from pybtex.database import parse_string

    keep = save(client, alice, title="Attention Is All You Need", authors=["Ashish Vaswani"],
                published="2017-06-12")
    other = save(client, alice, title="Attention is all you need", authors=["Ashish Vaswani"],
                 published="2017", entry_type="inproceedings", booktitle="NeurIPS")
    client.post(f"/api/papers/{keep['id']}/merge", json={"other": other["id"]}, headers=alice)
    for fmt in ("bibtex", "biblatex"):
        text = client.get(f"/api/export?format={fmt}", headers=alice).get_data(as_text=True)
        assert f"ids = {{{other['citation_key']}}}" in text
        entries = parse_string(text, "bibtex").entries
        assert list(entries) == [keep["citation_key"]]
        assert not bibtexparser.parse_string(text).failed_blocks


def test_state_and_star_go_into_keywords_only_when_asked(client, alice, saved):
    client.patch(f"/api/papers/{saved['id']}", headers=alice,
                 json={"tags": ["rl"], "reading_state": "to_read", "starred": True})
    plain = _bibtex(client, alice)
    assert "keywords = {rl}" in plain and "state:" not in plain and "starred" not in plain
    asked = _bibtex(client, alice, "&with_state=1")
    assert "keywords = {rl, state:to\\_read, starred}" in asked  # LaTeX-escaped
    r = client.get("/api/export?with_state=maybe", headers=alice)
    assert r.status_code == 422


def test_exports_follow_the_users_defaults_where_the_query_is_silent(client, alice, saved):
    assert "abstract = {" in _bibtex(client, alice)
    client.patch("/api/settings", json={"export": {"abstract": False}}, headers=alice)
    assert "abstract = {" not in _bibtex(client, alice)
    assert "abstract = {" in _bibtex(client, alice, "&abstract=1")


def test_a_backup_keeps_state_star_and_key_aliases(client, alice, bob):
    keep = save(client, alice, title="Attention Is All You Need", authors=["Ashish Vaswani"],
                published="2017-06-12")
    other = save(client, alice, title="Attention is all you need", authors=["Ashish Vaswani"],
                 published="2017")
    client.post(f"/api/papers/{keep['id']}/merge", json={"other": other["id"]}, headers=alice)
    client.patch(f"/api/papers/{keep['id']}", json={"reading_state": "read", "starred": True},
                 headers=alice)
    backup = client.get("/api/export?format=json", headers=alice).get_data()
    r = client.post("/api/import?format=json", data=backup, headers=bob,
                    content_type="application/json")
    assert r.status_code == 200 and r.json["created"] == 1, r.json
    (restored,) = client.get("/api/papers", headers=bob).json["items"]
    assert (restored["reading_state"], restored["starred"], restored["key_aliases"]) == (
        "read", True, [other["citation_key"]])


@pytest.mark.parametrize(("method", "url", "body"), [
    ("PATCH", "/api/papers", {"ids": [2**63 - 1], "set": {"starred": True}}),
    ("DELETE", "/api/papers", {"ids": [2**63 - 1, 2**31]}),
    ("POST", "/api/papers/restore", {"ids": [2**63 - 1]}),
    ("POST", "/api/papers/1/merge", {"other": 2**63 - 1}),
    ("POST", f"/api/papers/{2**63 - 1}/merge", {"other": 1}),
    ("PATCH", "/api/tags/" + "x" * 5000, {"name": "y"}),
    ("DELETE", "/api/tags/a%00b", None),
    ("PATCH", "/api/tags/%ED%A0%80", {"name": "y"}),
])
def test_out_of_range_ids_and_unstorable_tag_names_are_answered_cleanly(client, alice, saved,
                                                                       method, url, body):
    r = client.open(url, method=method, json=body, headers=alice)
    assert r.status_code < 500, (r.status_code, r.data[:200])
    if r.status_code >= 400:
        assert set(r.json) == {"error"}
    else:  # ids of no paper: nothing deleted, nothing restored
        assert r.json in ({"deleted": [], "restorable_for": 3600}, {"restored": []})
    assert client.get(f"/api/papers/{saved['id']}", headers=alice).status_code == 200


def test_a_restored_paper_whose_id_was_given_out_again_comes_back_under_a_new_one(client, alice):
    first = save(client, alice, title="First paper")
    last = save(client, alice, title="Last paper")
    note = client.post(f"/api/papers/{last['id']}/notes", json={"body": "kept"}, headers=alice).json
    client.open("/api/papers", method="DELETE", json={"ids": [last["id"]]}, headers=alice)
    newer = save(client, alice, title="Saved after the delete")
    client.post(f"/api/papers/{newer['id']}/notes", json={"body": "newer's"}, headers=alice)
    r = client.post("/api/papers/restore", json={"ids": [last["id"]]}, headers=alice)
    assert r.status_code == 200, r.json
    (back_id,) = r.json["restored"]
    back = client.get(f"/api/papers/{back_id}", headers=alice).json
    assert back["title"] == "Last paper" and [n["body"] for n in back["notes"]] == ["kept"]
    # SQLite gives the highest id out again once its row is gone; PostgreSQL's sequence never
    assert (back_id == last["id"]) == (newer["id"] != last["id"])
    assert note["body"] == "kept"
    titles = sorted(p["title"] for p in papers(client, alice)["items"])
    assert titles == ["First paper", "Last paper", "Saved after the delete"] and first
