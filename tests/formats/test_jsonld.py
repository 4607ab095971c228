"""W3C Web Annotation export: an AnnotationPage with TextQuote and TextPosition selectors."""

from __future__ import annotations

import json

from papershelf.formats.jsonld import write_jsonld
from tests.fixtures.records import ugly_records


def page():
    return json.loads("".join(write_jsonld(ugly_records())))


def test_an_annotation_page_of_every_highlight_and_note():
    data = page()
    assert data["type"] == "AnnotationPage"
    assert "http://www.w3.org/ns/anno.jsonld" in data["@context"]
    records = ugly_records()
    assert len(data["items"]) == sum(len(r["notes"]) + len(r["highlights"]) for r in records)
    assert all(a["type"] == "Annotation" for a in data["items"])


def test_a_highlight_is_scoped_to_its_paper_and_field_with_quote_and_position():
    items = {a["id"]: a for a in page()["items"]}
    a = items["urn:papershelf:highlight:22"]
    assert a["motivation"] == "commenting"
    assert a["body"]["value"] == "the key idea"
    target = a["target"]
    assert target["source"] == "https://arxiv.org/abs/2603.01234"
    assert target["selector"]["value"] == "abstract"
    quote, position = target["selector"]["refinedBy"]
    assert quote == {"type": "TextQuoteSelector", "exact": "proximal policy", "prefix": "",
                     "suffix": ""}
    assert position == {"type": "TextPositionSelector", "start": 50, "end": 65}
    assert items["urn:papershelf:highlight:21"]["motivation"] == "highlighting"


def test_a_note_is_a_markdown_comment_on_the_paper():
    items = {a["id"]: a for a in page()["items"]}
    note = items["urn:papershelf:note:11"]
    assert note["body"]["format"] == "text/markdown"
    assert note["body"]["value"].startswith("Read **twice**.")
    assert note["target"]["source"] == "https://arxiv.org/abs/2603.01234"


def test_the_page_has_an_id_that_depends_only_on_its_content():
    data = page()
    assert data["id"].startswith("urn:papershelf:annotations:")
    assert data["id"] == page()["id"]
    other = ugly_records()[:1]
    assert json.loads("".join(write_jsonld(other)))["id"] != data["id"]


def test_positions_count_code_points_as_the_model_says_not_utf16():
    record = next(r for r in ugly_records() if r["citation_key"] == "zhang2026swe")
    abstract = record["abstract"]  # "Emoji 😀 and CJK 中文 …": the emoji is 2 UTF-16 units
    exact = "CJK"
    start16 = len(abstract[:abstract.index(exact)].encode("utf-16-le")) // 2
    record["highlights"] = [{"id": 1, "field": "abstract", "exact": exact, "prefix": "",
                             "suffix": "", "start": start16, "end": start16 + 3, "color": "yellow",
                             "comment": "", "created_at": None, "updated_at": None}]
    (annotation,) = [a for a in json.loads("".join(write_jsonld([record])))["items"]
                     if a["id"] == "urn:papershelf:highlight:1"]
    quote, position = annotation["target"]["selector"]["refinedBy"]
    assert position == {"type": "TextPositionSelector", "start": start16 - 1, "end": start16 + 2}
    assert abstract[position["start"]:position["end"]] == exact


def test_offsets_that_no_longer_fall_on_the_text_leave_the_quote_alone():
    record = next(r for r in ugly_records() if r["citation_key"] == "zhang2026swe")
    record["highlights"] = [{"id": 1, "field": "abstract", "exact": "x", "prefix": "", "suffix": "",
                             "start": 7, "end": 8, "color": "yellow", "comment": "",
                             "created_at": None, "updated_at": None}]  # 7: inside the emoji
    (annotation,) = [a for a in json.loads("".join(write_jsonld([record])))["items"]
                     if a["id"] == "urn:papershelf:highlight:1"]
    assert [s["type"] for s in annotation["target"]["selector"]["refinedBy"]] == ["TextQuoteSelector"]
