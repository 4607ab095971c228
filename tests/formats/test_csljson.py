"""CSL-JSON export and import."""

from __future__ import annotations

import json

import pytest

from papershelf.formats import FormatError
from papershelf.formats.csljson import csl_item, read_csljson, write_csljson
from tests.fixtures.records import ugly_records


def export(records=None, **options):
    return json.loads("".join(write_csljson(ugly_records() if records is None else records, **options)))


def by_key(items, key):
    return next(i for i in items if i["id"] == key)


def test_every_record_is_an_item_with_its_citation_key():
    items = export()
    assert [i["id"] for i in items] == [r["citation_key"] for r in ugly_records()]


def test_a_preprint_is_an_article_numbered_by_its_arxiv_id():
    # where Zotero puts a preprint's id and APA prints it: "Title (arXiv:2603.01234). arXiv."
    item = by_key(export(), "jiang2026asymmetric")
    assert item["type"] == "article"
    assert item["number"] == "arXiv:2603.01234" and item["publisher"] == "arXiv"
    assert item["DOI"] == "10.48550/arXiv.2603.01234"
    assert item["issued"] == {"date-parts": [[2026, 3, 2]]}
    assert item["author"][2] == {"family": "van Beethoven", "given": "Ludwig"}
    assert item["author"][3] == {"literal": "others"}  # "+3" on the page: the list is cut
    assert item["keyword"] == "rl, agents"
    assert "“proximal policy” — the key idea" in item["note"]


def test_a_journal_paper_is_an_article_journal_in_its_journal():
    item = by_key(export(), "jumper2021highly")
    assert item["type"] == "article-journal"
    # the journal's name alone; arXiv's "Nature 596, 583–589 (2021)" taken apart
    assert (item["container-title"], item["volume"], item["page"]) == ("Nature", "596", "583–589")
    assert "number" not in item  # APA would print "Article arXiv:2107.00001"
    assert item["URL"] == "https://arxiv.org/abs/2107.00001"
    assert item["author"][2] == {"literal": "DeepMind AlphaFold Team"}


def test_abstract_can_be_left_out():
    assert all("abstract" not in i for i in export(abstract=False))


def test_export_import_export_is_identical():
    first = "".join(write_csljson(ugly_records()))
    records, skipped = read_csljson(first)
    assert skipped == []
    assert "".join(write_csljson(records)) == first


def test_reads_a_zotero_item():
    text = json.dumps([{
        "id": "http://zotero.org/users/1/items/ABC", "type": "article", "title": "Attention",
        "author": [{"family": "Vaswani", "given": "Ashish"}, {"literal": "Google Brain"}],
        "issued": {"date-parts": [["2017", "6"]]}, "number": "arXiv:1706.03762v7",
        "URL": "http://arxiv.org/abs/1706.03762", "DOI": "10.48550/arXiv.1706.03762",
        "citation-key": "vaswani2017attention",
    }, {"type": "article"}])
    records, skipped = read_csljson(text)
    assert skipped == [{"index": 1, "reason": "no title"}]
    (r,) = records
    assert (r["arxiv_id"], r["arxiv_version"], r["doi"], r["url"]) == ("1706.03762", 7, None, None)
    assert r["authors"] == ["Ashish Vaswani", "{Google Brain}"]  # a literal: one unit
    assert r["published"] == "2017-06-01"
    assert r["citation_key"] == "vaswani2017attention"


@pytest.mark.parametrize("text", ["", "{", '{"a": 1}', "[1, 2]", "null"])
def test_a_malformed_file_raises_a_clear_error(text):
    with pytest.raises(FormatError, match="CSL-JSON"):
        read_csljson(text)


def _read(items):
    return read_csljson(json.dumps(items))


def test_a_cut_author_list_is_marked_and_read_back():
    (record,), _ = _read([{"type": "article", "title": "T", "author": [
        {"family": "Ng", "given": "Andrew"}, {"literal": "others"}]}])
    assert (record["authors"], record["authors_more"]) == (["Andrew Ng"], 1)
    assert csl_item(record)["author"] == [{"family": "Ng", "given": "Andrew"}, {"literal": "others"}]


