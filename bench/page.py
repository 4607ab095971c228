"""Page benchmark of the extension: time to mark 600 cards, to paint 200 highlights, to show
"Saved" after a click, and to open the notes panel.

Debian's Chromium with the unpacked extension opens a 600-card topic page made from the Cards
fixture (its 30 cards copied 20 times under other arXiv ids), against a real `papershelf serve`
on a loopback port. 200 of the papers are saved beforehand, each with one highlight.
The extension reports User Timing measures (named in extension/content/timing.js):
  papershelf:mark         find the papers and add controls to every card (in the page, sync)
  papershelf:saved-shown  apply the one lookup answer: mark the saved ones "Saved"
  papershelf:paint        anchor and paint the highlights
Bars (the product's design): marking 600 cards ≤ 100 ms in the page; save → "Saved" p95 ≤ 50 ms
(click to aria-pressed="true", through the background worker and the real server); opening the
notes panel ≤ 100 ms p95 (click on Note to the panel's note box focused and editable,
in the extension's frame). Clicks are Playwright's, which are trusted input events as a user's
are (the extension ignores a script's click()); each is timed from the click event's own
timestamp. The panel's moment is read in its frame (another process) and put on the page's
clock with the two clocks' measured offset. As a same-process reference, the page's own cost of
a trivial pass over the same cards (querySelectorAll + one attribute each) is printed too.

Full text: a 100,000-character paper in arXiv's HTML view (LaTeXML, made by
tests/fixtures/pages/build_arxiv_html.py) with 200 highlights in its body, saved beforehand:
  papershelf:mark     find the article and add its controls
  papershelf:paint    anchor the 200 highlights in the body's text and paint them (bar ≤ 150 ms),
                      on version 1 (where they were made) and on version 2 (small edits: moved,
                      some found by their quote or a fuzzy match, one paragraph gone)
  papershelf:toolbar  a selection's mouseup to the Highlight toolbar shown (bar ≤ 16 ms)

PDF reader: a 30-page arXiv PDF made by pdfLaTeX (tests/fixtures/pdf/build_pdfs.py),
served at arxiv.org/pdf/<id>, opened in the extension's reader:
  papershelf:reader-first-page  navigation start → the first page painted (bar ≤ 1 s)
  papershelf:reader-place       find the page of each of 200 saved highlights in the 30 pages' texts
  papershelf:paint              anchor and paint the highlights of the pages shown, as they render
  (main-thread time for the pages shown, place + paint: bar ≤ 150 ms)

Listing pages: 100 Google Scholar results (the saved results page of
tests/fixtures/pages/listings/, its 9 results with a title link copied under other addresses and
clusters), 50 of them saved beforehand, served at scholar.google.com:
  papershelf:mark         find the 100 results and give each its controls
  papershelf:saved-shown  apply the one lookup answer: the 50 saved ones marked "Saved"
  papershelf:paint        paint their highlights (none here)
  (marked after the lookup answers, saved-shown + paint: bar ≤ 100 ms)

Any page (product.md §12): the all-pages content script's detector (content/detect.js,
papershelfMayDescribePaper) on a big real page without a paper (Wikipedia's "New Zealand", 1 MB,
with JSON-LD and og: tags: tests/fixtures/pages/notpapers/wikipedia-2.html) served at its
address in Chromium: main-thread time of the one call the content script makes on a fresh page,
median of 15 loads (bar ≤ 2 ms), and of calls again on the same page;
and on a real paper page (Nature, 0.5 MB) for reference.

Run: python bench/page.py [--runs 5] [--full-text-only | --pdf-only | --listings-only | --detector-only]
"""

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "server"))  # the package, also when it is not installed

from papershelf.testing import (  # noqa: E402
    CHROMIUM_ARGS,
    ServerProcess,
    call,
    chromium_args_with,
)

EXTENSION = ROOT / "extension"
PAGES = ROOT / "tests" / "fixtures" / "pages"
URL = "https://www.alphaxiv.org/topics/llm-agent-training"
COPIES = 20
SAVED = 200
BAR_MARK_MS = 100.0
BAR_SAVE_P95_MS = 50.0
BAR_PANEL_P95_MS = 100.0
BAR_FULL_TEXT_PAINT_MS = 150.0
BAR_FULL_TEXT_MARK_MS = 50.0
BAR_TOOLBAR_MS = 16.0
FULL_TEXT_CHARS = 100_000
FULL_TEXT_HIGHLIGHTS = 200
PDF_PAGES = 30
PDF_HIGHLIGHTS = 200
BAR_PDF_FIRST_PAGE_MS = 1000.0
BAR_PDF_ANCHOR_MS = 150.0
SELECTIONS = 15
PANEL_PAGES = 4  # fresh pages: the first open on each is the page's first
PANEL_OPENS_PER_PAGE = 5


def copy_prefix(k: int) -> str:
    """A distinct, valid YYMM for copy k (2401, 2402, …)."""
    return f"{24 + k // 12}{k % 12 + 1:02d}"


def big_page() -> tuple[str, list[dict]]:
    html = (PAGES / "topic_cards.html").read_text()
    papers = json.loads((PAGES / "papers.json").read_text())
    start = html.index('data-testid="paper-grid">') + len('data-testid="paper-grid">')
    end = html.index("</div>\n</section>", start)
    grid = html[start:end]
    copies, records = [], []
    for k in range(COPIES):
        prefix = copy_prefix(k)
        copies.append(grid.replace("2603.", prefix + "."))
        for p in papers:
            records.append({**p, "arxiv_id": p["arxiv_id"].replace("2603.", prefix + ".")})
    return html[:start] + "\n".join(copies) + html[end:], records


