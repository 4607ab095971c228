"""arXiv's journal references read into their parts: real references as arXiv's metadata gives
them (origins in tests/fixtures/catalogues/README.md), and the names they abbreviate."""

from __future__ import annotations

import pytest

from papershelf.catalogues import Record
from papershelf.domain.journal_ref import JournalRef, names_agree, read_journal_ref
from papershelf.services.published import completed

REFERENCES = [
    # (arXiv's journal_ref, journal, volume, issue, pages, year, full)
    ("Phys. Rev. Lett. 116, 061102 (2016)", "Phys. Rev. Lett.", "116", None, "061102", 2016,
     True),  # 1602.03837
    ("J. Chem. Phys. 115, 1626 (2001)", "J. Chem. Phys.", "115", None, "1626", 2001, True),
    ("J. Phys. Soc. Jpn. 66, 204 (1997).", "J. Phys. Soc. Jpn.", "66", None, "204", 1997, True),
    ("Phys.Rev.D76:013009,2007", "Phys.Rev.D", "76", None, "013009", 2007, True),  # 0704.0001
    ("Nucl.Phys. B550 (1999) 213-236", "Nucl.Phys. B", "550", None, "213-236", 1999, True),
    ("Software: Practice and Experience 51 (8), 2021", "Software: Practice and Experience",
     "51", "8", None, 2021, True),  # 2101.11408: 2021 is the year, not the pages
    ("Proceedings of the ACM Web Conference 2026, pp. 1021-1032",
     "Proceedings of the ACM Web Conference", None, None, "1021-1032", 2026, False),
    ("NeurIPS 2017", "NeurIPS", None, None, None, 2017, False),
    ("Proc. ACL 2020, pp. 1-10", "Proc. ACL", None, None, "1-10", 2020, False),
    ("Accepted at CVPR", "Accepted at CVPR", None, None, None, None, False),
]


@pytest.mark.parametrize("ref,journal,volume,issue,pages,year,full", REFERENCES)
def test_references_read_into_their_parts(ref, journal, volume, issue, pages, year, full):
    assert read_journal_ref(ref) == JournalRef(journal, volume, issue, pages, year, full)


def test_no_reference_is_nothing():
    assert read_journal_ref(None) == read_journal_ref("  ") == JournalRef()


@pytest.mark.parametrize("short,name,agree", [
    ("Phys. Rev. D", "Physical Review D", True),
    ("Phys.Rev.D", "Physical Review D", True),
    ("J. Chem. Phys.", "The Journal of Chemical Physics", True),
    ("Nucl.Phys. B", "Nuclear Physics B", True),
    ("Phys. Rev. D", "Physical Review Letters", False),  # another journal of the same society
    ("Phys. Rev.", "Physical Review D", False),  # a word of the name left over
    ("Nature", "Nature Physics", False),
    ("", "Nature", False),
])
def test_abbreviations_name_their_journal(short, name, agree):
    assert names_agree(short, name) is agree


def _crossref(**more) -> Record:
    base = {"source": "crossref", "title": "T", "year": 2018, "entry_type": "article",
            "journal": "Physical Review D", "venue": "Physical Review D"}
    return Record(**{**base, **more})


@pytest.mark.parametrize("record,ref,taken,volume,pages", [
    # a record lacking its volume and pages takes them from a whole reference that names it
    (_crossref(), "Phys. Rev. D 97, 123456 (2018)", True, "97", "123456"),
    # what the record has is kept
    (_crossref(volume="97", pages="123456"), "Phys. Rev. D 97, 654321 (2018)", False, "97",
     "123456"),
    # another journal, another year, a reference without its volume: nothing taken
    (_crossref(), "Phys. Rev. Lett. 97, 123456 (2018)", False, None, None),
    (_crossref(), "Phys. Rev. D 97, 123456 (2017)", False, None, None),
    (_crossref(), "Phys. Rev. D (2018)", False, None, None),
    # DBLP's records are complete as they are
    (_crossref(source="dblp"), "Phys. Rev. D 97, 123456 (2018)", False, None, None),
])
def test_a_crossref_record_takes_only_what_a_matching_reference_gives(record, ref, taken,
                                                                       volume, pages):
    got, was_taken = completed(record, read_journal_ref(ref))
    assert (was_taken, got.volume, got.pages) == (taken, volume, pages)
