"""Any scholarly page in a real Chromium with the extension, against a real papershelf server:
the real saved pages of tests/fixtures/pages/ (sites.json) served at their own addresses. The
bar appears where a page describes a paper and nowhere else; Save stores every field the page
gives; outside the named sites the saved state is on the toolbar badge only, never in the page
(a hostile page faking 1,000 DOIs learns nothing); the bar can be switched off per site."""

import json
import subprocess
import time
from urllib.parse import urlparse

import pytest

from conftest import EXTENSION, HOLD_LOOKUP_ANSWERS, PAGES, wait_until
from papershelf.domain.identifiers import normalize_url

pytestmark = pytest.mark.browser

SITES = json.loads((PAGES / "sites.json").read_text())
PAPER_PAGES = [p for p in SITES if p["paper"]]
BY_SITE = {p["site"]: p for p in PAPER_PAGES}
OURS = "[data-papershelf-ui], [data-papershelf-paper]"
SAVED_FIELDS = ("title", "doi", "journal", "booktitle", "volume", "number", "pages", "publisher",
                "entry_type")


def assert_saved_as(p, want, unread=()):
    """The stored paper `p` holds what the fixture's page says (`want`, from sites.json); the
    fields in `unread` (stated only in free text no reader reaches) are stored as nothing."""
    for field in SAVED_FIELDS:
        assert p.get(field) == (None if field in unread else want[field]), field
    if "authors" in unread:
        assert p["authors"] == []
    else:
        assert len(p["authors"]) == want["authors_count"]
        assert p["authors"][: len(want["authors_first"])] == want["authors_first"]
    assert p["abstract"].startswith(want["abstract_start"])


def _marks_in_page(urls):
    """{url: whether the extension shows saved state in that page's own DOM}, as the extension's
    own rule says (lib/adapters/index.js marksInPage, run by node)."""
    module = json.dumps((EXTENSION / "lib" / "adapters" / "index.js").as_uri())
    script = (f"import {{ marksInPage }} from {module}; const urls = JSON.parse(process.argv[1]);"
              "console.log(JSON.stringify(Object.fromEntries(urls.map((u) => [u, marksInPage(u)]))));")
    out = subprocess.run(["node", "--input-type=module", "-e", script, json.dumps(urls)],
                         check=True, capture_output=True, text=True, timeout=60)
    return json.loads(out.stdout)


MARKS_IN_PAGE = _marks_in_page([p["url"] for p in PAPER_PAGES])


def serve(context, url, html):
    """Serve `html` as the document at `url` (its host's other requests: 404)."""
    origin = f"{urlparse(url).scheme}://{urlparse(url).netloc}"

    def handle(route):
        if route.request.resource_type == "document" and route.request.url.split("#")[0] == url:
            kind = "text/html" if isinstance(html, bytes) else "text/html; charset=utf-8"
            route.fulfill(status=200, content_type=kind, body=html)
        else:
            route.fulfill(status=404, content_type="text/plain", body="not in the fixtures")

    context.route(f"{origin}/**", handle)


def serve_fixture(context, page):
    serve(context, page["url"], (PAGES / page["file"]).read_bytes())  # as saved, in its own encoding


def wait_bar(page):
    page.wait_for_selector('[data-papershelf-paper] [data-papershelf-action="save"]')


def badge(sw, url):
    """The toolbar badge of the tab showing `url` (the page's own title names the tab: tabs.query
    tells a tab's URL only with the tabs permission)."""
    return sw.evaluate("""async (url) => {
        const tabs = await chrome.tabs.query({});
        const tab = tabs.find((t) => t.url === url) || tabs.filter((t) => t.active).pop();
        return tab ? chrome.action.getBadgeText({tabId: tab.id}) : null;
    }""", url)


def page_state(page):
    """Everything of ours the page's DOM holds (what a page script could read)."""
    return page.evaluate(f"""() => Array.from(document.querySelectorAll('{OURS}'),
        (el) => el.outerHTML.replace(/\\s+/g, ' ')).join('\\n')""")


