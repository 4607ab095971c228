"""API benchmark: save latency, save throughput with 16 clients against a bare Flask endpoint,
page lookup of 600 arXiv ids and of 600 mixed identities (DOIs, PDF addresses, arXiv ids) and
full-text search with 10,000 papers stored. SQLite and PostgreSQL.

    python bench/api.py                       # both stores
    python bench/api.py --store sqlite --papers 10000
    python bench/api.py --store postgresql --lookup-only   # the lookup and search part alone

The lookup includes group information: the user is in a group ("Lab") with "bob", who saved
and shared a fifth of the same papers (a third of them with a note and a highlight), so the
answer also says "Saved by bob · Lab" and carries bob's highlights. On PostgreSQL a lookup keeps
what it read of each paper by the paper's version (store.page_cache), so the same page asked
again costs the query that finds its papers and their versions; the page's first lookup in a
process (nothing kept: a server just started) is reported too.

Servers run as separate processes exactly as a user starts them (`papershelf serve`, waitress,
8 threads). Two references are served by waitress the same way: a bare Flask endpoint that parses
the body and answers (bench/_bare_app.py), and the floor of a durable, searchable save: token
check, one INSERT with the same unique indexes, the full-text row, COMMIT, written directly with
sqlite3 / psycopg and nothing else (bench/_floor_app.py).
"""

import argparse
import http.client
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

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "server"))  # the package, also when it is not installed

from papershelf.testing import ServerProcess, free_port, settle_store  # noqa: E402

THREADS = 8
ROUNDS = 3
WORDS = ("agent reinforcement language model policy reward tool planning memory retrieval "
         "benchmark critic actor verification trajectory curriculum search code web").split()


SYLLABLES = "ka lo mi nu pe ra si to vu xe ze bo".split()
# A 5,000-word vocabulary, so a query matches a realistic share of the library, not all of it.
VOCAB = [a + b + c + d for a in SYLLABLES for b in SYLLABLES for c in SYLLABLES for d in SYLLABLES
         ][:5000]


def _words(i: int, n: int) -> str:
    x, out = i * 2654435761 % 2**32, []
    for _ in range(n):
        x = (1103515245 * x + 12345) % 2**31
        out.append(VOCAB[x % len(VOCAB)] if x % 4 else WORDS[x % len(WORDS)])
    return " ".join(out)


def paper(i: int) -> dict:
    w = WORDS
    return {
        "arxiv_id": f"25{(i // 90000) % 12 + 1:02d}.{i % 90000 + 10000:05d}",
        "title": f"{w[i % 19].title()} {w[(i * 7) % 19]} for {w[(i * 3) % 19]} agents {i}",
        "authors": [f"Author{i} Last{i}", f"Second{i % 97} Person", "Third Writer"],
        "authors_more": i % 5,
        "abstract": _words(i, 150),
        "published": f"2025-{i % 12 + 1:02d}-{i % 28 + 1:02d}",
        "topics": ["LLM Agent Training", w[i % 19]],
        "affiliations": ["Some Lab"],
    }


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


class Conn:
    """One keep-alive HTTP connection."""

    def __init__(self, port, token=None):
        self.c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.h = {"Content-Type": "application/json"}
        if token:
            self.h["Authorization"] = f"Bearer {token}"

    def request(self, method, path, body=None):
        self.c.request(method, path, body=None if body is None else json.dumps(body), headers=self.h)
        r = self.c.getresponse()
        return r.status, r.read()


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def throughput(port, token, seconds, clients=16, offset=0, pid=None):
    """(requests/s, errors, server CPU ms per request) for ``clients`` keep-alive clients."""
    counts, errors, stop = [0] * clients, [], time.monotonic() + seconds
    cpu0 = cpu_seconds(pid) if pid else 0.0

    def run(n):
        conn = Conn(port, token)
        i = 0
        while time.monotonic() < stop:
            status, body = conn.request("POST", "/api/papers", paper(offset + n * 1_000_000 + i))
            i += 1
            if status in (200, 201):
                counts[n] += 1
            else:
                errors.append((status, body[:200]))

    ts = [threading.Thread(target=run, args=(n,)) for n in range(clients)]
    start = time.monotonic()
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    done = sum(counts)
    cpu = (cpu_seconds(pid) - cpu0) * 1000 / max(done, 1) if pid else float("nan")
    return done / (time.monotonic() - start), errors, cpu


