"""Running as a service: every fault answered with a clear message (never a traceback), rules
readable by any user, stale rules served with a warning, logs in one format without secrets,
and a graceful stop on SIGTERM, tested against a real process."""

from __future__ import annotations

import contextlib
import io
import logging
import os
import shutil
import signal
import sqlite3
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from other_user import state_as_another_user
from run_bot import CLONE_SKIPS, run_bot
from said import said

from tabletop.core.commands import Context, dispatch
from tabletop.core.errors import UserError
from tabletop.core.i18n import t
from tabletop.store import StateUnavailable, open_state

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"  # token-shaped, not real


# --- the state database --------------------------------------------------------------------------


@pytest.mark.parametrize("where", ["directory", "missing-unwritable-parent"])
def test_a_state_database_that_cannot_be_opened_gets_one_clear_message(tmp_path, cli_env, where):
    if where == "directory":
        path = tmp_path / "state-dir"
        path.mkdir()
    else:
        blocked = tmp_path / "blocked"
        blocked.write_text("a file, so nothing can be created below it", encoding="utf-8")
        path = blocked / "sub" / "state.db"
    with pytest.raises(StateUnavailable) as exc:
        open_state(path)
    assert str(path) in exc.value.message and "STATE_DB" in exc.value.message
    # the bot exits non-zero with the message; the console answers with it
    env = {**cli_env, "STATE_DB": str(path), "DISCORD_TOKEN": TOKEN}
    bot = run_bot(["run"], env)
    assert bot.returncode != 0 and str(path) in bot.stderr and "Traceback" not in bot.stderr
    console = run_bot(["console"], env, stdin="/rule 79.1\n/agenda start name:x\n")
    assert console.returncode == 0 and "Traceback" not in console.stdout + console.stderr
    assert "79.1" in console.stdout and str(path) in console.stdout  # reads answer, writes get the message


def test_a_read_only_state_database_reads_but_refuses_ballots(compendium):
    folder = Path(tempfile.mkdtemp(prefix="ro-state-", dir="/tmp"))  # a place any user can reach
    path = folder / "state.db"
    writable = open_state(path)
    writable.set_setting("g", "game", "ti4")
    writable.close()
    os.chmod(path, 0o444)
    os.chmod(folder, 0o555)
    try:
        state = state_as_another_user(path)
        assert state.read_only and state.get_setting("g", "game") == "ti4"
        ctx = Context(compendium, state, guild_id="g", channel_id="c")
        assert dispatch(ctx, "rule", {"query": "79.1"})  # reading works
        with pytest.raises(UserError) as exc:
            dispatch(ctx, "agenda start", {"name": "x"})
        assert said("state.read_only", exc.value.message)
        battle = dispatch(ctx, "combat ground", {"attacker": "2 infantry", "defender": "1 infantry"})
        assert battle.pages and not any(b.custom_id.startswith("combat:again") for row in battle.rows for b in row)
    finally:
        os.chmod(folder, 0o755)
        shutil.rmtree(folder)


# --- the rules database --------------------------------------------------------------------------


def test_the_rules_database_is_readable_by_any_user(rules_db):
    assert stat.S_IMODE(rules_db.stat().st_mode) & 0o044 == 0o044


def test_packs_that_cannot_be_rebuilt_are_served_from_the_database_that_is_there(tmp_path, monkeypatch):
    from tabletop.rules import ruledb

    db = tmp_path / "rules.db"
    ruledb.build(db_path=db)
    monkeypatch.setattr(ruledb, "content_hash", lambda *a, **k: "changed")

    def read_only_filesystem(*a, **k):
        raise OSError(30, "Read-only file system")

    monkeypatch.setattr(ruledb, "build", read_only_filesystem)
    status = ruledb.ensure_served(db_path=db)
    assert status.path == db and status.kind == "unwritable" and t("os.read_only") in status.problems[0]


