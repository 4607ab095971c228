"""PostgreSQL: page saves are not serialized per user. An edit (PATCH) still takes the user's row
lock, which waits for every save that is inserting a paper (a foreign key takes a share lock on
the user), but not for a save that merges into a paper already stored and fills its empty arXiv
id. That race is made certain here: another connection holds such an uncommitted fill, the edit
passes its check, waits on the unique index, and the fill commits. (DOIs and URLs are not unique:
works may share them.)"""

import threading
import time

import psycopg
import pytest


@pytest.fixture
def database_url(empty_pg):
    """PostgreSQL only: SQLite serializes every write, so this race cannot happen there."""
    return empty_pg


def _hold_uncommitted(url, sql, params):
    """Run ``sql`` in an open transaction on a connection of its own; commit it 0.5 s later."""
    conn = psycopg.connect(url)
    with conn.cursor() as cur:
        cur.execute(sql, params)

    def commit_later():
        time.sleep(0.5)
        conn.commit()
        conn.close()

    thread = threading.Thread(target=commit_later)
    thread.start()
    return thread


def test_an_edit_that_loses_a_race_for_an_arxiv_id_is_a_conflict(app, client, alice, paper_data):
    first = client.post("/api/papers", json={**paper_data, "arxiv_id": None, "title": "First"},
                        headers=alice).json
    other = client.post("/api/papers", json={**paper_data, "arxiv_id": None,
                                             "title": "Another paper"}, headers=alice).json
    assert first["arxiv_id"] is None and other["arxiv_id"] is None
    held = _hold_uncommitted(app.config["DATABASE_URL"],
                             "UPDATE paper SET arxiv_id = %s WHERE id = %s", ("2611.11111", other["id"]))
    r = client.patch(f"/api/papers/{first['id']}", json={"arxiv_id": "2611.11111"}, headers=alice)
    held.join()
    assert r.status_code == 409, r.json
    assert r.json["error"]["code"] == "conflict"
    assert client.get(f"/api/papers/{first['id']}", headers=alice).json["arxiv_id"] is None
    assert client.get(f"/api/papers/{other['id']}", headers=alice).json["arxiv_id"] == "2611.11111"


def test_resaves_and_tag_edits_of_one_paper_neither_deadlock_nor_conflict(app, alice, paper_data):
    """8 clients save the page again (with tags of their own) while 8 others PATCH the paper's
    tags: every request succeeds (no ``deadlock detected``, no 409 for a tags-only edit)."""
    from concurrent.futures import ThreadPoolExecutor

    from papershelf.testing import call, serve_in_thread

    token = alice["Authorization"].split()[1]
    with serve_in_thread(app) as base:
        status, first = call(base, "POST", "/api/papers", token, paper_data)
        assert status == 201, first

        def resave(n):
            return call(base, "POST", "/api/papers", token,
                        {**paper_data, "tags": [f"save-{n}", f"save-{n + 1}"]})

        def edit(n):
            return call(base, "PATCH", f"/api/papers/{first['id']}", token,
                        {"tags": [f"edit-{n}", "shared"]})

        with ThreadPoolExecutor(16) as pool:
            futures = [pool.submit(fn, n) for n in range(8) for fn in (resave, edit)]
            futures += [pool.submit(fn, n) for n in range(8, 22) for fn in (resave, edit)]
            results = [f.result() for f in futures]
        failed = [(s, b) for s, b in results if s not in (200, 201)]
        assert failed == []
        status, page = call(base, "GET", "/api/papers", token)
    assert len(page["items"]) == 1
