"""Enrichment from the arXiv API (issue 7): the queue in the store, batches, the rate limit,
backoff, user edits, failures, the worker, the endpoint, the CLI, a crash, and the BibTeX export.

Every call goes to the fake arXiv on loopback (tests/fake_arxiv.py) that answers the recorded
Atom feeds in tests/fixtures/arxiv/. The store tests run on SQLite and PostgreSQL (conftest).
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from datetime import timedelta

import pybtex.database
import pybtex.errors
import pytest

from papershelf.formats.bibtex_write import write_bibtex
from papershelf.services import enrichment
from papershelf.store import records
from papershelf.store.models import ArxivClock, Paper, utcnow
from papershelf.testing import ServerProcess, call
from tests.fake_arxiv import FakeArxiv

INTERVAL = 0.2  # ARXIV_MIN_INTERVAL in tests: arXiv's 3 s, scaled down

PAGE_PAPER = {  # as the topic page shows it: three names and "+3", no category
    "arxiv_id": "2603.01234",
    "title": "Asymmetric Self-Play for Training LLM Agents with Verifiable Rewards",
    "authors": ["Shuli Jiang", "Zhaoyang Zhang", "Yi Zhang"],
    "authors_more": 3,
    "abstract": "We study asymmetric self-play for training language-model agents…",
    "published": "2026-03-31",
    "topics": ["LLM Agent Training"],
    "source_url": "https://www.alphaxiv.org/topics/llm-agent-training",
}
FULL_AUTHORS = ["Shuli Jiang", "Zhaoyang Zhang", "Yi Zhang", "Łukasz Wróblewski",
                "José Hernández-Orallo", "Søren Brøndum"]


@pytest.fixture
def fake():
    with FakeArxiv(generate=r"2601\.1\d{4}") as server:
        yield server


@pytest.fixture
def enrich_app(make_app, fake):
    """make_app with enrichment pointed at the fake arXiv; its background workers (those
    ``papershelf_start_background`` starts) stopped at the end."""
    apps = []

    def build(**overrides):
        cfg = {"ARXIV_API": fake.url, "ARXIV_MIN_INTERVAL": INTERVAL, "ENRICH_SETTLE": 0.3,
               "ARXIV_TIMEOUT": 5, "ARXIV_RETRY_BASE": 0.3}
        cfg.update(overrides)
        app = make_app(**cfg)
        apps.append(app)
        return app

    yield build
    for app in apps:
        for name in ("papershelf_enricher", "papershelf_resolver", "papershelf_entries"):
            worker = app.extensions.get(name)
            if worker is not None:
                worker.stop()


@pytest.fixture
def app(enrich_app):
    """conftest's ``client``, ``make_user``, ``alice`` and ``bob`` use this app."""
    return enrich_app()


def token_headers(app, name: str) -> dict:
    from papershelf.services import auth

    with app.extensions["papershelf_db"].connection_context():
        return {"Authorization": "Bearer " + auth.create_token(auth.get_or_create_user(name))}


def run_due(app):
    with app.extensions["papershelf_db"].connection_context():
        return enrichment.run_due(app.config)


def run_once(app):
    with app.extensions["papershelf_db"].connection_context():
        return enrichment.run_batch(app.config)


def save(client, headers, **fields):
    data = {**PAGE_PAPER, **fields}
    r = client.post("/api/papers", json=data, headers=headers)
    assert r.status_code in (200, 201), r.json
    return r.json


def get(client, headers, paper_id):
    r = client.get(f"/api/papers/{paper_id}", headers=headers)
    assert r.status_code == 200, r.json
    return r.json


def stored(app, paper_id) -> Paper:
    with app.extensions["papershelf_db"].connection_context():
        return Paper.get_by_id(paper_id)


def bibtex(app, client, headers) -> str:
    """The BibTeX export: the endpoint when it is there, else the same writer over the records."""
    if any(r.rule == "/api/export" for r in app.url_map.iter_rules()):
        r = client.get("/api/export?format=bibtex", headers=headers)
        assert r.status_code == 200
        return r.get_data(as_text=True)
    with app.extensions["papershelf_db"].connection_context():
        papers = list(Paper.select().order_by(Paper.citation_key))
        return "".join(write_bibtex(records.paper_records(papers)))


