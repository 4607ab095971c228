# ruff: noqa: F811 - pytest fixtures are imported by name and taken as arguments
"""The library's everyday tools in a real Chromium against a real server, driven as a user:
every field edited by entry type, many papers selected (shift-click ranges, all matching) and
changed at once, delete with undo, duplicates merged, a tag renamed and merged, the key formula
previewed and applied, nothing cut off at 390 px, dark mode, axe-core on each page."""

import json
import re
from pathlib import Path

import pytest
from library_server import chromium, library, page, sign_in  # noqa: F401 - fixtures

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
SHOTS = Path("/tmp/papershelf-library-shots")


def expect(locator):
    from playwright.sync_api import expect as _expect

    return _expect(locator)


def rows(p):
    return p.locator("li.paper:visible")


def seed_shelf(library, n=5):
    """n papers with authors, years and venues, saved oldest first."""
    out = []
    for i in range(n):
        out.append(library.save(title=f"Paper {i:02d} on agents", authors=[f"Ann Author{i:02d}"],
                                published=f"20{10 + i}-01-01", abstract=f"Abstract number {i}."))
    return out


def test_edit_every_field_the_entry_type_shows(page, library):
    paper = library.save(arxiv_id="2603.29001", title="Asymmetric Actor-Critic",
                         authors=["Shuli Jiang"], published="2026-03-31", abstract="Old abstract.")
    p = page.page
    sign_in(p, library)
    p.goto(f"{library.base}/papers/{paper['id']}")
    p.click("#edit-details summary")
    p.select_option("#edit-type", "inproceedings")
    expect(p.locator("#edit-journal")).to_be_hidden()
    expect(p.locator("#edit-booktitle")).to_be_visible()
    p.fill("#edit-booktitle", "Proceedings of ICML 2026")
    p.fill("#edit-volume", "267")
    p.fill("#edit-pages", "1--12")
    p.fill("#edit-published", "2026")
    p.fill("#edit-doi", "https://doi.org/10.5555/ICML.2026.7")
    p.fill("#edit-abstract", "A better abstract.")
    SHOTS.mkdir(parents=True, exist_ok=True)
    p.screenshot(path=str(SHOTS / "editor-inproceedings.png"), full_page=True)
    p.click("#details-form button[type=submit]")
    expect(p.locator("#flash")).to_have_text("Details saved.")
    expect(p.locator("#flash")).to_have_class(re.compile(r"ps-msg-ok"))
    expect(p.locator(".facts")).to_contain_text("Proceedings of ICML 2026, vol. 267, pp. 1--12")
    got = library.ok("GET", f"/api/papers/{paper['id']}")
    assert (got["entry_type"], got["booktitle"], got["doi"], got["published"], got["abstract"]) == (
        "inproceedings", "Proceedings of ICML 2026", "10.5555/icml.2026.7", "2026-01-01",
        "A better abstract.")
    assert {"booktitle", "doi", "abstract", "published"} <= set(got["edited_fields"])
    # an article: the proceedings' title goes (cleared), the journal shows
    p.click("#edit-details summary")
    p.select_option("#edit-type", "article")
    expect(p.locator("#edit-booktitle")).to_be_hidden()
    p.fill("#edit-journal", "JMLR")
    p.click("#details-form button[type=submit]")
    expect(p.locator(".facts")).to_contain_text("JMLR")
    got = library.ok("GET", f"/api/papers/{paper['id']}")
    assert (got["entry_type"], got["journal"], got["booktitle"]) == ("article", "JMLR", None)
    # a bad DOI is the server's field error, in the error style; nothing changes
    p.click("#edit-details summary")
    p.fill("#edit-doi", "not a doi")
    p.click("#details-form button[type=submit]")
    expect(p.locator("#flash")).to_contain_text("doi")
    expect(p.locator("#flash")).to_have_class(re.compile(r"ps-msg-err"))
    page.problems[:] = [x for x in page.problems if "422" not in x]
    assert library.ok("GET", f"/api/papers/{paper['id']}")["doi"] == "10.5555/icml.2026.7"
    # state and star on the paper's page
    p.select_option("#paper-state", "reading")
    expect(p.locator("#flash")).to_contain_text("Reading")
    p.click("#reading button[data-action=star]")
    expect(p.locator("#reading button[data-action=star]")).to_have_attribute("aria-pressed", "true")
    got = library.ok("GET", f"/api/papers/{paper['id']}")
    assert (got["reading_state"], got["starred"]) == ("reading", True)
    assert page.problems == []


