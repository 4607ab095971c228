"""PostgreSQL: page saves are not serialized per user. An edit (PATCH) still takes the user's row
lock, which waits for every save that is inserting a paper (a foreign key takes a share lock on
the user), but not for a save that merges into a paper already stored and fills its empty DOI or
URL. That race is made certain here: another connection holds such an uncommitted fill, the edit
passes its check, waits on the unique index, and the fill commits."""

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


def test_an_edit_that_loses_a_race_for_a_doi_is_a_conflict(app, client, alice, paper_data):
    first = client.post("/api/papers", json=paper_data, headers=alice).json
    other = client.post("/api/papers", json={**paper_data, "arxiv_id": "2611.11111",
                                             "title": "Another paper"}, headers=alice).json
    assert first["doi"] is None and other["doi"] is None
    held = _hold_uncommitted(app.config["DATABASE_URL"],
                             "UPDATE paper SET doi = %s WHERE id = %s", ("10.1234/raced", other["id"]))
    r = client.patch(f"/api/papers/{first['id']}", json={"doi": "10.1234/raced"}, headers=alice)
    held.join()
    assert r.status_code == 409, r.json
    assert r.json["error"]["code"] == "conflict"
    assert client.get(f"/api/papers/{first['id']}", headers=alice).json["doi"] is None
    assert client.get(f"/api/papers/{other['id']}", headers=alice).json["doi"] == "10.1234/raced"
