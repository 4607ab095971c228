"""Fixtures for the library page's browser tests: a real `papershelf serve` on a free loopback port
with a temporary data dir, Debian's Chromium driven by Playwright (no extension: the library works
without it), and a page that records every dialog, console error and uncaught exception.

Test modules import the fixtures by name: ``from library_server import chromium, library, page``.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import _require_browser
from papershelf.testing import CHROMIUM_ARGS, ServerProcess, call


class LibraryServer(ServerProcess):
    """`papershelf serve` as a child process, with a few API helpers for seeding data."""

    def __init__(self, data_dir: Path):
        super().__init__(data_dir, env={"PAPERSHELF_DATA_DIR": "", "PAPERSHELF_DATABASE_URL": ""})
        self.data_dir = Path(data_dir)

    def call(self, method, path, body=None, *, auth=True, token=None):
        """(status, JSON or None) of one API call with the bearer token."""
        return call(self.base, method, path, (token or self.token) if auth else None, body,
                    timeout=10)

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
def chromium(playwright_driver):
    path = _require_browser()
    browser = playwright_driver.chromium.launch(executable_path=path, headless=True,
                                                args=CHROMIUM_ARGS)
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
