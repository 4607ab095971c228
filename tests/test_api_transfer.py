"""GET /api/export and POST /api/import, over the HTTP API on a real store."""

from __future__ import annotations

import io
import json

import bibtexparser
import pybtex.database
import pybtex.errors
import pytest


@pytest.fixture
def annotated(client, alice, saved):
    """alice's saved paper with a note (full of specials), a highlight and tags."""
    pid = saved["id"]
    r = client.post(f"/api/papers/{pid}/notes", json={"body": "Look: } { % @misc{x, \\end"},
                    headers=alice)
    assert r.status_code == 201, r.json
    exact = "strong reasoning"
    start = saved["abstract"].index(exact)
    r = client.post(f"/api/papers/{pid}/highlights", json={
        "exact": exact, "start": start, "end": start + len(exact), "comment": "key claim"},
        headers=alice)
    assert r.status_code == 201, r.json
    r = client.patch(f"/api/papers/{pid}", json={"tags": ["agents", "to read"]}, headers=alice)
    assert r.status_code == 200, r.json
    return client.get(f"/api/papers/{pid}", headers=alice).json


def save(client, headers, **fields):
    body = {"title": "A paper", **fields}
    r = client.post("/api/papers", json=body, headers=headers)
    assert r.status_code in (200, 201), r.json
    return r.json


def export(client, headers, **params):
    r = client.get("/api/export", query_string=params, headers=headers)
    assert r.status_code == 200, r.data[:500]
    return r


def entries(text: str) -> dict:
    library = bibtexparser.parse_string(text)
    assert library.failed_blocks == []
    pybtex.errors.set_strict_mode(True)
    pybtex.database.parse_string(text, "bibtex")
    return {e.key: {k.lower(): f.value for k, f in e.fields_dict.items()} for e in library.entries}


def test_bibtex_export_is_an_attachment_with_notes_and_highlights(client, alice, annotated):
    r = export(client, alice)
    assert r.headers["Content-Disposition"].startswith('attachment; filename="papershelf-')
    assert r.headers["Content-Disposition"].endswith('.bib"')
    assert r.mimetype == "application/x-bibtex"
    fields = entries(r.get_data(as_text=True))[annotated["citation_key"]]
    assert fields["eprint"] == "2603.29001"
    assert fields["author"] == "Jiang, Shuli and Zhang, Zhaoyang and Zhang, Yi and others"
    assert fields["keywords"] == "agents, to read"
    assert "key claim" in fields["annote"] and "{@}misc" in fields["annote"]


def test_export_is_deterministic_and_sorted_by_citation_key(client, alice, annotated):
    save(client, alice, title="Zebra paper", authors=["Aaron Aardvark"], published="2020-01-01")
    save(client, alice, title="Middle paper", authors=["Mia Middle"], published="2021-01-01")
    first = export(client, alice).data
    assert first == export(client, alice).data
    keys = list(entries(first.decode()))
    assert keys == sorted(keys)


@pytest.mark.parametrize(("params", "expected"), [
    ({"tag": "agents"}, {"jiang2026asymmetric"}),
    ({"tag": "nope"}, set()),
    ({"q": "zebra"}, {"aardvark2020zebra"}),
    ({"topic": "LLM Agent Training"}, {"jiang2026asymmetric"}),
])
def test_export_filters(client, alice, annotated, params, expected):
    save(client, alice, title="Zebra paper", authors=["Aaron Aardvark"], published="2020-01-01")
    assert set(entries(export(client, alice, **params).get_data(as_text=True))) == expected


def test_export_by_ids(client, alice, annotated):
    other = save(client, alice, title="Zebra paper", authors=["Aaron Aardvark"])
    text = export(client, alice, ids=f"{other['id']}").get_data(as_text=True)
    assert list(entries(text)) == [other["citation_key"]]
    text = export(client, alice, ids=f"{other['id']},{annotated['id']}").get_data(as_text=True)
    assert len(entries(text)) == 2


def test_export_options(client, alice, annotated):
    key = annotated["citation_key"]
    fields = entries(export(client, alice, abstract="0", notes_field="note",
                            encoding="utf8").get_data(as_text=True))[key]
    assert "abstract" not in fields and "annote" not in fields and "key claim" in fields["note"]


@pytest.mark.parametrize("fmt", ["biblatex", "csljson", "ris", "markdown", "jsonld", "json"])
def test_every_format_exports(client, alice, annotated, fmt):
    r = export(client, alice, format=fmt)
    text = r.get_data(as_text=True)
    assert "Asymmetric" in text or fmt == "jsonld"
    if fmt in ("csljson", "jsonld", "json"):
        json.loads(text)
    if fmt == "biblatex":
        assert text.startswith("@online{")
    if fmt == "jsonld":
        assert len(json.loads(text)["items"]) == 2


