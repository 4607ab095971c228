"""Debian's Firefox ESR driven over Marionette, for the browser tests: a fresh profile (loopback
only, no telemetry, updates or first-run pages) whose every request for another host goes to
the fixture sites (sites.py: the pages at their real https URLs, over TLS with a certificate the
profile is made to trust), and the extension installed as a temporary add-on with a fixed
moz-extension UUID.

``FirefoxPage`` offers the few calls a flow test needs (goto, click, type, a real pointer drag,
evaluate, frames, screenshot), shaped as Playwright's, so a flow can be written once
(drivers.py); ``Firefox.background`` runs a function in the extension's background page.
"""

import json
import os
import re
import shutil
import socket
import subprocess
import time
import uuid
import warnings
from pathlib import Path

from sites import FIXTURE_HOSTS

ADDON_ID = "papershelf@papershelf.invalid"  # manifest.json browser_specific_settings.gecko.id
# The add-on's moz-extension UUID, fixed by the profile's extensions.webextensions.uuids so that
# the tests know its pages' URLs. Each later install in the same browser gets the next UUID of
# this series (set in that pref before it installs): Firefox does not load the pages of an add-on
# reinstalled under the UUID it just gave up, and a new origin starts with empty storage.
ADDON_UUID = "5e6f2b1c-7a3d-4c8e-9b10-2f4a6d8c0e11"


def addon_uuid(install):
    """The UUID of the add-on's `install`-th install (0: the profile's)."""
    return ADDON_UUID if install == 0 else str(uuid.uuid5(uuid.UUID(ADDON_UUID), str(install)))


def marionette_driver():
    """The marionette_driver package (ImportError when it is not installed). Its mozinfo calls a
    deprecated function of `distro` as it is imported: not ours to fix, so not an error here."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        import marionette_driver.addons
        import marionette_driver.errors
        import marionette_driver.marionette

    return marionette_driver


def firefox_binary():
    """Debian's firefox-esr (or a `firefox` on PATH), or None."""
    return shutil.which("firefox-esr") or shutil.which("firefox")


def firefox_version(binary):
    """(major, minor) of the binary's `--version` ("Mozilla Firefox 153.8.0esr")."""
    out = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=60).stdout
    found = re.search(r"(\d+)\.(\d+)", out)
    if not found:
        raise RuntimeError(f"cannot read the version of {binary}: {out!r}")
    return int(found.group(1)), int(found.group(2))


# ---- the profile ----


