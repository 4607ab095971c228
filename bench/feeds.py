"""Live bibliographies at library scale: a feed of 10,000 papers (with notes) answering 304 when
nothing changed, and streaming like the export when something did.

    python bench/feeds.py [--papers 10000] [--store sqlite|postgresql|both] [--repeat 200]

Server time, the app called in process (no network), as the product's bars are stated: an
unchanged feed answers 304 in ≤ 20 ms; a changed one streams like GET /api/export (the ratio of
the two full answers is printed, and the peak memory of building one).
"""

import argparse
import statistics
import sys
import tempfile
import time
import tracemalloc
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

BAR_304_MS = 20.0
WORDS = ("agents reinforcement actor critic memory curriculum graph retrieval planning tool "
         "reward policy value trajectory benchmark verification coding reasoning search").split()


def paper(i: int) -> dict:
    return {"arxiv_id": f"{2600 + i // 90000 % 12 + 1:04d}.{10000 + i % 90000:05d}",
            "title": f"{WORDS[i % 19].title()} {WORDS[(i * 7) % 19]} for {WORDS[(i * 3) % 19]} {i}",
            "authors": [f"Ada Lovelace{i % 97}", "Alan Turing", "Grace Hopper"], "authors_more": 2,
            "abstract": " ".join(WORDS[(i + k) % 19] for k in range(120)),
            "published": f"2026-{i % 12 + 1:02d}-{i % 28 + 1:02d}", "tags": [WORDS[i % 5]]}


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def run(store: str, n: int, repeat: int) -> None:
    from papershelf.app import create_app, tune_gc
    from papershelf.cli.common import first_start
    from papershelf.services import annotations, papers
    from papershelf.store.db import write
    from papershelf.store.models import User

    data = tempfile.mkdtemp(prefix="papershelf-bench-feeds-")
    admin, url = None, f"sqlite:///{data}/papershelf.db"
    if store == "postgresql":
        import psycopg

        name = f"papershelf_bench_feeds_{uuid.uuid4().hex[:8]}"
        admin = psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True)
        admin.execute(f'CREATE DATABASE "{name}"')
        url = f"postgresql://postgres@127.0.0.1:5432/{name}"
    try:
        app = create_app({"DATA_DIR": data, "DATABASE_URL": url, "ARXIV_API": "off"})
        token = first_start(app)
        t = time.perf_counter()
        with app.extensions["papershelf_db"].connection_context():
            user = User.get(User.name == "me")

            def load():
                for i in range(n):
                    p, _ = papers.save_paper(user, paper(i))
                    for k in range(3):  # 30,000 notes for 10,000 papers
                        annotations.add("note", user, p.id, {"body": f"note {k} on {WORDS[i % 19]}"})

            write(load)
            if store == "postgresql":
                app.extensions["papershelf_db"].execute_sql("ANALYZE")
        print(f"[{store}] {n} papers with {3 * n} notes loaded in {time.perf_counter() - t:.1f} s")
        tune_gc()
        client = app.test_client()
        h = {"Authorization": f"Bearer {token}"}
        feed = client.post("/api/feeds", json={"format": "bibtex"}, headers=h).json

        def timed(path, headers=None):
            t = time.perf_counter()
            with client.get(path, headers=headers or {}) as r:
                body = r.get_data()
            return (time.perf_counter() - t) * 1000, r, body

        full_ms, first, body = timed(feed["path"])
        etag = first.headers["ETag"]
        export_ms, _, export_body = timed("/api/export?format=bibtex", h)
        assert body == export_body, "a feed answers the export's bytes"
        not_modified = []
        for _ in range(repeat):
            ms, r, empty = timed(feed["path"], {"If-None-Match": etag})
            assert r.status_code == 304 and empty == b""
            not_modified.append(ms)
        with app.extensions["papershelf_db"].connection_context():
            annotations.add("note", User.get(User.name == "me"), 1, {"body": "a change"})
        changed_ms, r, _ = timed(feed["path"], {"If-None-Match": etag})
        assert r.status_code == 200 and r.headers["ETag"] != etag
        tracemalloc.start()
        timed(feed["path"])
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        p50, p95 = statistics.median(not_modified), pct(not_modified, 95)
        print(f"[{store}] unchanged feed, 304: p50 {p50:.2f} ms  p95 {p95:.2f} ms  "
              f"(bar ≤ {BAR_304_MS:.0f} ms: {'ok' if p95 <= BAR_304_MS else 'OVER'})")
        print(f"[{store}] full feed {full_ms:.0f} ms, GET /api/export {export_ms:.0f} ms "
              f"(ratio {full_ms / export_ms:.2f}); after a change {changed_ms:.0f} ms; "
              f"{len(body) / 1e6:.1f} MB, peak memory while streaming {peak / 1e6:.1f} MB")
        db = app.extensions["papershelf_db"]
        if hasattr(db, "close_all"):
            db.close_all()
    finally:
        if admin is not None:
            admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                          "WHERE datname = %s", (url.rsplit("/", 1)[1],))
            admin.execute(f'DROP DATABASE IF EXISTS "{url.rsplit("/", 1)[1]}"')
            admin.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--papers", type=int, default=10_000)
    ap.add_argument("--store", choices=["sqlite", "postgresql", "both"], default="both")
    ap.add_argument("--repeat", type=int, default=200)
    args = ap.parse_args()
    for store in (["sqlite", "postgresql"] if args.store == "both" else [args.store]):
        run(store, args.papers, args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