@pytest.mark.parametrize("fixture", PAPER_PAGES, ids=lambda p: p["file"].rsplit(".", 1)[0])
def test_a_papers_page_gets_the_bar_and_saves_every_field_it_gives(connected, fixture):
    """Every saved page of sites.json that describes a paper: the bar, Save, every field the page
    gives stored, and the saved state after a reload: in the page on the named sites (arXiv, the
    listing sites), on the toolbar badge only elsewhere."""
    context, sw, server = connected
    serve_fixture(context, fixture)
    page = context.new_page()
    page.goto(fixture["url"])
    wait_bar(page)
    assert page.locator("[data-papershelf-paper]").count() == 1, "one paper element"
    page.locator('[data-papershelf-action="save"]').click()
    (p,) = wait_until(lambda: server.papers() or None, what="the saved paper")
    want = fixture["paper"]
    assert_saved_as(p, want, fixture.get("unread", ()))
    if want["published"]:
        assert p["published"].startswith(want["published"])
    if want.get("arxiv_id"):
        assert p["arxiv_id"] == want["arxiv_id"]
    if "pdf_url" in p and "pdf_url" in want:  # the server keeps it once it stores identities
        # kept in the one URL form (domain.identifiers.normalize_url, lib/ids.js normalizeUrl)
        assert p["pdf_url"] == (normalize_url(want["pdf_url"]) if want["pdf_url"] else None)
    save = page.locator('[data-papershelf-action="save"]')
    if MARKS_IN_PAGE[fixture["url"]]:
        # A named site: the page shows it saved, and still does after a reload.
        wait_until(lambda: save.get_attribute("aria-pressed") == "true", what="the bar saying saved")
        page.reload()
        wait_bar(page)
        wait_until(lambda: save.get_attribute("aria-pressed") == "true", what="saved after a reload")
        return
    # Anywhere else the saved state is on the badge, not in the page.
    wait_until(lambda: badge(sw, fixture["url"]) == "✓", what="the badge after saving")
    page.reload()
    wait_bar(page)
    wait_until(lambda: badge(sw, fixture["url"]) == "✓", what="the badge after a reload")
    assert save.get_attribute("aria-pressed") == "false" and save.inner_text() == "Save"


def test_a_page_without_a_paper_is_left_as_it_is(connected):
    context, sw, _server = connected
    url = "https://en.wikipedia.org/wiki/New_Zealand"
    html = (PAGES / "notpapers" / "wikipedia-2.html").read_text(encoding="utf-8")
    serve(context, url, html)
    page = context.new_page()
    page.goto(url)
    before = page.evaluate("() => document.documentElement.outerHTML.length")
    time.sleep(1.5)
    assert page.evaluate(f"() => document.querySelectorAll('{OURS}').length") == 0
    assert page.evaluate("() => document.documentElement.outerHTML.length") == before
    assert badge(sw, url) == ""
    for fixture in (p for p in SITES if not p["paper"]):
        serve_fixture(context, fixture)
        page.goto(fixture["url"])
        time.sleep(0.8)
        assert page.locator("[data-papershelf-ui]").count() == 0, fixture["file"]


HOSTILE_URL = "https://papers.hostile.example/probe"


def hostile_page():
    """A page that describes one paper and fakes metadata for 1,000 DOIs (tags and COinS) to see
    which the library holds."""
    metas = "".join(f'<meta name="citation_doi" content="10.9999/fake.{i}">' for i in range(1000))
    coins = "".join('<span class="Z3988" title="ctx_ver=Z39.88-2004&amp;'
                    f'rft_id=info%3Adoi%2F10.9999%2Ffake.{i}&amp;rft.atitle=Fake+{i}"></span>'
                    for i in range(1000))
    return ('<!doctype html><html><head><meta charset="utf-8"><title>Probe</title>'
            '<meta name="citation_title" content="A Probe"><meta name="citation_author" content="Eve Probe">'
            f'{metas}</head><body><main><h1>A Probe</h1><p>Text.</p>{coins}</main></body></html>')


