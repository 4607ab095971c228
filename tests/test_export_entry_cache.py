"""BibTeX and BibLaTeX exports keep each entry written under a digest of what it is written from
(``services.entry_cache``): an export after any write that changes an entry has the new entry,
byte for byte what the writer makes of the papers' records read afresh, on both stores; and the
store of entries stays within its bound."""

from __future__ import annotations

import pytest

from papershelf.formats import writer_for
from papershelf.services import entry_cache
from papershelf.services.entry_cache import EntryCache, digest


@pytest.fixture
def shelf(client, alice, paper_data):
    """Three papers, tagged, with a note and a highlight each."""
    ids = []
    for i, tag in enumerate(["rl", "rl", "vision"]):
        body = {**paper_data, "arxiv_id": f"2603.2800{i}", "title": f"Paper {i} on {tag}",
                "tags": [tag, "to-read"]}
        pid = client.post("/api/papers", json=body, headers=alice).json["id"]
        client.post(f"/api/papers/{pid}/notes", json={"body": f"note {i}"}, headers=alice)
        client.post(f"/api/papers/{pid}/highlights", headers=alice,
                    json={"exact": "We", "start": 0, "end": 2, "comment": f"c {i}"})
        ids.append(pid)
    return ids


def _fresh(app, fmt: str, **options) -> str:
    """The export as the writer makes it of records read afresh from models (no entry kept)."""
    from papershelf.store import records
    from papershelf.store.models import Paper, User

    with app.extensions["papershelf_db"].connection_context():
        user = User.get(User.name == "alice")
        models = list(Paper.select().where(Paper.user == user.id))
        recs = sorted(records.paper_records(models), key=lambda r: (r["citation_key"], r["id"]))
    return "".join(writer_for(fmt)(recs, **options))


def _export(client, headers, query: str = "format=bibtex") -> str:
    r = client.get(f"/api/export?{query}", headers=headers)
    assert r.status_code == 200
    return r.get_data(as_text=True)


def _note_of(client, headers, pid):
    return client.get(f"/api/papers/{pid}", headers=headers).json["notes"][0]["id"]


def _highlight_of(client, headers, pid):
    return client.get(f"/api/papers/{pid}", headers=headers).json["highlights"][0]["id"]


# each a write through the API that changes what one or more entries are written from
EDITS = {
    "title": lambda c, h, ids: c.patch(f"/api/papers/{ids[0]}", headers=h,
                                       json={"title": "A new title with $x$ and ü"}),
    "authors": lambda c, h, ids: c.patch(f"/api/papers/{ids[1]}", headers=h,
                                         json={"authors": ["ZHANG Wei", "OpenAI"]}),
    "tags": lambda c, h, ids: c.patch(f"/api/papers/{ids[0]}", headers=h,
                                      json={"tags": ["z", "a,b"]}),
    "tag renamed": lambda c, h, ids: c.patch("/api/tags/rl", headers=h,
                                             json={"name": "reinforcement"}),
    "tag deleted": lambda c, h, ids: c.delete("/api/tags/to-read", headers=h),
    "tags in bulk": lambda c, h, ids: c.patch("/api/papers", headers=h, json={
        "ids": ids, "add_tags": ["bulk"]}),
    "note added": lambda c, h, ids: c.post(f"/api/papers/{ids[2]}/notes", headers=h,
                                           json={"body": "another — note"}),
    "note edited": lambda c, h, ids: c.patch(f"/api/notes/{_note_of(c, h, ids[1])}", headers=h,
                                             json={"body": "edited note"}),
    "note deleted": lambda c, h, ids: c.delete(f"/api/notes/{_note_of(c, h, ids[0])}",
                                               headers=h),
    "highlight edited": lambda c, h, ids: c.patch(
        f"/api/highlights/{_highlight_of(c, h, ids[0])}", headers=h, json={"comment": "new"}),
    "highlight deleted": lambda c, h, ids: c.delete(
        f"/api/highlights/{_highlight_of(c, h, ids[2])}", headers=h),
    "citation key": lambda c, h, ids: c.patch(f"/api/papers/{ids[2]}", headers=h,
                                              json={"citation_key": "Pinned:1"}),
    "paper deleted": lambda c, h, ids: c.delete(f"/api/papers/{ids[1]}", headers=h),
    "reading state": lambda c, h, ids: c.patch(f"/api/papers/{ids[0]}", headers=h,
                                               json={"reading_state": "read", "starred": True}),
}


@pytest.mark.parametrize("edit", list(EDITS))
@pytest.mark.parametrize("query", [
    "format=bibtex", "format=biblatex&encoding=utf8&with_state=1&notes_field=note"])
