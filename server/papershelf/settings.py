"""Every setting of papershelf in one table: name, default, environment variable, type, help.

Settings are layered as in Flask's tutorial: the table's defaults, then ``PAPERSHELF_*``
environment variables, then what a caller passes in (a test). The configuration table of
docs/configuration.md is checked against this one by a test, so a setting cannot go undocumented.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import platformdirs

MIB = 1 << 20
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]", "::1")
EXTENSION_ORIGINS = (r"^chrome-extension://[a-p]{32}$", r"^moz-extension://[0-9a-fA-F-]{36}$")
OFF_WORDS = ("", "off", "none", "0", "false", "no")


@dataclass(frozen=True)
class Setting:
    name: str
    default: object
    kind: str  # str | int | float | bool | list | extend (a list the environment adds to)
    help: str
    shown_default: str = ""  # the documented table's default column where the value itself says little

    @property
    def env(self) -> str:
        return f"PAPERSHELF_{self.name}"

    def parse(self, raw: str):
        """The value of the environment variable's text ``raw``."""
        if self.kind == "int":
            return int(raw)
        if self.kind == "float":
            return float(raw)
        if self.kind == "bool":
            return raw.strip().lower() not in OFF_WORDS
        if self.kind in ("list", "extend"):
            return [v.strip() for v in raw.split(",") if v.strip()]
        return raw


SETTINGS = (
    Setting("DATA_DIR", None, "str",
            "where the SQLite store, the token and the session key live",
            "the platform's user data dir (`~/.local/share/papershelf` on Linux)"),
    Setting("DATABASE_URL", None, "str",
            "the store; `postgresql://user:pass@host:5432/db` works the same (with `.[team]` "
            "installed)", "`sqlite:///<data dir>/papershelf.db`"),
    Setting("ALLOWED_HOSTS", list(LOOPBACK_HOSTS), "extend",
            "more `Host` names to accept besides `127.0.0.1`, `localhost`, `[::1]` "
            "(DNS-rebinding guard)", "—"),
    Setting("CORS_ORIGINS", list(EXTENSION_ORIGINS), "list",
            "origins allowed to call `/api/*` from a browser (regexes start with `^`; `*` is "
            "never honoured)", "`chrome-extension://…`, `moz-extension://…`"),
    Setting("PROXY_FIX", 0, "int",
            "number of trusted proxies in front that set `X-Forwarded-*` (a team server behind "
            "TLS)"),
    Setting("SECRET_KEY", None, "str",
            "signs the library page's session cookie", "random, kept in `<data dir>/secret_key`"),
    Setting("ARXIV_API", "https://export.arxiv.org/api/query", "str",
            "where metadata is completed from; `off` makes papershelf call no network at all "
            "(the catalogues below included)"),
    Setting("ARXIV_MIN_INTERVAL", 3.0, "float", "seconds between two arXiv API calls"),
    Setting("ARXIV_TIMEOUT", 30.0, "float", "seconds an arXiv API call may take"),
    Setting("ARXIV_LEASE", None, "float",
            "seconds a batch in flight stays reserved to its worker", "timeout + 30"),
    Setting("ARXIV_RETRY_BASE", 60.0, "float",
            "seconds before the first retry when arXiv failed; doubles each time"),
    Setting("ARXIV_MAX_ATTEMPTS", 8, "int", "calls for one paper before it is marked failed"),
    Setting("ENRICH_IN_BACKGROUND", True, "bool",
            "`0`: no background worker (run `papershelf enrich` from cron instead; an export "
            "then writes the BibTeX entries of papers saved from pages when it first needs them)"),
    Setting("ENRICH_SETTLE", 1.0, "float",
            "seconds without a new save before a partial batch goes to arXiv"),
    Setting("ENRICH_MAX_GATHER", 10.0, "float", "seconds a partial batch waits at most"),
    Setting("ENRICH_POLL", 60.0, "float",
            "seconds between two looks at the queue (imports, other processes) and for papers "
            "whose BibTeX entries are not written ahead yet"),
    Setting("S2_API", "https://api.semanticscholar.org", "str",
            "Semantic Scholar's Graph API, asked for a preprint's published version by arXiv id "
            "(`off`: not asked)"),
    Setting("S2_API_KEY", None, "str",
            "a Semantic Scholar API key, sent as `x-api-key` (optional)", "—"),
    Setting("S2_MIN_INTERVAL", 1.0, "float",
            "seconds between two Semantic Scholar calls (1 request a second without a key)"),
    Setting("DBLP_API", "https://dblp.org", "str",
            "DBLP, searched by title and first author for a published version (`off`: not "
            "asked)"),
    Setting("DBLP_MIN_INTERVAL", 2.0, "float",
            "seconds between two DBLP calls (DBLP's FAQ: two seconds apart is always fine; its "
            "429's Retry-After is kept)"),
    Setting("CROSSREF_API", "https://api.crossref.org", "str",
            "Crossref, asked for a journal DOI's record and searched last (`off`: not asked)"),
    Setting("CROSSREF_MIN_INTERVAL", 0.2, "float", "seconds between two Crossref calls"),
    Setting("CONTACT_EMAIL", None, "str",
            "an address sent in the User-Agent to the catalogues (Crossref's polite pool)", "—"),
    Setting("CATALOGUE_TIMEOUT", 20.0, "float", "seconds a catalogue call may take"),
    Setting("RESOLVE_RETRY_BASE", 300.0, "float",
            "seconds before a published-version check that met a failing catalogue is tried "
            "again; doubles each time"),
    Setting("RESOLVE_MAX_ATTEMPTS", 6, "int",
            "checks of one paper with a failing catalogue before it is marked failed"),
    Setting("JSON_MAX_BYTES", MIB, "int", "largest JSON request body", "1 MiB"),
    Setting("IMPORT_MAX_BYTES", 50 * MIB, "int", "largest import file", "50 MiB"),
    Setting("AUTH_FAILURES_PER_MINUTE", 30, "int",
            "wrong tokens from one address (this minute and the last) before its wrong tokens "
            "are answered 429; a valid token is never refused"),
    Setting("LIBRARY_UNDO_SECONDS", 8, "int",
            "seconds the library page offers Undo after a delete"),
    Setting("BIND", "127.0.0.1:8000", "str", "gunicorn (`papershelf.gunicorn_conf`): address"),
    Setting("WORKERS", 4, "int", "gunicorn: worker processes"),
    Setting("THREADS", 4, "int", "gunicorn: threads per worker"),
)

