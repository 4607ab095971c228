"""One small surface over both browsers, so that a flow test is written once and run in Chromium
(Playwright) and Firefox (Marionette): the `ext` fixture (conftest) yields an ExtensionBrowser,
whose pages offer goto, click, fill, keys, a real pointer drag, evaluate, frames and screenshots
by CSS selector (open shadow roots included, as Playwright's CSS does).

A test parametrized over browsers takes `ext`; the flows written for Chromium alone keep their
Playwright fixtures (`browser`, `connected`).
"""

from pathlib import Path

# ---- Chromium: Playwright's page behind the same calls ----


class ChromiumPage:
    def __init__(self, page, frame_selector=None):
        self.page = page
        self.frame_selector = frame_selector
        self._root = page.frame_locator(frame_selector) if frame_selector else page

    def _locator(self, selector, nth=0):
        return self._root.locator(selector).nth(nth)

    def frame(self, selector):
        return ChromiumPage(self.page, selector)

    def goto(self, url):
        self.page.goto(url)

    def reload(self):
        self.page.reload()

    @property
    def url(self):
        return self.page.url

    def evaluate(self, fn, arg=None):
        if self.frame_selector:
            return self._root.locator(":root").evaluate(f"(_root, arg) => ({fn})(arg)", arg)
        return self.page.evaluate(fn, arg)

    def wait_for_function(self, fn, arg=None, timeout=None):
        if self.frame_selector:
            from conftest import wait_until

            return wait_until(lambda: self.evaluate(fn, arg), timeout=timeout or 20, what=fn[:200])
        return self.page.wait_for_function(
            fn, arg=arg, timeout=(timeout or 20) * 1000).json_value()

    def wait_for(self, selector, timeout=None, visible=False):
        self._locator(selector).wait_for(state="visible" if visible else "attached",
                                         timeout=(timeout or 20) * 1000)

    def count(self, selector):
        return self._root.locator(selector).count()

    def text(self, selector, nth=0):
        return self._locator(selector, nth).inner_text()

    def attr(self, selector, name, nth=0):
        return self._locator(selector, nth).get_attribute(name)

    def content(self):
        return self.page.content()

    def click(self, selector, nth=0):
        self._locator(selector, nth).click()

    def fill(self, selector, text):
        self._locator(selector).fill(text)

    def focus(self, selector, nth=0):
        self._locator(selector, nth).focus()

    def type(self, text):
        self.page.keyboard.type(text)

    def press(self, combo):
        self.page.keyboard.press(combo)

    def mouse_move(self, x, y):
        self.page.mouse.move(x, y)

    def hover(self, selector, nth=0):
        self._locator(selector, nth).hover()

    def drag(self, start, end, steps_ms=150):
        self.page.mouse.move(*start)
        self.page.mouse.down()
        self.page.mouse.move(*end, steps=max(2, steps_ms // 16))
        self.page.mouse.up()

    def bring_to_front(self):
        self.page.bring_to_front()

    def close(self):
        self.page.close()

    def screenshot(self, path):
        self.page.screenshot(path=str(path))
        return path


class ChromiumExtension:
    """Chromium with the unpacked extension (conftest's `browser` fixture) as an ExtensionBrowser."""

    name = "chromium"

    def __init__(self, context, worker):
        self.context = context
        self.worker = worker
        self.extension_id = worker.url.split("/")[2]

    def extension_url(self, path=""):
        return f"chrome-extension://{self.extension_id}/{path.lstrip('/')}"

    def new_page(self):
        return ChromiumPage(self.context.new_page())

    def background(self, fn, arg=None):
        return self.worker.evaluate(fn, arg)

    def add_init_script(self, script):
        self.context.add_init_script(script)

    def serve(self, url, html, content_type="text/html; charset=utf-8"):
        """Answer `url` with `html` (a page of the test's own, or bytes of `content_type`) from now on."""
        self.context.route(url, lambda route: route.fulfill(
            status=200, content_type=content_type, body=html))

    def clipboard_text(self):
        page = self.context.new_page()
        try:
            page.goto("https://arxiv.org/abs/clipboard-reader")
            self.context.grant_permissions(["clipboard-read"], origin="https://arxiv.org")
            return page.evaluate("() => navigator.clipboard.readText()")
        finally:
            page.close()


# ---- Firefox: tests/browser/firefox.py behind the same calls ----


class FirefoxExtension:
    """Firefox (one per session, tests/browser/firefox.py) with the extension freshly installed."""

    name = "firefox"

    def __init__(self, firefox):
        self.firefox = firefox

    def extension_url(self, path=""):
        return self.firefox.extension_url(path)

    def new_page(self):
        return self.firefox.new_page()

    def background(self, fn, arg=None):
        return self.firefox.background(fn, arg)

    def add_init_script(self, script):
        self.firefox.sites.page_scripts.append(script)

    def serve(self, url, html, content_type="text/html; charset=utf-8"):
        self.firefox.sites.overrides[url] = (content_type, html)

    def clipboard_text(self):
        return self.firefox.clipboard_text()


# ---- what flow tests do the same way in both ----


SELECTION_RECTS = """([container, quote]) => {
    const root = document.querySelector(container);
    if (!root) throw new Error('no ' + container);
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        if (n.parentElement.closest('[data-papershelf-ui]')) continue;
        const i = n.data.indexOf(quote);
        if (i < 0) continue;
        n.parentElement.scrollIntoView({block: 'center'});
        const first = document.createRange();
        first.setStart(n, i); first.setEnd(n, i + 1);
        const last = document.createRange();
        last.setStart(n, i + quote.length - 1); last.setEnd(n, i + quote.length);
        const a = first.getClientRects()[0], b = [...last.getClientRects()].pop();
        return [[a.left + 1, a.top + a.height / 2], [b.right - 1, b.top + b.height / 2]];
    }
    throw new Error('quote not found: ' + quote);
}"""


def drag_select(page, container, quote):
    """Select `quote` inside the first `container` the way a user does: press the mouse on its
    first letter, drag to its last, release. Returns the selected text."""
    start, end = page.evaluate(SELECTION_RECTS, [container, quote])
    page.drag(start, end)
    return page.evaluate("() => getSelection().toString()")


def save_screenshot(page, directory, name):
    path = Path(directory) / f"{name}.png"
    page.screenshot(path)
    return path
