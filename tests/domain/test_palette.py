"""The highlight palette: domain.palette answers tests/shared/palette.json, and is the only place
on the server that lists the colours."""

import json
import re
from pathlib import Path

import pytest

from papershelf.domain import palette

SHARED = json.loads((Path(__file__).parents[1] / "shared" / "palette.json").read_text("utf-8"))
SERVER = Path(palette.__file__).parents[1]


def test_palette_follows_the_shared_vector():
    assert palette.NAMES == tuple(c["name"] for c in SHARED["colors"])
    assert palette.DEFAULT == SHARED["default"]
    assert palette.BACKGROUNDS == {c["name"]: c["background"] for c in SHARED["colors"]}


def _server_files():
    return [p for p in sorted(SERVER.rglob("*"))
            if p.is_file() and p.suffix in (".py", ".css", ".html", ".js", ".json", ".svg")
            and p != Path(palette.__file__)]


def test_no_other_server_file_lists_a_palette_colour():
    """Neither a background (#fde68a) nor the names in a row ("yellow", "green")."""
    listing = re.compile("|".join([*palette.BACKGROUNDS.values(), r"\W+".join(palette.NAMES[:2])]),
                         re.IGNORECASE)
    found = [(str(p.relative_to(SERVER)), m.group()) for p in _server_files()
             if (m := listing.search(p.read_text("utf-8")))]
    assert found == []


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_library_page_paints_highlights_from_the_palette(client):
    page = client.get("/signin").get_data(as_text=True)
    assert '<link rel="stylesheet" href="/palette.css">' in page
    r = client.get("/palette.css")
    assert r.status_code == 200 and r.mimetype == "text/css"
    css = r.get_data(as_text=True)
    for name, background in palette.BACKGROUNDS.items():
        assert f"--hl-{name}: {background};" in css
        assert f".hl-{name} {{ background: var(--hl-{name}); }}" in css
