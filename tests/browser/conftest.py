"""Real-browser fixtures: Debian's Chromium with the unpacked extension, the fixture pages served at
their real URLs (alphaxiv.org, arxiv.org) by Playwright routing, and a real `papershelf serve`
process on a free loopback port with a temporary data dir. Nothing is mocked: the extension's
background worker talks HTTP to the real server.

Firefox too (`firefox`, one Firefox ESR per run over Marionette, tests/browser/firefox.py), with
the same pages served over TLS by a loopback proxy (tests/browser/sites.py); `ext` yields either
browser behind one surface (tests/browser/drivers.py), so that a flow test runs in both.

Without Chromium (or Playwright) the tests skip, or fail when CI sets PAPERSHELF_REQUIRE=browser;
without Firefox ESR (or marionette-driver), likewise with PAPERSHELF_REQUIRE=firefox.
"""

import contextlib
import json
import shutil
import time
from pathlib import Path
from urllib.parse import urlparse

import pytest
from tests._require import require_or_skip

from papershelf.testing import (  # noqa: F401 (free_port: for tests)
    ServerProcess,
    call,
    chromium_args_with,
    free_port,
)

ROOT = Path(__file__).resolve().parents[2]
EXTENSION = ROOT / "extension"
PAGES = ROOT / "tests" / "fixtures" / "pages"
TOPIC_URL = "https://www.alphaxiv.org/topics/llm-agent-training"
LIST_URL = "https://www.alphaxiv.org/topics/llm-agent-training?view=list"
LATE_URL = "https://www.alphaxiv.org/topics/llm-agent-training?late=1"


def expected_papers():
    return json.loads((PAGES / "papers.json").read_text())


