"""State the database keeps right: acknowledgements that say what was committed, outcomes no
concurrent writer can erase, and every state path that cannot be used named in one sentence."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import threading
from pathlib import Path

import pytest
from other_user import state_as_another_user
from run_bot import run_bot
from said import said

from tabletop.agenda.model import Player
from tabletop.agenda.store import AgendaStore
from tabletop.console.app import run_line
from tabletop.console.printed import printed
from tabletop.core.commands import Context, dispatch
from tabletop.core.errors import UserError
from tabletop.core.i18n import LOCALES, speaking, t
from tabletop.store import StateUnavailable, open_state, stand_in

ROOT = Path(__file__).resolve().parents[2]


def text_of(replies) -> str:
    return "\n".join(printed(r) for r in replies)


@pytest.mark.parametrize("typed", ["bob", "BOB", "Ｂｏｂ"])
def test_the_acknowledgement_names_the_listed_player_and_what_was_recorded(compendium, state, typed):
    ctx = Context(compendium, state, user_id="me", user_name="me", guild_id="g", channel_id="c")
    run_line(ctx, "/agenda start name:X players:Bob, Carol")
    out = text_of(run_line(ctx, f"as {typed}: /agenda vote outcome:가결 votes:5"))
    assert t("agenda.ack.vote", agenda="#1 X", voter="Bob", outcome="가결", votes=5) in out
    assert AgendaStore(state).current("g", "c").tally()["가결"] == 5


def test_planets_named_by_two_processes_at_once_are_all_kept(state):
    """Each connection stands for a process; every ballot names its own planet, so the list of
    outcomes is written by many transactions at once."""
    players = [Player(f"p{i}", f"P{i}") for i in range(8)]
    first = AgendaStore(state)
    agenda = first.start("g", "c", Player("s", "S"), "행성 선출", [], "elect-planet", players=players)
    second = AgendaStore(open_state(state.path))

    def vote(store, chunk):
        for rounds in range(3):
            for p in chunk:
                store.vote(agenda.id, p, f"{p.name}-행성-{rounds}", 1)

    threads = [threading.Thread(target=vote, args=(s, players[i::2])) for i, s in enumerate((first, second))]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    final = first.get(agenda.id)
    assert {f"{p.name}-행성-{r}" for p in players for r in range(3)} <= set(final.outcomes)
    assert {b.outcome for b in final.ballots} == {f"{p.name}-행성-2" for p in players}


def test_a_read_only_file_in_a_writable_folder_reads_and_refuses_writes(compendium):
    folder = Path(tempfile.mkdtemp(prefix="ro-file-", dir="/tmp"))
    path = folder / "state.db"
    writable = open_state(path)
    writable.set_setting("g", "game", "liftoff")
    writable.close()
    os.chmod(path, 0o444)
    os.chmod(folder, 0o777)  # the folder is writable: only the file is not
    try:
        state = state_as_another_user(path)
        assert state.read_only and state.get_setting("g", "game") == "liftoff"
        ctx = Context(compendium, state, guild_id="g", channel_id="c")
        with pytest.raises(UserError) as exc:
            dispatch(ctx, "agenda start", {"name": "x"})
        assert said("state.read_only", exc.value.message)
        assert dispatch(ctx, "roll", {"dice": "2d6"})  # dice still roll
    finally:
        os.chmod(folder, 0o755)
        shutil.rmtree(folder)


@pytest.mark.parametrize("kind", ["device", "parent-is-a-file", "corrupt"])
def test_a_state_path_that_cannot_be_used_is_named_in_one_sentence(tmp_path, cli_env, kind):
    if kind == "device":
        path = Path("/dev/null")
    elif kind == "parent-is-a-file":
        (tmp_path / "afile").write_text("x")
        path = tmp_path / "afile" / "state.db"
    else:
        path = tmp_path / "state.db"
        path.write_bytes(b"this is not a database " * 50)
    with pytest.raises(StateUnavailable) as exc:
        open_state(path)
    assert str(path) in exc.value.message and "[Errno" not in exc.value.message
    assert not Path("/dev/null-journal").exists()
    out = run_bot(
        ["console", "--state", str(path)], cli_env, stdin="/agenda vote outcome:가결 votes:1\n/agenda show\n/rule 79.1\n"
    )
    assert out.returncode == 0 and "Traceback" not in out.stdout + out.stderr
    assert not said("agenda.not_found", out.stdout) and out.stdout.count(str(path)) >= 2  # the state's fault, named
    assert "79.1" in out.stdout


def test_an_empty_state_path_is_refused(cli_env):
    out = run_bot(["console", "--state", ""], cli_env)
    assert out.returncode == 2 and "--state" in out.stderr and "Traceback" not in out.stderr


@pytest.mark.parametrize(
    "kind, cause", [("device", "not_a_file"), ("parent-is-a-file", "parent_is_file"), ("directory", "is_directory")]
)
def test_the_reason_a_state_path_fails_is_in_the_readers_language(tmp_path, kind, cause):
    path = {"device": Path("/dev/null"), "parent-is-a-file": tmp_path / "afile" / "state.db", "directory": tmp_path}[kind]
    (tmp_path / "afile").write_text("x")
    with pytest.raises(StateUnavailable) as exc:
        open_state(path)
    for locale in LOCALES:
        with speaking(locale):
            assert t(f"state.cause.{cause}") in exc.value.message
    with speaking("ko"):  # no English reason between the Korean words
        assert not re.search(r"\([A-Za-z ]{6,}\)", exc.value.message), exc.value.message


def test_a_damaged_state_file_is_to_be_moved_aside_not_made_writable(tmp_path):
    path = tmp_path / "state.db"
    path.write_bytes(b"this is not a database " * 50)
    with pytest.raises(StateUnavailable) as exc:
        open_state(path)
    with speaking("en"):
        assert said("state.damaged", exc.value.message, "en") and not said("state.unavailable", exc.value.message, "en")
    with speaking("ko"):
        assert said("state.damaged", exc.value.message) and not said("state.unavailable", exc.value.message)
    assert path.read_bytes().startswith(b"this is not a database")  # nothing was changed


def test_a_fault_noticed_at_start_is_told_to_each_asker_in_their_language(compendium, tmp_path):
    (tmp_path / "afile").write_text("x")
    try:
        open_state(tmp_path / "afile" / "state.db")
    except StateUnavailable as exc:
        state = stand_in(exc.why)  # as the console does, in the language it started in
    for locale, words in (("ko", "상태 데이터베이스"), ("en", "The state database"), ("ja", "状態データベース")):
        ctx = Context(compendium, state, user_id="me", user_name="me", guild_id="g", channel_id="c")
        with speaking(locale):
            out = text_of(run_line(ctx, "/agenda start name:X"))
        assert words in out, (locale, out)


def test_a_copy_of_the_rules_database_is_refused_as_state_and_left_as_it_was(rules_db, tmp_path):
    """A copy of data/rules.db given as --state was taken (its tables beside the store's)."""
    from tabletop.core.i18n import t
    from tabletop.store import StateUnavailable, open_state

    copy = tmp_path / "copy.db"
    shutil.copy(rules_db, copy)
    before = copy.read_bytes()
    with pytest.raises(StateUnavailable) as refused:
        open_state(str(copy))
    assert str(refused.value.why) == t("state.not_ours", path=str(copy))
    assert copy.read_bytes() == before and not list(tmp_path.glob("copy.db-*"))


def test_the_rules_databases_own_file_is_refused_as_state(rules_db, monkeypatch):
    """STATE_DB and RULES_DB naming one file: a rebuilt rules database took the votes with it."""
    from tabletop.core.i18n import t
    from tabletop.store import StateUnavailable, open_state

    monkeypatch.setenv("RULES_DB", str(rules_db))
    before = rules_db.read_bytes()
    with pytest.raises(StateUnavailable) as refused:
        open_state(str(rules_db))
    assert str(refused.value.why) == t("state.is_rules_db", path=str(rules_db))
    assert rules_db.read_bytes() == before
