"""Private by construction, in Firefox: the hostile page script of test_private_panel.py (a script
of the site's own, run before the page's scripts) tries each way in, and achieves nothing and
learns no note text. The user's actions are Marionette's, trusted input events as a user's are.

Written on drivers.py's surface; `BROWSERS` lists where it runs (Chromium runs the same attacks
in test_private_panel.py, on both stores; here one store, as in test_firefox_flows.py).
"""

import json

import pytest
from drivers import drag_select
from test_private_panel import COMMENT, HOSTILE, NOTE, seed, server_state

from conftest import TOPIC_URL, expected_papers, wait_until

BROWSERS = ["firefox"]
STORES = ["sqlite"]
pytestmark = [pytest.mark.browser, pytest.mark.parametrize("ext", BROWSERS, indirect=True),
              pytest.mark.parametrize("server", STORES, indirect=True)]

PAPERS = expected_papers()
TITLES = {p["arxiv_id"]: p["title"] for p in PAPERS}
PAPER = '[data-papershelf-paper="{}"]'
SAVE = PAPER + ' [data-papershelf-action="save"]'
FRAME = "iframe[data-papershelf-frame]"


def hostile_page(ext, url=TOPIC_URL):
    ext.add_init_script(HOSTILE)
    page = ext.new_page()
    page.goto(url)
    page.wait_for('[data-papershelf-paper] [data-papershelf-action="save"]')
    assert page.evaluate("() => typeof window.hostile.harvest") == "function"
    return page


def panel_open(page):
    return page.evaluate("""() => {
        const host = document.querySelector('[data-papershelf-ui="panel"]');
        return Boolean(host && !host.hidden);
    }""")


def open_notes(page, arxiv_id):
    page.click(PAPER.format(arxiv_id) + ' [data-papershelf-action="note"]')
    page.wait_for(FRAME, visible=True)
    frame = page.frame(FRAME)
    frame.wait_for("textarea[data-papershelf-note-input]")
    # Bound to the paper (its title shown), as a user sees it before writing.
    frame.wait_for_function("t => document.querySelector('#paper-title').textContent === t",
                            TITLES[arxiv_id])
    return frame


def wait_text(frame, selector, text):
    frame.wait_for_function(
        "([sel, text]) => [...document.querySelectorAll(sel)].some(e => e.textContent.includes(text))",
        [selector, text])


def assert_private(page, *secrets):
    harvest = page.evaluate("() => window.hostile.harvest()")
    spied = page.evaluate("() => JSON.stringify(window.__spy)")
    for secret in secrets:
        assert secret not in harvest, f"{secret!r} is readable in the page"
        assert secret not in spied, f"{secret!r} went past the page's spy"


def test_page_script_clicks_and_dispatched_events_do_nothing(ext_connected):
    ext, server = ext_connected
    page = hostile_page(ext)
    assert page.evaluate("() => window.hostile.clickEverything()") == len(PAPERS)
    page.evaluate("() => new Promise(r => setTimeout(r, 800))")
    assert not panel_open(page), "a script's click opened the notes panel"
    assert page.count('[data-papershelf-action="save"][aria-pressed="true"]') == 0
    assert page.count('[data-papershelf-action="note"][aria-expanded="true"]') == 0
    assert server.papers() == [], "a script's click saved a paper"
    page.click(SAVE.format(PAPERS[0]["arxiv_id"]))  # the user's own click still works
    page.wait_for(SAVE.format(PAPERS[0]["arxiv_id"]) + '[aria-pressed="true"]')
    assert [p["arxiv_id"] for p in server.papers()] == [PAPERS[0]["arxiv_id"]]


def test_page_script_cannot_highlight(ext_connected):
    ext, server = ext_connected
    page = hostile_page(ext)
    target = PAPERS[1]
    assert page.evaluate("([id, q]) => window.hostile.fakeSelection(id, q)",
                         [target["arxiv_id"], "unified infrastructure"])
    page.evaluate("() => new Promise(r => setTimeout(r, 300))")
    assert not page.evaluate("() => window.hostile.toolbarVisible()"), "a fake mouseup showed it"
    # The user selects with the mouse: the toolbar shows; the page presses its buttons.
    drag_select(page, PAPER.format(target["arxiv_id"]) + " p", "essential for developing capable")
    wait_until(lambda: page.evaluate("() => window.hostile.toolbarVisible()"), what="toolbar")
    assert page.evaluate("() => window.hostile.clickToolbar()") >= 3
    page.evaluate("() => new Promise(r => setTimeout(r, 600))")
    assert page.count("[data-papershelf-highlight]") == 0
    assert not panel_open(page)
    assert server.papers() == []
    page.click('[data-papershelf-action="highlight"]')  # the user's click does highlight
    page.wait_for(PAPER.format(target["arxiv_id"]) + " [data-papershelf-highlight]")
    (state,) = server_state(server)
    assert len(state["highlights"]) == 1


