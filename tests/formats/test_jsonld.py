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
