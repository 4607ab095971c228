"""POST/GET/PATCH/DELETE /api/papers, lookup, listing, search, tags."""

import uuid

import pytest


def test_health_needs_no_token(client):
    r = client.get("/api/health")
    assert r.status_code == 200
    assert r.json["status"] == "ok" and r.json["version"]


def test_save_creates_paper_with_normalized_id_and_key(client, alice, paper_data):
    paper_data["arxiv_id"] = "arXiv:2603.29001v2"
    r = client.post("/api/papers", json=paper_data, headers=alice)
    assert r.status_code == 201
    p = r.json
    assert p["arxiv_id"] == "2603.29001" and p["arxiv_version"] == 2
    assert p["url"] == "https://arxiv.org/abs/2603.29001"
    assert p["citation_key"] == "jiang2026asymmetric"
    assert p["authors"] == paper_data["authors"] and p["authors_more"] == 3
    assert p["published"] == "2026-03-31"
    assert p["notes"] == [] and p["highlights"] == []


def test_only_title_is_required(client, alice):
    r = client.post("/api/papers", json={"title": "A note I found"}, headers=alice)
    assert r.status_code == 201
    assert r.json["abstract"] == "" and r.json["authors"] == [] and r.json["arxiv_id"] is None


def test_resave_does_not_duplicate(client, alice, paper_data):
    first = client.post("/api/papers", json=paper_data, headers=alice)
    paper_data["arxiv_id"] = f"https://www.alphaxiv.org/abs/{paper_data['arxiv_id']}v3"
    again = client.post("/api/papers", json=paper_data, headers=alice)
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json["id"] == first.json["id"]
    assert again.json["arxiv_version"] == 3
    listing = client.get("/api/papers", headers=alice).json
    assert len(listing["items"]) == 1


def test_retry_with_same_client_id_is_idempotent(client, alice):
    cid = str(uuid.uuid4())
    body = {"title": "No identifier at all", "client_id": cid}
    a = client.post("/api/papers", json=body, headers=alice)
    b = client.post("/api/papers", json=body, headers=alice)
    assert (a.status_code, b.status_code) == (201, 200)
    assert a.json["id"] == b.json["id"]


def test_same_doi_or_url_merges(client, alice):
    a = client.post("/api/papers", json={"title": "T", "doi": "https://doi.org/10.1145/ABC"},
                    headers=alice)
    b = client.post("/api/papers", json={"title": "T2", "doi": "10.1145/abc"}, headers=alice)
    assert b.status_code == 200 and b.json["id"] == a.json["id"]
    c = client.post("/api/papers", json={"title": "W", "url": "https://example.org/p?utm_source=x"},
                    headers=alice)
    d = client.post("/api/papers", json={"title": "W", "url": "HTTPS://EXAMPLE.org/p"}, headers=alice)
    assert d.status_code == 200 and d.json["id"] == c.json["id"]


def test_page_save_fills_gaps_but_never_erases(client, alice, paper_data):
    sparse = {"arxiv_id": paper_data["arxiv_id"], "title": paper_data["title"]}
    client.post("/api/papers", json=sparse, headers=alice)
    r = client.post("/api/papers", json=paper_data, headers=alice)
    assert r.json["abstract"] == paper_data["abstract"]
    r = client.post("/api/papers", json={**sparse, "abstract": "", "authors": []}, headers=alice)
    assert r.json["abstract"] == paper_data["abstract"]
    assert r.json["authors"] == paper_data["authors"]


def test_page_save_never_overwrites_user_edit(client, alice, saved, paper_data):
    pid = saved["id"]
    r = client.patch(f"/api/papers/{pid}", json={"title": "My own title", "abstract": "mine"},
                     headers=alice)
    assert r.status_code == 200
    assert set(r.json["edited_fields"]) >= {"title", "abstract"}
    paper_data["title"] = "Page title v2"
    paper_data["abstract"] = "page abstract v2"
    paper_data["affiliations"] = ["AWS Agentic AI", "New Lab"]
    r = client.post("/api/papers", json=paper_data, headers=alice)
    assert r.status_code == 200
    assert r.json["title"] == "My own title" and r.json["abstract"] == "mine"
    assert r.json["affiliations"] == ["AWS Agentic AI", "New Lab"]


def test_page_save_adds_tags_and_topics_without_dropping(client, alice, paper_data):
    paper_data["tags"] = ["to-read"]
    client.post("/api/papers", json=paper_data, headers=alice)
    paper_data["tags"] = ["RL", "TO-READ"]
    paper_data["topics"] = ["Agents"]
    r = client.post("/api/papers", json=paper_data, headers=alice)
    assert r.json["tags"] == ["to-read", "RL"]
    assert r.json["topics"][-1] == "Agents" and "LLM Agent Training" in r.json["topics"]


