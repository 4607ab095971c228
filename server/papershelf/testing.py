"""papershelf run as a user runs it, for the test suite and bench/: ``papershelf serve`` in a
child process (or the app under waitress in a thread), plain HTTP calls, and the fault drill
that kills the server in the middle of a burst of saves.

Nothing here is a stand-in: the server is the real one on a real store.
"""

import http.client
import itertools
import json
import os
import re
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

# Chromium as the tests and bench/ run it: headless in a container, nothing it calls by itself
# (updates, sync, QUIC probes), and no host name resolved but loopback's, so that nothing leaves
# the machine, not even a DNS query: a saved page's fonts, trackers and CDNs fail at once, as
# offline (a lookup sent to the network's resolver could stall a page's load event 5 s). The
# fixture pages are answered by the tests' routes before any name is resolved.
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-quic",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1, "
    "EXCLUDE 127.0.0.2",
]


def chromium_args_with(extension) -> list[str]:
    """``CHROMIUM_ARGS`` with the unpacked extension at ``extension`` loaded (and only it)."""
    return [f"--disable-extensions-except={extension}", f"--load-extension={extension}",
            *CHROMIUM_ARGS]


def settle_store(url: str) -> None:
    """After a bulk load, a PostgreSQL store as one that grew to its size is: vacuumed and
    analyzed (autovacuum would have done it many times over; its visibility map lets counts read
    indexes alone, and its planner knows the tables' sizes). Nothing to do on SQLite."""
    if url.startswith("sqlite"):
        return
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:  # VACUUM runs outside a transaction
        conn.execute("VACUUM ANALYZE")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def serve_in_thread(app, threads: int = 16):
    """The app served by waitress (as `papershelf serve` does) on a free loopback port."""
    from papershelf.serving import create_server

    server = create_server(app, host="127.0.0.1", port=0, threads=threads)
    closing = threading.Event()

    def run():
        try:
            server.run()
        except OSError:
            # Closing the sockets from this thread can wake the server's select() on a closed
            # descriptor (EBADF): that is the stop we asked for, not a failure.
            if not closing.is_set():
                raise

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}"
    finally:
        closing.set()
        server.close()
        thread.join(timeout=5)


def call(base: str, method: str, path: str, token: str | None = None, body=None, timeout=30):
    """(status, parsed JSON — or the raw bytes of an answer that is not JSON — or None)."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method)
    if body is not None:
        req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            status, raw = resp.status, resp.read()
    except urllib.error.HTTPError as e:
        with e:
            status, raw = e.code, e.read()
    if not raw:
        return status, None
    try:
        return status, json.loads(raw)
    except ValueError:
        return status, raw


_LOGS = itertools.count(1)
_SERVING = re.compile(r"serving on http://\S+:(\d+)\s")


class ServerProcess:
    """`papershelf serve` in a child process, as a user starts it."""

    def __init__(self, data_dir, port=None, env=None, args=(), data_dir_flag=True,
                 host="127.0.0.1"):
        self.data_dir = str(data_dir)
        self.host = host
        # None: the server takes any free port itself (``--port 0``) and names it, so no other
        # process can take it between a choice made here and the server's bind. Once known,
        # the port is kept: stop() and start() again serve at the same address.
        self.port = port
        self.env = {**os.environ, "PAPERSHELF_ARXIV_API": "off", **(env or {})}
        self.args = list(args)
        self.data_dir_flag = data_dir_flag  # False: the server finds its data dir by itself
        self.proc = None
        # A file, not a pipe: a chatty server can never block on a full pipe. One per
        # ServerProcess, beside its data dir; a restart appends to it.
        data = os.path.abspath(self.data_dir)
        self.log_path = os.path.join(
            os.path.dirname(data), f"serve-{os.path.basename(data)}-{os.getpid()}-{next(_LOGS)}.log")

    @property
    def base(self) -> str:
        if self.port is None:
            raise RuntimeError("the server's port is known once it started")
        return f"http://{self.host}:{self.port}"

    def start(self, timeout=20):
        """Start ``papershelf serve`` and answer once it serves: once it printed the port it
        listens on and that port answers /api/health. The printed line comes from this process
        after its bind, so an answer from some other server can never pass for it."""
        os.makedirs(os.path.dirname(self.log_path), exist_ok=True)
        with open(self.log_path, "a") as log:
            offset = log.tell()
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "papershelf", "serve", "--host", self.host,
                 "--port", str(self.port or 0),
                 *(["--data-dir", self.data_dir] if self.data_dir_flag else []), *self.args],
                env=self.env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        port = None
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"papershelf serve exited: {self._output_since(offset)}")
            port = port or self._announced_port(offset)
            try:
                if port and call(f"http://{self.host}:{port}", "GET", "/api/health",
                                 timeout=1)[0] == 200:
                    self.port = port
                    return self
            except OSError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"papershelf serve did not answer in time: {self._output_since(offset)}")

    def _announced_port(self, offset: int) -> int | None:
        """The port in this start's line 'serving on http://host:port' (None before it)."""
        found = _SERVING.search(self._output_since(offset))
        return int(found.group(1)) if found else None

    def _output_since(self, offset: int) -> str:
        """What the server printed after byte ``offset`` of its log (this start's part)."""
        try:
            with open(self.log_path, "rb") as f:
                f.seek(offset)
                return f.read().decode("utf-8", "replace")
        except FileNotFoundError:
            return ""

    @property
    def token(self) -> str:
        """The token the first start wrote (a store that was not empty got none)."""
        try:
            with open(os.path.join(self.data_dir, "token")) as f:
                return f.read().strip()
        except FileNotFoundError:
            raise RuntimeError(f"no token in {self.data_dir}: the first start writes one only on "
                               f"an empty store; the server said: {self.output[-2000:]}") from None

    def kill(self):
        """SIGKILL: no chance to clean up."""
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    @property
    def output(self) -> str:
        """What the server printed so far (every start's)."""
        return self._output_since(0)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


# ---- the fault drill (tests/test_faults.py short, bench/faults.py the full 2,000 saves) ----


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