def test_a_hostile_page_learns_nothing_of_the_library(connected):
    context, sw, server = connected
    serve(context, HOSTILE_URL, hostile_page())
    page = context.new_page()
    page.goto(HOSTILE_URL)
    wait_bar(page)
    time.sleep(1.0)  # the lookup has answered
    unsaved = page_state(page)
    # The library now holds the page's paper and every faked DOI.
    for i in range(0, 1000, 50):
        server.call("POST", "/api/papers", {"title": f"Fake {i}", "doi": f"10.9999/fake.{i}"})
    status, _ = server.call("POST", "/api/papers", {"title": "A Probe", "url": HOSTILE_URL})
    assert status == 201
    page.reload()
    wait_bar(page)
    wait_until(lambda: badge(sw, HOSTILE_URL) == "✓", what="the badge showing the page's paper saved")
    assert page_state(page) == unsaved, "the DOM is the same, saved or not"
    assert "Saved" not in page.evaluate("() => document.body.innerText")


def test_the_bar_switched_off_on_a_site_does_nothing_there(connected):
    context, sw, server = connected
    fixture = BY_SITE["plos"]
    serve_fixture(context, fixture)
    sw.evaluate("() => chrome.storage.local.set({barOffHosts: ['plos.org']})")
    page = context.new_page()
    page.goto(fixture["url"])
    time.sleep(1.5)
    assert page.locator("[data-papershelf-ui]").count() == 0
    sw.evaluate("() => chrome.storage.local.set({barOffHosts: []})")
    page.reload()
    wait_bar(page)


RECORD_LOOKUPS = """() => {
    const h = papershelf.handlers;
    if (!h.lookup.recorded) {
        const original = h.lookup;
        globalThis.lookups = [];
        h.lookup = async (payload, sender, role) => {
            const answer = await original(payload, sender, role);
            lookups.push({asked: payload.keys, answered: Object.keys(answer.papers || {}).length});
            return answer;
        };
        h.lookup.recorded = true;
    }
}"""


def test_a_private_page_asks_for_its_one_paper_and_is_told_nothing(connected):
    context, sw, server = connected
    server.call("POST", "/api/papers", {"title": "A Probe", "url": HOSTILE_URL})
    sw.evaluate(RECORD_LOOKUPS)
    serve(context, HOSTILE_URL, hostile_page())
    page = context.new_page()
    page.goto(HOSTILE_URL)
    wait_bar(page)
    lookups = wait_until(lambda: sw.evaluate("() => globalThis.lookups") or None, what="the lookup")
    assert lookups == [{"asked": [HOSTILE_URL], "answered": 0}], lookups
    wait_until(lambda: badge(sw, HOSTILE_URL) == "✓", what="the badge")


def test_a_lookup_answered_after_a_save_leaves_the_badge_saved(connected):
    """A private page's lookup, asked as it loads, is answered "not saved" and reaches the worker
    only after the page's Save showed ✓: the badge stays ✓."""
    context, sw, server = connected
    fixture = next(p for p in PAPER_PAGES if not MARKS_IN_PAGE[p["url"]])
    serve_fixture(context, fixture)
    sw.evaluate(HOLD_LOOKUP_ANSWERS)
    sw.evaluate(RECORD_LOOKUPS)
    page = context.new_page()
    page.goto(fixture["url"])
    wait_bar(page)
    wait_until(lambda: sw.evaluate("() => globalThis.lookupsHeld") == 1, what="the held lookup")
    page.locator('[data-papershelf-action="save"]').click()
    wait_until(lambda: badge(sw, fixture["url"]) == "✓", what="the badge after saving")
    assert len(server.papers()) == 1
    sw.evaluate("() => globalThis.releaseLookups()")
    lookups = wait_until(lambda: sw.evaluate("() => globalThis.lookups") or None,
                         what="the held lookup's answer")
    assert lookups == [{"asked": [lookups[0]["asked"][0]], "answered": 0}], lookups
    assert badge(sw, fixture["url"]) == "✓"


