"""The merge rule of a later page save, and when two entries are one work, as pure functions."""

import pytest

from papershelf.domain.merge import page_save_changes, titles_compatible

STORED = {"arxiv_id": "2603.29001", "title": "Old title", "authors": ["A B"], "authors_more": 3,
          "abstract": "Stored abstract", "topics": ["LLM Agents"], "arxiv_version": 2,
          "doi": None, "url": "https://arxiv.org/abs/2603.29001"}


def test_a_resave_fills_gaps_and_refreshes_page_fields():
    changes = page_save_changes(STORED, {"title": "New title", "doi": "10.1/x"}, set())
    assert changes == {"title": "New title", "doi": "10.1/x"}


def test_what_the_user_edited_or_arxiv_supplied_is_never_touched():
    incoming = {"title": "Page title", "authors": ["Page Author"], "authors_more": 0}
    assert page_save_changes(STORED, incoming, {"title", "authors"}) == {}


def test_a_page_that_lacks_a_field_does_not_erase_it():
    assert page_save_changes(STORED, {"abstract": "", "authors": [], "doi": None}, set()) == {}


def test_topics_accumulate_without_case_duplicates():
    changes = page_save_changes(STORED, {"topics": ["llm agents", "RL"]}, set())
    assert changes == {"topics": ["LLM Agents", "RL"]}


def test_the_version_only_grows():
    assert page_save_changes(STORED, {"arxiv_version": 1}, set()) == {}
    assert page_save_changes(STORED, {"arxiv_version": 4}, set()) == {"arxiv_version": 4}


def test_identity_is_set_once():
    changes = page_save_changes(STORED, {"url": "https://example.org/other",
                                         "arxiv_id": "2603.00001"}, set())
    assert changes == {}


def test_fields_outside_the_page_set_are_ignored():
    assert page_save_changes(STORED, {"citation_key": "x", "tags": ["a"]}, set()) == {}


def test_a_new_date_brings_its_precision():
    stored = {**STORED, "published": "2017-01-01", "published_precision": "year"}
    changes = page_save_changes(stored, {"published": "2017-06-12", "published_precision": None},
                                set())
    assert changes == {"published": "2017-06-12", "published_precision": None}
    assert page_save_changes(stored, {"published_precision": None}, set()) == {}


def test_other_fields_of_an_entry_only_grow():
    stored = {**STORED, "extra": {"isbn": "1", "note": "kept"}}
    changes = page_save_changes(stored, {"extra": {"note": "other", "address": "Cham"}}, set())
    assert changes == {"extra": {"note": "kept", "address": "Cham", "isbn": "1"}}


@pytest.mark.parametrize(("a", "b", "same"), [
    ("Attention Is All You Need", "Attention is all you need.", True),
    ("Attention {Is} {All} {You} {Need}", "Attention is all you need", True),
    ("Über die Konvergenz", "Uber die Konvergenz", True),
    ("Deep Residual Learning for Image Recognition",
     "Deep Residual Learning for Image Recognition: Extended Version", True),
    ("Deep residual learning for image recogniton", "Deep Residual Learning for Image Recognition",
     True),  # a typo
    ("Why Graphs?", "Learning on Graphs: Methods and Applications", False),
    ("Graphs in Chemistry", "Graphs in Physics Simulation", False),
    ("Part I", "Part II", False),
    ("Volume 1: Foundations", "Volume 2: Foundations", False),
    ("", "Anything", True),  # no title says nothing against it
])
def test_titles_are_compatible_when_they_name_one_work(a, b, same):
    assert titles_compatible(a, b) is same
    assert titles_compatible(b, a) is same