def profile_prefs(marionette_port, proxy_port, download_dir):
    """user.js: Marionette on its port (0: a free one the system gives, which Firefox writes to
    the profile's MarionetteActivePort), the add-on's UUID, the fixture hosts on loopback through
    the proxy, and nothing that calls out (telemetry, updates, first-run, safe browsing…)."""
    local = ",".join(FIXTURE_HOSTS)
    return {
        "marionette.port": marionette_port,
        "extensions.webextensions.uuids": json.dumps({ADDON_ID: addon_uuid(0)}),
        "network.dns.localDomains": local,
        # Every http(s) request but those to loopback goes to the suite's proxy, which is the
        # fixture sites and refuses the rest: nothing leaves the machine, not even a DNS query.
        "network.proxy.type": 1,
        "network.proxy.ssl": "127.0.0.1",
        "network.proxy.ssl_port": proxy_port,
        "network.proxy.http": "127.0.0.1",
        "network.proxy.http_port": proxy_port,
        "network.proxy.share_proxy_settings": False,
        "network.proxy.no_proxies_on": "127.0.0.0/8, localhost, [::1]",
        "network.proxy.allow_hijacking_localhost": False,
        "network.trr.mode": 5,
        "network.dns.disablePrefetch": True,
        "network.prefetch-next": False,
        "network.http.speculative-parallel-limit": 0,
        "network.captive-portal-service.enabled": False,
        "network.connectivity-service.enabled": False,
        "datareporting.policy.dataSubmissionEnabled": False,
        "datareporting.healthreport.uploadEnabled": False,
        "toolkit.telemetry.enabled": False,
        "toolkit.telemetry.unified": False,
        "toolkit.telemetry.server": "",
        "toolkit.telemetry.archive.enabled": False,
        "app.normandy.enabled": False,
        "messaging-system.rsexperimentloader.enabled": False,
        "browser.backup.scheduled.enabled": False,
        "app.shield.optoutstudies.enabled": False,
        "app.update.disabledForTesting": True,
        "app.update.auto": False,
        "extensions.update.enabled": False,
        "extensions.getAddons.cache.enabled": False,
        "extensions.blocklist.enabled": False,
        "extensions.systemAddon.update.enabled": False,
        "services.settings.server": "data:,#remote-settings-off",
        "browser.safebrowsing.malware.enabled": False,
        "browser.safebrowsing.phishing.enabled": False,
        "browser.safebrowsing.downloads.enabled": False,
        "browser.safebrowsing.blockedURIs.enabled": False,
        "browser.shell.checkDefaultBrowser": False,
        "browser.startup.page": 0,
        "browser.startup.homepage": "about:blank",
        "browser.startup.homepage_override.mstone": "ignore",
        "startup.homepage_welcome_url": "about:blank",
        "startup.homepage_welcome_url.additional": "",
        "browser.aboutwelcome.enabled": False,
        "browser.newtabpage.enabled": False,
        "browser.newtabpage.activity-stream.feeds.system.topstories": False,
        "browser.newtabpage.activity-stream.feeds.telemetry": False,
        "browser.topsites.contile.enabled": False,
        "browser.region.network.url": "",
        "browser.search.geoSpecificDefaults": False,
        "geo.provider.network.url": "",
        "media.gmp-manager.url": "",
        "media.gmp-gmpopenh264.enabled": False,
        "browser.ping-centre.telemetry": False,
        "security.OCSP.enabled": 0,
        "security.remote_settings.crlite_filters.enabled": False,
        "extensions.webextensions.restrictedDomains": "",
        # The background page is an event page: a test may wrap its handlers, as the Chromium
        # tests do in a service worker the driver keeps alive; keep it alive as long.
        "extensions.background.idle.timeout": 600000,
        "layout.css.devPixelsPerPx": "1.0",
        "browser.download.dir": str(download_dir),
        "browser.download.folderList": 2,
        "browser.download.useDownloadDir": True,
        "browser.download.always_ask_before_handling_new_types": False,
        "browser.download.panel.shown": True,
        "browser.tabs.warnOnClose": False,
        "browser.warnOnQuit": False,
        "dom.disable_open_during_load": False,
    }


def write_profile(directory, prefs):
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    lines = [f"user_pref({json.dumps(k)}, {json.dumps(v)});" for k, v in prefs.items()]
    (d / "user.js").write_text("\n".join(lines) + "\n")
    return d


# ---- the browser ----


# Deep queries: the extension's highlight toolbar lives in an open shadow root, which Playwright's
# CSS engine pierces; these do the same in Firefox.
_DEEP = """
const deepAll = (sel, root = document) => {
  const out = [...root.querySelectorAll(sel)];
  for (const el of root.querySelectorAll('*')) if (el.shadowRoot) out.push(...deepAll(sel, el.shadowRoot));
  return out;
};
"""

# Key names (as Playwright's keyboard.press takes them) to WebDriver key codes.
_KEYS = {"Enter": "\ue007", "Escape": "\ue00c", "Tab": "\ue004", "Shift": "\ue008",
         "Control": "\ue009", "Alt": "\ue00a", "Meta": "\ue03d", "End": "\ue010",
         "Home": "\ue011", "ArrowLeft": "\ue012", "ArrowUp": "\ue013", "ArrowRight": "\ue014",
         "ArrowDown": "\ue015", "Backspace": "\ue003", "Delete": "\ue017", " ": " "}