def select_in_page(page, quote):
    """Select `quote` in the page's text (a real DOM selection) and release the mouse there."""
    page.evaluate("""(quote) => {
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
            const i = n.data.indexOf(quote);
            if (i >= 0 && !n.parentElement.closest('[data-papershelf-ui]')) {
                const r = document.createRange();
                r.setStart(n, i); r.setEnd(n, i + quote.length);
                r.startContainer.parentElement.scrollIntoView({block: 'center'});
                const s = getSelection(); s.removeAllRanges(); s.addRange(r);
                return;
            }
        }
        throw new Error('quote not found');
    }""", quote)
    box = page.evaluate("() => { const r = getSelection().getRangeAt(0).getBoundingClientRect();"
                        " return [r.right - 1, r.bottom - 2]; }")
    page.mouse.move(*box)
    page.mouse.up()


def test_a_highlight_made_on_a_private_page_is_painted_there_and_not_shown_again(connected):
    context, _sw, server = connected
    fixture = next(p for p in PAPER_PAGES if p["file"].startswith("plos/journals"))
    serve_fixture(context, fixture)
    page = context.new_page()
    page.goto(fixture["url"])
    wait_bar(page)
    quote = "leading cause of hospital death"
    select_in_page(page, quote)
    page.locator('[data-color="green"]').click()
    page.locator('[data-papershelf-action="highlight"]').click()
    mark = page.locator("[data-papershelf-highlight]")
    mark.first.wait_for()
    assert mark.first.inner_text() == quote
    (p,) = wait_until(lambda: server.papers() or None, what="the paper saved by highlighting")
    status, full = server.call("GET", f"/api/papers/{p['id']}")
    assert status == 200 and [h["exact"] for h in full["highlights"]] == [quote]
    assert full["highlights"][0]["field"] == "abstract"
    # Next visit: the library's highlights stay out of a private page.
    page.reload()
    wait_bar(page)
    time.sleep(1.0)
    assert page.locator("[data-papershelf-highlight]").count() == 0


# Hand-made in the shape IEEE Xplore's document pages write (no saved page of the site with its
# origin was found): an app shell whose paper is in xplGlobal.document.metadata.
IEEE_URL = "https://ieeexplore.ieee.org/document/7780459"
IEEE_METADATA = {
    "title": "Deep Residual Learning for Image Recognition", "articleNumber": "7780459",
    "doi": "10.1109/CVPR.2016.90", "isConference": True, "publisher": "IEEE",
    "authors": [{"name": n} for n in ("Kaiming He", "Xiangyu Zhang", "Shaoqing Ren", "Jian Sun")],
    "abstract": "Deeper neural networks are more difficult to train.",
    "publicationTitle": "2016 IEEE Conference on Computer Vision and Pattern Recognition (CVPR)",
    "startPage": "770", "endPage": "778", "publicationDate": "June 2016",
}


def test_an_ieee_xplore_app_shell_is_read_from_its_metadata_script(connected):
    context, _sw, server = connected
    title = IEEE_METADATA["title"]
    html = (f"<!DOCTYPE html><html><head><title>{title} | IEEE Xplore</title>"
            f'<meta property="og:title" content="{title}"></head><body>'
            f'<div id="LayoutWrapper"><h1 class="document-title">{title}</h1></div>'
            '<script type="text/javascript">var xplGlobal = {document: {}};\n'
            f"xplGlobal.document.metadata={json.dumps(IEEE_METADATA)};\n</script></body></html>")
    serve(context, IEEE_URL, html)
    page = context.new_page()
    page.goto(IEEE_URL)
    wait_bar(page)
    page.locator('[data-papershelf-action="save"]').click()
    (p,) = wait_until(lambda: server.papers() or None, what="the saved paper")
    assert p["title"] == IEEE_METADATA["title"]
    assert p["authors"] == ["Kaiming He", "Xiangyu Zhang", "Shaoqing Ren", "Jian Sun"]
    assert (p["booktitle"], p["pages"], p["doi"], p["entry_type"]) == (
        IEEE_METADATA["publicationTitle"], "770--778", "10.1109/cvpr.2016.90", "inproceedings")
