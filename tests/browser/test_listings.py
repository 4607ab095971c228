"""Listing pages in a real Chromium against a real papershelf server: each saved listing page of
tests/fixtures/pages/listings/ (origins in its MANIFEST.md) served at its real URL gets a Save
control on every paper it lists, in one lookup; Save on one paper stores that paper; a reload shows
it saved. A later change of the page (more results) is looked up once more, for the new ones only.
"""

import json
from urllib.parse import parse_qs, urlparse

import pytest

from conftest import PAGES, wait_until

pytestmark = pytest.mark.browser

LISTINGS = PAGES / "listings"
EXPECTED = json.loads((LISTINGS / "expected.json").read_text())
HOSTS = sorted({urlparse(p["url"]).hostname for p in EXPECTED})

COUNT_LOOKUPS = """() => {
    const h = papershelf.handlers;
    if (!h.lookup.counted) {
        const original = h.lookup;
        globalThis.lookupCalls = [];
        h.lookup = async (payload) => { lookupCalls.push(payload.keys.length); return original(payload); };
        h.lookup.counted = true;
    }
    lookupCalls.length = 0;
}"""


def _page_for(url):
    """The saved page served at `url`: its host, path and query (one site has several listings
    under one path, told apart by their query)."""
    u = urlparse(url)
    for p in EXPECTED:
        w = urlparse(p["url"])
        if (w.hostname, w.path, parse_qs(w.query)) == (u.hostname, u.path, parse_qs(u.query)):
            return p
    return None


def _route_listing(route):
    """The saved listing page for this address (a document); anything else of these hosts: 404,
    or the suite's own routes for arxiv.org's other pages."""
    page = _page_for(route.request.url) if route.request.resource_type == "document" else None
    if page:
        route.fulfill(status=200, content_type="text/html; charset=utf-8",
                      body=(LISTINGS / page["file"]).read_text())
    elif urlparse(route.request.url).hostname == "arxiv.org":
        route.fallback()
    else:
        route.fulfill(status=404, content_type="text/plain", body="not in the fixtures")


@pytest.fixture
def listing(connected):
    context, sw, server = connected
    for host in HOSTS:
        context.route(f"https://{host}/**", _route_listing)
    return context, sw, server


def marked(page, count):
    page.wait_for_function(
        "n => document.querySelectorAll("
        "'[data-papershelf-paper] [data-papershelf-action=\"save\"]').length === n", arg=count)


def save_button(page, key):
    return page.locator(f'[data-papershelf-paper="{key}"]').first.locator('[data-papershelf-action="save"]')


def stored_as(server, want):
    """The stored paper that is `want` (an expected entry), by its key."""
    for p in server.papers():
        if want["key"] in (p.get("arxiv_id"), p.get("url")):
            return p
    return None


def saved_keys_shown(page):
    return page.eval_on_selector_all(
        '[data-papershelf-paper]:has([data-papershelf-action="save"][aria-pressed="true"])',
        "els => els.map(e => e.dataset.papershelfPaper)")


def test_every_listing_marks_its_papers_in_one_lookup_saves_one_and_shows_it_after_reload(listing):
    context, sw, server = listing
    page = context.new_page()
    saved = set()  # keys saved so far: a paper saved from one listing is shown saved on the next
    for site in EXPECTED:
        entries = site["entries"]
        sw.evaluate(COUNT_LOOKUPS)
        page.goto(site["url"])
        marked(page, len(entries))
        page.wait_for_timeout(300)
        assert sw.evaluate("() => lookupCalls") == [len(entries)], f"{site['file']}: one lookup"
        keys = page.eval_on_selector_all(
            "[data-papershelf-paper]", "els => els.map(e => e.dataset.papershelfPaper)")
        assert keys == [e["key"] for e in entries], site["file"]
        assert saved_keys_shown(page) == [k for k in keys if k in saved], site["file"]
        # Save the first paper not saved yet: it is stored with what the page says of it.
        first = next(e for e in entries if e["key"] not in saved)
        save_button(page, first["key"]).click()
        page.wait_for_selector(
            f'[data-papershelf-paper="{first["key"]}"] [data-papershelf-action="save"][aria-pressed="true"]')
        saved.add(first["key"])
        p = wait_until(lambda want=first: stored_as(server, want), what=f"{site['file']}: the saved paper")
        assert p["title"] == first["title"], site["file"]
        assert p["authors"] == first["authors"], site["file"]
        assert p["source_url"].split("?")[0] == site["url"].split("?")[0], site["file"]
        if first.get("doi"):
            assert p["doi"] == first["doi"], site["file"]
        if first.get("year") and not p.get("arxiv_id"):
            assert p["published"].startswith(first["year"]), site["file"]
        # Reload: one lookup again, and the saved papers (this one, and any saved before) show it.
        sw.evaluate(COUNT_LOOKUPS)
        page.reload()
        marked(page, len(entries))
        page.wait_for_selector(
            f'[data-papershelf-paper="{first["key"]}"] [data-papershelf-action="save"][aria-pressed="true"]')
        page.wait_for_timeout(200)
        assert sw.evaluate("() => lookupCalls") == [len(entries)], f"{site['file']}: one lookup on reload"
        assert saved_keys_shown(page) == [k for k in keys if k in saved], site["file"]
    assert len(server.papers()) == len(saved) == len(EXPECTED)


