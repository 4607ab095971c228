"""On a topic page, a paper a group member saved and shared says so ("Saved by bob · Lab") and
their highlights are painted read-only in their own style, from the page's one lookup call."""

import subprocess
import sys

import pytest

from conftest import TOPIC_URL, expected_papers

pytestmark = pytest.mark.browser

PAPERS = expected_papers()


def _user_token(server, name):
    """A token for another user of the server's store (the CLI, as an admin makes one)."""
    done = subprocess.run(
        [sys.executable, "-m", "papershelf", "token", "create", "--user", name,
         "--data-dir", server.data_dir],
        capture_output=True, text=True, timeout=60, env=server.env)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_a_members_shared_paper_says_who_saved_it_and_paints_their_highlights(connected):
    from papershelf.testing import call

    context, _sw, server = connected
    bob = _user_token(server, "bob")
    status, lab = server.call("POST", "/api/groups", {"name": "Lab"})
    assert status == 201, lab
    assert server.call("POST", f"/api/groups/{lab['id']}/members", {"user": "bob"})[0] == 200
    target = PAPERS[1]
    quote = "unified infrastructure"
    start = target["abstract"].index(quote)
    status, theirs = call(server.base, "POST", "/api/papers", bob,
                          {"arxiv_id": target["arxiv_id"], "title": target["title"],
                           "groups": [lab["id"]]})
    assert status == 201, theirs
    status, _ = call(server.base, "POST", f"/api/papers/{theirs['id']}/highlights", bob,
                     {"exact": quote, "start": start, "end": start + len(quote),
                      "color": "blue", "comment": "bob's own words"})
    assert status == 201
    call(server.base, "POST", f"/api/papers/{theirs['id']}/notes", bob, {"body": "bob's note"})

    page = context.new_page()
    page.goto(TOPIC_URL)
    element = page.locator(f'[data-papershelf-paper="{target["arxiv_id"]}"]').first
    bar = element.locator("[data-papershelf-shared]")
    bar.wait_for()
    assert bar.get_attribute("data-papershelf-shared") == "Saved by bob · Lab · 1 note"
    assert "Saved by bob · Lab" in element.locator("[data-papershelf-status]").inner_text()
    # not saved by this user: the Save button still offers to save it
    save = element.locator('[data-papershelf-action="save"]')
    assert save.get_attribute("aria-pressed") == "false"
    mark = element.locator('mark[data-papershelf-shared-by="bob"]')
    mark.first.wait_for()
    assert mark.first.inner_text() == quote
    assert mark.first.get_attribute("data-papershelf-color") == "blue"
    assert mark.first.evaluate("m => getComputedStyle(m).backgroundColor") == "rgba(0, 0, 0, 0)"
    content = page.content()
    assert "bob's own words" not in content and "bob's note" not in content
    # the other papers say nothing of bob
    assert page.locator("[data-papershelf-shared]").count() == 1
