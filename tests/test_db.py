"""The store: schema versions and migrations, SQLite settings, and what only the store writes
(SQL and dialect branches)."""

import ast
import re
from pathlib import Path

import pytest

from papershelf.store import db as store
from papershelf.store import migrations
from papershelf.store.models import USER_PAPER_IDS_INDEX


def _set_version(version):
    """Make the store one of ``version`` (a new store holds one row, its own version)."""
    store.db.execute_sql("DELETE FROM schema_version")
    store.db.execute_sql(f"INSERT INTO schema_version (version) VALUES ({version})")


def _version(app):
    with app.extensions["papershelf_db"].connection_context():
        return store.db.execute_sql("SELECT MAX(version) FROM schema_version").fetchone()[0]


def test_a_new_store_is_at_the_current_schema_version(app):
    assert _version(app) == migrations.SCHEMA_VERSION


def test_an_older_store_is_migrated_forward_keeping_its_papers(make_app, make_user, client):
    app = make_app()
    headers = make_user("alice")
    c = app.test_client()
    c.post("/api/papers", json={"title": "Kept across the migration"}, headers=headers)
    with app.extensions["papershelf_db"].connection_context():
        # Make it look like a version-1 store.
        _set_version(1)
        if store.is_postgres():
            store.db.execute_sql(
                "ALTER TABLE paper_search ALTER COLUMN document SET STORAGE EXTENDED")
    again = make_app()
    assert _version(again) == migrations.SCHEMA_VERSION
    with again.extensions["papershelf_db"].connection_context():
        if store.is_postgres():
            storage = store.db.execute_sql(
                "SELECT attstorage FROM pg_attribute WHERE attrelid = 'paper_search'::regclass"
                " AND attname = 'document'").fetchone()[0]
            assert storage == "m"
    items = again.test_client().get("/api/papers?q=migration", headers=headers).json["items"]
    assert [p["title"] for p in items] == ["Kept across the migration"]


