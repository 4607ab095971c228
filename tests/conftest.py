"""Fixtures: every test gets a fresh store, on SQLite and on PostgreSQL.

The ``app`` fixture is parametrized over both stores. PostgreSQL runs get a database of their own
per test run (created here, dropped at the end), emptied between tests. Without a reachable
PostgreSQL the postgres half is skipped with the reason, or fails when CI sets
``PAPERSHELF_REQUIRE`` (see tests/_require.py).

The whole suite is split over two worker processes (pytest-xdist, ``-n auto --dist loadfile``
in pyproject.toml's addopts, two workers: ``pytest_xdist_auto_num_workers`` below). A test file
runs whole on one worker, in its order, so that what a module sets up once (a PDF build, an
`npm run build`, a server for the module) is made once; each worker has its own PostgreSQL
database, its own browsers and its own servers. Tests named on the command line run in one
process, as do ``-n 0`` and ``-p no:xdist``; ``-n 2`` splits them too.
"""

import os
import uuid

import pytest

from tests._require import require_or_skip

PG_ADMIN_URL = os.environ.get("PAPERSHELF_TEST_PG", "postgresql://postgres@127.0.0.1:5432/postgres")


def pytest_addoption(parser, pluginmanager):
    """Without pytest-xdist (not installed, or ``-p no:xdist``) the addopts' ``-n``/``--dist`` are
    still understood, and mean one process."""
    if pluginmanager.hasplugin("xdist"):
        return
    group = parser.getgroup("xdist", "without pytest-xdist: the run stays in one process")
    group._addoption("-n", "--numprocesses", dest="numprocesses", default=None,
                     help="ignored: pytest-xdist is not loaded")
    group.addoption("--dist", dest="dist", default="no", help="ignored: pytest-xdist is not loaded")
    group.addoption("--no-loadscope-reorder", dest="loadscopereorder", action="store_false",
                    help="ignored: pytest-xdist is not loaded")


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config):
    """``-n auto`` (the addopts): two worker processes for the whole suite (no test paths on the
    command line), one process for the tests a command line names (a worker's start is not worth
    it there). ``-n N`` or PYTEST_XDIST_AUTO_NUM_WORKERS chooses otherwise."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # pytest-xdist's own reading of it
    return 2 if config.args_source == pytest.Config.ArgsSource.TESTPATHS else 0


def _pg_connect(url):
    import psycopg

    return psycopg.connect(url, connect_timeout=3, autocommit=True)


# The catalogues of published versions are real services by default: servers the tests start
# in child processes inherit this, so that nothing but loopback is ever called (tests that
# want them point them at tests/fake_catalogues.py).
for _name in ("S2_API", "DBLP_API", "CROSSREF_API"):
    os.environ.setdefault(f"PAPERSHELF_{_name}", "off")


@pytest.fixture(scope="session")
def pg_database():
    """A PostgreSQL database for this test run: (url) — or a skip/fail saying why not."""
    try:
        admin = _pg_connect(PG_ADMIN_URL)
    except Exception as e:  # noqa: BLE001 - any connection failure means "no PostgreSQL here"
        require_or_skip("postgres", f"no PostgreSQL at {PG_ADMIN_URL}: {str(e).strip()[:200]}")
    # One per worker process (pytest-xdist's PYTEST_XDIST_WORKER: gw0, gw1…), never shared.
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    name = f"papershelf_test_{worker}_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    with admin.cursor() as cur:
        cur.execute(f'CREATE DATABASE "{name}"')
    base = PG_ADMIN_URL.rsplit("/", 1)[0]
    yield f"{base}/{name}"
    with admin.cursor() as cur:
        cur.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,))
        cur.execute(f'DROP DATABASE IF EXISTS "{name}"')
    admin.close()


def _empty_pg(url):
    conn = _pg_connect(url)
    with conn.cursor() as cur:
        cur.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        tables = [r[0] for r in cur.fetchall() if r[0] != "schema_version"]
        if tables:
            cur.execute("TRUNCATE " + ", ".join(f'"{t}"' for t in tables)
                        + " RESTART IDENTITY CASCADE")
    conn.close()


@pytest.fixture
def empty_pg(pg_database):
    """This run's PostgreSQL database, emptied for the test: its URL."""
    _empty_pg(pg_database)
    return pg_database


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'papershelf.db'}"
    return request.getfixturevalue("empty_pg")


@pytest.fixture
def make_app(tmp_path, database_url):
    """Build an app on this test's store; extra settings override the test defaults."""
    apps = []

    def build(**overrides):
        from papershelf.app import create_app

        cfg = {"DATA_DIR": str(tmp_path / "data"), "DATABASE_URL": database_url,
               "ARXIV_API": "off", "SECRET_KEY": "test-secret", "TESTING": True}
        cfg.update(overrides)
        app = create_app(cfg)
        apps.append(app)
        return app

    yield build
    for app in apps:
        for name in ("papershelf_enricher", "papershelf_resolver", "papershelf_entries"):
            worker = app.extensions.get(name)  # (a test that started the background work)
            if worker is not None and worker.running:
                worker.stop()
        database = app.extensions["papershelf_db"]
        if hasattr(database, "close_all"):
            database.close_all()
        elif not database.is_closed():
            database.close()


@pytest.fixture
def app(make_app):
    return make_app()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


@pytest.fixture
def make_user(app):
    """make_user("alice") → Authorization headers for a new user with a fresh token."""
    from papershelf.services import auth

    def make(name):
        with app.extensions["papershelf_db"].connection_context():
            user = auth.get_or_create_user(name)
            token = auth.create_token(user)
        return {"Authorization": f"Bearer {token}"}

    return make


@pytest.fixture
def alice(make_user):
    return make_user("alice")


@pytest.fixture
def bob(make_user):
    return make_user("bob")


PAPER = {
    "arxiv_id": "2603.29001",
    "title": "Asymmetric Actor-Critic for Multi-turn LLM Agents",
    "authors": ["Shuli Jiang", "Zhaoyang Zhang", "Yi Zhang"],
    "authors_more": 3,
    "abstract": "Large language models (LLMs) exhibit strong reasoning and conversational "
                "abilities, but ensuring reliable behavior in multi-turn interactions remains "
                "challenging.",
    "published": "2026-03-31",
    "affiliations": ["AWS Agentic AI"],
    "topics": ["Asynchronous Advantage Actor-Critic", "LLM Agent Reliability",
               "LLM Agent Training"],
    "source_url": "https://www.alphaxiv.org/topics/llm-agent-training",
}


@pytest.fixture
def paper_data():
    """A paper as the extension sends it from the topic page (a fresh copy per test)."""
    import copy

    return copy.deepcopy(PAPER)


@pytest.fixture
def saved(client, alice, paper_data):
    """A paper alice saved: its JSON."""
    r = client.post("/api/papers", json=paper_data, headers=alice)
    assert r.status_code == 201, r.json
    return r.json
