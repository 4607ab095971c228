"""create_app(): settings → store → security (hosts, CORS, auth) → API → library page → errors
→ the arXiv worker (set up, not started)."""

import gc
import logging
import os
import secrets
from pathlib import Path

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.routing import IntegerConverter

from papershelf.http.errors import register_error_handlers
from papershelf.http.json_provider import JSONProvider
from papershelf.settings import load_settings
from papershelf.store import db as store
from papershelf.store import migrations
from papershelf.store.db import StoreError  # noqa: F401 - what create_app raises for a newer store

log = logging.getLogger(__name__)

ROW_ID_MAX = 2**63 - 1


PRIVATE_FILES = ("papershelf.db", "papershelf.db-wal", "papershelf.db-shm", "secret_key",
                 "token")


def private_data_dir(data_dir: str, database_url: str | None = None) -> Path:
    """The data dir, readable by its owner only (0700), as are the files papershelf keeps in it
    (0600): the store holds every note. A dir papershelf did not create is tightened only when it
    holds papershelf's store; the SQLite file is created 0600 before SQLite opens it (its -wal
    and -shm files take the same mode)."""
    path = Path(data_dir)
    created = not path.exists()
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    if created or (path / "papershelf.db").exists() or (path / "secret_key").exists():
        if path.stat().st_mode & 0o077:
            os.chmod(path, 0o700)
    for name in PRIVATE_FILES:
        f = path / name
        if f.exists() and f.stat().st_mode & 0o077:
            os.chmod(f, 0o600)
    if database_url and database_url.startswith("sqlite:///"):
        db_file = Path(database_url[len("sqlite:///"):])
        if not db_file.exists() and db_file.parent.is_dir():
            os.close(os.open(db_file, os.O_WRONLY | os.O_CREAT, 0o600))
    return path


def _secret_key(data_dir: str) -> str:
    """The key that signs session cookies, made once per data dir. Several processes may start
    on a new data dir at once (gunicorn's workers): each writes a whole key to a file of its own
    and links it into place; the first link wins and every process reads that one."""
    path = Path(data_dir) / "secret_key"
    if not path.exists():
        private_data_dir(data_dir)
        mine = path.with_name(f".secret_key.{os.getpid()}.{secrets.token_hex(4)}")
        fd = os.open(mine, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_hex(32))
        try:
            os.link(mine, path)
        except FileExistsError:
            pass  # another process made it first: its key is the key
        finally:
            os.unlink(mine)
    return path.read_text().strip()


class RowId(IntegerConverter):
    """``<id:name>``: a row id as the stores can hold it (1 … 2**63-1); anything else is a 404."""

    def __init__(self, url_map):
        super().__init__(url_map, min=1, max=ROW_ID_MAX)


def tune_gc() -> None:
    """For a long-running server process (papershelf serve, gunicorn workers): move what start-up
    allocated out of the collector's sight, and collect young objects less often. A page lookup
    allocates tens of thousands of small dicts; with the default thresholds the collector ran
    dozens of times inside it (600-id lookup p50 17.8 → 11.5 ms with the collector off)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 50, 100)


def create_app(test_config: dict | None = None) -> Flask:
    app = Flask(__name__, static_folder="web/static", template_folder="web/templates")
    app.json = JSONProvider(app)
    app.url_map.converters["id"] = RowId
    cfg = load_settings(test_config)
    app.config.update(cfg)
    app.config["MAX_CONTENT_LENGTH"] = cfg["IMPORT_MAX_BYTES"]
    app.config["SECRET_KEY"] = cfg["SECRET_KEY"] or _secret_key(cfg["DATA_DIR"])
    app.config.update(
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Strict",
        SESSION_COOKIE_NAME="papershelf_session",
        JSON_SORT_KEYS=False,
    )
    if cfg["PROXY_FIX"]:
        # Behind a TLS proxy the library page's Origin check must see the public scheme and host.
        n = cfg["PROXY_FIX"]
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=n, x_proto=n, x_host=n)

    if cfg["DATABASE_URL"].startswith("sqlite") or Path(cfg["DATA_DIR"]).exists():
        private_data_dir(cfg["DATA_DIR"], cfg["DATABASE_URL"])
    database = store.open_database(cfg["DATABASE_URL"])
    store.bind(database)
    app.extensions["papershelf_db"] = database
    with database.connection_context():
        migrations.init_schema()

    @app.before_request
    def _connect():
        store.connect()

    @app.teardown_request
    def _close(exc):
        store.close()

    from papershelf.http.security import init_security

    init_security(app)

    from papershelf.http import (
        annotations,
        docs,
        enrichment,
        feeds,
        groups,
        health,
        papers,
        settings,
        tokens,
        transfer,
    )
    from papershelf.web import views

    for module in (health, papers, annotations, transfer, enrichment, feeds, settings, docs,
                   groups, tokens, views):
        app.register_blueprint(module.bp)
    register_error_handlers(app)

    # The arXiv worker is set up here and started only by `papershelf serve` or a gunicorn
    # worker (see enrichment_worker.init_enrichment); registering a blueprint starts nothing.
    from papershelf.enrichment_worker import init_enrichment
    from papershelf.entries_worker import init_entries
    from papershelf.published_worker import init_published

    init_enrichment(app)
    init_published(app)  # the published-version check, after arXiv's answer
    init_entries(app)  # BibTeX entries written ahead of the next export
    return app
