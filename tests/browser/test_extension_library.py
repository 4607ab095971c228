"""The extension as a library's front door, in a real Chromium against a real server: a paper saved
from the notes panel with a tag (a recent one, one click away) and a group; its reading state and
star set there; its notes shown as the library shows them (Markdown, a hostile note's script not
run); Open in library from the panel and the popup; the options page, popup and panel in one look,
light and dark, at 390 px, checked with axe-core."""

import os
from pathlib import Path

import pytest

from conftest import ROOT, TOPIC_URL, expected_papers, open_notes, wait_saved

pytestmark = pytest.mark.browser

PAPERS = expected_papers()
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
SAVE = '[data-papershelf-action="save-paper"]'


def _paper_on_page(page, arxiv_id):
    return page.locator(f'[data-papershelf-paper="{arxiv_id}"]').first


def _topic_page(context):
    page = context.new_page()
    page.goto(TOPIC_URL)
    page.wait_for_selector('[data-papershelf-paper] [data-papershelf-action="save"]')
    return page


def _ext_url(sw, path):
    return f"chrome-extension://{sw.url.split('/')[2]}/{path}"


def test_a_paper_is_saved_from_the_panel_with_a_recent_tag_a_new_one_and_a_group(connected):
    context, _sw, server = connected
    status, lab = server.call("POST", "/api/groups", {"name": "Lab"})
    assert status == 201, lab
    server.call("POST", "/api/groups", {"name": "Reading group"})
    # an earlier save left the tag "agents": it is one click away
    other = PAPERS[0]
    status, _ = server.call("POST", "/api/papers", {"arxiv_id": other["arxiv_id"],
                                                    "title": other["title"], "tags": ["agents"]})
    assert status == 201
    target = PAPERS[2]
    page = _topic_page(context)
    frame = open_notes(page, target["arxiv_id"])
    chip = frame.locator('[data-papershelf-recent-tag="agents"]')
    chip.wait_for()
    assert frame.locator(SAVE).inner_text() == "Save to papershelf"
    chip.click()
    assert chip.get_attribute("aria-pressed") == "true"
    tags = frame.locator("[data-papershelf-tags]")
    assert tags.input_value() == "agents"
    # typed as people type: stray spaces, a doubled comma, the same tag twice in another case
    tags.fill("agents,,  RL  fine-tuning , Agents, ")
    frame.locator('[data-papershelf-group="Lab"]').check()
    frame.locator(SAVE).click()
    msg = frame.locator("#save-msg.ps-msg-ok")
    msg.wait_for()
    assert msg.inner_text() == "Saved: tagged agents, RL fine-tuning; shared with Lab."
    wait_saved(page, target["arxiv_id"])  # the page's bar says Saved
    saved = next(p for p in server.papers() if p.get("arxiv_id") == target["arxiv_id"])
    assert saved["tags"] == ["agents", "RL fine-tuning"]
    status, groups = server.call("GET", f"/api/papers/{saved['id']}/groups")
    assert [g["name"] for g in groups["items"]] == ["Lab"]
    # the page never sees the tags or the groups: they live in the panel's frame only
    content = page.content()
    assert "RL fine-tuning" not in content and "Reading group" not in content
    # once saved, the same controls change its tags and groups
    open_library = frame.locator('[data-papershelf-action="open-library"]')
    open_library.wait_for()
    assert open_library.get_attribute("href") == f"{server.base}/papers/{saved['id']}"
    assert frame.locator(SAVE).inner_text() == "Save tags and groups"
    frame.locator('[data-papershelf-recent-tag="agents"]').click()  # off again
    assert tags.input_value() == "RL fine-tuning"
    frame.locator('[data-papershelf-group="Lab"]').uncheck()
    frame.locator('[data-papershelf-group="Reading group"]').check()
    frame.locator(SAVE).click()
    frame.locator("#save-msg.ps-msg-ok", has_text="shared with Reading group").wait_for()
    status, again = server.call("GET", f"/api/papers/{saved['id']}")
    assert again["tags"] == ["RL fine-tuning"]
    status, groups = server.call("GET", f"/api/papers/{saved['id']}/groups")
    assert [g["name"] for g in groups["items"]] == ["Reading group"]


