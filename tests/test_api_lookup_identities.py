"""One paper, whichever page it came from: a paper's identities (DOI, arXiv id, the site's own id,
its URLs) are stored with it; a lookup by any of them finds it, answered under the key as asked;
a save by any of them merges into it. Both stores."""

import json

import pytest

from papershelf.store import db as store
from papershelf.store import migrations

ACM = "https://dl.acm.org/doi/10.1145/3442188.3445922"
ACM_PDF = "https://dl.acm.org/doi/pdf/10.1145/3442188.3445922"
TITLE = "On the Dangers of Stochastic Parrots: Can Language Models Be Too Big?"


def _save(client, headers, **body):
    r = client.post("/api/papers", json=body, headers=headers)
    assert r.status_code in (200, 201), r.json
    return r


def _lookup(client, headers, **body):
    r = client.post("/api/papers/lookup", json=body, headers=headers)
    assert r.status_code == 200, r.json
    return r.json


def test_a_paper_saved_from_its_landing_page_is_found_by_its_pdf_and_its_doi(client, alice):
    paper = _save(client, alice, title=TITLE, url=ACM, doi="10.1145/3442188.3445922").json
    asked = [ACM_PDF + "?download=true", "https://doi.org/10.1145/3442188.3445922"]
    ids = ["doi:10.1145/3442188.3445922", "DOI:https://dx.doi.org/10.1145/3442188.3445922",
           "url:" + ACM_PDF]
    found = _lookup(client, alice, urls=asked, ids=ids)
    for key in asked + ids:
        assert found["papers"][key]["id"] == paper["id"], key
    assert found["papers"]["doi:10.1145/3442188.3445922"]["citation_key"] == paper["citation_key"]
    assert found["invalid"] == []


def test_a_save_from_the_pdf_merges_into_the_landing_pages_paper(client, alice):
    first = _save(client, alice, title=TITLE, url=ACM, doi="10.1145/3442188.3445922")
    again = _save(client, alice, title="3442188.3445922.pdf", url=ACM_PDF, source_url=ACM_PDF)
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json["id"] == first.json["id"]
    assert again.json["url"] == ACM and again.json["doi"] == "10.1145/3442188.3445922"
    assert len(client.get("/api/papers", headers=alice).json["items"]) == 1


def test_the_pdf_a_page_links_is_stored_and_finds_the_paper(client, alice):
    pdf = "https://files.example-journal.org/get/paper-17.pdf"
    paper = _save(client, alice, title="A journal paper", url="https://example-journal.org/p/17",
                  pdf_url=pdf).json
    assert paper["pdf_url"] == pdf
    assert client.get(f"/api/papers/{paper['id']}", headers=alice).json["pdf_url"] == pdf
    found = _lookup(client, alice, urls=[pdf + "#page=2"])
    assert found["papers"][pdf + "#page=2"]["id"] == paper["id"]
    assert found["papers"][pdf]["id"] == paper["id"]  # and under its normalized form
    again = _save(client, alice, title="A journal paper", url=pdf)
    assert again.status_code == 200 and again.json["id"] == paper["id"]


@pytest.mark.parametrize(("landing", "pdf", "identity"), [
    ("https://openreview.net/forum?id=YicbFdNTTy", "https://openreview.net/pdf?id=YicbFdNTTy",
     "openreview:YicbFdNTTy"),
    ("https://ieeexplore.ieee.org/document/7780459",
     "https://ieeexplore.ieee.org/stamp/stamp.jsp?tp=&arnumber=7780459", "ieee:7780459"),
    ("https://proceedings.neurips.cc/paper/2017/hash/3f5ee243547dee91fbd053c1c4a845aa-Abstract.html",
     "https://proceedings.neurips.cc/paper/2017/file/3f5ee243547dee91fbd053c1c4a845aa-Paper.pdf",
     "neurips:3f5ee243547dee91fbd053c1c4a845aa"),
    ("https://www.sciencedirect.com/science/article/pii/S0004370221000862",
     "https://www.sciencedirect.com/science/article/pii/S0004370221000862/pdfft?md5=7a&pid="
     "1-s2.0-S0004370221000862-main.pdf", "pii:S0004370221000862"),
    ("https://www.biorxiv.org/content/10.1101/2020.03.22.002386v1",
     "https://www.biorxiv.org/content/10.1101/2020.03.22.002386v2.full.pdf",
     "doi:10.1101/2020.03.22.002386"),
])
def test_sites_without_a_doi_in_the_address_are_one_paper_by_their_own_id(
        client, alice, landing, pdf, identity):
    paper = _save(client, alice, title="A paper", url=landing).json
    found = _lookup(client, alice, urls=[pdf], ids=[identity])
    assert found["papers"][pdf]["id"] == found["papers"][identity]["id"] == paper["id"]
    assert _save(client, alice, title="A paper", url=pdf).json["id"] == paper["id"]


