"""The team-server recipe (docs/team-server.md, ``deploy/``) is a tested one: the systemd unit's
command line is run as written (with this run's database, data dir and port) and serves; its
settings are papershelf's; the TLS proxy forwards to the unit's address with the headers
papershelf trusts; every PostgreSQL setting is a real one; and the backup script's pg_dump
restores with pg_restore into a database the server reads back the same."""

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import psycopg
import pytest

from papershelf.settings import SETTINGS
from papershelf.testing import call
from tests._require import require_or_skip

DEPLOY = Path(__file__).resolve().parents[1] / "deploy"


@pytest.fixture
def database_url(empty_pg):
    """PostgreSQL only: the recipe is the team server's."""
    return empty_pg


def unit() -> dict[str, dict[str, list[str]]]:
    """The systemd unit: {section: {key: [values]}} (keys may repeat, as Environment= does)."""
    sections: dict[str, dict[str, list[str]]] = {}
    current = None
    for line in (DEPLOY / "papershelf.service").read_text().splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], {})
            continue
        key, sep, value = line.partition("=")
        assert sep and current is not None, f"not a unit line: {line!r}"
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


def unit_environment() -> dict[str, str]:
    return dict(v.split("=", 1) for v in unit()["Service"]["Environment"])


def test_the_unit_parses_and_sets_only_papershelfs_settings():
    sections = unit()
    assert set(sections) == {"Unit", "Service", "Install"}
    env = unit_environment()
    known = {s.env for s in SETTINGS}
    assert set(env) <= known, set(env) - known
    assert env["PAPERSHELF_PROXY_FIX"] == "1"  # exactly the one proxy of nginx.conf
    assert env["PAPERSHELF_DATABASE_URL"].startswith("postgresql://")
    if shutil.which("systemd-analyze"):
        done = subprocess.run(["systemd-analyze", "verify", "--man=no",
                               str(DEPLOY / "papershelf.service")],
                              capture_output=True, text=True, timeout=60)
        # The machine running the tests has neither the papershelf user nor /opt/papershelf;
        # anything else it reports is a mistake in the unit.
        problems = [line for line in done.stderr.splitlines()
                    if line.strip() and "/opt/papershelf" not in line
                    and "papershelf.service" in line and "User" not in line]
        assert problems == [], done.stderr


def test_the_units_command_line_serves(tmp_path, database_url):
    argv = shlex.split(unit()["Service"]["ExecStart"][0])
    assert Path(argv[0]).name == "gunicorn"
    gunicorn = shutil.which("gunicorn", path=str(Path(sys.executable).parent)) or \
        shutil.which("gunicorn")
    if gunicorn is None:
        require_or_skip("gunicorn", "gunicorn is not installed (pip install '.[team]')")
    env = {**os.environ, **unit_environment(),
           "PAPERSHELF_DATABASE_URL": database_url, "PAPERSHELF_DATA_DIR": str(tmp_path / "data"),
           "PAPERSHELF_BIND": "127.0.0.1:0", "PAPERSHELF_WORKERS": "2",
           "PAPERSHELF_ARXIV_API": "off"}
    log = open(tmp_path / "gunicorn.log", "w")  # noqa: SIM115 - closed below
    proc = subprocess.Popen([gunicorn, *argv[1:]], env=env, stdout=log, stderr=subprocess.STDOUT,
                            cwd=tmp_path)
    try:
        # Port 0: gunicorn binds a free port and names it ("Listening at: http://…"), so the
        # answer checked is this unit's own, never another server's on a port chosen here.
        deadline, base = time.monotonic() + 30, None
        while time.monotonic() < deadline:
            listening = re.search(r"Listening at: (http://127\.0\.0\.1:\d+)",
                                  (tmp_path / "gunicorn.log").read_text())
            base = listening and listening.group(1)
            try:
                if base and call(base, "GET", "/api/health", timeout=1)[0] == 200:
                    break
            except OSError:
                pass
            time.sleep(0.2)
        else:
            pytest.fail((tmp_path / "gunicorn.log").read_text())
        # as the proxy forwards it: the public name, https
        import urllib.request

        req = urllib.request.Request(base + "/signin", headers={
            "Host": "papers.lab.example", "X-Forwarded-Proto": "https",
            "X-Forwarded-Host": "papers.lab.example"})
        with urllib.request.urlopen(req, timeout=10) as resp:
            assert resp.status == 200
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        log.close()


