"""Make the README's pictures, docs/img/*.png, the way a user would see them.

A real `papershelf serve` on a loopback port with a temporary data dir; Debian's Chromium
(Playwright, headless) with the unpacked extension, on the alphaXiv topic page of the test
fixtures (served at its real address by the browser tests' routing). The extension saves three
of its papers with real clicks, highlights a phrase of an abstract with a mouse drag and keeps a
note in the notes panel, after a real Zotero export (tests/fixtures/bib/zotero_export.bib) was
imported with `papershelf import` beside the running server; then a reader's tidying through the
API: the export's web page entry deleted, its subject keywords merged or dropped, a few tags,
reading states and a star. The pictures:

  topic-page.png     the topic page: saved cards, the highlight, the notes panel open
  library.png        the library page: papers with their tags, reading states and a star, the
                     tags by use and the pages' topics
  paper.png          a paper's page in the library: its details, tags, and the highlight in
                     its abstract
  library-dark.png   the library page with `prefers-color-scheme: dark`

Each picture is 1280×800 and should stay at most 300 kB (Chromium's PNGs of these pages are
90–230 kB): the script names any picture over it and exits with status 1. The browser tests'
own helpers launch the browser and the server (tests/browser/conftest.py, drivers.py,
library_server.py): run it from a checkout with the test tools installed (the README's test
command).

Run: python docs/make_pictures.py [--out docs/img]
"""

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "browser")]

from drivers import ChromiumPage, drag_select  # noqa: E402
from library_server import LibraryServer, sign_in  # noqa: E402

from conftest import (  # noqa: E402
    EXTENSION,
    TOPIC_URL,
    chromium_with,
    expected_papers,
    open_notes,
    wait_saved,
)

SIZE = {"width": 1280, "height": 800}
MOST_BYTES = 300_000
PAPER = '[data-papershelf-paper="{}"]'
ZOTERO_EXPORT = ROOT / "tests" / "fixtures" / "bib" / "zotero_export.bib"

# The topic page's papers the extension saves (by their place in tests/fixtures/pages/papers.json),
# the one it highlights (a phrase of its abstract the card shows) and the note left on it.
SAVED_FROM_PAGE = (0, 1, 3)
HIGHLIGHTED, QUOTE = 1, "essential for developing capable"
NOTE = "Compare its **memory** API with *LangGraph*'s; the training side looks reusable."
TAGS = {"agents": (0, 1, 3), "memory": (1,), "to cite": (0,)}
# What the export's subject keywords (Zotero's automatic tags) become: merged into a tag of the
# reader's, or dropped; and its one entry that is a web page, not a paper.
KEYWORDS_KEPT = {"Computer Science - Machine Learning": "Machine learning"}
KEYWORDS_DROPPED = "Computer Science - "
NOT_A_PAPER = "PyTorch documentation"


def connect(worker, server):
    """The extension's options set to this server and its token, as the options page does."""
    worker.evaluate("([serverUrl, token]) => chrome.storage.local.set({serverUrl, token})",
                    [server.base, server.token])


def save_from_topic_page(context):
    """Save three papers with Save, highlight a phrase with a drag, and write a note in the panel;
    the page is left with the panel open for its picture."""
    papers = expected_papers()
    page = context.new_page()
    page.set_viewport_size(SIZE)
    page.goto(TOPIC_URL)
    page.wait_for_selector('[data-papershelf-paper] [data-papershelf-action="save"]')
    for n in SAVED_FROM_PAGE:
        arxiv_id = papers[n]["arxiv_id"]
        page.locator(PAPER.format(arxiv_id)).first.locator('[data-papershelf-action="save"]').click()
        wait_saved(page, arxiv_id)
    target = papers[HIGHLIGHTED]["arxiv_id"]
    drag_select(ChromiumPage(page), PAPER.format(target) + " p", QUOTE)
    page.locator('[data-color="yellow"]').click()
    page.locator('[data-papershelf-action="highlight"]').click()
    page.locator(PAPER.format(target) + " [data-papershelf-highlight]").first.wait_for()
    frame = open_notes(page, target)
    frame.locator("textarea[data-papershelf-note-input]").fill(NOTE)
    frame.locator('[data-papershelf-action="save-note"]').click()
    frame.locator("[data-papershelf-note-body] strong").wait_for()
    page.evaluate("""() => {
        getSelection().removeAllRanges();
        const heading = [...document.querySelectorAll('h2')].find(
            (h) => h.textContent.trim() === 'Latest papers');
        window.scrollTo(0, heading.getBoundingClientRect().top + window.scrollY - 16);
    }""")
    return page


