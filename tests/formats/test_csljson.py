"""CSL-JSON export and import."""

from __future__ import annotations

import json

import pytest

from papershelf.formats import FormatError
from papershelf.formats.csljson import read_csljson, write_csljson
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
    assert r["authors"] == ["Ashish Vaswani", "Google Brain"]
    assert r["published"] == "2017-06-01"
    assert r["citation_key"] == "vaswani2017attention"


@pytest.mark.parametrize("text", ["", "{", '{"a": 1}', "[1, 2]", "null"])
def test_a_malformed_file_raises_a_clear_error(text):
    with pytest.raises(FormatError, match="CSL-JSON"):
        read_csljson(text)
