"""Python and JavaScript answer alike beyond the shared vectors: the vectors' addresses and ids,
mutated (characters inserted, dropped, case changed, as pages mangle them), go through
domain.identities and extension/lib/identities.js and must come out the same."""

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from papershelf.domain.identifiers import normalize_doi
from papershelf.domain.identities import identities_of_url, normalize_identity

ROOT = Path(__file__).parents[2]
VECTORS = json.loads((ROOT / "tests" / "shared" / "identities.json").read_text("utf-8"))
PIECES = ["/", ".pdf", "%2F", "%", "%C3%A9", "%C3", "é", " ", "\u2028", "\u00a0", "?id=10.1000/x",
          "&doi=10.1234/ABC", "#x", "v2", ".full", "/full", "DOI:", "info:doi/", "\ufeff", "A",
          "\u0130", "\u212a", "1", "/10.1145/", "..", "+", "&arnumber=07", "?pid=1-s2.0-S0", ":"]
SCRIPT = """
import { readFileSync } from "node:fs";
import { identitiesOfUrl, normalizeIdentity, normalizeDoi } from "./extension/lib/identities.js";
const inputs = JSON.parse(readFileSync(0, "utf8"));
console.log(JSON.stringify(inputs.map((x) => [identitiesOfUrl(x), normalizeIdentity(x), normalizeDoi(x)])));
"""


def _mutations(n: int) -> list[str]:
    rng = random.Random(23)
    base = [c["input"] for part in ("urls", "ids", "dois") for c in VECTORS[part]["cases"]]
    out = []
    for _ in range(n):
        text = rng.choice(base)
        for _ in range(rng.randint(1, 3)):
            i = rng.randint(0, len(text))
            op = rng.random()
            if op < 0.6:
                text = text[:i] + rng.choice(PIECES) + text[i:]
            elif op < 0.8:
                text = text[:i] + text[i + 1:]
            else:
                text = text.upper() if rng.random() < 0.5 else text.lower()
        out.append(text)
    return out


def _doi(text):
    try:
        return normalize_doi(text)
    except ValueError:
        return None


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_python_and_javascript_answer_mangled_addresses_alike():
    inputs = _mutations(3000)
    js = json.loads(subprocess.run(
        ["node", "--input-type=module", "-e", SCRIPT], input=json.dumps(inputs), cwd=ROOT,
        capture_output=True, text=True, check=True, timeout=120).stdout)
    py = [[identities_of_url(x), normalize_identity(x), _doi(x)] for x in inputs]
    differ = [(x, p, j) for x, p, j in zip(inputs, py, js, strict=True) if p != j]
    assert not differ, differ[:5]
    assert sum(1 for p in py if p[0] and not p[0][0].startswith("url:")) > 500  # ids, not junk