def test_no_note_or_comment_text_reaches_the_page(ext_connected):
    ext, server = ext_connected
    target = PAPERS[2]
    seed(server, target)
    page = hostile_page(ext)
    page.wait_for(PAPER.format(target["arxiv_id"]) + " [data-papershelf-highlight]")
    status = PAPER.format(target["arxiv_id"]) + " [data-papershelf-status]"
    page.wait_for_function("sel => document.querySelector(sel).textContent === '1 note'", status)
    assert_private(page, NOTE, COMMENT)
    page.hover("[data-papershelf-highlight]")
    assert_private(page, NOTE, COMMENT)

    frame = open_notes(page, target["arxiv_id"])
    wait_text(frame, "[data-papershelf-note-body]", NOTE)
    assert frame.text("[data-papershelf-comment]") == COMMENT
    access = page.evaluate("() => window.hostile.frameAccess()")
    assert access["contentDocument"] == "null", access
    assert access["windowDocument"] == "SecurityError", access
    assert access["location"] == "SecurityError", access
    assert_private(page, NOTE, COMMENT)

    # The user types a new note in the frame: the page sees no key and no text.
    secret = "second private thought"
    frame.focus("textarea[data-papershelf-note-input]")
    frame.type(secret)
    frame.click('[data-papershelf-action="save-note"]')
    wait_text(frame, "[data-papershelf-note-body]", secret)
    assert page.evaluate("() => window.__spy.keys") == []
    page.wait_for_function("sel => document.querySelector(sel).textContent === '2 notes'", status)
    assert_private(page, NOTE, COMMENT, secret)
    assert [n for _, n in server_state(server)[0]["notes"]] == [NOTE, secret]


def test_messages_to_the_frame_and_the_window_change_nothing(ext_connected):
    ext, server = ext_connected
    target = PAPERS[3]
    _paper, note, _h = seed(server, target)
    page = hostile_page(ext)
    frame = open_notes(page, target["arxiv_id"])
    wait_text(frame, "[data-papershelf-note-body]", NOTE)
    before = server_state(server)
    assert page.evaluate("(id) => window.hostile.postEverywhere(id)", note["id"]) > 20
    page.evaluate("() => new Promise(r => setTimeout(r, 1000))")
    assert server_state(server) == before, "a posted message changed the server"
    assert panel_open(page)
    assert frame.count("[data-papershelf-note]") == 1
    assert frame.text("#paper-title") == target["title"]
    frame.fill("textarea[data-papershelf-note-input]", "still mine")
    frame.click('[data-papershelf-action="save-note"]')
    wait_text(frame, "[data-papershelf-note-body]", "still mine")
    spied = page.evaluate("() => window.__spy.messages")
    assert not any("papershelfTicket" in m and "0000" not in m and "ffff" not in m for m in spied), spied
    assert_private(page, NOTE, "still mine")


def test_a_panel_frame_the_page_makes_shows_nothing_and_changes_nothing(ext_connected):
    ext, server = ext_connected
    target = PAPERS[4]
    seed(server, target)
    page = hostile_page(ext)
    wait_text(open_notes(page, target["arxiv_id"]), "[data-papershelf-note-body]", NOTE)
    assert page.evaluate("(src) => window.hostile.ownPanel(src)", page.attr(FRAME, "src"))
    own = page.frame("#hostile-panel")
    own.wait_for("textarea[data-papershelf-note-input]")
    page.evaluate("() => new Promise(r => setTimeout(r, 500))")
    assert own.text("#paper-title") == "Open a paper's notes with its Note button."
    assert own.count("[data-papershelf-note]") == 0 and own.count("[data-papershelf-comment]") == 0
    before = server_state(server)
    own.fill("textarea[data-papershelf-note-input]", "typed into the page's frame")
    own.click('[data-papershelf-action="save-note"]')
    wait_text(own, "#note-msg", "open it from a paper's Note button")
    assert server_state(server) == before
    assert page.frame(FRAME).text("[data-papershelf-note-body]") == NOTE, "ours is still the panel"


