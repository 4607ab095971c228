"""Identifier normalization: every form a page or a person gives, valid and invalid.

The arXiv id, URL and abstract page cases are the shared vectors that extension/lib/ids.js runs
too."""

import json
from pathlib import Path

import pytest

from papershelf.domain.identifiers import (
    arxiv_abs_url,
    arxiv_doi,
    doi_without_prefix,
    find_arxiv_id,
    is_arxiv_doi,
    is_arxiv_url,
    normalize_arxiv_id,
    normalize_doi,
    normalize_url,
    try_arxiv_id,
)

VECTORS = json.loads((Path(__file__).parents[1] / "shared" / "identifiers.json").read_text("utf-8"))
CASES = [pytest.param(c, id=json.dumps(c["input"])) for c in VECTORS["cases"]]


def answer(normalize, value):
    """What ``normalize`` answers for ``value``; None where it refuses it (ValueError)."""
    try:
        return normalize(value)
    except ValueError:
        return None


@pytest.mark.parametrize("case", CASES)
def test_arxiv_ids_follow_the_shared_vectors(case):
    expected = None if case["arxiv_id"] is None else (case["arxiv_id"], case["version"])
    assert answer(normalize_arxiv_id, case["input"]) == expected
    assert try_arxiv_id(case["input"]) == case["arxiv_id"]


@pytest.mark.parametrize(("candidates", "expected"), [
    (("arXiv:2603.01234v2", "https://arxiv.org/abs/2603.04567", ""), ("2603.01234", 2)),
    (("", "https://arxiv.org/pdf/2603.04567v3.pdf", "10.48550/arXiv.2603.01234"), ("2603.04567", 3)),
    (("", "https://journal.example/p/1", "10.48550/arXiv.2603.01234"), ("2603.01234", None)),
    (("0612.1234", "https://arxiv.org/abs/2613.01234", "10.1145/3600006.3613165"), (None, None)),
    ((), (None, None)),
])
def test_find_arxiv_id_takes_the_first_candidate_that_names_a_paper(candidates, expected):
    assert find_arxiv_id(*candidates) == expected


@pytest.mark.parametrize(("doi", "expected"), [
    ("10.48550/arXiv.2603.01234", True),
    ("https://doi.org/10.48550/ARXIV.2603.01234", True),
    ("doi:10.48550/arxiv.2603.01234", True),
    (" 10.48550/arXiv.2603.01234 ", True),
    ("10.1145/3600006.3613165", False),
    ("10.48550/zenodo.1", False),
    ("", False),
    (None, False),
])
def test_arxiv_dois_are_told_from_publishers_dois(doi, expected):
    assert is_arxiv_doi(doi) is expected


@pytest.mark.parametrize(("url", "expected"), [
    ("https://arxiv.org/abs/2603.01234", True),
    ("http://export.arxiv.org/pdf/2603.01234v2.pdf", True),
    ("https://www.alphaxiv.org/abs/2603.01234", False),
    ("https://journal.example/abs/2603.01234", False),
    ("https://web.archive.org/web/2026/https://arxiv.org/abs/2603.01234", False),
    ("", False),
    (None, False),
])
def test_arxiv_urls_are_the_ones_on_arxiv_org(url, expected):
    assert is_arxiv_url(url) is expected


@pytest.mark.parametrize(("raw", "expected"), [
    ("https://doi.org/10.1145/ABC", "10.1145/ABC"),
    ("http://dx.doi.org/10.1000/x", "10.1000/x"),
    ("DOI: 10.1000/x", "10.1000/x"),
    (" 10.1000/x ", "10.1000/x"),
    ("http://doi.acm.org/10.1145/1327452.1327492", "10.1145/1327452.1327492"),
    ("http://doi.ieeecomputersociety.org/10.1109/SP.2010.25", "10.1109/SP.2010.25"),
    ("https://www.doi.org/10.1000/x", "10.1000/x"),
    ("info:doi/10.1000/x", "10.1000/x"),
])
def test_doi_prefixes_are_dropped_as_written(raw, expected):
    assert doi_without_prefix(raw) == expected


@pytest.mark.parametrize(("raw", "expected"), [
    ("10.1145/3600006.3613165", "10.1145/3600006.3613165"),
    ("https://doi.org/10.1145/ABC.DEF", "10.1145/abc.def"),
    ("doi:10.1000/XYZ", "10.1000/xyz"),
    ("http://dx.doi.org/10.1000/x%2Fy", "10.1000/x/y"),
    ("10/fqd6hj", "10/fqd6hj"),  # a shortDOI
    ("https://doi.org/10/FQD6HJ", "10/fqd6hj"),
    ("http://doi.acm.org/10.1145/1137627.1137631", "10.1145/1137627.1137631"),
    ("doi.acm.org/10.1145/2993901.2993919", "10.1145/2993901.2993919"),  # no scheme
    ("https://www.doi.org/10.1000/X", "10.1000/x"),
    ("HTTPS://DX.DOI.ORG/10.1000/X", "10.1000/x"),
    ("https%3A%2F%2Fdoi.org%2F10.1000%2F182", "10.1000/182"),
    ("doi: 10.1000/182", "10.1000/182"),
    ("urn:doi:10.1000/182", "10.1000/182"),
])
def test_dois_normalize_to_lower_case(raw, expected):
    assert normalize_doi(raw) == expected


@pytest.mark.parametrize("raw", ["", "10.1/x", "doi", "11.1000/x", "10.1000/"])
def test_invalid_dois_are_rejected(raw):
    with pytest.raises(ValueError):
        normalize_doi(raw)


URL_CASES = [pytest.param(c, id=json.dumps(c["input"])) for c in VECTORS["urls"]["cases"]]


@pytest.mark.parametrize("case", URL_CASES)
def test_urls_follow_the_shared_vectors(case):
    assert answer(normalize_url, case["input"]) == case["url"]
    if case["url"] is not None:
        assert normalize_url(case["url"]) == case["url"]  # the canonical form is its own


@pytest.mark.parametrize("case", VECTORS["abs_urls"]["cases"], ids=lambda c: c["arxiv_id"])
def test_abstract_pages_follow_the_shared_vectors(case):
    assert arxiv_abs_url(case["arxiv_id"]) == case["url"]


@pytest.mark.parametrize("case", VECTORS["abs_urls"]["cases"], ids=lambda c: c["arxiv_id"])
def test_the_arxiv_doi_follows_the_shared_vectors_and_is_known_back(case):
    assert arxiv_doi(case["arxiv_id"]) == case["doi"]
    assert is_arxiv_doi(case["doi"])
    assert normalize_arxiv_id(case["doi"]) == (case["arxiv_id"], None)
