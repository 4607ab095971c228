# ruff: noqa: F811 - pytest fixtures are imported by name and taken as arguments
"""The library page previews a note as it is written, with the notes panel's renderer
(markdown.js, the extension's own file): the same DOM the server shows once it is saved, and a
hostile note's script never runs."""

import pytest
from library_server import chromium, library, page, sign_in  # noqa: F401 - fixtures

pytestmark = pytest.mark.browser

NOTE = ("See **section 4** and [PPO](https://arxiv.org/abs/1707.06347).\n\n"
        "- [bad](javascript:window.pwned=1)\n- <img src=x onerror=\"window.pwned=2\">\n\n"
        "<script>window.pwned=3</script>")


def test_a_note_is_previewed_as_it_will_show_and_runs_nothing(page, library):
    from playwright.sync_api import expect

    paper = library.save(arxiv_id="2603.29001", title="Asymmetric Actor-Critic")
    p = page.page
    sign_in(p, library)
    p.goto(f"{library.base}/papers/{paper['id']}")
    p.locator("#new-note").press_sequentially("*draft*")
    p.wait_for_timeout(500)
    assert page.problems == []
    preview = p.locator("#note-form [data-note-preview]")
    expect(preview.locator("em")).to_have_text("draft")
    p.fill("#new-note", NOTE)
    expect(preview.locator("strong")).to_have_text("section 4")
    expect(preview.locator("a")).to_have_attribute("href", "https://arxiv.org/abs/1707.06347")
    assert preview.locator("img, script").count() == 0
    previewed = preview.evaluate("e => e.innerHTML")
    p.click("#note-form button[type=submit]")
    saved = p.locator("li.note .note-body").first
    expect(saved.locator("strong")).to_have_text("section 4")
    # the server's rendering and the preview are the same DOM
    assert p.evaluate("""([a, b]) => {
        const norm = (html) => { const t = document.createElement('template'); t.innerHTML = html;
            t.content.normalize(); return t.innerHTML.replace(/\\s+/g, ' ').trim(); };
        return norm(a) === norm(b);
    }""", [previewed, saved.evaluate("e => e.innerHTML")])
    assert p.evaluate("() => window.pwned") is None
    assert page.problems == []
