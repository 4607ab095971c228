"""A BibTeX or BibLaTeX entry is written from the record's ``domain.record.ENTRY_FIELDS`` (and of
its notes and highlights, ``ENTRY_NOTE`` and ``ENTRY_HIGHLIGHT``) alone: the export reads only
those from the store (``store.records.entry_rows_by_id``), so the writer must make the same bytes
of a record cut down to them, whatever the options, on every kind of record."""

from __future__ import annotations

from pathlib import Path

import pytest

from papershelf.domain.record import ENTRY_FIELDS, ENTRY_HIGHLIGHT, ENTRY_NOTE, PAPER_RECORD
from papershelf.formats.bibtex_read import read_bibtex
from papershelf.formats.bibtex_write import write_biblatex, write_bibtex
from papershelf.formats.csljson import read_csljson
from tests.fixtures.records import ugly_records

BIB = Path(__file__).parents[1] / "fixtures" / "bib"


def _records() -> list[dict]:
    out = list(ugly_records())
    for path in sorted(BIB.glob("*.bib")):
        raw = path.read_bytes()
        text = raw.decode("utf-16") if raw[:2] in (b"\xff\xfe", b"\xfe\xff") else \
            raw.decode("utf-8", "replace")
        out += read_bibtex(text)[0]
    out += read_csljson((BIB / "zotero_items.json").read_text("utf-8"))[0]
    found = {"entry_type": "inproceedings", "booktitle": "Advances in Neural Information "
             "Processing Systems", "year": 2017, "pages": "5998--6008", "doi": "10.5555/3295222"}
    for cite in ("published", "preprint"):  # a preprint with a published version, cited or not
        out.append({**out[0], "published_version": found, "cite": cite})
    for i, record in enumerate(out):  # every record with the shape's fields, as the store has them
        record.update({k: v for k, v in PAPER_RECORD.items() if k not in record})
        record.setdefault("citation_key", f"key{i}")
    return out


def _entry_record(record: dict) -> dict:
    out = {name: record[name] for name in ENTRY_FIELDS}
    out["notes"] = [{k: n.get(k) for k in ENTRY_NOTE} for n in record["notes"]]
    out["highlights"] = [{k: h.get(k) for k in ENTRY_HIGHLIGHT} for h in record["highlights"]]
    return out


OPTIONS = [{}, {"with_state": True}, {"notes_field": "note"}, {"encoding": "utf8"},
           {"abstract": False}, {"version": "preprint"}, {"venue": "short"}]


@pytest.mark.parametrize("write", [write_bibtex, write_biblatex])
@pytest.mark.parametrize("options", OPTIONS)
def test_an_entry_is_written_from_its_entry_fields_alone(write, options):
    records = _records()
    assert len(records) > 40
    assert any(r["notes"] for r in records) and any(r["highlights"] for r in records)
    assert any(r["verbatim"] for r in records) and any(r["extra"] for r in records)
    assert any(r["published_version"] for r in records)
    full = "".join(write(records, **options))
    assert "".join(write([_entry_record(r) for r in records], **options)) == full


def test_the_entry_fields_are_fields_of_the_record():
    assert set(ENTRY_FIELDS) <= set(PAPER_RECORD)
    assert len(set(ENTRY_FIELDS)) == len(ENTRY_FIELDS)
