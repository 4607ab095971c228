"""Every command on a new data dir, tokens from the shell, and bad files as one line of stderr.

The commands run as a user runs them: ``python -m papershelf …`` in a child process, so what
is checked is what a terminal shows (stdout, stderr, exit status), tracebacks included.
"""

import json
import os
import stat
import subprocess
import sys

import pytest

from papershelf.testing import ServerProcess, call
from tests.hostile import PARTIAL_FILES, REFUSED_FILES

SMALL_BIB = "@misc{k1,\n  title = {A Test of Import},\n  author = {M{\\\"u}ller, J{\\\"o}rg},\n" \
            "  year = {2024},\n  eprint = {2401.00001},\n  archivePrefix = {arXiv}\n}\n"


def papershelf(*args, env=None, input=None):
    """``papershelf ARGS`` in a child process: the CompletedProcess (text)."""
    return subprocess.run(
        [sys.executable, "-m", "papershelf", *args], capture_output=True, text=True, input=input,
        timeout=120, env={**os.environ, "PAPERSHELF_ARXIV_API": "off", **(env or {})})


@pytest.fixture
def data(tmp_path, monkeypatch):
    monkeypatch.delenv("PAPERSHELF_DATABASE_URL", raising=False)
    monkeypatch.delenv("PAPERSHELF_DATA_DIR", raising=False)
    return tmp_path / "data"


@pytest.mark.parametrize("first", [
    ["import", "{bib}"],
    ["export"],
    ["token", "list"],
    ["enrich"],
])
def test_whichever_command_runs_first_creates_me_with_a_private_token_file(data, tmp_path, first):
    bib = tmp_path / "refs.bib"
    bib.write_text(SMALL_BIB, encoding="utf-8")
    args = [a.replace("{bib}", str(bib)) for a in first]
    env = {"PAPERSHELF_ARXIV_API": "https://127.0.0.1:9/api/query"} if first == ["enrich"] else None
    done = papershelf(*args, "--data-dir", str(data), env=env)
    assert done.returncode == 0, done.stderr
    assert "created the user 'me'" in done.stderr
    token = (data / "token").read_text().strip()
    assert token.startswith("ps_") and token in done.stderr
    assert token not in done.stdout  # stdout stays the command's own output (an export)
    assert stat.S_IMODE(os.stat(data / "token").st_mode) == 0o600
    again = papershelf("token", "list", "--data-dir", str(data))
    assert again.returncode == 0 and "created the user" not in again.stderr
    with ServerProcess(data) as server:
        assert call(server.base, "GET", "/api/papers", token)[0] == 200


def test_import_then_export_on_a_new_data_dir_from_the_environment(data, tmp_path):
    bib = tmp_path / "refs.bib"
    bib.write_text(SMALL_BIB, encoding="utf-8")
    env = {"PAPERSHELF_DATA_DIR": str(data)}
    imported = papershelf("import", str(bib), env=env)
    assert imported.returncode == 0, imported.stderr
    assert "1 created, 0 updated, 0 skipped" in imported.stdout
    exported = papershelf("export", "--format", "bibtex", env=env)
    assert exported.returncode == 0, exported.stderr
    assert "eprint = {2401.00001}" in exported.stdout
    assert "M{\\\"u}ller, J{\\\"o}rg" in exported.stdout
    # --data-dir names the same store as the variable did.
    flagged = papershelf("export", "--format", "json", "--data-dir", str(data))
    assert [p["arxiv_id"] for p in json.loads(flagged.stdout)["papers"]] == ["2401.00001"]


def test_a_command_beside_a_running_server_sees_its_store(data, tmp_path):
    bib = tmp_path / "refs.bib"
    bib.write_text(SMALL_BIB, encoding="utf-8")
    with ServerProcess(data) as server:
        status, _ = call(server.base, "POST", "/api/papers", server.token, {"title": "From the page"})
        assert status == 201
        assert papershelf("import", str(bib), "--data-dir", str(data)).returncode == 0
        titles = [p["title"] for p in call(server.base, "GET", "/api/papers", server.token)[1]["items"]]
        assert sorted(titles) == ["A Test of Import", "From the page"]


def test_token_list_shows_tokens_without_their_secrets(data):
    made = papershelf("token", "create", "--label", "laptop", "--data-dir", str(data))
    secret = made.stdout.strip()
    listed = papershelf("token", "list", "--data-dir", str(data))
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    assert lines[0].split() == ["id", "label", "created", "(UTC)", "last", "used", "(UTC)",
                                "expires", "(UTC)", "state"]
    assert [line.split()[1] for line in lines[1:]] == ["first", "laptop"]
    assert all(line.split()[-1] == "active" for line in lines[1:])
    first_token = (data / "token").read_text().strip()
    assert secret not in listed.stdout and first_token not in listed.stdout


