"""Each test on a store of its own, where the run shares things between tests: the PostgreSQL
database is one per worker process (emptied before each test), and the run is split over worker
processes. Here two tests run one after the other in one process (a test file runs whole on one
worker, in its order): what the first stored, the second does not find, by the API or in
the store itself."""

import pytest

# What the first test left, per store, in this process.
_left = {}


def test_the_first_test_leaves_a_user_a_paper_a_note_and_a_token(client, app, alice, saved, database_url):
    r = client.post(f"/api/papers/{saved['id']}/notes", json={"body": "left behind"}, headers=alice)
    assert r.status_code == 201, r.json
    _left[database_url.split(":", 1)[0]] = {"token": alice["Authorization"], "id": saved["id"]}


def test_the_next_test_finds_none_of_it(client, app, make_user, database_url):
    store = database_url.split(":", 1)[0]
    if store not in _left:
        pytest.skip("the first test did not run before this one in this process")
    left = _left.pop(store)
    from papershelf.store.models import ApiToken, Note, Paper, User

    with app.extensions["papershelf_db"].connection_context():
        assert (User.select().count(), Paper.select().count(), Note.select().count(),
                ApiToken.select().count()) == (0, 0, 0, 0)
    # the first test's token opens nothing here
    r = client.get("/api/papers", headers={"Authorization": left["token"]})
    assert r.status_code == 401, r.json
    alice = make_user("alice")
    assert client.get("/api/papers", headers=alice).json["items"] == []
    assert client.get(f"/api/papers/{left['id']}", headers=alice).status_code == 404
