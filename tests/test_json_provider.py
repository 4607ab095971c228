"""The API's JSON answers (http/json_provider.py): orjson writes them, and where it cannot write
what Flask's own provider would, Flask's provider does: the same bytes either way."""

import datetime
import json
import uuid

import pytest
from flask.json.provider import DefaultJSONProvider


def _flasks(app):
    """Flask's own provider, set as the API's was before (keys in order, UTF-8 unescaped)."""
    theirs = DefaultJSONProvider(app)
    theirs.sort_keys, theirs.ensure_ascii = False, False
    return theirs


@pytest.mark.parametrize("value", [
    {"papers": {"https://doi.org/10.1/x": {"id": 1, "tags": ["RL", "naïve"], "notes": []}}},
    {"big": 2**70, "small": -(2**63)},  # past 64 bits: Flask's provider
    {1: "a key that is no string", "b": None},  # Flask's provider (it writes "1")
    {"when": datetime.datetime(2026, 12, 2, 8, 0, 0), "day": datetime.date(2026, 12, 2)},
    {"id": uuid.UUID(int=7)},  # a type only Flask's default knows
    ["τ²-Bench", "\u2028", "</script>", "\x00", 1.5, True],
])
def test_an_answer_is_what_flasks_own_provider_writes(app, value):
    with app.test_request_context():
        ours = app.json.response(value)
        expected = _flasks(app).response(value)
    assert ours.mimetype == expected.mimetype == "application/json"
    assert json.loads(ours.get_data()) == json.loads(expected.get_data())
    assert ours.get_data() == expected.get_data()


@pytest.mark.parametrize("value, error", [({"x": object()}, TypeError),
                                          ({"lone": "\ud800"}, UnicodeEncodeError)])
def test_what_no_provider_can_write_is_the_same_error_as_flasks(app, value, error):
    with app.test_request_context():
        with pytest.raises(error):
            _flasks(app).response(value)
        with pytest.raises(error):
            app.json.response(value)
