"""The library page's team parts, on both stores: the Tokens page (never a secret), the groups
list, a group's shelf (its members only; others' notes marked with their author, escaped), and
the sharing controls on a paper's page, which change sharing through the API with the session."""

import re

from tests.test_web import ORIGIN, Collect, sign_in


def _lab(client, alice, bob):
    gid = client.post("/api/groups", json={"name": "Lab <b>"}, headers=alice).json["id"]
    client.post(f"/api/groups/{gid}/members", json={"user": "bob"}, headers=alice)
    return gid


def test_the_tokens_page_lists_tokens_without_their_secrets(client, alice):
    made = client.post("/api/tokens", json={"name": "laptop", "expires_in_days": 30},
                       headers=alice).json
    sign_in(client, alice)
    page = client.get("/tokens")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "laptop" in html and made["expires_at"][:10] in html
    assert made["token"] not in html and alice["Authorization"].split()[1] not in html
    assert f'data-token-id="{made["id"]}"' in html and 'data-form="create-token"' in html


def test_tokens_are_made_and_revoked_from_the_page_with_the_session(client, alice):
    sign_in(client, alice)
    made = client.post("/api/tokens", json={"name": "from the page"}, headers=ORIGIN)
    assert made.status_code == 201 and made.json["token"].startswith("ps_")
    refused = client.post("/api/tokens", json={"name": "x"}, headers={"Origin": "http://evil"})
    assert refused.status_code == 403
    assert client.delete(f"/api/tokens/{made.json['id']}", headers=ORIGIN).status_code == 204
    assert "revoked" in client.get("/tokens").get_data(as_text=True)


def test_a_group_shelf_shows_who_shared_and_their_notes_to_members_only(
        client, app, alice, bob, make_user, paper_data):
    gid = _lab(client, alice, bob)
    pid = client.post("/api/papers", json={**paper_data, "groups": [gid]}, headers=alice).json["id"]
    client.post(f"/api/papers/{pid}/notes", json={"body": "**bold** <script>x()</script>"},
                headers=alice)
    sign_in(client, bob)
    listed = client.get("/groups").get_data(as_text=True)
    assert f"/groups/{gid}" in listed and "Lab &lt;b&gt;" in listed
    page = client.get(f"/groups/{gid}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert paper_data["title"] in html and "Shared by alice" in html
    assert "<strong>bold</strong>" in html and "<script>x()" not in html
    assert 'data-note-author="alice"' in html
    assert not Collect(html).event_handlers()
    carol = make_user("carol")
    other = app.test_client()
    sign_in(other, carol)
    assert other.get(f"/groups/{gid}").status_code == 404
    assert other.get(f"/groups/{gid + 99}").status_code == 404


def test_a_papers_page_offers_its_owners_groups_to_share_with(client, alice, bob, paper_data):
    gid = _lab(client, alice, bob)
    pid = client.post("/api/papers", json=paper_data, headers=alice).json["id"]
    sign_in(client, alice)
    html = client.get(f"/papers/{pid}").get_data(as_text=True)
    assert 'data-form="share"' in html and f'value="{gid}"' in html and "checked" not in html
    assert client.patch(f"/api/papers/{pid}", json={"groups": [gid]},
                        headers=ORIGIN).status_code == 200
    html = client.get(f"/papers/{pid}").get_data(as_text=True)
    assert f'value="{gid}" checked' in html


def test_a_group_shelf_pages_with_an_older_link(client, alice, bob, paper_data, monkeypatch):
    from papershelf.web import views

    monkeypatch.setattr(views, "PAGE_SIZE", 2)
    gid = _lab(client, alice, bob)
    for i in range(5):
        client.post("/api/papers", json={**paper_data, "arxiv_id": f"2603.3500{i}",
                                         "title": f"Shelf work {i}", "groups": [gid]},
                    headers=alice)
    sign_in(client, bob)
    seen, path = [], f"/groups/{gid}"
    while path:
        html = client.get(path).get_data(as_text=True)
        seen += sorted((t for t in (f"Shelf work {i}" for i in range(5)) if t in html),
                       key=html.index)
        older = re.search(r'href="([^"]+)" rel="next"', html)
        path = older.group(1).replace("&amp;", "&") if older else None
        if path:
            assert path.startswith(f"/groups/{gid}?cursor=")
    assert seen == [f"Shelf work {i}" for i in (4, 3, 2, 1, 0)]
    # a cursor that is not ours shows the first page
    html = client.get(f"/groups/{gid}?cursor=forged").get_data(as_text=True)
    assert "Shelf work 4" in html and "Shelf work 2" not in html