def test_a_frame_the_page_navigated_is_never_shown_as_the_panel(ext_connected):
    ext, server = ext_connected
    target = PAPERS[7]
    seed(server, target)
    page = hostile_page(ext)
    wait_text(open_notes(page, target["arxiv_id"]), "[data-papershelf-note-body]", NOTE)
    assert page.evaluate("(u) => window.hostile.navigateFrame(u)", "https://www.alphaxiv.org/fake-notes")
    wait_until(lambda: not panel_open(page), what="the navigated frame hidden")
    assert page.count(FRAME) == 0, "the navigated frame is dropped"
    frame = open_notes(page, target["arxiv_id"])
    wait_text(frame, "[data-papershelf-note-body]", NOTE)
    assert page.count(FRAME) == 1
    assert_private(page, NOTE, COMMENT)


def test_the_page_cannot_message_the_extension(ext_connected):
    ext, server = ext_connected
    page = hostile_page(ext)
    before = server_state(server)
    ext_id = ext.extension_url("").split("/")[2]
    tried = page.evaluate("(id) => window.hostile.messageExtension(id)", ext_id)
    assert tried[0] == "runtime: absent", tried  # Firefox gives a page no `chrome` at all
    assert len(tried) == 5 and all(t.startswith("refused: ") for t in tried[1:]), tried
    page.evaluate("() => new Promise(r => setTimeout(r, 300))")
    assert server_state(server) == before


def test_the_worker_sees_firefox_senders_as_the_roles_they_are(ext_connected):
    """The router's sender check on Firefox's real MessageSender objects: the content script of a
    topic page and the notes panel (an extension frame in that page) are let in as what they are,
    and what the content script may not ask is refused."""
    ext, server = ext_connected
    ext.background("""() => {
        globalThis.seenSenders = [];
        const h = papershelf.handlers;
        for (const type of ['lookup', 'note']) {
            const original = h[type];
            h[type] = (payload, sender, role) => {
                seenSenders.push({type, role, sender});
                return original(payload, sender, role);
            };
        }
    }""")
    page = hostile_page(ext)
    frame = open_notes(page, PAPERS[5]["arxiv_id"])
    frame.fill("textarea[data-papershelf-note-input]", "through the router")
    frame.click('[data-papershelf-action="save-note"]')
    wait_text(frame, "[data-papershelf-note-body]", "through the router")
    seen = ext.background("() => seenSenders")
    roles = {(s["type"], s["role"]) for s in seen}
    assert roles == {("lookup", "content"), ("note", "extension")}, seen
    content = next(s["sender"] for s in seen if s["type"] == "lookup")
    assert content["url"] == TOPIC_URL and content["frameId"] == 0, content
    panel = next(s["sender"] for s in seen if s["type"] == "note")
    assert panel["url"].startswith(ext.extension_url("panel/panel.html")), panel
    # What the content script may not ask, with its own real sender: refused.
    answer = ext.background("""async () => {
        const content = seenSenders.find(s => s.type === 'lookup').sender;
        return papershelf.route({type: 'export', payload: {format: 'bibtex'}}, content);
    }""")
    assert answer["ok"] is False and answer["error"]["code"] == "forbidden", answer
    assert [n for _, n in server_state(server)[0]["notes"]] == ["through the router"]


def test_copy_key_and_copy_bibtex_from_the_panel(ext_connected):
    ext, server = ext_connected
    target = PAPERS[0]
    paper, _n, _h = seed(server, target)
    page = hostile_page(ext)
    frame = open_notes(page, target["arxiv_id"])
    wait_text(frame, "#citation-key", paper["citation_key"])
    frame.click('[data-papershelf-action="copy-key"]')
    wait_text(frame, "#cite-msg", "Key copied.")
    assert ext.clipboard_text() == paper["citation_key"] == "jiang2026asymmetric"
    frame.click('[data-papershelf-action="copy-bibtex"]')
    wait_text(frame, "#cite-msg", "BibTeX copied.")
    copied = ext.clipboard_text()
    assert copied.startswith("@misc{jiang2026asymmetric,") and target["arxiv_id"] in copied
    assert json.dumps(page.evaluate("() => window.__spy.messages")).count("jiang2026asymmetric") == 0
