"""``papershelf upgrade`` and ``papershelf resolve`` as a user runs them (child processes),
against the fake catalogues."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from papershelf.formats.bibtex_read import read_bibtex
from papershelf.formats.bibupgrade import scan
from tests.fake_catalogues import FakeCatalogues

REFS = Path(__file__).parent / "fixtures" / "catalogues" / "refs.bib"


@pytest.fixture
def fake():
    with FakeCatalogues() as fake:
        yield fake


def papershelf(fake, tmp_path, *args, arxiv="http://127.0.0.1:9/api/query"):
    env = {**os.environ, "PAPERSHELF_DATA_DIR": str(tmp_path / "data"),
           "PAPERSHELF_ARXIV_API": arxiv,
           **{f"PAPERSHELF_{k}": str(v) for k, v in fake.settings().items()}}
    env.pop("PAPERSHELF_DATABASE_URL", None)
    return subprocess.run([sys.executable, "-m", "papershelf", *args], capture_output=True,
                          text=True, timeout=120, env=env)


def _entries(text):
    return {e.key: text[e.start:e.end] for e in scan(text)}


def test_upgrade_rewrites_arxiv_entries_in_place_and_keeps_the_rest(fake, tmp_path):
    out = tmp_path / "out.bib"
    done = papershelf(fake, tmp_path, "upgrade", str(REFS), "-o", str(out))
    assert done.returncode == 0, done.stderr
    before, after = REFS.read_text(), out.read_text()
    old, new = _entries(before), _entries(after)
    assert list(old) == list(new)  # keys and order
    upgraded = {"vaswani2017attention", "he2015deep", "kingma2014adam"}
    for key in set(old) - upgraded:  # look-alikes, non-preprints, unpublished: byte for byte
        assert new[key] == old[key], key
    # comments and @string kept, and the text between entries
    assert after.startswith("% References of a paper draft")
    assert "% Adam: the optimizer everybody cites" in after and "@string{nat = {Nature}}" in after
    t = new["vaswani2017attention"]
    assert t.startswith("@inproceedings{vaswani2017attention,")
    assert "booktitle = {Advances in Neural Information Processing Systems 30" in t
    assert "arXiv preprint" not in t and "pages = {5998--6008}" in t
    r = new["he2015deep"]
    assert "eprint={1512.03385}" in r and "primaryClass={cs.CV}" in r  # kept as written
    assert "doi = {10.1109/cvpr.2016.90}" in r and "year = {2016}" in r
    a = new["kingma2014adam"]
    assert "ICLR" in a and "year = {2015}" in a and "keywords={optimization}" in a
    records, report = read_bibtex(after)
    assert len(records) == len(old) and not [r for r in report if not r.get("imported")]
    assert "3 of 5 preprint entries upgraded" in done.stderr
    assert "goodfellow2016arxiv: left as it was" in done.stderr
    assert "vaswani2017attention: @article -> @inproceedings NeurIPS 2017" in done.stderr


def test_upgrade_with_short_venues_to_stdout(fake, tmp_path):
    done = papershelf(fake, tmp_path, "upgrade", str(REFS), "--venue", "short")
    assert done.returncode == 0, done.stderr
    assert "booktitle = {NeurIPS 2017}" in done.stdout


def test_upgrade_leaves_entries_when_a_catalogue_fails(fake, tmp_path):
    fake.fail_next("s2", "500")
    done = papershelf(fake, tmp_path, "upgrade", str(REFS))
    assert done.returncode == 0, done.stderr
    assert "a catalogue failed" in done.stderr
    assert "@article{vaswani2017attention" in done.stdout


def test_resolve_checks_the_saved_preprints(fake, tmp_path):
    bib = tmp_path / "mine.bib"
    bib.write_text("@misc{v,\n  title = {Attention Is All You Need},\n  author = {Ashish "
                   "Vaswani and Noam Shazeer},\n  year = {2017},\n  eprint = {1706.03762},\n"
                   "  archivePrefix = {arXiv}\n}\n")
    env_off = papershelf(fake, tmp_path, "import", str(bib), arxiv="off")
    assert env_off.returncode == 0, env_off.stderr
    done = papershelf(fake, tmp_path, "resolve")
    assert done.returncode == 0, done.stderr
    assert "1 published versions found" in done.stdout
    exported = papershelf(fake, tmp_path, "export")
    assert "@inproceedings{v," in exported.stdout
    again = papershelf(fake, tmp_path, "resolve", "--all")
    assert "1 papers to check" in again.stdout


def test_resolve_refuses_when_the_catalogues_are_off(tmp_path):
    env = {**os.environ, "PAPERSHELF_DATA_DIR": str(tmp_path / "data"),
           "PAPERSHELF_ARXIV_API": "off"}
    env.pop("PAPERSHELF_DATABASE_URL", None)
    done = subprocess.run([sys.executable, "-m", "papershelf", "resolve"], capture_output=True,
                          text=True, timeout=60, env=env)
    assert done.returncode == 1 and "switched off" in done.stderr
    assert "Traceback" not in done.stderr
