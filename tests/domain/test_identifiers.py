"""Identifier normalization: every form a page or a person gives, valid and invalid."""

import pytest

from papershelf.domain.identifiers import normalize_arxiv_id, normalize_doi, normalize_url

VALID = [
    ("2603.01234", ("2603.01234", None)),
    ("2603.01234v2", ("2603.01234", 2)),
    ("arXiv:2603.01234v2", ("2603.01234", 2)),
    ("ARXIV:2603.01234", ("2603.01234", None)),
    ("  arXiv: 2603.01234  ", ("2603.01234", None)),
    ("https://arxiv.org/abs/2603.01234", ("2603.01234", None)),
    ("http://arxiv.org/abs/2603.01234v3", ("2603.01234", 3)),
    ("https://www.arxiv.org/abs/2603.01234", ("2603.01234", None)),
    ("https://export.arxiv.org/abs/2603.01234", ("2603.01234", None)),
    ("https://arxiv.org/pdf/2603.01234", ("2603.01234", None)),
    ("https://arxiv.org/pdf/2603.01234v1.pdf", ("2603.01234", 1)),
    ("https://arxiv.org/abs/2603.01234?context=cs", ("2603.01234", None)),
    ("https://arxiv.org/abs/2603.01234#section", ("2603.01234", None)),
    ("https://www.alphaxiv.org/abs/2603.01234", ("2603.01234", None)),
    ("https://www.alphaxiv.org/overview/2603.01234v2", ("2603.01234", 2)),
    ("https://alphaxiv.org/abs/2603.01234", ("2603.01234", None)),
    ("0704.0001", ("0704.0001", None)),
    ("1412.9999v5", ("1412.9999", 5)),
    ("1501.00001", ("1501.00001", None)),
    ("hep-th/9901001", ("hep-th/9901001", None)),
    ("hep-th/9901001v2", ("hep-th/9901001", 2)),
    ("math.GT/0309136", ("math/0309136", None)),
    ("arXiv:math.GT/0309136v1", ("math/0309136", 1)),
    ("https://arxiv.org/abs/math.GT/0309136", ("math/0309136", None)),
    ("https://arxiv.org/abs/cond-mat/0207270", ("cond-mat/0207270", None)),
    ("https://arxiv.org/pdf/quant-ph/0201082v1.pdf", ("quant-ph/0201082", 1)),
    ("cs.AI/0101001", ("cs/0101001", None)),
    ("10.48550/arXiv.2603.01234", ("2603.01234", None)),
    ("https://doi.org/10.48550/arXiv.2603.01234", ("2603.01234", None)),
]

INVALID = [
    "",
    "   ",
    "hello",
    "2603.123",  # too short
    "2603.1234567",  # too long
    "2613.01234",  # month 13
    "2600.01234",  # month 0
    "1501.1234",  # four digits after 2015
    "1412.12345",  # five digits before 2015
    "0703.0001",  # before new-style ids began
    "2603.01234v0",
    "2603.01234v",
    "foo/9901001",  # unknown archive
    "hep-th/99010",  # short number
    "hep-th/9913001",  # month 13
    "hep-th.XX/9901001",  # subject class on an archive without them
    "https://example.com/abs/2603.01234",
    "https://arxiv.org/list/cs.AI/recent",
    "arXiv:",
    "2603.01234 2603.01235",
    "<script>2603.01234</script>",
]


@pytest.mark.parametrize(("raw", "expected"), VALID)
def test_valid_ids_normalize(raw, expected):
    assert normalize_arxiv_id(raw) == expected


@pytest.mark.parametrize("raw", INVALID)
def test_invalid_ids_are_rejected(raw):
    with pytest.raises(ValueError):
        normalize_arxiv_id(raw)


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
