# ruff: noqa: F811 - pytest fixtures are imported by name and taken as arguments
"""The library page in a real Chromium against a real server: sign in, find, edit, tag, filter,
export, import, delete and undo, highlight, keyboard."""

import re
import time
from pathlib import Path

import pytest
from library_server import chromium, library, page, sign_in  # noqa: F401 - fixtures

pytestmark = pytest.mark.browser

ACTOR = dict(
    arxiv_id="2603.29001",
    title="Asymmetric Actor-Critic for Multi-turn LLM Agents",
    authors=["Shuli Jiang", "Zhaoyang Zhang", "Yi Zhang"],
    authors_more=3,
    abstract="Large language models (LLMs) exhibit strong reasoning and conversational abilities, "
             "but ensuring reliable behavior in multi-turn interactions remains challenging.",
    published="2026-03-31",
    topics=["LLM Agent Training"],
    source_url="https://www.alphaxiv.org/topics/llm-agent-training",
)
SCALING = dict(
    arxiv_id="2602.11111",
    title="Scaling Laws for Tool-Using Agents",
    authors=["Ada Lovelace", "Alan Turing"],
    abstract="We study how tool use scales with model size and data.",
    published="2026-02-10",
    topics=["Tool Use"],
)


def expect(locator):
    from playwright.sync_api import expect as _expect

    return _expect(locator)


def seed(library):
    actor = library.save(**ACTOR)
    scaling = library.save(**SCALING)
    library.note(actor["id"], "Compare with the zeitgeber baseline in **section 4**.")
    library.note(scaling["id"], "Curriculum matters more than size.")
    return actor, scaling


def rows(page):
    return page.locator("li.paper:visible")


def test_sign_in_wrong_token_then_right_then_sign_out(page, library):
    p = page.page
    p.goto(library.base + "/")
    assert p.url.startswith(library.base + "/signin")
    p.fill("#token", "ps_not-a-token")
    p.click("form.signin-card button[type=submit]")
    expect(p.locator("#signin-error")).to_contain_text("not valid")
    page.problems.clear()  # the 401 answer itself is logged by the browser
    p.fill("#token", library.token)
    p.click("form.signin-card button[type=submit]")
    p.wait_for_url(library.base + "/")
    cookie = next(c for c in p.context.cookies() if c["name"] == "papershelf_session")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
    expect(p.locator("#results-heading")).to_have_text("Your library is empty")
    p.click("text=Sign out")
    p.wait_for_url(re.compile(r".*/signin$"))
    p.goto(library.base + "/")
    assert "/signin" in p.url
    assert page.problems == []


def test_find_a_paper_by_a_word_of_one_of_its_notes(page, library):
    seed(library)
    p = page.page
    sign_in(p, library)
    expect(rows(p)).to_have_count(2)
    p.fill("#q", "zeitgeber")
    p.press("#q", "Enter")
    p.wait_for_url(re.compile(r".*q=zeitgeber"))
    expect(rows(p)).to_have_count(1)
    expect(rows(p).first.locator(".paper-title")).to_have_text(ACTOR["title"])
    snippet = rows(p).first.locator(".snippet")
    expect(snippet).to_contain_text("Note")
    expect(snippet.locator("mark.match")).to_have_text("zeitgeber")
    assert page.problems == []


def test_edit_a_note(page, library):
    actor, _ = seed(library)
    p = page.page
    sign_in(p, library)
    p.click(f"text={ACTOR['title']}")
    p.wait_for_url(f"{library.base}/papers/{actor['id']}")
    note = p.locator("li.note").first
    expect(note.locator(".note-body strong")).to_have_text("section 4")
    note.locator("summary", has_text="Edit").click()
    note.locator("textarea").fill("Revised: the *critic* is **asymmetric**.")
    note.locator("button", has_text="Save note").click()
    note = p.locator("li.note").first
    expect(note.locator(".note-body em")).to_have_text("critic")
    expect(note.locator(".note-body strong")).to_have_text("asymmetric")
    bodies = [n["body"] for n in library.ok("GET", f"/api/papers/{actor['id']}")["notes"]]
    assert bodies == ["Revised: the *critic* is **asymmetric**."]
    p.reload()
    expect(p.locator("li.note .note-body")).to_contain_text("Revised: the critic is asymmetric.")
    assert page.problems == []


