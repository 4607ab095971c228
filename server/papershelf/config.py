"""Settings: defaults, then the environment, then what a caller (a test) passes in."""

import os
from pathlib import Path

import platformdirs

DEFAULTS = {
    "DATA_DIR": None,  # resolved in load_config
    "DATABASE_URL": None,  # default: sqlite:///<data dir>/papershelf.db
    "ALLOWED_HOSTS": ["127.0.0.1", "localhost", "[::1]", "::1"],
    "CORS_ORIGINS": [r"^chrome-extension://[a-p]{32}$", r"^moz-extension://[0-9a-fA-F-]{36}$"],
    "ARXIV_API": "https://export.arxiv.org/api/query",  # "off" switches enrichment off
    "ARXIV_MIN_INTERVAL": 3.0,  # seconds between calls: arXiv's published limit
    "ARXIV_TIMEOUT": 30.0,
    "ARXIV_LEASE": None,  # how long a batch in flight is reserved (default: timeout + 30 s)
    "ARXIV_RETRY_BASE": 60.0,  # first backoff after arXiv failed; doubles each time
    "ARXIV_MAX_ATTEMPTS": 8,
    "ENRICH_IN_BACKGROUND": True,
    "ENRICH_SETTLE": 1.0,  # a burst of saves settles this long before a partial batch goes
    "ENRICH_MAX_GATHER": 10.0,
    "ENRICH_POLL": 60.0,
    "JSON_MAX_BYTES": 1 << 20,
    "IMPORT_MAX_BYTES": 50 << 20,
    "SECRET_KEY": None,  # default: random per data dir, kept in <data dir>/secret_key
    "AUTH_FAILURES_PER_MINUTE": 30,
    "PROXY_FIX": 0,  # proxies in front that set X-Forwarded-Proto/Host (a team server behind TLS)
}


def _split(value: str) -> list[str]:
    return [v.strip() for v in value.split(",") if v.strip()]


def default_data_dir() -> Path:
    return Path(platformdirs.user_data_dir("papershelf", appauthor=False))


def load_config(overrides: dict | None = None) -> dict:
    """Layered settings: DEFAULTS → PAPERSHELF_* environment → overrides."""
    cfg = dict(DEFAULTS)
    cfg["ALLOWED_HOSTS"] = list(DEFAULTS["ALLOWED_HOSTS"])
    env = os.environ
    if env.get("PAPERSHELF_DATA_DIR"):
        cfg["DATA_DIR"] = env["PAPERSHELF_DATA_DIR"]
    if env.get("PAPERSHELF_DATABASE_URL"):
        cfg["DATABASE_URL"] = env["PAPERSHELF_DATABASE_URL"]
    if env.get("PAPERSHELF_ALLOWED_HOSTS"):
        cfg["ALLOWED_HOSTS"] += _split(env["PAPERSHELF_ALLOWED_HOSTS"])
    if env.get("PAPERSHELF_CORS_ORIGINS"):
        cfg["CORS_ORIGINS"] = _split(env["PAPERSHELF_CORS_ORIGINS"])
    if env.get("PAPERSHELF_ARXIV_API"):
        cfg["ARXIV_API"] = env["PAPERSHELF_ARXIV_API"]
    if env.get("PAPERSHELF_PROXY_FIX"):
        cfg["PROXY_FIX"] = int(env["PAPERSHELF_PROXY_FIX"])
    for name, cast in (("ARXIV_MIN_INTERVAL", float), ("ARXIV_TIMEOUT", float)):
        if env.get(f"PAPERSHELF_{name}"):
            cfg[name] = cast(env[f"PAPERSHELF_{name}"])
    if env.get("PAPERSHELF_ENRICH_IN_BACKGROUND"):
        cfg["ENRICH_IN_BACKGROUND"] = env["PAPERSHELF_ENRICH_IN_BACKGROUND"] not in ("0", "false", "off")
    if env.get("PAPERSHELF_SECRET_KEY"):
        cfg["SECRET_KEY"] = env["PAPERSHELF_SECRET_KEY"]
    cfg.update(overrides or {})
    cfg["DATA_DIR"] = str(Path(cfg["DATA_DIR"] or default_data_dir()))
    if not cfg["DATABASE_URL"]:
        cfg["DATABASE_URL"] = "sqlite:///" + str(Path(cfg["DATA_DIR"]) / "papershelf.db")
    return cfg


def enrichment_enabled(cfg: dict) -> bool:
    api = (cfg.get("ARXIV_API") or "").strip().lower()
    return api not in ("", "off", "none", "0", "false")
