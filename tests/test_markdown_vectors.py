"""The library's Markdown rule, as tests/shared/markdown.json states it for both renderers: the
library page's (render.py) here, the extension's (lib/markdown.js) in tests/extension."""

import json
from html.parser import HTMLParser
from pathlib import Path

import pytest

from papershelf.web.render import render_markdown

CASES = json.loads((Path(__file__).parent / "shared" / "markdown.json").read_text("utf-8"))["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_the_library_renders_each_note_as_the_vectors_say(case):
    assert str(render_markdown(case["source"])) == case["html"]


class _Elements(HTMLParser):
    def __init__(self):
        super().__init__()
        self.seen = []

    def handle_starttag(self, tag, attrs):
        self.seen.append((tag, dict(attrs)))


def test_the_vectors_hold_hostile_notes_and_none_gets_through():
    hostile = [c for c in CASES if "javascript" in c["source"].lower() or "<script" in c["source"]]
    assert len(hostile) >= 4
    for c in CASES:
        parser = _Elements()
        parser.feed(c["html"])
        for tag, attrs in parser.seen:
            assert tag not in {"script", "style", "img", "iframe", "div"}, c["name"]
            assert not any(name.startswith("on") for name in attrs), c["name"]
            assert attrs.get("href") is None or attrs["href"].lower().startswith("http"), c["name"]