def test_add_and_delete_a_note_on_the_paper_page(page, library):
    actor, _ = seed(library)
    p = page.page
    sign_in(p, library)
    p.goto(f"{library.base}/papers/{actor['id']}")
    p.fill("#new-note", "A [link](https://arxiv.org/abs/1707.06347) to PPO")
    p.click("#note-form button[type=submit]")
    expect(p.locator("li.note")).to_have_count(2)
    link = p.locator("li.note").nth(1).locator("a")
    expect(link).to_have_attribute("href", "https://arxiv.org/abs/1707.06347")
    p.locator("li.note").nth(1).locator("button", has_text="Delete").click()
    expect(p.locator("li.note:visible")).to_have_count(1)
    expect(p.locator("#toast")).to_be_visible()
    expect(p.locator("#toast-undo")).to_be_focused()
    p.click("#toast-undo")
    expect(p.locator("li.note:visible")).to_have_count(2)
    assert page.problems == []


def test_add_a_tag_and_filter_by_it(page, library):
    actor, scaling = seed(library)
    p = page.page
    sign_in(p, library)
    p.goto(f"{library.base}/papers/{actor['id']}")
    p.fill("#new-tag", "thesis-ch2")
    p.press("#new-tag", "Enter")
    expect(p.locator("#tag-list [data-tag]")).to_have_text(["thesis-ch2×"])
    expect(p.locator("#new-tag")).to_be_focused()
    assert library.ok("GET", f"/api/papers/{actor['id']}")["tags"] == ["thesis-ch2"]
    p.click("#back-link")
    p.wait_for_url(library.base + "/")
    rows(p).filter(has_text=ACTOR["title"]).locator("a.chip-tag", has_text="thesis-ch2").click()
    p.wait_for_url(re.compile(r".*tag=thesis-ch2"))
    expect(rows(p)).to_have_count(1)
    expect(rows(p).first.locator(".paper-title")).to_have_text(ACTOR["title"])
    expect(p.locator(".facet-link.is-active")).to_contain_text("thesis-ch2")
    # and take it off again on the paper's page
    p.goto(f"{library.base}/papers/{actor['id']}")
    p.click("button[aria-label='Remove the tag thesis-ch2']")
    expect(p.locator("#tag-list [data-tag]")).to_have_count(0)
    assert library.ok("GET", f"/api/papers/{actor['id']}")["tags"] == []
    assert page.problems == []


def test_filter_by_topic_and_sort_by_publication(page, library):
    seed(library)
    library.save(title="Undated note-only paper", url="https://example.org/paper")
    p = page.page
    sign_in(p, library)
    titles = p.locator("li.paper .paper-title")
    expect(titles).to_have_text(["Undated note-only paper", SCALING["title"], ACTOR["title"]])
    p.select_option("#sort", "published")
    p.wait_for_url(re.compile(r".*sort=published"))
    expect(titles).to_have_text([ACTOR["title"], SCALING["title"], "Undated note-only paper"])
    p.click(".facet-link:has-text('Tool Use')")
    expect(titles).to_have_text([SCALING["title"]])
    assert page.problems == []


def _export_available(library) -> bool:
    return library.call("GET", "/api/export?format=bibtex")[0] != 404


def test_export_bibtex_downloads_the_selection(page, library):
    if not _export_available(library):
        pytest.skip("GET /api/export is not in the server yet (api/transfer.py)")
    actor, scaling = seed(library)
    library.ok("PATCH", f"/api/papers/{actor['id']}", {"tags": ["rl"]})
    p = page.page
    sign_in(p, library)
    p.select_option("#export-format", "bibtex")
    with p.expect_download() as info:
        p.click("#export-form button[type=submit]")
    text = Path(info.value.path()).read_text(encoding="utf-8")
    assert info.value.suggested_filename.endswith(".bib")
    assert text.count("@") >= 2
    assert actor["citation_key"] in text and scaling["citation_key"] in text
    assert "2603.29001" in text
    # the selection: only the tagged paper
    p.goto(library.base + "/?tag=rl")
    with p.expect_download() as info:
        p.click("#export-form button[type=submit]")
    text = Path(info.value.path()).read_text(encoding="utf-8")
    assert actor["citation_key"] in text and scaling["citation_key"] not in text
    assert page.problems == []