def test_a_tag_the_server_refuses_is_said_and_nothing_is_saved(connected):
    context, _sw, server = connected
    page = _topic_page(context)
    frame = open_notes(page, PAPERS[3]["arxiv_id"])
    frame.locator("[data-papershelf-tags]").fill("x" * 101)
    frame.locator(SAVE).click()
    err = frame.locator("#save-msg.ps-msg-err")
    err.wait_for()
    assert "at most 100 characters" in err.inner_text()
    assert server.papers() == []


def test_a_save_with_tags_while_the_server_is_down_waits_and_arrives_with_them(connected):
    context, sw, server = connected
    status, lab = server.call("POST", "/api/groups", {"name": "Lab"})
    assert status == 201
    target = PAPERS[3]
    page = _topic_page(context)
    frame = open_notes(page, target["arxiv_id"])
    frame.locator('[data-papershelf-group="Lab"]').wait_for()
    server.stop()
    frame.locator("[data-papershelf-tags]").fill("offline, to read later")
    frame.locator('[data-papershelf-group="Lab"]').check()
    frame.locator(SAVE).click()
    frame.locator("#save-msg", has_text="Queued: it will be saved when the server is back.").wait_for()
    assert sw.evaluate("async () => (await chrome.storage.local.get('outbox')).outbox.length") == 1
    server.start()
    sw.evaluate("() => papershelf.flush({force: true})")  # what the alarm does
    wait_saved(page, target["arxiv_id"])  # sent: the page looks again and its bar says Saved
    (saved,) = server.papers()
    assert saved["arxiv_id"] == target["arxiv_id"]
    assert saved["tags"] == ["offline", "to read later"]
    status, groups = server.call("GET", f"/api/papers/{saved['id']}/groups")
    assert [g["id"] for g in groups["items"]] == [lab["id"]]


def test_reading_state_and_star_are_set_from_the_panel(connected):
    context, _sw, server = connected
    target = PAPERS[1]
    status, saved = server.call("POST", "/api/papers", {"arxiv_id": target["arxiv_id"],
                                                        "title": target["title"]})
    assert status == 201
    page = _topic_page(context)
    wait_saved(page, target["arxiv_id"])
    frame = open_notes(page, target["arxiv_id"])
    star = frame.locator('[data-papershelf-action="star"]')
    star.wait_for()
    assert star.get_attribute("aria-pressed") == "false"
    assert frame.locator("#reading-state").input_value() == "unread"
    star.click()
    frame.locator("#state-msg", has_text="Starred.").wait_for()
    assert star.get_attribute("aria-pressed") == "true"
    frame.locator("#reading-state").select_option("reading")
    frame.locator("#state-msg", has_text="Marked Reading.").wait_for()
    status, now = server.call("GET", f"/api/papers/{saved['id']}")
    assert now["starred"] is True and now["reading_state"] == "reading"
    # a fresh panel shows what the server has
    page.reload()
    frame = open_notes(page, target["arxiv_id"])
    frame.locator('[data-papershelf-action="star"][aria-pressed="true"]').wait_for()
    assert frame.locator("#reading-state").input_value() == "reading"


HOSTILE_NOTE = (
    "Read **section 4** first, see [the code](https://github.com/example/repo).\n\n"
    "- one\n- two\n\n"
    "[click me](javascript:window.pwned=1) <img src=x onerror=\"window.pwned=2\">\n\n"
    "<script>window.pwned=3</script>\n\n"
    "![tracker](https://tracker.example/pixel.png)"
)


