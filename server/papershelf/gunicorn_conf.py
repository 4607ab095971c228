"""gunicorn settings for a team server: `gunicorn -c python:papershelf.gunicorn_conf
'papershelf.app:create_app()'`.

Every worker serves requests; exactly one per host runs the arXiv enrichment worker, so the
3-second limit between arXiv calls holds for the whole server. The one that gets an exclusive
lock on ``<data dir>/enrichment.lock`` starts it; the lock goes with its process.
"""

import fcntl
from pathlib import Path

from papershelf.settings import load_settings

_settings = load_settings()
bind = _settings["BIND"]
workers = _settings["WORKERS"]
threads = _settings["THREADS"]

_lock_file = None


def post_worker_init(worker):
    global _lock_file
    from papershelf.app import tune_gc

    tune_gc()
    app = worker.wsgi
    path = Path(app.config["DATA_DIR"]) / "enrichment.lock"
    path.parent.mkdir(parents=True, exist_ok=True)
    handle = open(path, "w")  # noqa: SIM115 - held for the life of the process
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        return
    _lock_file = handle
    start = app.extensions.get("papershelf_start_background")
    if start:
        start()