def test_import_reports_what_was_created(page, library, tmp_path):
    if library.call("POST", "/api/import?format=bibtex", {})[0] == 404:
        pytest.skip("POST /api/import is not in the server yet (api/transfer.py)")
    bib = tmp_path / "refs.bib"
    bib.write_text("@misc{smith2020thing,\n  title = {A Thing Worth Reading},\n"
                   "  author = {Smith, Jane},\n  year = {2020},\n"
                   "  url = {https://example.org/thing}\n}\n")
    p = page.page
    sign_in(p, library)
    p.set_input_files("#import-file", str(bib))
    p.select_option("#import-format", "bibtex")
    p.click("#import-form button[type=submit]")
    expect(p.locator("#import-result")).to_contain_text("1 created")
    expect(rows(p)).to_have_count(1)
    expect(rows(p).first).to_contain_text("A Thing Worth Reading")
    assert page.problems == []


def test_delete_and_undo_then_delete_for_good(page, library):
    actor, scaling = seed(library)
    library.highlight(actor, "reliable behavior", comment="core")
    p = page.page
    sign_in(p, library)
    row = p.locator(f"#paper-{actor['id']}")
    row.locator("button", has_text="Delete").click()
    expect(row).to_be_hidden()
    expect(p.locator("#results-heading")).to_have_text("1 paper")
    expect(p.locator("#toast-text")).to_have_text(f"Deleted “{ACTOR['title']}”.")
    expect(p.locator("#toast-undo")).to_be_focused()
    p.keyboard.press("Enter")  # Undo, from the keyboard
    expect(row).to_be_visible()
    expect(p.locator("#results-heading")).to_have_text("2 papers")
    expect(p.locator("#toast")).to_be_hidden()
    p.wait_for_timeout(9000)  # past the undo window: nothing may have been deleted
    detail = library.ok("GET", f"/api/papers/{actor['id']}")
    assert len(detail["notes"]) == 1 and len(detail["highlights"]) == 1

    # A reload during the undo window keeps the delete pending (and undoable).
    row.locator("button", has_text="Delete").click()
    p.reload()
    expect(p.locator(f"#paper-{actor['id']}")).to_be_hidden()
    expect(p.locator("#toast")).to_be_visible()
    # Without Undo, the paper goes when the time is up.
    deadline = time.monotonic() + 15
    while library.call("GET", f"/api/papers/{actor['id']}")[0] != 404:
        assert time.monotonic() < deadline, "the delete was never sent"
        p.wait_for_timeout(250)
    expect(p.locator(f"#paper-{actor['id']}")).to_have_count(0)
    expect(p.locator("#toast")).to_be_hidden()
    expect(p.locator("#results-heading")).to_have_text("1 paper")
    assert library.call("GET", f"/api/papers/{scaling['id']}")[0] == 200
    assert page.problems == []


def test_delete_from_the_paper_page_can_be_undone_on_the_list(page, library):
    actor, _ = seed(library)
    p = page.page
    sign_in(p, library)
    p.goto(f"{library.base}/papers/{actor['id']}")
    p.click("button[data-action=delete-paper]")
    p.wait_for_url(library.base + "/")
    expect(p.locator(f"#paper-{actor['id']}")).to_be_hidden()
    p.click("#toast-undo")
    expect(p.locator(f"#paper-{actor['id']}")).to_be_visible()
    p.wait_for_timeout(9000)
    assert library.call("GET", f"/api/papers/{actor['id']}")[0] == 200
    assert page.problems == []