def test_shift_click_a_range_then_tag_set_state_and_delete_with_undo(page, library):
    shelf = seed_shelf(library, 6)
    p = page.page
    sign_in(p, library)
    boxes = p.locator("input[data-pick]")
    expect(boxes).to_have_count(6)
    expect(p.locator("#bulk")).to_be_hidden()
    boxes.nth(1).click()
    boxes.nth(4).click(modifiers=["Shift"])
    expect(p.locator("#bulk-count")).to_have_text("4 selected")
    SHOTS.mkdir(parents=True, exist_ok=True)
    p.screenshot(path=str(SHOTS / "bulk-selection.png"))
    picked = [int(v) for v in p.locator("input[data-pick]:checked").evaluate_all(
        "els => els.map(e => e.value)")]
    newest_first = [x["id"] for x in reversed(shelf)]
    assert picked == newest_first[1:5]
    p.fill("#bulk-tag", "survey")
    p.click("button[data-action=bulk-tag]")
    expect(p.locator("#flash")).to_contain_text("Tagged “survey”: 4 papers")
    expect(p.locator("#flash")).to_have_class(re.compile(r"ps-msg-ok"))
    expect(p.locator("#bulk-count")).to_have_text("4 selected")  # the selection stays
    p.select_option("#bulk-state", "to_read")
    p.click("button[data-action=bulk-state]")
    expect(p.locator("#flash")).to_contain_text("State set: 4 papers")
    for pid in picked:
        got = library.ok("GET", f"/api/papers/{pid}")
        assert got["tags"] == ["survey"] and got["reading_state"] == "to_read"
    assert library.ok("GET", f"/api/papers/{newest_first[0]}")["tags"] == []
    # the tags panel counts it; the state filter finds them
    expect(p.locator("#tags-panel .facet-link")).to_have_text(["survey4"])
    p.select_option("#state", "to_read")
    p.wait_for_url(re.compile(r".*state=to_read"))
    expect(rows(p)).to_have_count(4)
    # delete the four at once, then undo
    p.locator("#pick-page").check()
    expect(p.locator("#bulk-count")).to_have_text("4 selected")
    p.click("button[data-action=bulk-delete]")
    expect(p.locator("#toast-text")).to_have_text("Deleted 4 papers.")
    expect(rows(p)).to_have_count(0)
    assert library.call("GET", f"/api/papers/{picked[0]}")[0] == 404
    expect(p.locator("#toast-undo")).to_be_focused()
    p.keyboard.press("Enter")
    expect(p.locator("#flash")).to_contain_text("Restored 4 papers")
    expect(rows(p)).to_have_count(4)
    restored = library.ok("GET", f"/api/papers/{picked[0]}")
    assert restored["tags"] == ["survey"]
    assert page.problems == []


def test_select_all_matching_across_pages_and_star_them(page, library):
    seed_shelf(library, 30)
    p = page.page
    sign_in(p, library)
    expect(p.locator("#page-of")).to_have_text("Page 1 of 2")
    expect(rows(p)).to_have_count(25)
    rows(p).first.locator("input[data-pick]").click()
    p.click("button[data-action=pick-all]")
    expect(p.locator("#bulk-count")).to_have_text("30 selected")
    p.click("button[data-action=bulk-star]")
    expect(p.locator("#flash")).to_contain_text("Starred: 30 papers")
    assert library.ok("GET", "/api/papers?starred=1&limit=1")["total"] == 30
    p.click("nav.pager a[aria-label='Page 2']")
    p.wait_for_url(re.compile(r".*page=2"))
    expect(rows(p)).to_have_count(5)
    expect(p.locator("#page-of")).to_have_text("Page 2 of 2")
    expect(rows(p).first.locator("button[data-action=star]")).to_have_attribute("aria-pressed",
                                                                                 "true")
    assert page.problems == []


