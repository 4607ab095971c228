"""Imports beside everyone else: how long another user's save waits while one user imports a
large file, and how an import's own time grows when many of its papers share a base key.

    python bench/imports.py [--store sqlite|postgresql|both] [--papers 20000] [--sizes 1000,4000,16000]

1. A real `papershelf serve` (a child process, waitress) on a new store. The user ``me`` imports
   a BibTeX file of ``--papers`` papers, once through ``POST /api/import`` and once with the
   ``papershelf import`` command beside the running server (its own process, as a user runs it);
   meanwhile the user ``other`` saves a paper through the API every 50 ms. Printed: other's save
   latency (p50, p95, max, from the client), its errors, and the import's time. The bar: max
   ≤ 1 s, no error.
2. In process: imports of N CSL-JSON items that all make the key ``smith2020deep`` (no ids), N in
   ``--sizes`` on a new store each; printed: seconds, per-paper microseconds, and the per-paper
   ratio to the smallest N (linear growth keeps it near 1; the quadratic key choice was 3.1 from
   1k to 2k and 4.4 from 2k to 4k).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


class Store:
    """A new store: a SQLite file in ``data`` or a PostgreSQL database of its own."""

    def __init__(self, kind: str, data: str):
        self.kind, self.name = kind, None
        self.url = f"sqlite:///{data}/papershelf.db"
        if kind == "postgresql":
            import psycopg

            self.name = f"papershelf_bench_imports_{uuid.uuid4().hex[:8]}"
            with psycopg.connect(ADMIN, autocommit=True) as admin:
                admin.execute(f'CREATE DATABASE "{self.name}"')
            self.url = ADMIN.rsplit("/", 1)[0] + "/" + self.name

    def drop(self):
        if self.name:
            import psycopg

            with psycopg.connect(ADMIN, autocommit=True) as admin:
                admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                              "WHERE datname = %s", (self.name,))
                admin.execute(f'DROP DATABASE IF EXISTS "{self.name}"')


def bibtex_file(n: int, offset: int) -> str:
    out = []
    for i in range(offset, offset + n):
        out.append(f"@misc{{paper{i},\n  title = {{Asynchronous {{RL}} for agents, part {i}}},\n"
                   f"  author = {{Jiang, Shuli and Zhang, Yi and others}},\n  year = {{2026}},\n"
                   f"  eprint = {{{2601 + i // 90000:04d}.{10000 + i % 90000:05d}}},\n"
                   f"  archivePrefix = {{arXiv}},\n  abstract = {{Long-horizon agents {i}.}}\n}}\n")
    return "\n".join(out)


def saves_during(base: str, token: str, busy: threading.Event, tag: str) -> tuple[list, list]:
    from papershelf.testing import call

    latencies, errors, i = [], [], 0
    while not busy.is_set():
        time.sleep(0.005)
    while busy.is_set():
        t = time.perf_counter()
        try:
            status, body = call(base, "POST", "/api/papers", token,
                                {"title": f"Other's paper {tag} {i}", "arxiv_id": None,
                                 "url": f"https://example.org/{tag}/{i}"}, timeout=60)
        except OSError as e:
            status, body = None, str(e)
        latencies.append(time.perf_counter() - t)
        if status != 201:
            errors.append((status, str(body)[:200]))
        i += 1
        time.sleep(0.05)
    return latencies, errors


def report(label: str, seconds: float, latencies: list, errors: list) -> None:
    ms = [x * 1000 for x in latencies]
    print(f"  {label}: import {seconds:.1f} s; other user's {len(ms)} saves meanwhile: "
          f"p50 {statistics.median(ms):.1f} ms, p95 {pct(ms, 95):.1f} ms, max {max(ms):.1f} ms; "
          f"errors {len(errors)}" + (f" {errors[:3]}" if errors else ""))


def beside_a_server(kind: str, n: int) -> None:
    from papershelf.testing import ServerProcess

    data = tempfile.mkdtemp(prefix="papershelf-bench-imports-")
    store = Store(kind, data)
    env = {"PAPERSHELF_DATABASE_URL": store.url, "PAPERSHELF_DATA_DIR": data}
    try:
        with ServerProcess(data, env=env) as server:
            other = subprocess.run(
                [sys.executable, "-m", "papershelf", "token", "create", "--user", "other",
                 "--data-dir", data], env={**os.environ, **env}, capture_output=True, text=True,
                check=True).stdout.strip().split()[-1]
            for how, offset in (("POST /api/import", 0), ("papershelf import (CLI)", n)):
                path = Path(data) / f"refs-{offset}.bib"
                path.write_text(bibtex_file(n, offset), encoding="utf-8")
                busy, result = threading.Event(), {}

                def save(busy=busy, result=result, tag=str(offset)):
                    result["lat"], result["err"] = saves_during(server.base, other, busy, tag)

                saver = threading.Thread(target=save)
                saver.start()
                busy.set()
                t = time.perf_counter()
                if how.startswith("POST"):
                    import urllib.request

                    req = urllib.request.Request(
                        server.base + "/api/import?format=bibtex", data=path.read_bytes(),
                        method="POST", headers={"Authorization": f"Bearer {server.token}",
                                                "Content-Type": "application/x-bibtex"})
                    with urllib.request.urlopen(req, timeout=3600) as r:
                        answer = json.loads(r.read())
                else:
                    done = subprocess.run(
                        [sys.executable, "-m", "papershelf", "import", str(path),
                         "--data-dir", data], env={**os.environ, **env, "NO_COLOR": "1"},
                        capture_output=True, text=True)
                    if done.returncode != 0:
                        raise RuntimeError(done.stderr[-500:])
                    answer = {"created": n}
                seconds = time.perf_counter() - t
                busy.clear()
                saver.join()
                assert answer["created"] == n, answer
                report(f"[{kind}] {how}, {n:,} papers", seconds, result["lat"], result["err"])
    finally:
        store.drop()


def same_key(kind: str, sizes: list[int]) -> None:
    from papershelf.app import create_app
    from papershelf.services import auth, transfer

    per_paper = {}
    for n in sizes:
        data = tempfile.mkdtemp(prefix="papershelf-bench-keys-")
        store = Store(kind, data)
        try:
            app = create_app({"DATA_DIR": data, "DATABASE_URL": store.url, "ARXIV_API": "off"})
            items = [{"type": "article-journal", "title": f"Deep learning, study {i}",
                      "author": [{"family": "Smith", "given": "Ann"}],
                      "issued": {"date-parts": [[2020]]}} for i in range(n)]
            text = json.dumps(items)
            with app.extensions["papershelf_db"].connection_context():
                user = auth.get_or_create_user("me")
                t = time.perf_counter()
                answer = transfer.import_file(user, text, "csljson")
                seconds = time.perf_counter() - t
            assert answer["created"] == n, answer
            per_paper[n] = seconds / n
            database = app.extensions["papershelf_db"]
            if hasattr(database, "close_all"):
                database.close_all()
        finally:
            store.drop()
        first = per_paper[sizes[0]]
        print(f"  [{kind}] {n:>6,} papers sharing the key smith2020deep: {seconds:6.2f} s, "
              f"{per_paper[n] * 1e6:7.0f} µs/paper, ratio to {sizes[0]:,}: "
              f"{per_paper[n] / first:.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--store", choices=("sqlite", "postgresql", "both"), default="both")
    ap.add_argument("--papers", type=int, default=20_000)
    ap.add_argument("--sizes", default="1000,4000,16000")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    stores = ("sqlite", "postgresql") if args.store == "both" else (args.store,)
    print(f"another user's save while one user imports {args.papers:,} papers (bar: max ≤ 1000 ms)")
    for kind in stores:
        beside_a_server(kind, args.papers)
    print("an import's time as papers sharing one base key grow (linear: ratio near 1)")
    for kind in stores:
        same_key(kind, sizes)


if __name__ == "__main__":
    main()
