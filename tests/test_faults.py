"""The server killed with SIGKILL in the middle of saves loses nothing it acknowledged."""

import pytest

from papershelf.testing import kill_during_saves


@pytest.mark.parametrize("store", ["sqlite", "postgresql"])
def test_sigkill_mid_saves_loses_no_acknowledged_save(tmp_path, store, request):
    env = None
    if store == "postgresql":
        env = {"PAPERSHELF_DATABASE_URL": request.getfixturevalue("empty_pg")}
    result = kill_during_saves(tmp_path / "data", total=400, kill_after=150, env=env)
    assert result["acknowledged"] >= 150
    assert result["lost"] == []
    assert result["duplicates"] == 0
    assert result["stored"] >= result["acknowledged"]
    if store == "sqlite":
        assert result["integrity"] == "ok"