@pytest.mark.parametrize(("issued", "published", "precision", "written"), [
    ({"date-parts": [[2019]]}, "2019-01-01", "year", [[2019]]),
    ({"date-parts": [["2019", "5"]]}, "2019-05-01", "month", [[2019, 5]]),
    ({"date-parts": [[2019, 5, 12]]}, "2019-05-12", None, [[2019, 5, 12]]),
    # a season (CSL's "season", or month 13–16 or 21–24) keeps the year and is written back
    ({"date-parts": [[2019]], "season": 1}, "2019-01-01", "year", [[2019, 13]]),
    ({"date-parts": [[2019, 21]]}, "2019-01-01", "year", [[2019, 13]]),
    ({"date-parts": [[2018, 13, 40]]}, "2018-01-01", "year", [[2018, 13]]),
    ({"raw": "2020-07"}, "2020-07-01", "month", [[2020, 7]]),
    ({"raw": "2018/2019"}, "2018-01-01", "year", [[2018], [2019]]),
    ("2015", "2015-01-01", "year", [[2015]]),
    ({"literal": "n.d."}, None, None, None),
])
def test_dates_keep_their_precision(issued, published, precision, written):
    (record,), _ = _read([{"type": "book", "title": "T", "issued": issued}])
    assert (record["published"], record["published_precision"]) == (published, precision)
    assert csl_item(record).get("issued", {}).get("date-parts") == written


def test_names_keep_their_particles_and_surnames():
    (record,), _ = _read([{"type": "book", "title": "T", "author": [
        {"family": "Beethoven", "given": "Ludwig", "non-dropping-particle": "van"},
        {"family": "Den Hertog", "given": "M I"}, {"family": "King", "given": "Martin Luther",
                                                   "suffix": "Jr."},
        {"literal": "European Space Agency"}]}])
    assert record["authors"] == ["Ludwig van Beethoven", "Den Hertog, M I",
                                 "Martin Luther King Jr.", "European Space Agency"]


def test_types_venue_and_other_variables_map_both_ways():
    item = {"id": "x", "type": "chapter", "title": "T", "container-title": "The Book",
            "page": "1-10", "publisher": "MIT Press", "publisher-place": "Cambridge, MA",
            "ISBN": "978-0-262-51102-5", "editor": [{"family": "Arbib", "given": "Michael A."}],
            "volume": 3, "edition": "2", "archive": "Some archive"}
    (record,), problems = _read([item])
    assert problems == []
    assert (record["entry_type"], record["booktitle"], record["pages"], record["volume"]) == (
        "incollection", "The Book", "1-10", "3")
    assert record["extra"] == {"address": "Cambridge, MA", "isbn": "978-0-262-51102-5",
                               "archive": "Some archive"}
    back = csl_item(record)
    for variable in ("type", "container-title", "page", "publisher", "publisher-place", "ISBN",
                     "edition", "archive"):
        assert back[variable] == item[variable], variable
    assert back["editor"] == item["editor"] and back["volume"] == "3"


@pytest.mark.parametrize(("kind", "entry_type"), [
    ("article-magazine", "article"), ("motion_picture", "motion_picture"), ("webpage", "online"),
    ("thesis", "phdthesis"), ("report", "techreport"), ("paper-conference", "inproceedings"),
])
def test_every_csl_type_comes_back(kind, entry_type):
    (record,), _ = _read([{"type": kind, "title": "T", "container-title": "C"}])
    assert record["entry_type"] == entry_type
    assert csl_item(record)["type"] == kind


def test_a_bad_item_or_variable_costs_only_itself():
    records, report = _read([
        {"type": "book", "title": "Good"}, "not an item", {"type": "book"},
        {"type": "article-journal", "title": "Odd types", "author": "A String",
         "abstract": {"x": 1}, "issued": {"date-parts": [["soon"]]}},
    ])
    assert [r["title"] for r in records] == ["Good", "Odd types"]
    assert report[0] == {"index": 1, "reason": "not an item (an object)"}
    assert report[1] == {"index": 2, "reason": "no title"}
    assert report[2]["imported"] is True
    assert set(report[2]["fields"]) == {"author", "abstract", "issued"}


def test_an_invalid_doi_and_the_access_date_come_back_as_given():
    item = {"id": "x", "type": "webpage", "title": "T", "DOI": "see publisher",
            "URL": "https://example.org/p", "accessed": {"date-parts": [[2024, 3, 5]]}}
    (record,), (problem,) = _read([item])
    assert record["doi"] is None and problem["imported"] is True and "DOI" in problem["fields"]
    back = csl_item(record)
    assert (back["DOI"], back["URL"], back["accessed"]) == (
        "see publisher", "https://example.org/p", {"date-parts": [[2024, 3, 5]]})