def test_token_create_with_an_expiry_lists_it(data):
    made = papershelf("token", "create", "--label", "ci", "--expires-in-days", "30",
                      "--data-dir", str(data))
    assert made.returncode == 0, made.stderr
    assert made.stdout.strip().startswith("ps_")
    listed = papershelf("token", "list", "--data-dir", str(data)).stdout.splitlines()
    ci = next(line.split() for line in listed if line.split()[1] == "ci")
    first = next(line.split() for line in listed if line.split()[1] == "first")
    assert ci[-1] == "active" and "never" not in ci[-3:]  # an expiry date and time
    assert first[-2] == "never"
    bad = papershelf("token", "create", "--expires-in-days", "0", "--data-dir", str(data))
    assert bad.returncode != 0 and "Traceback" not in bad.stderr


def test_token_revoke_by_label_and_by_id_ends_the_token(data):
    laptop = papershelf("token", "create", "--label", "laptop", "--data-dir", str(data)).stdout.strip()
    desk = papershelf("token", "create", "--label", "desk", "--data-dir", str(data)).stdout.strip()
    with ServerProcess(data) as server:
        assert call(server.base, "GET", "/api/papers", laptop)[0] == 200
        by_label = papershelf("token", "revoke", "laptop", "--data-dir", str(data))
        assert by_label.returncode == 0, by_label.stderr
        assert call(server.base, "GET", "/api/papers", laptop)[0] == 401
        assert call(server.base, "GET", "/api/papers", desk)[0] == 200
        desk_id = next(line.split()[0] for line in papershelf(
            "token", "list", "--data-dir", str(data)).stdout.splitlines() if " desk " in line)
        by_id = papershelf("token", "revoke", desk_id, "--data-dir", str(data))
        assert by_id.returncode == 0, by_id.stderr
        assert call(server.base, "GET", "/api/papers", desk)[0] == 401
        assert call(server.base, "GET", "/api/papers", server.token)[0] == 200
    states = papershelf("token", "list", "--data-dir", str(data)).stdout
    assert states.count("revoked") == 2 and states.count("active") == 1


def test_token_revoke_refuses_an_unknown_or_ambiguous_name(data):
    for _ in range(2):
        papershelf("token", "create", "--label", "twin", "--data-dir", str(data))
    ambiguous = papershelf("token", "revoke", "twin", "--data-dir", str(data))
    assert ambiguous.returncode == 1
    assert "revoke one by its id" in ambiguous.stderr
    unknown = papershelf("token", "revoke", "nope", "--data-dir", str(data))
    assert unknown.returncode == 1 and "no token" in unknown.stderr
    other_user = papershelf("token", "list", "--user", "nobody", "--data-dir", str(data))
    assert other_user.returncode == 1 and "no user named 'nobody'" in other_user.stderr
    assert "active" in papershelf("token", "list", "--data-dir", str(data)).stdout
    assert papershelf("token", "list", "--data-dir", str(data)).stdout.count("active") == 3


@pytest.mark.parametrize("name", list(REFUSED_FILES))
def test_a_bad_file_is_one_line_on_stderr_and_exit_1(data, tmp_path, name):
    before = papershelf("export", "--format", "json", "--data-dir", str(data)).stdout
    bad = tmp_path / "bad.bib"
    bad.write_bytes(REFUSED_FILES[name])
    done = papershelf("import", str(bad), "--data-dir", str(data))
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 1, (done.returncode, done.stdout, done.stderr)
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert done.stderr.startswith("Error: ")
    after = papershelf("export", "--format", "json", "--data-dir", str(data)).stdout
    assert json.loads(after)["papers"] == json.loads(before)["papers"] == []


@pytest.mark.parametrize("name", list(PARTIAL_FILES))
def test_a_file_imported_in_part_reports_each_part_left_out(data, tmp_path, name):
    content, reported = PARTIAL_FILES[name]
    path = tmp_path / "partial.bib"
    path.write_bytes(content)
    done = papershelf("import", str(path), "--data-dir", str(data))
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 0, done.stderr
    assert " created, " in done.stdout
    report = [line for line in done.stderr.splitlines()
              if line.strip().startswith(("imported ", "skipped "))]
    assert report and reported in "\n".join(report), done.stderr


def test_an_endless_input_is_refused_not_read_to_the_end(data):
    done = papershelf("import", "/dev/zero", "--data-dir", str(data),
                      env={"PAPERSHELF_IMPORT_MAX_BYTES": "100000"})
    assert done.returncode == 1 and "larger than 100,000 bytes" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("path", ["missing.bib", "."])
