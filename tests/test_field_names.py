"""Field names BibTeX reads are kept: JabRef's ``__markedentry`` (and any name starting with
``_``) goes into ``extra`` on import and comes back in the export, on both stores, and the
exported file still runs through bibtex. Names BibTeX does not read are refused in the error
shape, nothing stored lost."""

from __future__ import annotations

import shutil
import subprocess

import bibtexparser
import pybtex.database
import pytest

from papershelf.domain.validation import EXTRA_FIELD_NAME, FIELD_NAME
from papershelf.formats.bibtex_read import read_bibtex
from papershelf.formats.bibtex_write import write_bibtex
from tests._require import require_or_skip

# as JabRef writes a library whose entries a user marked (a real library has 68 of them)
JABREF = """% This file was created with JabRef 2.10.
% Encoding: UTF8

@Article{Smith2010,
  Title                    = {Marked entries survive},
  Author                   = {Smith, John and ZHANG, Wei},
  Journal                  = {Journal of Things},
  Year                     = {2010},
  __markedentry            = {[jonas:]},
  _private                 = {kept too},
  Owner                    = {jonas},
  Timestamp                = {2014.03.11}
}

@Misc{Other2011,
  title = {Another},
  year = {2011},
  __markedentry = {[jonas:6]}
}
"""


@pytest.mark.parametrize(("name", "valid"), [
    ("__markedentry", True), ("_private", True), ("_", True), ("owner", True),
    ("Timestamp", True), ("bdsk-url-1", True), ("x:y.z+w", True), ("a" * 64, True),
    ("1field", False), ("-x", False), ("field name", False), ("a=b", False), ("{x}", False),
    ("a" * 65, False), ("", False), ("naïve", False), ("x\n", False),
])
def test_a_field_name_is_one_bibtex_reads(name, valid):
    assert bool(EXTRA_FIELD_NAME.fullmatch(name)) is valid
    assert bool(FIELD_NAME.fullmatch(name.lower())) is valid  # the store keeps it lower-case


def test_underscore_fields_are_read_into_extra_and_written_back():
    records, skipped = read_bibtex(JABREF)
    assert skipped == []
    first, second = records
    assert first["extra"]["__markedentry"] == "[jonas:]"
    assert first["extra"]["_private"] == "kept too"
    assert second["extra"] == {"__markedentry": "[jonas:6]"}
    written = "".join(write_bibtex(records))
    library = bibtexparser.parse_string(written)
    assert library.failed_blocks == []
    fields = {e.key: {k.lower(): f.value for k, f in e.fields_dict.items()} for e in library.entries}
    assert fields["Smith2010"]["__markedentry"] == "[jonas:]"
    assert fields["Smith2010"]["_private"] == "kept too"
    assert fields["Other2011"]["__markedentry"] == "[jonas:6]"
    again, _ = read_bibtex(written)
    assert [r["extra"] for r in again] == [r["extra"] for r in records]
    pybtex_fields = pybtex.database.parse_string(written, "bibtex").entries["Smith2010"].fields
    assert pybtex_fields["__markedentry"] == "[jonas:]"


def test_the_export_with_underscore_fields_runs_through_bibtex(tmp_path):
    if not shutil.which("bibtex"):
        require_or_skip("latex", "bibtex is not installed")
    records, _ = read_bibtex(JABREF)
    (tmp_path / "refs.bib").write_text("".join(write_bibtex(records)), encoding="utf-8")
    (tmp_path / "doc.aux").write_text("\\citation{*}\n\\bibstyle{plain}\n\\bibdata{refs}\n")
    run = subprocess.run(["bibtex", "doc"], cwd=tmp_path, capture_output=True, text=True,
                         timeout=60)
    log = (tmp_path / "doc.blg").read_text(errors="replace")
    assert run.returncode == 0, log
    assert "error message" not in log and "Warning--I'm ignoring" not in log, log
    assert (tmp_path / "doc.bbl").read_text().count("\\bibitem") == 2


def test_underscore_fields_survive_the_store(client, alice):
    r = client.post("/api/import?format=bibtex", data=JABREF.encode(), headers=alice)
    assert r.status_code == 200, r.json
    assert (r.json["created"], r.json["errors"]) == (2, [])
    items = client.get("/api/papers?limit=10", headers=alice).json["items"]
    extra = {p["citation_key"]: p["extra"] for p in items}
    assert extra["Smith2010"]["__markedentry"] == "[jonas:]"
    assert extra["Other2011"] == {"__markedentry": "[jonas:6]"}
    exported = client.get("/api/export?format=bibtex", headers=alice).get_data(as_text=True)
    assert "__markedentry = {[jonas:]}" in exported
    assert "_private = {kept too}" in exported
    assert "__markedentry = {[jonas:6]}" in exported


@pytest.mark.parametrize("name", ["1field", "field name", "a=b", "x" * 65, "naïve"])
def test_a_field_name_bibtex_does_not_read_is_refused_and_nothing_is_lost(client, alice, name):
    saved = client.post("/api/papers", json={"title": "Kept", "extra": {"_mine": "v"}},
                        headers=alice)
    assert saved.status_code in (200, 201), saved.json
    paper = saved.json
    r = client.patch(f"/api/papers/{paper['id']}", json={"extra": {name: "v"}}, headers=alice)
    assert r.status_code == 422, r.json
    assert r.json["error"]["code"] == "validation_error"
    assert "extra" in r.json["error"]["fields"]
    again = client.get(f"/api/papers/{paper['id']}", headers=alice).json
    assert again["extra"] == {"_mine": "v"}
