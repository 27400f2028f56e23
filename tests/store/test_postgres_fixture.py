"""The tests' throwaway PostgreSQL servers never outlive their run: a run ended by SIGTERM stops
its own, and a run killed outright has its server stopped by the next one (postgres_server.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import postgres_server
import pytest

pytestmark = pytest.mark.slow  # each test starts PostgreSQL servers of its own

TESTS = Path(__file__).resolve().parents[1]
START = f"""
import sys, time
sys.path.insert(0, {str(TESTS)!r})
from postgres_server import Server, stop_with_the_run
server = Server().start()
stop_with_the_run(server)
print(server.folder, open(server.data / "postmaster.pid").read().split()[0], flush=True)
time.sleep(600)
"""


def _started() -> tuple[subprocess.Popen, Path, int]:
    run = subprocess.Popen([sys.executable, "-c", START], stdout=subprocess.PIPE, text=True)
    assert run.stdout is not None
    folder, pid = run.stdout.readline().split()
    return run, Path(folder), int(pid)


def _gone(pid: int, within: float = 10.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.1)
    return False


def test_a_run_ended_by_sigterm_stops_its_server():
    run, folder, postmaster = _started()
    run.send_signal(signal.SIGTERM)
    run.wait(30)
    assert _gone(postmaster) and not folder.exists()


def test_the_next_run_stops_the_server_of_a_run_killed_outright():
    run, folder, postmaster = _started()
    run.kill()
    run.wait(30)
    assert folder.exists()  # SIGKILL leaves it behind...
    assert folder in postgres_server.sweep()  # ...until the next server is made
    assert _gone(postmaster) and not folder.exists()


def test_a_live_runs_server_is_left_alone(pg_server):
    assert pg_server.folder not in postgres_server.sweep() and pg_server.folder.exists()