def test_sqlite_runs_in_wal_mode_with_foreign_keys(app):
    if not store.is_sqlite(app.extensions["papershelf_db"]):
        pytest.skip("a SQLite setting")
    with app.extensions["papershelf_db"].connection_context():
        assert store.db.execute_sql("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store.db.execute_sql("PRAGMA foreign_keys").fetchone()[0] == 1


def _v2_store(database) -> None:
    """Make the store look like schema version 2: no columns for works beyond arXiv, DOIs, URLs
    and citation keys unique as they were."""
    from papershelf.store.migrations import _WORK_COLUMNS

    store.db.execute_sql("DELETE FROM schema_version")
    store.db.execute_sql("INSERT INTO schema_version (version) VALUES (2)")
    store.db.execute_sql("DROP INDEX IF EXISTS paper_user_id_citation_key_nocase")
    for column in ("doi", "url"):
        store.db.execute_sql(f"DROP INDEX IF EXISTS paper_user_id_{column}")
        store.db.execute_sql(
            f"CREATE UNIQUE INDEX paper_user_id_{column} ON paper (user_id, {column})")
    store.db.execute_sql(
        "CREATE UNIQUE INDEX paper_user_id_citation_key ON paper (user_id, citation_key)")
    for name, _ in _WORK_COLUMNS:
        store.db.execute_sql(f'ALTER TABLE paper DROP COLUMN "{name}"')


def test_a_version_2_store_gains_works_beyond_arxiv_and_keys_without_case(make_app, make_user):
    app = make_app()
    headers = make_user("alice")
    c = app.test_client()
    for key in ("Vaswani2017", "other"):
        doi = "10.1000/shared" if key == "other" else None
        r = c.post("/api/papers", json={"title": f"Paper {key}", "doi": doi}, headers=headers)
        c.patch(f"/api/papers/{r.json['id']}", json={"citation_key": key}, headers=headers)
    with app.extensions["papershelf_db"].connection_context():
        with store.db.atomic():
            _v2_store(store.db)
            # a key that differs from another only in case, as version 2 allowed
            store.db.execute_sql(
                "UPDATE paper SET citation_key = 'vaswani2017' WHERE citation_key = 'other'")
    again = make_app()
    assert _version(again) == migrations.SCHEMA_VERSION
    c = again.test_client()
    items = c.get("/api/papers", headers=headers).json["items"]
    assert sorted(p["citation_key"] for p in items) == ["Vaswani2017", "vaswani2017a"]
    assert all(p["entry_type"] is None and p["extra"] == {} and p["editors"] == [] for p in items)
    # a DOI may now be shared by two works; a key is taken whatever its case
    bib = ("@misc{ch2, title={Another chapter}, doi={10.1000/shared}}\n"
           "@misc{VASWANI2017, title={Third}}")
    report = c.post("/api/import", data=bib.encode(), headers=headers).json
    assert report["created"] == 2, report
    assert "BibTeX ignores case" in report["errors"][0]["reason"]


def _has_index(name: str) -> bool:
    if store.is_postgres():
        sql = f"SELECT 1 FROM pg_indexes WHERE indexname = {store.db.param}"
    else:
        sql = f"SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = {store.db.param}"
    return store.db.execute_sql(sql, (name,)).fetchone() is not None


def test_a_version_8_store_gains_the_shelf_index_and_the_migration_runs_twice(make_app,
                                                                              make_user):
    from papershelf.store import models

    app = make_app()
    headers = make_user("alice")
    app.test_client().post("/api/papers", json={"title": "Kept", "tags": ["RL"]}, headers=headers)
    with app.extensions["papershelf_db"].connection_context():
        assert _has_index(models.TAG_NAME_INDEX)  # a new store has it
        with store.db.atomic():
            store.db.execute_sql(f"DROP INDEX {models.TAG_NAME_INDEX}")
            _set_version(8)
    again = make_app()
    assert _version(again) == migrations.SCHEMA_VERSION >= 9
    with again.extensions["papershelf_db"].connection_context():
        assert _has_index(models.TAG_NAME_INDEX)
        with store.db.atomic():
            migrations.MIGRATIONS[9]()  # idempotent
        assert _has_index(models.TAG_NAME_INDEX)
    items = again.test_client().get("/api/papers?tag=rl", headers=headers).json["items"]
    assert [p["title"] for p in items] == ["Kept"]


SERVICES = Path(__file__).resolve().parents[1] / "server" / "papershelf" / "services"
# What only the store may use: its raw-SQL entry points and its dialect checks.
STORE_ONLY_NAMES = {"execute_sql", "is_postgres", "is_sqlite", "SQL", "NodeList", "param",
                    "sql", "for_update"}
SQL_TEXT = re.compile(r"\b(SELECT\b.*\bFROM|INSERT\s+INTO|UPDATE\b.*\bSET|DELETE\s+FROM)\b",
                      re.IGNORECASE | re.DOTALL)


def _docstrings(tree) -> set[int]:
    return {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
            and node.body and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)}


def _store_only_uses(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        name = (node.attr if isinstance(node, ast.Attribute)
                else node.id if isinstance(node, ast.Name)
                else None)
        if isinstance(node, ast.ImportFrom):
            found += [f"imports {a.name}" for a in node.names if a.name in STORE_ONLY_NAMES]
            if node.module in ("sqlite3", "psycopg"):
                found.append(f"imports {node.module}")
        elif isinstance(node, ast.Import):
            found += [f"imports {a.name}" for a in node.names if a.name in ("sqlite3", "psycopg")]
        elif name in STORE_ONLY_NAMES:
            found.append(f"line {node.lineno}: {name}")
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
              and id(node) not in docs and SQL_TEXT.search(node.value)):
            found.append(f"line {node.lineno}: SQL text {node.value[:40]!r}")
    return found


@pytest.mark.parametrize("path", sorted(SERVICES.glob("*.py")), ids=lambda p: p.name)
def test_services_write_no_sql_and_no_dialect_branch(path):
    """The store's map: raw SQL and every dialect branch live in ``store/``; the services build
    plain row reads and writes with the models' query builder."""
    assert _store_only_uses(path) == []


