"""The PDF reader in a real Chromium against a real papershelf server: PDFs made by pdfLaTeX
(tests/fixtures/pdf/build_pdfs.py) served at arXiv's and a venue's real URLs; a highlight made by
a real mouse drag in a page's text layer, painted again after a reload and in a new version of
the PDF (on another page), an orphan listed; the paper identified from its URL or from its own
metadata; a hostile PDF that runs nothing; bad files that get a clear message and store nothing;
"Read in papershelf" on an arXiv page; arXiv's PDFs opened in the reader, the original one click
away."""

import json
import shutil
import sys
from pathlib import Path
from urllib.parse import quote

import pytest
from tests._require import require_or_skip

from conftest import EXTENSION, chromium_with, expected_papers, notes_frame, wait_until

pytestmark = pytest.mark.browser

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures" / "pdf"))
import build_pdfs  # noqa: E402
from build_pdfs import HOSTILE_MARKER, KEY  # noqa: E402

AID = expected_papers()[0]["arxiv_id"]
V1 = f"https://arxiv.org/pdf/{AID}v1"
V2 = f"https://arxiv.org/pdf/{AID}v2"
VENUE = "https://proceedings.mlr.press/v235/lovelace26a/lovelace26a.pdf"


@pytest.fixture(scope="session")
def pdfs(tmp_path_factory):
    """The suite's PDFs, made once per run by pdfLaTeX (and by hand for the hostile and the
    encrypted one)."""
    if not shutil.which("pdflatex") or not shutil.which("kpsewhich"):
        require_or_skip("latex", "pdflatex is not installed")
    folder = tmp_path_factory.mktemp("pdfs")
    made = {k: v.read_bytes() for k, v in build_pdfs.build_all(folder).items()}
    made["truncated"] = made["paper_v1"][: len(made["paper_v1"]) // 3]
    return made


def serve(context, pattern, body, content_type="application/pdf", status=200):
    """Serve `body` at the URLs `pattern` matches (over the fixture pages' routes)."""
    context.route(pattern, lambda route: route.fulfill(status=status, content_type=content_type,
                                                      body=body))


def reader_url(sw, pdf_url, fragment=""):
    base = sw.url.split("background/")[0]
    return f"{base}reader/reader.html?file={quote(pdf_url, safe='')}{fragment}"


def open_reader(context, sw, pdf_url, fragment="", wait_page=1):
    page = context.new_page()
    page.goto(reader_url(sw, pdf_url, fragment))
    if wait_page:
        page.wait_for_selector(f'.textLayer[data-page-number="{wait_page}"] span')
    return page


def texts(page):
    page.wait_for_function("() => papershelfReader.texts()")
    return page.evaluate("() => papershelfReader.texts()")


def show_page(page, n):
    """Scroll page n into view and wait for its text layer (rendered near the viewport only)."""
    page.fill("#page-input", str(n))
    page.press("#page-input", "Enter")
    page.wait_for_selector(f'.textLayer[data-page-number="{n}"] span')


QUOTE_POINTS = """async ([n, quote]) => {
    // The screen points of the quote's first and last characters in page n's text layer.
    const { textModel } = await import('/lib/anchoring.js');
    const layer = document.querySelector(`.textLayer[data-page-number="${n}"]`);
    const model = textModel(layer);
    const i = model.text.indexOf(quote);
    if (i < 0) throw new Error('quote not on the page: ' + quote);
    const rectOf = (k) => {
      const r = document.createRange();
      const node = model.nodes[model.nodeOf[k]];
      r.setStart(node, model.offsetOf[k]);
      r.setEnd(node, model.offsetOf[k] + 1);
      return r.getBoundingClientRect();
    };
    layer.querySelector('span').scrollIntoView({block: 'nearest'});
    const first = rectOf(i);
    first.y < 60 || first.y > innerHeight - 40 ? window.scrollBy(0, first.y - innerHeight / 2) : null;
    const a = rectOf(i), b = rectOf(i + quote.length - 1);
    return [a.left + 1, a.top + a.height / 2, b.right - 1, b.top + b.height / 2];
}"""


def drag_over(page, n, quote):
    """A real mouse drag (press, move, release) over `quote` in page n's text layer."""
    x1, y1, x2, y2 = page.evaluate(QUOTE_POINTS, [n, quote])
    page.mouse.move(x1, y1)
    page.mouse.down()
    page.mouse.move((x1 + x2) / 2, (y1 + y2) / 2, steps=5)
    page.mouse.move(x2, y2, steps=5)
    page.mouse.up()


def highlight_by_drag(page, n, quote):
    before = page.locator("mark[data-papershelf-highlight]").count()
    drag_over(page, n, quote)
    page.locator('[data-papershelf-action="highlight"]').click()
    page.wait_for_function(
        "n => document.querySelectorAll('mark[data-papershelf-highlight]').length > n"
        " && !document.querySelector('[data-papershelf-highlight^=\"queued-\"]')", arg=before)


def marks_on(page, n):
    """{highlight id: its painted text} in page n's text layer."""
    return page.evaluate("""(n) => {
        const out = {};
        const layer = document.querySelector(`.textLayer[data-page-number="${n}"]`);
        for (const m of layer ? layer.querySelectorAll('mark[data-papershelf-highlight]') : []) {
          out[m.dataset.papershelfHighlight] = (out[m.dataset.papershelfHighlight] || '') + m.textContent;
        }
        return out;
    }""", n)


def painted_text(page, n, hid):
    return " ".join((marks_on(page, n).get(str(hid)) or "").split())


def add_pdf_highlight(server, paper_id, text, quote, page_no, after="", **extra):
    """A PDF highlight of `quote` (its first occurrence after `after`) in a page's text."""
    from papershelf.domain.anchoring import describe_range, utf16_units

    start = len(utf16_units(text[:text.index(quote, text.index(after))]))
    body = {"field": "pdf", "page": page_no, **describe_range(text, start, start + len(utf16_units(quote))),
            **extra}
    status, h = server.call("POST", f"/api/papers/{paper_id}/highlights", body)
    assert status == 201, h
    return h


def stored(server):
    (p,) = server.papers()
    status, full = server.call("GET", f"/api/papers/{p['id']}")
    assert status == 200
    return full


def test_an_arxiv_pdf_opens_with_its_pages_text_and_paper_bar(connected, pdfs):
    context, sw, server = connected
    serve(context, "https://arxiv.org/pdf/**", pdfs["paper_v1"])
    page = open_reader(context, sw, V1)
    paper = page.locator(f'[data-papershelf-paper="{AID}"]')
    assert paper.locator('[data-papershelf-action="save"]').count() == 1
    assert paper.locator('[data-papershelf-action="note"]').count() == 1
    assert paper.locator('[data-papershelf-action="read"]').count() == 0, "not in the reader itself"
    assert page.locator("#page-count").inner_text() == "/ 3"
    assert page.locator(".page").count() == 3
    # Lazy: the last page is drawn only when it comes near.
    assert page.locator('.textLayer[data-page-number="3"]').count() == 0
    all_text = texts(page)
    assert len(all_text) == 3 and KEY["moved"] in all_text[1]
    assert "The first efficient workflow fits offline data" in all_text[0], "ligatures read as letters"
    assert page.locator("#paper-title").inner_text() == build_pdfs.TITLE
    show_page(page, 3)
    # Zoom and find.
    width = page.locator(".page").first.bounding_box()["width"]
    page.select_option("#zoom", "2")
    wait_until(lambda: page.locator(".page").first.bounding_box()["width"] != width, what="zoom")
    page.fill("#find-input", KEY["removed"])
    page.press("#find-input", "Enter")
    wait_until(lambda: page.locator("#find-count").inner_text() == "1 of 1", what="find")
    assert page.locator("#page-input").input_value() == "3"
    page.click("[data-papershelf-action='save']")
    page.wait_for_selector("[data-papershelf-action='save'][aria-pressed='true']")
    p = stored(server)
    assert (p["arxiv_id"], p["source_url"]) == (AID, V1)
    assert p["title"] == build_pdfs.TITLE


def test_a_highlight_by_mouse_drag_is_painted_again_after_reload_and_in_a_new_version(connected, pdfs):
    context, sw, server = connected
    serve(context, "https://arxiv.org/pdf/**", pdfs["paper_v1"])
    page = open_reader(context, sw, V1)
    show_page(page, 2)
    highlight_by_drag(page, 2, KEY["moved"])
    p = stored(server)
    (h,) = p["highlights"]
    assert (h["field"], h["page"], h["exact"]) == ("pdf", 2, KEY["moved"])
    assert p["arxiv_id"] == AID, "the highlight saved the paper"
    assert painted_text(page, 2, h["id"]) == KEY["moved"]
    # More highlights, made through the API on the reader's own page texts: the ligature line,
    # a sentence that version 2 edits, one it drops.
    t = texts(page)
    lig = add_pdf_highlight(server, p["id"], t[0], KEY["ligatures"], 1)
    edited = add_pdf_highlight(server, p["id"], t[1], KEY["edited"], 2, color="green")
    removed = add_pdf_highlight(server, p["id"], t[2], KEY["removed"], 3)
    # Words that stand on every page: found on the page they were highlighted on (by their
    # context), not the first one that has them.
    common = "about what happened before"
    assert all(common in text for text in t)
    repeated = add_pdf_highlight(server, p["id"], t[2], common, 3, after="In step 3.2")

    page.reload()
    page.wait_for_selector(f'.textLayer[data-page-number="1"] mark[data-papershelf-highlight="{lig["id"]}"]')
    assert painted_text(page, 1, lig["id"]) == KEY["ligatures"]
    show_page(page, 2)
    page.wait_for_selector(f'mark[data-papershelf-highlight="{edited["id"]}"]')
    assert painted_text(page, 2, h["id"]) == KEY["moved"]
    assert page.locator(f'mark[data-papershelf-highlight="{edited["id"]}"]').first.get_attribute(
        "data-papershelf-color") == "green"
    show_page(page, 3)
    page.wait_for_selector(f'mark[data-papershelf-highlight="{removed["id"]}"]')
    assert page.evaluate("() => papershelfReader.placed()")[str(repeated["id"])] == {"page": 3}
    assert painted_text(page, 3, repeated["id"]) == common
    assert not any(str(repeated["id"]) in marks_on(page, n) for n in (1, 2))
    page.close()

    # Version 2: a page of related work comes first (the method moves to page 3), a sentence is
    # edited, one is gone.
    serve(context, "https://arxiv.org/pdf/**", pdfs["paper_v2"])
    page = open_reader(context, sw, V2)
    assert page.locator("#page-count").inner_text() == "/ 4"
    texts(page)
    placed = page.evaluate("() => papershelfReader.placed()")
    assert placed[str(h["id"])] == {"page": 3}, placed
    assert placed[str(edited["id"])] == {"page": 3}, placed
    assert placed[str(lig["id"])] == {"page": 1}
    assert placed[str(removed["id"])] is None, "gone from version 2: an orphan"
    assert placed[str(repeated["id"])] == {"page": 4}, "page 3 of version 1 is page 4 of version 2"
    show_page(page, 3)
    page.wait_for_selector(f'.textLayer[data-page-number="3"] mark[data-papershelf-highlight="{h["id"]}"]')
    assert painted_text(page, 3, h["id"]) == KEY["moved"]
    assert painted_text(page, 3, edited["id"]) == KEY["edited_v2"], "a fuzzy match on the edited words"
    assert page.locator(f'mark[data-papershelf-highlight="{removed["id"]}"]').count() == 0
    assert "1 unplaced highlight" in page.locator("[data-papershelf-status]").inner_text()
    # The panel lists them with their page; the orphan apart, never dropped.
    page.locator('[data-papershelf-action="note"]').click()
    frame = notes_frame(page)
    frame.locator(f'[data-papershelf-orphan="{removed["id"]}"]').wait_for()
    item = frame.locator(f'[data-papershelf-highlight-item="{h["id"]}"]')
    assert item.locator("[data-papershelf-page]").inner_text() == "p. 2"
    link = item.locator("a[data-papershelf-page]").get_attribute("href")
    assert link.endswith(f"#page=2&papershelf-highlight={h['id']}") and "reader/reader.html?file=" in link
    assert len(stored(server)["highlights"]) == 5, "nothing dropped"


def test_a_link_to_a_highlight_opens_the_reader_at_it_through_arxivs_pdf_url(connected, pdfs):
    """The library page links a PDF highlight to arXiv's PDF with #page=N&papershelf-highlight=ID:
    the redirect opens the reader there, at that highlight."""
    context, sw, server = connected
    serve(context, "https://arxiv.org/pdf/**", pdfs["paper_v1"])
    status, paper = server.call("POST", "/api/papers", {"arxiv_id": AID, "title": build_pdfs.TITLE})
    assert status == 201
    page = open_reader(context, sw, V1)
    h = add_pdf_highlight(server, paper["id"], texts(page)[2], KEY["removed"], 3)
    page.close()
    page = context.new_page()
    page.goto(f"https://arxiv.org/pdf/{AID}#page=3&papershelf-highlight={h['id']}")
    wait_until(lambda: "/reader/reader.html?file=" in page.url, what="the redirect to the reader")
    assert page.url.endswith(f"#page=3&papershelf-highlight={h['id']}"), page.url
    page.wait_for_selector(f'mark[data-papershelf-highlight="{h["id"]}"][data-papershelf-linked]')
    assert page.locator("#page-input").input_value() == "3"
    box = page.locator(f'mark[data-papershelf-highlight="{h["id"]}"]').first.bounding_box()
    assert 0 < box["y"] < 900, "in view"


def test_read_in_papershelf_on_an_arxiv_page_opens_the_reader(connected, pdfs):
    context, sw, server = connected
    serve(context, "https://arxiv.org/pdf/**", pdfs["paper_v1"])
    page = context.new_page()
    page.goto(f"https://arxiv.org/abs/{AID}")
    read = page.locator(f'[data-papershelf-paper="{AID}"] [data-papershelf-action="read"]')
    with context.expect_page() as opened:
        read.click()
    reader = opened.value
    reader.wait_for_selector('.textLayer[data-page-number="1"] span')
    assert reader.url.endswith(f"reader/reader.html?file={quote(f'https://arxiv.org/pdf/{AID}', safe='')}")
    # A page script's click is not the user's: nothing opens.
    pages = len(context.pages)
    page.evaluate("() => document.querySelector('[data-papershelf-action=\"read\"]').click()")
    page.wait_for_timeout(500)
    assert len(context.pages) == pages
    # The popup's "Open this PDF in the reader" (what its button asks the worker): a PDF tab in
    # the browser's viewer goes to the reader in place.
    sw.evaluate("() => papershelf.handlers['pdf-redirects']({arxiv: false})")
    assert context.new_page().goto(V1).headers["content-type"] == "application/pdf"
    opened_in = sw.evaluate("""async (url) => {
        const [t] = await chrome.tabs.query({url});
        return papershelf.handlers['open-reader']({url: t.url, tabId: t.id});
    }""", V1)["tabId"]
    # (Playwright loses sight of a tab that showed the browser's PDF viewer: ask the browser.)
    reader_in_tab = reader_url(sw, V1)
    wait_until(lambda: sw.evaluate("async (id) => (await chrome.tabs.get(id)).url", opened_in)
               == reader_in_tab, what="the PDF tab in the reader")


def test_arxiv_pdfs_open_in_the_reader_unless_switched_off_and_the_original_is_one_click_away(
        connected, pdfs):
    context, sw, server = connected
    serve(context, "https://arxiv.org/pdf/**", pdfs["paper_v1"])
    page = context.new_page()
    page.goto(V1)
    wait_until(lambda: "/reader/reader.html?file=" in page.url, what="the redirect to the reader")
    page.wait_for_selector('.textLayer[data-page-number="1"] span')
    assert page.url.startswith(sw.url.split("background/")[0] + "reader/reader.html?file=")
    assert page.locator("#original").get_attribute("href") == V1
    with page.expect_request(V1) as original:
        page.click("#original")
    assert original.value.resource_type == "document"
    # (Playwright may lose sight of a tab once it shows the browser's PDF viewer: ask the browser.)
    tab_urls = "async () => (await chrome.tabs.query({})).map((t) => t.url)"
    wait_until(lambda: V1 in sw.evaluate(tab_urls), what="the original PDF, not redirected again")
    page.wait_for_timeout(500)
    assert V1 in sw.evaluate(tab_urls), "still the original PDF, not the reader again"
    # Switched off in the options: arXiv's PDF is the browser's again.
    options = context.new_page()
    options.goto(sw.url.split("background/")[0] + "options/options.html")
    box = options.locator("#redirect-arxiv")
    wait_until(lambda: box.is_checked(), what="on by default")
    box.uncheck()
    wait_until(lambda: not sw.evaluate("() => chrome.declarativeNetRequest.getDynamicRules()"),
               what="the rule removed")
    other = context.new_page()
    response = other.goto(V2)
    assert other.url == V2 and response.headers["content-type"] == "application/pdf"
    box.check()
    wait_until(lambda: len(sw.evaluate("() => chrome.declarativeNetRequest.getDynamicRules()")) == 1,
               what="the rule back")


@pytest.fixture
def venue_browser(tmp_path, server):
    """The extension after the user allowed it to read the venue's site (the prompt the reader's
    Allow button raises is the browser's own, which no test can answer): a copy of extension/ whose
    manifest grants that host."""
    copy = tmp_path / "extension"
    shutil.copytree(EXTENSION, copy)
    manifest = json.loads((copy / "manifest.json").read_text())
    manifest["host_permissions"].append("https://proceedings.mlr.press/*")
    (copy / "manifest.json").write_text(json.dumps(manifest))
    with chromium_with(copy, tmp_path / "profile") as (context, sw):
        sw.evaluate("([serverUrl, token]) => chrome.storage.local.set({serverUrl, token})",
                    [server.base, server.token])
        yield context, sw, server


def test_a_venue_pdf_without_access_asks_for_it_and_loads_nothing(connected, pdfs):
    context, sw, server = connected
    fetched = []
    context.route("https://proceedings.mlr.press/**", lambda route: (
        fetched.append(route.request.url), route.fulfill(status=200, body=pdfs["two_column"],
                                                         content_type="application/pdf")))
    page = context.new_page()
    page.goto(reader_url(sw, VENUE))
    page.wait_for_selector("#permission:not([hidden])")
    assert "proceedings.mlr.press" in page.locator("#permission-text").inner_text()
    assert page.locator("[data-papershelf-paper]").count() == 0
    assert fetched == [] and server.papers() == []


def test_a_two_column_venue_pdf_is_identified_from_its_metadata(venue_browser, pdfs):
    context, sw, server = venue_browser
    serve(context, "https://proceedings.mlr.press/**", pdfs["two_column"])
    page = open_reader(context, sw, VENUE)
    paper = page.locator("[data-papershelf-paper]")
    assert paper.get_attribute("data-papershelf-paper") == VENUE
    title = page.locator("[data-papershelf-title-input]")
    assert title.input_value() == build_pdfs.VENUE_TITLE, "from the PDF's own metadata"
    (text,) = texts(page)
    # Reading order: the left column, then the right one.
    assert text.index("1 Setting") < text.index(KEY["right_column"])
    # A word hyphenated across two lines, selected by a drag over the line break.
    import re
    word = re.search(r"(\w+)- (\w+)", text)
    quote = text[word.start() - 20: word.end() + 12].strip()
    highlight_by_drag(page, 1, quote)
    highlight_by_drag(page, 1, KEY["right_column"])
    p = stored(server)
    assert (p["title"], p["doi"], p["url"]) == (build_pdfs.VENUE_TITLE, build_pdfs.VENUE_DOI, VENUE)
    assert p["authors"] == ["Ada Lovelace", "Alan Turing"]
    exacts = sorted(h["exact"] for h in p["highlights"])
    assert exacts == sorted([quote, KEY["right_column"]]), exacts
    assert all(h["page"] == 1 for h in p["highlights"])
    page.reload()
    page.wait_for_function("() => document.querySelectorAll('mark[data-papershelf-highlight]').length >= 2")
    assert {painted_text(page, 1, h["id"]) for h in p["highlights"]} == {quote, KEY["right_column"]}


def test_a_pdf_whose_title_is_unknown_is_saved_under_the_title_typed(venue_browser, pdfs):
    context, sw, server = venue_browser
    serve(context, "https://proceedings.mlr.press/**", pdfs["scanned"])
    page = open_reader(context, sw, VENUE, wait_page=0)
    page.wait_for_selector("#notice:not([hidden])")
    assert "no text" in page.locator("#notice").inner_text()
    title = page.locator("[data-papershelf-title-input]")
    assert title.input_value() == ""
    title.fill("A scanned report")
    page.click("[data-papershelf-action='save']")
    page.wait_for_selector("[data-papershelf-action='save'][aria-pressed='true']")
    assert stored(server)["title"] == "A scanned report"


def test_a_hostile_pdf_runs_nothing(connected, pdfs):
    """Its font's FontMatrix (CVE-2024-4367), its OpenAction, page action and name-tree JavaScript
    try to set a global, log a marker, navigate and message the worker; its links are javascript:,
    file:, a Launch action and one https link. Nothing runs; only the https link opens, in a new
    tab."""
    context, sw, server = connected
    serve(context, "https://arxiv.org/pdf/**", pdfs["hostile"])
    requests, logs = [], []
    context.on("request", lambda r: requests.append(r.url))
    context.on("console", lambda m: logs.append(m.text))
    context.route("https://evil.example/**", lambda route: route.fulfill(status=200, body="no"))
    context.route("https://example.org/**", lambda route: route.fulfill(
        status=200, content_type="text/html", body="<title>safe</title>"))
    # Every message the worker receives from now on, one-off or on a port.
    sw.evaluate("""() => {
        globalThis.__asked = [];
        chrome.runtime.onMessage.addListener((m) => { __asked.push(m && m.type); });
        chrome.runtime.onConnect.addListener((port) => {
          port.onMessage.addListener((m) => { __asked.push(m && m.type); });
        });
    }""")
    outbox = "() => chrome.storage.local.get('outbox').then(o => JSON.stringify(o))"
    asked_before = sw.evaluate(outbox)
    page = context.new_page()
    page.on("console", lambda m: logs.append(m.text))
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    url = reader_url(sw, f"https://arxiv.org/pdf/{AID}")
    page.goto(url)
    page.wait_for_selector('.textLayer[data-page-number="1"] span')
    page.wait_for_selector(".linkLayer a")
    page.wait_for_timeout(1000)
    assert page.evaluate("() => window.__papershelfPwned") is None
    assert not any(HOSTILE_MARKER in line for line in logs), logs
    assert dialogs == [] and page.url == url
    assert not any("evil.example" in r for r in requests), requests
    # Only the https link became a link, opened in a new tab without the opener.
    links = page.locator(".linkLayer a")
    assert links.count() == 1, page.evaluate(
        "() => [...document.querySelectorAll('.linkLayer a')].map(a => a.outerHTML)")
    assert (links.get_attribute("href"), links.get_attribute("target"), links.get_attribute("rel")) == (
        "https://example.org/safe", "_blank", "noopener noreferrer")
    # Clicking where the javascript: and file: links are does nothing.
    box = page.locator('.page[data-page="1"]').bounding_box()
    pages = len(context.pages)
    for y_pdf in (640, 600, 560):  # the links' baselines, in PDF points from the bottom
        scale = box["height"] / 792
        page.mouse.click(box["x"] + 120 * scale, box["y"] + (792 - y_pdf - 4) * scale)
    page.wait_for_timeout(500)
    assert len(context.pages) == pages and page.url == url
    with context.expect_page() as opened:
        links.click()
    assert opened.value.url == "https://example.org/safe"
    assert page.evaluate("() => window.__papershelfPwned") is None
    assert server.papers() == [], "nothing was saved or sent"
    # The reader asked what it always asks (is this paper saved, a ticket for its notes panel,
    # which claims it and asks what to show): nothing the PDF's code tried to send.
    asked = sw.evaluate("() => __asked")
    assert set(asked) <= {"lookup", "panel-ticket", "claim-panel", "panel-state"}, asked
    assert sw.evaluate(outbox) == asked_before


BAD = {
    "not an address": ("javascript:alert(1)", None, "address of a PDF"),
    "a web page, not a PDF": (f"https://arxiv.org/pdf/{AID}v9", ("text/html", b"<html>Not found</html>", 200),
                               "not a PDF (the site sent text/html)"),
    "missing (404)": (f"https://arxiv.org/pdf/{AID}v8", ("text/plain", b"no", 404), "404"),
    "encrypted with a password": (f"https://arxiv.org/pdf/{AID}v7", "encrypted", "password"),
    "truncated": (f"https://arxiv.org/pdf/{AID}v6", "truncated", "damaged"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_input_gets_a_clear_message_and_stores_nothing(connected, pdfs, case):
    context, sw, server = connected
    target, answer, says = BAD[case]
    if isinstance(answer, tuple):
        content_type, body, status = answer
        serve(context, target, body, content_type=content_type, status=status)
    elif answer:
        serve(context, target, pdfs[answer])
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(reader_url(sw, target))
    page.wait_for_selector("#message:not([hidden])")
    assert says in page.locator("#message").inner_text()
    assert page.locator("[data-papershelf-action='save']").count() == 0
    assert page.locator(".textLayer").count() == 0
    assert errors == []
    assert server.papers() == []


def test_the_notes_panel_in_the_reader_keeps_a_note_and_closes_back_to_note(connected, pdfs):
    """The worker tells the reader what the panel changed (the note count, saved) and that it
    closed (Escape), as it tells a page's content script."""
    context, sw, server = connected
    serve(context, "https://arxiv.org/pdf/**", pdfs["paper_v1"])
    page = open_reader(context, sw, V1)
    page.click("[data-papershelf-action='note']")
    frame = notes_frame(page)
    frame.locator("textarea[data-papershelf-note-input]").fill("Read section 2 again.")
    frame.locator("[data-papershelf-action='save-note']").click()
    page.wait_for_selector("[data-papershelf-action='save'][aria-pressed='true']")
    wait_until(lambda: "1 note" in page.locator("[data-papershelf-status]").inner_text(), what="the count")
    assert [n["body"] for n in stored(server)["notes"]] == ["Read section 2 again."]
    assert "Read section 2" not in page.content(), "the note's text is the panel's, not the reader's"
    frame.locator("textarea[data-papershelf-note-input]").press("Escape")
    wait_until(lambda: page.evaluate("() => document.querySelector('[data-papershelf-ui=panel]').hidden"),
               what="the panel closed")
    assert page.evaluate("() => document.activeElement.getAttribute('data-papershelf-action')") == "note"
