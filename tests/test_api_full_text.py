"""Full text on arXiv HTML pages: body highlights with their section, and papers saved from an
arXiv id alone (a PDF tab) that arXiv's answer titles."""

import pytest

from papershelf.domain.anchoring import describe_range, normalize_text
from tests.fake_arxiv import FakeArxiv
from tests.test_enrichment import get, run_due

BODY = normalize_text(
    "1 Introduction " + "Large language models exhibit strong reasoning. " * 1000
    + "3 Method We train the critic with a one-sided advantage, which keeps the actor stable.")


def _body_highlight(quote: str, section: str, **extra) -> dict:
    start = BODY.index(quote)
    return {"field": "body", "section": section, **describe_range(BODY, start, start + len(quote)),
            **extra}


def test_body_highlight_keeps_its_section_and_far_offsets(client, alice, saved):
    body = _body_highlight("one-sided advantage", "3 Method", color="blue")
    assert body["start"] > 40_000  # past where an abstract could reach
    r = client.post(f"/api/papers/{saved['id']}/highlights", json=body, headers=alice)
    assert r.status_code == 201, r.json
    assert (r.json["field"], r.json["section"]) == ("body", "3 Method")
    paper = client.get(f"/api/papers/{saved['id']}", headers=alice).json
    assert [(h["field"], h["section"], h["exact"]) for h in paper["highlights"]] == [
        ("body", "3 Method", "one-sided advantage")]
    lookup = client.post("/api/papers/lookup", json={"arxiv_ids": [saved["arxiv_id"]]},
                         headers=alice).json
    assert lookup["papers"][saved["arxiv_id"]]["highlights"][0]["section"] == "3 Method"


def test_abstract_highlight_has_an_empty_section(client, alice, saved):
    text = saved["abstract"]
    start = text.index("strong reasoning")
    r = client.post(f"/api/papers/{saved['id']}/highlights",
                    json={"field": "abstract", **describe_range(text, start, start + 16)},
                    headers=alice)
    assert r.status_code == 201 and r.json["section"] == ""


@pytest.mark.parametrize("bad, field", [
    ({"field": "figures"}, "field"),
    ({"section": "x" * 301}, "section"),
    ({"start": 5_000_001, "end": 5_000_020}, "start"),
])
def test_body_highlight_errors(client, alice, saved, bad, field):
    body = {**_body_highlight("one-sided advantage", "3 Method"), **bad}
    r = client.post(f"/api/papers/{saved['id']}/highlights", json=body, headers=alice)
    assert r.status_code == 422
    assert field in r.json["error"]["fields"]


def test_exports_name_a_body_highlights_section(client, alice, saved):
    client.post(f"/api/papers/{saved['id']}/highlights",
                json=_body_highlight("one-sided advantage", "3 Method", comment="why one-sided?"),
                headers=alice)
    markdown = client.get("/api/export?format=markdown", headers=alice).get_data(as_text=True)
    assert "3 Method" in markdown and "one-sided advantage" in markdown
    backup = client.get("/api/export?format=json", headers=alice).json
    assert backup["papers"][0]["highlights"][0]["section"] == "3 Method"
    jsonld = client.get("/api/export?format=jsonld", headers=alice).json
    target = jsonld["items"][0]["target"] if "items" in jsonld else None
    assert target is None or target["selector"]["value"] == "body"


def test_a_title_or_an_arxiv_id_is_required(client, alice):
    r = client.post("/api/papers", json={"url": "https://example.org/x"}, headers=alice)
    assert r.status_code == 422 and "title" in r.json["error"]["fields"]


def test_saved_from_an_arxiv_id_alone_gets_a_provisional_title(client, alice):
    r = client.post("/api/papers", json={"arxiv_id": "https://arxiv.org/pdf/2603.01234v2"},
                    headers=alice)
    assert r.status_code == 201, r.json
    assert r.json["title"] == "arXiv:2603.01234"
    assert (r.json["arxiv_id"], r.json["arxiv_version"]) == ("2603.01234", 2)
    # A later save from a page with the real title gives it its title.
    r = client.post("/api/papers", json={"arxiv_id": "2603.01234", "title": "Real Title"},
                    headers=alice)
    assert r.status_code == 200 and r.json["title"] == "Real Title"


@pytest.fixture
def fake():
    with FakeArxiv(generate=r"2601\.1\d{4}") as server:
        yield server


def test_arxiv_titles_a_paper_saved_from_its_id(make_app, make_user, fake):
    app = make_app(ARXIV_API=fake.url, ARXIV_MIN_INTERVAL=0.01, ENRICH_SETTLE=0.01,
                   ENRICH_IN_BACKGROUND=False)
    client = app.test_client()
    alice = make_user("alice")
    r = client.post("/api/papers", json={"arxiv_id": "2603.01234"}, headers=alice)
    assert r.status_code == 201 and r.json["title"] == "arXiv:2603.01234"
    assert r.json["enrichment"]["state"] == "pending"
    run_due(app)
    paper = get(client, alice, r.json["id"])
    assert paper["enrichment"]["state"] == "done"
    assert paper["title"] != "arXiv:2603.01234" and paper["title"]


def test_the_paper_page_lists_full_text_highlights_by_section_with_links(client, alice, saved):
    from tests.test_web import sign_in

    for quote, section in (("one-sided advantage", "3 Method"),
                           ("Large language models exhibit", "1 Introduction"),
                           ("which keeps the actor stable", "3 Method")):
        r = client.post(f"/api/papers/{saved['id']}/highlights",
                        json=_body_highlight(quote, section, comment=f"<b>{quote}</b>"),
                        headers=alice)
        assert r.status_code == 201, r.json
    ids = {h["exact"]: h["id"] for h in
           client.get(f"/api/papers/{saved['id']}", headers=alice).json["highlights"]}
    sign_in(client, alice)
    page = client.get(f"/papers/{saved['id']}").get_data(as_text=True)
    full = page[page.index('id="full-text-section"'):]
    assert full.index('data-full-text-section="1 Introduction"') < full.index(
        'data-full-text-section="3 Method"'), "sections in reading order"
    assert full.count("data-full-text-section=") == 2
    assert full.index("one-sided advantage") < full.index("which keeps the actor stable")
    link = (f"https://arxiv.org/html/{saved['arxiv_id']}"
            f"#papershelf-highlight={ids['one-sided advantage']}")
    assert f'href="{link}"' in full
    assert "&lt;b&gt;one-sided advantage&lt;/b&gt;" in full and "<b>one-sided" not in full


def test_a_backup_restores_body_highlights_with_their_section(client, alice, bob, saved):
    body = _body_highlight("one-sided advantage", "3 Method", comment="the key idea")
    assert client.post(f"/api/papers/{saved['id']}/highlights", json=body,
                       headers=alice).status_code == 201
    backup = client.get("/api/export?format=json", headers=alice).data
    r = client.post("/api/import?format=json", data=backup, headers=bob,
                    content_type="application/json")
    assert r.status_code == 200 and r.json["created"] == 1 and r.json["errors"] == [], r.json
    restored = client.get("/api/papers", headers=bob).json["items"][0]
    assert [(h["field"], h["section"], h["start"], h["comment"]) for h in restored["highlights"]] \
        == [("body", "3 Method", body["start"], "the key idea")]
