"""The extension's flows in a real Firefox against a real papershelf server, as the Chromium tests
run them: the options page, a topic page's Cards and List views (saved marks, Save, Note and the
notes panel's frame, a highlight made with a real mouse drag and painted again after a reload),
arXiv's abstract, listing and HTML pages, and the outbox while the server is down.

Written on drivers.py's surface: `BROWSERS` lists where they run (Chromium has its own Playwright
flows in test_extension_pages.py and test_arxiv_html.py, so Firefox alone here), and `STORES`
which stores the server runs on (the Chromium flows run on both; what the browser does does not
depend on the store, and one store keeps the Firefox run short).
"""

import re

import pytest
from drivers import drag_select, save_screenshot

from conftest import LIST_URL, PAGES, TOPIC_URL, Server, expected_papers, free_port, wait_until

BROWSERS = ["firefox"]
STORES = ["sqlite"]
pytestmark = [pytest.mark.browser, pytest.mark.parametrize("ext", BROWSERS, indirect=True),
              pytest.mark.parametrize("server", STORES, indirect=True)]

PAPERS = expected_papers()
TITLES = {p["arxiv_id"]: p["title"] for p in PAPERS}
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
    # Bound to the paper (its title shown), as a user sees it before writing.
    frame.wait_for_function("t => document.querySelector('#paper-title').textContent === t",
                            TITLES[arxiv_id])
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


def test_list_view_marks_rows_and_the_detail_panel_and_saves_from_both(ext_connected):
    ext, server = ext_connected
    page = ext.new_page()
    page.goto(LIST_URL)
    wait_marked(page, len(PAPERS) + 1)  # every row, and the detail panel
    third = PAPERS[2]
    page.click(SAVE.format(third["arxiv_id"]))
    wait_saved(page, third["arxiv_id"])
    page.click(f'aside{SAVE.format(FIRST["arxiv_id"])}')
    page.wait_for_function(
        """id => [...document.querySelectorAll(`[data-papershelf-paper="${id}"]`)].every(e =>
            e.querySelector('[data-papershelf-action="save"]').getAttribute('aria-pressed') === 'true')""",
        FIRST["arxiv_id"])
    stored = {p["arxiv_id"]: p for p in server.papers()}
    assert set(stored) == {FIRST["arxiv_id"], third["arxiv_id"]}
    assert stored[FIRST["arxiv_id"]]["authors"] == FIRST["authors"], "the panel's full list"


def test_in_app_navigation_to_the_list_view_is_marked_again(ext_connected):
    ext, _server = ext_connected
    page = ext.new_page()
    page.goto(TOPIC_URL)
    wait_marked(page, len(PAPERS))
    page.click(SAVE.format(FIRST["arxiv_id"]))
    wait_saved(page, FIRST["arxiv_id"])
    page.click('[role="tab"]:not([aria-selected="true"])')  # List: pushState, no page load
    assert page.url.endswith("?view=list")
    wait_marked(page, len(PAPERS) + 1)
    page.wait_for_function(
        """id => [...document.querySelectorAll(`[data-papershelf-paper="${id}"]`)].length === 2 &&
            [...document.querySelectorAll(`[data-papershelf-paper="${id}"]`)].every(e =>
              e.querySelector('[data-papershelf-action="save"]').getAttribute('aria-pressed') === 'true')""",
        FIRST["arxiv_id"])
    assert page.count('[data-papershelf-ui="controls"]') == len(PAPERS) + 1


