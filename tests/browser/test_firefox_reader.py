"""The PDF reader in a real Firefox (Marionette) against a real papershelf server, as
test_reader.py runs it in Chromium: pdfLaTeX's PDF served at its arXiv URL, opened by the redirect
of an arXiv PDF navigation, its pages with a text layer and the paper bar; a highlight made by a
real mouse drag in the text layer, stored with its page and painted again after a reload; the
notes panel's frame listing it with its page; and a hostile PDF that runs nothing."""

import shutil
import sys
from pathlib import Path
from urllib.parse import quote

import pytest
from drivers import drag_select
from tests._require import require_or_skip

from conftest import expected_papers, wait_until

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures" / "pdf"))
import build_pdfs  # noqa: E402
from build_pdfs import HOSTILE_MARKER, KEY  # noqa: E402

BROWSERS = ["firefox"]
STORES = ["sqlite"]
pytestmark = [pytest.mark.browser, pytest.mark.parametrize("ext", BROWSERS, indirect=True),
              pytest.mark.parametrize("server", STORES, indirect=True)]

AID = expected_papers()[0]["arxiv_id"]
V1 = f"https://arxiv.org/pdf/{AID}v1"
PDF = "application/pdf"
FRAME = "iframe[data-papershelf-frame]"


@pytest.fixture(scope="module")
def pdfs(tmp_path_factory):
    if not shutil.which("pdflatex") or not shutil.which("kpsewhich"):
        require_or_skip("latex", "pdflatex is not installed")
    folder = tmp_path_factory.mktemp("pdfs")
    return {k: v.read_bytes() for k, v in build_pdfs.build_all(folder).items()}


def reader(ext, pdf_url):
    page = ext.new_page()
    page.goto(ext.extension_url(f"reader/reader.html?file={quote(pdf_url, safe='')}"))
    page.wait_for('.textLayer[data-page-number="1"] span')
    return page


def stored(server):
    (p,) = server.papers()
    status, full = server.call("GET", f"/api/papers/{p['id']}")
    assert status == 200
    return full


def test_an_arxiv_pdf_navigation_opens_the_reader_with_its_text_and_paper_bar(ext_connected, pdfs):
    ext, server = ext_connected
    ext.serve(V1, pdfs["paper_v1"], PDF)
    page = ext.new_page()
    page.goto(V1)
    wait_until(lambda: "/reader/reader.html?file=" in page.url, what="the redirect to the reader")
    page.wait_for('.textLayer[data-page-number="1"] span')
    assert page.count(f'[data-papershelf-paper="{AID}"] [data-papershelf-action="save"]') == 1
    assert page.text("#page-count") == "/ 3"
    text = page.evaluate("() => document.querySelector('.textLayer[data-page-number=\"1\"]').textContent")
    assert KEY["ligatures"] in " ".join(text.split()), "ligatures read as letters"
    assert page.count('.textLayer[data-page-number="3"]') == 0, "the last page waits until it is near"
    # The original is one click away.
    assert page.attr("#original", "href") == V1
    page.click("[data-papershelf-action='save']")
    page.wait_for("[data-papershelf-action='save'][aria-pressed='true']")
    p = stored(server)
    assert (p["arxiv_id"], p["source_url"], p["title"]) == (AID, V1, build_pdfs.TITLE)


def test_a_highlight_by_mouse_drag_is_stored_with_its_page_and_painted_after_reload(ext_connected, pdfs):
    ext, server = ext_connected
    ext.serve(V1, pdfs["paper_v1"], PDF)
    page = reader(ext, V1)
    layer = '.textLayer[data-page-number="1"]'
    selected = drag_select(page, layer, KEY["ligatures"])
    assert " ".join(selected.split()) == KEY["ligatures"]
    page.click('[data-papershelf-action="highlight"]')
    page.wait_for(f'{layer} mark[data-papershelf-highlight]:not([data-papershelf-highlight^="queued-"])')
    p = stored(server)
    (h,) = p["highlights"]
    assert (h["field"], h["page"], h["exact"]) == ("pdf", 1, KEY["ligatures"])
    assert p["arxiv_id"] == AID, "the highlight saved the paper"

    page.reload()
    page.wait_for(f'{layer} mark[data-papershelf-highlight="{h["id"]}"]')
    painted = page.evaluate("""(id) => [...document.querySelectorAll(
        `mark[data-papershelf-highlight="${id}"]`)].map(m => m.textContent).join('')""", str(h["id"]))
    assert " ".join(painted.split()) == KEY["ligatures"]
    # The notes panel's frame lists it with its page and a link to the reader at it.
    page.click('[data-papershelf-action="note"]')
    page.wait_for(FRAME, visible=True)
    frame = page.frame(FRAME)
    item = f'[data-papershelf-highlight-item="{h["id"]}"]'
    frame.wait_for(item)
    assert frame.text(f"{item} [data-papershelf-page]") == "p. 1"
    link = frame.attr(f"{item} a[data-papershelf-page]", "href")
    assert link.endswith(f"#page=1&papershelf-highlight={h['id']}"), link


def test_a_hostile_pdf_runs_nothing_in_firefox(ext_connected, pdfs):
    """build_pdfs' hostile PDF: its font's FontMatrix (CVE-2024-4367), its OpenAction, page action
    and name-tree JavaScript try to set a global and navigate; its links are javascript:, file:, a
    Launch action and one https link. Nothing runs, the page stays, only the https link is a link
    (a new tab, no opener), nothing is stored."""
    ext, server = ext_connected
    url = f"https://arxiv.org/pdf/{AID}"
    ext.serve(url, pdfs["hostile"], PDF)
    page = reader(ext, url)
    page.wait_for(".linkLayer a")
    at = page.url
    wait_until(lambda: page.evaluate("() => document.readyState") == "complete", what="loaded")
    assert page.evaluate("() => window.__papershelfPwned === undefined") is True
    assert HOSTILE_MARKER not in page.evaluate("() => document.title + document.body.innerText")
    links = page.evaluate("""() => [...document.querySelectorAll('.linkLayer a')].map(
        a => [a.getAttribute('href'), a.getAttribute('target'), a.getAttribute('rel')])""")
    assert links == [["https://example.org/safe", "_blank", "noopener noreferrer"]], links
    assert page.url == at
    assert server.papers() == [], "nothing was saved or sent"
