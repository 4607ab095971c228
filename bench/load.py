"""Team-scale load: two `papershelf serve` processes standing for two hosts (each with a data
dir of its own) on one PostgreSQL database, 50 clients mixing page lookups, saves, edits,
notes, searches and group shelf reads for 60 s. Prints throughput, p50/p95 per kind of request
and every error (the bar: 0 errors, no deadlock).

    python bench/load.py [--clients 50] [--seconds 60] [--papers 1000]

Five users share a group; each client is one of them. A client's mix, per step: a lookup of a
page of 200 ids (its own papers and those members shared), a save (half of them re-saves of a
paper already stored, shared to the group), a tags edit of one of its papers, a note, a
full-text search, and every tenth step the group's shelf as a reader pages it (its first page
of 50 works, then the next).
"""

import argparse
import http.client
import json
import random
import statistics
import sys
import tempfile
import threading
import time
import uuid
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "server"))  # the package, also when it is not installed

from papershelf.testing import ServerProcess  # noqa: E402

USERS = ["ana", "ben", "chen", "dana", "eli"]
WORDS = ("agent reinforcement language model policy reward tool planning memory retrieval "
         "benchmark critic actor verification trajectory curriculum search code web").split()


def paper(i: int, group: int | None = None) -> dict:
    w = WORDS
    body = {"arxiv_id": f"25{i // 90000 % 12 + 1:02d}.{i % 90000 + 10000:05d}",
            "title": f"{w[i % 19].title()} {w[(i * 7) % 19]} for {w[(i * 3) % 19]} agents {i}",
            "authors": [f"Author{i} Last{i}", "Second Person"],
            "abstract": " ".join(w[(i * k) % 19] for k in range(60)),
            "published": f"2025-{i % 12 + 1:02d}-{i % 28 + 1:02d}",
            "topics": ["LLM Agent Training"]}
    if group is not None:
        body["groups"] = [group]
    return body


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p / 100))] if values else float("nan")


class Conn:
    """One keep-alive HTTP connection."""

    def __init__(self, port, token):
        self.port = port
        self.c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.h = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}

    def request(self, method, path, body=None):
        self.c.request(method, path, body=None if body is None else json.dumps(body),
                       headers=self.h)
        r = self.c.getresponse()
        return r.status, r.read()


def prepare(db_url: str, data_dir: str, n_papers: int) -> tuple[dict, int]:
    """The users, their tokens, the group and each user's papers (a fifth shared)."""
    from papershelf.app import create_app
    from papershelf.services import auth, groups, papers
    from papershelf.store.db import write

    app = create_app({"DATA_DIR": data_dir, "DATABASE_URL": db_url, "ARXIV_API": "off"})
    tokens = {}
    with app.extensions["papershelf_db"].connection_context():
        users = {name: auth.get_or_create_user(name) for name in USERS}
        tokens = {name: auth.create_token(user, "load") for name, user in users.items()}
        lab = groups.create_group(users[USERS[0]], "Lab")["id"]
        for name in USERS[1:]:
            groups.add_member(users[USERS[0]], lab, name)

        def load():
            for k, name in enumerate(USERS):
                for i in range(n_papers):
                    n = (i * 3 + k * 7) % (n_papers * 2)  # users' libraries overlap
                    papers.save_paper(users[name], paper(n, lab if i % 5 == 0 else None))

        write(load)
        app.extensions["papershelf_db"].execute_sql("ANALYZE")
    app.extensions["papershelf_db"].close_all()
    return tokens, lab


