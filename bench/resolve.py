"""Checking 5,000 arXiv papers for their published version, within each catalogue's real limits.

    python bench/resolve.py [--papers 5000] [--published 0.4]

The fake catalogues (tests/fake_catalogues.py, run as a child process, not imported) answer
generated papers: a share ``--published`` of them has a venue version that Semantic Scholar links
by a DBLP key, the others are known to Semantic Scholar as preprints only. The papers are
imported into a new SQLite store and checked by ``services.published.run_due`` with no spacing
(the fakes answer at once), recording every call in order. Printed: calls per paper per
service with the time that service's limit alone needs for its calls, the run's own time, and
the time the real limits allow for the whole sequence of calls: each service's calls spaced by
its interval (the settings' defaults: Semantic Scholar 1 s, its limit without a key; DBLP 2 s,
what DBLP's FAQ says is always fine; Crossref 0.2 s, under its polite pool's documented
limits), the resolver calling one service at a time, answers taken as instant (a network's
latency adds to this); beside it, DBLP at 1 s and at 5 s. Half the published papers are at a
venue with DOIs (Crossref's records, 50 a call), half without (DBLP's record, one a call):
DBLP is asked only for what Semantic Scholar's batch (500 ids a call) links to a DBLP key
without a DOI.
"""

import argparse
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "server"))

from papershelf.settings import default  # noqa: E402

INTERVALS = {"s2": default("S2_MIN_INTERVAL"), "dblp": default("DBLP_MIN_INTERVAL"),
             "crossref": default("CROSSREF_MIN_INTERVAL")}


def allowed_time(sequence: list[str], intervals: dict) -> float:
    """Seconds the limits allow for ``sequence``: a call starts once its service's interval
    since its previous call has passed (and after the call before it, one at a time)."""
    t, next_at = 0.0, {}
    for name in sequence:
        t = max(t, next_at.get(name, 0.0))
        next_at[name] = t + intervals[name]
    return t


def bib(n: int) -> str:
    entries = []
    for i in range(n):
        arxiv = f"2501.{i + 1:05d}"
        entries.append(f"@misc{{p{i},\n  title = {{Generated Paper {arxiv}}},\n"
                       f"  author = {{Ada Lovelace}},\n  year = {{2025}},\n"
                       f"  eprint = {{{arxiv}}},\n  archivePrefix = {{arXiv}}\n}}\n")
    return "\n".join(entries)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--papers", type=int, default=5000)
    parser.add_argument("--published", type=float, default=0.4)
    args = parser.parse_args()

    fake = subprocess.Popen([sys.executable, "-m", "tests.fake_catalogues",
                             r"2501\.\d{5}", str(args.published)],
                            stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        url = fake.stdout.readline().strip()
        from papershelf.app import create_app
        from papershelf.services import auth, published, transfer

        with tempfile.TemporaryDirectory() as tmp:
            app = create_app({"DATA_DIR": tmp, "ARXIV_API": "off", "SECRET_KEY": "bench"})
            with app.extensions["papershelf_db"].connection_context():
                user = auth.get_or_create_user("me")
                started = time.perf_counter()
                transfer.import_file(user, bib(args.papers), "bibtex")
                imported = time.perf_counter() - started
                cfg = {**app.config, "ARXIV_API": "http://127.0.0.1:9/unused",
                       "S2_API": url, "DBLP_API": url, "CROSSREF_API": url,
                       "S2_MIN_INTERVAL": 0.0, "DBLP_MIN_INTERVAL": 0.0,
                       "CROSSREF_MIN_INTERVAL": 0.0}
                published.queue_all()
                started = time.perf_counter()
                results = published.run_due(cfg)
                ran = time.perf_counter() - started
    finally:
        fake.terminate()
        fake.wait()

    sequence = [name for r in results for name in r.sequence]
    calls = Counter(sequence)
    papers = sum(r.papers for r in results)
    found = sum(r.found for r in results)
    print(f"{papers} papers imported in {imported:.1f} s, checked in {ran:.1f} s against the "
          f"fakes: {found} published versions found, {sum(r.missing for r in results)} none, "
          f"{sum(r.retrying + r.failed for r in results)} failed")
    for name in ("s2", "dblp", "crossref"):
        alone = calls[name] * INTERVALS[name]
        print(f"  {name:9} {calls[name]:6d} calls  {calls[name] / papers:.3f} per paper  "
              f"1 every {INTERVALS[name]:g} s: {alone:7.0f} s ({alone / 60:.1f} min) of its own")
    print(f"  all       {len(sequence):6d} calls  {len(sequence) / papers:.3f} per paper")
    allowed = allowed_time(sequence, INTERVALS)
    print(f"time the real limits allow: {allowed:.0f} s ({allowed / 60:.1f} min)")
    for dblp in (1.0, 5.0):
        t = allowed_time(sequence, {**INTERVALS, "dblp": dblp})
        print(f"  with DBLP at 1 call every {dblp:g} s: {t:.0f} s ({t / 60:.1f} min)")
    every = allowed_time(["s2", "dblp", "crossref"] * papers, INTERVALS)
    print(f"  one call per paper to each service would take {every / 3600:.1f} h")

if __name__ == "__main__":
    main()