def test_a_doi_written_as_a_resolver_url_is_stored_as_the_doi(client, alice):
    paper = _save(client, alice, title="Deep learning",
                  url="http://dx.doi.org/10.1038/NATURE14539").json
    assert paper["doi"] == "10.1038/nature14539"
    found = _lookup(client, alice, urls=["https://www.nature.com/articles/nature14539.pdf"])
    assert found["papers"]["https://www.nature.com/articles/nature14539.pdf"]["id"] == paper["id"]
    given = _save(client, alice, title="Other", doi="https://doi.org/10.1000/XYZ").json
    assert given["doi"] == "10.1000/xyz"


def test_arxiv_papers_are_found_by_every_form_of_their_id(client, alice):
    paper = _save(client, alice, arxiv_id="1706.03762", title="Attention Is All You Need").json
    keys = ["doi:10.48550/arXiv.1706.03762", "arxiv:1706.03762v7", "url:https://arxiv.org/pdf/1706.03762v7"]
    urls = ["https://huggingface.co/papers/1706.03762", "https://doi.org/10.48550/arXiv.1706.03762"]
    found = _lookup(client, alice, ids=keys, urls=urls, arxiv_ids=["arXiv:1706.03762v2"])
    for key in keys + urls + ["arXiv:1706.03762v2", "1706.03762"]:
        assert found["papers"][key]["id"] == paper["id"], key


def test_ugly_keys_are_invalid_and_nothing_is_lost(client, alice):
    paper = _save(client, alice, title=TITLE, url=ACM).json
    junk = ["", "doi:", "doi:10.1/x", "isbn:9780262035613", "10.1145/3442188.3445922",
            "arxiv:2613.01234", "pmid:12a", "doi:\u202e10.1145/x", "url:javascript:alert(1)",
            "neurips:" + "a" * 2000, "s2:\u00a0" + "A" * 40 + "\u3000x", "pmcid:PMC٣"]
    # Text no store keeps (NUL, a lone surrogate) is refused with the field it is in.
    body = json.dumps({"ids": ["doi:10.1145/x", "\u0000doi:10.1145/x", "s2:\ud83d"]})
    r = client.post("/api/papers/lookup", data=body, headers=alice,
                    content_type="application/json")
    assert r.status_code == 422 and set(r.json["error"]["fields"]) == {"ids.1", "ids.2"}
    found = _lookup(client, alice, ids=junk, urls=["javascript:alert(1)", "not a url"])
    assert found["papers"] == {}
    assert sorted(found["invalid"]) == sorted(junk + ["javascript:alert(1)", "not a url"])
    assert client.get(f"/api/papers/{paper['id']}", headers=alice).status_code == 200


def test_at_most_1000_keys_in_one_lookup(client, alice):
    r = client.post("/api/papers/lookup", headers=alice, json={
        "ids": [f"doi:10.1000/{i}" for i in range(600)],
        "urls": [f"https://example.org/{i}" for i in range(401)]})
    assert r.status_code == 422
    assert "1000" in str(r.json["error"])
    r = client.post("/api/papers/lookup", headers=alice, json={"ids": "doi:10.1000/1"})
    assert r.status_code == 422 and "ids" in r.json["error"]["fields"]