def test_results_added_later_are_looked_up_once_more_for_the_new_ones_only(listing):
    context, sw, _server = listing
    site = next(p for p in EXPECTED if p["file"] == "pmlr_volume.html")
    n = len(site["entries"])
    sw.evaluate(COUNT_LOOKUPS)
    page = context.new_page()
    page.goto(site["url"])
    marked(page, n)
    # The page appends two more papers (as a "load more" would), then a third a moment later.
    page.evaluate("""() => {
        const last = [...document.querySelectorAll('[data-papershelf-paper]')].pop();
        for (const key of ['more23a', 'more23b']) {
            const copy = last.cloneNode(true);
            copy.removeAttribute('data-papershelf-paper');
            copy.querySelectorAll('[data-papershelf-ui]').forEach(e => e.remove());
            copy.querySelectorAll('a[href]').forEach(a => a.setAttribute('href',
                a.getAttribute('href').replace(/li23q/g, key)));
            copy.firstElementChild.textContent = 'Another paper ' + key;
            last.after(copy);
        }
    }""")
    marked(page, n + 2)
    page.wait_for_timeout(400)
    assert sw.evaluate("() => lookupCalls") == [n, 2]
    keys = page.eval_on_selector_all(
        "[data-papershelf-paper]", "els => els.map(e => e.dataset.papershelfPaper)")
    assert keys[-2:] == ["https://proceedings.mlr.press/v202/more23b.html",
                         "https://proceedings.mlr.press/v202/more23a.html"]


def dblp_records(n):
    """A DBLP person page of `n` records (dblp's record markup: key as id, microdata, an edition)."""
    rows = "".join(
        f'<li class="entry article" id="journals/test/Rec{i}" itemscope '
        f'itemtype="http://schema.org/ScholarlyArticle"><nav class="publ"><ul><li class="drop-down">'
        f'<div class="body"><ul><li class="ee"><a href="https://doi.org/10.1000/test.{i}" '
        f'itemprop="url">electronic edition via DOI</a></li></ul></div></li></ul></nav>'
        f'<cite class="data" itemprop="headline"><span itemprop="author" itemscope '
        f'itemtype="http://schema.org/Person"><span itemprop="name">Ada Lovelace</span></span>:<br/> '
        f'<span class="title" itemprop="name">Record number {i}.</span> '
        f'<span itemprop="isPartOf" itemscope><span itemprop="name">J. Test</span></span> '
        f'<span itemprop="datePublished">2020</span></cite></li>' for i in range(n))
    return (f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>dblp: Ada Lovelace</title>'
            f'</head><body><h1>Ada Lovelace</h1><ul class="publ-list">{rows}</ul></body></html>')


def test_a_listing_longer_than_one_lookup_answers_is_asked_in_as_many_as_it_takes(listing):
    context, sw, server = listing
    status, body = server.call("POST", "/api/papers", {
        "url": "https://doi.org/10.1000/test.1100", "title": "Record number 1100"})
    assert status in (200, 201), body
    html = dblp_records(1200)
    context.route("https://dblp.org/pid/00/0000.html", lambda route: route.fulfill(
        status=200, content_type="text/html; charset=utf-8", body=html))
    sw.evaluate(COUNT_LOOKUPS)
    page = context.new_page()
    page.goto("https://dblp.org/pid/00/0000.html")
    marked(page, 1200)
    page.wait_for_selector('[data-papershelf-paper="https://doi.org/10.1000/test.1100"] '
                           '[data-papershelf-action="save"][aria-pressed="true"]')
    page.wait_for_timeout(300)
    assert sorted(sw.evaluate("() => lookupCalls")) == [200, 1000]
    assert saved_keys_shown(page) == ["https://doi.org/10.1000/test.1100"]
