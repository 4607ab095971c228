"""The arXiv API client against the fake arXiv on loopback, answering recorded Atom feeds."""

from __future__ import annotations

import socket
from datetime import date

import pytest

from papershelf import arxiv_api
from papershelf.arxiv_api import ArxivBadAnswer, ArxivUnavailable, fetch
from tests.fake_arxiv import FIXTURES, FakeArxiv


@pytest.fixture
def fake():
    with FakeArxiv() as server:
        yield server


def test_several_ids_in_one_call(fake):
    answer = fetch(["2603.01234", "2603.04567", "hep-th/9901001", "2603.99999"], fake.url)
    assert len(fake.requests) == 1
    call = fake.requests[0]
    assert call.ids == ["2603.01234", "2603.04567", "hep-th/9901001", "2603.99999"]
    assert call.max_results == 4  # arXiv's default of 10 would cut a batch short
    assert sorted(answer.papers) == ["2603.01234", "2603.04567", "hep-th/9901001"]
    assert answer.unknown == ["2603.99999"]
    paper = answer.papers["2603.01234"]
    assert paper.version == 2
    assert paper.published == date(2026, 3, 2)  # the first version's date
    assert paper.updated == date(2026, 3, 4)
    assert paper.primary_category == "cs.LG"
    assert paper.categories == ["cs.LG", "cs.AI", "cs.CL"]
    assert paper.title == "Asymmetric Self-Play for Training LLM Agents with Verifiable Rewards"
    assert paper.summary.startswith("We study asymmetric self-play")
    assert "\n" not in paper.summary
    assert paper.comments == "24 pages, 9 figures; v2: added ablations"
    assert paper.doi is None and paper.journal_ref is None
    assert paper.affiliations == ["Carnegie Mellon University"]  # <arxiv:affiliation>


def test_non_ascii_author_names_come_through(fake):
    paper = fetch(["2603.01234"], fake.url).papers["2603.01234"]
    assert paper.authors == ["Shuli Jiang", "Zhaoyang Zhang", "Yi Zhang", "Łukasz Wróblewski",
                             "José Hernández-Orallo", "Søren Brøndum"]


def test_journal_doi_and_reference(fake):
    paper = fetch(["2603.04567"], fake.url).papers["2603.04567"]
    assert paper.doi == "10.1145/3589334.3645432"
    assert paper.journal_ref == "Proceedings of the ACM Web Conference 2026, pp. 1021-1032"


@pytest.mark.parametrize("arxiv_id, version, primary, categories", [
    ("hep-th/9901001", 3, "hep-th", ["hep-th", "gr-qc"]),
    ("math/0309136", 1, "math.GT", ["math.GT", "math.QA", "57M27"]),
])
def test_old_style_ids(fake, arxiv_id, version, primary, categories):
    answer = fetch([arxiv_id], fake.url)
    assert fake.requests[0].ids == [arxiv_id]
    paper = answer.papers[arxiv_id]
    assert (paper.arxiv_id, paper.version, paper.primary_category, paper.categories) == (
        arxiv_id, version, primary, categories)


def test_withdrawn_paper(fake):
    answer = fetch(["2602.05555", "2603.01234"], fake.url)
    assert list(answer.withdrawn) == ["2602.05555"]
    assert "withdrawn" in answer.withdrawn["2602.05555"].comments
    assert list(answer.papers) == ["2603.01234"]


def test_unknown_id_as_an_empty_entry(fake):
    fake.answer_next(fixture="unknown_empty_entry.xml")
    answer = fetch(["2603.99999"], fake.url)
    assert answer.papers == {} and answer.unknown == ["2603.99999"]


def test_rejected_id_from_the_error_feed(fake):
    fake.answer_next(400, fixture="error_bad_id.xml")
    answer = fetch(["2603.01234", "0704.0001v0"], fake.url)
    assert answer.rejected == {"0704.0001v0": "incorrect id format for 0704.0001v0"}
    assert answer.papers == {}


@pytest.mark.parametrize("status", [500, 502, 503, 429])
def test_unavailable_is_retryable(fake, status):
    fake.answer_next(status, fixture="unavailable_503.html", headers={"Retry-After": "120"})
    with pytest.raises(ArxivUnavailable) as info:
        fetch(["2603.01234"], fake.url)
    assert info.value.status == status
    assert info.value.retry_after == 120
    assert f"HTTP {status}" in str(info.value)


@pytest.mark.parametrize("status, body", [
    (200, (FIXTURES / "malformed.xml").read_bytes()),
    (200, (FIXTURES / "unavailable_503.html").read_bytes()),  # a proxy's page with a 200
    (200, b""),
    (200, b'<?xml version="1.0"?><rss><channel/></rss>'),
    (200, b'<?xml version="1.0"?><!DOCTYPE feed [<!ENTITY a "aaaa">]>'
          b'<feed xmlns="http://www.w3.org/2005/Atom">&a;</feed>'),
    (200, b'<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>http://arxiv.org/abs/nonsense</id>'
          b'<title>x</title></entry></feed>'),
    (404, b"not here"),
    (400, b"<html>bad request</html>"),
])
def test_malformed_answers(fake, status, body):
    fake.answer_next(status, body=body)
    with pytest.raises(ArxivBadAnswer):
        fetch(["2603.01234"], fake.url)


def test_unreachable_and_timeout():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(ArxivUnavailable, match="unreachable"):
        fetch(["2603.01234"], f"http://127.0.0.1:{port}/api/query", timeout=2)
    with FakeArxiv() as fake:
        fake.answer_next(delay=1.0)
        with pytest.raises(ArxivUnavailable):
            fetch(["2603.01234"], fake.url, timeout=0.2)


def test_query_url_keeps_old_style_slashes():
    url = arxiv_api.query_url("http://127.0.0.1:1/api/query", ["hep-th/9901001", "2603.01234"])
    assert url == ("http://127.0.0.1:1/api/query?id_list=hep-th/9901001,2603.01234&max_results=2")
