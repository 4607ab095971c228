"""One look: the extension's pages and the library share one theme file, with the variables,
buttons and message styles every page uses, light and dark."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXTENSION_THEME = ROOT / "extension" / "lib" / "theme.css"
SERVER_THEME = ROOT / "server" / "papershelf" / "web" / "static" / "theme.css"

VARIABLES = ["--ps-font", "--ps-size-s", "--ps-size-m", "--ps-size-l", "--ps-size-xl",
             "--ps-space-1", "--ps-space-2", "--ps-space-3", "--ps-space-4", "--ps-fg", "--ps-bg",
             "--ps-muted", "--ps-border", "--ps-accent", "--ps-ok", "--ps-err", "--ps-warn",
             "--ps-radius"]
CLASSES = [".ps-btn", ".ps-btn-primary", ".ps-btn-danger", ".ps-msg-ok", ".ps-msg-err",
           ".ps-msg-progress"]
COLOURS = ["--ps-fg", "--ps-bg", "--ps-muted", "--ps-border", "--ps-accent", "--ps-ok",
           "--ps-err", "--ps-warn"]


def _declared(css: str) -> dict:
    return dict(re.findall(r"(--ps-[a-z0-9-]+)\s*:\s*([^;]+);", css))


def test_the_library_and_the_extension_serve_the_same_bytes():
    if not SERVER_THEME.exists():
        pytest.skip("the library's copy is not there yet")
    assert SERVER_THEME.read_bytes() == EXTENSION_THEME.read_bytes(), (
        "server/papershelf/web/static/theme.css and extension/lib/theme.css differ: one look, "
        "one file")


def test_the_theme_declares_every_variable_and_class():
    css = EXTENSION_THEME.read_text(encoding="utf-8")
    light = css.split("@media")[0]
    assert set(_declared(light)) >= set(VARIABLES)
    for name in CLASSES:
        assert re.search(re.escape(name) + r"[\s,{:]", css), name


def test_dark_mode_changes_every_colour_in_the_same_file():
    css = EXTENSION_THEME.read_text(encoding="utf-8")
    light, _, dark = css.partition("@media (prefers-color-scheme: dark)")
    assert dark, "no dark mode"
    dark_block = dark[: dark.index("}\n}") + 1]
    light_values, dark_values = _declared(light), _declared(dark_block)
    assert set(dark_values) >= set(COLOURS)
    for name in COLOURS:
        assert dark_values[name] != light_values[name], name


@pytest.mark.parametrize("page", ["options/options.html", "popup/popup.html", "panel/panel.html"])
def test_each_extension_page_uses_the_theme(page):
    html = (ROOT / "extension" / page).read_text(encoding="utf-8")
    assert '<link rel="stylesheet" href="../lib/theme.css">' in html
    own_css = (ROOT / "extension" / page).with_suffix(".css").read_text(encoding="utf-8")
    # one type scale and one set of colours: the page's own sheet names no size or colour
    assert not re.search(r"#[0-9a-fA-F]{3,8}\b", own_css), f"{page}: a colour of its own"
    assert not re.search(r"font(-size)?:[^;]*\d+px", own_css), f"{page}: a font size of its own"