def test_a_broken_pack_keeps_dice_and_combat_working(tmp_path, cli_env):
    repo = tmp_path / "repo"
    shutil.copytree(ROOT, repo, ignore=shutil.ignore_patterns(*CLONE_SKIPS, "tests", "bench"))
    broken = repo / "rules" / "ti4" / "79.yaml"
    broken.write_text(broken.read_text(encoding="utf-8").replace("title: 폭격", "title: ''"), encoding="utf-8")
    env = {**cli_env, "RULES_DB": str(repo / "data" / "rules.db")}
    script = "/roll dice:3d10\n/combat ground attacker:2 infantry defender:1 infantry seed:1\n/rule 79\n"
    out = run_bot(["console"], env, stdin=script, cwd=repo, app=repo)
    assert out.returncode == 0 and "Traceback" not in out.stdout + out.stderr
    assert "주사위 3d10" in out.stdout and "지상 전투" in out.stdout
    assert said("rules.unavailable", out.stdout)  # rules commands say why, politely
    assert "'title' is missing" in out.stderr  # and the admin sees the problem
    assert not said("rules.building", out.stderr)  # no "building the database" just before it fails
    build = run_bot(["build"], env, cwd=repo, app=repo)
    assert build.returncode == 1 and "79.yaml" in build.stderr


def test_eval_on_a_malformed_query_file_names_the_file_and_line(tmp_path, cli_env):
    bad = tmp_path / "queries.yaml"
    bad.write_text('- {q: "폭격", expect: [79]}\n- {q: "x", expect: [\n', encoding="utf-8")
    out = run_bot(["eval", str(bad)], cli_env)
    assert out.returncode == 1 and f"{bad}, line 3" in out.stderr and "Traceback" not in out.stderr


# --- logging ---------------------------------------------------------------------------------------


def test_logs_have_one_format_and_never_show_the_token(monkeypatch):
    from tabletop.core import logs

    stream = io.StringIO()
    monkeypatch.setenv("LOG_LEVEL", "DEBUG")
    logs.setup(stream=stream)
    logs.add_secret("plain-secret-value")
    token = logs.guild_var.set("123")
    try:
        log = logging.getLogger("tabletop.test")
        log.debug("connecting with %s", TOKEN)
        log.info("config %s", "plain-secret-value")
        try:
            raise RuntimeError(f"bad token {TOKEN}")
        except RuntimeError:
            log.error("failed", exc_info=True, extra={"error_id": "abcd1234"})
    finally:
        logs.guild_var.reset(token)
    text = stream.getvalue()
    assert TOKEN not in text and "plain-secret-value" not in text and text.count("[token]") >= 3
    first = text.splitlines()[0]
    assert " DEBUG tabletop.test guild=123 command=- error=-: connecting with [token]" in first
    assert "error=abcd1234: failed" in text
    monkeypatch.setenv("LOG_LEVEL", "WARNING")
    logs.setup(stream=stream)
    logging.getLogger("tabletop.test").info("hidden")
    assert "hidden" not in stream.getvalue()
    logs.setup()


# --- a graceful stop, with a real process ------------------------------------------------------------