def test_a_highlight_made_with_a_mouse_drag_is_stored_and_painted_after_reload(ext_connected,
                                                                               tmp_path):
    ext, server = ext_connected
    page = ext.new_page()
    page.goto(TOPIC_URL)
    wait_marked(page)
    target = PAPERS[1]
    quote = "essential for developing capable"  # in the abstract's lines the card shows
    selected = drag_select(page, PAPER.format(target["arxiv_id"]) + " p", quote)
    assert selected == quote
    page.wait_for('[data-papershelf-action="highlight"]', visible=True)
    save_screenshot(page, tmp_path, "toolbar")
    page.click('[data-color="green"]')
    page.click('[data-papershelf-action="highlight-comment"]')
    mark = PAPER.format(target["arxiv_id"]) + " [data-papershelf-highlight]"
    page.wait_for(mark)
    comment = "compare with <b>LLaMA-Factory</b>"
    frame = page.frame(FRAME)
    frame.wait_for("[data-papershelf-comment-input]", visible=True)
    frame.fill("[data-papershelf-comment-input]", comment)
    frame.click('[data-papershelf-action="save-comment"]')
    frame.wait_for_function(
        "() => [...document.querySelectorAll('[data-papershelf-comment]')].some(e =>"
        " e.textContent.includes('LLaMA-Factory'))")
    assert frame.text("[data-papershelf-comment]") == comment
    assert frame.count("b") == 0
    assert page.text(mark) == quote
    assert page.attr(mark, "data-papershelf-color") == "green"
    assert page.attr(mark, "title") is None, "the page's DOM never holds a comment"
    assert "compare with" not in page.content()
    save_screenshot(page, tmp_path, "highlighted")
    (p,) = server.papers()
    assert p["arxiv_id"] == target["arxiv_id"], "highlighting saves the paper"
    status, full = server.call("GET", f"/api/papers/{p['id']}")
    (h,) = full["highlights"]
    assert (h["exact"], h["field"], h["color"], h["comment"]) == (quote, "abstract", "green", comment)
    assert target["abstract"][h["start"]:h["end"]] == quote

    page.reload()
    wait_marked(page)
    page.wait_for(f'[data-papershelf-highlight="{h["id"]}"]')
    owner = page.evaluate(
        "id => document.querySelector(`[data-papershelf-highlight=\"${id}\"]`)"
        ".closest('[data-papershelf-paper]').dataset.papershelfPaper", str(h["id"]))
    assert owner == target["arxiv_id"]
    save_screenshot(page, tmp_path, "painted-after-reload")


def test_a_note_is_written_in_the_panel_frame_and_shown_as_text(ext_connected, tmp_path):
    ext, server = ext_connected
    page = ext.new_page()
    page.goto(TOPIC_URL)
    wait_marked(page)
    target = PAPERS[5]
    evil = "<img src=x onerror=alert(1)>"
    frame = open_notes(page, target["arxiv_id"])
    assert page.attr(FRAME, "src").startswith(ext.extension_url("panel/panel.html"))
    frame.fill("textarea[data-papershelf-note-input]", evil)
    frame.click('[data-papershelf-action="save-note"]')
    frame.wait_for("[data-papershelf-note-body]")
    assert frame.text("[data-papershelf-note-body]") == evil
    save_screenshot(page, tmp_path, "notes-panel")
    page.reload()
    wait_marked(page)
    status = PAPER.format(target["arxiv_id"]) + " [data-papershelf-status]"
    page.wait_for_function(
        "sel => document.querySelector(sel).textContent === '1 note'", status)
    frame = open_notes(page, target["arxiv_id"])
    frame.wait_for("[data-papershelf-note-body]")
    assert frame.text("[data-papershelf-note-body]") == evil
    assert page.count("img[src='x']") == 0 and frame.count("img") == 0
    (p,) = server.papers()
    status_code, full = server.call("GET", f"/api/papers/{p['id']}")
    assert [n["body"] for n in full["notes"]] == [evil]


@pytest.mark.parametrize("url,count", [
    (f"https://arxiv.org/abs/{FIRST['arxiv_id']}", 1),
    ("https://arxiv.org/list/cs.CL/new", 12),
    (f"https://www.alphaxiv.org/abs/{FIRST['arxiv_id']}", 1),
])
def test_paper_and_listing_pages_are_marked_and_saved(ext_connected, url, count):
    ext, server = ext_connected
    page = ext.new_page()
    page.goto(url)
    wait_marked(page, count)
    page.click(SAVE.format(FIRST["arxiv_id"]))
    wait_saved(page, FIRST["arxiv_id"])
    (p,) = server.papers()
    assert p["title"] == FIRST["title"]
    assert re.sub(r"\s+", " ", p["abstract"]) == FIRST["abstract"]