def client_loop(k, ports, tokens, lab, n_papers, stop, stats, errors):
    name = USERS[k % len(USERS)]
    conn = Conn(ports[k % len(ports)], tokens[name])  # half the clients on each host
    rnd = random.Random(k)
    step = 0
    mine: list[int] = []

    def timed(kind, method, path, body=None):
        t = time.perf_counter()
        try:
            status, raw = conn.request(method, path, body)
        except OSError as e:
            errors.append((kind, "connection", str(e)))
            return None
        stats[kind].append((time.perf_counter() - t) * 1000)
        if status >= 400:
            errors.append((kind, status, raw[:300]))
            return None
        return json.loads(raw) if raw else {}

    while not stop.is_set():
        start = rnd.randrange(n_papers * 2 - 200)
        timed("lookup", "POST", "/api/papers/lookup",
              {"arxiv_ids": [paper(n)["arxiv_id"] for n in range(start, start + 200)]})
        n = rnd.randrange(n_papers * 2) if step % 2 else 200_000 + k * 15_000 + step
        saved = timed("save", "POST", "/api/papers", paper(n, lab if step % 3 == 0 else None))
        if saved:
            mine.append(saved["id"])
        if mine:
            pid = rnd.choice(mine)
            timed("edit", "PATCH", f"/api/papers/{pid}",
                  {"tags": [f"t{rnd.randrange(20)}", "load"]})
            timed("note", "POST", f"/api/papers/{pid}/notes", {"body": f"note {k}.{step}"})
        timed("search", "GET", f"/api/papers?q={rnd.choice(WORDS)}&limit=20")
        if step % 10 == 0:  # the shelf as a reader pages it: the first page, then the next
            shelf = timed("shelf", "GET", f"/api/groups/{lab}/papers?limit=50")
            if shelf and shelf["next_cursor"]:
                timed("shelf", "GET",
                      f"/api/groups/{lab}/papers?limit=50&cursor={shelf['next_cursor']}")
        step += 1


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--papers", type=int, default=1000, help="papers per user before the run")
    ap.add_argument("--pg", default="postgresql://postgres@127.0.0.1:5432/postgres",
                    help="a PostgreSQL server (a database is created there and dropped)")
    args = ap.parse_args()

    import psycopg

    name = f"papershelf_load_{uuid.uuid4().hex[:8]}"
    admin = psycopg.connect(args.pg, autocommit=True)
    admin.execute(f'CREATE DATABASE "{name}"')
    db_url = args.pg.rsplit("/", 1)[0] + "/" + name
    tmp = Path(tempfile.mkdtemp(prefix="papershelf-load-"))
    env = {"PAPERSHELF_DATABASE_URL": db_url, "PAPERSHELF_ARXIV_API": "off"}
    servers = []
    try:
        # The first start makes the schema (and the user "me"); then the team's data.
        with ServerProcess(tmp / "host-a", env=env):
            pass
        tokens, lab = prepare(db_url, str(tmp / "prepare"), args.papers)
        servers = [ServerProcess(tmp / host, env=env).start() for host in ("host-a", "host-b")]
        stop = threading.Event()
        stats, errors = defaultdict(list), []
        threads = [threading.Thread(target=client_loop, args=(
            k, [s.port for s in servers], tokens, lab, args.papers, stop, stats, errors))
            for k in range(args.clients)]
        started = time.perf_counter()
        for t in threads:
            t.start()
        time.sleep(args.seconds)
        stop.set()
        for t in threads:
            t.join(120)
        elapsed = time.perf_counter() - started
    finally:
        for s in servers:
            s.stop()
        deadlocks = sum(s.output.count("deadlock detected") for s in servers)
        admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
                      (name,))
        admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
        admin.close()

    total = sum(len(v) for v in stats.values())
    everything = [x for v in stats.values() for x in v]
    print(f"\n== two papershelf serve processes, one PostgreSQL, {args.clients} clients, "
          f"{elapsed:.0f} s ==")
    for kind in ("lookup", "save", "edit", "note", "search", "shelf"):
        v = stats[kind]
        print(f"{kind:7s} {len(v):6d} requests   p50 {statistics.median(v) if v else 0:7.1f} ms"
              f"   p95 {pct(v, 95):7.1f} ms")
    print(f"all     {total:6d} requests   {total / elapsed:6.1f} req/s   p50 "
          f"{statistics.median(everything):7.1f} ms   p95 {pct(everything, 95):7.1f} ms")
    print(f"errors  {len(errors)}; 'deadlock detected' in the servers' logs: {deadlocks}"
          "   (bar: 0 and 0)")
    for e in errors[:10]:
        print("  ", e)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