FAKE_GATEWAY = """
import asyncio, sys
import discord
sys.path.insert(0, sys.argv[1])

async def login(self, token):
    self.http.token = token
    await self.setup_hook()

async def connect(self, *, reconnect=True):
    print("gateway connected", flush=True)
    await asyncio.Event().wait()  # a connected gateway: runs until the bot closes

discord.Client.login = login
discord.AutoShardedClient.connect = connect  # the bot is auto-sharded
import bot
sys.exit(bot.main(["run"]))
"""


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_the_bot_stops_gracefully_on_a_signal(tmp_path, cli_env, sig):
    env = {**cli_env, "DISCORD_TOKEN": TOKEN, "STATE_DB": str(tmp_path / "state.db"), "LOG_LEVEL": "INFO"}
    proc = subprocess.Popen(
        [sys.executable, "-c", FAKE_GATEWAY, str(ROOT)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        line = proc.stdout.readline()
        assert "gateway connected" in line, proc.stderr.read()
        started = time.monotonic()
        proc.send_signal(sig)
        code = proc.wait(timeout=20)
        took = time.monotonic() - started
    finally:
        if proc.poll() is None:
            proc.kill()
    err = proc.stderr.read()
    assert code == 0, err
    assert "stop requested" in err and "gateway and databases closed" in err
    assert TOKEN not in err and "Traceback" not in err
    assert took < 15
    # the state database was closed cleanly: it opens and its journal is consistent
    conn = sqlite3.connect(tmp_path / "state.db")
    assert conn.execute("pragma integrity_check").fetchone()[0] == "ok"


def children(pid: int) -> set[int]:
    """Every process under `pid` (children, and theirs)."""
    found, todo = set(), [pid]
    while todo:
        parent = todo.pop()
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                with contextlib.suppress(OSError, IndexError):
                    if (entry / "stat").read_text().rsplit(")", 1)[1].split()[1] == str(parent):
                        found.add(int(entry.name))
                        todo.append(int(entry.name))
    return found


@pytest.mark.parametrize("heavy", ["2", "0"])
def test_the_bot_computes_fights_in_processes_of_its_own_and_stops_them(tmp_path, cli_env, heavy):
    """HEAVY_PROCESSES workers (and their fork server) start with the bot and end with it."""
    env = {**cli_env, "DISCORD_TOKEN": TOKEN, "STATE_DB": str(tmp_path / "state.db"), "HEAVY_PROCESSES": heavy}
    proc = subprocess.Popen(
        [sys.executable, "-c", FAKE_GATEWAY, str(ROOT)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert "gateway connected" in proc.stdout.readline(), proc.stderr.read()
        deadline = time.monotonic() + 30  # the pool starts before the gateway connects; its workers fork soon after
        while heavy != "0" and len(children(proc.pid)) < int(heavy) + 1 and time.monotonic() < deadline:
            time.sleep(0.2)
        started = children(proc.pid)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 0, proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
    assert (len(started) >= int(heavy) + 1) if heavy != "0" else not started
    deadline = time.monotonic() + 10
    while [pid for pid in started if Path(f"/proc/{pid}").exists()] and time.monotonic() < deadline:
        time.sleep(0.2)
    left = {pid: Path(f"/proc/{pid}/cmdline").read_bytes() for pid in started if Path(f"/proc/{pid}").exists()}
    assert not left  # none outlives the bot


# --- the container ------------------------------------------------------------------------------------


def test_the_dockerfile_declares_what_the_image_needs():
    """What the Dockerfile and .dockerignore say (no Docker engine runs here: the next test runs
    the image's steps themselves, as an unknown uid)."""
    docker = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    ignore = (ROOT / ".dockerignore").read_text(encoding="utf-8").split()
    for entry in ("tests", "bench", ".ci", ".git", ".venv", "data/*.db", "data/*.db-*", "data/*.userdic"):
        assert entry in ignore, entry
    assert "-r requirements.txt -c constraints.txt" in docker  # the versions CI tested
    assert "PIP_ROOT_USER_ACTION=ignore" in docker  # no warning about pip as root
    assert "python bot.py build" in docker and "chmod -R a+rX /app" in docker  # rules built in, readable by any uid
    assert "STATE_DB=/app/state/state.db" in docker and "MPLCONFIGDIR=/app/state" in docker  # written: /app/state only
    assert 'VOLUME ["/app/state"]' in docker and "USER 10001" in docker
    assert "HEALTHCHECK" in docker and '"bot.py", "health"' in docker
    assert "STOPSIGNAL SIGTERM" in docker


def _reachable(path: Path) -> bool:
    """Whether any user can reach the path (every folder above it lets others through)."""
    return all(p.stat().st_mode & 0o001 for p in Path(path).resolve().parents)


def _python_for_any_user(scratch: Path) -> tuple[str, dict[str, str]]:
    """An interpreter another uid can run, with this environment's packages. The virtual
    environment's interpreter may live under a home only root can enter (pyenv under /root),
    and so may the checkout with its virtual environment (CI's clone): then the system's Python
    of the same version runs with the environment's packages, linked into `scratch`, which
    any user can read."""
    site = [p for p in sys.path if p.endswith("site-packages")]
    real = Path(os.path.realpath(sys.executable))
    if _reachable(real) and all(_reachable(Path(p)) for p in site):
        return sys.executable, {}
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    system = shutil.which(version, path="/usr/local/bin:/usr/bin")
    assert system, f"no {version} that another user can run: the image test needs one"
    readable = []
    for i, folder in enumerate(site):
        if _reachable(Path(folder)):
            readable.append(folder)
            continue
        copy = scratch / f"site-{i}"

        def link(src, dst):
            try:
                os.link(src, dst)  # the same files, readable as they are, in no time
            except OSError:
                shutil.copy2(src, dst)

        shutil.copytree(folder, copy, copy_function=link, symlinks=True)
        for p in [copy, *copy.rglob("*")]:
            if p.is_dir() and not p.is_symlink():
                p.chmod(0o755)
        readable.append(str(copy))
    return system, {"PYTHONPATH": os.pathsep.join([str(ROOT), *readable])}


def _image_files(app: Path) -> dict[str, float]:
    return {str(p.relative_to(app)): p.stat().st_mtime for p in app.rglob("*") if "state" not in p.relative_to(app).parts}


def test_the_image_steps_work_for_any_uid_with_only_the_state_directory_writable(cli_env):
    """The Dockerfile's steps in a temporary directory: copy what .dockerignore lets through,
    build as root, then run the console as an unknown uid that can write only /app/state."""
    root = Path(tempfile.mkdtemp(prefix="image-", dir="/tmp"))
    os.chmod(root, 0o755)
    app = root / "app"
    ignore = [
        line for line in (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")
    ]
    patterns = {Path(x).name for x in ignore} | {"*.db", "*.db-*", "*.userdic", ".rules-*", "heartbeat"}
    shutil.copytree(ROOT, app, ignore=shutil.ignore_patterns(*patterns))
    try:
        env = {**cli_env, "RULES_DB": str(app / "data" / "rules.db"), "STATE_DB": str(app / "state" / "state.db")}
        env["MPLCONFIGDIR"] = str(app / "state" / "matplotlib")
        build = subprocess.run(
            [sys.executable, "bot.py", "build"],
            cwd=app,
            env={**env, "MPLCONFIGDIR": str(root / "mpl")},
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert build.returncode == 0, build.stderr
        for p in [app, *app.rglob("*")]:
            p.chmod(p.stat().st_mode | stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH | (0o111 if p.is_dir() else 0))
        (app / "state").mkdir()
        os.chmod(app / "state", 0o1777)
        before = _image_files(app)
        uid = 12345  # like docker run --user 12345: no passwd entry, no home

        def become():
            os.setgid(uid)
            os.setuid(uid)

        python, extra = _python_for_any_user(root)
        env = {**env, "HOME": "/nonexistent", **extra}
        env["PYTHONPATH"] = os.pathsep.join([str(app), *env.get("PYTHONPATH", "").split(os.pathsep)[1:]])
        out = subprocess.run(
            [python, "bot.py", "console"],
            cwd=app,
            env=env,
            input="/rule 79.1\n/odds ground attacker:3 infantry defender:2 infantry\n",
            capture_output=True,
            text=True,
            timeout=120,
            preexec_fn=become,
        )
        assert out.returncode == 0, out.stderr
        assert "79.1" in out.stdout and said("odds.line", out.stdout) and "Traceback" not in out.stderr
        assert _image_files(app) == before  # nothing written outside /app/state
        assert (app / "state" / "state.db").exists()
    finally:
        shutil.rmtree(root, ignore_errors=True)


@pytest.mark.parametrize(
    "error, says",
    [
        (__import__("discord").LoginFailure("Improper token has been passed."), "DISCORD_TOKEN is wrong"),
        (OSError("Cannot connect to host discord.com:443"), "cannot reach Discord"),
    ],
)
def test_a_bot_that_cannot_run_logs_why(caplog, error, says):
    import asyncio

    from cogs import client

    class Refused(client.RulesBot):
        async def start(self, token, *, reconnect=True):
            raise error

    with caplog.at_level(logging.ERROR):
        code = asyncio.run(client.serve(Refused(state=open_state(":memory:")), TOKEN))
    assert code == 1 and says in caplog.text and TOKEN not in caplog.text


def test_a_secret_inside_another_never_leaves_a_piece_of_it_shown(monkeypatch):
    """A password made of a token's digits, registered before: the token is still hidden whole,
    and so is a longer secret that holds a shorter one."""
    from tabletop.core import logs

    monkeypatch.setattr(logs, "_secrets", set(logs._secrets))  # this test's secrets end with it
    logs.add_secret("0123456789")
    logs.add_secret("outer-0123456789-secret")
    text = logs.redact(f"token {TOKEN} and outer-0123456789-secret")
    assert text == "token [token] and [token]"