def test_arxiv_html_full_text_highlight_in_a_section_is_painted_after_reload(ext_connected,
                                                                             tmp_path):
    ext, server = ext_connected
    aid = FIRST["arxiv_id"]
    page = ext.new_page()
    page.goto(f"https://arxiv.org/html/{aid}v1")
    page.wait_for(f'article{SAVE.format(aid)}')
    assert page.count("[data-papershelf-paper]") == 1, "the article is one paper"
    page.click(SAVE.format(aid))
    wait_saved(page, aid)
    quote = "the critic reads the whole trajectory before it decides to intervene"
    assert drag_select(page, "article", quote) == quote
    page.click('[data-papershelf-action="highlight"]')
    page.wait_for('mark[data-papershelf-highlight]:not([data-papershelf-highlight^="queued-"])')
    (p,) = server.papers()
    assert (p["arxiv_id"], p["arxiv_version"]) == (aid, 1)
    status, full = server.call("GET", f"/api/papers/{p['id']}")
    (h,) = full["highlights"]
    assert (h["exact"], h["field"], h["section"]) == (quote, "body", "3.1 Runtime supervision")
    save_screenshot(page, tmp_path, "arxiv-html")
    page.reload()
    page.wait_for(f'mark[data-papershelf-highlight="{h["id"]}"]')
    painted = page.evaluate(
        "id => [...document.querySelectorAll(`mark[data-papershelf-highlight=\"${id}\"]`)]"
        ".map(m => m.textContent).join('')", str(h["id"]))
    assert painted == quote


def test_save_while_the_server_is_down_is_queued_and_sent_once_when_it_is_back(ext_connected):
    ext, server = ext_connected
    page = ext.new_page()
    page.goto(TOPIC_URL)
    wait_marked(page)
    server.stop()
    target = PAPERS[3]
    button = SAVE.format(target["arxiv_id"])
    page.click(button)
    page.wait_for_function("sel => document.querySelector(sel).textContent.trim() === 'Queued'",
                           button)
    page.click(button)  # again, while down: not queued twice
    page.wait_for_function("sel => document.querySelector(sel).textContent.trim() === 'Queued'",
                           button)
    assert outbox_length(ext) == 1
    assert badge(ext) == "1"
    server.start()
    page.reload()  # the next page load sends what waits (the alarm would too)
    wait_marked(page)
    wait_saved(page, target["arxiv_id"])
    assert [p["arxiv_id"] for p in server.papers()] == [target["arxiv_id"]]
    wait_until(lambda: outbox_length(ext) == 0, what="the outbox emptied")
    assert badge(ext) == ""
    ext.background("() => papershelf.flush({force: true})")  # a late alarm finds nothing to send
    assert len(server.papers()) == 1


def test_a_note_written_while_the_server_is_down_arrives_once(ext_connected):
    ext, server = ext_connected
    page = ext.new_page()
    page.goto(TOPIC_URL)
    wait_marked(page)
    target = PAPERS[9]
    server.stop()
    frame = open_notes(page, target["arxiv_id"])
    frame.fill("textarea[data-papershelf-note-input]", "written offline")
    frame.click('[data-papershelf-action="save-note"]')
    frame.wait_for_function("() => document.querySelector('#note-msg').textContent.includes('Queued')")
    # The message comes first; the list is drawn from the worker's next answer.
    frame.wait_for("[data-papershelf-note]")
    assert "Waiting for the server" in frame.text("[data-papershelf-note]")
    assert badge(ext) == "1"
    server.start()
    ext.background("() => papershelf.flush({force: true})")  # what the alarm does
    (p,) = wait_until(server.papers, what="the paper to arrive")
    assert p["arxiv_id"] == target["arxiv_id"]
    frame.wait_for_function(
        "() => !document.querySelector('[data-papershelf-note]').textContent.includes('Waiting')")
    ext.background("() => papershelf.flush({force: true})")
    status, full = server.call("GET", f"/api/papers/{p['id']}")
    assert [n["body"] for n in full["notes"]] == ["written offline"]
    wait_saved(page, target["arxiv_id"])


def test_the_outbox_alarm_is_set_while_something_waits(ext_connected):
    """chrome.alarms sends what waits when no page is loaded: the alarm exists in Firefox too."""
    ext, server = ext_connected
    page = ext.new_page()
    page.goto(TOPIC_URL)
    wait_marked(page)
    server.stop()
    page.click(SAVE.format(FIRST["arxiv_id"]))
    page.wait_for_function("sel => document.querySelector(sel).textContent.trim() === 'Queued'",
                           SAVE.format(FIRST["arxiv_id"]))
    alarms = ext.background("async () => (await chrome.alarms.getAll()).map(a => a.name)")
    assert alarms, "an alarm retries the outbox"
    server.start()
    ext.background("async () => { const [a] = await chrome.alarms.getAll();"
                   " return papershelf.flush({force: true}); }")
    wait_until(lambda: len(server.papers()) == 1, what="sent by the retry")