def test_merge_duplicates_keeps_notes_and_the_key(page, library):
    keep = library.save(arxiv_id="1706.03762", title="Attention Is All You Need",
                        authors=["Ashish Vaswani"], published="2017-06-12")
    other = library.save(title="Attention is all you need", authors=["Ashish Vaswani"],
                         published="2017-12-04", entry_type="inproceedings", booktitle="NeurIPS",
                         tags=["transformers"])
    library.note(keep["id"], "preprint note")
    library.note(other["id"], "venue note")
    p = page.page
    sign_in(p, library)
    p.click("#duplicates-link")
    p.wait_for_url(re.compile(r".*/duplicates$"))
    group = p.locator("[data-dup-group]")
    expect(group).to_have_count(1)
    expect(group).to_contain_text("Same title, first author, year")
    SHOTS.mkdir(parents=True, exist_ok=True)
    p.screenshot(path=str(SHOTS / "duplicates.png"), full_page=True)
    group.locator(f"button[data-keep='{keep['id']}']").click()
    expect(p.locator("#flash")).to_contain_text(f"also cited as {other['citation_key']}")
    expect(p.locator("#no-duplicates")).to_be_visible()
    merged = library.ok("GET", f"/api/papers/{keep['id']}")
    assert sorted(n["body"] for n in merged["notes"]) == ["preprint note", "venue note"]
    assert merged["tags"] == ["transformers"] and merged["booktitle"] == "NeurIPS"
    assert merged["citation_key"] == keep["citation_key"]
    assert merged["key_aliases"] == [other["citation_key"]]
    p.goto(f"{library.base}/papers/{keep['id']}")
    expect(p.locator("#key-aliases")).to_have_text(other["citation_key"])
    assert page.problems == []


def test_rename_then_merge_a_tag_from_the_tags_panel(page, library):
    a, b, c = seed_shelf(library, 3)
    library.ok("PATCH", f"/api/papers/{a['id']}", {"tags": ["RL", "to-read"]})
    library.ok("PATCH", f"/api/papers/{b['id']}", {"tags": ["reinforcement learning"]})
    library.ok("PATCH", f"/api/papers/{c['id']}", {"tags": ["reinforcement learning"]})
    p = page.page
    sign_in(p, library)
    # sorted by use: the tag on two papers first
    expect(p.locator("#tags-panel .facet-name")).to_have_text(
        ["reinforcement learning", "RL", "to-read"])
    p.click("#manage-tags summary")
    p.select_option("#manage-tag", "RL")
    p.fill("#manage-name", "reinforcement learning")
    p.click("#manage-tags button[type=submit]")
    expect(p.locator("#flash")).to_contain_text("is now “reinforcement learning” (3 papers)")
    expect(p.locator("#tags-panel .facet-link")).to_have_text(["reinforcement learning3",
                                                               "to-read1"])
    p.click("#manage-tags summary")
    p.select_option("#manage-tag", "to-read")
    p.click("#manage-tags button[data-action=delete-tag]")
    p.click("#manage-tags button[data-action=delete-tag]")  # asks twice
    expect(p.locator("#tags-panel .facet-link")).to_have_text(["reinforcement learning3"])
    assert library.ok("GET", f"/api/papers/{a['id']}")["tags"] == ["reinforcement learning"]
    assert page.problems == []


def test_settings_preview_the_formula_live_then_rekey(page, library):
    paper = library.save(title="Attention Is All You Need", authors=["Ashish Vaswani"],
                         published="2017-06-12")
    p = page.page
    sign_in(p, library)
    p.click("nav.top-nav >> text=Settings")
    p.wait_for_url(re.compile(r".*/settings$"))
    preview = p.locator("#key-preview tbody tr").first
    expect(preview).to_contain_text(paper["citation_key"])
    p.fill("#citekey-format", "[Auth][year]")
    expect(preview.locator("td").nth(2)).to_have_text("Vaswani2017")
    p.fill("#citekey-format", "[nope]")
    expect(p.locator("#citekey-error")).to_be_visible()
    page.problems[:] = [x for x in page.problems if "422" not in x]
    p.fill("#citekey-format", "[Auth][year]")
    expect(p.locator("#citekey-error")).to_be_hidden()
    p.click("button[data-action=rekey-preview]")
    expect(p.locator("#rekey-summary")).to_contain_text("1 key would change")
    expect(p.locator("#rekey-changes li")).to_have_text(
        [f"{paper['citation_key']} → Vaswani2017 ({paper['title']})"])
    assert library.ok("GET", f"/api/papers/{paper['id']}")["citation_key"] == paper["citation_key"]
    p.click("#rekey-button")
    expect(p.locator("#flash")).to_contain_text("Re-keyed 1 paper")
    assert library.ok("GET", f"/api/papers/{paper['id']}")["citation_key"] == "Vaswani2017"
    # export defaults
    p.uncheck("#export-abstract")
    p.select_option("#export-encoding", "utf8")
    p.click("#export-defaults button[type=submit]")
    expect(p.locator("#flash")).to_have_text("Export defaults saved.")
    assert library.ok("GET", "/api/settings")["export"]["encoding"] == "utf8"
    assert page.problems == []