def test_get_paper_has_notes_and_highlights(client, alice, saved):
    pid = saved["id"]
    client.post(f"/api/papers/{pid}/notes", json={"body": "n1"}, headers=alice)
    client.post(f"/api/papers/{pid}/highlights",
                json={"exact": "Large", "start": 0, "end": 5}, headers=alice)
    r = client.get(f"/api/papers/{pid}", headers=alice)
    assert r.status_code == 200
    assert [n["body"] for n in r.json["notes"]] == ["n1"]
    assert [h["exact"] for h in r.json["highlights"]] == ["Large"]


def test_patch_tags_replace_the_set(client, alice, saved):
    r = client.patch(f"/api/papers/{saved['id']}", json={"tags": ["b", "a", "B"]}, headers=alice)
    assert r.json["tags"] == ["b", "a"]
    r = client.get("/api/papers?tag=A", headers=alice)
    assert [p["id"] for p in r.json["items"]] == [saved["id"]]
    r = client.patch(f"/api/papers/{saved['id']}", json={"tags": []}, headers=alice)
    assert r.json["tags"] == []
    assert client.get("/api/papers?tag=a", headers=alice).json["items"] == []


def test_patch_citation_key_checks_uniqueness(client, alice, saved):
    other = client.post("/api/papers", json={"title": "Other"}, headers=alice).json
    r = client.patch(f"/api/papers/{other['id']}", json={"citation_key": saved["citation_key"]},
                     headers=alice)
    assert r.status_code == 409
    assert r.json["error"]["code"] == "conflict"
    assert "citation_key" in r.json["error"]["fields"]
    r = client.patch(f"/api/papers/{other['id']}", json={"citation_key": "mine2026"}, headers=alice)
    assert r.status_code == 200 and r.json["citation_key"] == "mine2026"


def test_citation_keys_clash_get_suffixes_and_never_change(client, alice, paper_data):
    keys = []
    for i in range(3):
        body = {**paper_data, "arxiv_id": f"2603.2900{i + 1}"}
        keys.append(client.post("/api/papers", json=body, headers=alice).json["citation_key"])
    assert keys == ["jiang2026asymmetric", "jiang2026asymmetrica", "jiang2026asymmetricb"]
    first = client.get("/api/papers?limit=200", headers=alice).json["items"][-1]
    client.delete(f"/api/papers/{first['id']}", headers=alice)
    r = client.post("/api/papers", json={**paper_data, "arxiv_id": "2603.29009"}, headers=alice)
    # A freed key may be given again, but no existing paper's key moves.
    assert r.json["citation_key"] == "jiang2026asymmetric"
    remaining = {p["citation_key"] for p in client.get("/api/papers", headers=alice).json["items"]}
    assert {"jiang2026asymmetrica", "jiang2026asymmetricb"} <= remaining


def test_delete_takes_notes_and_highlights(client, alice, saved, app):
    pid = saved["id"]
    note = client.post(f"/api/papers/{pid}/notes", json={"body": "x"}, headers=alice).json
    hl = client.post(f"/api/papers/{pid}/highlights", json={"exact": "L", "start": 0, "end": 1},
                     headers=alice).json
    assert client.delete(f"/api/papers/{pid}", headers=alice).status_code == 204
    assert client.get(f"/api/papers/{pid}", headers=alice).status_code == 404
    assert client.patch(f"/api/notes/{note['id']}", json={"body": "y"}, headers=alice).status_code == 404
    assert client.delete(f"/api/highlights/{hl['id']}", headers=alice).status_code == 404
    from papershelf.store.models import Highlight, Note

    with app.extensions["papershelf_db"].connection_context():
        assert Note.select().count() == 0 and Highlight.select().count() == 0
    assert client.get("/api/papers?q=Large", headers=alice).json["items"] == []


def test_listing_is_newest_first_with_cursor(client, alice):
    ids = [client.post("/api/papers", json={"title": f"Paper {i}"}, headers=alice).json["id"]
           for i in range(7)]
    seen, cursor = [], None
    while True:
        url = "/api/papers?limit=3" + (f"&cursor={cursor}" if cursor else "")
        page = client.get(url, headers=alice).json
        seen += [p["id"] for p in page["items"]]
        cursor = page["next_cursor"]
        if not cursor:
            break
    assert seen == list(reversed(ids))