class Firefox:
    """One headless Firefox over Marionette; install_extension() adds the extension."""

    def __init__(self, binary, workdir, sites, ca_der_b64, width=1280, height=900):
        Marionette = marionette_driver().marionette.Marionette

        self.workdir = Path(workdir)
        self.downloads = self.workdir / "downloads"
        self.downloads.mkdir(parents=True, exist_ok=True)
        self.sites = sites
        # Port 0: Firefox takes a free port itself and names it in the profile, so no other
        # process can take it between a choice made here and Firefox's bind, seconds later.
        self.profile = write_profile(self.workdir / "profile",
                                     profile_prefs(0, sites.port, self.downloads))
        (self.profile / "MarionetteActivePort").unlink(missing_ok=True)
        self.log_path = self.workdir / "firefox.log"
        env = {**os.environ, "MOZ_HEADLESS": "1", "MOZ_CRASHREPORTER_DISABLE": "1"}
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(
                [binary, "--headless", "--marionette", "--remote-allow-system-access",
                 "--no-remote", "--new-instance", "--profile", str(self.profile), "about:blank"],
                stdout=log, stderr=subprocess.STDOUT, env=env)
        self.m = None
        try:
            port = self._wait_for_port(timeout=120)
            self.m = Marionette(host="127.0.0.1", port=port, startup_timeout=120)
            self.m.start_session({"strictFileInteractability": True, "pageLoadStrategy": "normal",
                                  "timeouts": {"script": 60000, "pageLoad": 60000, "implicit": 0}})
            self.m.set_window_rect(width=width, height=height)
            self._trust(ca_der_b64)
        except BaseException:
            self.quit()
            raise
        self.main_handle = self.m.current_window_handle
        self.pages = []
        self._helper = None  # the extension page the background is reached through
        self.installs = 0
        self.extension_base = None

    def _wait_for_port(self, timeout):
        """Marionette's port once it listens there (marionette_driver's own wait leaks a socket
        per try): the one Firefox wrote to the profile's MarionetteActivePort."""
        active = self.profile / "MarionetteActivePort"
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"Firefox exited ({self.proc.returncode}): {self.output[-2000:]}")
            written = active.read_text().strip() if active.exists() else ""
            if written.isdigit():
                with socket.socket() as s:
                    s.settimeout(1)
                    if s.connect_ex(("127.0.0.1", int(written))) == 0:
                        return int(written)
            time.sleep(0.2)
        raise RuntimeError(f"Marionette did not listen: {self.output[-2000:]}")

    def _trust(self, der_b64):
        """The suite's CA as a trusted root of this profile's certificate store (as a user's
        "Import… / Trust this CA to identify websites")."""
        with self.m.using_context("chrome"):
            self.m.execute_script("""
                const db = Cc["@mozilla.org/security/x509certdb;1"].getService(Ci.nsIX509CertDB);
                db.addCertFromBase64(arguments[0], "C,,");
            """, script_args=[der_b64])

    # -- the extension --

    def install_extension(self, path):
        """Install `path` (the extension folder, or a built zip) as a temporary add-on."""
        self._helper = None
        uid = addon_uuid(self.installs)
        if self.installs:
            self.m.set_pref("extensions.webextensions.uuids", json.dumps({ADDON_ID: uid}))
        self.installs += 1
        addon = marionette_driver().addons.Addons(self.m).install(str(path), temp=True)
        assert addon == ADDON_ID, addon
        self.extension_base = f"moz-extension://{uid}/"
        return addon

    def uninstall_extension(self):
        """Remove the add-on (and so its storage); its tabs close with it."""
        self._helper = None
        self.extension_base = None
        marionette_driver().addons.Addons(self.m).uninstall(ADDON_ID)

    def stop_background(self):
        """Stop the background page, as Firefox does to an idle event page (it starts again on
        the next event: a message, a port, an alarm)."""
        self._helper = None  # its getBackgroundPage() window is gone with it
        with self.m.using_context("chrome"):
            return self.m.execute_script("""
                const {ExtensionParent} = ChromeUtils.importESModule(
                    "resource://gre/modules/ExtensionParent.sys.mjs");
                const ext = ExtensionParent.GlobalManager.getExtension(arguments[0]);
                return ext.terminateBackground().then(() => ext.backgroundState);
            """, script_args=[ADDON_ID])

    def extension_url(self, path=""):
        assert self.extension_base, "the extension is not installed"
        return self.extension_base + path.lstrip("/")

    def background(self, fn, arg=None):
        """Run `fn` (a JavaScript function's source, as for Playwright's evaluate) with the
        background page's globals in scope (papershelf, chrome…), and return its value. The
        background is reached from an extension page of its own, kept in a tab that is never
        selected (runtime.getBackgroundPage(), which also wakes a suspended event page)."""
        if self._helper is None or not self._helper.alive():
            self._helper = self.new_page(focus=False, track=False)
            self._helper.goto(self.extension_url("options/options.html"))
        return self._helper.evaluate(_BACKGROUND_RUN, [fn, arg])

    # -- pages --

    def new_page(self, focus=True, track=True):
        handle = self.m.open(type="tab", focus=focus)["handle"]
        page = FirefoxPage(self, handle)
        if focus:
            page.bring_to_front()
        if track:
            self.pages.append(page)
        return page

    def reset(self):
        """Back to one blank tab: every page the tests opened is closed."""
        for handle in self.m.window_handles:
            if handle != self.main_handle:
                self.m.switch_to_window(handle, focus=False)
                self.m.close()
        self.pages = []
        self._helper = None
        self.m.switch_to_window(self.main_handle)
        self.m.navigate("about:blank")

    def clipboard_text(self):
        """The system clipboard's text, read in the browser's chrome (as a paste would be)."""
        with self.m.using_context("chrome"):
            return self.m.execute_script("""
                const t = Cc["@mozilla.org/widget/transferable;1"].createInstance(Ci.nsITransferable);
                t.init(null);
                t.addDataFlavor("text/plain");
                Services.clipboard.getData(t, Ci.nsIClipboard.kGlobalClipboard,
                                           window.browsingContext.currentWindowContext);
                const out = {};
                try { t.getTransferData("text/plain", out); } catch (e) { return null; }
                return out.value.QueryInterface(Ci.nsISupportsString).data;
            """)

    def quit(self):
        try:
            if self.m is not None and self.m.session:
                self.m.delete_session()
        except Exception:  # noqa: BLE001 (the process is ended below in any case)
            pass
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=20)

    @property
    def output(self):
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""