def test_export_never_shows_another_users_papers(client, alice, bob, annotated):
    assert entries(export(client, bob).get_data(as_text=True)) == {}
    text = export(client, bob, ids=str(annotated["id"])).get_data(as_text=True)
    assert text == ""


@pytest.mark.parametrize("params", [
    {"format": "docx"}, {"notes_field": "x"}, {"encoding": "latin1"}, {"ids": "1,a"},
    {"ids": str(2**70)}, {"ids": "-1"},
    {"abstract": "maybe"}, {"bogus": "1"},
])
def test_bad_export_parameters_are_validation_errors(client, alice, params):
    r = client.get("/api/export", query_string=params, headers=alice)
    assert r.status_code == 422
    assert r.json["error"]["code"] == "validation_error"
    assert r.json["error"]["fields"]


def test_export_and_import_need_a_token(client):
    assert client.get("/api/export").json["error"]["code"] == "unauthorized"
    assert client.post("/api/import", data=b"@misc{a, title={x}}").status_code == 401


BIB = r"""@misc{smith2024great,
  author = {Smith, Jane and {Qwen Team} and others},
  title = {A {GREAT} Paper about {\'E}coles},
  year = {2024},
  month = may,
  eprint = {2405.01234},
  archivePrefix = {arXiv},
  primaryClass = {cs.CL},
  keywords = {imported, nlp},
  annote = {Imported note.}
}

@article{doe2020journal,
  author = {Doe, John},
  title = {Journal Paper},
  journal = {Nature},
  year = {2020},
  doi = {10.1038/XYZ123}
}

@misc{notitle, author = {Nobody}}
"""


def test_bibtex_import_creates_papers_with_their_keys_and_notes(client, alice):
    r = client.post("/api/import?format=bibtex", data=BIB.encode(), headers=alice,
                    content_type="application/x-bibtex")
    assert r.status_code == 200, r.json
    assert r.json == {"created": 2, "updated": 0, "unchanged": 0, "skipped": 1,
                      "errors": [{"key": "notitle", "reason": "no title"}]}
    items = {p["citation_key"]: p for p in client.get("/api/papers", headers=alice).json["items"]}
    smith = items["smith2024great"]
    assert smith["title"] == "A GREAT Paper about Écoles"
    assert smith["authors"] == ["Jane Smith", "Qwen Team"]
    assert smith["authors_more"] == 1
    assert smith["arxiv_id"] == "2405.01234" and smith["published"] == "2024-05-01"
    assert smith["tags"] == ["imported", "nlp"]
    assert [n["body"] for n in smith["notes"]] == ["Imported note."]
    assert items["doe2020journal"]["doi"] == "10.1038/xyz123"
    assert items["doe2020journal"]["journal"] == "Nature"
    assert items["doe2020journal"]["entry_type"] == "article"
    assert (smith["published"], smith["published_precision"]) == ("2024-05-01", "month")


def test_importing_the_same_file_again_changes_nothing(client, alice):
    client.post("/api/import", data=BIB.encode(), headers=alice)
    r = client.post("/api/import", data=BIB.encode(), headers=alice)
    assert (r.json["created"], r.json["updated"]) == (0, 0)
    papers = client.get("/api/papers", headers=alice).json["items"]
    assert len(papers) == 2
    assert sum(len(p["notes"]) for p in papers) == 1


def test_a_paper_without_identifiers_is_not_duplicated_by_a_second_import(client, alice):
    bib = "@book{knuth1968art, title = {The Art of Computer Programming}, author = {Knuth, Donald}}"
    assert client.post("/api/import", data=bib.encode(), headers=alice).json["created"] == 1
    r = client.post("/api/import", data=bib.encode(), headers=alice)
    assert (r.json["created"], r.json["updated"]) == (0, 0)
    assert len(client.get("/api/papers", headers=alice).json["items"]) == 1


def test_reimporting_an_export_does_not_turn_highlights_into_a_note(client, alice, saved):
    exact = "strong reasoning"
    start = saved["abstract"].index(exact)
    client.post(f"/api/papers/{saved['id']}/highlights", headers=alice,
                json={"exact": exact, "start": start, "end": start + len(exact)})
    r = client.post("/api/import", data=export(client, alice).data, headers=alice)
    assert (r.json["created"], r.json["updated"]) == (0, 0)
    paper = client.get(f"/api/papers/{saved['id']}", headers=alice).json
    assert paper["notes"] == []
    # BibTeX knows the month and "and others": the store's day and "+3" stay
    assert (paper["published"], paper["authors_more"]) == ("2026-03-31", 3)


