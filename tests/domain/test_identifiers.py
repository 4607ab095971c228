"""Identifier normalization: every form a page or a person gives, valid and invalid.

The arXiv id cases are the shared vectors that extension/lib/ids.js runs too."""

import json
from pathlib import Path

import pytest

from papershelf.domain.identifiers import (
    normalize_arxiv_id,
    normalize_doi,
    normalize_url,
    try_arxiv_id,
)

VECTORS = json.loads((Path(__file__).parents[1] / "shared" / "identifiers.json").read_text("utf-8"))
CASES = [pytest.param(c, id=json.dumps(c["input"])) for c in VECTORS["cases"]]


@pytest.mark.parametrize("case", CASES)
def test_arxiv_ids_follow_the_shared_vectors(case):
    if case["arxiv_id"] is None:
        with pytest.raises(ValueError):
            normalize_arxiv_id(case["input"])
    else:
        assert normalize_arxiv_id(case["input"]) == (case["arxiv_id"], case["version"])
    assert try_arxiv_id(case["input"]) == case["arxiv_id"]


@pytest.mark.parametrize(("raw", "expected"), [
    ("10.1145/3600006.3613165", "10.1145/3600006.3613165"),
    ("https://doi.org/10.1145/ABC.DEF", "10.1145/abc.def"),
    ("doi:10.1000/XYZ", "10.1000/xyz"),
    ("http://dx.doi.org/10.1000/x%2Fy", "10.1000/x/y"),
])
def test_dois_normalize_to_lower_case(raw, expected):
    assert normalize_doi(raw) == expected


@pytest.mark.parametrize("raw", ["", "10.1/x", "doi", "11.1000/x", "10.1000/"])
def test_invalid_dois_are_rejected(raw):
    with pytest.raises(ValueError):
        normalize_doi(raw)


@pytest.mark.parametrize(("raw", "expected"), [
    ("HTTPS://Example.COM/a?utm_source=x&b=1#frag", "https://example.com/a?b=1"),
    ("http://example.com", "http://example.com/"),
    ("https://example.com:443/x", "https://example.com/x"),
    ("https://example.com:8443/x", "https://example.com:8443/x"),
])
def test_urls_normalize(raw, expected):
    assert normalize_url(raw) == expected


@pytest.mark.parametrize("raw", ["javascript:alert(1)", "ftp://x.org/a", "/relative", "https://", ""])
def test_non_http_urls_are_rejected(raw):
    with pytest.raises(ValueError):
        normalize_url(raw)
