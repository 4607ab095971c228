"""The library page's new parts as served: filters by state and star, sorts, numbered pages,
the settings and duplicates pages, and odd parameters answered with the page, never a 500."""

import pytest

from tests.test_web import sign_in


def save(client, headers, **fields):
    r = client.post("/api/papers", json=fields, headers=headers)
    assert r.status_code in (200, 201), r.json
    return r.json


@pytest.mark.parametrize("query", [
    "?state=bogus", "?starred=maybe", "?sort=random", "?page=-1", "?page=abc", "?page=99999999",
    "?sort=title&cursor=forged", "?state=read&starred=1&sort=venue&page=2", "?page=%00",
])
def test_odd_list_parameters_still_answer_the_page(client, alice, query):
    for i in range(3):
        save(client, alice, title=f"Paper {i}")
    sign_in(client, alice)
    r = client.get("/" + query)
    assert r.status_code in (200, 422), r.status_code
    assert r.mimetype == "text/html"


def test_pages_are_numbered_and_filters_keep_to_the_first_page(client, alice):
    for i in range(30):
        save(client, alice, title=f"Paper {i:02d}")
    sign_in(client, alice)
    html = client.get("/?sort=title").get_data(as_text=True)
    assert "Page 1 of 2" in html and 'href="/?sort=title&amp;page=2"' in html
    html = client.get("/?sort=title&page=2").get_data(as_text=True)
    assert "Page 2 of 2" in html and "Paper 29" in html and "Paper 00" not in html
    assert 'data-all-ids="' in html


def test_state_and_star_filters_and_the_venue_show(client, alice):
    a = save(client, alice, title="Read one", entry_type="article", journal="Nature")
    save(client, alice, title="Unread one")
    client.patch(f"/api/papers/{a['id']}", json={"reading_state": "read", "starred": True},
                 headers=alice)
    sign_in(client, alice)
    html = client.get("/?state=read").get_data(as_text=True)
    assert "Read one" in html and "Unread one" not in html and "Nature" in html
    html = client.get("/?starred=0").get_data(as_text=True)
    assert "Unread one" in html and "Read one" not in html


def test_settings_and_duplicates_pages(client, alice):
    save(client, alice, title="Same work", authors=["Ann Bee"], published="2020")
    save(client, alice, title="Same Work.", authors=["A. Bee"], published="2020-05")
    sign_in(client, alice)
    html = client.get("/settings").get_data(as_text=True)
    assert "Key formula" in html and "bee2020same" in html.lower()
    html = client.get("/duplicates").get_data(as_text=True)
    assert html.count("data-dup-group") == 1 and 'data-action="merge"' in html