def test_import_merges_with_a_saved_paper_by_arxiv_id(client, alice, saved):
    bib = ("@misc{other2026key, title = {Different title}, eprint = {2603.29001},"
           " archivePrefix = {arXiv}, keywords = {merged}, annote = {From the file}}")
    r = client.post("/api/import", data=bib.encode(), headers=alice)
    assert (r.json["created"], r.json["updated"]) == (0, 1)
    paper = client.get(f"/api/papers/{saved['id']}", headers=alice).json
    assert paper["citation_key"] == saved["citation_key"]  # a key once given never changes
    assert "merged" in paper["tags"]
    assert [n["body"] for n in paper["notes"]] == ["From the file"]


def test_import_as_a_multipart_file(client, alice):
    r = client.post("/api/import", headers=alice, content_type="multipart/form-data",
                    data={"file": (io.BytesIO(BIB.encode()), "library.bib")})
    assert r.status_code == 200, r.json
    assert r.json["created"] == 2


def test_csljson_import(client, alice):
    items = [{"id": "x", "type": "article", "title": "CSL paper", "number": "arXiv:2401.00001",
              "author": [{"family": "Roe", "given": "Rita"}], "issued": {"date-parts": [[2024, 1]]}}]
    r = client.post("/api/import?format=csljson", data=json.dumps(items), headers=alice,
                    content_type="application/json")
    assert r.json["created"] == 1
    paper = client.get("/api/papers", headers=alice).json["items"][0]
    assert (paper["arxiv_id"], paper["authors"], paper["citation_key"]) == (
        "2401.00001", ["Rita Roe"], "x")


@pytest.mark.parametrize(("fmt", "body"), [
    ("bibtex", b"@misc{a, title = {unclosed"),
    ("bibtex", b"just some words"),
    ("csljson", b"{not json"),
    ("json", b'{"format": "something-else"}'),
    ("bibtex", b"\xff\xfe\x00garbage"),
    ("csljson", b"[" * 100_000),
    ("json", b"[" * 100_000),
    (None, b"{" * 5000),
    (None, b"   "),
])
def test_a_malformed_file_is_422_and_changes_nothing(client, alice, saved, fmt, body):
    before = client.get("/api/export?format=json", headers=alice).data
    url = "/api/import" + (f"?format={fmt}" if fmt else "")
    r = client.post(url, data=body, headers=alice)
    assert r.status_code == 422, r.json
    assert r.json["error"]["code"] == "validation_error"
    assert r.json["error"]["fields"]["file"]
    assert client.get("/api/export?format=json", headers=alice).data == before


def test_a_bad_field_mid_file_costs_only_itself_and_is_reported(client, alice):
    bib = BIB + "\n@misc{bad, title = {Bad URL}, eprint = {2401.99999}, url = {notaurl}}\n"
    r = client.post("/api/import", data=bib.encode(), headers=alice)
    assert r.status_code == 200
    assert (r.json["created"], r.json["skipped"]) == (3, 1)  # (the entry with no title)
    bad = next(e for e in r.json["errors"] if e.get("key") == "bad")
    assert bad["imported"] is True and "url" in bad["fields"]
    paper = next(p for p in client.get("/api/papers", headers=alice).json["items"]
                 if p["citation_key"] == "bad")
    assert paper["arxiv_id"] == "2401.99999" and paper["extra"] == {"url": "notaurl"}


