"""Two `papershelf serve` processes, standing for two hosts (each with its own data dir), on one
PostgreSQL database: one enriches at a time (the store's advisory lock, not a file), arXiv is
called at most once per interval across both, the other takes over when the first dies; and
saves, edits, notes and group reads through both at once end without an error."""

from concurrent.futures import ThreadPoolExecutor

import pytest

from papershelf.testing import ServerProcess, call
from tests.fake_arxiv import FakeArxiv
from tests.test_enrichment import wait_for

INTERVAL = 0.5  # ARXIV_MIN_INTERVAL here: arXiv's 3 s, scaled down
ENRICHES = "this process runs arXiv enrichment"


@pytest.fixture
def fake():
    with FakeArxiv(generate=r"2601\.1\d{4}") as server:
        yield server


@pytest.fixture
def two_hosts(tmp_path, empty_pg, fake):
    env = {"PAPERSHELF_DATABASE_URL": empty_pg, "PAPERSHELF_ARXIV_API": fake.url,
           "PAPERSHELF_ARXIV_MIN_INTERVAL": str(INTERVAL), "PAPERSHELF_ENRICH_SETTLE": "0.2",
           "PAPERSHELF_ARXIV_TIMEOUT": "5"}
    first = ServerProcess(tmp_path / "host-a", env=env).start()
    second = ServerProcess(tmp_path / "host-b", env=env)
    try:
        second.start()
        yield first, second
    finally:
        first.stop()
        second.stop()


def _states(server, token):
    items = call(server.base, "GET", "/api/papers?limit=200", token)[1]["items"]
    return [p["enrichment"]["state"] for p in items]


def test_one_enricher_and_one_arxiv_interval_across_two_hosts(two_hosts, fake):
    first, second = two_hosts
    token = first.token  # the first start created the user; the second found the store in use
    ids = [f"2601.1{n:04d}" for n in range(60)]
    for n, arxiv_id in enumerate(ids):  # saves through both hosts, in bursts
        server = (first, second)[n % 2]
        status, _ = call(server.base, "POST", "/api/papers", token,
                         {"arxiv_id": arxiv_id, "title": arxiv_id, "authors": ["A"]})
        assert status == 201
        if n % 20 == 19:
            assert wait_for(lambda k=n + 1: _states(first, token).count("done") == k)
    assert [ENRICHES in s.output for s in (first, second)] == [True, False]
    calls = fake.requests
    assert sorted(i for c in calls for i in c.ids) == sorted(ids)
    assert len(calls) >= 3
    gaps = [b.at - a.at for a, b in zip(calls, calls[1:], strict=False)]
    assert all(g >= INTERVAL * 0.95 for g in gaps), gaps

    # The enricher dies: the other host takes over within its standby poll.
    first.kill()
    more = [f"2601.1{n:04d}" for n in range(60, 70)]
    for arxiv_id in more:
        assert call(second.base, "POST", "/api/papers", token,
                    {"arxiv_id": arxiv_id, "title": arxiv_id})[0] == 201
    assert wait_for(lambda: _states(second, token).count("done") == 70, timeout=60), \
        second.output[-2000:]
    assert ENRICHES in second.output


def test_mixed_load_through_two_hosts_has_no_errors(two_hosts):
    first, second = two_hosts
    token = first.token
    status, group = call(first.base, "POST", "/api/groups", token, {"name": "Lab"})
    assert status == 201
    papers = [{"arxiv_id": f"2602.{20000 + n}", "title": f"Shared paper {n}",
               "groups": [group["id"]]} for n in range(10)]

    def client(k):
        server = (first, second)[k % 2]
        errors = []
        for i in range(12):
            body = papers[(k + i) % 10]
            status, saved = call(server.base, "POST", "/api/papers", token, body)
            if status not in (200, 201):
                errors.append((status, saved))
                continue
            for method, path, payload in (
                    ("PATCH", f"/api/papers/{saved['id']}", {"tags": [f"t{k}", "shared"]}),
                    ("POST", f"/api/papers/{saved['id']}/notes", {"body": f"note {k} {i}"}),
                    ("POST", "/api/papers/lookup", {"arxiv_ids": [p["arxiv_id"] for p in papers]}),
                    ("GET", f"/api/groups/{group['id']}/papers", None)):
                status, answer = call(server.base, method, path, token, payload)
                if status not in (200, 201):
                    errors.append((method, path, status, answer))
        return errors

    with ThreadPoolExecutor(16) as pool:
        errors = [e for errs in pool.map(client, range(16)) for e in errs]
    assert errors == []
    shelf = call(second.base, "GET", f"/api/groups/{group['id']}/papers", token)[1]
    assert len(shelf["items"]) == 10
    assert sum(len(p["notes"]) for p in shelf["items"]) == 16 * 12