def parse_bibtex(text: str):
    pybtex.errors.set_strict_mode(True)
    return pybtex.database.parse_string(text, "bibtex")


def wait_for(predicate, timeout=30.0, step=0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return predicate()


# ---- completing a paper ----------------------------------------------------------------------


def test_saved_paper_is_completed_from_arxiv(app, client, make_user, fake):
    alice = make_user("alice")
    saved = save(client, alice)
    assert saved["enrichment"] == {"state": "pending", "reason": None, "at": None}
    assert fake.requests == []  # the save itself never calls arXiv

    results = run_due(app)

    assert [len(c.ids) for c in fake.requests] == [1]
    assert results[0].done == 1
    paper = get(client, alice, saved["id"])
    assert paper["authors"] == FULL_AUTHORS
    assert paper["authors_more"] == 0
    assert paper["primary_category"] == "cs.LG"
    assert paper["categories"] == ["cs.LG", "cs.AI", "cs.CL"]
    assert paper["published"] == "2026-03-02"  # first version, not the page's date
    assert paper["arxiv_version"] == 2
    assert paper["comments"] == "24 pages, 9 figures; v2: added ablations"
    assert paper["affiliations"] == ["Carnegie Mellon University"]  # from <arxiv:affiliation>
    assert paper["abstract"].startswith("We study asymmetric self-play for training language-model "
                                        "agents on tasks")  # the page's was cut with "…"
    assert paper["title"] == PAGE_PAPER["title"]
    assert paper["enrichment"]["state"] == "done" and paper["enrichment"]["at"]
    assert paper["citation_key"] == saved["citation_key"]  # a key once given never changes
    # The page's lookup answer carries the completed data for the extension.
    r = client.post("/api/papers/lookup", json={"arxiv_ids": ["2603.01234"], "urls": []},
                    headers=alice)
    entry = r.json["papers"]["2603.01234"]
    assert entry["authors"] == FULL_AUTHORS and entry["primary_category"] == "cs.LG"
    assert entry["enrichment"]["state"] == "done"
    # The new author names are searchable.
    r = client.get("/api/papers?q=Wróblewski", headers=alice)
    assert [p["id"] for p in r.json["items"]] == [saved["id"]]
    assert set(stored(app, saved["id"]).enriched_fields) >= {
        "authors", "authors_more", "primary_category", "categories", "published", "arxiv_version"}


def test_a_year_only_date_becomes_arxivs_full_date(app, client, make_user):
    alice = make_user("alice")
    saved = save(client, alice, published="2026")  # as an imported entry with a year only
    assert (saved["published"], saved["published_precision"]) == ("2026-01-01", "year")
    run_due(app)
    paper = get(client, alice, saved["id"])
    assert (paper["published"], paper["published_precision"]) == ("2026-03-02", None)


def test_affiliations_the_page_gave_are_kept(app, client, make_user):
    alice = make_user("alice")
    saved = save(client, alice, affiliations=["CMU"])
    run_due(app)
    assert get(client, alice, saved["id"])["affiliations"] == ["CMU"]


def test_later_page_save_keeps_what_arxiv_supplied(app, client, make_user):
    alice = make_user("alice")
    saved = save(client, alice)
    run_due(app)
    again = save(client, alice, topics=["Self-Play"])  # the page's short list again
    assert again["id"] == saved["id"]
    assert again["authors"] == FULL_AUTHORS and again["authors_more"] == 0
    assert again["published"] == "2026-03-02"
    assert again["topics"] == ["LLM Agent Training", "Self-Play"]


def test_user_edit_survives_enrichment(app, client, make_user):
    alice = make_user("alice")
    saved = save(client, alice)
    r = client.patch(f"/api/papers/{saved['id']}", headers=alice,
                     json={"authors": ["S. Jiang", "Z. Zhang"], "authors_more": 4,
                           "published": "2026-04-01", "comments": "my own comment"})
    assert r.status_code == 200, r.json
    run_due(app)
    paper = get(client, alice, saved["id"])
    assert paper["authors"] == ["S. Jiang", "Z. Zhang"]
    assert paper["authors_more"] == 4
    assert paper["published"] == "2026-04-01"
    assert paper["comments"] == "my own comment"
    assert paper["primary_category"] == "cs.LG"  # what the user did not touch is completed
    assert paper["enrichment"]["state"] == "done"


def test_user_edit_made_during_the_call_survives(app, client, make_user, fake):
    """The answer is applied to the paper as it is when the answer arrives."""
    alice = make_user("alice")
    saved = save(client, alice)
    fake.answer_next(delay=1.0)
    worker = threading.Thread(target=run_due, args=(app,))
    worker.start()
    assert fake.started.wait(5)
    r = client.patch(f"/api/papers/{saved['id']}", headers=alice, json={"authors": ["Me Myself"]})
    assert r.status_code == 200
    worker.join(10)
    paper = get(client, alice, saved["id"])
    assert paper["authors"] == ["Me Myself"]
    assert paper["primary_category"] == "cs.LG"
    assert paper["enrichment"]["state"] == "done"


def test_journal_doi_makes_the_bibtex_entry_an_article(app, client, make_user):
    alice = make_user("alice")
    saved = save(client, alice, arxiv_id="2603.04567", title="Retrieval Heads in Long-Context "
                 "Transformers", authors=["Ana Lima"], authors_more=1)
    before = bibtex(app, client, alice)
    assert before.startswith("@misc{") and "10.48550/arXiv.2603.04567" in before
    run_due(app)
    paper = get(client, alice, saved["id"])
    assert paper["doi"] == "10.1145/3589334.3645432"
    assert paper["journal_ref"] == "Proceedings of the ACM Web Conference 2026, pp. 1021-1032"
    text = bibtex(app, client, alice)
    assert text.startswith("@article{")
    entry = parse_bibtex(text).entries[saved["citation_key"]]
    assert entry.fields["doi"] == "10.1145/3589334.3645432"
    assert entry.fields["journal"].startswith("Proceedings of the ACM Web Conference 2026")
    assert [str(p) for p in entry.persons["author"]] == ["Lima, Ana", "Chen, Wei"]


def test_bibtex_export_of_an_enriched_paper_has_all_authors_and_primary_class(app, client, make_user):
    alice = make_user("alice")
    saved = save(client, alice)
    before = parse_bibtex(bibtex(app, client, alice)).entries[saved["citation_key"]]
    assert str(before.persons["author"][-1]) == "others"
    assert "primaryClass" not in before.fields
    run_due(app)
    text = bibtex(app, client, alice)
    entry = parse_bibtex(text).entries[saved["citation_key"]]
    assert len(entry.persons["author"]) == 6
    assert "others" not in text
    assert entry.fields["primaryClass"] == "cs.LG"
    assert entry.fields["year"] == "2026" and entry.fields["month"] == "March"
    assert entry.fields["eprint"] == "2603.01234"
    assert "{\\L}ukasz" in text or "\\L{}ukasz" in text  # non-ASCII names as LaTeX


ARXIV_TITLE = "Asymmetric Self-Play for Training LLM Agents with Verifiable Rewards"


@pytest.mark.parametrize("sent_title", ["2603.01234", "arXiv:2603.01234", " arXiv:2603.01234v2 "])
def test_a_title_that_only_names_the_id_is_provisional(app, client, make_user, sent_title):
    # An earlier extension sent the bare id as the title of a page that showed none.
    alice = make_user("alice")
    saved = save(client, alice, title=sent_title, authors=[], abstract="")
    assert saved["title"] == "arXiv:2603.01234"
    run_due(app)
    assert get(client, alice, saved["id"])["title"] == ARXIV_TITLE


@pytest.mark.parametrize("stored_title", ["2603.01234", "arXiv:2603.01234", "arxiv:2603.01234v2",
                                          "https://arxiv.org/abs/2603.01234"])
def test_papers_already_titled_by_their_id_get_arxivs_title(app, client, make_user, stored_title):
    alice = make_user("alice")
    saved = save(client, alice)
    with app.extensions["papershelf_db"].connection_context():
        Paper.update(title=stored_title).where(Paper.id == saved["id"]).execute()  # as saved before
    run_due(app)
    assert get(client, alice, saved["id"])["title"] == ARXIV_TITLE


@pytest.mark.parametrize("title", ["A study of 2603.01234", "arXiv:2603.04567"])
def test_a_real_title_or_another_papers_id_stays(app, client, make_user, title):
    alice = make_user("alice")
    saved = save(client, alice, title=title)
    assert saved["title"] == title
    run_due(app)
    assert get(client, alice, saved["id"])["title"] == title


def test_a_later_save_titled_by_the_id_keeps_the_real_title(app, client, make_user):
    alice = make_user("alice")
    saved = save(client, alice)
    again = save(client, alice, title="2603.01234")
    assert again["id"] == saved["id"] and again["title"] == PAGE_PAPER["title"]


@pytest.mark.parametrize("page_id, stored_id, state, expect", [
    ("hep-th/9901001", "hep-th/9901001", "done", {"primary_category": "hep-th", "arxiv_version": 3,
                                                  "published": "1999-01-04"}),
    ("math.GT/0309136", "math/0309136", "done", {"primary_category": "math.GT",
                                                 "published": "2003-09-08"}),
    ("2603.99999", "2603.99999", "failed", {"reason": "unknown to arXiv"}),
    ("2602.05555", "2602.05555", "failed", {"reason": "withdrawn on arXiv (v3)"}),
])
def test_each_kind_of_id(app, client, make_user, page_id, stored_id, state, expect):
    alice = make_user("alice")
    saved = save(client, alice, arxiv_id=page_id, title="A paper", authors=["Someone"],
                 authors_more=0, abstract="", published=None)
    assert saved["arxiv_id"] == stored_id
    run_due(app)
    paper = get(client, alice, saved["id"])
    assert paper["enrichment"]["state"] == state
    for key, value in expect.items():
        if key == "reason":
            assert value in paper["enrichment"]["reason"]
            assert paper["enrichment"]["at"]
            assert paper["authors"] == ["Someone"]  # nothing applied from a failed answer
        else:
            assert paper[key] == value


def test_one_call_for_a_batch_of_several_ids_and_users(app, client, make_user, fake):
    alice, bob = make_user("alice"), make_user("bob")
    ids = ["2603.01234", "2603.04567", "hep-th/9901001", "2603.99999", "2602.05555"]
    for i in ids:
        save(client, alice, arxiv_id=i, title=f"Paper {i}")
    save(client, bob, arxiv_id="2603.01234")
    results = run_due(app)
    assert len(fake.requests) == 1
    assert sorted(fake.requests[0].ids) == sorted(ids)  # bob's copy asks nothing more
    assert (results[0].papers, results[0].done, results[0].failed) == (6, 4, 2)
    r = client.get("/api/papers", headers=bob)
    assert r.json["items"][0]["authors"] == FULL_AUTHORS


def test_doi_of_another_saved_paper_is_not_taken_twice(app, client, make_user):
    alice = make_user("alice")
    client.post("/api/papers", headers=alice,
                json={"title": "The published version", "doi": "10.1145/3589334.3645432"})
    saved = save(client, alice, arxiv_id="2603.04567", title="Retrieval Heads")
    run_due(app)
    paper = get(client, alice, saved["id"])
    assert paper["enrichment"]["state"] == "done"
    assert paper["doi"] is None and paper["journal_ref"]


# ---- failures: they mark the paper, never a save or an export ----------------------------------


@pytest.mark.parametrize("status, fixture, reason", [
    (200, "malformed.xml", "malformed answer from arXiv"),
    (200, "unavailable_503.html", "malformed answer from arXiv"),
    (404, "unavailable_503.html", "malformed answer from arXiv: arXiv answered HTTP 404"),
])
def test_malformed_answer_fails_the_papers_and_breaks_nothing(app, client, make_user, fake,
                                                              status, fixture, reason):
    alice = make_user("alice")
    first = save(client, alice)
    second = save(client, alice, arxiv_id="2603.04567", title="Retrieval Heads")
    fake.answer_next(status, fixture=fixture)
    results = run_due(app)
    assert results[0].failed == 2
    for paper_id in (first["id"], second["id"]):
        state = get(client, alice, paper_id)["enrichment"]
        assert state["state"] == "failed" and state["reason"].startswith(reason), state
    # Saving and exporting go on as before.
    third = save(client, alice, arxiv_id="2603.07777", title="Another")
    assert third["enrichment"]["state"] == "pending"
    text = bibtex(app, client, alice)
    assert len(parse_bibtex(text).entries) == 3
    assert "others" in text  # the page's short list, as saved


def test_arxiv_down_retries_with_backoff_then_completes(app, client, make_user, fake):
    alice = make_user("alice")
    saved = save(client, alice)
    fake.answer_next(503, fixture="unavailable_503.html")
    [result] = run_due(app)
    assert (result.retrying, result.failed, result.done) == (1, 0, 0)
    paper = stored(app, saved["id"])
    assert paper.enrichment == "pending" and paper.enrichment_attempts == 1
    assert "HTTP 503" in paper.enrichment_reason
    assert paper.enrichment_due > utcnow()  # not due again before the backoff
    assert get(client, alice, saved["id"])["enrichment"]["state"] == "pending"
    assert run_due(app) == []  # nothing is due yet: no call
    assert len(fake.requests) == 1
    assert wait_for(lambda: stored(app, saved["id"]).enrichment_due <= utcnow(), timeout=5)
    run_due(app)
    paper = stored(app, saved["id"])
    assert paper.enrichment == "done" and paper.enrichment_attempts == 0
    assert len(fake.requests) == 2


def test_backoff_doubles_and_gives_up_after_max_attempts(enrich_app, fake):
    app = enrich_app(ARXIV_RETRY_BASE=0.1, ARXIV_MAX_ATTEMPTS=4)
    client = app.test_client()
    alice = token_headers(app, "alice")
    saved = save(client, alice)
    fake.answer_next(502, fixture="unavailable_503.html", times=10)
    bounds = []  # the backoff lies between (due - end of the run) and (due - its start)
    for _ in range(4):
        assert wait_for(lambda: stored(app, saved["id"]).enrichment_due <= utcnow(), timeout=5)
        before = utcnow()
        run_once(app)
        after = utcnow()
        paper = stored(app, saved["id"])
        if paper.enrichment == "pending":
            bounds.append(((paper.enrichment_due - after).total_seconds(),
                           (paper.enrichment_due - before).total_seconds()))
    assert len(fake.requests) == 4
    for expected, (low, high) in zip([0.1, 0.2, 0.4], bounds, strict=True):
        assert low - 0.01 <= expected <= high + 0.01, (expected, bounds)
    paper = get(client, alice, saved["id"])
    assert paper["enrichment"]["state"] == "failed"
    assert paper["enrichment"]["reason"] == ("arXiv unavailable after 4 attempts: "
                                             "arXiv answered HTTP 502")


def test_retry_after_from_arxiv_is_honoured(app, client, make_user, fake):
    alice = make_user("alice")
    saved = save(client, alice)
    fake.answer_next(503, fixture="unavailable_503.html", headers={"Retry-After": "600"})
    run_due(app)
    due = stored(app, saved["id"]).enrichment_due
    assert due - utcnow() > timedelta(seconds=590)


# ---- the rate limit and the worker -----------------------------------------------------------


@pytest.mark.slow
def test_burst_of_250_saves_makes_three_calls_spaced_by_the_limit(enrich_app, fake):
    # A partial batch waits for 5 s of quiet (default 1): a save that a loaded machine (the browser
    # tests beside this one) delays by seconds does not end the burst early.
    app = enrich_app(ENRICH_SETTLE=5.0)
    client = app.test_client()
    alice = token_headers(app, "alice")
    assert app.extensions["papershelf_start_background"]() is None
    worker = app.extensions["papershelf_enricher"]
    assert worker.running
    slowest = 0.0
    for n in range(250):
        started = time.monotonic()
        r = client.post("/api/papers", headers=alice,
                        json={"arxiv_id": f"2601.1{n:04d}", "title": f"Paper {n}",
                              "authors": [f"Ann Q{chr(97 + n // 26)}{chr(97 + n % 26)}son"],
                              "authors_more": 2})
        slowest = max(slowest, time.monotonic() - started)
        assert r.status_code == 201
    # The burst is a burst: no save took as long as the quiet that ends one.
    assert slowest < 5.0, f"a save took {slowest:.1f} s: the machine, not the worker, split the burst"
    assert wait_for(lambda: run_count(app, "done") == 250, timeout=60)
    calls = fake.requests
    assert [len(c.ids) for c in calls] == [100, 100, 50]
    gaps = [b.at - a.at for a, b in zip(calls, calls[1:], strict=False)]
    assert all(g >= INTERVAL for g in gaps), gaps
    print(f"\n250 saves: {len(calls)} calls, gaps {[round(g, 3) for g in gaps]} s "
          f"(limit {INTERVAL} s), slowest save {slowest * 1000:.1f} ms")
    time.sleep(INTERVAL * 2)
    assert len(fake.requests) == 3  # and nothing more afterwards
    r = client.get("/api/papers?limit=1", headers=alice)
    assert r.json["items"][0]["authors_more"] == 0
    assert len(r.json["items"][0]["authors"]) == 3  # the fake's generated entry


def run_count(app, state) -> int:
    with app.extensions["papershelf_db"].connection_context():
        return Paper.select().where(Paper.enrichment == state).count()


def test_limiter_spaces_calls_from_several_threads(fake):
    """One limiter per arXiv host for the whole process: threads queue for the slot."""
    limiter = enrichment.limiter_for(fake.url)
    ends = []

    def one():
        limiter.acquire(INTERVAL)
        try:
            ends.append(time.monotonic())
        finally:
            limiter.release(True)

    threads = [threading.Thread(target=one) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    ends.sort()
    assert all(b - a >= INTERVAL for a, b in zip(ends, ends[1:], strict=False))
    assert enrichment.limiter_for(fake.url + "?x=1") is limiter


def test_saves_answer_at_once_while_arxiv_hangs(app, client, make_user, fake):
    alice = make_user("alice")
    fake.answer_next(delay=3.0)
    app.extensions["papershelf_start_background"]()
    save(client, alice)
    assert fake.started.wait(5)  # the worker's call is in flight now
    started = time.monotonic()
    second = save(client, alice, arxiv_id="2603.04567", title="Retrieval Heads")
    assert time.monotonic() - started < 1.5  # it did not wait for arXiv's 3 s
    assert len(fake.requests) == 1
    assert second["enrichment"]["state"] == "pending"


def test_worker_resumes_pending_work_when_started(app, client, make_user, fake):
    alice = make_user("alice")
    ids = [save(client, alice, arxiv_id=i, title=i)["id"]
           for i in ("2603.01234", "2603.04567", "hep-th/9901001")]
    time.sleep(0.3)
    assert fake.requests == []  # not started: a test app never calls out by itself
    app.extensions["papershelf_start_background"]()
    assert wait_for(lambda: run_count(app, "done") == 3, timeout=10)
    assert len(fake.requests) == 1 and sorted(fake.requests[0].ids) == sorted(
        stored(app, i).arxiv_id for i in ids)


def test_worker_stops_cleanly(app):
    worker = app.extensions["papershelf_enricher"]
    assert worker.start()
    assert worker.running
    started = time.monotonic()
    worker.stop()
    assert not worker.running
    assert time.monotonic() - started < 2


def test_nothing_runs_when_enrichment_is_off(make_app, fake):
    app = make_app(ARXIV_API="off")
    client = app.test_client()
    headers = token_headers(app, "a")
    app.extensions["papershelf_start_background"]()
    assert not app.extensions["papershelf_enricher"].running
    saved = save(client, headers)
    assert saved["enrichment"]["state"] is None
    r = client.post(f"/api/papers/{saved['id']}/enrich", headers=headers)
    assert r.status_code == 409 and r.json["error"]["code"] == "conflict"
    with app.extensions["papershelf_db"].connection_context():
        assert enrichment.run_batch(app.config) is None
    assert fake.requests == []


# ---- POST /api/papers/<id>/enrich -------------------------------------------------------------


def test_enrich_endpoint_queues_again_and_wakes_the_worker(app, client, make_user, fake):
    alice = make_user("alice")
    saved = save(client, alice)
    run_due(app)
    client.patch(f"/api/papers/{saved['id']}", headers=alice, json={"primary_category": "cs.AI"})
    app.extensions["papershelf_start_background"]()
    r = client.post(f"/api/papers/{saved['id']}/enrich", headers=alice)
    assert r.status_code == 202
    assert r.json["id"] == saved["id"]
    assert r.json["enrichment"] == {"state": "pending", "reason": None, "at": None}
    assert wait_for(lambda: get(client, alice, saved["id"])["enrichment"]["state"] == "done", 10)
    assert len(fake.requests) == 2
    assert get(client, alice, saved["id"])["primary_category"] == "cs.AI"  # still the user's


def test_enrich_endpoint_errors(app, client, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    saved = save(client, alice)
    r = client.post(f"/api/papers/{saved['id']}/enrich", headers=bob)
    assert r.status_code == 404 and r.json["error"]["code"] == "not_found"
    r = client.post(f"/api/papers/{saved['id']}/enrich")
    assert r.status_code == 401
    plain = client.post("/api/papers", headers=alice, json={"title": "No arXiv id"}).json
    assert plain["enrichment"]["state"] is None
    r = client.post(f"/api/papers/{plain['id']}/enrich", headers=alice)
    assert r.status_code == 422 and "arxiv_id" in r.json["error"]["fields"]
    assert "/api/papers/{paper_id}/enrich" in client.get("/api/openapi.json").json["paths"]


# ---- the command line and a crash -----------------------------------------------------------


def cli(*args, env=None, timeout=60):
    return subprocess.run([sys.executable, "-m", "papershelf", *args], capture_output=True,
                          text=True, timeout=timeout, env={**os.environ, **(env or {})})


def test_cli_enrich_all_requeues_and_reports_progress(tmp_path, fake):
    data = tmp_path / "data"
    with ServerProcess(data) as server:  # enrichment off: nothing is queued by the saves
        token = server.token
        for i in ("2603.01234", "2603.04567", "2603.99999"):
            status, body = call(server.base, "POST", "/api/papers", token,
                                {**PAGE_PAPER, "arxiv_id": i, "title": i})
            assert status == 201 and body["enrichment"]["state"] is None
    env = {"PAPERSHELF_ARXIV_API": fake.url}
    out = cli("enrich", "--data-dir", str(data), env=env)
    assert out.returncode == 0, out.stderr
    assert "nothing to do" in out.stdout and fake.requests == []
    out = cli("enrich", "--all", "--data-dir", str(data), "-v", env=env)
    assert out.returncode == 0, out.stderr
    assert "queued 3 papers" in out.stdout
    assert "batch 1: 3 papers (3 arXiv ids): 2 done, 1 failed" in out.stdout
    assert "unknown to arXiv" in out.stdout
    assert len(fake.requests) == 1
    off = cli("enrich", "--data-dir", str(data), env={"PAPERSHELF_ARXIV_API": "off"})
    assert off.returncode == 1 and "switched off" in off.stderr


@pytest.mark.slow
def test_server_killed_mid_batch_loses_nothing_from_the_queue(tmp_path, fake):
    data = tmp_path / "data"
    env = {"PAPERSHELF_ARXIV_API": fake.url}
    fake.answer_next(delay=20.0)  # arXiv is slow: the first call is in flight when we kill
    ids = [f"2601.1{n:04d}" for n in range(30)]
    server = ServerProcess(data, env=env).start()
    try:
        token = server.token
        for i in ids:
            status, _ = call(server.base, "POST", "/api/papers", token,
                             {"arxiv_id": i, "title": i, "authors": ["A"], "authors_more": 1})
            assert status == 201
        assert fake.started.wait(15), server.output
    finally:
        server.kill()  # SIGKILL in the middle of the batch
    assert len(fake.requests) == 1 and sorted(fake.requests[0].ids) == ids

    from papershelf.store.db import open_database

    database = open_database(f"sqlite:///{data / 'papershelf.db'}")
    with database.bind_ctx([Paper, ArxivClock]), database.connection_context():
        rows = list(Paper.select())
        assert len(rows) == 30
        assert {p.enrichment for p in rows} == {"pending"}  # leased, not lost
        assert all(p.enrichment_attempts == 0 for p in rows)
        # The dead server's lease (ARXIV_TIMEOUT + 30 s) runs out, and so does its hold on
        # arXiv's clock (the call it made may still be running: ARXIV_TIMEOUT + the interval);
        # make it so now.
        Paper.update(enrichment_due=utcnow() - timedelta(seconds=1)).execute()
        ArxivClock.update(next_at=utcnow() - timedelta(seconds=1)).execute()
    database.close()

    with ServerProcess(data, env=env) as server:
        token = server.token

        def all_done():
            items = call(server.base, "GET", "/api/papers?limit=100", token)[1]["items"]
            return [p["enrichment"]["state"] for p in items] == ["done"] * 30

        assert wait_for(all_done, timeout=30, step=0.2), server.output
    assert len(fake.requests) == 2 and sorted(fake.requests[1].ids) == ids


def test_arxiv_id_changed_or_removed_during_the_call(app, client, alice, fake):
    first = save(client, alice)
    second = save(client, alice, arxiv_id="2603.04567", title="Retrieval Heads")
    fake.answer_next(delay=1.0)
    worker = threading.Thread(target=run_once, args=(app,))
    worker.start()
    assert fake.started.wait(5)
    assert client.patch(f"/api/papers/{first['id']}", headers=alice,
                        json={"arxiv_id": "hep-th/9901001"}).status_code == 200
    assert client.patch(f"/api/papers/{second['id']}", headers=alice,
                        json={"arxiv_id": None}).status_code == 200
    worker.join(10)
    assert get(client, alice, first["id"])["enrichment"]["state"] == "pending"
    run_due(app)
    assert fake.requests[-1].ids == ["hep-th/9901001"]  # asked again, for the new id
    paper = get(client, alice, first["id"])
    assert paper["enrichment"]["state"] == "done" and paper["primary_category"] == "hep-th"
    assert get(client, alice, second["id"])["enrichment"]["state"] is None


def test_two_workers_never_ask_for_the_same_papers(app, fake):
    """A batch leases its papers in the store: a second process (here a second thread with its
    own limiter, as another process has) takes the next ones, not the same."""
    from papershelf.services import auth, papers

    with app.extensions["papershelf_db"].connection_context():
        user = auth.get_or_create_user("alice")
        for n in range(150):
            papers.save_paper(user, {"arxiv_id": f"2601.1{n:04d}", "title": f"Paper {n}",
                                     "authors": [f"Ann Q{chr(97 + n // 26)}{chr(97 + n % 26)}son"]},
                              enrich=True)
    other = {**app.config, "ARXIV_API": fake.url.replace("127.0.0.1", "localhost")}
    fake.default_delay = 0.5  # both calls in flight at once
    threads = [threading.Thread(target=lambda cfg=cfg: run_batch_with(app, cfg))
               for cfg in (app.config, other)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    assert sorted(len(c.ids) for c in fake.requests) == [50, 100]
    asked = [i for c in fake.requests for i in c.ids]
    assert len(asked) == len(set(asked)) == 150
    assert run_count(app, "done") == 150


def run_batch_with(app, cfg):
    with app.extensions["papershelf_db"].connection_context():
        return enrichment.run_batch(cfg)
