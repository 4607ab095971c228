"""The settings table: layering, parsing, and the documented table (docs/configuration.md) kept
equal to it."""

import re
from pathlib import Path

import pytest

from papershelf import settings
from papershelf.settings import BY_NAME, SETTINGS, load_settings, readme_table

ROOT = Path(__file__).resolve().parents[1]


def test_the_documented_configuration_table_is_the_settings_table():
    documented = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    assert readme_table() in documented


def test_every_setting_the_code_reads_is_in_the_table():
    read = set()
    for path in (ROOT / "server" / "papershelf").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        read |= set(re.findall(r"""(?:config|cfg)(?:\.get\(|\[)["']([A-Z][A-Z_]+)["']""", text))
    flask_own = {"SECRET_KEY", "MAX_CONTENT_LENGTH", "TESTING"}
    assert read - flask_own <= set(BY_NAME), sorted(read - flask_own - set(BY_NAME))
    assert len(read) >= 15  # the scan found the code's reads


def test_defaults_then_environment_then_overrides(tmp_path):
    env = {"PAPERSHELF_ARXIV_MIN_INTERVAL": "7.5", "PAPERSHELF_PROXY_FIX": "2",
           "PAPERSHELF_ENRICH_IN_BACKGROUND": "off", "PAPERSHELF_ALLOWED_HOSTS": "a.example, b.example",
           "PAPERSHELF_CORS_ORIGINS": "^moz-extension://x$", "PAPERSHELF_DATA_DIR": str(tmp_path)}
    cfg = load_settings({"PROXY_FIX": 3}, environ=env)
    assert cfg["ARXIV_MIN_INTERVAL"] == 7.5
    assert cfg["PROXY_FIX"] == 3  # the caller's override wins
    assert cfg["ENRICH_IN_BACKGROUND"] is False
    assert cfg["ALLOWED_HOSTS"] == [*settings.LOOPBACK_HOSTS, "a.example", "b.example"]
    assert cfg["CORS_ORIGINS"] == ["^moz-extension://x$"]
    assert cfg["DATABASE_URL"] == f"sqlite:///{tmp_path / 'papershelf.db'}"
    plain = load_settings(environ={"PAPERSHELF_DATA_DIR": str(tmp_path)})
    assert {name: plain[name] for name in ("ARXIV_MIN_INTERVAL", "PROXY_FIX", "AUTH_FAILURES_PER_MINUTE")} \
        == {"ARXIV_MIN_INTERVAL": 3.0, "PROXY_FIX": 0, "AUTH_FAILURES_PER_MINUTE": 30}
    assert plain["ALLOWED_HOSTS"] is not BY_NAME["ALLOWED_HOSTS"].default  # never the table's list


@pytest.mark.parametrize(("raw", "expected"), [("1", True), ("0", False), ("false", False),
                                               ("off", False), ("yes", True)])
def test_boolean_settings(raw, expected, tmp_path):
    cfg = load_settings(environ={"PAPERSHELF_ENRICH_IN_BACKGROUND": raw,
                                 "PAPERSHELF_DATA_DIR": str(tmp_path)})
    assert cfg["ENRICH_IN_BACKGROUND"] is expected


def test_every_setting_has_help_and_a_kind():
    for setting in SETTINGS:
        assert setting.help and setting.kind in {"str", "int", "float", "bool", "list", "extend"}
        assert setting.env == f"PAPERSHELF_{setting.name}"