@pytest.mark.parametrize(("body", "field", "message"), [
    ({"urls": ["https://example.org/a", None]}, "urls", '{"1": ["Field may not be null.'),
    ({"ids": ["doi:10.1000/1", 10]}, "ids", '{"1": ["Not a valid string.'),
    ({"arxiv_ids": ["2603.01234", ["2603.01235"]]}, "arxiv_ids", '{"1": ["Not a valid string.'),
    ({"arxiv_ids": ["2603.01234", "9" * 301]}, "arxiv_ids", '{"1": ["Longer than maximum length 300.'),
    ({"urls": {"0": "https://example.org/a"}}, "urls", '["Not a valid list.'),
])
def test_a_key_that_is_no_string_or_too_long_is_named_in_the_error(client, alice, body, field,
                                                                    message):
    """The keys are checked in one pass; a list that fails it gets each item's own error."""
    paper = _save(client, alice, title=TITLE, url=ACM).json
    r = client.post("/api/papers/lookup", headers=alice, json=body)
    assert r.status_code == 422
    assert list(r.json["error"]["fields"]) == [field]
    assert message in json.dumps(r.json["error"]["fields"][field])
    assert _lookup(client, alice, urls=[ACM])["papers"][ACM]["id"] == paper["id"]


def test_a_long_address_in_any_script_is_stored_and_found(client, alice):
    url = "https://example.org/" + "論文" * 990  # about 6,000 bytes in UTF-8
    paper = _save(client, alice, title="Long", url=url).json
    assert _lookup(client, alice, urls=[url])["papers"][url]["id"] == paper["id"]
    assert _lookup(client, alice, ids=["url:" + url])["papers"]["url:" + url]["id"] == paper["id"]


def test_another_users_papers_are_not_found(client, alice, bob):
    _save(client, alice, title=TITLE, url=ACM)
    assert _lookup(client, bob, ids=["doi:10.1145/3442188.3445922"])["papers"] == {}
    assert _save(client, bob, title=TITLE, url=ACM_PDF).status_code == 201


def test_an_edit_of_the_doi_changes_what_finds_the_paper(client, alice):
    paper = _save(client, alice, title="Mistyped", doi="10.1000/wrong").json
    r = client.patch(f"/api/papers/{paper['id']}", headers=alice, json={"doi": "10.1000/right"})
    assert r.status_code == 200
    found = _lookup(client, alice, ids=["doi:10.1000/wrong", "doi:10.1000/right"])
    assert list(found["papers"]) == ["doi:10.1000/right"]


def test_works_that_share_a_doi_stay_apart_and_the_title_picks_one(client, alice):
    book = "https://link.springer.com/book/10.1007/978-3-030-58452-8"
    one = _save(client, alice, title="Chapter one: spiders", url=book).json
    two = _save(client, alice, title="Chapter two: beetles").json
    r = client.patch(f"/api/papers/{two['id']}", headers=alice,
                     json={"doi": "10.1007/978-3-030-58452-8"})
    assert r.status_code == 200 and one["id"] != two["id"]
    again = _save(client, alice, title="Chapter two: beetles", url=book + ".pdf")
    assert again.json["id"] == two["id"]
    found = _lookup(client, alice, ids=["doi:10.1007/978-3-030-58452-8"])
    assert found["papers"]["doi:10.1007/978-3-030-58452-8"]["id"] == one["id"]  # the older


def test_an_import_merges_into_the_paper_one_of_its_identities_names(client, alice):
    paper = _save(client, alice, title=TITLE, url=ACM_PDF).json
    bib = ("@inproceedings{bender2021,\n title={On the Dangers of Stochastic Parrots: Can "
           "Language Models Be Too Big?},\n author={Bender, Emily M.},\n year={2021},\n"
           " doi={10.1145/3442188.3445922}\n}\n")
    r = client.post("/api/import?format=bibtex", headers={**alice, "Content-Type": "text/plain"},
                    data=bib.encode())
    assert r.status_code in (200, 201, 202), r.json
    items = client.get("/api/papers", headers=alice).json["items"]
    assert [p["id"] for p in items] == [paper["id"]]
    assert items[0]["doi"] == "10.1145/3442188.3445922"


def _identities(app):
    with app.extensions["papershelf_db"].connection_context():
        return sorted(store.db.execute_sql(
            "SELECT paper_id, identity FROM paper_identity").fetchall())


