"""The extension's JavaScript checks, run from pytest so that one `pytest` runs everything:
node's test runner on the pure modules, eslint, and web-ext lint (errors fail, warnings do not).
Needs node and the repo's node_modules (`npm ci`); without them: skip, or fail under
PAPERSHELF_REQUIRE=node."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from tests._require import require_or_skip

ROOT = Path(__file__).resolve().parents[2]


def _node_tools():
    node = shutil.which("node")
    npx = shutil.which("npx")
    if not node or not npx:
        require_or_skip("node", "node/npx not installed")
    if not (ROOT / "node_modules" / ".bin" / "eslint").exists():
        require_or_skip("node", "node_modules missing: run `npm ci` at the repo top")
    return node, npx


def run(cmd, timeout=300):
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout)


def test_node_unit_tests_pass():
    node, _ = _node_tools()
    r = run([node, "--test", "tests/extension/"])
    assert r.returncode == 0, r.stdout[-6000:] + r.stderr[-3000:]


def test_eslint_is_clean():
    _, npx = _node_tools()
    r = run([npx, "--no-install", "eslint", "extension", "tests/extension", "scripts",
             "server/papershelf/web/static", "eslint.config.js"])
    assert r.returncode == 0, r.stdout[-6000:] + r.stderr[-3000:]


def test_web_ext_lint_has_no_errors():
    _, npx = _node_tools()
    r = run([npx, "--no-install", "web-ext", "lint", "--source-dir", "extension", "--output", "json"])
    report = json.loads(r.stdout[r.stdout.index("{"):])
    assert report["summary"]["errors"] == 0, report["errors"]


@pytest.mark.parametrize("name", ["manifest.json"])
def test_manifest_declares_the_contract(name):
    m = json.loads((ROOT / "extension" / name).read_text())
    assert m["manifest_version"] == 3
    # Loopback (the server), and arXiv: the PDF reader fetches its PDFs and opens them in place of
    # the browser's viewer (declarativeNetRequest); other sites are asked for by the reader.
    assert set(m["host_permissions"]) == {"http://127.0.0.1/*", "http://localhost/*",
                                          "https://arxiv.org/*", "https://export.arxiv.org/*"}
    assert "declarativeNetRequestWithHostAccess" in m["permissions"]
    matches = set(m["content_scripts"][0]["matches"])
    assert {"https://www.alphaxiv.org/*", "https://alphaxiv.org/*", "https://arxiv.org/abs/*",
            "https://arxiv.org/list/*", "https://arxiv.org/html/*"} <= matches
    # Beyond those, only the named listing sites' listing pages (lib/adapters/listings/).
    listing_hosts = {"scholar.google.com", "scholar.google.co.uk", "scholar.google.de",
                     "scholar.google.fr", "scholar.google.co.jp", "scholar.google.ca",
                     "www.semanticscholar.org", "openreview.net", "dblp.org", "dblp.uni-trier.de",
                     "aclanthology.org", "proceedings.mlr.press", "papers.nips.cc",
                     "proceedings.neurips.cc", "openaccess.thecvf.com", "huggingface.co",
                     "arxiv.org", "pubmed.ncbi.nlm.nih.gov", "www.alphaxiv.org", "alphaxiv.org"}
    assert all(p.startswith("https://") and p.split("/")[2] in listing_hosts for p in matches)
    key = m["commands"]["save-focused-paper"]["suggested_key"]["default"]
    assert "+" in key and key.split("+")[0] in {"Alt", "Ctrl", "Command", "MacCtrl"}