def test_import_report_is_a_readable_list(page, library, tmp_path):
    bib = tmp_path / "refs.bib"
    bib.write_text("@article{a2020, title={First}, author={Doe, Ann}, year={2020}, journal={J}}\n"
                   "@article{b2021, title={}, author={Roe, Bo}, year={2021}}\n")
    p = page.page
    sign_in(p, library)
    for expected in ("1 created", "1 was already there"):
        p.set_input_files("#import-file", str(bib))
        p.select_option("#import-format", "bibtex")
        p.click("#import-form button[type=submit]")
        expect(p.locator("#import-result")).to_contain_text(expected)
    items = p.locator("#import-result ul:not(.import-counts) li")
    expect(items.first).to_contain_text("Entry b2021, skipped: no title")
    assert "{" not in p.locator("#import-result").inner_text()  # no raw JSON
    assert page.problems == []


def test_shortcuts_help_opens_with_question_mark(page, library):
    seed_shelf(library, 2)
    p = page.page
    sign_in(p, library)
    p.locator("body").press("?")
    expect(p.locator("#shortcuts")).to_be_visible()
    expect(p.locator("#shortcuts [role=dialog]")).to_be_focused()
    expect(p.locator("#shortcuts")).to_contain_text("Select the focused paper")
    p.keyboard.press("Escape")
    expect(p.locator("#shortcuts")).to_be_hidden()
    p.keyboard.press("j")
    p.keyboard.press("x")
    expect(p.locator("#bulk-count")).to_have_text("1 selected")
    p.keyboard.press("s")
    expect(rows(p).first.locator("button[data-action=star]")).to_have_attribute("aria-pressed",
                                                                                 "true")
    assert page.problems == []


def _pages(library, paper_id):
    return ["/", f"/papers/{paper_id}", "/settings", "/tokens", "/duplicates", "/groups"]


def _seed_rich(library):
    shelf = seed_shelf(library, 3)
    first = shelf[0]
    library.ok("PATCH", f"/api/papers/{first['id']}", {
        "tags": [f"tag-{i}" for i in range(12)], "topics": ["LLM Agent Training"],
        "entry_type": "article", "journal": "Journal of Machine Learning Research",
        "reading_state": "reading", "starred": True})
    library.note(first["id"], "A **note** with a [link](https://example.org).")
    library.ok("POST", "/api/tokens", {"name": "a laptop with a long name"})
    return first


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_at_390_px_nothing_is_cut_off_and_screenshots(page, library, scheme):
    first = _seed_rich(library)
    p = page.page
    p.emulate_media(color_scheme=scheme)
    sign_in(p, library)
    SHOTS.mkdir(parents=True, exist_ok=True)
    p.screenshot(path=str(SHOTS / f"library-desktop-{scheme}.png"), full_page=True)
    p.goto(f"{library.base}/papers/{first['id']}")
    p.screenshot(path=str(SHOTS / f"paper-desktop-{scheme}.png"), full_page=True)
    p.set_viewport_size({"width": 390, "height": 844})
    for path in _pages(library, first["id"]):
        p.goto(library.base + path)
        width = p.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, (path, width)
        name = path.strip("/").replace("/", "-") or "library"
        p.screenshot(path=str(SHOTS / f"{name}-390-{scheme}.png"), full_page=True)
    p.goto(library.base + "/tokens")
    revoke = p.locator("button[data-action=revoke-token]").first
    box = revoke.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390
    bg = p.evaluate("getComputedStyle(document.body).backgroundColor")
    dark = bg != "rgb(248, 247, 244)"
    assert dark == (scheme == "dark"), bg
    assert page.problems == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_violations_on_the_library_pages(page, library, scheme):
    if not AXE.exists():
        pytest.skip("axe-core is not installed (npm ci)")
    first = _seed_rich(library)
    library.save(title="Paper 00 on agents", authors=["Ann Author00"], published="2010-05-01")
    p = page.page
    p.emulate_media(color_scheme=scheme)
    sign_in(p, library)
    found = {}
    for path in _pages(library, first["id"]):
        p.goto(library.base + path)
        if path == "/":
            rows(p).first.locator("input[data-pick]").click()  # the bulk bar, shown
        # The page's CSP refuses an injected <script>; evaluating axe's source is the
        # browser's own debugger protocol, which the CSP does not govern.
        p.evaluate(AXE.read_text(encoding="utf-8") + "\n;undefined")
        result = p.evaluate("""async () => {
            const r = await axe.run(document);
            return {passes: r.passes.length, violations: r.violations.map(v => ({id: v.id,
                impact: v.impact, nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}))};
        }""")
        assert result["passes"] > 10, (path, result)  # axe ran its rules on the page
        if result["violations"]:
            found[path] = result["violations"]
    assert found == {}, json.dumps(found, indent=1)
    assert page.problems == []