def test_the_keyboard_command_saves_the_focused_paper(ext_connected):
    ext, server = ext_connected
    page = ext.new_page()
    page.goto(LIST_URL)
    wait_marked(page)
    page.press("j")  # the page's own shortcut moves the selection to the second row
    page.press("Alt+Shift+S")
    second = PAPERS[1]
    wait_saved(page, second["arxiv_id"])
    assert [p["arxiv_id"] for p in server.papers()] == [second["arxiv_id"]]


def test_the_popup_lists_recent_saves_and_downloads_the_bibtex_export(ext_connected):
    ext, server = ext_connected
    if ext.name != "firefox":
        pytest.skip("reads Firefox's download folder (test_extension_pages.py has Chromium's)")
    page = ext.new_page()
    page.goto(TOPIC_URL)
    wait_marked(page)
    page.click(SAVE.format(FIRST["arxiv_id"]))
    wait_saved(page, FIRST["arxiv_id"])
    popup = ext.new_page()
    popup.goto(ext.extension_url("popup/popup.html"))
    popup.wait_for_function(
        "t => [...document.querySelectorAll('#recent li')].some(li => li.textContent.includes(t))",
        FIRST["title"])
    assert "Nothing waiting." in popup.text("#queued")
    popup.click("#export")
    popup.wait_for_function("() => document.querySelector('#msg').textContent !== ''")
    downloads = ext.firefox.downloads
    (bib,) = wait_until(lambda: [p for p in downloads.glob("*.bib") if p.stat().st_size], timeout=20,
                        what="the export downloaded")
    text = bib.read_text(encoding="utf-8")
    assert re.search(r"@\w+\{jiang2026asymmetric,", text), text[:500]
    assert FIRST["arxiv_id"] in text


def test_a_pdf_tab_is_saved_from_its_url(ext_connected):
    """No content script runs in a PDF tab, and an arXiv PDF opens in the reader (an extension
    page, where nothing can be injected) when the redirect option is on: the worker's saveTab,
    what the toolbar and the keyboard command run, saves the PDF's paper from its URL, the reader's
    `file` when the tab shows the reader."""
    ext, server = ext_connected
    aid = FIRST["arxiv_id"]
    url = f"https://arxiv.org/pdf/{aid}v2"
    page = ext.new_page()
    page.goto(url)
    # The redirect option is on for arXiv by default: the tab shows the reader with the PDF.
    assert f"/reader/reader.html?file={url}" in page.url, page.url
    page.bring_to_front()
    # The active tab's URL, which the toolbar click or the command's keys reveal (activeTab);
    # Firefox shows an arXiv tab's URL to the worker anyway (content-script hosts are host
    # permissions there), Chromium only after that grant, which a driver cannot make.
    result = ext.background("""async (url) => {
        const [tab] = await chrome.tabs.query({active: true, currentWindow: true});
        return papershelf.saveTab({...tab, url: tab.url || url});
    }""", url)
    assert result["status"] == "sent" and result["via"] == "url", result
    (p,) = server.papers()
    assert (p["arxiv_id"], p["arxiv_version"], p["source_url"]) == (aid, 2, url)


def test_a_stopped_background_page_starts_again_with_what_it_kept(ext_connected):
    """Firefox stops an idle background page (an event page, not a service worker) and starts it
    on the next event. What it kept in storage survives: the open panel's binding
    (storage.session) and what waits for the server (storage.local)."""
    ext, server = ext_connected
    if ext.name != "firefox":
        pytest.skip("Firefox's event page")
    page = ext.new_page()
    page.goto(TOPIC_URL)
    wait_marked(page)
    frame = open_notes(page, PAPERS[4]["arxiv_id"])
    frame.wait_for_function("t => document.querySelector('#paper-title').textContent === t",
                            PAPERS[4]["title"])
    server.stop()
    queued = SAVE.format(PAPERS[6]["arxiv_id"])
    page.click(queued)
    page.wait_for_function("sel => document.querySelector(sel).textContent.trim() === 'Queued'",
                           queued)
    assert ext.firefox.stop_background() == "stopped"
    server.start()
    frame.fill("textarea[data-papershelf-note-input]", "after the restart")  # wakes it: a port
    frame.click('[data-papershelf-action="save-note"]')
    frame.wait_for_function(
        "() => [...document.querySelectorAll('[data-papershelf-note-body]')].some(e =>"
        " e.textContent.trim() === 'after the restart')")
    ext.background("() => papershelf.flush({force: true})")
    wait_saved(page, PAPERS[6]["arxiv_id"])
    stored = {p["arxiv_id"]: p for p in server.papers()}
    assert set(stored) == {PAPERS[4]["arxiv_id"], PAPERS[6]["arxiv_id"]}
    status, full = server.call("GET", f"/api/papers/{stored[PAPERS[4]['arxiv_id']]['id']}")
    assert [n["body"] for n in full["notes"]] == ["after the restart"]
    assert outbox_length(ext) == 0


