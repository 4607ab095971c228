"""Highlights made in a paper's PDF (the extension's reader): `field: "pdf"` with the page they
are on, offsets in that page's normalized text; listed with their page, exported with it."""

import json

import pytest

from papershelf.domain.anchoring import describe_range, normalize_text

PAGE_3 = normalize_text(
    "2 Method We train the critic with a one-sided advantage, which keeps the actor stable. "
    "The reward is sparse: x² + y² ≤ 1 holds on every step.")


def _pdf_highlight(quote: str, page: int, **extra) -> dict:
    start = PAGE_3.index(quote)
    return {"field": "pdf", "page": page, **describe_range(PAGE_3, start, start + len(quote)),
            **extra}


def _add(client, alice, paper_id, body):
    r = client.post(f"/api/papers/{paper_id}/highlights", json=body, headers=alice)
    assert r.status_code == 201, r.json
    return r.json


def test_a_pdf_highlight_keeps_its_page(client, alice, saved):
    h = _add(client, alice, saved["id"], _pdf_highlight("one-sided advantage", 3, color="green"))
    assert (h["field"], h["page"], h["exact"], h["color"]) == ("pdf", 3, "one-sided advantage",
                                                               "green")
    paper = client.get(f"/api/papers/{saved['id']}", headers=alice).json
    assert [(x["field"], x["page"]) for x in paper["highlights"]] == [("pdf", 3)]
    lookup = client.post("/api/papers/lookup", json={"arxiv_ids": [saved["arxiv_id"]]},
                         headers=alice).json
    assert lookup["papers"][saved["arxiv_id"]]["highlights"][0]["page"] == 3


def test_other_highlights_have_no_page(client, alice, saved):
    text = saved["abstract"]
    start = text.index("strong reasoning")
    r = client.post(f"/api/papers/{saved['id']}/highlights",
                    json={"field": "abstract", **describe_range(text, start, start + 16)},
                    headers=alice)
    assert r.status_code == 201 and r.json["page"] is None


@pytest.mark.parametrize("bad", [
    {"page": None},  # a PDF highlight without its page
    {"page": 0},
    {"page": -2},
    {"page": 100_001},
    {"page": "3"},
    {"page": 2.5},
    {"field": "abstract"},  # a page on a highlight that is not in a PDF
])
def test_pdf_highlight_errors_change_nothing(client, alice, saved, bad):
    body = {**_pdf_highlight("one-sided advantage", 3), **bad}
    r = client.post(f"/api/papers/{saved['id']}/highlights", json=body, headers=alice)
    assert r.status_code == 422, r.json
    assert r.json["error"]["code"] == "validation_error"
    assert "page" in r.json["error"]["fields"]
    assert client.get(f"/api/papers/{saved['id']}", headers=alice).json["highlights"] == []


def test_a_patch_cannot_move_a_highlight_to_another_page(client, alice, saved):
    h = _add(client, alice, saved["id"], _pdf_highlight("one-sided advantage", 3))
    r = client.patch(f"/api/highlights/{h['id']}", json={"page": 4}, headers=alice)
    assert r.status_code == 422 and "page" in r.json["error"]["fields"]
    r = client.patch(f"/api/highlights/{h['id']}", json={"comment": "why?"}, headers=alice)
    assert r.status_code == 200 and (r.json["page"], r.json["comment"]) == (3, "why?")


def _export(client, alice, fmt):
    return client.get(f"/api/export?format={fmt}", headers=alice).get_data(as_text=True)


def test_exports_quote_pdf_highlights_with_their_page(client, alice, saved):
    _add(client, alice, saved["id"], _pdf_highlight("which keeps the actor stable", 3))
    _add(client, alice, saved["id"], _pdf_highlight("one-sided advantage", 3, comment="key idea"))
    _add(client, alice, saved["id"], _pdf_highlight("x² + y² ≤ 1", 1))
    bib = _export(client, alice, "bibtex")
    annote = bib[bib.index("annote"):]
    assert "p. 1:" in annote and "p. 3:" in annote, annote
    utf8 = client.get("/api/export?format=bibtex&encoding=utf8", headers=alice).get_data(
        as_text=True)
    assert "p. 3: “one-sided advantage” — key idea" in utf8
    assert "p. 1: “x² + y² ≤ 1”" in utf8
    markdown = _export(client, alice, "markdown")
    assert "> p. 3: one-sided advantage" in markdown and r"> p. 1: x² \+ y² ≤ 1" in markdown
    assert markdown.index("> p. 1:") < markdown.index("> p. 3: one-sided")
    ris = _export(client, alice, "ris")
    assert "N1  - p. 3: “one-sided advantage” — key idea" in ris


