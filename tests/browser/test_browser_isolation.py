"""Each browser test starts clean, where the run shares a browser between tests (one Firefox
per worker process, the extension installed afresh for each test; one Playwright driver per
module) and a PostgreSQL database per worker: two tests run one after the other in one process
(a test file runs whole on one worker, in its order), and what the first left in the
server and in the extension's storage, the second does not find."""

import pytest

from papershelf.testing import call

BROWSERS = ["chromium", "firefox"]
STORES = ["postgresql"]
pytestmark = [pytest.mark.browser, pytest.mark.parametrize("ext", BROWSERS, indirect=True),
              pytest.mark.parametrize("server", STORES, indirect=True)]

GET = "() => chrome.storage.local.get(null)"

# What the first test left, per browser, in this process.
_left = {}


def test_the_first_test_leaves_a_paper_and_extension_storage(ext_connected):
    ext, server = ext_connected
    status, paper = server.call("POST", "/api/papers", {"title": "Left behind"})
    assert status == 201, paper
    ext.background("() => chrome.storage.local.set({leftBehind: 'by the first test'})")
    assert ext.background(GET)["leftBehind"] == "by the first test"
    _left[ext.name] = {"token": server.token}


def test_the_next_test_finds_none_of_it(ext, server):
    if ext.name not in _left:
        pytest.skip("the first test did not run before this one in this process")
    left = _left.pop(ext.name)
    assert "leftBehind" not in ext.background(GET)
    assert server.papers() == []
    # the first test's token opens nothing on this test's server (the same database, emptied)
    status, answer = call(server.base, "GET", "/api/papers", left["token"])
    assert status == 401, answer