def test_highlight_a_selection_with_a_comment(page, library):
    actor, _ = seed(library)
    p = page.page
    sign_in(p, library)
    p.goto(f"{library.base}/papers/{actor['id']}")
    expect(p.locator("#hl-button")).to_be_disabled()
    p.evaluate("""(quote) => {
        const el = document.getElementById('abstract');
        const node = el.firstChild;
        const at = node.textContent.indexOf(quote);
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + quote.length);
        const sel = document.getSelection();
        sel.removeAllRanges();
        sel.addRange(range);
    }""", "strong reasoning")
    expect(p.locator("#hl-button")).to_be_enabled()
    expect(p.locator("#hl-hint")).to_contain_text("strong reasoning")
    p.select_option("#hl-color", "pink")
    p.fill("#hl-comment", "is it, though?")
    p.click("#hl-button")
    mark = p.locator("#abstract mark.hl-pink")
    expect(mark).to_have_text("strong reasoning")
    expect(mark).to_have_attribute("title", "is it, though?")
    expect(p.locator("#highlight-list .comment")).to_have_text("is it, though?")
    (h,) = library.ok("GET", f"/api/papers/{actor['id']}")["highlights"]
    text = " ".join(ACTOR["abstract"].split())
    assert (h["exact"], h["start"], h["end"], h["color"]) == (
        "strong reasoning", text.index("strong reasoning"),
        text.index("strong reasoning") + 16, "pink")
    # Described as the extension and the server describe one (the page imports the extension's
    # anchoring module): the same context on each side.
    from papershelf.domain.anchoring import describe_range

    described = describe_range(text, h["start"], h["end"])
    assert (h["prefix"], h["suffix"]) == (described["prefix"], described["suffix"])
    # recolour it
    item = p.locator(f"#highlight-{h['id']}")
    item.locator("summary", has_text="Edit").click()
    item.locator("select").select_option("blue")
    item.locator("button", has_text="Save").click()
    expect(p.locator("#abstract mark.hl-blue")).to_have_text("strong reasoning")
    assert page.problems == []


def test_edit_title_authors_and_citation_key(page, library):
    actor, scaling = seed(library)
    p = page.page
    sign_in(p, library)
    p.goto(f"{library.base}/papers/{actor['id']}")
    p.click("#edit-details summary")
    p.fill("#edit-title", "Asymmetric Actor-Critic (revised)")
    p.fill("#edit-authors", "Shuli Jiang\nYi Zhang")
    p.fill("#edit-more", "0")
    p.fill("#edit-key", "jiang2026aac")
    p.click("#details-form button[type=submit]")
    expect(p.locator("h1.paper-heading")).to_have_text("Asymmetric Actor-Critic (revised)")
    expect(p.locator(".paper-head .authors")).to_have_text("Shuli Jiang, Yi Zhang")
    expect(p.locator("#citekey")).to_have_text("jiang2026aac")
    # a taken key is refused with the server's message, nothing else changes
    p.click("#edit-details summary")
    p.fill("#edit-key", scaling["citation_key"])
    p.click("#details-form button[type=submit]")
    expect(p.locator("#flash")).to_contain_text("taken")
    page.problems[:] = [x for x in page.problems if "409" not in x]
    assert library.ok("GET", f"/api/papers/{actor['id']}")["citation_key"] == "jiang2026aac"
    assert page.problems == []


def test_keyboard_search_shortcut_and_visible_focus(page, library):
    seed(library)
    p = page.page
    sign_in(p, library)
    p.locator("body").press("/")
    expect(p.locator("#q")).to_be_focused()
    p.locator("#q").press("Escape")
    p.locator("#q").evaluate("el => el.blur()")
    p.keyboard.press("j")
    first = p.locator("a[data-nav]").first
    expect(first).to_be_focused()
    p.keyboard.press("j")
    expect(p.locator("a[data-nav]").nth(1)).to_be_focused()
    outline = p.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline not in ("none", "")
    p.keyboard.press("Enter")
    p.wait_for_url(re.compile(r".*/papers/\d+$"))
    # Tab reaches the skip link first, and it is visible when focused
    p.keyboard.press("Tab")
    expect(p.locator("a.skip")).to_be_focused()
    box = p.locator("a.skip").bounding_box()
    assert box and box["y"] >= 0
    assert page.problems == []


