"""Every path a user or an admin gives, of every wrong kind, gets a sentence in the run's
language naming it and a failing exit, and nothing is created, renamed or written outside what
was named (issue: the rules database renamed over /dev/null). The state store is the exception
to failing: without it the console still answers rules and dice (it says why, and goes on), and
`health` reports it unhealthy (1)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from run_bot import run_bot

# What each path is given to: how the command is run with it (PATH stands for it).
TARGETS = {
    "RULES_DB": ({"RULES_DB": "PATH"}, ["rule", "79.1"]),
    "RULES_DB build": ({"RULES_DB": "PATH"}, ["build"]),
    "RULES_DIR": ({"RULES_DIR": "PATH"}, ["rule", "79.1"]),
    "STATE_DB": ({"STATE_DB": "PATH"}, ["health"]),
    "--state": ({}, ["console", "--state", "PATH"]),
    "--chart": ({}, ["odds", "space", "--attacker", "1 cruiser", "--defender", "1 destroyer", "--chart", "PATH"]),
    "site": ({}, ["site", "PATH"]),
    "pack import": ({}, ["pack", "import", "PATH", "--id", "mine"]),
}
KINDS = ("device", "fifo", "folder", "another program's database", "under a file")
# (a folder is a fine place for the rules or a site: those two take folders, the rest files)
EXPECTED_FOLDERS = {("RULES_DIR", "folder"), ("site", "folder")}


def _made(tmp_path: Path, kind: str, rules_db: Path) -> str:
    if kind == "device":
        return "/dev/null"
    if kind == "fifo":
        os.mkfifo(tmp_path / "fifo")
        return str(tmp_path / "fifo")
    if kind == "folder":
        (tmp_path / "folder").mkdir()
        return str(tmp_path / "folder")
    if kind == "another program's database":
        shutil.copy(rules_db, tmp_path / "other.db")  # the rules database is another program's to the store
        state = tmp_path / "state.db"
        run_bot(["console", "--state", str(state)], {**os.environ}, stdin="/settings chat:off\n")
        return str(state if "RULES" in os.environ.get("_TARGET", "") else tmp_path / "other.db")
    (tmp_path / "plain").write_text("x", encoding="utf-8")
    return str(tmp_path / "plain" / "inner.db")


def _snapshot(tmp_path: Path) -> dict[str, tuple]:
    out = {}
    for p in sorted(tmp_path.rglob("*")):
        st = p.lstat()
        out[str(p)] = (st.st_mode, st.st_size, st.st_mtime_ns)
    return out


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("target", TARGETS)
def test_a_wrong_kind_of_path_is_one_sentence_and_changes_nothing(cli_env, rules_db, tmp_path, target, kind):
    if (target, kind) in EXPECTED_FOLDERS:
        return  # a folder is what it takes (the same command runs with a folder in other tests)
    env_extra, args = TARGETS[target]
    cli_env["RULES_DB"] = str(rules_db)
    os.environ["_TARGET"] = target
    try:
        path = _made(tmp_path, kind, rules_db)
    finally:
        del os.environ["_TARGET"]
    before = _snapshot(tmp_path)
    dev = os.stat("/dev/null")
    env = {**cli_env, **{k: v.replace("PATH", path) for k, v in env_extra.items()}}
    done = run_bot([a.replace("PATH", path) for a in args], env, stdin="/agenda start name:X\n", timeout=90)
    said = (done.stdout + done.stderr).strip()
    assert "Traceback" not in said and "Errno" not in said, said
    expected = {"--state": {0}, "STATE_DB": {1}}.get(target, {1, 2})  # 2: a variable refused at start
    assert done.returncode in expected, (done.returncode, said)
    assert path in said, said  # it names what was given
    assert _snapshot(tmp_path) == before  # nothing made, renamed or written beside it
    assert os.stat("/dev/null").st_rdev == dev.st_rdev and not os.path.exists("/dev/null.userdic")