def test_the_w3c_export_targets_the_page_then_the_quote(client, alice, saved):
    _add(client, alice, saved["id"], _pdf_highlight("one-sided advantage", 3))
    page = json.loads(_export(client, alice, "jsonld"))
    [annotation] = [a for a in page["items"] if "selector" in a["target"]]
    selector = annotation["target"]["selector"]
    assert selector["type"] == "FragmentSelector"
    assert selector["conformsTo"] == "http://tools.ietf.org/rfc/rfc3778"
    assert selector["value"] == "page=3"
    quote = selector["refinedBy"][0]
    assert quote["type"] == "TextQuoteSelector" and quote["exact"] == "one-sided advantage"
    assert quote["prefix"].endswith("critic with a ")


def test_the_backup_keeps_the_page(client, alice, saved):
    _add(client, alice, saved["id"], _pdf_highlight("one-sided advantage", 3))
    backup = client.get("/api/export?format=json", headers=alice).json
    assert [(h["field"], h["page"]) for h in backup["papers"][0]["highlights"]] == [("pdf", 3)]


def test_a_backup_restores_pdf_highlights_with_their_page(client, alice, bob, saved):
    _add(client, alice, saved["id"], _pdf_highlight("one-sided advantage", 3, comment="key"))
    _add(client, alice, saved["id"], _pdf_highlight("x² + y² ≤ 1", 1))
    backup = client.get("/api/export?format=json", headers=alice).get_data()
    r = client.post("/api/import?format=json", data=backup, headers=bob,
                    content_type="application/json")
    assert r.status_code == 200 and r.json["created"] == 1 and r.json["errors"] == [], r.json
    [paper] = client.get("/api/papers", headers=bob).json["items"]
    restored = client.get(f"/api/papers/{paper['id']}", headers=bob).json["highlights"]
    made = client.get(f"/api/papers/{saved['id']}", headers=alice).json["highlights"]

    def kept(hs):
        return sorted((h["field"], h["page"], h["exact"], h["prefix"], h["suffix"], h["start"],
                       h["end"], h["comment"]) for h in hs)
    assert kept(restored) == kept(made)
    assert sorted((h["page"], h["exact"]) for h in restored) == [
        (1, "x² + y² ≤ 1"), (3, "one-sided advantage")]


def test_annote_lists_pdf_highlights_page_by_page_after_the_abstract(client, alice, saved):
    _add(client, alice, saved["id"], _pdf_highlight("one-sided advantage", 3))  # earlier text,
    _add(client, alice, saved["id"], _pdf_highlight("x² + y² ≤ 1", 1))         # later page
    abstract = saved["abstract"]
    start = abstract.index("multi-turn")
    r = client.post(f"/api/papers/{saved['id']}/highlights", headers=alice, json={
        "field": "abstract", "start": start, "end": start + len("multi-turn"),
        "exact": "multi-turn", "prefix": abstract[max(0, start - 20):start],
        "suffix": abstract[start + 10:start + 30]})
    assert r.status_code == 201, r.json
    bib = client.get("/api/export?format=bibtex&encoding=utf8", headers=alice).get_data(
        as_text=True)
    annote = bib[bib.index("annote"):]
    assert annote.index("“multi-turn”") < annote.index("p. 1:") < annote.index("p. 3:"), annote


def test_the_paper_page_lists_pdf_highlights_by_page_with_links(client, alice, saved):
    from tests.test_web import sign_in

    ids = {}
    for quote, page in (("which keeps the actor stable", 3), ("one-sided advantage", 3),
                        ("x² + y² ≤ 1", 1)):
        ids[quote] = _add(client, alice, saved["id"],
                          _pdf_highlight(quote, page, comment=f"<b>{quote}</b>"))["id"]
    sign_in(client, alice)
    html = client.get(f"/papers/{saved['id']}").get_data(as_text=True)
    pdf = html[html.index('id="pdf-section"'):]
    assert pdf.index('data-pdf-page="1"') < pdf.index('data-pdf-page="3"')
    assert pdf.count("data-pdf-page=") == 2
    assert pdf.index("one-sided advantage") < pdf.index("which keeps the actor stable")
    link = (f"https://arxiv.org/pdf/{saved['arxiv_id']}"
            f"#page=3&amp;papershelf-highlight={ids['one-sided advantage']}")
    assert f'href="{link}"' in pdf
    assert "&lt;b&gt;one-sided advantage&lt;/b&gt;" in pdf and "<b>one-sided" not in pdf
    # Not listed as an abstract highlight that lost its place.
    assert "No longer found in the pdf" not in html
