"""The HTTP layer's own error classes: real classes named as they are imported, each answering
its status and code in the one error shape."""

import inspect

import pytest

from papershelf.http import errors
from tests.test_errors_and_security import assert_error

# name -> (status, code): the error map as docs/http-api.md states it.
EXPECTED = {
    "BadRequest": (400, "bad_request"),
    "Unauthorized": (401, "unauthorized"),
    "Forbidden": (403, "forbidden"),
    "PayloadTooLarge": (413, "payload_too_large"),
    "UnsupportedMediaType": (415, "unsupported_media_type"),
    "ValidationFailed": (422, "validation_error"),
    "RateLimited": (429, "rate_limited"),
}


def _error_classes() -> dict[str, type]:
    return {name: obj for name, obj in vars(errors).items()
            if inspect.isclass(obj) and issubclass(obj, errors.APIError)
            and obj is not errors.APIError}


def test_every_error_class_is_one_of_the_map():
    assert set(_error_classes()) == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_an_error_class_is_named_as_it_is_imported(name):
    cls = getattr(errors, name)
    assert (cls.__name__, cls.__qualname__, cls.__module__) == (name, name, errors.__name__)
    assert (cls.status, cls.code) == EXPECTED[name]
    assert errors.CODES[cls.status] == cls.code


def test_each_error_class_answers_its_status_and_code(app, alice):
    raised = {}

    def raise_it(name):
        raised[name] = True
        raise getattr(errors, name)()

    app.add_url_rule("/api/raise/<name>", view_func=raise_it)
    client = app.test_client()
    for name, (status, code) in EXPECTED.items():
        r = client.get(f"/api/raise/{name}", headers=alice)
        assert_error(r, status, code)
        assert r.json["error"]["message"] == getattr(errors, name).message
    assert set(raised) == set(EXPECTED)


def test_an_error_keeps_its_own_message_fields_and_headers(app, alice):
    def refuse():
        raise errors.RateLimited("slow down", fields={"token": ["wrong"]},
                                 headers={"Retry-After": "60"})

    app.add_url_rule("/api/raise-with-details", view_func=refuse)
    r = app.test_client().get("/api/raise-with-details", headers=alice)
    assert_error(r, 429, "rate_limited")
    assert r.json["error"] == {"code": "rate_limited", "message": "slow down",
                               "fields": {"token": ["wrong"]}}
    assert r.headers["Retry-After"] == "60"
