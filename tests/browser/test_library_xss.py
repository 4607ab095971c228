# ruff: noqa: F811 - pytest fixtures are imported by name and taken as arguments
"""User text on the library page is data: titles, authors, tags, topics, notes and highlight
comments that hold markup, event handlers, ``javascript:`` links or Markdown link tricks show as
text or inert markup, and nothing runs: no dialog, no console error, no exception, no flag set."""

import pytest
from library_server import chromium, library, page, sign_in  # noqa: F401 - fixtures

pytestmark = pytest.mark.browser

# Each payload, if it ran, would open a dialog and set window.__pwned.
RUN = "window.__pwned=1;alert(1)"
SCRIPT = f"<script>{RUN}</script>"
IMG = f'<img src=x onerror="{RUN}">'
SVG = f'"><svg onload="{RUN}">'
JS_URL = f"javascript:{RUN}"

NOTE_TRICKS = "\n\n".join([
    SCRIPT,
    IMG,
    f"[plain js link]({JS_URL})",
    "[upper js link](JAVASCRIPT:alert(1))",
    "[tab js link](java&#x09;script:alert(1))",
    "[angle js link](<javascript:alert(1)>)",
    "[data link](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    "[ref js link][evil]",
    "[evil]: javascript:alert(1)",
    f'<a href="{JS_URL}">raw anchor</a>',
    "<javascript:alert(1)>",
    "![tracking image](https://evil.example/pixel.png)",
    '[title trick](https://ok.example "x\\" onmouseover=\\"alert(1)")',
    "<details open ontoggle=alert(1)><summary>x</summary></details>",
    "[good link](https://arxiv.org/abs/1707.06347)",
])


def evil_paper(library):
    abstract = f"An abstract with {SCRIPT} and {IMG} inside, then plain words to highlight."
    paper = library.save(
        title=f"Title {SCRIPT} {IMG}",
        authors=[f"Mallory {SVG}", "Eve <b>bold</b>"],
        abstract=abstract,
        affiliations=[IMG],
        topics=[f"topic {SCRIPT}"],
        tags=[f"tag{IMG}", "javascript:alert(1)"],
        url="https://example.org/evil?x=<script>",
        source_url="https://example.org/source",
    )
    library.note(paper["id"], NOTE_TRICKS)
    library.note(paper["id"], SCRIPT + " plain " + JS_URL)
    library.highlight(paper, "plain words", comment=f"comment {SCRIPT} {IMG} {JS_URL}")
    library.highlight(paper, "highlight", color="purple", comment=f'" onmouseover="{RUN}')
    return paper


def assert_nothing_ran(watched):
    p = watched.page
    p.wait_for_timeout(300)  # let any late handler (image error, toggle) fire
    assert p.evaluate("window.__pwned === undefined")
    assert watched.problems == []
    # No element from user text: no script, image, svg, iframe or object in the page at all.
    assert p.locator("main script, main img, main svg, main iframe, main object, main embed").count() == 0
    handlers = p.evaluate("""() => [...document.querySelectorAll('*')].flatMap(el =>
        [...el.attributes].filter(a => a.name.startsWith('on')).map(a => el.tagName + ' ' + a.name))""")
    assert handlers == []
    hrefs = p.evaluate("() => [...document.querySelectorAll('a[href]')].map(a => a.href)")
    assert all(h.startswith(("http://", "https://")) for h in hrefs), hrefs


def test_list_page_shows_evil_text_as_text(page, library):
    paper = evil_paper(library)
    p = page.page
    sign_in(p, library)
    row = p.locator(f"#paper-{paper['id']}")
    assert SCRIPT in row.locator(".paper-title").inner_text()
    assert IMG in row.locator(".paper-title").inner_text()
    assert SVG in row.locator(".authors").inner_text()
    assert "Eve <b>bold</b>" in row.locator(".authors").inner_text()
    assert f"tag{IMG}" in row.locator(".chips").inner_text()
    assert_nothing_ran(page)


