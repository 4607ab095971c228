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
