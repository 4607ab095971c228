"""`papershelf serve` and `papershelf token create`, run as a user runs them."""

import os
import stat
import subprocess
import sys

import pytest

from papershelf.testing import ServerProcess, call


def test_first_serve_creates_me_prints_token_once_and_writes_it_0600(tmp_path):
    data = tmp_path / "data"
    with ServerProcess(data) as server:
        token = server.token
        status, _ = call(server.base, "GET", "/api/papers", token)
        assert status == 200
    assert token in server.output
    mode = stat.S_IMODE(os.stat(data / "token").st_mode)
    assert mode == 0o600
    assert (data / "papershelf.db").exists()
    with ServerProcess(data) as again:
        assert call(again.base, "GET", "/api/papers", token)[0] == 200
    assert token not in again.output  # shown once


def test_serve_honours_data_dir_from_the_environment(tmp_path):
    data = tmp_path / "env-data"
    with ServerProcess(data, env={"PAPERSHELF_DATA_DIR": str(data)}, data_dir_flag=False) as server:
        assert call(server.base, "GET", "/api/papers", server.token)[0] == 200
    assert (data / "papershelf.db").exists()


def test_token_create_makes_a_working_token_for_a_new_user(tmp_path):
    data = tmp_path / "data"
    out = subprocess.run(
        [sys.executable, "-m", "papershelf", "token", "create", "--user", "carol",
         "--data-dir", str(data)],
        capture_output=True, text=True, check=True, env={**os.environ, "PAPERSHELF_ARXIV_API": "off"})
    carol = out.stdout.strip()
    assert carol.startswith("ps_")
    # The first command on a new data dir made 'me' too, as serve does, and said so on stderr.
    assert "created the user 'me'" in out.stderr
    with ServerProcess(data) as server:
        assert server.token not in server.output  # the store was not empty: nothing new printed
        assert call(server.base, "GET", "/api/papers", server.token)[0] == 200
        status, body = call(server.base, "POST", "/api/papers", carol, {"title": "Carol's"})
        assert status == 201
        assert call(server.base, "GET", "/api/papers", carol)[1]["items"][0]["title"] == "Carol's"
        assert call(server.base, "GET", "/api/papers", server.token)[1]["items"] == []


def test_serve_on_port_0_names_the_port_it_took_and_a_taken_port_is_never_mistaken_for_ours(
        tmp_path):
    with ServerProcess(tmp_path / "a") as first:  # --port 0
        assert f"serving on http://127.0.0.1:{first.port}  " in first.output
        assert first.port > 0 and call(first.base, "GET", "/api/health")[0] == 200
        # A second server asked for the same port answers nothing of its own: its start fails
        # with the server's one-line reason, although /api/health answers there (the first's).
        second = ServerProcess(tmp_path / "b", port=first.port)
        with pytest.raises(RuntimeError, match="cannot listen on 127.0.0.1:.*in use"):
            second.start()
        assert second.proc.poll() not in (None, 0)
        assert call(first.base, "GET", "/api/papers", first.token)[0] == 200


def test_serve_help_lists_its_flags():
    out = subprocess.run([sys.executable, "-m", "papershelf", "serve", "--help"],
                         capture_output=True, text=True, check=True).stdout
    for flag in ("--host", "--port", "--data-dir"):
        assert flag in out


def test_serve_refuses_a_store_from_a_newer_papershelf(tmp_path):
    data = tmp_path / "data"
    with ServerProcess(data):
        pass
    import sqlite3

    con = sqlite3.connect(data / "papershelf.db")
    con.execute("INSERT INTO schema_version (version) VALUES (999)")
    con.commit()
    con.close()
    proc = subprocess.run([sys.executable, "-m", "papershelf", "serve", "--data-dir", str(data),
                           "--port", "1"], capture_output=True, text=True, timeout=30)
    assert proc.returncode != 0
    assert "newer" in proc.stderr + proc.stdout
