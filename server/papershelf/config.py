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
    "ARXIV_MIN_INTERVAL": 3.0,
    "ENRICH_IN_BACKGROUND": True,
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
