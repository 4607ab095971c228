"""The background worker that writes BibTeX entries ahead (``entries_worker``): papers saved
one at a time have their entries kept before any export asks, on both stores, so that the first
export of a server just started writes none; a round with nothing due, or whose entries cannot
be kept, waits a poll rather than spinning."""

from __future__ import annotations

import pytest

from papershelf import entries_worker
from papershelf.services import entry_cache, transfer
from papershelf.store.models import WrittenEntry


@pytest.fixture
def worker(app):
    return app.extensions["papershelf_entries"]


def _saved(client, headers, paper_data, n, start=0):
    return [client.post("/api/papers", headers=headers, json={
        **paper_data, "arxiv_id": f"2604.{10000 + start + i}", "title": f"Saved paper {i}"}
    ).json["id"] for i in range(n)]


def _kept(app) -> set[int]:
    with app.extensions["papershelf_db"].connection_context():
        return {pid for (pid,) in WrittenEntry.select(WrittenEntry.paper).tuples()}


def _export(client, headers) -> str:
    r = client.get("/api/export?format=bibtex", headers=headers)
    assert r.status_code == 200
    return r.get_data(as_text=True)


def test_papers_saved_from_pages_are_written_ahead_of_the_first_export(
        app, client, alice, bob, paper_data, worker, monkeypatch):
    mine = _saved(client, alice, paper_data, 3)
    theirs = _saved(client, bob, paper_data, 2, start=50)
    assert client.patch("/api/settings", headers=bob,
                        json={"export": {"abstract": False}}).status_code == 200
    assert _kept(app) == set()
    assert worker.round() > 0  # not a full batch: wait a poll
    assert _kept(app) == {*mine, *theirs}
    assert worker.batches == [5]

    written = []
    writer = entry_cache.ENTRY_WRITERS["bibtex"]
    monkeypatch.setitem(entry_cache.ENTRY_WRITERS, "bibtex",
                        lambda records, **o: (written.append(len(records)) if records else None)
                        or writer(records, **o))
    entry_cache.CACHE.clear()  # the server restarted
    mine_exported, theirs_exported = _export(client, alice), _export(client, bob)
    assert written == []  # each user's export found its user's kind of entry kept
    assert mine_exported.count("@misc{") == 3 and "abstract = " in mine_exported
    assert theirs_exported.count("@misc{") == 2 and "abstract = " not in theirs_exported

    assert worker.round() > 0 and worker.batches == [5]  # nothing due: nothing written


def test_full_batches_go_on_and_a_round_that_cannot_keep_waits_a_poll(
        app, client, alice, paper_data, worker, monkeypatch):
    monkeypatch.setattr(transfer, "BATCH", 2)
    _saved(client, alice, paper_data, 5)
    assert worker.round() == entries_worker.BETWEEN_BATCHES  # a full batch: more may be due
    assert worker.round() == entries_worker.BETWEEN_BATCHES
    assert len(_kept(app)) == 4
    assert worker.round() > entries_worker.BETWEEN_BATCHES  # the last one, then a poll
    assert len(_kept(app)) == 5

    from papershelf.store import entries

    def broken(*args):
        raise RuntimeError("disk full")

    monkeypatch.setattr(entries, "keep", broken)
    _saved(client, alice, paper_data, 4, start=100)
    assert worker.round() == entries_worker.BETWEEN_BATCHES  # written, keeping logged as failed
    assert worker.round() > entries_worker.BETWEEN_BATCHES  # the same papers due: not again now
    assert len(_kept(app)) == 5
