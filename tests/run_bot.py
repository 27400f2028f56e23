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


def card_parts(payload: dict, embed: int = 0) -> dict[str, str]:
    """A printed card payload's displays by what they show ("title", "description" with the
    sections after it, "footer"), read by their ids (payloads.card), as a person reads the card."""
    from tabletop.core.payloads import FOOTER, SECTION, TEXT, TITLE, role

    names = {TITLE: "title", TEXT: "description", FOOTER: "footer"}
    out: dict[str, str] = {}
    stack = list(payload["components"])
    while stack:
        c = stack.pop(0)
        stack += c.get("components") or []
        if c["type"] == 10 and "id" in c:
            index, shows = role(c["id"])
            if index == embed and shows in names:
                out[names[shows]] = c["content"].removeprefix("### ").removeprefix("-# ")
            elif index == embed and shows >= SECTION:  # a section continues the text
                out["description"] = "\n".join(x for x in (out.get("description"), c["content"]) if x)
    return out


def card_buttons(payload: dict) -> list[str]:
    """The custom_ids of a printed card's buttons and menus, in order."""
    found: list[str] = []
    stack = list(payload["components"])
    while stack:
        c = stack.pop(0)
        stack = (c.get("components") or []) + stack
        if c["type"] in (2, 3) and "custom_id" in c:
            found.append(c["custom_id"])
    return found
