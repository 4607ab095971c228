"""Imports go one way (house style): entry points (http, web, cli) → services → store and
domain; domain and formats depend on nothing of ours but domain; extension/lib on nothing
outside lib. A test, so that a shortcut through the layers fails here rather than in review."""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "server" / "papershelf"

# layer -> the layers of ours it may import ("papershelf" is the package's own __init__)
ALLOWED = {
    "domain": {"domain"},
    "formats": {"formats", "domain"},
    "store": {"store", "domain"},
    "services": {"services", "store", "domain", "formats", "settings", "arxiv_api", "catalogues"},
    "http": {"http", "services", "domain", "formats", "settings", "papershelf"},
    "web": {"web", "http", "services", "domain", "formats", "settings"},
    "cli": {"cli", "app", "services", "domain", "formats", "settings", "papershelf", "serving"},
    "serving": {"http"},
    "settings": set(),
    "arxiv_api": {"domain", "papershelf", "remote"},
    "catalogues": {"domain", "papershelf", "remote"},
    "remote": set(),  # one HTTP call to a service: what arxiv_api and catalogues share
}


def _module(path: Path) -> list[str]:
    parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
    return parts[:-1] if parts[-1] == "__init__" else parts


def _imports(path: Path):
    """The papershelf modules ``path`` imports, as lists of name parts after 'papershelf'."""
    here = _module(path)
    package = here if path.name == "__init__.py" else here[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - (node.level - 1)]
                target = base + (node.module.split(".") if node.module else [])
            elif node.module and node.module.split(".")[0] == "papershelf":
                target = node.module.split(".")[1:]
            else:
                continue
            for alias in node.names:
                if target:
                    yield target
                elif (PACKAGE / alias.name).is_dir() or (PACKAGE / f"{alias.name}.py").exists():
                    yield [alias.name]  # from papershelf import <module>
                else:
                    yield []  # from papershelf import __version__
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "papershelf":
                    yield alias.name.split(".")[1:]


def _layer(parts: list[str]) -> str:
    return parts[0] if parts else "papershelf"


MODULES = sorted(p for p in PACKAGE.rglob("*.py") if _layer(_module(p)) in ALLOWED)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_go_one_way(path):
    layer = _layer(_module(path))
    wrong = sorted({".".join(t) for t in _imports(path) if _layer(t) not in ALLOWED[layer] | {layer}})
    assert not wrong, f"{layer} must not import {wrong}"


def test_the_scan_sees_every_layer():
    assert {_layer(_module(p)) for p in MODULES} == set(ALLOWED)


@pytest.mark.parametrize("path", sorted((ROOT / "extension" / "lib").glob("*.js")),
                         ids=lambda p: p.name)
def test_extension_lib_depends_on_nothing_outside_lib(path):
    text = path.read_text(encoding="utf-8")
    imported = re.findall(r"""\bfrom\s+["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']""", text)
    outside = [a or b for a, b in imported if not (a or b).startswith("./")]
    assert not outside, outside
    assert "chrome." not in re.sub(r"//.*|/\*.*?\*/", "", text, flags=re.S) or path.name == "api.js"