def test_the_proxy_forwards_to_the_unit_with_the_headers_papershelf_trusts():
    conf = (DEPLOY / "nginx.conf").read_text()
    code = "\n".join(line.split("#", 1)[0] for line in conf.splitlines())
    assert code.count("{") == code.count("}")
    statements = [s.strip() for s in code.replace("{", ";").replace("}", ";").split(";")]
    bind = unit_environment()["PAPERSHELF_BIND"]
    assert f"proxy_pass http://{bind}" in statements
    for header in ("Host $host", "X-Forwarded-Proto $scheme", "X-Forwarded-Host $host"):
        assert f"proxy_set_header {header}" in statements
    allowed = unit_environment()["PAPERSHELF_ALLOWED_HOSTS"].split(",")
    names = {s.split()[1] for s in statements if s.startswith("server_name")}
    assert names <= set(allowed)
    size = next(s.split()[1] for s in statements if s.startswith("client_max_body_size"))
    assert int(size.rstrip("m")) >= 50  # imports up to 50 MiB


def test_every_postgresql_setting_is_real(database_url):
    names = {}
    for line in (DEPLOY / "postgresql.conf").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            key, _, value = line.partition("=")
            names[key.strip()] = value.strip()
    with psycopg.connect(database_url) as conn:
        real = {r[0] for r in conn.execute("SELECT name FROM pg_settings").fetchall()}
    assert names and set(names) <= real, set(names) - real


def test_a_pg_dump_backup_restores_to_the_same_library(app, client, alice, bob, paper_data,
                                                       tmp_path, database_url):
    if not shutil.which("pg_dump") or not shutil.which("pg_restore"):
        require_or_skip("postgres", "pg_dump and pg_restore are not installed")
    gid = client.post("/api/groups", json={"name": "Lab"}, headers=alice).json["id"]
    client.post(f"/api/groups/{gid}/members", json={"user": "bob"}, headers=alice)
    pid = client.post("/api/papers", json={**paper_data, "groups": [gid]}, headers=alice).json["id"]
    client.post(f"/api/papers/{pid}/notes", json={"body": "kept"}, headers=alice)
    before = (client.get(f"/api/papers/{pid}", headers=alice).json,
              client.get(f"/api/groups/{gid}/papers", headers=bob).json)

    done = subprocess.run(["sh", str(DEPLOY / "backup.sh")], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PAPERSHELF_DATABASE_URL": database_url,
                                            "PAPERSHELF_BACKUP_DIR": str(tmp_path / "backups")})
    assert done.returncode == 0, done.stderr
    dump = Path(done.stdout.strip())
    assert dump.exists() and oct(dump.stat().st_mode & 0o777) == "0o600"

    name = f"papershelf_restored_{uuid.uuid4().hex[:8]}"
    admin_url = database_url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    restored_url = database_url.rsplit("/", 1)[0] + "/" + name
    try:
        restore = subprocess.run(["pg_restore", "--no-owner", "-d", restored_url, str(dump)],
                                 capture_output=True, text=True, timeout=120)
        assert restore.returncode == 0, restore.stderr
        from papershelf.app import create_app

        restored = create_app({"DATA_DIR": str(tmp_path / "restored"),
                               "DATABASE_URL": restored_url, "ARXIV_API": "off",
                               "SECRET_KEY": "test-secret", "TESTING": True})
        try:
            other = restored.test_client()
            after = (other.get(f"/api/papers/{pid}", headers=alice).json,
                     other.get(f"/api/groups/{gid}/papers", headers=bob).json)
            assert after == before
            # and the restored store takes writes (its sequences came along)
            assert other.post("/api/papers", json={**paper_data, "arxiv_id": "2603.29009"},
                              headers=alice).status_code == 201
        finally:
            restored.extensions["papershelf_db"].close_all()
    finally:
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                          " WHERE datname = %s", (name,))
            admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
