"""The panel as the library's front door, in Firefox (drivers.py's surface; Chromium runs the same
flows in test_extension_library.py, on both stores): a paper saved with a recent tag, a new one
and a group; a note shown as Markdown with its hostile parts inert; Open in library."""

import pytest

from conftest import TOPIC_URL, expected_papers

BROWSERS = ["firefox"]
STORES = ["sqlite"]
pytestmark = [pytest.mark.browser, pytest.mark.parametrize("ext", BROWSERS, indirect=True),
              pytest.mark.parametrize("server", STORES, indirect=True)]

PAPERS = expected_papers()
PAPER = '[data-papershelf-paper="{}"]'
FRAME = "iframe[data-papershelf-frame]"


def open_notes(page, arxiv_id):
    page.click(PAPER.format(arxiv_id) + ' [data-papershelf-action="note"]')
    page.wait_for(FRAME, visible=True)
    frame = page.frame(FRAME)
    frame.wait_for("textarea[data-papershelf-note-input]")
    return frame


def test_save_with_tags_and_a_group_then_a_markdown_note_and_open_in_library(ext_connected):
    ext, server = ext_connected
    status, lab = server.call("POST", "/api/groups", {"name": "Lab"})
    assert status == 201
    status, _ = server.call("POST", "/api/papers", {"arxiv_id": PAPERS[0]["arxiv_id"],
                                                    "title": PAPERS[0]["title"], "tags": ["agents"]})
    assert status == 201
    target = PAPERS[2]
    page = ext.new_page()
    page.goto(TOPIC_URL)
    page.wait_for('[data-papershelf-paper] [data-papershelf-action="save"]')
    frame = open_notes(page, target["arxiv_id"])
    frame.wait_for('[data-papershelf-recent-tag="agents"]')
    frame.click('[data-papershelf-recent-tag="agents"]')
    frame.wait_for_function(
        "() => document.querySelector('[data-papershelf-tags]').value === 'agents'")
    frame.focus("[data-papershelf-tags]")
    frame.press("End")
    frame.type(", offline RL")
    frame.click('[data-papershelf-group="Lab"]')
    frame.click('[data-papershelf-action="save-paper"]')
    frame.wait_for("#save-msg.ps-msg-ok")
    assert frame.text("#save-msg") == "Saved: tagged agents, offline RL; shared with Lab."
    page.wait_for(PAPER.format(target["arxiv_id"]) + ' [data-papershelf-action="save"][aria-pressed="true"]')
    saved = next(p for p in server.papers() if p.get("arxiv_id") == target["arxiv_id"])
    assert saved["tags"] == ["agents", "offline RL"]
    status, groups = server.call("GET", f"/api/papers/{saved['id']}/groups")
    assert [g["id"] for g in groups["items"]] == [lab["id"]]
    assert "offline RL" not in page.content()
    frame.wait_for('[data-papershelf-action="open-library"]', visible=True)
    assert frame.attr('[data-papershelf-action="open-library"]', "href") == (
        f"{server.base}/papers/{saved['id']}")
    # a note in Markdown, with a script and a javascript: link that do nothing
    frame.fill("textarea[data-papershelf-note-input]",
               "**key** [x](javascript:window.pwned=1) <img src=x onerror=window.pwned=2>")
    frame.click('[data-papershelf-action="save-note"]')
    frame.wait_for("[data-papershelf-note-body] strong")
    assert frame.text("[data-papershelf-note-body] strong") == "key"
    assert frame.count("[data-papershelf-note-body] img") == 0
    assert frame.count("[data-papershelf-note-body] a") == 0
    assert frame.evaluate("() => window.pwned === undefined")
    assert page.evaluate("() => window.pwned === undefined")