def test_other_users_papers_never_show(page, library):
    seed(library)
    other = library.new_user_token("someone-else")
    p = page.page
    sign_in(p, library, token=other)
    expect(p.locator("#results-heading")).to_have_text("Your library is empty")
    p.goto(library.base + "/?q=zeitgeber")
    expect(rows(p)).to_have_count(0)
    p.goto(library.base + "/papers/1")
    expect(p.locator("h1")).to_have_text("Not found")
    page.problems[:] = [x for x in page.problems if "404" not in x]
    assert page.problems == []


def test_narrow_window_keeps_everything_reachable(page, library):
    seed(library)
    p = page.page
    p.set_viewport_size({"width": 380, "height": 800})
    sign_in(p, library)
    width = p.evaluate("document.documentElement.scrollWidth")
    assert width <= 380
    expect(p.locator("#export-form button[type=submit]")).to_be_visible()
    p.goto(f"{library.base}/papers/1")
    assert p.evaluate("document.documentElement.scrollWidth") <= 380
    assert page.problems == []


def test_a_half_written_note_survives_another_edit(page, library):
    actor, _ = seed(library)
    p = page.page
    sign_in(p, library)
    p.goto(f"{library.base}/papers/{actor['id']}")
    p.fill("#new-note", "half a thought")
    p.fill("#new-tag", "later")
    p.press("#new-tag", "Enter")
    expect(p.locator("#tag-list [data-tag]")).to_have_count(1)
    expect(p.locator("#new-note")).to_have_value("half a thought")
    expect(p.locator("#new-tag")).to_have_value("")
    assert page.problems == []


def test_a_live_bibliography_from_the_library_page(page, library):
    """Create a feed for a tag, copy its URL, fetch it as Overleaf would (no token), revoke it."""
    import urllib.error
    import urllib.request

    actor, scaling = seed(library)
    library.ok("PATCH", f"/api/papers/{actor['id']}", {"tags": ["rl"]})
    p = page.page
    p.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=library.base)
    sign_in(p, library)
    p.goto(library.base + "/?tag=rl")
    p.select_option("#feed-format", "bibtex")
    p.click("#feeds button[type=submit]")
    copy = p.locator("#feeds [data-action=copy-feed]")
    expect(copy).to_have_count(1)
    expect(copy).to_be_focused()
    copy.click()
    url = p.evaluate("navigator.clipboard.readText()")
    assert url.startswith(library.base + "/feeds/") and url.endswith(".bib")
    with urllib.request.urlopen(url, timeout=10) as answer:  # no Authorization: the URL is the key
        text = answer.read().decode("utf-8")
    assert actor["citation_key"] in text and scaling["citation_key"] not in text
    revoke = p.locator("#feeds [data-action=revoke-feed]")
    revoke.click()
    expect(revoke).to_have_text("Press again to revoke")
    with urllib.request.urlopen(url, timeout=10) as answer:  # not revoked by the first press
        assert answer.status == 200
    revoke.click()
    expect(p.locator("#feeds [data-feed-id]")).to_have_count(0)
    with pytest.raises(urllib.error.HTTPError) as gone:
        urllib.request.urlopen(url, timeout=10)
    with gone.value:
        assert gone.value.code == 404
    assert page.problems == []


def test_copy_key_and_copy_bibtex_on_the_paper_page(page, library):
    actor, _ = seed(library)
    p = page.page
    p.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=library.base)
    sign_in(p, library)
    p.goto(f"{library.base}/papers/{actor['id']}")
    p.click("[data-action=copy-key]")
    expect(p.locator("#flash")).to_contain_text("Key copied")
    assert p.evaluate("navigator.clipboard.readText()") == actor["citation_key"]
    p.click("[data-action=copy-bibtex]")
    expect(p.locator("#flash")).to_contain_text("BibTeX entry copied")
    copied = p.evaluate("navigator.clipboard.readText()")
    exported = library.call("GET", f"/api/export?format=bibtex&ids={actor['id']}")[1]
    assert copied.startswith("@misc{" + actor["citation_key"] + ",")
    assert copied == exported.decode("utf-8")
    assert "zeitgeber baseline" in copied  # the note is in the entry, as in the export
    assert page.problems == []