def wait_until(predicate, timeout=10.0, what="condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def wait_saved(page, arxiv_id):
    page.wait_for_selector(
        f'[data-papershelf-paper="{arxiv_id}"] [data-papershelf-action="save"][aria-pressed="true"]')


# The server's answers to lookups held in the worker until the test lets them go (a slow
# network): a lookup asked as the page loads is answered "not saved" by the server, and that
# answer reaches the page only after a Save clicked meanwhile. lookupsHeld counts the answers
# held; releaseLookups() lets them go, and every later one passes at once.
HOLD_LOOKUP_ANSWERS = """() => {
    const original = globalThis.fetch;
    let release;
    const released = new Promise((resolve) => { release = resolve; });
    globalThis.lookupsHeld = 0;
    globalThis.releaseLookups = release;
    globalThis.fetch = async (input, init) => {
        const response = await original(input, init);
        const url = new URL(typeof input === "string" ? input : input.url);
        if (url.pathname === "/api/papers/lookup") {
            globalThis.lookupsHeld += 1;
            await released;
        }
        return response;
    };
}"""


def notes_frame(page):
    """The notes panel: an extension page in the page's frame (its document is not the page's)."""
    return page.frame_locator("iframe[data-papershelf-frame]")


def note_shown(frame, text, timeout=20000):
    """Wait for the notes panel to list a note with `text`; else fail with what the panel says
    (its message under the note box: "Queued…", an error) and the notes it lists."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        frame.locator("[data-papershelf-note-body]", has_text=text).wait_for(timeout=timeout)
    except PlaywrightTimeout:
        said = frame.locator("#note-msg").inner_text(timeout=2000)
        listed = frame.locator("[data-papershelf-note-body]").all_inner_texts()
        raise AssertionError(f"the panel shows no note {text!r}: it says {said!r}, "
                             f"lists {listed!r}") from None


def open_notes(page, arxiv_id):
    """Click Note on the paper (a trusted click, as a user's) and wait for its panel to be ready."""
    page.locator(f'[data-papershelf-paper="{arxiv_id}"]').first.locator(
        '[data-papershelf-action="note"]').click()
    frame = notes_frame(page)
    frame.locator("textarea[data-papershelf-note-input]").wait_for()
    return frame


class Server(ServerProcess):
    """`papershelf serve` as a child process (papershelf.testing); stop() and start() again keep its
    port and data dir. Adds the calls these tests make."""

    def call(self, method, path, body=None):
        return call(self.base, method, path, self.token, body)

    def papers(self):
        status, body = self.call("GET", "/api/papers?limit=200")
        assert status == 200, body
        return body["items"]


@pytest.fixture(params=["sqlite", "postgresql"])
def server(request, tmp_path):
    """The server the extension talks to, on each store (PostgreSQL: this run's database, emptied;
    skipped, or failed under PAPERSHELF_REQUIRE, where there is none)."""
    data = tmp_path / "data"
    data.mkdir()
    env = {}
    if request.param == "postgresql":
        env = {"PAPERSHELF_DATABASE_URL": request.getfixturevalue("empty_pg")}
    s = Server(data, env=env).start(timeout=30)
    yield s
    s.stop()


def _route_page(route):
    """Serve the fixture page that stands for this URL; anything else outside loopback: 404."""
    url = urlparse(route.request.url)
    host = url.hostname or ""
    name = None
    if host.endswith("alphaxiv.org"):
        if url.path.startswith("/topics/"):
            name = "topic_list.html" if "view=list" in url.query else (
                "topic_cards_late.html" if "late=1" in url.query else "topic_cards.html")
        elif url.path.startswith(("/abs/", "/overview/")):
            name = "alphaxiv_paper.html"
    elif host == "arxiv.org":
        if url.path.startswith("/abs/"):
            name = "arxiv_abs.html"
        elif url.path.startswith("/list/"):
            name = "arxiv_list.html"
        elif url.path.startswith("/html/"):  # arXiv's HTML view: version 2 has small edits
            name = "arxiv_html_v2.html" if url.path.rstrip("/").endswith("v2") else "arxiv_html_v1.html"
        elif url.path.startswith("/pdf/"):
            route.fulfill(status=200, content_type="application/pdf",
                          body=(PAGES / "paper.pdf").read_bytes())
            return
    if name and route.request.resource_type == "document":
        route.fulfill(status=200, content_type="text/html; charset=utf-8",
                      body=(PAGES / name).read_text())
    else:
        route.fulfill(status=404, content_type="text/plain", body="not in the fixtures")


def _require_browser():
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        require_or_skip("browser", "Debian's chromium is not installed (apt-get install chromium)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        require_or_skip("browser", "playwright (PyPI) is not installed")
    return chromium


# The module's Playwright driver (`playwright_driver`), while one runs: a start costs seconds,
# and a thread has one sync Playwright at a time, so every launch in the module goes through it.
_running = {}


@contextlib.contextmanager
def _playwright():
    """The module's running Playwright driver, or one just for this `with`."""
    if _running.get("driver") is not None:
        yield _running["driver"]
        return
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="module")
def playwright_driver():
    """Playwright's driver, started once for the module. Each test still gets a browser (or a
    context) of its own; module scope, not the run's, because a running sync Playwright holds an
    event loop on this thread that code of the other tests (asyncio.run) must not meet."""
    _require_browser()
    with _playwright() as p:
        _running["driver"] = p
        try:
            yield p
        finally:
            _running["driver"] = None


@contextlib.contextmanager
def chromium_with(extension: Path, profile: Path):
    """A persistent Chromium context with `extension` loaded and the fixture pages routed;
    yields (context, service worker)."""
    chromium = _require_browser()

    with _playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(profile),
            executable_path=chromium,
            headless=True,
            args=chromium_args_with(extension),
            viewport={"width": 1280, "height": 900},
        )
        # A wait is a wait, not a speed bar (bench/page.py measures speed): 20 s, so a loaded
        # 2-core machine does not fail a step that a quiet one does in 50 ms.
        context.set_default_timeout(20000)
        for pattern in ("https://www.alphaxiv.org/**", "https://alphaxiv.org/**",
                        "https://arxiv.org/**"):
            context.route(pattern, _route_page)
        # The extension's worker registers at startup; on a busy 2-core machine that can be slow.
        sw = context.service_workers[0] if context.service_workers else context.wait_for_event(
            "serviceworker", timeout=45000)
        try:
            yield context, sw
        finally:
            context.close()


@pytest.fixture
def browser(tmp_path, playwright_driver):
    """A persistent Chromium context with the extension loaded; yields (context, service worker)."""
    with chromium_with(EXTENSION, tmp_path / "profile") as launched:
        yield launched


@pytest.fixture
def connected(browser, server):
    """Browser and server, with the extension's options set to this server and its token."""
    context, sw = browser
    sw.evaluate("([serverUrl, token]) => chrome.storage.local.set({serverUrl, token})",
                [server.base, server.token])
    return context, sw, server


# ---- Firefox (tests/browser/firefox.py), and both browsers behind one surface (drivers.py) ----


def _require_firefox():
    """firefox-esr at least the manifest's strict_min_version, marionette-driver and openssl, or a
    skip (a fail under PAPERSHELF_REQUIRE=firefox) saying which is missing."""
    import firefox

    binary = firefox.firefox_binary()
    if not binary:
        require_or_skip("firefox", "Firefox is not installed (apt-get install firefox-esr)")
    gecko = json.loads((EXTENSION / "manifest.json").read_text())[
        "browser_specific_settings"]["gecko"]
    least = tuple(int(x) for x in gecko["strict_min_version"].split(".")[:2])
    have = firefox.firefox_version(binary)
    if have < least:
        require_or_skip("firefox", f"{binary} is Firefox {have[0]}.{have[1]}, below the manifest's "
                        f"strict_min_version {gecko['strict_min_version']}")
    try:
        firefox.marionette_driver()
    except ImportError:
        require_or_skip("firefox", "marionette-driver (PyPI) is not installed")
    if not shutil.which("openssl"):
        require_or_skip("firefox", "openssl is not installed (it makes the fixture sites' certificate)")
    return binary


@pytest.fixture(scope="session")
def firefox_session(tmp_path_factory):
    """One headless Firefox for the whole run (a start costs seconds), serving the fixture pages
    over TLS at their real URLs; each test gets the extension freshly installed (`firefox`)."""
    binary = _require_firefox()
    import firefox
    import sites as fixture_sites

    work = tmp_path_factory.mktemp("firefox")
    certs = fixture_sites.make_certificates(work / "tls")
    sites = fixture_sites.FixtureSites(_route_page, certs)
    try:
        browser = firefox.Firefox(binary, work, sites, certs["ca_der_b64"])
    except BaseException:
        sites.close()
        raise
    yield browser
    browser.quit()
    sites.close()


@pytest.fixture
def firefox(firefox_session):
    """Firefox with the unpacked extension just installed (a temporary add-on: nothing of the last
    test's storage, tabs or background state is left)."""
    firefox_session.install_extension(EXTENSION)
    try:
        yield firefox_session
    finally:
        firefox_session.reset()
        firefox_session.sites.reset()
        firefox_session.uninstall_extension()


@pytest.fixture(params=["chromium", "firefox"])
def ext(request):
    """The browser with the extension, as drivers.py's one surface: each flow test that takes it
    runs in Chromium and in Firefox (a module may narrow the list with an indirect parametrize)."""
    import drivers

    if request.param == "chromium":
        return drivers.ChromiumExtension(*request.getfixturevalue("browser"))
    return drivers.FirefoxExtension(request.getfixturevalue("firefox"))


@pytest.fixture
def ext_connected(ext, server):
    """`ext` with its options set to this server and its token: (ext, server)."""
    ext.background("([serverUrl, token]) => chrome.storage.local.set({serverUrl, token})",
                   [server.base, server.token])
    return ext, server
