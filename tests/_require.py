"""Skip-or-fail for tests that need something outside Python.

On a laptop without Chromium, Firefox, Node or PostgreSQL those tests are skipped with a reason.
CI sets ``PAPERSHELF_REQUIRE`` (a comma list of ``browser``, ``firefox``, ``postgres``, ``node``,
``latex``, or ``all``) and then a missing piece fails the run instead of silently skipping it.
"""

import os

import pytest


def required(what: str) -> bool:
    wanted = {w.strip() for w in os.environ.get("PAPERSHELF_REQUIRE", "").split(",") if w.strip()}
    return what in wanted or "all" in wanted


def require_or_skip(what: str, reason: str):
    """Skip the test (laptop) or fail it (CI, ``PAPERSHELF_REQUIRE``) because ``what`` is missing."""
    if required(what):
        pytest.fail(f"{what} is required here (PAPERSHELF_REQUIRE) but missing: {reason}")
    pytest.skip(reason)