def seed_store(server: ServerProcess, records: list[dict]) -> None:
    token = server.token
    for r in records[:SAVED]:
        status, paper = call(server.base, "POST", "/api/papers", token, {
            "arxiv_id": r["arxiv_id"], "title": r["title"], "authors": r["authors"],
            "abstract": r["abstract"], "published": r["published"]})
        assert status in (200, 201), paper
        text = r["abstract"]
        i = text.index(" ", 40) + 1
        j = text.index(" ", i + 30)
        status, h = call(server.base, "POST", f"/api/papers/{paper['id']}/highlights", token, {
            "field": "abstract", "exact": text[i:j], "prefix": text[max(0, i - 64):i],
            "suffix": text[j:j + 64], "start": i, "end": j, "color": "yellow"})
        assert status == 201, h


def measure_run(context) -> dict:
    page = context.new_page()
    page.goto(URL)
    page.wait_for_function(
        "n => document.querySelectorAll('[data-papershelf-highlight]').length > 0 && "
        "performance.getEntriesByName('papershelf:paint').length > 0", arg=1, timeout=60000)
    page.wait_for_timeout(300)
    figures = page.evaluate("""() => {
        const last = (n) => {
          const e = performance.getEntriesByName(n);
          return e.length ? e[0].duration : null;
        };
        const t0 = performance.now();
        const cards = document.querySelectorAll('[data-papershelf-paper]');
        let n = 0;
        for (const c of cards) { if (c.getAttribute('tabindex') === '0') n++; }
        const reference = performance.now() - t0;
        const marks = document.querySelectorAll('[data-papershelf-highlight]');
        return {
          mark: last('papershelf:mark'), saved: last('papershelf:saved-shown'),
          paint: last('papershelf:paint'), reference, cards: cards.length,
          painted: new Set([...marks].map(m => m.dataset.papershelfHighlight)).size,
        };
    }""")
    saved_shown = page.evaluate("""() => document.querySelectorAll(
        '[data-papershelf-action="save"][aria-pressed="true"]').length""")
    figures["saved_marked"] = saved_shown
    page.close()
    return figures


SAVE_CLICKS = 40


ARM_CLICK = """(selector) => {
    // Time from the click event's own timestamp (a trusted click only) to aria-pressed="true".
    const b = document.querySelector(selector);
    window.__benchDone = new Promise((resolve) => {
      let t0 = null;
      document.addEventListener('click', (ev) => { if (ev.isTrusted) t0 = ev.timeStamp; },
                                { capture: true, once: true });
      const mo = new MutationObserver(() => {
        if (b.getAttribute('aria-pressed') === 'true' && t0 !== null) {
          mo.disconnect();
          resolve(performance.now() - t0);
        }
      });
      mo.observe(b, { attributes: true });
    });
}"""


