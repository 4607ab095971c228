"""The export reads its records from raw rows (``store.records.records_by_id``): the same
records, and so the same bytes in every format, as the records built from model instances
(``paper_records``), on a varied library (the ugly corpus, real bibliographies, tags, notes and
highlights, edited and pinned papers), on both stores."""

from __future__ import annotations

from pathlib import Path

import pytest

from papershelf.formats import writer_for
from papershelf.formats.backup import write_backup
from tests.fixtures.records import ugly_records

BIB = Path(__file__).parent / "fixtures" / "bib"


def _import(client, headers, data: bytes, fmt: str) -> None:
    r = client.post(f"/api/import?format={fmt}", data=data, headers=headers)
    assert r.status_code == 200, r.json
    assert r.json["created"] > 0, r.json


@pytest.fixture
def varied(client, alice):
    """A library of every kind of paper the store holds."""
    backup = "".join(write_backup(ugly_records()))
    _import(client, alice, backup.encode(), "json")
    for name in ("zotero_export.bib", "biblatex_style.bib", "messy_syntax.bib", "windows1252.bib"):
        _import(client, alice, (BIB / name).read_bytes(), "bibtex")
    _import(client, alice, (BIB / "zotero_items.json").read_bytes(), "csljson")
    items = client.get("/api/papers?limit=200", headers=alice).json["items"]
    assert len(items) > 20
    first, second = items[0], items[1]
    # edits, a pinned key, tags, a note, a highlight and a timestamp with no fraction
    client.patch(f"/api/papers/{first['id']}", headers=alice,
                 json={"title": "Edited {title} with $x$", "tags": ["z", "a,b", "naïve"]})
    client.patch(f"/api/papers/{second['id']}", headers=alice, json={"citation_key": "Pinned:1"})
    client.post(f"/api/papers/{first['id']}/notes", json={"body": "A note — with ‰"},
                headers=alice)
    return alice


def _stored_records(app):
    from papershelf.store import records
    from papershelf.store.models import Paper, User

    with app.extensions["papershelf_db"].connection_context():
        user = User.get(User.name == "alice")
        models = list(Paper.select().where(Paper.user == user.id)
                      .order_by(Paper.citation_key, Paper.id))
        ids = [p.id for p in models]
        return records.paper_records(models), records.records_by_id(ids), ids


def test_raw_rows_give_the_same_records_as_models(app, client, varied):
    from papershelf.store import records

    by_models, by_rows, ids = _stored_records(app)
    assert by_rows == by_models
    assert [r["id"] for r in by_rows] == ids
    with app.extensions["papershelf_db"].connection_context():
        assert records.records_by_id([]) == []
        assert records.records_by_id([ids[1], -5, ids[0]]) == [by_models[1], by_models[0]]


@pytest.mark.parametrize("fmt", ["bibtex", "biblatex", "csljson", "ris", "json"])
def test_the_export_is_byte_for_byte_what_the_writer_makes_of_model_records(app, client, varied,
                                                                             fmt):
    client.get("/api/export?format=bibtex", headers=varied)  # the keys fixed once
    by_models, _, _ = _stored_records(app)
    by_models.sort(key=lambda r: (r["citation_key"], r["id"]))
    if fmt == "json":  # a backup keeps the published-version choices beside each record
        from papershelf.services import published

        with app.extensions["papershelf_db"].connection_context():
            by_models = list(published.with_choices(by_models))
    r = client.get(f"/api/export?format={fmt}", headers=varied)
    assert r.status_code == 200
    assert r.get_data(as_text=True) == "".join(writer_for(fmt)(by_models))


def test_entry_rows_give_the_entry_fields_of_the_same_records(app, client, varied):
    """What the BibTeX export reads (``entry_rows_by_id``): each record's ``ENTRY_FIELDS``, its
    notes' and highlights' fields of ``ENTRY_NOTE``/``ENTRY_HIGHLIGHT``, as the full records
    have them, in the order asked."""
    from papershelf.domain.record import ENTRY_FIELDS, ENTRY_HIGHLIGHT, ENTRY_NOTE
    from papershelf.store import records

    by_models, _, ids = _stored_records(app)
    assert any(r["notes"] for r in by_models) and any(r["highlights"] for r in by_models)
    expected = [{**{k: r[k] for k in ENTRY_FIELDS},
                 "notes": [{k: n[k] for k in ENTRY_NOTE} for n in r["notes"]],
                 "highlights": [{k: h[k] for k in ENTRY_HIGHLIGHT} for h in r["highlights"]]}
                for r in by_models]
    with app.extensions["papershelf_db"].connection_context():
        got = [records.entry_record_of(raw) for raw in records.entry_rows_by_id(ids)]
        assert records.entry_rows_by_id([]) == []
        picked = records.entry_rows_by_id([ids[1], -5, ids[0]])
    assert got == expected
    assert [records.entry_record_of(raw) for raw in picked] == [expected[1], expected[0]]
