"""Page benchmark of the extension: time to mark 600 cards, and to paint 200 highlights.

Debian's Chromium with the unpacked extension opens a 600-card topic page made from the Cards
fixture (its 30 cards copied 20 times under other arXiv ids), against a real `papershelf serve`
on a loopback port. 200 of the papers are saved beforehand, each with one highlight.
The extension reports User Timing measures (named in extension/content/timing.js):
  papershelf:mark         find the papers and add controls to every card (in the page, sync)
  papershelf:saved-shown  apply the one lookup answer: mark the saved ones "Saved"
  papershelf:paint        anchor and paint the highlights
Bars (product.md §7): marking 600 cards ≤ 100 ms in the page; save → "Saved" p95 ≤ 50 ms
(click to aria-pressed="true", through the background worker and the real server). As a
same-process reference, the page's own cost of a trivial pass over the same cards
(querySelectorAll + one attribute each) is printed too.

Run: python bench/page.py [--runs 5]
"""

import argparse
import json
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "server"))  # the package, also when it is not installed

from papershelf.testing import ServerProcess, call  # noqa: E402

EXTENSION = ROOT / "extension"
PAGES = ROOT / "tests" / "fixtures" / "pages"
URL = "https://www.alphaxiv.org/topics/llm-agent-training"
COPIES = 20
SAVED = 200
BAR_MARK_MS = 100.0
BAR_SAVE_P95_MS = 50.0


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


def save_latencies(context) -> tuple[list[float], str]:
    """Click Save on unsaved cards one after another; ms from click to aria-pressed="true"."""
    page = context.new_page()
    page.goto(URL)
    page.wait_for_function("() => performance.getEntriesByName('papershelf:paint').length > 0",
                           timeout=60000)
    latencies = page.evaluate("""async (n) => {
        const sel = '[data-papershelf-action="save"][aria-pressed="false"]';
        const buttons = [...document.querySelectorAll(sel)];
        const out = [];
        for (const b of buttons.slice(0, n)) {
          const t0 = performance.now();
          const done = new Promise((resolve) => {
            const mo = new MutationObserver(() => {
              if (b.getAttribute('aria-pressed') === 'true') { mo.disconnect(); resolve(); }
            });
            mo.observe(b, { attributes: true });
          });
          b.click();
          await done;
          out.push(performance.now() - t0);
        }
        const phase = (n) => performance.getEntriesByName(n).map((e) => e.duration);
        return [out, phase('papershelf:save-describe'), phase('papershelf:save-roundtrip')];
    }""", SAVE_CLICKS)
    latencies, describe, roundtrip = latencies
    d50 = sorted(describe)[len(describe) // 2]
    r50 = sorted(roundtrip)[len(roundtrip) // 2]
    r95 = sorted(roundtrip)[int(len(roundtrip) * 0.95)]
    phases = (f"  save phases: describe+render p50 {d50:.1f} ms; message round trip to the worker "
              f"and server p50 {r50:.1f} ms, p95 {r95:.1f} ms")
    page.close()
    return latencies, phases


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    chromium = shutil.which("chromium")
    if not chromium:
        sys.exit("chromium not found (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    page_html, records = big_page()
    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(Path(tmp) / "data")
        (Path(tmp) / "data").mkdir()
        server.start()
        try:
            seed_store(server, records)
            with sync_playwright() as p:
                context = p.chromium.launch_persistent_context(
                    str(Path(tmp) / "profile"), executable_path=chromium, headless=True,
                    args=[f"--disable-extensions-except={EXTENSION}", f"--load-extension={EXTENSION}",
                          "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                          "--disable-component-update", "--no-first-run"],
                    viewport={"width": 1280, "height": 900})
                context.route("https://www.alphaxiv.org/**", lambda route: route.fulfill(
                    status=200, content_type="text/html; charset=utf-8", body=page_html))
                sw = context.service_workers[0] if context.service_workers else context.wait_for_event(
                    "serviceworker")
                sw.evaluate("([serverUrl, token]) => chrome.storage.local.set({serverUrl, token})",
                            [server.base, server.token])
                measure_run(context)  # warm-up (module load, JIT, server caches)
                runs = [measure_run(context) for _ in range(args.runs)]
                latencies, phases = save_latencies(context)
                latencies.sort()
                context.close()
        finally:
            server.stop()

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
    ok = (p95 <= BAR_SAVE_P95_MS and med["mark"] <= BAR_MARK_MS and first["painted"] == SAVED
          and first["saved_marked"] >= SAVED)
    if not ok:
        print("  FAILED: " + json.dumps(first))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
