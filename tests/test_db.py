"""The store: schema versions and migrations, SQLite settings."""

import pytest

from papershelf.store import db as store
from papershelf.store import migrations


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
        store.db.execute_sql("DELETE FROM schema_version WHERE version > 1")
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