def test_switching_to_a_server_on_another_host_works_through_cors(ext_connected, tmp_path):
    """From this machine's server to one outside the manifest's host permissions (127.0.0.2, as a
    team server would be): reached through CORS, which the server allows for moz-extension://
    origins, with no permission asked; saves go to the new server only."""
    ext, first = ext_connected
    (tmp_path / "other").mkdir()
    other = Server(tmp_path / "other", host="127.0.0.2",
                   env={"PAPERSHELF_ALLOWED_HOSTS": "127.0.0.2"})
    other.start(timeout=30)
    try:
        # Not a host the manifest asks for (Firefox grants the every-page content script's
        # hosts too, so the permission API would say yes: the manifest is what is asked).
        assert ext.background("() => chrome.runtime.getManifest().host_permissions").count(
            "http://127.0.0.2/*") == 0
        options = ext.new_page()
        options.goto(ext.extension_url("options/options.html"))
        options.wait_for("#serverUrl")
        options.fill("#serverUrl", other.base)
        options.fill("#token", other.token)
        options.click("#save")
        options.wait_for_function(
            "() => document.querySelector('#result').textContent.startsWith('Saved. Connected')")
        page = ext.new_page()
        page.goto(TOPIC_URL)
        wait_marked(page)
        page.click(SAVE.format(FIRST["arxiv_id"]))
        wait_saved(page, FIRST["arxiv_id"])
        assert [p["arxiv_id"] for p in other.papers()] == [FIRST["arxiv_id"]]
        assert first.papers() == []
    finally:
        other.stop()


def test_save_this_page_reads_the_citation_meta_of_any_page(ext_connected, tmp_path):
    """A page the content script does not run on (a journal on a loopback port here): "Save this
    page" injects the citation_* reader (chrome.scripting; the loopback host permission stands in
    for the toolbar click's activeTab, which a driver cannot make)."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    ext, server = ext_connected
    html = (PAGES / "arxiv_abs.html").read_text().replace(
        '<meta name="citation_arxiv_id"',
        '<meta name="citation_doi" content="10.1234/Journal.5678" />\n<meta name="citation_arxiv_id"')

    class Journal(BaseHTTPRequestHandler):
        def do_GET(self):
            body = html.encode("utf-8")
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    journal = ThreadingHTTPServer(("127.0.0.1", 0), Journal)
    threading.Thread(target=journal.serve_forever, daemon=True).start()
    try:
        url = f"http://localhost:{journal.server_address[1]}/journal/article/5678"
        page = ext.new_page()
        page.goto(url)
        assert page.count("[data-papershelf-paper]") == 0, "no content script here"
        result = ext.background("""async (url) => {
            const tab = (await chrome.tabs.query({})).find((t) => t.url === url);
            return papershelf.saveTab(tab);
        }""", url)
        assert result["status"] == "sent", result
    finally:
        journal.shutdown()
        journal.server_close()
    (p,) = server.papers()
    assert (p["title"], p["authors"], p["published"]) == (
        FIRST["title"], FIRST["authors"], FIRST["published"])
    assert (p["doi"], p["arxiv_id"]) == ("10.1234/journal.5678", FIRST["arxiv_id"])


def test_the_profile_reaches_nothing_outside_loopback(ext_connected):
    """The Firefox the tests drive sends every request for another host to the suite's proxy,
    which refuses it: no page, no DNS query, leaves the machine."""
    ext, _server = ext_connected
    if ext.name != "firefox":
        pytest.skip("Firefox's profile")
    sites = ext.firefox.sites
    page = ext.new_page()
    for url in ("http://example.com/", "https://example.org/"):
        try:
            page.goto(url)
        except Exception:  # noqa: BLE001 (Firefox's error page for a refused proxy request)
            pass
    refused = {(method, status) for method, target, status in sites.requests
               if "example." in target}
    assert refused == {("GET", 403), ("CONNECT", 403)}, sites.requests[-5:]
    assert page.count("[data-papershelf-paper]") == 0