def test_a_file_that_cannot_be_opened_is_one_line_and_exit_1(data, tmp_path, path):
    done = papershelf("import", str(tmp_path / path), "--data-dir", str(data))
    assert done.returncode == 1, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("command", [["serve"], ["export"], ["import"], ["enrich"],
                                     ["token", "create"], ["token", "list"], ["token", "revoke"]])
def test_every_command_takes_data_dir(command):
    done = papershelf(*command, "--help")
    assert done.returncode == 0 and "--data-dir" in done.stdout
    assert "PAPERSHELF_DATA_DIR" in done.stdout


def test_an_empty_file_imports_nothing_and_says_so(data, tmp_path):
    empty = tmp_path / "empty.bib"
    empty.write_bytes(b"")
    done = papershelf("import", str(empty), "--data-dir", str(data))
    assert done.returncode == 0, done.stderr
    assert "0 created, 0 updated, 0 skipped" in done.stdout


def test_serve_on_a_port_in_use_is_one_line_and_exit_1(data):
    with ServerProcess(data) as server:
        done = papershelf("serve", "--port", str(server.port), "--data-dir", str(data))
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines()[-1] == \
        f"Error: cannot listen on 127.0.0.1:{server.port}: Address already in use"


def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_a_new_data_dir_and_its_files_are_private(data, tmp_path):
    bib = tmp_path / "refs.bib"
    bib.write_text(SMALL_BIB, encoding="utf-8")
    assert papershelf("import", str(bib), "--data-dir", str(data)).returncode == 0
    assert _mode(data) == 0o700
    for name in ("papershelf.db", "token", "secret_key"):
        if (data / name).exists():
            assert _mode(data / name) == 0o600, name
    assert (data / "papershelf.db").exists()
    for extra in ("papershelf.db-wal", "papershelf.db-shm"):
        if (data / extra).exists():
            assert _mode(data / extra) == 0o600, extra


def test_an_older_data_dir_open_to_all_is_made_private(data, tmp_path):
    bib = tmp_path / "refs.bib"
    bib.write_text(SMALL_BIB, encoding="utf-8")
    assert papershelf("import", str(bib), "--data-dir", str(data)).returncode == 0
    os.chmod(data, 0o755)
    os.chmod(data / "papershelf.db", 0o644)
    assert papershelf("token", "list", "--data-dir", str(data)).returncode == 0
    assert _mode(data) == 0o700 and _mode(data / "papershelf.db") == 0o600


def test_a_cli_import_beside_the_running_server_never_fails_a_save(data, tmp_path, database_url):
    """The server and `papershelf import` are two processes on one store: every save the server
    acknowledges during the import succeeds (no "database is locked"), and the import is whole."""
    import threading

    n = 3000
    bib = tmp_path / "many.bib"
    bib.write_text("".join(
        f"@misc{{p{i}, title = {{Paper number {i}}}, author = {{Doe, Jane}}, year = {{2025}},"
        f" eprint = {{2501.{10000 + i}}}, archivePrefix = {{arXiv}}}}\n" for i in range(n)),
        encoding="utf-8")
    env = {"PAPERSHELF_DATABASE_URL": database_url}
    with ServerProcess(data, env=env) as server:
        other = papershelf("token", "create", "--user", "other", "--data-dir", str(data),
                           env=env).stdout.strip().split()[-1]
        results, stop = [], threading.Event()

        def save_meanwhile():
            i = 0
            while not stop.is_set():
                results.append(call(server.base, "POST", "/api/papers", other,
                                    {"title": f"Saved meanwhile {i}"}, timeout=60))
                i += 1

        saver = threading.Thread(target=save_meanwhile)
        saver.start()
        try:
            done = papershelf("import", str(bib), "--data-dir", str(data), env=env)
        finally:
            stop.set()
            saver.join()
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith(f"{n} created"), done.stdout
        assert len(results) > 5
        assert [r for r in results if r[0] != 201] == []
        status, page = call(server.base, "GET", "/api/papers?limit=1", server.token)
        assert status == 200


def test_processes_starting_together_on_a_new_data_dir_agree_on_one_secret_key(tmp_path):
    """gunicorn's workers start at once on a new data dir: one key, no FileExistsError."""
    from concurrent.futures import ThreadPoolExecutor

    from papershelf.app import _secret_key

    data = tmp_path / "new"
    with ThreadPoolExecutor(16) as pool:
        keys = set(pool.map(lambda _: _secret_key(str(data)), range(64)))
    assert len(keys) == 1 and len(keys.pop()) == 64
    assert sorted(p.name for p in data.iterdir()) == ["secret_key"]
    assert _mode(data / "secret_key") == 0o600