# The background page's globals in scope (`with`), so that a function written for a service
# worker's global scope (papershelf.handlers, chrome.storage…) runs unchanged in Firefox's
# background page; what it stores on a global name it finds there (papershelf.handlers.x) stays.
# A new global (globalThis.x = …) is put on the background page explicitly.
_BACKGROUND_RUN = """async ([src, arg]) => {
    const bg = await browser.runtime.getBackgroundPage();
    const scope = new Proxy(bg, {
        has: () => true,
        get: (t, k) => k === Symbol.unscopables ? undefined : (k === 'globalThis' ? bg : t[k]),
        set: (t, k, v) => { t[k] = v; return true; },
    });
    const fn = new Function('scope', 'with (scope) { return (' + src + '); }')(scope);
    return await fn(arg);
}"""


class FirefoxPage:
    """A tab (or a frame in it), with the calls flow tests make, named as Playwright's where they
    overlap. Every input (click, keys, pointer) is Marionette's, which the page sees as trusted
    events, as a user's."""

    default_timeout = 20.0

    def __init__(self, browser, handle, frame_selector=None, parent=None):
        self.browser = browser
        self.m = browser.m
        self.handle = handle
        self.frame_selector = frame_selector
        self.parent = parent
        self.closed = False

    # -- where commands go --

    def _focus(self):
        if self.m.window != self.handle:
            self.m.switch_to_window(self.handle, focus=False)
        self.m.switch_to_frame()
        if self.frame_selector:
            el = self.m.execute_script(_DEEP + "return deepAll(arguments[0])[0] || null;",
                                       script_args=[self.frame_selector], sandbox=None)
            if el is None:
                raise LookupError(f"no frame {self.frame_selector}")
            self.m.switch_to_frame(el)

    def frame(self, selector):
        """The document of the iframe `selector` (Playwright's frame_locator)."""
        return FirefoxPage(self.browser, self.handle, selector, parent=self)

    def alive(self):
        return not self.closed and self.handle in self.m.window_handles

    def bring_to_front(self):
        self.m.switch_to_window(self.handle, focus=True)

    def close(self):
        if self.closed:
            return
        self.closed = True
        if self.handle in self.m.window_handles:
            self.m.switch_to_window(self.handle, focus=False)
            self.m.close()
        self.m.switch_to_window(self.browser.main_handle, focus=False)

    # -- navigation --

    def goto(self, url):
        self._focus()
        self.m.navigate(url)

    def reload(self):
        self._focus()
        self.m.refresh()

    @property
    def url(self):
        self._focus()
        return self.m.get_url()

    # -- scripts --

    def evaluate(self, fn, arg=None):
        """Call `fn` (a function's source) with `arg` in the page's own world (it sees the page's
        globals, as Playwright's evaluate does; on an extension page, the extension's APIs) and
        return its value, awaited."""
        self._focus()
        return self.m.execute_script(
            "const [src, arg] = arguments; return (new Function('return (' + src + ')'))()(arg);",
            script_args=[fn, arg], sandbox=None)

    def wait_for_function(self, fn, arg=None, timeout=None):
        """Until `fn(arg)` is truthy in the page (its value). A page between two documents, or a
        function that throws because what it reads is not there yet, is tried again."""
        errors = marionette_driver().errors
        deadline = time.monotonic() + (timeout or self.default_timeout)
        last_error = None
        while True:
            try:
                value = self.evaluate(fn, arg)
            except (errors.JavascriptException, errors.NoSuchFrameException,
                    errors.NoSuchWindowException, LookupError) as err:
                value, last_error = None, err
            if value:
                return value
            if time.monotonic() > deadline:
                said = f" (last: {str(last_error).splitlines()[0]})" if last_error else ""
                raise AssertionError(f"timed out waiting for {fn.strip()[:200]}{said}")
            time.sleep(0.1)

    def _element(self, selector, nth=0):
        self._focus()
        el = self.m.execute_script(
            _DEEP + "const all = deepAll(arguments[0]); return all[arguments[1]] || null;",
            script_args=[selector, nth], sandbox=None)
        if el is None:
            raise LookupError(f"nothing matches {selector!r} (#{nth})")
        return el

    # -- the DOM, by CSS selector (open shadow roots included) --

    def wait_for(self, selector, timeout=None, visible=False):
        """Wait until `selector` matches (and, `visible`, is rendered)."""
        self.wait_for_function(
            "([sel, visible]) => {" + _DEEP + """
                return deepAll(sel).some(e => !visible || e.getClientRects().length > 0); }""",
            [selector, visible], timeout)

    def count(self, selector):
        return self.evaluate("(sel) => {" + _DEEP + " return deepAll(sel).length; }", selector)

    def text(self, selector, nth=0):
        """The element's rendered text (Playwright's inner_text)."""
        return self._element(selector, nth).text

    def attr(self, selector, name, nth=0):
        return self.evaluate(
            "([sel, name, nth]) => {" + _DEEP + " const e = deepAll(sel)[nth];"
            " if (!e) throw new Error('nothing matches ' + sel); return e.getAttribute(name); }",
            [selector, name, nth])

    def content(self):
        self._focus()
        return self.m.page_source

    # -- input: Marionette's, trusted --

    def click(self, selector, nth=0):
        self._element(selector, nth).click()

    def fill(self, selector, text):
        el = self._element(selector)
        el.clear()
        el.send_keys(text)

    def focus(self, selector, nth=0):
        self.evaluate("([sel, nth]) => {" + _DEEP + " deepAll(sel)[nth].focus(); }", [selector, nth])

    def type(self, text):
        """Type `text` into whatever has focus."""
        self._focus()
        seq = self.m.actions.sequence("key", "keyboard")
        seq.send_keys(text).perform()

    def press(self, combo):
        """A key or a chord, "Control+Enter", "Alt+Shift+S" (as Playwright's keyboard.press)."""
        self._focus()
        keys = [_KEYS.get(k, k.lower() if len(k) == 1 else k) for k in combo.split("+")]
        seq = self.m.actions.sequence("key", "keyboard")
        for k in keys:
            seq.key_down(k)
        for k in reversed(keys):
            seq.key_up(k)
        seq.perform()
        self.m.actions.release()

    def mouse_move(self, x, y):
        self._focus()
        self.m.actions.sequence("pointer", "mouse", {"pointerType": "mouse"}).pointer_move(
            int(x), int(y)).perform()

    def hover(self, selector, nth=0):
        self._focus()
        el = self._element(selector, nth)
        self.m.actions.sequence("pointer", "mouse", {"pointerType": "mouse"}).pointer_move(
            0, 0, origin=el).perform()

    def drag(self, start, end, steps_ms=150):
        """Press the mouse at `start` (x, y in the viewport), move to `end`, release: a user's
        drag, which selects text."""
        self._focus()
        (x0, y0), (x1, y1) = start, end
        seq = self.m.actions.sequence("pointer", "mouse", {"pointerType": "mouse"})
        seq.pointer_move(int(x0), int(y0)).pointer_down().pointer_move(
            int(x1), int(y1), duration=steps_ms).pointer_up().perform()

    def screenshot(self, path):
        self._focus()
        Path(path).write_bytes(self.m.screenshot(format="binary", full=False))
        return path