BY_NAME = {s.name: s for s in SETTINGS}


def default(name: str):
    """The table's default of the setting ``name`` (a fresh copy of a list)."""
    value = BY_NAME[name].default
    return list(value) if isinstance(value, list) else value


def default_data_dir() -> Path:
    return Path(platformdirs.user_data_dir("papershelf", appauthor=False))


def load_settings(overrides: dict | None = None, environ=None) -> dict:
    """Layered settings: the table's defaults → ``PAPERSHELF_*`` environment → ``overrides``."""
    env = os.environ if environ is None else environ
    cfg = {}
    for setting in SETTINGS:
        value = default(setting.name)
        raw = env.get(setting.env)
        if raw:
            parsed = setting.parse(raw)
            value = value + parsed if setting.kind == "extend" else parsed
        cfg[setting.name] = value
    cfg.update(overrides or {})
    cfg["DATA_DIR"] = str(Path(cfg["DATA_DIR"] or default_data_dir()))
    if not cfg["DATABASE_URL"]:
        cfg["DATABASE_URL"] = "sqlite:///" + str(Path(cfg["DATA_DIR"]) / "papershelf.db")
    return cfg


def enrichment_enabled(cfg: dict) -> bool:
    return (cfg.get("ARXIV_API") or "").strip().lower() not in OFF_WORDS


CATALOGUES = ("S2_API", "DBLP_API", "CROSSREF_API")


def catalogue_enabled(cfg: dict, name: str) -> bool:
    """Whether the catalogue setting ``name`` (``DBLP_API``, …) is on; all are off with arXiv."""
    value = cfg.get(name, default(name))
    return enrichment_enabled(cfg) and (value or "").strip().lower() not in OFF_WORDS


def resolving_enabled(cfg: dict) -> bool:
    """Whether any catalogue is on: papers are checked for a published version."""
    return any(catalogue_enabled(cfg, name) for name in CATALOGUES)


def _shown(setting: Setting) -> str:
    if setting.shown_default:
        return setting.shown_default
    value = setting.default
    if isinstance(value, bool):
        return f"`{int(value)}`"
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return f"`{value}`"


def readme_table() -> str:
    """docs/configuration.md's table (``python -m papershelf.settings`` prints it)."""
    rows = ["| variable | default | meaning |", "|---|---|---|"]
    rows += [f"| `{s.env}` | {_shown(s)} | {s.help} |" for s in SETTINGS]
    return "\n".join(rows) + "\n"


if __name__ == "__main__":
    print(readme_table(), end="")
