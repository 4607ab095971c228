"""The installable builds: `npm run build` (scripts/build.mjs) writes one zip per browser, stamped
with the server package's version, and each zip loads and runs in its browser: the Chromium zip
unzipped and loaded unpacked, the Firefox zip installed as a temporary add-on. The options page
shows the extension's version and the server's, and says when they do not match."""

import json
import shutil
import subprocess
import tomllib
import zipfile

import pytest
from tests._require import require_or_skip

from conftest import EXTENSION, ROOT, Server, _require_browser
from papershelf.testing import chromium_args_with

VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


def test_the_extension_carries_the_server_packages_version():
    """One number: pyproject.toml's version is the server's (papershelf.__version__, /api/health)
    and the unpacked extension's, so that loading extension/ agrees with the server it ships with."""
    import papershelf

    manifest = json.loads((EXTENSION / "manifest.json").read_text())
    assert manifest["version"] == VERSION
    assert papershelf.__version__ == VERSION
    # npm's own records of the package (package.json and its lock) say the same number.
    package = json.loads((ROOT / "package.json").read_text())
    lock = json.loads((ROOT / "package-lock.json").read_text())
    assert package["version"] == lock["version"] == lock["packages"][""]["version"] == VERSION


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """`npm run build`'s zips, made into a folder of this run: {browser: path}."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if not node or not npm:
        require_or_skip("node", "node/npm not installed")
    if not (ROOT / "node_modules" / "web-ext").exists():
        require_or_skip("node", "node_modules missing: run `npm ci` at the repo top")
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run([npm, "run", "--silent", "build", "--", "--out", str(out)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    zips = {b: out / f"papershelf-{b}-{VERSION}.zip" for b in ("chromium", "firefox")}
    assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in zips.values())
    return zips


def _members(path):
    with zipfile.ZipFile(path) as z:
        assert z.testzip() is None
        return {n: z.read(n) for n in z.namelist() if not n.endswith("/")}


def test_the_build_writes_both_zips_with_the_same_files_stamped_with_the_version(built):
    chromium, firefox = _members(built["chromium"]), _members(built["firefox"])
    assert chromium == firefox, "one extension, one manifest, for both browsers"
    source = {p.relative_to(EXTENSION).as_posix() for p in EXTENSION.rglob("*") if p.is_file()}
    assert set(chromium) == source - {"README.md"}
    manifest = json.loads(chromium["manifest.json"])
    assert manifest["version"] == VERSION
    unpacked = json.loads((EXTENSION / "manifest.json").read_text())
    assert manifest == unpacked, "the build changes nothing but the version"
    for name in source - {"README.md", "manifest.json"}:
        assert chromium[name] == (EXTENSION / name).read_bytes(), name


@pytest.fixture
def sqlite_server(tmp_path):
    (tmp_path / "data").mkdir()
    s = Server(tmp_path / "data").start(timeout=30)
    yield s
    s.stop()


def _options_versions(page):
    """The options page's versions line, once it has asked the saved server: (text, warning)."""
    page.wait_for_function(
        "() => document.querySelector('#server-version').dataset.version !== undefined &&"
        " document.querySelector('#server-version').dataset.version !== ''")
    warning = page.evaluate(
        "() => { const w = document.querySelector('#version-warning');"
        " return w.hidden ? '' : w.textContent; }")
    return page.text("#versions"), warning


@pytest.mark.browser
def test_the_chromium_zip_loads_and_runs_in_chromium(built, sqlite_server, tmp_path):
    import drivers

    chromium = _require_browser()
    from playwright.sync_api import sync_playwright

    unpacked = tmp_path / "unpacked"
    with zipfile.ZipFile(built["chromium"]) as z:
        z.extractall(unpacked)
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=chromium, headless=True,
            args=chromium_args_with(unpacked))
        try:
            context.set_default_timeout(20000)
            worker = context.service_workers[0] if context.service_workers else context.wait_for_event(
                "serviceworker", timeout=45000)
            ext = drivers.ChromiumExtension(context, worker)
            assert ext.background("() => chrome.runtime.getManifest().version") == VERSION
            _check_options(ext, sqlite_server, tmp_path)
        finally:
            context.close()


@pytest.mark.browser
def test_the_firefox_zip_installs_and_runs_in_firefox(built, sqlite_server, firefox_session, tmp_path):
    import drivers

    firefox_session.install_extension(built["firefox"])
    try:
        ext = drivers.FirefoxExtension(firefox_session)
        assert ext.background("() => chrome.runtime.getManifest().version") == VERSION
        _check_options(ext, sqlite_server, tmp_path)
    finally:
        firefox_session.reset()
        firefox_session.uninstall_extension()


def _check_options(ext, server, tmp_path):
    """The extension runs: its options page opens, shows its version, connects to the server and
    shows the server's version, which agrees."""
    page = ext.new_page()
    page.goto(ext.extension_url("options/options.html"))
    page.wait_for("#extension-version")
    page.wait_for_function("() => document.querySelector('#extension-version').textContent !== ''")
    assert page.text("#extension-version") == f"Extension {VERSION}"
    page.fill("#serverUrl", server.base)
    page.fill("#token", server.token)
    page.click("#save")
    page.wait_for_function(
        "() => document.querySelector('#result').textContent.startsWith('Saved. Connected')")
    text, warning = _options_versions(page)
    assert text == f"Extension {VERSION} · server {VERSION}"
    assert warning == ""
    page.screenshot(tmp_path / f"options-{ext.name}.png")


@pytest.mark.browser
def test_an_older_extension_says_it_does_not_match_the_server(firefox_session, sqlite_server,
                                                                tmp_path):
    """An extension of another release (here the same files with an older version, as a user who
    did not update has) says so on its options page, with both numbers."""
    import drivers

    older = tmp_path / "older"
    shutil.copytree(EXTENSION, older)
    manifest = json.loads((older / "manifest.json").read_text())
    manifest["version"] = "0.0.1"
    (older / "manifest.json").write_text(json.dumps(manifest, indent=2))
    firefox_session.install_extension(older)
    try:
        ext = drivers.FirefoxExtension(firefox_session)
        ext.background("([serverUrl, token]) => chrome.storage.local.set({serverUrl, token})",
                       [sqlite_server.base, sqlite_server.token])
        page = ext.new_page()
        page.goto(ext.extension_url("options/options.html"))
        text, warning = _options_versions(page)
        assert text == f"Extension 0.0.1 · server {VERSION}"
        assert f"extension is version 0.0.1 and the server {VERSION}: they do not match" in warning
        assert page.attr("#result", "data-kind") in (None, ""), "a quiet check: no verdict shown"
        page.screenshot(tmp_path / "options-older.png")
    finally:
        firefox_session.reset()
        firefox_session.uninstall_extension()
