"""The README's pictures are made, not drawn: docs/make_pictures.py takes each of them in Chromium
with the extension against a real server, at 1280×800 and at most 300 kB, and every picture the
README and docs/ show is one it makes (and is committed)."""

import importlib.util
import re
import struct

import pytest

from conftest import ROOT

pytestmark = pytest.mark.browser

MOST_BYTES = 300_000


def _script():
    spec = importlib.util.spec_from_file_location("make_pictures", ROOT / "docs" / "make_pictures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _png_size(path):
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path.name} is no PNG"
    return struct.unpack(">II", head[16:24])


def _pictures_shown():
    texts = [(ROOT / "README.md").read_text(encoding="utf-8")]
    texts += [p.read_text(encoding="utf-8") for p in sorted((ROOT / "docs").glob("*.md"))]
    return set(re.findall(r"img/([\w-]+\.png)", "\n".join(texts)))


def test_the_pictures_script_makes_every_picture_the_docs_show(playwright_driver, tmp_path):
    made = _script().make(tmp_path / "img")
    assert {p.name for p in made} == _pictures_shown()
    for path in made:
        assert _png_size(path) == (1280, 800), path.name
        assert path.stat().st_size <= MOST_BYTES, f"{path.name}: {path.stat().st_size} bytes"
        committed = ROOT / "docs" / "img" / path.name
        assert committed.exists() and committed.stat().st_size <= MOST_BYTES, committed