def import_bibliography(server):
    """A real Zotero export imported with `papershelf import`, beside the running server."""
    subprocess.run([sys.executable, "-m", "papershelf", "import", str(ZOTERO_EXPORT),
                    "--data-dir", str(server.data_dir)],
                   env={**os.environ, "PAPERSHELF_ARXIV_API": "off", "PAPERSHELF_DATABASE_URL": "",
                        "PAPERSHELF_DATA_DIR": ""},
                   check=True, capture_output=True)


def tidy_import(server):
    """The export's web page entry deleted, its subject keywords merged into a tag or dropped."""
    for p in server.ok("GET", "/api/papers?limit=200")["items"]:
        if p["title"] == NOT_A_PAPER:
            server.ok("DELETE", f"/api/papers/{p['id']}")
    for keyword, tag in KEYWORDS_KEPT.items():
        server.ok("PATCH", f"/api/tags/{quote(keyword)}", {"name": tag})
    for t in server.ok("GET", "/api/tags")["tags"]:
        if t["name"].startswith(KEYWORDS_DROPPED):
            server.ok("DELETE", f"/api/tags/{quote(t['name'])}")


def file_papers(server):
    """Tags, reading states and a star, as a reader sets them; answers the highlighted paper."""
    papers = expected_papers()
    by_arxiv = {p["arxiv_id"]: p for p in server.ok("GET", "/api/papers?limit=200")["items"]}
    ids = {n: by_arxiv[papers[n]["arxiv_id"]]["id"] for n in SAVED_FROM_PAGE}
    for tag, which in TAGS.items():
        server.ok("PATCH", "/api/papers", {"ids": [ids[n] for n in which], "add_tags": [tag]})
    everything = server.ok("GET", "/api/papers?limit=200")["items"]
    imported = [p["id"] for p in everything if p["id"] not in ids.values()]
    server.ok("PATCH", "/api/papers", {"ids": imported[:3], "add_tags": ["thesis"]})
    server.ok("PATCH", "/api/papers", {"ids": imported[:2], "set": {"reading_state": "read"}})
    server.ok("PATCH", "/api/papers", {"ids": [ids[HIGHLIGHTED]],
                                       "set": {"reading_state": "reading", "starred": True}})
    server.ok("PATCH", "/api/papers", {"ids": [ids[0]], "set": {"reading_state": "to_read"}})
    return ids[HIGHLIGHTED]


def shoot(page, path):
    page.screenshot(path=str(path))
    return path


def library_pictures(context, server, paper_id, out):
    """The library signed in, light and dark, then the highlighted paper's page."""
    page = context.new_page()
    page.set_viewport_size(SIZE)
    sign_in(page, server)
    page.wait_for_selector("#papers .paper")
    light = shoot(page, out / "library.png")
    page.emulate_media(color_scheme="dark")
    page.reload()
    page.wait_for_selector("#papers .paper")
    dark = shoot(page, out / "library-dark.png")
    page.emulate_media(color_scheme="light")
    page.goto(f"{server.base}/papers/{paper_id}")
    page.wait_for_load_state("networkidle")
    return [light, dark, shoot(page, out / "paper.png")]


def make(out: Path) -> list[Path]:
    """Take the pictures into `out`; answers their paths."""
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="papershelf-pictures-") as tmp:
        data = Path(tmp) / "data"
        data.mkdir()
        server = LibraryServer(data).start(timeout=30)
        try:
            with chromium_with(EXTENSION, Path(tmp) / "profile") as (context, worker):
                connect(worker, server)
                import_bibliography(server)
                tidy_import(server)
                topic = shoot(save_from_topic_page(context), out / "topic-page.png")
                paper_id = file_papers(server)
                return [topic, *library_pictures(context, server, paper_id, out)]
        finally:
            server.stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img")
    too_big = []
    for path in make(parser.parse_args().out.resolve()):
        shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        print(f"{shown}: {path.stat().st_size // 1000} kB")
        if path.stat().st_size > MOST_BYTES:
            too_big.append(str(shown))
    if too_big:
        sys.exit(f"over {MOST_BYTES // 1000} kB: {', '.join(too_big)}")


if __name__ == "__main__":
    main()