def test_search_and_filter_pages_show_evil_text_as_text(page, library):
    paper = evil_paper(library)
    p = page.page
    sign_in(p, library)
    for query in ("script", "onerror", "alert", "pwned"):
        p.fill("#q", query)
        p.press("#q", "Enter")
        p.wait_for_load_state()
        assert p.locator(f"#paper-{paper['id']}").count() == 1, query
        assert_nothing_ran(page)
    p.goto(library.base + "/")
    p.locator(".facet-link", has_text=f"tag{IMG}").click()
    p.wait_for_load_state()
    assert p.locator(f"#paper-{paper['id']}").count() == 1
    p.locator(".facet-link", has_text="topic").click()
    p.wait_for_load_state()
    assert p.locator(f"#paper-{paper['id']}").count() == 1
    assert_nothing_ran(page)


def test_paper_page_shows_evil_text_as_text_and_notes_inertly(page, library):
    paper = evil_paper(library)
    p = page.page
    sign_in(p, library)
    p.goto(f"{library.base}/papers/{paper['id']}")
    assert SCRIPT in p.locator("h1.paper-heading").inner_text()
    assert IMG in p.locator("#abstract").inner_text()
    assert IMG in p.locator(".affiliations").inner_text()
    comments = p.locator("#highlight-list .comment").all_inner_texts()
    assert f"comment {SCRIPT} {IMG} {JS_URL}" in comments
    assert p.locator("#abstract mark.hl-yellow").get_attribute("title") == (
        f"comment {SCRIPT} {IMG} {JS_URL}")
    notes = p.locator("li.note .note-body")
    first = notes.nth(0)
    assert SCRIPT in first.inner_text() and IMG in first.inner_text()
    # Markdown links: only the https one keeps an href; the tricks are dead text.
    hrefs = first.locator("a[href]").evaluate_all("els => els.map(e => e.getAttribute('href'))")
    assert "https://arxiv.org/abs/1707.06347" in hrefs
    assert all(h.startswith("https://") for h in hrefs), hrefs
    assert first.locator("a[href]").evaluate_all("els => els.map(e => e.rel)") == [
        "noopener noreferrer nofollow"] * len(hrefs)
    for label in ("plain js link", "upper js link", "tab js link", "data link"):
        link = first.locator("a", has_text=label)
        if link.count():
            assert link.get_attribute("href") is None, label
    assert SCRIPT in notes.nth(1).inner_text()
    # Hover the highlight with the quote-breaking comment and click the dead links: nothing runs.
    p.locator("#abstract mark.hl-purple").hover()
    for link in first.locator("a:not([href])").all():
        link.click()
    assert_nothing_ran(page)


def test_editing_and_refreshing_with_evil_text_runs_nothing(page, library):
    paper = evil_paper(library)
    p = page.page
    sign_in(p, library)
    p.goto(f"{library.base}/papers/{paper['id']}")
    # The edit forms hold the raw text as values, and saving it round-trips unchanged.
    p.click("#edit-details summary")
    assert p.input_value("#edit-title") == f"Title {SCRIPT} {IMG}"
    p.fill("#new-tag", f"new {SVG}")
    p.press("#new-tag", "Enter")  # swaps in freshly rendered HTML
    p.locator("#tag-list [data-tag]").filter(has_text="new").wait_for()
    assert f"new {SVG}" in p.locator("#tag-list").inner_text()
    p.fill("#new-note", f"added {SCRIPT} [x]({JS_URL})")
    p.click("#note-form button[type=submit]")
    p.locator("li.note").nth(2).wait_for()
    assert SCRIPT in p.locator("li.note").nth(2).inner_text()
    assert_nothing_ran(page)
    # The undo toast shows the title as text.
    p.goto(library.base + "/")
    p.locator(f"#paper-{paper['id']} button", has_text="Delete").click()
    assert SCRIPT in p.locator("#toast-text").inner_text()
    p.click("#toast-undo")
    assert_nothing_ran(page)
    assert library.call("GET", f"/api/papers/{paper['id']}")[0] == 200
