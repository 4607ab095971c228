"""Fault drills shared by tests/test_faults.py (short) and bench/faults.py (the full 2,000 saves)."""

import http.client
import json
import sqlite3
import threading
from pathlib import Path

from tests.live import ServerProcess, call


def _paper(n: int) -> dict:
    return {"arxiv_id": f"2604.{10000 + n:05d}", "title": f"Crash drill paper {n}",
            "authors": ["Ada Lovelace"], "abstract": "Saved while the server dies. " * 20}


def kill_during_saves(data_dir, total: int, kill_after: int, clients: int = 4, env=None) -> dict:
    """Save ``total`` papers from ``clients`` threads; SIGKILL the server once ``kill_after`` saves
    were acknowledged; restart it and check every acknowledged save is there, once."""
    server = ServerProcess(data_dir, env=env).start()
    token = server.token
    acked, lock, killed = set(), threading.Lock(), threading.Event()

    def client(k):
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        try:
            save_all(k, conn)
        finally:
            conn.close()

    def save_all(k, conn):
        for n in range(k, total, clients):
            if killed.is_set():
                return
            try:
                conn.request("POST", "/api/papers", json.dumps(_paper(n)),
                             {"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
                resp = conn.getresponse()
                resp.read()
            except (OSError, http.client.HTTPException):
                return  # the server is gone: this save was never acknowledged
            if resp.status in (200, 201):
                with lock:
                    acked.add(_paper(n)["arxiv_id"])
                    if len(acked) >= kill_after and not killed.is_set():
                        killed.set()
                        server.kill()

    threads = [threading.Thread(target=client, args=(k,)) for k in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    server.kill()

    with ServerProcess(data_dir, port=server.port, env=env) as again:
        stored, cursor = [], None
        while True:
            path = "/api/papers?limit=200" + (f"&cursor={cursor}" if cursor else "")
            status, page = call(again.base, "GET", path, token)
            assert status == 200, page
            stored += [p["arxiv_id"] for p in page["items"]]
            cursor = page["next_cursor"]
            if not cursor:
                break
        status, after = call(again.base, "POST", "/api/papers", token, _paper(total + 1))
        assert status == 201, after
    integrity = None
    db_file = Path(data_dir) / "papershelf.db"
    if db_file.exists() and not (env or {}).get("PAPERSHELF_DATABASE_URL"):
        con = sqlite3.connect(db_file)
        integrity = con.execute("PRAGMA integrity_check").fetchone()[0]
        con.close()
    return {
        "acknowledged": len(acked),
        "stored": len(stored),
        "lost": sorted(acked - set(stored)),
        "duplicates": len(stored) - len(set(stored)),
        "integrity": integrity,
    }