def test_the_sql_check_finds_sql_and_dialect_branches(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text(
        '"""A module that does the store\'s work (SELECT id FROM paper, in a docstring)."""\n'
        "from papershelf.store.db import db, is_postgres\n"
        "def f():\n"
        "    if is_postgres():\n"
        "        db.execute_sql(\"SELECT id FROM paper WHERE user_id = %s\", (1,))\n"
        "    return q.sql()\n", encoding="utf-8")
    found = _store_only_uses(bad)
    assert "imports is_postgres" in found
    assert any("execute_sql" in f for f in found) and any(": sql" in f for f in found)
    assert any("SQL text" in f for f in found)
    assert not any("docstring" in f for f in found)


def test_a_version_9_store_gains_pdf_highlight_pages_and_the_migration_runs_twice(make_app,
                                                                                  make_user):
    app = make_app()
    headers = make_user("alice")
    c = app.test_client()
    paper = c.post("/api/papers", json={"title": "Kept"}, headers=headers).json
    h = c.post(f"/api/papers/{paper['id']}/highlights", headers=headers, json={
        "field": "title", "exact": "Kept", "start": 0, "end": 4}).json
    with app.extensions["papershelf_db"].connection_context():
        with store.db.atomic():
            store.db.execute_sql("ALTER TABLE highlight DROP COLUMN page")
            _set_version(9)
    again = make_app()
    assert _version(again) == migrations.SCHEMA_VERSION >= 10
    with again.extensions["papershelf_db"].connection_context():
        with store.db.atomic():
            migrations.MIGRATIONS[10]()  # idempotent
    kept = again.test_client().get(f"/api/papers/{paper['id']}", headers=headers).json
    assert [(x["id"], x["field"], x["page"]) for x in kept["highlights"]] == [(h["id"], "title", None)]


def _index_names(table: str) -> set[str]:
    return {i.name for i in store.db.get_indexes(table)}


def test_a_version_13_store_gains_the_index_of_its_users_paper_ids(make_app, make_user):
    app = make_app()
    headers = make_user("alice")
    paper = app.test_client().post("/api/papers", json={"title": "Kept"}, headers=headers).json
    with app.extensions["papershelf_db"].connection_context():
        assert USER_PAPER_IDS_INDEX in _index_names("paper")  # a new store has it
        with store.db.atomic():
            store.db.execute_sql(f"DROP INDEX {USER_PAPER_IDS_INDEX}")
            _set_version(13)
    again = make_app()
    assert _version(again) == migrations.SCHEMA_VERSION >= 14
    with again.extensions["papershelf_db"].connection_context():
        assert USER_PAPER_IDS_INDEX in _index_names("paper")
        with store.db.atomic():
            migrations.MIGRATIONS[14]()  # idempotent
    kept = again.test_client().get("/api/papers?q=Kept", headers=headers).json
    assert (kept["total"], [p["id"] for p in kept["items"]]) == (1, [paper["id"]])


def test_a_version_14_store_gains_the_identity_index_holding_the_paper(make_app, make_user):
    app = make_app()
    headers = make_user("alice")
    paper = app.test_client().post(
        "/api/papers", json={"title": "Kept", "doi": "10.1000/kept"}, headers=headers).json
    new, old = "paper_identity_user_id_identity_paper_id", "paper_identity_user_id_identity"
    with app.extensions["papershelf_db"].connection_context():
        assert new in _index_names("paper_identity") and old not in _index_names("paper_identity")
        with store.db.atomic():  # the index as version 14 had it
            store.db.execute_sql(f"DROP INDEX {new}")
            store.db.execute_sql(f"CREATE INDEX {old} ON paper_identity (user_id, identity)")
            _set_version(14)
    again = make_app()
    assert _version(again) == migrations.SCHEMA_VERSION >= 15
    with again.extensions["papershelf_db"].connection_context():
        names = _index_names("paper_identity")
        assert new in names and old not in names
        with store.db.atomic():
            migrations.MIGRATIONS[15]()  # idempotent
    found = again.test_client().post("/api/papers/lookup", json={
        "arxiv_ids": [], "urls": ["https://doi.org/10.1000/KEPT"]}, headers=headers).json
    assert found["papers"]["https://doi.org/10.1000/KEPT"]["id"] == paper["id"]


def test_postgresql_connections_run_without_jit_and_keep_the_urls_options(empty_pg):
    """JIT compiles a plan again at each execution (30-40 ms: a page lookup on a new store took
    42 ms with it, 4 ms without): papershelf's connections turn it off, and keep what the URL's
    own ``options`` set."""
    database = store.open_database(empty_pg + "?options=-c%20statement_timeout%3D7000")
    with database.connection_context():
        assert database.execute_sql("SHOW jit").fetchone()[0] == "off"
        assert database.execute_sql("SHOW statement_timeout").fetchone()[0] == "7s"
    database.close_all()
    plain = store.open_database(empty_pg)
    with plain.connection_context():
        assert plain.execute_sql("SHOW jit").fetchone()[0] == "off"
    plain.close_all()