def test_listing_sorted_by_publication_date(client, alice):
    for title, date in [("old", "2020-01-01"), ("none", None), ("new", "2026-05-01"),
                        ("mid", "2023-06-01")]:
        client.post("/api/papers", json={"title": title, "published": date}, headers=alice)
    seen, cursor = [], None
    while True:
        url = "/api/papers?sort=published&limit=1" + (f"&cursor={cursor}" if cursor else "")
        page = client.get(url, headers=alice).json
        seen += [p["title"] for p in page["items"]]
        cursor = page["next_cursor"]
        if not cursor:
            break
    assert seen == ["new", "mid", "old", "none"]


@pytest.mark.parametrize("cursor", ["nonsense", "W10", "eyJhIjogMX0"])
def test_bad_cursor_is_a_validation_error(client, alice, cursor):
    r = client.get(f"/api/papers?cursor={cursor}", headers=alice)
    assert r.status_code == 422 and "cursor" in r.json["error"]["fields"]


@pytest.mark.parametrize(("q", "hit"), [
    ("asymmetric", True),  # title
    ("Zhaoyang", True),  # author
    ("conversational", True),  # abstract
    ("conversation", True),  # prefix of an abstract word
    ("pineapple", True),  # a note
    ("tangerine", True),  # a highlight comment
    ("LARGE language", True),
    ("quantum", False),
    ("asymmetric quantum", False),  # every word must match
])
def test_search_covers_title_authors_abstract_notes_highlights(client, alice, saved, q, hit):
    pid = saved["id"]
    client.post(f"/api/papers/{pid}/notes", json={"body": "Reminds me of **pineapple** RL"},
                headers=alice)
    client.post(f"/api/papers/{pid}/highlights",
                json={"exact": "Large", "start": 0, "end": 5, "comment": "tangerine"}, headers=alice)
    client.post("/api/papers", json={"title": "Unrelated work on graphs"}, headers=alice)
    items = client.get("/api/papers", query_string={"q": q}, headers=alice).json["items"]
    assert ([p["id"] for p in items] == [pid]) is hit


@pytest.mark.parametrize("q", ['"', "*", "AND", "NEAR(", "a:b", "')--", "   ", "\\", "ö", "🙂"])
def test_search_survives_query_syntax(client, alice, saved, q):
    r = client.get("/api/papers", query_string={"q": q}, headers=alice)
    assert r.status_code == 200


def test_search_follows_note_edits(client, alice, saved):
    pid = saved["id"]
    note = client.post(f"/api/papers/{pid}/notes", json={"body": "kiwi"}, headers=alice).json
    assert len(client.get("/api/papers?q=kiwi", headers=alice).json["items"]) == 1
    client.patch(f"/api/notes/{note['id']}", json={"body": "mango"}, headers=alice)
    assert client.get("/api/papers?q=kiwi", headers=alice).json["items"] == []
    assert len(client.get("/api/papers?q=mango", headers=alice).json["items"]) == 1


def test_filter_by_topic_matches_whole_topic(client, alice, saved):
    client.post("/api/papers", json={"title": "Other", "topics": ["LLM Agent"]}, headers=alice)
    r = client.get("/api/papers", query_string={"topic": "llm agent training"}, headers=alice)
    assert [p["id"] for p in r.json["items"]] == [saved["id"]]
    r = client.get("/api/papers", query_string={"topic": "LLM Agent"}, headers=alice)
    assert len(r.json["items"]) == 1 and r.json["items"][0]["title"] == "Other"


def test_lookup_marks_a_page_in_one_call(client, alice, saved):
    pid = saved["id"]
    client.post(f"/api/papers/{pid}/notes", json={"body": "n"}, headers=alice)
    web = client.post("/api/papers", json={"title": "Blog", "url": "https://example.org/post"},
                      headers=alice).json
    r = client.post("/api/papers/lookup", json={
        "arxiv_ids": ["arXiv:2603.29001v1", "2603.99999", "not-an-id"],
        "urls": ["https://example.org/post", "https://arxiv.org/abs/2603.29001"],
    }, headers=alice)
    assert r.status_code == 200
    papers = r.json["papers"]
    # Each paper under its normalized key and under every key the page asked with.
    assert set(papers) == {"2603.29001", "arXiv:2603.29001v1", "https://arxiv.org/abs/2603.29001",
                           "https://example.org/post"}
    assert {papers[k]["id"] for k in papers if "29001" in k} == {pid}
    assert [n["body"] for n in papers["2603.29001"]["notes"]] == ["n"]
    assert papers["https://example.org/post"]["id"] == web["id"]
    assert r.json["invalid"] == ["not-an-id"]