def test_an_export_after_a_write_has_the_entries_as_written_afresh(app, client, alice, shelf,
                                                                   edit, query):
    options = dict(part.split("=") for part in query.split("&"))
    fmt = options.pop("format")
    options = {k: v == "1" if k == "with_state" else v for k, v in options.items()}
    before = _export(client, alice, query)  # the keys fixed, the entries kept
    assert before == _export(client, alice, query) == _fresh(app, fmt, **options)
    r = EDITS[edit](client, alice, shelf)
    assert r.status_code in (200, 201, 204), r.get_data(as_text=True)
    after = _export(client, alice, query)
    if edit != "reading state" or "with_state" in query:  # (else not in the entry)
        assert after != before
    assert after == _fresh(app, fmt, **options)


def test_the_options_are_part_of_what_an_entry_is_written_from(app, client, alice, shelf):
    plain = _export(client, alice)
    without = _export(client, alice, "format=bibtex&abstract=0")
    assert without != plain and "abstract = " not in without
    assert without == _fresh(app, "bibtex", abstract=False)
    assert _export(client, alice) == plain


def test_bad_options_fail_before_anything_is_read():
    with pytest.raises(ValueError, match="notes_field"):
        entry_cache.entries_for("bibtex", [], {"notes_field": "body"})


def test_values_of_other_types_have_other_digests():
    rows = [(("1",),), ((1,),), ((1.0,),), ((True,),), ((None,),), (("None",),), (("",),)]
    keys = {digest("bibtex", (), row) for row in rows}
    assert len(keys) == len(rows)
    assert digest("bibtex", (), (("a", 1),)) == digest("bibtex", (), (("a", 1),))
    assert digest("bibtex", (), (("a",),)) != digest("biblatex", (), (("a",),))
    assert digest("bibtex", (("abstract", True),), ()) != digest("bibtex", (("abstract", False),), ())


def test_the_store_of_entries_stays_within_its_bound_least_recently_used_out_first():
    cache = EntryCache(max_chars=30)
    first = cache.new_run()
    cache.put_many([(b"a", "x" * 10), (b"b", "y" * 10), (b"c", "z" * 10)], first)
    assert cache.get_many([b"a", b"b", b"c"], first) == ["x" * 10, "y" * 10, "z" * 10]
    second = cache.new_run()
    assert cache.get_many([b"b"], second) == ["y" * 10]  # b used again: a is the oldest
    cache.put_many([(b"d", "w" * 10)], second)
    assert cache.get_many([b"a", b"b", b"c", b"d"], second) == [None, "y" * 10, "z" * 10, "w" * 10]
    assert len(cache) == 3
    cache.put_many([(b"big", "v" * 31)], cache.new_run())  # larger than the bound: not kept
    assert cache.get_many([b"big"], second) == [None]
    cache.clear()
    cache.put_many([(b"u", "ü" * 8)], cache.new_run())  # not ASCII: counted four times over
    assert cache.get_many([b"u"], second) == [None]
    cache.put_many([(b"u", "ü" * 7)], cache.new_run())
    assert cache.get_many([b"u"], second) == ["ü" * 7]


def test_an_export_larger_than_the_bound_keeps_its_first_entries_rather_than_none():
    cache = EntryCache(max_chars=25)
    run = cache.new_run()
    cache.put_many([(bytes([i]), "e" * 10) for i in range(5)], run)
    assert cache.get_many([bytes([i]) for i in range(5)], run) == ["e" * 10] * 2 + [None] * 3
    later = cache.new_run()  # the next export finds the same two, and keeps them
    assert cache.get_many([bytes([i]) for i in range(5)], later) == ["e" * 10] * 2 + [None] * 3
    cache.put_many([(bytes([i]), "e" * 10) for i in range(2, 5)], later)
    assert cache.get_many([bytes([0]), bytes([1])], later) == ["e" * 10] * 2


def test_an_unchanged_entry_is_written_once_and_a_changed_one_again(app, client, alice, shelf):
    entry_cache.CACHE.clear()
    first = _export(client, alice)
    assert len(entry_cache.CACHE) == 3
    assert _export(client, alice) == first
    assert len(entry_cache.CACHE) == 3  # found, not written again
    client.patch(f"/api/papers/{shelf[0]}", headers=alice, json={"title": "Changed"})
    assert _export(client, alice) == _fresh(app, "bibtex")
    assert len(entry_cache.CACHE) == 4  # the changed paper's entry, written anew