def test_import_over_the_limit_is_413(make_app, make_user):
    app = make_app(IMPORT_MAX_BYTES=1000)
    client = app.test_client()
    from papershelf.services import auth

    with app.extensions["papershelf_db"].connection_context():
        token = auth.create_token(auth.get_or_create_user("carol"))
    r = client.post("/api/import", data=b"@misc{a, title={x}}" + b" " * 2000,
                    headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 413
    assert r.json["error"]["code"] == "payload_too_large"


def test_bibtex_export_import_export_is_byte_identical(client, alice, bob, annotated):
    save(client, alice, title="Second: τ²-Bench & 100% {braces}", authors=["Zoë Müller"],
         arxiv_id="math.GT/0309136", published="2003-09-10")
    first = export(client, alice).data
    r = client.post("/api/import?format=bibtex", data=first, headers=bob)
    assert r.json["created"] == 2, r.json
    assert export(client, bob).data == first


def test_backup_restores_losslessly(client, alice, bob, annotated):
    client.patch(f"/api/papers/{annotated['id']}", json={"citation_key": "mykey2026"},
                 headers=alice)
    save(client, alice, title="Plain", url="https://example.org/paper", authors=["Ann Example"])
    backup = export(client, alice, format="json").data
    r = client.post("/api/import?format=json", data=backup, headers=bob)
    assert r.json == {"created": 2, "updated": 0, "unchanged": 0, "skipped": 0, "errors": []}

    def strip(data: bytes):
        papers = json.loads(data)["papers"]
        for p in papers:
            p.pop("id")
            for child in p["notes"] + p["highlights"]:
                child.pop("id")
                child.pop("paper_id")
        return papers

    assert strip(export(client, bob, format="json").data) == strip(backup)
    # and importing the backup again adds nothing
    r = client.post("/api/import?format=json", data=backup, headers=bob)
    assert (r.json["created"], r.json["updated"]) == (0, 0)


@pytest.mark.parametrize(("data", "text"), [
    ("Müller – “quotes” ’".encode("cp1252"), "Müller – “quotes” ’"),  # Windows-1252
    (b"\x81\x8d caf\xe9", "\x81\x8d café"),  # the bytes 1252 leaves undefined: as Latin-1
    ("\ufeff@misc{k}".encode("utf-8"), "@misc{k}"),  # a BOM dropped
    ("\ufeff@misc{k, title={学}}".encode("utf-16-le"), "@misc{k, title={学}}"),
    ("\ufeff@misc{k}".encode("utf-16-be"), "@misc{k}"),
    ("@misc{k, title={x}}".encode("utf-16-le"), "@misc{k, title={x}}"),  # no BOM: NUL bytes say
    ("\ufeff@misc{k}".encode("utf-32"), "@misc{k}"),
])
def test_uploads_are_decoded_as_bibtex_users_expect(data, text):
    from papershelf.formats.upload import decode_upload

    assert decode_upload(data) == text


def test_a_windows_1252_file_imports(client, alice):
    bib = "@article{k, title={Über “smart quotes”}, author={Müller, Jürgen}}".encode("cp1252")
    r = client.post("/api/import", data=bib, headers=alice)
    assert r.json["created"] == 1, r.json
    (paper,) = client.get("/api/papers", headers=alice).json["items"]
    assert (paper["title"], paper["authors"]) == ("Über “smart quotes”", ["Jürgen Müller"])


# ---- the export's one write comes before its first byte -------------------------------------

REFUSE_PAPER_UPDATES = {
    "sqlite": ["CREATE TRIGGER refuse_updates BEFORE UPDATE ON paper "
               "BEGIN SELECT RAISE(ABORT, 'the store refuses writes'); END"],
    "postgresql": [
        "CREATE FUNCTION refuse_updates() RETURNS trigger LANGUAGE plpgsql AS "
        "$$ BEGIN RAISE EXCEPTION 'the store refuses writes'; END $$",
        "CREATE TRIGGER refuse_updates BEFORE UPDATE ON paper FOR EACH ROW "
        "EXECUTE FUNCTION refuse_updates()"],
}
ALLOW_PAPER_UPDATES = {
    "sqlite": ["DROP TRIGGER refuse_updates"],
    "postgresql": ["DROP TRIGGER refuse_updates ON paper", "DROP FUNCTION refuse_updates()"],
}


def _run_sql(app, statements):
    from papershelf.store.db import is_sqlite

    database = app.extensions["papershelf_db"]
    with database.connection_context():
        for sql in statements[is_sqlite(database) and "sqlite" or "postgresql"]:
            database.execute_sql(sql)


def _stored_key_fixed(app, pid) -> bool:
    from papershelf.store.models import Paper

    with app.extensions["papershelf_db"].connection_context():
        return Paper.get_by_id(pid).citation_key_fixed


@pytest.mark.parametrize("path", ["/api/export", "/api/export?format=csljson", "feed"])
def test_an_export_whose_key_write_fails_is_an_error_not_a_cut_file(app, client, alice, path):
    """The export fixes its papers' keys before its first byte; when the store refuses that
    write, the answer is the error shape (over a real server too), never a 200 cut short."""
    from papershelf.testing import serve_in_thread
    from tests.test_errors_and_security import assert_error

    pid = save(client, alice, title="Untitled draft")["id"]  # no author: its key is loose
    assert not _stored_key_fixed(app, pid)
    if path == "feed":
        path = client.post("/api/feeds", json={"format": "bibtex"}, headers=alice).json["path"]
    _run_sql(app, REFUSE_PAPER_UPDATES)
    assert_error(client.get(path, headers=alice), 500, "internal_error")
    with serve_in_thread(app) as base:
        import urllib.error
        import urllib.request

        request = urllib.request.Request(base + path, headers={**alice, "Host": "127.0.0.1"})
        with pytest.raises(urllib.error.HTTPError) as answer:
            urllib.request.urlopen(request, timeout=30)
        assert answer.value.code == 500
        assert json.loads(answer.value.read())["error"]["code"] == "internal_error"
    assert not _stored_key_fixed(app, pid)
    _run_sql(app, ALLOW_PAPER_UPDATES)
    r = client.get(path, headers=alice)
    assert r.status_code == 200 and b"Untitled draft" in r.data
    assert _stored_key_fixed(app, pid)  # exported: cited from now on