def test_notes_are_rendered_as_markdown_and_a_hostile_one_runs_nothing(connected):
    context, _sw, server = connected
    target = PAPERS[4]
    status, saved = server.call("POST", "/api/papers", {"arxiv_id": target["arxiv_id"],
                                                        "title": target["title"]})
    assert status == 201
    server.call("POST", f"/api/papers/{saved['id']}/notes", {"body": HOSTILE_NOTE})
    page = _topic_page(context)
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    wait_saved(page, target["arxiv_id"])
    frame = open_notes(page, target["arxiv_id"])
    body = frame.locator("[data-papershelf-note-body]").first
    body.locator("strong").wait_for()
    assert body.locator("strong").inner_text() == "section 4"
    assert body.locator("li").all_inner_texts() == ["one", "two"]
    link = body.locator("a", has_text="the code")
    assert link.get_attribute("href") == "https://github.com/example/repo"
    assert link.get_attribute("rel") == "noopener noreferrer nofollow"
    assert link.get_attribute("target") == "_blank"  # the panel's frame stays the panel
    # the javascript: link is no link, the raw HTML is text, the image is no image
    text = body.inner_text()
    assert body.locator("a", has_text="click me").count() == 0
    assert "[click me](javascript:window.pwned=1)" in text
    assert body.locator("img, script").count() == 0
    assert '<img src=x onerror="window.pwned=2">' in text
    assert "<script>window.pwned=3</script>" in text
    # a note written in the panel is rendered the same way
    frame.locator("textarea[data-papershelf-note-input]").fill("*mine* `code`")
    frame.locator('[data-papershelf-action="save-note"]').click()
    mine = frame.locator("[data-papershelf-note-body]", has=frame.locator("em", has_text="mine"))
    mine.wait_for()
    assert mine.locator("code").inner_text() == "code"
    panel = next(f for f in page.frames if f.url.startswith("chrome-extension://"))
    assert panel.evaluate("() => window.pwned") is None
    assert page.evaluate("() => window.pwned") is None
    assert dialogs == []
    # the library shows the same note the same way
    rendered = frame.locator("[data-papershelf-note-body]").first.inner_html()
    assert "<strong>section 4</strong>" in rendered and "<script" not in rendered


def test_open_in_library_from_the_panel_and_the_popup(connected):
    context, sw, server = connected
    target = PAPERS[5]
    status, saved = server.call("POST", "/api/papers", {"arxiv_id": target["arxiv_id"],
                                                        "title": target["title"]})
    assert status == 201
    page = _topic_page(context)
    wait_saved(page, target["arxiv_id"])
    frame = open_notes(page, target["arxiv_id"])
    link = frame.locator('[data-papershelf-action="open-library"]')
    link.wait_for()
    with context.expect_page() as opened:
        link.click()
    library = opened.value
    paper_path = f"/papers/{saved['id']}"
    # the library asks for a sign-in first, then goes to the paper's page (a second navigation:
    # the first page's load is not the end of it)
    library.wait_for_url(lambda url: url.startswith(server.base) and paper_path in url)
    library.close()
    # the popup: a save through the extension shows in its recent saves, linked to its page
    page.locator(f'[data-papershelf-paper="{PAPERS[6]["arxiv_id"]}"]').first.locator(
        '[data-papershelf-action="save"]').click()
    wait_saved(page, PAPERS[6]["arxiv_id"])
    mine = next(p for p in server.papers() if p.get("arxiv_id") == PAPERS[6]["arxiv_id"])
    popup = context.new_page()
    popup.goto(_ext_url(sw, "popup/popup.html"))
    recent = popup.locator("#recent a", has_text=PAPERS[6]["title"])
    recent.wait_for()
    assert recent.get_attribute("href") == f"{server.base}/papers/{mine['id']}"
    with context.expect_page() as opened:
        popup.click("#open-library")
    home = opened.value
    home.wait_for_load_state()
    assert home.url.startswith(server.base + "/")


def _axe(page):
    """axe-core's WCAG 2 A/AA rules on the page: the violations, by rule."""
    page.evaluate(AXE.read_text(encoding="utf-8") + "\n;0")
    result = page.evaluate(
        "() => axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa']}})"
        ".then(r => ({passes: r.passes.map(v => v.id),"
        " violations: r.violations.map(v => ({id: v.id, nodes: v.nodes.map(n => n.html)}))}))")
    # it did look: contrast, names and labels were checked and passed
    assert {"color-contrast", "button-name"} <= set(result["passes"]), result["passes"]
    return result["violations"]


