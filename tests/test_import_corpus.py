"""Real-world bibliographies (tests/fixtures/bib: a Zotero export, a JabRef library, a CV, a
large shared physics bibliography, a book's twenty chapters, biblatex files, Windows-1252 and
UTF-16 files, CSL-JSON from Zotero and from careless tools) imported into a store and exported
again: nothing a user had is lost, and what matters comes back unchanged, as readers that are
not papershelf's (pybtex, bibtexparser) see both files."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from tests.bib_compare import compare, read_export, read_input

CORPUS = Path(__file__).parent / "fixtures" / "bib"
BIB_FILES = sorted(CORPUS.glob("*.bib"))
CSL_FILES = sorted(CORPUS.glob("*.json"))

# What a round trip may change, and why (file -> {(key, field)}).
ALLOWED_CHANGES: dict[str, set[tuple[str, str]]] = {
    # a tag is at most 100 characters (the API's limit): the long one is dropped, and reported
    "messy_syntax.bib": {("Cover1967", "keywords")},
}
# Keys an import must change (file -> keys): BibTeX takes vaswani2017 for Vaswani2017.
RENAMED = {"messy_syntax.bib": {"vaswani2017"}}


def decoded(path: Path) -> str:
    from papershelf.formats.upload import decode_upload

    return decode_upload(path.read_bytes())


def import_file(client, headers, data: bytes, fmt: str | None = None) -> dict:
    url = "/api/import" + (f"?format={fmt}" if fmt else "")
    r = client.post(url, data=data, headers=headers)
    assert r.status_code == 200, r.json
    return r.json


def export(client, headers, fmt: str = "bibtex") -> str:
    r = client.get(f"/api/export?format={fmt}", headers=headers)
    assert r.status_code == 200
    return r.get_data(as_text=True)


def renamed(report: dict) -> dict[str, str]:
    """Keys the import had to change (taken, or not valid), from its report."""
    out = {}
    for error in report["errors"]:
        m = re.search(r"imported as (\S+)$", error.get("reason", ""))
        if m and error.get("key"):
            out[error["key"]] = m[1]
    return out


@pytest.mark.parametrize("path", BIB_FILES, ids=lambda p: p.name)
def test_a_real_bibliography_round_trips_unchanged(client, alice, path):
    report = import_file(client, alice, path.read_bytes())
    before = read_input(decoded(path))
    after = read_export(export(client, alice))
    result = compare(before, after, renamed(report))
    assert set(renamed(report)) == RENAMED.get(path.name, set())  # every other key is kept
    assert result.imported == result.entries_in  # every entry with a title is there
    changed = {(key, name) for key, name, *_ in result.changed}
    assert changed == ALLOWED_CHANGES.get(path.name, set()), result.changed
    # and importing the export into another store gives the same export
    assert report["created"] + report["updated"] >= result.entries_in


@pytest.mark.parametrize("path", BIB_FILES, ids=lambda p: p.name)
def test_the_export_of_a_real_bibliography_imports_to_the_same_bytes(client, alice, bob, path):
    import_file(client, alice, path.read_bytes())
    first = export(client, alice)
    again = import_file(client, bob, first.encode())
    assert again["skipped"] == 0, again
    assert export(client, bob) == first


@pytest.mark.parametrize("path", CSL_FILES, ids=lambda p: p.name)
def test_csl_json_imports_and_round_trips(client, alice, path):
    report = import_file(client, alice, path.read_bytes(), "csljson")
    items = json.loads(path.read_text(encoding="utf-8"))
    items = items["items"] if isinstance(items, dict) else items
    good = [i for i in items if isinstance(i, dict) and isinstance(i.get("title"), str)]
    assert report["created"] == len(good)
    out = {i["title"]: i for i in json.loads(export(client, alice, "csljson"))}
    for item in good:
        back = out[item["title"]]
        assert back["type"] == item["type"]
        for variable in ("container-title", "volume", "issue", "page", "publisher", "ISBN",
                         "publisher-place", "collection-title", "edition"):
            if isinstance(item.get(variable), str | int):
                assert str(back.get(variable)) == str(item[variable]), (item["id"], variable)
        if isinstance(item.get("author"), list):
            assert [a for a in back.get("author", [])] == [_csl_name(a) for a in item["author"]]
    read_export(export(client, alice))  # and the BibTeX of it reads with pybtex and bibtexparser


def _csl_name(name: dict) -> dict:
    """A CSL name as papershelf writes it back: a particle joins the family name."""
    if "literal" in name:
        return {"literal": name["literal"]}
    out = {"family": " ".join(p for p in (name.get("non-dropping-particle"), name["family"]) if p)}
    if name.get("given"):
        out["given"] = name["given"]
    if name.get("suffix"):
        out["suffix"] = name["suffix"]
    return out


# ---- the shared corpus of real bibliographies (../shared/corpus/realbib, beside the checkout;
# $PAPERSHELF_REALBIB elsewhere): read in place, never copied here, skipped when absent

REALBIB = Path(os.environ.get("PAPERSHELF_REALBIB")
               or Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "realbib")
MANIFEST = ({f["file"]: f for f in json.loads((REALBIB / "manifest.json").read_text())["files"]}
            if (REALBIB / "manifest.json").is_file() else {})


def _stored_dates(paper: dict) -> set[str]:
    kept = (paper.get("verbatim") or {}).get("date")
    return {kept[0]} if kept else ({paper["extra"]["date"]} if paper["extra"].get("date") else set())


@pytest.mark.parametrize("name", sorted(MANIFEST) or [None])
def test_a_shared_real_bibliography_imports_without_losing_what_it_says(client, alice, name):
    from papershelf.domain.identifiers import normalize_doi
    from papershelf.formats.edtf import csl_to_edtf

    if name is None:
        pytest.skip(f"no shared corpus of real bibliographies at {REALBIB}")
    report = import_file(client, alice, (REALBIB / name).read_bytes())
    assert not [e for e in report["errors"] if "does not parse" in e["reason"]], report
    assert {e["reason"] for e in report["errors"] if not e.get("imported")} <= {"no title"}
    stored = json.loads(export(client, alice, "json"))["papers"]
    keys = {p["citation_key"] for p in stored} | set(renamed(report))
    dois = {p["doi"] for p in stored}
    dates = set().union(*(_stored_dates(p) for p in stored))
    for bad in MANIFEST[name]["bad_fields"]:
        value = bad["value"]
        if bad["key"] and bad["key"] not in keys:
            continue  # merged into the paper that is the same work: that paper's fields stand
        if bad["field"].lower() == "doi":
            try:
                doi = normalize_doi(value)
            except ValueError:
                continue  # no DOI at all ("the DOI", a PDF's address): kept as written
            assert doi in dois, (bad, report)
        elif bad["field"] == "date":
            assert value in dates, bad
        elif bad["field"] == "issued":
            assert csl_to_edtf(json.loads(value)) in dates, bad
