"""gunicorn settings for a team server: `gunicorn -c python:papershelf.gunicorn_conf
'papershelf.app:create_app()'`.

Every worker serves requests and starts the arXiv enrichment worker; exactly one process of all
those sharing the store (on every host) enriches at a time: the one holding the store's
enricher lock (a PostgreSQL advisory lock; a file lock in the data dir on SQLite). The others
stand by and take over when it goes, and the 3-second limit between arXiv calls is kept by a
clock row in the store, across all of them.
"""

from papershelf.settings import load_settings

_settings = load_settings()
bind = _settings["BIND"]
workers = _settings["WORKERS"]
threads = _settings["THREADS"]


def post_worker_init(worker):
    from papershelf.app import tune_gc

    tune_gc()
    start = worker.wsgi.extensions.get("papershelf_start_background")
    if start:
        start()
