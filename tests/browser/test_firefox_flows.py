"""The extension's flows in a real Firefox against a real papershelf server, as the Chromium tests
run them: the options page, a topic page's Cards and List views (saved marks, Save, Note and the
notes panel's frame, a highlight made with a real mouse drag and painted again after a reload),
arXiv's abstract, listing and HTML pages, and the outbox while the server is down.

Written on drivers.py's surface: `BROWSERS` lists where they run (Chromium has its own Playwright
flows in test_extension_pages.py and test_arxiv_html.py, so Firefox alone here).
"""

import re

import pytest

from conftest import LIST_URL, TOPIC_URL, expected_papers, free_port, wait_until
from drivers import drag_select, save_screenshot

BROWSERS = ["firefox"]
pytestmark = [pytest.mark.browser, pytest.mark.parametrize("ext", BROWSERS, indirect=True)]

PAPERS = expected_papers()
FIRST = PAPERS[0]
PAPER = '[data-papershelf-paper="{}"]'
SAVE = PAPER + ' [data-papershelf-action="save"]'
SAVED = SAVE + '[aria-pressed="true"]'
FRAME = "iframe[data-papershelf-frame]"


def wait_marked(page, count=None):
    page.wait_for('[data-papershelf-paper] [data-papershelf-action="save"]')
    if count is not None:
        page.wait_for_function(
            "n => document.querySelectorAll('[data-papershelf-paper]').length === n", count)


def wait_saved(page, arxiv_id):
    page.wait_for(SAVED.format(arxiv_id))


def open_notes(page, arxiv_id):
    """A trusted click on the paper's Note; the panel's frame, once its note box is there."""
    page.click(PAPER.format(arxiv_id) + ' [data-papershelf-action="note"]')
    page.wait_for(FRAME, visible=True)
    frame = page.frame(FRAME)
    frame.wait_for("textarea[data-papershelf-note-input]")
    return frame


def outbox_length(ext):
    return ext.background(
        "async () => ((await chrome.storage.local.get('outbox')).outbox || []).length")


def badge(ext):
    return ext.background("() => chrome.action.getBadgeText({})")


def test_options_page_tests_the_connection_and_saves_it(ext, server):
    page = ext.new_page()
    page.goto(ext.extension_url("options/options.html"))
    page.wait_for("#serverUrl")

    def check(url, token):
        page.fill("#serverUrl", url)
        page.fill("#token", token)
        page.click("#test")
        page.wait_for_function(
            "() => !['', 'Testing…'].includes(document.querySelector('#result').textContent)")
        return page.attr("#result", "data-kind"), page.text("#result")

    assert check(f"http://127.0.0.1:{free_port()}", server.token)[0] == "down"
    assert check(server.base, "ps_wrong")[0] == "wrong_token"
    assert check(server.base + "/library/nothing-here", server.token)[0] == "wrong_url"
    assert check("not a url", server.token)[0] == "wrong_url"
    kind, message = check(server.base, server.token)
    assert kind == "ok", message
    page.click("#save")
    page.wait_for_function(
        "() => document.querySelector('#result').textContent.startsWith('Saved. Connected')")
    stored = ext.background("() => chrome.storage.local.get(['serverUrl', 'token'])")
    assert stored == {"serverUrl": server.base, "token": server.token}


def test_cards_view_saves_a_paper_and_shows_it_saved_after_reload(ext_connected, tmp_path):
    ext, server = ext_connected
    page = ext.new_page()
    page.goto(TOPIC_URL)
    wait_marked(page, len(PAPERS))
    ids = page.evaluate(
        "() => [...document.querySelectorAll('[data-papershelf-paper]')].map(e => e.dataset.papershelfPaper)")
    assert ids == [p["arxiv_id"] for p in PAPERS]
    assert page.count('[data-papershelf-action="save"]') == len(PAPERS)
    assert page.count('[data-papershelf-action="save"][aria-pressed="true"]') == 0
    save_screenshot(page, tmp_path, "cards")
    page.click(SAVE.format(FIRST["arxiv_id"]))
    wait_saved(page, FIRST["arxiv_id"])
    assert page.text(SAVE.format(FIRST["arxiv_id"])).strip().endswith("Saved")
    (p,) = server.papers()
    assert (p["arxiv_id"], p["title"], p["abstract"]) == (
        FIRST["arxiv_id"], FIRST["title"], FIRST["abstract"])
    assert p["authors"] == FIRST["authors"][:3] and p["authors_more"] == 3
    assert (p["published"], p["topics"], p["source_url"]) == (
        FIRST["published"], FIRST["topics"], TOPIC_URL)
    page.click(SAVE.format(FIRST["arxiv_id"]))  # again: nothing doubles
    page.reload()
    wait_marked(page, len(PAPERS))
    wait_saved(page, FIRST["arxiv_id"])
    assert page.count('[data-papershelf-action="save"][aria-pressed="true"]') == 1
    assert len(server.papers()) == 1