# ---- the entries kept in the store ----------------------------------------------------------


def _count_written(monkeypatch) -> list[int]:
    """The number of records the BibTeX writer is handed by each export from now on (the
    empty call that checks an export's options not counted)."""
    counts: list[int] = []
    writer = entry_cache.ENTRY_WRITERS["bibtex"]

    def counting(records, **options):
        if records:
            counts.append(len(records))
        return writer(records, **options)

    monkeypatch.setitem(entry_cache.ENTRY_WRITERS, "bibtex", counting)
    return counts


def _stored(app) -> list[tuple]:
    from papershelf.store.models import WrittenEntry

    with app.extensions["papershelf_db"].connection_context():
        return list(WrittenEntry.select(WrittenEntry.paper, WrittenEntry.kind, WrittenEntry.writer)
                    .order_by(WrittenEntry.paper).tuples())


def test_a_server_just_started_writes_only_the_entries_whose_papers_changed(
        app, client, alice, shelf, monkeypatch):
    first = _export(client, alice)
    assert [pid for pid, _, _ in _stored(app)] == sorted(shelf)
    counts = _count_written(monkeypatch)
    entry_cache.CACHE.clear()  # what a new process has in memory
    assert _export(client, alice) == first == _fresh(app, "bibtex")
    assert counts == []  # every entry read from the store, none written
    client.patch(f"/api/papers/{shelf[1]}", headers=alice, json={"title": "Changed"})
    client.post(f"/api/papers/{shelf[2]}/notes", headers=alice, json={"body": "more"})
    entry_cache.CACHE.clear()
    assert _export(client, alice) == _fresh(app, "bibtex") != first
    assert counts == [2]  # the two changed papers' entries, written anew, and kept
    entry_cache.CACHE.clear()
    assert _export(client, alice) == _fresh(app, "bibtex")
    assert counts == [2]
    assert len(_stored(app)) == 3  # one entry a paper for this kind of export, replaced


def test_each_kind_of_export_keeps_its_own_entries(app, client, alice, shelf):
    plain = _export(client, alice)
    other = _export(client, alice, "format=bibtex&abstract=0")
    kinds = {kind for _, kind, _ in _stored(app)}
    assert len(kinds) == 2 and len(_stored(app)) == 6
    entry_cache.CACHE.clear()
    assert _export(client, alice, "format=bibtex&abstract=0") == other
    assert _export(client, alice) == plain


def test_entries_another_version_of_the_writer_kept_are_never_served_and_are_dropped(
        app, client, alice, shelf, monkeypatch):
    from papershelf.store.db import write
    from papershelf.store.models import WrittenEntry

    _export(client, alice)
    with app.extensions["papershelf_db"].connection_context():  # as that version would have
        write(lambda: WrittenEntry.update(entry="@misc{old,\n}\n").execute())
    monkeypatch.setattr(entry_cache, "WRITER", "a newer writer")
    monkeypatch.setattr(entry_cache, "_forgotten", type(entry_cache._forgotten)())
    entry_cache.CACHE.clear()
    assert _export(client, alice) == _fresh(app, "bibtex")
    assert {writer for _, _, writer in _stored(app)} == {"a newer writer"}
    assert len(_stored(app)) == 3


def test_the_writer_code_names_what_an_entry_depends_on(monkeypatch):
    from pathlib import Path

    assert len(entry_cache.WRITER) == 32
    assert entry_cache._writer_code() == entry_cache.WRITER  # the same code: the same name
    assert entry_cache._kind("bibtex", ()) != entry_cache._kind("biblatex", ())
    assert entry_cache._kind("bibtex", (("abstract", True),)) != entry_cache._kind("bibtex", ())
    monkeypatch.setattr(entry_cache, "version", lambda name: "0.0-other")
    assert entry_cache._writer_code() != entry_cache.WRITER  # another pylatexenc
    monkeypatch.undo()
    latex = Path(entry_cache.papershelf.domain.__file__).parent / "latex.py"
    read = Path.read_bytes
    monkeypatch.setattr(Path, "read_bytes",
                        lambda path: read(path) + (b"# edited" if path == latex else b""))
    assert entry_cache._writer_code() != entry_cache.WRITER  # a domain module edited


def test_an_export_whose_entries_cannot_be_kept_is_whole_and_logs_it(
        app, client, alice, shelf, monkeypatch, caplog):
    from papershelf.store import entries

    def broken(*args):
        raise RuntimeError("disk full")

    monkeypatch.setattr(entries, "keep", broken)
    entry_cache.CACHE.clear()
    with caplog.at_level("WARNING", logger="papershelf.services.entry_cache"):
        assert _export(client, alice) == _fresh(app, "bibtex")
    assert "could not be kept" in caplog.text
    assert _stored(app) == []


