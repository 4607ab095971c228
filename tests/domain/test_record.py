"""One record shape: the store's records, the readers' records and the response schema agree."""

from datetime import datetime

import pytest

from papershelf.domain.record import (
    HIGHLIGHT_RECORD,
    NOTE_RECORD,
    PAPER_RECORD,
    is_provisional_title,
    new_record,
    provisional_title,
)
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


@pytest.mark.parametrize(("title", "arxiv_id", "expected"), [
    ("arXiv:2603.01234", "2603.01234", True),
    ("2603.01234", "2603.01234", True),  # what earlier extensions sent for a page without a title
    ("  2603.01234v2\n", "2603.01234", True),
    ("ARXIV:2603.01234", "2603.01234", True),
    ("https://arxiv.org/abs/2603.01234", "2603.01234", True),
    ("arXiv:math.GT/0309136", "math/0309136", True),
    ("arXiv:2603.04567", "2603.01234", False),  # another paper's id
    ("A study of 2603.01234", "2603.01234", False),
    ("Attention Is All You Need", "1706.03762", False),
    ("2603.01234", None, False),
    ("", "2603.01234", False),
    (None, "2603.01234", False),
])
def test_a_provisional_title_only_names_the_papers_id(title, arxiv_id, expected):
    assert is_provisional_title(title, arxiv_id) is expected


def test_the_provisional_title_is_provisional():
    assert is_provisional_title(provisional_title("hep-th/9901001"), "hep-th/9901001")