def _shots_dir(tmp_path):
    """Where the screenshots go: PAPERSHELF_SHOTS (to look at them), else the test's tmp dir."""
    out = Path(os.environ.get("PAPERSHELF_SHOTS") or tmp_path)
    out.mkdir(parents=True, exist_ok=True)
    return out


def _fits(page):
    """Nothing wider than the window: no sideways scrolling, no control past the right edge."""
    return page.evaluate("""() => {
        const w = document.documentElement.clientWidth;
        const over = [...document.querySelectorAll('button, a, input, select, label, p, li')]
            .filter(e => e.getClientRects().length && e.getBoundingClientRect().right > w + 1)
            .map(e => e.outerHTML.slice(0, 80));
        return {scroll: document.documentElement.scrollWidth <= w, over};
    }""")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_options_popup_and_panel_in_one_look_at_390px_pass_axe(connected, scheme, tmp_path):
    context, sw, server = connected
    if not AXE.exists():
        pytest.fail("axe-core is not installed: npm ci")
    shots = _shots_dir(tmp_path)
    server.call("POST", "/api/groups", {"name": "Lab"})
    server.call("POST", "/api/papers", {"arxiv_id": PAPERS[0]["arxiv_id"],
                                        "title": PAPERS[0]["title"], "tags": ["agents", "rl"]})
    # the panel at the side of a 390 px page, on a saved paper with a note
    page = context.new_page()
    page.set_viewport_size({"width": 390, "height": 844})
    page.emulate_media(color_scheme=scheme)
    page.goto(TOPIC_URL)
    wait_saved(page, PAPERS[0]["arxiv_id"])
    # a save through the page's bar, for the popup's recent saves
    page.locator(f'[data-papershelf-paper="{PAPERS[1]["arxiv_id"]}"]').first.locator(
        '[data-papershelf-action="save"]').click()
    wait_saved(page, PAPERS[1]["arxiv_id"])
    status, mine = server.call("GET", "/api/papers?limit=200")
    mine = {"items": [p for p in mine["items"] if p["arxiv_id"] == PAPERS[0]["arxiv_id"]]}
    server.call("POST", f"/api/papers/{mine['items'][0]['id']}/notes",
                {"body": "**Key idea**: asymmetric *PPO*.\n\n- see `eq. 3`"})
    frame = open_notes(page, PAPERS[0]["arxiv_id"])
    frame.locator("[data-papershelf-note-body] strong").wait_for()
    frame.locator('[data-papershelf-recent-tag="agents"]').wait_for()
    page.screenshot(path=str(shots / f"panel-{scheme}-390.png"))
    panel = next(f for f in page.frames if f.url.startswith("chrome-extension://"))
    fit = _fits(panel)
    assert fit == {"scroll": True, "over": []}, ("panel", fit)
    assert _axe(panel) == [], "panel"
    backgrounds = {}
    for name, path in (("options", "options/options.html"), ("popup", "popup/popup.html")):
        page = context.new_page()
        page.set_viewport_size({"width": 390, "height": 844})
        page.emulate_media(color_scheme=scheme)
        page.goto(_ext_url(sw, path))
        if name == "options":
            page.click("#test")
            page.locator("#result.ps-msg-ok").wait_for()
        else:
            page.locator("#recent a").first.wait_for()
        page.screenshot(path=str(shots / f"{name}-{scheme}-390.png"), full_page=True)
        fit = _fits(page)
        assert fit == {"scroll": True, "over": []}, (name, fit)
        assert _axe(page) == [], name
        plain = "#test" if name == "options" else "#export"
        backgrounds[name] = page.evaluate(
            "sel => ['backgroundColor', 'fontSize', 'borderRadius']"
            ".map(k => getComputedStyle(document.querySelector(sel))[k])", plain)
        page.close()
    # one button style: the same button looks the same in the options page and the popup
    assert backgrounds["options"] == backgrounds["popup"]
    # and the scheme is followed
    bg = panel.evaluate("() => getComputedStyle(document.body).backgroundColor")
    assert (bg == "rgb(255, 255, 255)") == (scheme == "light"), bg
