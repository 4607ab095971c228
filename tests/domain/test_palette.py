"""The highlight palette: domain.palette answers tests/shared/palette.json."""

import json
from pathlib import Path

from papershelf.domain import palette

SHARED = json.loads((Path(__file__).parents[1] / "shared" / "palette.json").read_text("utf-8"))


def test_palette_follows_the_shared_vector():
    assert palette.NAMES == tuple(c["name"] for c in SHARED["colors"])
    assert palette.DEFAULT == SHARED["default"]
    assert palette.BACKGROUNDS == {c["name"]: c["background"] for c in SHARED["colors"]}
