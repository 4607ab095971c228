"""Many clients at once, over real HTTP: no duplicates, no errors, no "database is locked"."""

from concurrent.futures import ThreadPoolExecutor

from papershelf.testing import call, serve_in_thread


def _token(headers):
    return headers["Authorization"].split()[1]


def test_concurrent_saves_of_one_paper_leave_one_row(app, alice, paper_data):
    token = _token(alice)
    with serve_in_thread(app) as base, ThreadPoolExecutor(16) as pool:
        results = list(pool.map(lambda _: call(base, "POST", "/api/papers", token, paper_data),
                                range(48)))
        statuses = sorted(s for s, _ in results)
        assert statuses.count(201) == 1 and statuses.count(200) == 47, statuses
        assert len({body["id"] for _, body in results}) == 1
        status, page = call(base, "GET", "/api/papers", token)
        assert len(page["items"]) == 1


def test_16_clients_saving_the_same_20_papers_with_notes(app, alice, paper_data):
    token = _token(alice)
    papers = [{**paper_data, "arxiv_id": f"2603.{30000 + i}", "title": f"Paper {i}"}
              for i in range(20)]

    def client_run(n):
        errors = []
        for i, body in enumerate(papers[n % 20:] + papers[:n % 20]):
            status, saved = call(base, "POST", "/api/papers", token, body)
            if status not in (200, 201):
                errors.append((status, saved))
                continue
            status, note = call(base, "POST", f"/api/papers/{saved['id']}/notes", token,
                                {"body": f"client {n} note {i}"})
            if status != 201:
                errors.append((status, note))
        return errors

    with serve_in_thread(app) as base, ThreadPoolExecutor(16) as pool:
        errors = [e for errs in pool.map(client_run, range(16)) for e in errs]
        assert errors == []
        items = call(base, "GET", "/api/papers?limit=200", token)[1]["items"]
    assert len(items) == 20
    assert sorted(p["arxiv_id"] for p in items) == sorted(p["arxiv_id"] for p in papers)
    assert sum(len(p["notes"]) for p in items) == 16 * 20
    assert len({p["citation_key"] for p in items}) == 20


def test_concurrent_saves_of_papers_sharing_a_citation_key_base(app, alice, paper_data):
    """Papers saved side by side (not serialized on PostgreSQL) still get distinct keys."""
    token = _token(alice)
    papers = [{**paper_data, "arxiv_id": f"2604.{40000 + i}", "title": f"Agents at scale {i}",
               "authors": ["Ada Smith"], "published": "2026-01-02"} for i in range(24)]
    with serve_in_thread(app) as base, ThreadPoolExecutor(16) as pool:
        results = list(pool.map(lambda body: call(base, "POST", "/api/papers", token, body),
                                papers))
    assert sorted(s for s, _ in results) == [201] * 24, [b for s, b in results if s != 201][:2]
    keys = sorted(body["citation_key"] for _, body in results)
    assert len(set(keys)) == 24
    assert all(k.startswith("smith2026agents") for k in keys)
