"""Real servers for tests: the app under waitress in a thread, or `papershelf serve` as a process."""

import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from contextlib import contextmanager


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def serve_in_thread(app, threads: int = 16):
    """The app served by waitress (as `papershelf serve` does) on a free loopback port."""
    from waitress.server import create_server

    server = create_server(app, host="127.0.0.1", port=0, threads=threads)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}"
    finally:
        server.close()
        thread.join(timeout=5)


def call(base: str, method: str, path: str, token: str | None = None, body=None, timeout=30):
    """(status, parsed JSON or None) of one HTTP call."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method)
    if body is not None:
        req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            raw = resp.read()
            return resp.status, (json.loads(raw) if raw else None)
    except urllib.error.HTTPError as e:
        raw = e.read()
        try:
            return e.code, json.loads(raw)
        except ValueError:
            return e.code, raw


class ServerProcess:
    """`papershelf serve` in a child process, as a user starts it."""

    def __init__(self, data_dir, port=None, env=None, args=(), data_dir_flag=True):
        self.data_dir = str(data_dir)
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, "PAPERSHELF_ARXIV_API": "off", **(env or {})}
        self.args = list(args)
        self.data_dir_flag = data_dir_flag  # False: the server finds its data dir by itself
        self.proc = None
        # A file, not a pipe: a chatty server can never block on a full pipe.
        self.log_path = os.path.join(os.path.dirname(os.path.abspath(self.data_dir)),
                                     f"serve-{self.port}.log")

    def start(self, timeout=20):
        os.makedirs(os.path.dirname(self.log_path), exist_ok=True)
        with open(self.log_path, "a") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "papershelf", "serve", "--port", str(self.port),
                 *(["--data-dir", self.data_dir] if self.data_dir_flag else []), *self.args],
                env=self.env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"papershelf serve exited: {self.output}")
            try:
                if call(self.base, "GET", "/api/health", timeout=1)[0] == 200:
                    return self
            except OSError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError("papershelf serve did not answer in time")

    @property
    def token(self) -> str:
        with open(os.path.join(self.data_dir, "token")) as f:
            return f.read().strip()

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
        """What the server printed so far."""
        try:
            with open(self.log_path) as f:
                return f.read()
        except FileNotFoundError:
            return ""

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