def reference_server(script, *args):
    """A reference app (bench/_bare_app.py, bench/_floor_app.py) served by waitress: (proc, port)."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, str(ROOT / "bench" / script), str(port),
                             str(THREADS), *args], stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            if Conn(port).request("GET", "/api/health")[0] == 200:
                return proc, port
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"{script} did not start")


def reference_throughput(seconds, script, *args, token=None, offset=0):
    proc, port = reference_server(script, *args)
    try:
        return throughput(port, token, seconds, offset=offset, pid=proc.pid)
    finally:
        proc.terminate()
        proc.wait()


SHARED_EVERY = 5  # bob saved and shared every fifth of the user's papers


def stored_paper(i: int) -> dict:
    """A paper of the library the lookups run against: a third arXiv preprints, a third known
    by a DOI (saved from its ACM landing page), a third by an OpenReview forum."""
    p = paper(10_000_000 + i)
    if i % 3 == 1:
        del p["arxiv_id"]
        p["doi"] = f"10.5555/bench.{i}"
        p["url"] = f"https://dl.acm.org/doi/10.5555/bench.{i}"
    elif i % 3 == 2:
        del p["arxiv_id"]
        p["url"] = f"https://openreview.net/forum?id=Bench{i}"
    return p


def arxiv_lookup(n_papers: int) -> dict:
    """600 arXiv ids spread over the library's preprints."""
    ids = [paper(10_000_000 + i)["arxiv_id"] for i in range(0, n_papers, 3)]
    return {"arxiv_ids": ids[::max(1, len(ids) // 800)][:600]}  # a fifth also bob's


def mixed_lookup(n_papers: int) -> dict:
    """600 mixed keys spread over the library, each naming a stored paper in another form than
    it was saved by: arXiv ids, DOIs as identities and as the PDF's address, OpenReview PDFs."""
    body: dict = {"arxiv_ids": [], "urls": [], "ids": []}
    for i in list(range(0, n_papers, max(1, n_papers // 600)))[:600]:
        if i % 3 == 0:
            body["arxiv_ids"].append(paper(10_000_000 + i)["arxiv_id"])
        elif i % 3 == 1 and (i // 3) % 2:  # half the DOIs as identities (i is a step's multiple)
            body["ids"].append(f"DOI:https://doi.org/10.5555/BENCH.{i}")
        elif i % 3 == 1:
            body["urls"].append(f"https://dl.acm.org/doi/pdf/10.5555/bench.{i}?download=true")
        else:
            body["urls"].append(f"https://openreview.net/pdf?id=Bench{i}")
    return body


def populate(data_dir, db_url, n):
    """n papers for the user 'me' straight through the services (500 a transaction); a group
    with bob, who shared every fifth of the same papers."""
    from papershelf.app import create_app
    from papershelf.services import annotations, auth, groups, papers
    from papershelf.store.db import write
    from papershelf.store.models import User

    app = create_app({"DATA_DIR": data_dir, "DATABASE_URL": db_url, "ARXIV_API": "off"})
    with app.extensions["papershelf_db"].connection_context():
        user = User.get(User.name == "me")
        bob = auth.get_or_create_user("bob")
        lab = groups.create_group(bob, "Lab")["id"]
        groups.add_member(bob, lab, "me")
        highlight = {"exact": "agents", "start": 0, "end": 6, "color": "blue"}

        def load(start):
            for i in range(start, min(n, start + 500)):
                p, _ = papers.save_paper(user, stored_paper(i))
                if i % 3 == 0:
                    annotations.add("note", user, p.id, {"body": f"note {i} about {WORDS[i % 19]}"})
                if i % SHARED_EVERY == 0:
                    theirs, _ = papers.save_paper(bob, {**stored_paper(i), "groups": [lab]})
                    if i % 3 == 0:
                        annotations.add("note", bob, theirs.id, {"body": f"bob's note {i}"})
                        annotations.add("highlight", bob, theirs.id, highlight)

        for start in range(0, n, 500):  # a transaction's locks are few (saves lock identities)
            write(lambda start=start: load(start))
        settle_store(db_url)
    db = app.extensions["papershelf_db"]
    if hasattr(db, "close_all"):
        db.close_all()


def in_process_timings(data_dir, db_url, lookups_asked, queries, repeat):
    """Server time: the app called in-process (no network), as the bars are stated."""
    from papershelf.app import create_app, tune_gc
    from papershelf.store import page_cache
    from papershelf.store.models import ApiToken  # noqa: F401

    app = create_app({"DATA_DIR": data_dir, "DATABASE_URL": db_url, "ARXIV_API": "off"})
    tune_gc()  # as `papershelf serve` and the gunicorn workers run
    token = (Path(data_dir) / "token").read_text().strip()
    client = app.test_client()
    h = {"Authorization": f"Bearer {token}"}
    lookups: dict = {name: [] for name in lookups_asked}
    for name, body in lookups_asked.items():
        asked = [k for keys in body.values() for k in keys]
        cpu = IN_PROCESS[f"{name}_cpu"] = []
        for _ in range(repeat):
            t, c = time.perf_counter(), time.process_time()
            r = client.post("/api/papers/lookup", json=body, headers=h)
            lookups[name].append((time.perf_counter() - t) * 1000)
            cpu.append((time.process_time() - c) * 1000)  # this process's CPU (and SQLite's)
            assert r.status_code == 200, r.status_code
            assert all(k in r.json["papers"] for k in asked), "a stored paper not found"
        IN_PROCESS[f"{name}_shared"] = len(r.json["shared"])
        cold = IN_PROCESS[f"{name}_cold"] = []
        for _ in range(max(5, repeat // 3)):  # a page no lookup of this process answered yet
            page_cache.CACHE.clear()
            t = time.perf_counter()
            r = client.post("/api/papers/lookup", json=body, headers=h)
            cold.append((time.perf_counter() - t) * 1000)
            assert r.status_code == 200, r.status_code
    searches = []
    for i in range(repeat * 4):
        t = time.perf_counter()
        r = client.get("/api/papers", query_string={"q": queries[i % len(queries)]}, headers=h)
        searches.append((time.perf_counter() - t) * 1000)
        assert r.status_code == 200
    db = app.extensions["papershelf_db"]
    if hasattr(db, "close_all"):
        db.close_all()
    return lookups, searches


IN_PROCESS: dict = {}


def pg_database():
    import psycopg

    name = f"papershelf_bench_{uuid.uuid4().hex[:8]}"
    admin = psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True)
    admin.cursor().execute(f'CREATE DATABASE "{name}"')
    return admin, name, f"postgresql://postgres@127.0.0.1:5432/{name}"


def run_store(store, n_papers, seconds, lookup_only=False):
    tmp = tempfile.mkdtemp(prefix="papershelf-bench-")
    admin = None
    if store == "postgresql":
        admin, name, db_url = pg_database()
    else:
        db_url = f"sqlite:///{tmp}/papershelf.db"
    env = {"PAPERSHELF_DATABASE_URL": db_url}
    results = {}
    try:
        if lookup_only:
            with ServerProcess(tmp, env=env):  # creates the user 'me' and its token
                pass
            populate(tmp, db_url, n_papers)
            return {**lookup_timings(tmp, db_url, env, n_papers), "lookup_only": True}
        with ServerProcess(tmp, env=env, args=["--threads", str(THREADS)]) as server:
            token = server.token
            conn = Conn(server.port, token)
            lat = []
            for i in range(300):
                t = time.perf_counter()
                status, _ = conn.request("POST", "/api/papers", paper(i))
                lat.append((time.perf_counter() - t) * 1000)
                assert status == 201, status
            results["save_p50_ms"] = statistics.median(lat)
            results["save_p95_ms"] = pct(lat, 95)
            # Rounds interleave papershelf, the bare endpoint and the floor, so a machine that
            # slows down or speeds up during the run moves all three; ratios are per round and
            # the median is reported. Each round saves papers no earlier round saved.
            floor_url = db_url if store == "postgresql" else f"sqlite:///{tmp}/floor.db"
            rounds = []
            for r in range(ROUNDS):
                offset = 1000 + r * 2000
                rate, errors, cpu = throughput(server.port, token, seconds, offset=offset,
                                               pid=server.proc.pid)
                bare_rate, _, bare_cpu = reference_throughput(seconds, "_bare_app.py")
                floor_rate, floor_errors, floor_cpu = reference_throughput(
                    seconds, "_floor_app.py", floor_url, "floor-token", token="floor-token",
                    offset=offset)
                rounds.append({"save_rps": rate, "save_cpu_ms": cpu, "save_errors": errors,
                               "bare_rps": bare_rate, "bare_cpu_ms": bare_cpu,
                               "floor_rps": floor_rate, "floor_cpu_ms": floor_cpu,
                               "floor_errors": floor_errors, "ratio": rate / bare_rate,
                               "floor_ratio": floor_rate / bare_rate,
                               "of_floor": rate / floor_rate})
        results["rounds"] = rounds
        for key in ("save_rps", "save_cpu_ms", "bare_rps", "bare_cpu_ms", "floor_rps",
                    "floor_cpu_ms", "ratio", "floor_ratio", "of_floor"):
            results[key] = statistics.median(r[key] for r in rounds)
        errors = [e for r in rounds for e in r["save_errors"]]
        results["save_errors"] = len(errors)
        if errors:
            results["first_error"] = errors[0]
        results["floor_errors"] = sum(len(r["floor_errors"]) for r in rounds)
        populate(tmp, db_url, n_papers)
        results.update(lookup_timings(tmp, db_url, env, n_papers))
    finally:
        if admin is not None:
            cur = admin.cursor()
            cur.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname=%s",
                        (name,))
            cur.execute(f'DROP DATABASE IF EXISTS "{name}"')
            admin.close()
    return results


def lookup_timings(tmp, db_url, env, n_papers) -> dict:
    results = {}
    with ServerProcess(tmp, env=env) as server:
        conn = Conn(server.port, server.token)
        # 600 keys spread over the library; some papers also saved and shared by bob
        asked = {"lookup": arxiv_lookup(n_papers), "mixed": mixed_lookup(n_papers)}
        for name, body in asked.items():
            http_lookup = []
            for _ in range(30):
                t = time.perf_counter()
                status, _ = conn.request("POST", "/api/papers/lookup", body)
                http_lookup.append((time.perf_counter() - t) * 1000)
            results[f"{name}_http_p50_ms"] = statistics.median(http_lookup)
    lookups, searches = in_process_timings(
        tmp, db_url, asked, ["agent", "kalomi", "reward policy", "note memory", "Author123",
                             "verif", "zezebo tovuxe"], 30)
    for name, body in asked.items():
        results[f"{name}_ids"] = sum(len(keys) for keys in body.values())
        results[f"{name}_shared"] = IN_PROCESS.get(f"{name}_shared", 0)
        results[f"{name}_server_p50_ms"] = statistics.median(lookups[name])
        results[f"{name}_server_p95_ms"] = pct(lookups[name], 95)
        results[f"{name}_cpu_p50_ms"] = statistics.median(IN_PROCESS[f"{name}_cpu"])
        results[f"{name}_cold_p50_ms"] = statistics.median(IN_PROCESS[f"{name}_cold"])
    results["search_p50_ms"] = statistics.median(searches)
    results["search_p95_ms"] = pct(searches, 95)
    return results


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--store", choices=["sqlite", "postgresql", "both"], default="both")
    ap.add_argument("--papers", type=int, default=10_000)
    ap.add_argument("--seconds", type=float, default=6.0,
                    help="seconds each throughput measurement runs")
    ap.add_argument("--threads", type=int, default=8, help="waitress threads (all servers)")
    ap.add_argument("--rounds", type=int, default=3,
                    help="interleaved throughput rounds (papershelf, bare, floor); medians shown")
    ap.add_argument("--lookup-only", action="store_true",
                    help="only the lookup (with group information) and the search")
    args = ap.parse_args()
    global THREADS, ROUNDS
    THREADS, ROUNDS = args.threads, args.rounds
    os.environ["PAPERSHELF_ARXIV_API"] = "off"
    stores = ["sqlite", "postgresql"] if args.store == "both" else [args.store]
    for store in stores:
        r = run_store(store, args.papers, args.seconds, args.lookup_only)
        print(f"\n== {store} ({args.papers} papers stored for lookup/search) ==")
        if not r.get("lookup_only"):
            print_saves(r)
        for name, what in (("lookup", "arXiv ids"), ("mixed", "mixed identities")):
            print(f"lookup of {r[f'{name}_ids']} {what}, server time  p50 "
                  f"{r[f'{name}_server_p50_ms']:6.2f} ms   p95 {r[f'{name}_server_p95_ms']:6.2f} ms"
                  f"   (bar <= 20 ms); over HTTP p50 {r[f'{name}_http_p50_ms']:.2f} ms; "
                  f"{r[f'{name}_shared']} of them also saved by a group member (group "
                  f"information included); server process CPU p50 {r[f'{name}_cpu_p50_ms']:.2f} ms"
                  " (on a loaded machine, nearer the time it takes alone)"
                  + ("; the page's first lookup in the process (nothing kept) p50 "
                     f"{r[f'{name}_cold_p50_ms']:.2f} ms" if store == "postgresql" else ""))
        print(f"full-text search, server time   p50 {r['search_p50_ms']:6.2f} ms   "
              f"p95 {r['search_p95_ms']:6.2f} ms   (bar p95 <= 30 ms)")
        if r.get("first_error"):
            print("first error:", r["first_error"])


def print_saves(r):
    print(f"save latency, 1 client          p50 {r['save_p50_ms']:7.2f} ms   "
          f"p95 {r['save_p95_ms']:7.2f} ms   (bar p95 <= 50 ms)")
    for i, o in enumerate(r["rounds"], 1):
        print(f"  round {i}: papershelf {o['save_rps']:5.0f}, bare {o['bare_rps']:5.0f}, "
              f"floor {o['floor_rps']:5.0f} req/s -> {o['ratio']:.1%} of bare, "
              f"floor {o['floor_ratio']:.1%} of bare, papershelf {o['of_floor']:.0%} of floor")
    print(f"save throughput, 16 clients     {r['save_rps']:7.0f} req/s, {r['save_errors']} errors, "
          f"server CPU {r['save_cpu_ms']:.2f} ms/request   (medians of {len(r['rounds'])} rounds)")
    print(f"bare Flask endpoint, 16 clients {r['bare_rps']:7.0f} req/s, "
          f"server CPU {r['bare_cpu_ms']:.2f} ms/request")
    print(f"ratio                           {r['ratio']:7.2%}   (bar >= 40 %)")
    print(f"floor: minimal durable save     {r['floor_rps']:7.0f} req/s, {r['floor_errors']} errors, "
          f"server CPU {r['floor_cpu_ms']:.2f} ms/request, {r['floor_ratio']:.2%} of bare; "
          f"papershelf = {r['of_floor']:.0%} of the floor")


if __name__ == "__main__":
    main()
