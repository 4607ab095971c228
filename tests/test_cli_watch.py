"""papershelf export -o FILE --watch: the file follows the library, as a LaTeX user runs it."""

import os
import signal
import subprocess
import sys
import time

import pytest

from papershelf.testing import ServerProcess, call


def _wait_for(predicate, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


def _as_a_terminal_starts_it():
    """Ctrl-C reaches the watcher as it does a command typed in a terminal: a process started in
    the background of a script (``cmd &`` without job control, as CI runners and nohup do)
    inherits SIGINT ignored, and Python then keeps ignoring it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.fixture
def watching(tmp_path):
    """(server, refs.bib, the watcher, its stderr as a function)."""
    data = tmp_path / "data"
    refs = tmp_path / "paper" / "refs.bib"
    refs.parent.mkdir()
    log = tmp_path / "watch.log"  # a file: readable while the watcher runs, never a full pipe
    with ServerProcess(data) as server, open(log, "w") as err:
        proc = subprocess.Popen(
            [sys.executable, "-m", "papershelf", "export", "-o", str(refs), "--watch", "--tag", "cite",
             "--data-dir", str(data)],
            env={**os.environ, "PAPERSHELF_ARXIV_API": "off"}, stderr=err, text=True,
            preexec_fn=_as_a_terminal_starts_it)
        try:
            assert _wait_for(refs.exists, 15), (
                f"the first export was not written; the watcher said: {log.read_text()!r}; "
                f"the server: {server.output[-2000:]!r}")
            yield server, refs, proc, log.read_text
        finally:
            if proc.poll() is None:
                proc.send_signal(signal.SIGINT)
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()  # never left running into the next test
                    proc.wait()
                    raise


def test_the_file_follows_the_library_within_2_s_and_stays_untouched_otherwise(watching):
    server, refs, _proc, _stderr = watching
    assert refs.read_text() == ""  # nothing tagged 'cite' yet
    status, paper = call(server.base, "POST", "/api/papers", server.token,
                         {"title": "Attention Is All You Need", "arxiv_id": "1706.03762",
                          "authors": ["Ashish Vaswani"], "published": "2017-06-12", "tags": ["cite"]})
    assert status == 201
    started = time.monotonic()
    assert _wait_for(lambda: "1706.03762" in refs.read_text(), 2.5)
    assert time.monotonic() - started <= 2.5
    mtime = refs.stat().st_mtime_ns
    # Changes outside the filter, and no change at all, leave the file alone.
    call(server.base, "POST", "/api/papers", server.token, {"title": "Not cited", "tags": ["other"]})
    time.sleep(2.5)
    assert refs.stat().st_mtime_ns == mtime
    # A note on the cited paper is in its annote field a moment later.
    call(server.base, "POST", f"/api/papers/{paper['id']}/notes", server.token, {"body": "Key idea"})
    assert _wait_for(lambda: "Key idea" in refs.read_text(), 2.5)
    leftovers = [p.name for p in refs.parent.iterdir() if p.name != "refs.bib"]
    assert leftovers == []  # temp files renamed or removed, never left behind


def test_ctrl_c_stops_cleanly(watching):
    _, refs, proc, stderr = watching
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=10) == 0
    stderr = stderr()
    assert "stopped watching" in stderr and "Traceback" not in stderr
    assert [p.name for p in refs.parent.iterdir()] == ["refs.bib"]


def test_a_kill_stops_it_as_cleanly_as_ctrl_c(watching):
    """SIGTERM (kill, a service manager stopping it) ends the watch as Ctrl-C does: the file
    stays whole, no temporary file is left, and the exit status says it stopped as asked."""
    server, refs, proc, stderr = watching
    call(server.base, "POST", "/api/papers", server.token,
         {"title": "Cited before the kill", "tags": ["cite"]})
    assert _wait_for(lambda: "Cited before the kill" in refs.read_text(), 2.5)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=10) == 0
    assert "stopped watching" in stderr() and "Traceback" not in stderr()
    assert [p.name for p in refs.parent.iterdir()] == ["refs.bib"]
    assert "Cited before the kill" in refs.read_text()


def test_watch_needs_an_output_file(tmp_path):
    done = subprocess.run([sys.executable, "-m", "papershelf", "export", "--watch",
                           "--data-dir", str(tmp_path / "d")], capture_output=True, text=True,
                          env={**os.environ, "PAPERSHELF_ARXIV_API": "off"})
    assert done.returncode == 2 and "--watch needs --output FILE" in done.stderr
