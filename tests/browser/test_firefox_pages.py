"""Every page and the listing sites in a real Firefox (Marionette), as test_every_page.py and
test_listings.py run them in Chromium: the real saved pages of tests/fixtures/pages/ served at
their own addresses (the suite's TLS proxy, sites.py). A publisher's page gets the bar and saves
every field it gives, its saved state on the toolbar badge and never in the page; a hostile page
faking 1,000 DOIs learns nothing; a page without a paper is left as it is; each listing marks its
papers in one lookup, saves one, and shows it saved after a reload."""

import json
import time

import pytest
from test_every_page import BY_SITE, OURS, assert_saved_as, hostile_page

from conftest import PAGES, wait_until

BROWSERS = ["firefox"]
STORES = ["sqlite"]
pytestmark = [pytest.mark.browser, pytest.mark.parametrize("ext", BROWSERS, indirect=True),
              pytest.mark.parametrize("server", STORES, indirect=True)]

HOSTILE_URL = "https://papers.hostile.example/probe"
LISTINGS = PAGES / "listings"
EXPECTED = json.loads((LISTINGS / "expected.json").read_text())
BAR = '[data-papershelf-paper] [data-papershelf-action="save"]'

COUNT_LOOKUPS = """() => {
    const h = papershelf.handlers;
    if (!h.lookup.counted) {
        const original = h.lookup;
        globalThis.lookupCalls = [];
        h.lookup = async (payload, sender, role) => {
            lookupCalls.push(payload.keys.length);
            return original(payload, sender, role);
        };
        h.lookup.counted = true;
    }
    lookupCalls.length = 0;
}"""


def badge(ext):
    """The badge of the active tab (the page under test)."""
    return ext.background("""async () => {
        const [tab] = await chrome.tabs.query({active: true, currentWindow: true});
        return chrome.action.getBadgeText({tabId: tab.id});
    }""")


def page_state(page):
    """Everything of ours the page's DOM holds (what a page script could read)."""
    return page.evaluate(f"""() => Array.from(document.querySelectorAll('{OURS}'),
        (el) => el.outerHTML.replace(/\\s+/g, ' ')).join('\\n')""")


@pytest.mark.parametrize("site", ["nature", "plos"])
def test_a_publishers_page_gets_the_bar_and_saves_every_field_in_firefox(ext_connected, site):
    ext, server = ext_connected
    fixture = BY_SITE[site]
    ext.serve(fixture["url"], (PAGES / fixture["file"]).read_bytes(), "text/html")
    page = ext.new_page()
    page.goto(fixture["url"])
    page.bring_to_front()
    page.wait_for(BAR)
    assert page.count("[data-papershelf-paper]") == 1, "one paper element"
    unsaved = page_state(page)
    page.click('[data-papershelf-action="save"]')
    (p,) = wait_until(lambda: server.papers() or None, what="the saved paper")
    assert_saved_as(p, fixture["paper"])
    # Reload: saved, as the badge says; the page's DOM is as it was before the save.
    page.reload()
    page.wait_for(BAR)
    wait_until(lambda: badge(ext) == "✓", what="the badge after a reload")
    assert page_state(page) == unsaved, "the DOM is the same, saved or not"


def test_a_hostile_page_learns_nothing_of_the_library_in_firefox(ext_connected):
    ext, server = ext_connected
    ext.serve(HOSTILE_URL, hostile_page())
    page = ext.new_page()
    page.goto(HOSTILE_URL)
    page.bring_to_front()
    page.wait_for(BAR)
    time.sleep(1.0)  # the lookup has answered
    unsaved = page_state(page)
    for i in range(0, 1000, 50):
        server.call("POST", "/api/papers", {"title": f"Fake {i}", "doi": f"10.9999/fake.{i}"})
    status, _ = server.call("POST", "/api/papers", {"title": "A Probe", "url": HOSTILE_URL})
    assert status == 201
    ext.background(COUNT_LOOKUPS)
    page.reload()
    page.wait_for(BAR)
    wait_until(lambda: badge(ext) == "✓", what="the badge showing the page's paper saved")
    assert page_state(page) == unsaved, "the DOM is the same, saved or not"
    assert "Saved" not in page.evaluate("() => document.body.innerText")
    assert ext.background("() => lookupCalls") == [1], "one key: the page's own paper"


def test_a_page_without_a_paper_is_left_as_it_is_in_firefox(ext_connected):
    ext, _server = ext_connected
    url = "https://en.wikipedia.org/wiki/New_Zealand"
    ext.serve(url, (PAGES / "notpapers" / "wikipedia-2.html").read_text(encoding="utf-8"))
    page = ext.new_page()
    page.goto(url)
    page.bring_to_front()
    before = page.evaluate("() => document.documentElement.outerHTML.length")
    time.sleep(1.5)
    assert page.count(OURS) == 0
    assert page.evaluate("() => document.documentElement.outerHTML.length") == before
    assert badge(ext) == ""


@pytest.mark.parametrize("site", [s for s in EXPECTED if s["url"].startswith("https://")],
                         ids=lambda s: s["file"].removesuffix(".html"))
def test_a_listing_marks_its_papers_in_one_lookup_and_shows_a_save_after_reload_in_firefox(
        ext_connected, site):
    ext, server = ext_connected
    entries = site["entries"]
    ext.serve(site["url"], (LISTINGS / site["file"]).read_text())
    ext.background(COUNT_LOOKUPS)
    page = ext.new_page()
    page.goto(site["url"])
    page.wait_for_function(f"n => document.querySelectorAll('{BAR}').length === n", len(entries))
    time.sleep(0.3)
    assert ext.background("() => lookupCalls") == [len(entries)], "one lookup"
    keys = page.evaluate("() => [...document.querySelectorAll('[data-papershelf-paper]')]"
                         ".map(e => e.dataset.papershelfPaper)")
    assert keys == [e["key"] for e in entries]
    first = entries[0]
    saved = f'[data-papershelf-paper="{first["key"]}"] [data-papershelf-action="save"][aria-pressed="true"]'
    page.click(f'[data-papershelf-paper="{first["key"]}"] [data-papershelf-action="save"]')
    page.wait_for(saved)
    (p,) = wait_until(lambda: server.papers() or None, what="the saved paper")
    assert (p["title"], p["authors"]) == (first["title"], first["authors"])
    page.reload()
    page.wait_for(saved)
    shown = page.evaluate("""() => [...document.querySelectorAll('[data-papershelf-paper]')]
        .filter(e => e.querySelector('[data-papershelf-action="save"][aria-pressed="true"]'))
        .map(e => e.dataset.papershelfPaper)""")
    assert shown == [first["key"]]