def test_a_version_10_store_gains_identities_of_its_papers_and_the_migration_runs_twice(
        make_app, make_user):
    app = make_app()
    headers = make_user("alice")
    c = app.test_client()
    landing = c.post("/api/papers", headers=headers,
                     json={"title": TITLE, "url": ACM, "source_url": ACM}).json
    other = c.post("/api/papers", headers=headers,
                   json={"title": "x", "arxiv_id": "1706.03762",
                         "source_url": "https://scholar.example/listing"}).json
    with app.extensions["papershelf_db"].connection_context():
        with store.db.atomic():
            store.db.execute_sql("DROP TABLE paper_identity")
            store.db.execute_sql("ALTER TABLE paper DROP COLUMN pdf_url")
            store.db.execute_sql("DELETE FROM schema_version WHERE version > 10")
    again = make_app()
    with again.extensions["papershelf_db"].connection_context():
        assert store.db.execute_sql("SELECT MAX(version) FROM schema_version").fetchone()[0] \
            == migrations.SCHEMA_VERSION >= 11
        with store.db.atomic():
            migrations.MIGRATIONS[11]()  # idempotent
    assert _identities(again) == sorted([
        (landing["id"], "doi:10.1145/3442188.3445922"),
        (other["id"], "arxiv:1706.03762")])  # a listing it was saved from names no paper
    found = again.test_client().post("/api/papers/lookup", headers=headers,
                                     json={"urls": [ACM_PDF]}).json
    assert found["papers"][ACM_PDF]["id"] == landing["id"]


def test_papers_saved_from_one_listing_stay_apart(client, alice):
    listing = "https://scholar.google.com/scholar?q=parrots"
    one = _save(client, alice, title="First result", url="https://example.org/a",
                source_url=listing).json
    two = _save(client, alice, title="Second result", url="https://example.org/b",
                source_url=listing).json
    assert one["id"] != two["id"]
    assert _lookup(client, alice, urls=[listing])["papers"] == {}
    # a page saved without an address of its own is known by the page it was saved from
    bare = _save(client, alice, title="A page", source_url="https://example.org/c").json
    found = _lookup(client, alice, urls=["https://example.org/c"])
    assert found["papers"]["https://example.org/c"]["id"] == bare["id"]


def test_a_merge_keeps_the_other_papers_identities(client, alice):
    """Two saves of one work (its PDF saved before its landing page was known as the same) merged
    into one: whatever found the other finds the paper kept."""
    kept = _save(client, alice, title=TITLE, url=ACM, doi="10.1145/3442188.3445922").json
    other = _save(client, alice, title="A copy from a mirror",
                  url="https://mirror.example.org/parrots.pdf").json
    assert other["id"] != kept["id"]
    r = client.post(f"/api/papers/{kept['id']}/merge", json={"other": other["id"]}, headers=alice)
    assert r.status_code == 200, r.json
    found = _lookup(client, alice, urls=["https://mirror.example.org/parrots.pdf", ACM_PDF])
    assert {k: v["id"] for k, v in found["papers"].items()} == {
        "https://mirror.example.org/parrots.pdf": kept["id"], ACM_PDF: kept["id"]}


def test_a_restored_paper_is_found_by_every_identity_it_had(client, alice):
    """Deleted and restored: found again by its DOI and by an address it was saved from once
    (an identity of that save, not of its fields)."""
    paper = _save(client, alice, title=TITLE, url=ACM, doi="10.1145/3442188.3445922").json
    again = _save(client, alice, title=TITLE, url="https://reader.example.org/x.pdf",
                  doi="10.1145/3442188.3445922")
    assert again.status_code == 200 and again.json["url"] == ACM  # merged, its url kept
    asked = {"urls": ["https://reader.example.org/x.pdf"], "ids": ["doi:10.1145/3442188.3445922"]}
    before = _lookup(client, alice, **asked)["papers"]
    assert set(before) == {"https://reader.example.org/x.pdf", "doi:10.1145/3442188.3445922"}
    assert client.delete("/api/papers", json={"ids": [paper["id"]]},
                         headers=alice).status_code == 200
    assert _lookup(client, alice, **asked)["papers"] == {}
    r = client.post("/api/papers/restore", json={"ids": [paper["id"]]}, headers=alice)
    assert r.status_code == 200 and r.json["restored"] == [paper["id"]]
    assert {k: v["id"] for k, v in _lookup(client, alice, **asked)["papers"].items()} == {
        k: paper["id"] for k in before}
