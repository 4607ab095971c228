"""papershelf export / papershelf import, run through the real click group on a SQLite store."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from papershelf.cli import main
from tests.test_api_imports_keep_everything import EDGES, check_edge

BIB = r"""@misc{smith2024great,
  author = {Smith, Jane and others},
  title = {A {GREAT} Paper},
  year = {2024},
  month = may,
  eprint = {2405.01234},
  archivePrefix = {arXiv},
  annote = {A note with 100\% {\textbraceleft}braces{\textbraceright}}
}

@misc{roe2023other,
  author = {Roe, Rita},
  title = {Another Paper},
  year = {2023},
  url = {https://example.org/other}
}
"""


@pytest.fixture
def cli(tmp_path, monkeypatch):
    """Run ``papershelf …`` on a store in tmp_path, with the users ``me`` and ``you``."""
    monkeypatch.delenv("PAPERSHELF_DATABASE_URL", raising=False)
    monkeypatch.setenv("PAPERSHELF_ARXIV_API", "off")
    data_dir = str(tmp_path / "data")
    runner = CliRunner()

    def run(*args, input=None):
        return runner.invoke(main, [*args, "--data-dir", data_dir], input=input,
                             catch_exceptions=False)

    for name in ("me", "you"):
        assert run("token", "create", "--user", name).exit_code == 0
    return run


def test_import_then_export(cli, tmp_path):
    (tmp_path / "in.bib").write_text(BIB, encoding="utf-8")
    result = cli("import", str(tmp_path / "in.bib"))
    assert result.exit_code == 0, result.output
    assert "2 created, 0 updated, 0 skipped" in result.output
    out = cli("export")
    assert out.exit_code == 0, out.output
    assert out.output.index("@misc{roe2023other,") < out.output.index("@misc{smith2024great,")
    assert "A note with 100\\% {\\textbraceleft}braces{\\textbraceright}" in out.output


def test_export_to_a_file_with_progress_and_filters(cli, tmp_path):
    (tmp_path / "in.bib").write_text(BIB, encoding="utf-8")
    cli("import", str(tmp_path / "in.bib"))
    target = tmp_path / "out.bib"
    result = cli("export", "--output", str(target), "--q", "great", "--no-abstract")
    assert result.exit_code == 0, result.output
    assert "1 papers written to" in result.output
    assert target.read_text(encoding="utf-8").count("@misc{") == 1


def test_backup_round_trip_between_users(cli, tmp_path):
    (tmp_path / "in.bib").write_text(BIB, encoding="utf-8")
    cli("import", str(tmp_path / "in.bib"))
    backup = tmp_path / "backup.json"
    assert cli("export", "--format", "json", "-o", str(backup)).exit_code == 0
    result = cli("import", str(backup), "--user", "you")
    assert "2 created" in result.output, result.output
    mine = json.loads(cli("export", "--format", "json").output)["papers"]
    yours = json.loads(cli("export", "--format", "json", "--user", "you").output)["papers"]

    def strip(papers):
        for p in papers:
            p.pop("id")
            for child in p["notes"] + p["highlights"]:
                child.pop("id"), child.pop("paper_id")
        return papers

    assert strip(mine) == strip(yours)


def test_a_malformed_file_fails_clearly_and_changes_nothing(cli, tmp_path):
    (tmp_path / "bad.bib").write_text("@misc{a, title = {unclosed\n", encoding="utf-8")
    result = cli("import", str(tmp_path / "bad.bib"))
    assert result.exit_code == 1
    assert "cannot be imported" in result.output and "line 1" in result.output
    assert cli("export").output == ""


def test_an_unknown_user_is_an_error(cli):
    result = cli("export", "--user", "nobody")
    assert result.exit_code == 1 and "no user named 'nobody'" in result.output


def test_import_says_what_it_skipped_and_what_it_imported_without_a_field(cli, tmp_path):
    (tmp_path / "in.bib").write_text("@misc{a, title={A}, doi={not a doi}}\n@misc{b, year={2020}}\n",
                                     encoding="utf-8")
    result = cli("import", str(tmp_path / "in.bib"))  # (the runner shows stderr in output)
    assert result.exit_code == 0, result.output
    assert "1 created, 0 updated, 1 skipped" in result.output
    assert "imported a: fields not read" in result.output and "skipped b: no title" in result.output


@pytest.fixture
def cli_on(tmp_path):
    """``papershelf …`` in a child process, as a user runs it, on a new SQLite store."""
    env = {k: v for k, v in os.environ.items() if k != "PAPERSHELF_DATABASE_URL"}

    def run(*args):
        return subprocess.run(
            [sys.executable, "-m", "papershelf", *args, "--data-dir", str(tmp_path / "data")],
            capture_output=True, text=True, timeout=120,
            env={**env, "PAPERSHELF_ARXIV_API": "off"})

    return run


@pytest.mark.parametrize(("data", "expected", "reported", "export_check"),
                         [e[1:] for e in EDGES], ids=[e[0] for e in EDGES])
def test_what_used_to_be_refused_or_lost_imports_from_the_command_line(
        cli_on, tmp_path, data, expected, reported, export_check):
    path = tmp_path / "edge.bib"
    path.write_bytes(data)
    done = cli_on("import", str(path))
    assert done.returncode == 0, done.stderr
    assert "1 created, 0 updated, 0 skipped" in done.stdout
    assert (reported in done.stderr) if reported else "imported " not in done.stderr, done.stderr
    backup = cli_on("export", "--format", "json")
    assert backup.returncode == 0, backup.stderr
    (paper,) = json.loads(backup.stdout)["papers"]
    fmt, needle = export_check
    check_edge(paper, expected, cli_on("export", "--format", fmt).stdout, needle)