def test_a_paper_deleted_before_its_entry_is_kept_is_passed_over_and_deleting_drops_them(
        app, client, alice, shelf):
    from papershelf.store import entries
    from papershelf.store.db import write

    _export(client, alice)
    client.delete(f"/api/papers/{shelf[0]}", headers=alice)
    assert sorted(pid for pid, _, _ in _stored(app)) == sorted(shelf[1:])
    kind = _stored(app)[0][1]
    with app.extensions["papershelf_db"].connection_context():
        write(lambda: entries.keep(kind, entry_cache.WRITER,
                                   [(shelf[0], b"0" * 16, "@misc{gone,\n}\n")]))
        assert entries.written(kind, [shelf[0]]) == {}
    assert _export(client, alice) == _fresh(app, "bibtex")


def test_options_said_or_left_to_their_defaults_are_one_kind_of_export(app, client, alice, shelf,
                                                                       monkeypatch):
    _export(client, alice, "format=bibtex&abstract=1&notes_field=annote")
    counts = _count_written(monkeypatch)
    entry_cache.CACHE.clear()
    list(entry_cache.entries_for("bibtex", [], {}))
    with app.extensions["papershelf_db"].connection_context():
        assert "".join(entry_cache.file_for("bibtex", sorted(shelf), {})) != ""
    assert counts == []
    assert len({kind for _, kind, _ in _stored(app)}) == 1


BIB = """@article{smith2020,
  author = {Smith, Anna and M{\\"u}ller, Jan},
  title = {Deep {RL} for Robots},
  journal = {Journal of Things},
  year = {2020},
  doi = {http://dx.doi.org/10.1000/XYZ.1},
}

@inproceedings{lee2021,
  author = {Lee, Min},
  title = {Planning with Language},
  booktitle = {Proceedings of Something},
  year = {2021},
  abstract = {We plan with words.},
  annote = {read this},
}
"""


def test_an_import_writes_its_entries_ahead_for_the_first_export(app, client, alice,
                                                                 monkeypatch):
    assert client.patch("/api/settings", headers=alice,
                        json={"export": {"abstract": False}}).status_code == 200
    r = client.post("/api/import?format=bibtex", data=BIB.encode(), headers=alice)
    assert r.status_code == 200 and r.json["created"] == 2, r.get_data(as_text=True)
    assert len(_stored(app)) == 2
    counts = _count_written(monkeypatch)
    entry_cache.CACHE.clear()  # the server restarted since
    exported = _export(client, alice)
    assert counts == []  # the first export wrote nothing: it read what the import wrote
    assert exported == _fresh(app, "bibtex", abstract=False)
    assert "Planning with Language" in exported and "Deep {RL} for Robots" in exported
    assert "We plan with words" not in exported  # the user's export: without abstracts


def test_an_import_writes_ahead_the_papers_it_changed_and_no_other(app, client, alice,
                                                                   paper_data, monkeypatch):
    other = client.post("/api/papers", headers=alice, json=paper_data).json["id"]
    client.post("/api/import?format=bibtex", data=BIB.encode(), headers=alice)
    again = BIB.replace("annote = {read this}", "annote = {read this again}")
    r = client.post("/api/import?format=bibtex", data=again.encode(), headers=alice)
    assert r.status_code == 200 and r.json["updated"] == 1, r.get_data(as_text=True)
    assert other not in {pid for pid, _, _ in _stored(app)}  # not imported: not written ahead
    counts = _count_written(monkeypatch)
    entry_cache.CACHE.clear()
    exported = _export(client, alice)
    assert counts == [1]  # the paper saved from a page alone: the merged one was written ahead
    assert "read this again" in exported and exported == _fresh(app, "bibtex")


def test_an_import_whose_entries_cannot_be_written_ahead_is_whole(app, client, alice,
                                                                  monkeypatch, caplog):
    def broken(*args, **kwargs):
        raise RuntimeError("out of memory")

    monkeypatch.setattr(entry_cache, "entries_for", broken)
    with caplog.at_level("WARNING", logger="papershelf.services.transfer"):
        r = client.post("/api/import?format=bibtex", data=BIB.encode(), headers=alice)
    assert r.status_code == 200 and r.json["created"] == 2
    assert "written ahead" in caplog.text
    monkeypatch.undo()
    assert _export(client, alice) == _fresh(app, "bibtex")
