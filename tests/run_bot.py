"""`python bot.py …` in a child process, as a user types it: one helper for every test that
drives the command line or the piped console."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# What a fresh clone lacks (for copying the project as one): git's files, environments, caches and
# every database built here; the tracked data (unit files, kanji readings, shipped vectors) stays.
CLONE_SKIPS = (".git", "__pycache__", ".venv*", "*.db", "*.db-*", "*.userdic", ".rules-*", "numba", "heartbeat")


def run_bot(
    args: list[str], env: dict, stdin: str = "", cwd: Path = ROOT, app: Path = ROOT, timeout: float = 120
) -> subprocess.CompletedProcess:
    """`app` is the project copy whose bot.py runs (a test's altered copy), `cwd` where it runs."""
    return subprocess.run(
        [sys.executable, str(app / "bot.py"), *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=timeout,
    )
