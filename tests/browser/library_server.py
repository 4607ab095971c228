"""Fixtures for the library page's browser tests: a real `papershelf serve` on a free loopback port
with a temporary data dir, Debian's Chromium driven by Playwright (no extension: the library works
without it), and a page that records every dialog, console error and uncaught exception.

Test modules import the fixtures by name: ``from library_server import chromium, library, page``.
"""

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from tests._require import require_or_skip

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LibraryServer:
    """`papershelf serve` as a child process, with a few API helpers for seeding data."""

    def __init__(self, data_dir: Path):
        self.data_dir = data_dir
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = data_dir.parent / "serve.log"
        self.proc = None

    def start(self, timeout=30):
        env = {**os.environ, "PAPERSHELF_ARXIV_API": "off"}
        env.pop("PAPERSHELF_DATA_DIR", None)
        env.pop("PAPERSHELF_DATABASE_URL", None)
        with open(self.log, "a") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "papershelf", "serve", "--host", "127.0.0.1",
                 "--port", str(self.port), "--data-dir", str(self.data_dir)],
                env=env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"papershelf serve exited:\n{self.log.read_text()}")
            try:
                if self.call("GET", "/api/health", auth=False)[0] == 200:
                    return self
            except OSError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"papershelf serve did not answer:\n{self.log.read_text()}")

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    @property
    def token(self) -> str:
        return (self.data_dir / "token").read_text().strip()

    def call(self, method, path, body=None, *, auth=True, token=None):
        """(status, JSON or None) of one API call with the bearer token."""
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method)
        if body is not None:
            req.add_header("Content-Type", "application/json")
        if auth:
            req.add_header("Authorization", f"Bearer {token or self.token}")
        try:
            with urllib.request.urlopen(req, timeout=10) as resp:
                raw = resp.read()
                return resp.status, (json.loads(raw) if raw else None)
        except urllib.error.HTTPError as e:
            raw = e.read()
            try:
                return e.code, (json.loads(raw) if raw else None)
            except ValueError:
                return e.code, None

    def ok(self, method, path, body=None):
        status, answer = self.call(method, path, body)
        assert 200 <= status < 300, (status, answer)
        return answer

    def save(self, **fields):
        return self.ok("POST", "/api/papers", fields)

    def note(self, paper_id, body):
        return self.ok("POST", f"/api/papers/{paper_id}/notes", {"body": body})

    def highlight(self, paper, exact, color="yellow", comment=""):
        text = " ".join(paper["abstract"].split())
        start = len(text[: text.index(exact)].encode("utf-16-le")) // 2
        end = start + len(exact.encode("utf-16-le")) // 2
        return self.ok("POST", f"/api/papers/{paper['id']}/highlights",
                       {"exact": exact, "start": start, "end": end, "color": color,
                        "comment": comment})

    def new_user_token(self, name: str) -> str:
        out = subprocess.run(
            [sys.executable, "-m", "papershelf", "token", "create", "--user", name,
             "--data-dir", str(self.data_dir)],
            env={**os.environ, "PAPERSHELF_ARXIV_API": "off"}, capture_output=True, text=True,
            check=True)
        return [w for w in out.stdout.split() if w.startswith("ps_")][0]


class Watched:
    """A Playwright page plus what went wrong on it: dialogs opened, console errors, exceptions."""

    def __init__(self, page):
        self.page = page
        self.problems = []
        page.on("dialog", self._dialog)
        page.on("console", self._console)
        page.on("pageerror", lambda e: self.problems.append(f"exception: {e}"))

    def _dialog(self, dialog):
        self.problems.append(f"dialog: {dialog.type} {dialog.message}")
        dialog.dismiss()

    def _console(self, msg):
        if msg.type in ("error", "warning") and "Password forms should" not in msg.text:
            self.problems.append(f"console {msg.type}: {msg.text}")


def sign_in(page, server, token=None):
    page.goto(server.base + "/")
    page.fill("#token", token or server.token)
    page.click("form.signin-card button[type=submit]")
    page.wait_for_url(server.base + "/")


@pytest.fixture(scope="module")
def chromium():
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if not path:
        require_or_skip("browser", "Debian's chromium is not installed (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        require_or_skip("browser", "playwright (PyPI) is not installed")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, headless=True, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def library(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    server = LibraryServer(data).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def page(chromium, library):
    """A fresh browser context (no cookies) and page on the library server, watched for trouble."""
    context = chromium.new_context(accept_downloads=True, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(10000)

    # The page must never reach outside this machine. A pattern (not a Python predicate) keeps the
    # matching in the browser, so requests do not wait on this process while a test sleeps.
    context.route(re.compile(r"^(?!" + re.escape(library.base) + r"/)"), lambda route: route.abort())
    watched = Watched(context.new_page())
    try:
        yield watched
    finally:
        context.close()