def save_latencies(context) -> tuple[list[float], str]:
    """Click Save (trusted clicks) on unsaved cards one after another; ms from click to
    aria-pressed="true"."""
    page = context.new_page()
    page.goto(URL)
    page.wait_for_function("() => performance.getEntriesByName('papershelf:paint').length > 0",
                           timeout=60000)
    n = page.evaluate("""(n) => {
        const sel = '[data-papershelf-action="save"][aria-pressed="false"]';
        const buttons = [...document.querySelectorAll(sel)].slice(0, n);
        buttons.forEach((b, i) => b.setAttribute('data-bench-save', String(i)));
        return buttons.length;
    }""", SAVE_CLICKS)
    latencies = []
    for i in range(n):
        selector = f'[data-bench-save="{i}"]'
        page.evaluate(ARM_CLICK, selector)
        page.locator(selector).click()
        latencies.append(page.evaluate("() => window.__benchDone"))
    describe, roundtrip = page.evaluate("""() => {
        const phase = (n) => performance.getEntriesByName(n).map((e) => e.duration);
        return [phase('papershelf:save-describe'), phase('papershelf:save-roundtrip')];
    }""")
    d50 = sorted(describe)[len(describe) // 2]
    r50 = sorted(roundtrip)[len(roundtrip) // 2]
    r95 = sorted(roundtrip)[int(len(roundtrip) * 0.95)]
    phases = (f"  save phases: describe+render p50 {d50:.1f} ms; message round trip to the worker "
              f"and server p50 {r50:.1f} ms, p95 {r95:.1f} ms")
    page.close()
    return latencies, phases


CLOCK_OFFSET = """() => {
    // This context's high-resolution clock against the wall clock (median of many readings).
    const xs = [];
    for (let i = 0; i < 400; i++) xs.push(performance.timeOrigin + performance.now() - Date.now());
    xs.sort((a, b) => a - b);
    return xs[xs.length >> 1];
}"""

PANEL_MARKS = """(name) => performance.getEntriesByName(name)
    .map((e) => performance.timeOrigin + e.startTime)"""


def panel_frame(page):
    """The notes panel's frame, found from its element (Playwright may list a hidden extension
    frame without its URL for a while)."""
    element = page.query_selector("iframe[data-papershelf-frame]")
    return element.content_frame() if element else None


def panel_latencies(context) -> dict:
    """Open the notes panel with a trusted click on Note, close it with Escape, on several papers
    of several fresh pages: ms from the click to the panel's note box focused (editable), and to
    the paper's notes shown."""
    editable = {"cold": [], "warm": []}
    shown = []
    skews = []
    for k in range(PANEL_PAGES):
        page = context.new_page()
        page.goto(URL)
        page.wait_for_function("() => performance.getEntriesByName('papershelf:paint').length > 0",
                               timeout=60000)
        ids = page.evaluate("""() => [...document.querySelectorAll(
            '[data-papershelf-paper] [data-papershelf-action="save"][aria-pressed="true"]')]
            .map((b) => b.closest('[data-papershelf-paper]').dataset.papershelfPaper)""")
        for j in range(PANEL_OPENS_PER_PAGE):
            target = ids[(k * PANEL_OPENS_PER_PAGE + j) * 7 % len(ids)]
            frame = panel_frame(page)
            before = (frame.evaluate(PANEL_MARKS, "papershelf:panel-editable") if frame else [])
            before_shown = (frame.evaluate(PANEL_MARKS, "papershelf:panel-shown") if frame else [])
            page.evaluate("""() => {
                window.__benchClick = null;
                document.addEventListener('click', (ev) => {
                  if (ev.isTrusted) window.__benchClick = performance.timeOrigin + ev.timeStamp;
                }, { capture: true, once: true });
            }""")
            page.locator(f'[data-papershelf-paper="{target}"] [data-papershelf-action="note"]').first.click()
            deadline = time.monotonic() + 10
            while (frame := panel_frame(page)) is None and time.monotonic() < deadline:
                page.wait_for_timeout(5)
            frame.wait_for_function(
                "([n, m]) => performance.getEntriesByName('papershelf:panel-editable').length > n && "
                "performance.getEntriesByName('papershelf:panel-shown').length > m",
                arg=[len(before), len(before_shown)], timeout=10000)
            clicked = page.evaluate("() => window.__benchClick")
            skew = frame.evaluate(CLOCK_OFFSET) - page.evaluate(CLOCK_OFFSET)
            skews.append(skew)
            at = frame.evaluate(PANEL_MARKS, "papershelf:panel-editable")[len(before)] - skew
            seen = frame.evaluate(PANEL_MARKS, "papershelf:panel-shown")[len(before_shown)] - skew
            editable["cold" if j == 0 else "warm"].append(at - clicked)
            shown.append(seen - clicked)
            page.keyboard.press("Escape")  # focus is in the panel: Escape closes it
            page.wait_for_function(
                "() => document.querySelector('[data-papershelf-ui=\"panel\"]').hidden")
        page.close()
    return {"editable": editable, "shown": shown, "skew": max(abs(s) for s in skews)}


def full_text_pages() -> tuple[dict, dict]:
    """The full-text paper ({version: html}, at least FULL_TEXT_CHARS of text) and its record."""
    sys.path.insert(0, str(PAGES))
    from build_arxiv_html import build_page

    meta = json.loads((PAGES / "papers.json").read_text())[0]
    return {v: build_page(meta, v, min_chars=FULL_TEXT_CHARS) for v in (1, 2)}, meta


def _article_text(page, extension_base: str) -> str:
    """The body's normalized text as the extension reads it (its own module, which the manifest
    lets arXiv pages load)."""
    return page.evaluate("""async (url) => {
        const m = await import(url);
        return m.textModel(document.querySelector('article')).text;
    }""", extension_base + "lib/anchoring.js")


def seed_full_text(server: ServerProcess, context, meta: dict, extension_base: str) -> int:
    """Save the paper and FULL_TEXT_HIGHLIGHTS body highlights spread over its version 1 text;
    answers the length of that text."""
    from papershelf.domain.anchoring import describe_range, utf16_units

    page = context.new_page()
    page.goto(f"https://arxiv.org/html/{meta['arxiv_id']}v1")
    page.wait_for_selector("article [data-papershelf-action='save']")
    text = _article_text(page, extension_base)
    page.close()
    status, paper = call(server.base, "POST", "/api/papers", server.token, {
        "arxiv_id": meta["arxiv_id"], "title": meta["title"]})
    assert status in (200, 201), paper
    units = utf16_units(text)
    step = len(units) // FULL_TEXT_HIGHLIGHTS
    for k in range(FULL_TEXT_HIGHLIGHTS):
        i = units.index(" ", k * step) + 1
        j = units.index(" ", i + 25)
        body = {"field": "body", "section": "", **describe_range(text, i, j),
                "color": ("yellow", "green", "blue")[k % 3]}
        status, h = call(server.base, "POST", f"/api/papers/{paper['id']}/highlights",
                         server.token, body)
        assert status == 201, h
    return len(units)


def measure_full_text(context, meta: dict, version: int) -> dict:
    page = context.new_page()
    page.goto(f"https://arxiv.org/html/{meta['arxiv_id']}v{version}")
    page.wait_for_function("() => performance.getEntriesByName('papershelf:paint').length > 0",
                           timeout=60000)
    figures = page.evaluate("""() => {
        const last = (n) => {
          const e = performance.getEntriesByName(n);
          return e.length ? e[0].duration : null;
        };
        const marks = document.querySelectorAll('mark[data-papershelf-highlight]');
        return { mark: last('papershelf:mark'), paint: last('papershelf:paint'),
                 painted: new Set([...marks].map(m => m.dataset.papershelfHighlight)).size };
    }""")
    if version == 1:
        figures["toolbar"] = toolbar_latencies(page)
    page.close()
    return figures


SELECT_IN_BODY = """(k) => {
    // A real selection of a few words in the k-th paragraph, away from painted marks.
    const paras = [...document.querySelectorAll('article .ltx_para > p')];
    const p = paras[(k * 7) % paras.length];
    const n = [...p.childNodes].find((c) => c.nodeType === 3 && c.data.length > 40);
    const r = document.createRange();
    r.setStart(n, 5); r.setEnd(n, 35);
    const s = getSelection(); s.removeAllRanges(); s.addRange(r);
    p.scrollIntoView({block: 'center'});
    const b = r.getBoundingClientRect();
    return [b.right - 1, b.bottom - 2];
}"""


def toolbar_latencies(page) -> list[float]:
    """Trusted mouseups at the end of a selection in the body; ms to the toolbar shown."""
    out = []
    for k in range(SELECTIONS):
        x, y = page.evaluate(SELECT_IN_BODY, k)
        before = page.evaluate("() => performance.getEntriesByName('papershelf:toolbar').length")
        page.mouse.move(x, y)
        page.mouse.up()
        page.wait_for_function("n => performance.getEntriesByName('papershelf:toolbar').length > n",
                               arg=before)
        out.append(page.evaluate(
            "() => performance.getEntriesByName('papershelf:toolbar').at(-1).duration"))
        page.keyboard.press("Escape")
    return out


def pdf_paper(folder: Path) -> bytes:
    """The 30-page arXiv PDF, made by pdfLaTeX."""
    sys.path.insert(0, str(ROOT / "tests" / "fixtures" / "pdf"))
    from build_pdfs import long_paper

    return long_paper(folder, PDF_PAGES).read_bytes()


def pdf_reader_url(extension_base: str, arxiv_id: str) -> str:
    return f"{extension_base}reader/reader.html?file=https%3A%2F%2Farxiv.org%2Fpdf%2F{arxiv_id}"


def loopback_pdf(body: bytes):
    """The PDF served by a plain HTTP server on loopback (which the extension may read): the same
    open without Playwright's interception in the path. Answers (url, stop)."""
    import http.server
    import threading

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 (http.server's name)
            self.send_response(200)
            self.send_header("Content-Type", "application/pdf")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{httpd.server_address[1]}/long.pdf", httpd.shutdown


def first_page_from(context, reader_url: str) -> float:
    page = context.new_page()
    page.goto(reader_url)
    page.wait_for_function(
        "() => performance.getEntriesByName('papershelf:reader-first-page').length > 0", timeout=60000)
    ms = page.evaluate("() => performance.getEntriesByName('papershelf:reader-first-page')[0].duration")
    page.close()
    return ms


def seed_pdf(server: ServerProcess, context, extension_base: str, arxiv_id: str) -> int:
    """Save the paper with PDF_HIGHLIGHTS highlights spread over its pages (offsets in each page's
    text as the reader reads it); answers the number of pages."""
    from papershelf.domain.anchoring import describe_range, utf16_units

    page = context.new_page()
    page.goto(pdf_reader_url(extension_base, arxiv_id))
    page.wait_for_function("() => window.papershelfReader && papershelfReader.texts()", timeout=60000)
    texts = page.evaluate("() => papershelfReader.texts()")
    page.close()
    status, paper = call(server.base, "POST", "/api/papers", server.token,
                         {"arxiv_id": arxiv_id, "title": "A long paper"})
    assert status in (200, 201), paper
    per_page = -(-PDF_HIGHLIGHTS // len(texts))
    made = 0
    for n, text in enumerate(texts, 1):
        units = utf16_units(text)
        step = max(1, len(units) // (per_page + 1))
        for k in range(per_page):
            if made == PDF_HIGHLIGHTS:
                break
            i = units.index(" ", k * step) + 1
            j = units.index(" ", i + 25)
            body = {"field": "pdf", "page": n, **describe_range(text, i, j),
                    "color": ("yellow", "green", "blue")[made % 3]}
            status, h = call(server.base, "POST", f"/api/papers/{paper['id']}/highlights",
                             server.token, body)
            assert status == 201, h
            made += 1
    return len(texts)


def measure_pdf(context, extension_base: str, arxiv_id: str) -> dict:
    page = context.new_page()
    page.goto(pdf_reader_url(extension_base, arxiv_id))
    page.wait_for_function(
        "() => performance.getEntriesByName('papershelf:reader-texts').length > 0", timeout=60000)
    # The pages shown (and those near them) render, and their highlights are painted.
    page.wait_for_function("""() => {
        const shown = [...document.querySelectorAll('.page')].filter((p) => {
          const r = p.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; });
        return shown.length && shown.every((p) => p.querySelector('.textLayer mark'));
    }""", timeout=60000)
    page.wait_for_timeout(300)
    figures = page.evaluate("""() => {
        const one = (n) => {
          const e = performance.getEntriesByName(n);
          return e.length ? e[0].duration : null;
        };
        const sum = (n) => performance.getEntriesByName(n).reduce((t, e) => t + e.duration, 0);
        const shown = [...document.querySelectorAll('.page')].filter((p) => {
          const r = p.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; });
        const ids = new Set();
        for (const p of document.querySelectorAll('.page')) {
          for (const m of p.querySelectorAll('mark[data-papershelf-highlight]')) {
            ids.add(m.dataset.papershelfHighlight);
          }
        }
        return { first_page: one('papershelf:reader-first-page'), open: one('papershelf:reader-open'),
                 fetched: one('papershelf:reader-fetched'),
                 texts: one('papershelf:reader-texts'), place: sum('papershelf:reader-place'),
                 paint: sum('papershelf:paint'),
                 paints: performance.getEntriesByName('papershelf:paint').length,
                 shown: shown.map((p) => Number(p.dataset.page)),
                 rendered: document.querySelectorAll('.textLayer').length, painted: ids.size,
                 placed: Object.values(papershelfReader.placed()).filter(Boolean).length };
    }""")
    page.close()
    return figures


def extension_page_load(context, extension_base: str) -> float:
    """The same-process reference: navigation start → load event of a small extension page (the
    options page), ms."""
    page = context.new_page()
    page.goto(extension_base + "options/options.html")
    ms = page.evaluate("() => performance.getEntriesByType('navigation')[0].loadEventEnd")
    page.close()
    return ms


def report_pdf(pdf, pages, args) -> bool:
    first = sorted(r["first_page"] for r in pdf)
    anchor = sorted(r["place"] + r["paint"] for r in pdf)
    med = statistics.median
    r0 = pdf[0]
    print(f"PDF reader: a {pages}-page arXiv PDF (pdfLaTeX) with {PDF_HIGHLIGHTS} highlights; "
          f"{args.runs} runs after one warm-up")
    print(f"  open -> first page painted: median {med(first):.0f} ms, worst {first[-1]:.0f} ms "
          f"(its bytes in at {med([r['fetched'] for r in pdf]):.0f} ms, parsed at "
          f"{med([r['open'] for r in pdf]):.0f} ms)   bar ≤ {BAR_PDF_FIRST_PAGE_MS:.0f} ms -> "
          f"{'OK' if med(first) <= BAR_PDF_FIRST_PAGE_MS else 'OVER'}")
    loop = sorted(r["loopback"] for r in pdf)
    print(f"  the same PDF from a loopback HTTP server (no Playwright interception): first page "
          f"median {med(loop):.0f} ms, worst {loop[-1]:.0f} ms")
    ref = med([r["reference"] for r in pdf])
    print(f"  reference (an extension page, the options, loaded): median {ref:.0f} ms; "
          f"first page / reference = {med(first) / max(ref, 0.01):.1f}x")
    print(f"  anchor {PDF_HIGHLIGHTS} highlights for the pages shown (pages {r0['shown']}, "
          f"{r0['rendered']} rendered): place all {r0['placed']} in the {pages} pages' texts median "
          f"{med([r['place'] for r in pdf]):.1f} ms + paint {r0['painted']} on the rendered pages "
          f"median {med([r['paint'] for r in pdf]):.1f} ms ({r0['paints']} passes) = median "
          f"{med(anchor):.1f} ms main thread, worst {anchor[-1]:.1f} ms   "
          f"bar ≤ {BAR_PDF_ANCHOR_MS:.0f} ms -> "
          f"{'OK' if med(anchor) <= BAR_PDF_ANCHOR_MS else 'OVER'}")
    print(f"  (reading the {pages} pages' texts, joined on the main thread as pdf.js's worker "
          f"delivers them: median {med([r['texts'] for r in pdf]):.0f} ms wall time)")
    ok = (med(first) <= BAR_PDF_FIRST_PAGE_MS and med(anchor) <= BAR_PDF_ANCHOR_MS
          and r0["placed"] == PDF_HIGHLIGHTS and r0["painted"] > 0)
    if not ok:
        print("  FAILED: " + json.dumps(r0))
    return ok


# ---- listing pages: 100 Google Scholar results ------------------------------------------------

SCHOLAR_URL = "https://scholar.google.com/scholar?q=antarctica+victoria+land+geology"
SCHOLAR_RESULTS = 100
SCHOLAR_SAVED = 50
BAR_LISTING_MARKED_MS = 100.0


def scholar_page() -> tuple[str, list[str]]:
    """The saved Scholar page with its linked results copied to 100 (other clusters and title
    addresses), and the 100 title addresses in page order."""
    import re

    html = (PAGES / "listings" / "scholar_results_2020.html").read_text()
    starts = [m.start() for m in re.finditer(r'<div class="gs_r gs_or gs_scl" data-cid=', html)]
    end = html.index("</div><div id=\"gs_res_ccl_bot\">", starts[-1])  # the last result's end
    blocks = [html[a:b] for a, b in zip(starts, starts[1:] + [end], strict=True)]
    linked = [b for b in blocks if re.search(r'<h3 class="gs_rt"[^>]*>(?:(?!</h3>).)*<a [^>]*href=', b)]
    out, urls = [], []
    for i in range(SCHOLAR_RESULTS):
        block = linked[i % len(linked)]
        copy = i // len(linked)
        block = re.sub(r"related:([\w-]+):", rf"related:\1c{copy}:", block)
        title = re.search(r'<h3 class="gs_rt"[^>]*>(?:(?!</h3>).)*?<a [^>]*href="([^"]+)"', block)[1]
        new = f"{title}{'&' if '?' in title else '?'}copy={copy}"
        block = block.replace(f'href="{title}"', f'href="{new}"')
        out.append(block)
        urls.append(new.replace("&amp;", "&"))
    return html[:starts[0]] + "".join(out) + html[end:], urls


def seed_scholar(server: ServerProcess, urls: list[str]) -> None:
    for i, url in enumerate(urls[:SCHOLAR_SAVED]):
        status, paper = call(server.base, "POST", "/api/papers", server.token,
                             {"url": url, "title": f"Saved result {i}"})
        assert status in (200, 201), paper


def measure_scholar(context) -> dict:
    page = context.new_page()
    page.goto(SCHOLAR_URL)
    page.wait_for_function(
        "performance.getEntriesByName('papershelf:paint').length > 0", timeout=60000)
    page.wait_for_timeout(200)
    figures = page.evaluate("""() => {
        const last = (n) => {
          const e = performance.getEntriesByName(n);
          return e.length ? e[e.length - 1].duration : null;
        };
        return {
          mark: last('papershelf:mark'), saved: last('papershelf:saved-shown'),
          paint: last('papershelf:paint'),
          results: document.querySelectorAll('[data-papershelf-paper]').length,
          saved_marked: document.querySelectorAll(
            '[data-papershelf-action="save"][aria-pressed="true"]').length,
        };
    }""")
    page.close()
    return figures


def saved_results(urls: list[str]) -> int:
    """How many of the results are one of the saved papers: a copy of a result whose address names
    its paper by a DOI or a site's id (ScienceDirect's PII, …) is that paper, whatever its query."""
    from papershelf.domain.identities import identities_of_url

    saved = {i for url in urls[:SCHOLAR_SAVED] for i in identities_of_url(url)}
    return sum(1 for url in urls if saved.intersection(identities_of_url(url)))


def report_listings(runs, args, urls) -> bool:
    first = runs[0]
    assert first["results"] == SCHOLAR_RESULTS, first
    assert first["saved_marked"] == saved_results(urls), first
    med = {k: statistics.median(r[k] for r in runs) for k in ("mark", "saved", "paint")}
    after = statistics.median(r["saved"] + r["paint"] for r in runs)
    worst = max(r["saved"] + r["paint"] for r in runs)
    print(f"\n100 Google Scholar results marked after the lookup answers ({args.runs} runs, "
          f"{SCHOLAR_SAVED} saved):")
    print(f"  papershelf:mark         median {med['mark']:.1f} ms  (find 100 results + controls)")
    print(f"  papershelf:saved-shown  median {med['saved']:.1f} ms  (the lookup answer applied)")
    print(f"  papershelf:paint        median {med['paint']:.1f} ms")
    ok = worst <= BAR_LISTING_MARKED_MS
    print(f"  marked after the answer median {after:.1f} ms, worst {worst:.1f} ms "
          f"(bar ≤ {BAR_LISTING_MARKED_MS:.0f} ms): {'ok' if ok else 'OVER'}")
    return ok


BAR_DETECTOR_MS = 2.0
DETECTOR_CALLS = 500
DETECTOR_LOADS = 15
DETECTOR_PAGES = [
    ("no paper: Wikipedia, New Zealand", "https://en.wikipedia.org/wiki/New_Zealand",
     "notpapers/wikipedia-2.html"),
    ("a paper: Nature, AlphaFold", "https://www.nature.com/articles/s41586-021-03819-2",
     "nature/www.nature.com-articles-s41586-021-03819-2.html"),
]
TIME_DETECTOR = """([source, calls]) => {
    const detect = new Function(source + "; return papershelfMayDescribePaper;")();
    let t = performance.now();
    const answer = detect(document, location.href);
    const first = performance.now() - t;
    const times = [];
    for (let i = 0; i < calls; i++) {
        t = performance.now();
        detect(document, location.href);
        times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    return {answer, first, median: times[calls >> 1], p95: times[Math.floor(calls * 0.95)],
            max: times[calls - 1]};
}"""


def detector_figures(p, chromium) -> bool:
    """The detector's main-thread time per call on each of DETECTOR_PAGES (plain Chromium: the
    function is the content script's own source, run in the page)."""
    source = (EXTENSION / "content" / "detect.js").read_text()
    source = source[: source.index("(async () =>")]
    browser = p.chromium.launch(executable_path=chromium, headless=True,
                                args=CHROMIUM_ARGS)
    ok = True
    try:
        page = browser.new_page()
        bodies = {url: (PAGES / name).read_bytes() for _what, url, name in DETECTOR_PAGES}

        def serve(route):  # the page itself; nothing else leaves the machine
            body = bodies.get(route.request.url)
            if body is None:
                route.abort()
            else:
                route.fulfill(status=200, content_type="text/html", body=body)

        page.route("**/*", serve)
        for what, url, _name in DETECTOR_PAGES:
            body = bodies[url]
            runs = []
            for _ in range(DETECTOR_LOADS):  # the content script calls it once, on a fresh page
                page.goto(url)
                runs.append(page.evaluate(TIME_DETECTOR, [source, DETECTOR_CALLS]))
            firsts = sorted(r["first"] for r in runs)
            r = runs[-1]
            paper = what.startswith("a paper")
            first = statistics.median(firsts)
            verdict = "ok" if r["answer"] == paper and (paper or first <= BAR_DETECTOR_MS) else "OVER"
            ok = ok and verdict == "ok"
            print(f"detector, {what} ({len(body) // 1024} kB): loads the readers: {r['answer']}; "
                  f"the call on a fresh page: median {first:.2f} ms, max {firsts[-1]:.2f} ms over "
                  f"{DETECTOR_LOADS} loads (bar {BAR_DETECTOR_MS} ms) {verdict}; again on the same page: "
                  f"median {r['median']:.2f} ms, "
                  f"p95 {r['p95']:.2f} ms over {DETECTOR_CALLS} calls")
    finally:
        browser.close()
    return ok


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * q))]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--full-text-only", action="store_true", help="only the arXiv HTML paper")
    ap.add_argument("--pdf-only", action="store_true", help="only the PDF reader")
    ap.add_argument("--listings-only", action="store_true", help="only the listing pages (Scholar)")
    ap.add_argument("--detector-only", action="store_true", help="only the all-pages detector")
    args = ap.parse_args()
    if args.listings_only:
        return listings_main(args)
    chromium = shutil.which("chromium")
    if not chromium:
        sys.exit("chromium not found (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        detector_ok = detector_figures(p, chromium)
    if args.detector_only:
        return 0 if detector_ok else 1

    page_html, records = big_page()
    full_text, meta = full_text_pages()
    with tempfile.TemporaryDirectory() as tmp:
        pdf_bytes = pdf_paper(Path(tmp) / "pdf") if not args.full_text_only else b""
        server = ServerProcess(Path(tmp) / "data")
        (Path(tmp) / "data").mkdir()
        server.start()
        try:
            cards = not (args.full_text_only or args.pdf_only)
            if cards:
                seed_store(server, records)
            with sync_playwright() as p:
                context = p.chromium.launch_persistent_context(
                    str(Path(tmp) / "profile"), executable_path=chromium, headless=True,
                    args=chromium_args_with(EXTENSION),
                    viewport={"width": 1280, "height": 900})
                context.route("https://www.alphaxiv.org/**", lambda route: route.fulfill(
                    status=200, content_type="text/html; charset=utf-8", body=page_html))
                context.route("https://arxiv.org/html/**", lambda route: route.fulfill(
                    status=200, content_type="text/html; charset=utf-8",
                    body=full_text[2 if route.request.url.endswith("v2") else 1]))
                context.route("https://arxiv.org/pdf/**", lambda route: route.fulfill(
                    status=200, content_type="application/pdf", body=pdf_bytes))
                sw = context.service_workers[0] if context.service_workers else context.wait_for_event(
                    "serviceworker")
                sw.evaluate("([serverUrl, token]) => chrome.storage.local.set({serverUrl, token})",
                            [server.base, server.token])
                base = sw.url.split("background/")[0]
                if not args.full_text_only:
                    pdf_id = "2402.00030"
                    pdf_pages = seed_pdf(server, context, base, pdf_id)
                    measure_pdf(context, base, pdf_id)  # warm-up
                    loopback, stop_loopback = loopback_pdf(pdf_bytes)
                    from urllib.parse import quote

                    loop_url = f"{base}reader/reader.html?file={quote(loopback, safe='')}"
                    first_page_from(context, loop_url)  # warm-up
                    pdf = [{**measure_pdf(context, base, pdf_id),
                            "reference": extension_page_load(context, base),
                            "loopback": first_page_from(context, loop_url)}
                           for _ in range(args.runs)]
                    stop_loopback()
                if cards:
                    measure_run(context)  # warm-up (module load, JIT, server caches)
                    runs = [measure_run(context) for _ in range(args.runs)]
                    latencies, phases = save_latencies(context)
                    latencies.sort()
                    panel = panel_latencies(context)
                if not args.pdf_only:
                    body_units = seed_full_text(server, context, meta, base)
                    measure_full_text(context, meta, 1)  # warm-up
                    full = {v: [measure_full_text(context, meta, v) for _ in range(args.runs)]
                            for v in (1, 2)}
                context.close()
        finally:
            server.stop()

    ok = True
    if cards:
        ok = report_cards(runs, latencies, phases, panel, args)
    if not args.pdf_only:
        ok = report_full_text(full, body_units, args) and ok
    if not args.full_text_only:
        ok = report_pdf(pdf, pdf_pages, args) and ok
    if not (args.full_text_only or args.pdf_only):
        ok = listings_main(args) == 0 and ok
    return 0 if ok and detector_ok else 1


def listings_main(args) -> int:
    chromium = shutil.which("chromium")
    if not chromium:
        sys.exit("chromium not found (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    html, urls = scholar_page()
    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(Path(tmp) / "data")
        (Path(tmp) / "data").mkdir()
        server.start()
        try:
            seed_scholar(server, urls)
            with sync_playwright() as p:
                context = p.chromium.launch_persistent_context(
                    str(Path(tmp) / "profile"), executable_path=chromium, headless=True,
                    args=chromium_args_with(EXTENSION),
                    viewport={"width": 1280, "height": 900})
                context.route("https://scholar.google.com/**", lambda route: route.fulfill(
                    status=200, content_type="text/html; charset=utf-8", body=html)
                    if route.request.resource_type == "document" else route.fulfill(status=404))
                sw = context.service_workers[0] if context.service_workers else context.wait_for_event(
                    "serviceworker")
                sw.evaluate("([serverUrl, token]) => chrome.storage.local.set({serverUrl, token})",
                            [server.base, server.token])
                measure_scholar(context)  # warm-up
                runs = [measure_scholar(context) for _ in range(args.runs)]
                context.close()
        finally:
            server.stop()
    return 0 if report_listings(runs, args, urls) else 1


def report_cards(runs, latencies, phases, panel, args) -> bool:
    first = runs[0]
    assert first["cards"] == COPIES * 30, first
    med = {k: statistics.median(r[k] for r in runs) for k in ("mark", "saved", "paint", "reference")}
    worst_mark = max(r["mark"] for r in runs)
    print(f"page: {first['cards']} cards, {SAVED} saved with one highlight each; {args.runs} runs "
          "after one warm-up")
    # Judged on the median: on this shared 2-core machine a single run can stall on other load.
    print(f"  mark {first['cards']} cards (find + controls): median {med['mark']:.1f} ms, "
          f"worst {worst_mark:.1f} ms   bar ≤ {BAR_MARK_MS:.0f} ms -> "
          f"{'OK' if med['mark'] <= BAR_MARK_MS else 'OVER'}")
    print(f"  show Saved on {first['saved_marked']} (lookup answer applied): median {med['saved']:.1f} ms")
    print(f"  paint {first['painted']} highlights (anchor + wrap): median {med['paint']:.1f} ms "
          f"({med['paint'] / max(1, first['painted']) * 1000:.0f} µs each)")
    print(f"  reference (trivial pass over the cards): median {med['reference']:.2f} ms; "
          f"mark/reference = {med['mark'] / max(med['reference'], 0.01):.0f}x")
    p50 = latencies[len(latencies) // 2]
    p95 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.95))]
    print(f"  save -> Saved on the page ({len(latencies)} clicks, real server): p50 {p50:.1f} ms, "
          f"p95 {p95:.1f} ms   bar p95 ≤ {BAR_SAVE_P95_MS:.0f} ms -> "
          f"{'OK' if p95 <= BAR_SAVE_P95_MS else 'OVER'}")
    print(phases)
    opens = panel["editable"]["cold"] + panel["editable"]["warm"]
    panel_p95 = pct(opens, 0.95)
    print(f"  open the notes panel: click on Note -> note box editable in the frame ({len(opens)} "
          f"opens on {PANEL_PAGES} pages): p50 {pct(opens, 0.5):.1f} ms, "
          f"p95 {panel_p95:.1f} ms   bar p95 ≤ {BAR_PANEL_P95_MS:.0f} ms -> "
          f"{'OK' if panel_p95 <= BAR_PANEL_P95_MS else 'OVER'}")
    first_open, later = panel["editable"]["cold"], panel["editable"]["warm"]
    print(f"    first open on a page (its frame made in idle time after the lookup): p50 "
          f"{pct(first_open, 0.5):.1f} ms, max {max(first_open):.1f} ms; later opens p50 "
          f"{pct(later, 0.5):.1f} ms, max {max(later):.1f} ms")
    print(f"    click -> the paper's notes shown (fetched from the server): p50 "
          f"{pct(panel['shown'], 0.5):.1f} ms, p95 {pct(panel['shown'], 0.95):.1f} ms "
          f"(page/frame clock offset ≤ {panel['skew']:.2f} ms, corrected)")
    ok = (p95 <= BAR_SAVE_P95_MS and med["mark"] <= BAR_MARK_MS and first["painted"] == SAVED
          and first["saved_marked"] >= SAVED and panel_p95 <= BAR_PANEL_P95_MS)
    if not ok:
        print("  FAILED: " + json.dumps(first))
    return ok


def report_full_text(full, body_units, args) -> bool:
    print(f"full text: a {body_units:,}-unit paper (arXiv HTML, LaTeXML) with "
          f"{FULL_TEXT_HIGHLIGHTS} highlights in its body; {args.runs} runs after one warm-up")
    full_paint = {}
    for v, label in ((1, "version 1, where they were made"), (2, "version 2, small edits")):
        rs = full[v]
        full_paint[v] = statistics.median(r["paint"] for r in rs)
        print(f"  anchor + paint ({label}): {rs[0]['painted']} painted, median "
              f"{full_paint[v]:.1f} ms, worst {max(r['paint'] for r in rs):.1f} ms   bar ≤ "
              f"{BAR_FULL_TEXT_PAINT_MS:.0f} ms -> "
              f"{'OK' if full_paint[v] <= BAR_FULL_TEXT_PAINT_MS else 'OVER'}")
    full_mark = statistics.median(r["mark"] for r in full[1])
    print(f"  mark the page (find the article, add its controls): median {full_mark:.1f} ms   "
          f"bar ≤ {BAR_FULL_TEXT_MARK_MS:.0f} ms -> "
          f"{'OK' if full_mark <= BAR_FULL_TEXT_MARK_MS else 'OVER'}")
    toolbar = sorted(t for r in full[1] for t in r["toolbar"])
    print(f"  selection -> Highlight toolbar ({len(toolbar)} selections in the body): p50 "
          f"{pct(toolbar, 0.5):.1f} ms, p95 {pct(toolbar, 0.95):.1f} ms   bar ≤ "
          f"{BAR_TOOLBAR_MS:.0f} ms (p50) -> "
          f"{'OK' if pct(toolbar, 0.5) <= BAR_TOOLBAR_MS else 'OVER'}")
    ok = (full[1][0]["painted"] == FULL_TEXT_HIGHLIGHTS
          and max(full_paint.values()) <= BAR_FULL_TEXT_PAINT_MS
          and full_mark <= BAR_FULL_TEXT_MARK_MS and pct(toolbar, 0.5) <= BAR_TOOLBAR_MS)
    if not ok:
        print("  FAILED: " + json.dumps({v: full[v][0] for v in full}))
    return ok


if __name__ == "__main__":
    sys.exit(main())