@pytest.mark.parametrize("asked", [
    "https://Example.org/post#section",
    "https://example.org/post?utm_source=x",
    "https://example.org/post?utm_source=x&utm_medium=feed#section-2",
    "https://example.org:443/post?fbclid=abc",
    "  https://example.org/post  ",
])
def test_lookup_answers_under_the_url_the_page_asked_with(client, alice, asked):
    web = client.post("/api/papers", json={"title": "Blog", "url": asked}, headers=alice).json
    assert web["url"] == "https://example.org/post"
    r = client.post("/api/papers/lookup", json={"urls": [asked]}, headers=alice)
    assert r.status_code == 200
    papers = r.json["papers"]
    assert set(papers) == {"https://example.org/post", asked}
    assert papers[asked]["id"] == papers["https://example.org/post"]["id"] == web["id"]
    # Known by the page it was saved from, too.
    r = client.post("/api/papers/lookup", json={"urls": ["https://example.org/post?utm_campaign=y"]},
                    headers=alice)
    assert r.json["papers"]["https://example.org/post?utm_campaign=y"]["id"] == web["id"]


def test_lookup_answers_the_same_records_as_the_paper_itself(client, alice, saved, paper_data):
    """The page's lookup (one aggregated query on PostgreSQL) carries tags, notes and highlights
    exactly as GET /api/papers/<id> answers them: same fields, timestamps, order, text."""
    pid = saved["id"]
    abstract = saved["abstract"]
    client.patch(f"/api/papers/{pid}", json={"tags": ["zeta", "Alpha 🧪", "mid"]}, headers=alice)
    for body in ("second <script>alert(1)</script> {%}", "first: emoji 🧪, TeX $\\alpha$", ""):
        if body:
            client.post(f"/api/papers/{pid}/notes", json={"body": body}, headers=alice)
    words = [(abstract.index(w), w) for w in abstract.split()[:6:2]]
    for start, exact in reversed(words):  # stored out of order; both answers sort them
        r = client.post(f"/api/papers/{pid}/highlights",
                        json={"exact": exact, "start": start, "end": start + len(exact),
                              "comment": "why \"this\" — ✓", "color": "yellow"}, headers=alice)
        assert r.status_code == 201, r.json
    client.post(f"/api/papers/{pid}/highlights",
                json={"field": "title", "exact": saved["title"][:5], "start": 0, "end": 5},
                headers=alice)
    bare = client.post("/api/papers", json={**paper_data, "arxiv_id": "2603.00002",
                                            "title": "No annotations"}, headers=alice).json
    detail = client.get(f"/api/papers/{pid}", headers=alice).json
    r = client.post("/api/papers/lookup",
                    json={"arxiv_ids": [saved["arxiv_id"], "2603.00002"], "urls": []},
                    headers=alice)
    entry = r.json["papers"][saved["arxiv_id"]]
    assert len(detail["notes"]) == 2 and len(detail["highlights"]) == 4
    for key in ("tags", "notes", "highlights", "citation_key", "id"):
        assert entry[key] == detail[key], key
    assert [h["start"] for h in entry["highlights"] if h["field"] == "abstract"] == sorted(
        start for start, _ in words)
    empty = r.json["papers"]["2603.00002"]
    assert (empty["id"], empty["tags"], empty["notes"], empty["highlights"]) == (
        bare["id"], [], [], [])


def test_lookup_accepts_1000_and_refuses_1001(client, alice):
    ids = [f"2603.{i:05d}" for i in range(1, 1001)]
    assert client.post("/api/papers/lookup", json={"arxiv_ids": ids}, headers=alice).status_code == 200
    r = client.post("/api/papers/lookup", json={"arxiv_ids": ids, "urls": ["https://x.org/"]},
                    headers=alice)
    assert r.status_code == 422


def test_ugly_text_is_stored_verbatim(client, alice):
    body = {
        "title": "100% {Braces} & $math$ \\emph{x} } unbalanced",
        "abstract": "Emoji 🧪🚀, TeX $\\alpha^2$, CJK 大型语言模型, RTL עברית, \\end{document}",
        "authors": ["Zoë Ångström", "李小龙", "The ATLAS Collaboration"],
    }
    r = client.post("/api/papers", json=body, headers=alice)
    assert r.status_code == 201
    got = client.get(f"/api/papers/{r.json['id']}", headers=alice).json
    assert {k: got[k] for k in body} == body
