"""The JSON backup: dump -> load gives back every record, minus the store's ids."""

from __future__ import annotations

import json

import pytest

from papershelf.formats import FormatError
from papershelf.formats.backup import read_backup, write_backup
from tests.fixtures.records import ugly_records


def without_ids(record: dict) -> dict:
    out = {k: v for k, v in record.items() if k != "id"}
    out["notes"] = [{k: v for k, v in n.items() if k != "id"} for n in record["notes"]]
    out["highlights"] = [{k: v for k, v in h.items() if k != "id"} for h in record["highlights"]]
    return out


def test_backup_round_trips():
    text = "".join(write_backup(ugly_records()))
    records, skipped = read_backup(text)
    assert skipped == []
    assert records == [without_ids(r) for r in ugly_records()]


def test_backup_is_valid_json_and_deterministic():
    text = "".join(write_backup(ugly_records()))
    assert json.loads(text)["format"] == "papershelf-backup"
    assert text == "".join(write_backup(ugly_records()))


def test_an_empty_library_round_trips():
    assert read_backup("".join(write_backup([]))) == ([], [])


@pytest.mark.parametrize("text", [
    "", "not json", "[]", '{"format": "other"}',
    '{"format": "papershelf-backup", "version": 99, "papers": []}',
    '{"format": "papershelf-backup", "version": 1, "papers": {}}',
    '{"format": "papershelf-backup", "version": 1, "papers": [1]}',
    '{"format": "papershelf-backup", "version": 1, "papers": [{"title": "x", "bogus": 1}]}',
    '{"format": "papershelf-backup", "version": 1, "papers": [{"title": "x", "tags": "a"}]}',
    '{"format": "papershelf-backup", "version": 1, "papers": [{"title": "x", "notes": [{}]}]}',
])
def test_a_malformed_backup_raises_a_clear_error(text):
    with pytest.raises(FormatError):
        read_backup(text)


def test_papers_without_a_title_are_skipped():
    text = '{"format": "papershelf-backup", "version": 1, "papers": [{"title": " "}, {"title": "ok"}]}'
    records, skipped = read_backup(text)
    assert [r["title"] for r in records] == ["ok"]
    assert skipped == [{"index": 0, "reason": "no title"}]


def test_a_version_1_backup_still_reads():
    text = ('{"format": "papershelf-backup", "version": 1, "papers": [{"title": "Old", '
            '"authors": ["Ann Old"], "published": "2020-05-01", "journal_ref": "Nature 1, 2 (2020)"}]}')
    (record,), skipped = read_backup(text)
    assert skipped == [] and record["title"] == "Old"
    assert (record["published_precision"], record["extra"], record["editors"]) == (None, {}, [])
