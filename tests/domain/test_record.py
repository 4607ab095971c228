"""One record shape: the store's records, the readers' records and the response schema agree."""

from datetime import datetime

from papershelf.domain.record import HIGHLIGHT_RECORD, NOTE_RECORD, PAPER_RECORD, new_record
from papershelf.http.schemas import HighlightSchema, NoteSchema, PaperSchema
from papershelf.store.models import Highlight, Note, Paper
from papershelf.store.records import highlight_record, note_record, paper_record


def test_the_store_builds_records_in_the_one_shape():
    now = datetime(2026, 3, 31, 12, 0, 0)
    paper = Paper(id=7, title="T", citation_key="k", created_at=now, updated_at=now)
    assert list(paper_record(paper, [], [], [])) == ["id", *PAPER_RECORD]
    note = Note(id=1, paper=7, body="b", created_at=now, updated_at=now)
    assert tuple(note_record(note)) == NOTE_RECORD
    highlight = Highlight(id=1, paper=7, exact="x", start=0, end=1, created_at=now, updated_at=now)
    assert tuple(highlight_record(highlight)) == HIGHLIGHT_RECORD


def test_readers_build_records_in_the_one_shape():
    assert list(new_record(title="T")) == list(PAPER_RECORD)
    first, second = new_record(), new_record()
    first["authors"].append("A")
    assert second["authors"] == []  # defaults are never shared between records


def test_the_response_schemas_describe_the_one_shape():
    assert list(PaperSchema().fields) == ["id", *PAPER_RECORD]
    assert tuple(NoteSchema().fields) == NOTE_RECORD
    assert tuple(HighlightSchema().fields) == HIGHLIGHT_RECORD
