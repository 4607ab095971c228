"""A paper's identities against the shared vectors (tests/shared/identities.json), which
extension/lib/identities.js runs too (tests/extension/identities.test.js)."""

import json
from pathlib import Path

import pytest

from papershelf.domain.identifiers import normalize_doi
from papershelf.domain.identities import (
    SCHEMES,
    identities_of,
    identities_of_url,
    normalize_identity,
)

VECTORS = json.loads((Path(__file__).parents[1] / "shared" / "identities.json").read_text("utf-8"))


def _cases(part):
    return [pytest.param(c, id=json.dumps(c["input"], ensure_ascii=False))
            for c in VECTORS[part]["cases"]]


def test_there_are_enough_real_addresses():
    assert len(VECTORS["urls"]["cases"]) >= 80
    assert tuple(VECTORS["schemes"]) == SCHEMES


@pytest.mark.parametrize("case", _cases("urls"))
def test_addresses_follow_the_shared_vectors(case):
    assert identities_of_url(case["input"]) == case["identities"]


@pytest.mark.parametrize("case", _cases("urls"))
def test_an_identity_of_an_address_is_its_own_form(case):
    for identity in case["identities"]:
        assert normalize_identity(identity) == identity


@pytest.mark.parametrize("case", _cases("of"))
def test_papers_follow_the_shared_vectors(case):
    given = dict(case["input"])
    given["extra_urls"] = tuple(given.get("extra_urls", ()))
    assert identities_of(**given) == case["identities"]


@pytest.mark.parametrize("case", _cases("ids"))
def test_asked_identities_follow_the_shared_vectors(case):
    assert normalize_identity(case["input"]) == case["identity"]


@pytest.mark.parametrize("case", _cases("dois"))
def test_dois_follow_the_shared_vectors(case):
    if case["doi"] is None:
        with pytest.raises(ValueError):
            normalize_doi(case["input"])
    else:
        assert normalize_doi(case["input"]) == case["doi"]


@pytest.mark.parametrize("junk", [None, 7, "", "https://", "https://[::1]/x", "\ud800",
                                  "https://example.com:99999/10.1145/x", "data:text/html,1"])
def test_junk_gives_nothing_and_never_raises(junk):
    assert identities_of_url(junk) == []
    assert identities_of(url=junk, doi=junk if isinstance(junk, str) else None) == []
    assert normalize_identity(junk) is None
