"""The state store on both backends, against a real PostgreSQL server: the same agenda gives the
same result on each; processes writing at once lose, duplicate and misreport nothing; a request
delivered twice changes state once; a server that is down, or refuses us, is one sentence and
never stops rules or dice."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import psycopg
import pytest
from run_bot import run_bot
from said import pattern, said

from tabletop.agenda import phase
from tabletop.agenda.model import AGAINST, FOR, Player
from tabletop.agenda.store import AgendaStore
from tabletop.core.errors import UserError
from tabletop.core.i18n import t
from tabletop.store import StateUnavailable, begin_request, open_state
from tabletop.store.schema import migrations

ROOT = Path(__file__).resolve().parents[2]
STARTER = Player("s", "Speaker")
ALICE, BOB, CAROL = Player("a", "Alice"), Player("b", "Bob"), Player("c", "Carol")


@pytest.fixture(autouse=True)
def _no_request():
    begin_request(None)  # each test starts outside any interaction
    yield
    begin_request(None)


def test_an_agenda_resolves_the_same_on_each_backend(state_target):
    store = AgendaStore(open_state(state_target))
    a = store.start("g", "c", STARTER, "분리 독트린", [], "for-against", "law", ALICE, [ALICE, BOB, CAROL])
    store.predict(a.id, CAROL, "가결")
    store.vote(a.id, ALICE, "가결", 4)
    store.vote(a.id, BOB, "부결", 3)
    store.vote(a.id, CAROL, "찬성", 1)
    store.vote(a.id, BOB, "부결", 2)  # a changed ballot replaces the first
    closed = store.close(a.id, STARTER, False)
    assert closed.result == {
        "winner": FOR,
        "decided_by": "votes",
        "tally": {FOR: 5, AGAINST: 2},
        "card": "stays",
        "predicted_right": ["Carol"],
    }
    assert [b.voter_id for b in closed.ballots] == ["a", "c", "b"]  # in the order last cast
    assert [e["action"] for e in store.log(a.id)] == ["start", "predict", "vote", "vote", "vote", "vote", "close"]
    assert store.state.version == len(migrations())


def test_a_tie_is_the_speakers_and_settings_and_rolls_persist(state_target):
    state = open_state(state_target)
    store = AgendaStore(state)
    a = store.start("g", "c", STARTER, "X", [], "for-against", None, ALICE, [ALICE, BOB])
    store.vote(a.id, ALICE, "가결", 2)
    store.vote(a.id, BOB, "부결", 2)
    with pytest.raises(UserError):
        store.close(a.id, STARTER, False)  # a tie needs the speaker's choice
    assert store.close(a.id, ALICE, False, choice="부결").result["winner"] == AGAINST
    state.set_setting("g", "game", "liftoff")
    state.set_setting("g", "game", "ti4")
    roll = state.log_roll("g", "c", "u", '{"command": "roll"}', "7", "3")
    state.close()
    again = open_state(state_target)  # a restart, or another process
    assert again.get_setting("g", "game") == "ti4"
    assert again.logged_roll(roll) == '{"command": "roll"}'
    assert again.logged_roll(roll + 1000) is None


def test_several_settings_are_written_together_or_not_at_all(state_target):
    state = open_state(state_target)
    state.set_settings("g", {"chat": "off", "game": "liftoff"})
    assert (state.get_setting("g", "chat"), state.get_setting("g", "game")) == ("off", "liftoff")
    with pytest.raises((sqlite3.IntegrityError, psycopg.IntegrityError)):  # the second breaks a constraint
        state.set_settings("g", {"chat": "on", "game": None})  # type: ignore[dict-item]
    assert (state.get_setting("g", "chat"), state.get_setting("g", "game")) == ("off", "liftoff")
    state.close()


def test_one_open_agenda_per_channel_is_the_databases_rule(state_target):
    store = AgendaStore(open_state(state_target))
    store.start("g", "c", STARTER, "first", [], "for-against")
    with store.state.transaction() as c, pytest.raises(Exception) as caught:
        c.execute(
            "insert into agendas (guild_id, channel_id, name, outcome_type, outcomes, players, starter_id, starter_name) "
            "values ('g', 'c', 'second', 'for-against', '[]', '[]', 's', 'S')"
        )
    assert "unique" in str(caught.value).lower()


WORKER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    sys.path.insert(0, {root!r})
    from tabletop.agenda.model import Player
    from tabletop.agenda.store import AgendaStore
    from tabletop.core.errors import UserError
    from tabletop.store import begin_request, open_state
    target, action, agenda_id, first, count, go = sys.argv[1:7]
    store = AgendaStore(open_state(target))
    while not Path(go).exists():
        time.sleep(0.005)
    for i in range(int(first), int(first) + int(count)):
        try:
            if action == "vote":
                store.vote(int(agenda_id), Player(f"u{{i}}", f"U{{i}}"), f"Planet {{i}}", 1)
            elif action == "close":
                store.close(int(agenda_id), Player("s", "Speaker"), True)
            elif action == "press":  # the same interaction delivered to every process
                begin_request("1234567890")
                store.play_card(int(agenda_id), Player("a", "Alice"), "when", "Veto")
            print("ok", flush=True)
        except UserError as exc:
            print("refused", exc.message, flush=True)
    """
).format(root=str(ROOT))


def _race(target: str, tmp_path: Path, action: str, agenda_id: int, parts: list[tuple[int, int]]) -> list[str]:
    """Run one worker process per part at the same moment; every line they printed."""
    go = tmp_path / f"go-{action}"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, target, action, str(agenda_id), str(first), str(count), str(go)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for first, count in parts
    ]
    time.sleep(1.5)  # every process has opened its store and waits
    go.touch()
    lines = []
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        lines += out.splitlines()
    return lines


def test_processes_voting_at_once_lose_no_planet_and_no_ballot(state_target, tmp_path):
    store = AgendaStore(open_state(state_target))
    a = store.start("g", "c", STARTER, "Imperial Arbiter", [], "elect-planet")
    lines = _race(state_target, tmp_path, "vote", a.id, [(0, 12), (12, 12)])
    assert lines.count("ok") == 24
    got = store.get(a.id)
    assert sorted(got.outcomes) == sorted(f"Planet {i}" for i in range(24))
    assert {b.voter_id: b.outcome for b in got.ballots} == {f"u{i}": f"Planet {i}" for i in range(24)}


def test_two_processes_closing_one_agenda_close_it_once_and_open_the_next_once(state_target, tmp_path):
    store = AgendaStore(open_state(state_target))
    first = phase.start(store, "g", "c", STARTER, [ALICE, BOB], ALICE, False, ["A", "B"])
    store.vote(first.id, ALICE, "가결", 3)
    lines = _race(state_target, tmp_path, "close", first.id, [(0, 1), (1, 1), (2, 1)])
    assert lines.count("ok") == 1 and len(lines) == 3
    assert [e["action"] for e in store.log(first.id)].count("close") == 1
    closed = store.get(first.id)
    nxt, over = phase.advance(store, closed, STARTER)
    assert nxt is not None and nxt.name == "B" and not over
    assert phase.advance(store, closed, STARTER) == (None, False)  # already advanced: nothing twice


def test_a_phase_moves_on_only_with_its_next_agenda_open(state_target):
    """The step and the second agenda are one transaction: when the second cannot open (here
    another agenda took the channel in between), the phase stays where it was and moves on
    once the channel is free, with its second agenda."""
    store = AgendaStore(open_state(state_target))
    first = phase.start(store, "g", "c", STARTER, [ALICE, BOB], ALICE, False, ["A", "B"])
    assert first.phase_id is not None and store.history("g", "c")[0].phase_id == first.phase_id
    store.vote(first.id, ALICE, "가결", 3)
    closed = store.close(first.id, STARTER, False)
    squatter = store.start("g", "c", STARTER, "Other", [])
    with pytest.raises(UserError):
        phase.advance(store, closed, STARTER)

    def step() -> int:
        with store.state.read() as c:
            return c.execute("select step from agenda_phases where id = ?", (first.phase_id,)).fetchone()[0]

    assert step() == 1
    store.cancel(squatter.id, STARTER, False)
    nxt, over = phase.advance(store, closed, STARTER)
    assert nxt is not None and nxt.name == "B" and nxt.phase_id == first.phase_id and not over
    assert step() == 2


def test_the_same_press_delivered_to_three_processes_counts_once(state_target, tmp_path):
    store = AgendaStore(open_state(state_target))
    a = store.start("g", "c", STARTER, "X", [], "for-against", None, ALICE, [ALICE, BOB], with_windows=True)
    lines = _race(state_target, tmp_path, "press", a.id, [(0, 1), (1, 1), (2, 1)])
    assert lines.count("ok") == 1
    assert sum(line.startswith("refused") and said("state.repeated_request", line) for line in lines) == 2
    assert [p.card for p in store.get(a.id).plays] == ["Veto"]


def test_a_repeated_request_in_one_process_changes_nothing_and_says_so(state_target):
    store = AgendaStore(open_state(state_target))
    a = store.start("g", "c", STARTER, "X", [], "for-against")
    begin_request("42")
    store.vote(a.id, ALICE, "가결", 2)
    begin_request("42")  # the gateway delivered it again
    with pytest.raises(UserError) as exc:
        store.vote(a.id, ALICE, "가결", 2)
    assert said("state.repeated_request", exc.value.message)
    begin_request("43")  # a new press of the same button is a new request
    store.vote(a.id, ALICE, "부결", 1)
    assert [e["action"] for e in store.log(a.id)] == ["start", "vote", "vote"]


# --- faults --------------------------------------------------------------------------------


def test_a_server_that_is_not_there_is_a_sentence_and_rules_settings_fall_back(tmp_path):
    url = f"postgresql://tabletop:hunter2@/tabletop?host={tmp_path}&port=5999"
    state = open_state(url)
    told = str(state.problem)
    assert "hunter2" not in told and "•••" in told
    assert str(tmp_path) in told or "5999" in told
    assert state.get_setting("g", "game", "ti4", fallback=True) == "ti4"  # rules keep their server's default
    with pytest.raises(UserError):  # what must not act on a guess is told the store is down
        state.get_setting("g", "agenda_windows", "off")
    store = AgendaStore(state)
    with pytest.raises(UserError) as refused:
        store.start("g", "c", STARTER, "X", [])
    assert said("state.server_unavailable", refused.value.message) and "hunter2" not in refused.value.message
    state.close()


def test_a_role_the_server_refuses_is_a_sentence_naming_it(pg_server):
    state = open_state(pg_server.url(user="nobody_here"))
    assert t("state.cause.auth") in str(state.problem)
    with pytest.raises(UserError) as exc:
        state.set_setting("g", "chat", "off")
    assert said("state.server_unavailable", exc.value.message)
    state.close()


def test_a_malformed_url_is_refused_at_start():
    with pytest.raises(StateUnavailable, match="postgresql://"):
        open_state("postgresql://user@host:notaport/db?bad=")
    with pytest.raises(StateUnavailable):
        open_state("postgres:/only-one-slash")


def test_a_session_lost_while_idle_costs_no_command(pg_server, pg_url):
    state = open_state(pg_url)
    store = AgendaStore(state)
    a = store.start("g", "c", STARTER, "X", [], "for-against")
    pg_server.disconnect_all(pg_url)
    for votes in (1, 2, 3):  # the pool finds its dead connections before handing them out
        store.vote(a.id, ALICE, "가결", votes)
    assert store.get(a.id).tally()[FOR] == 3


def test_the_console_with_its_server_down_still_answers_rules_and_dice(cli_env, tmp_path):
    cli_env["STATE_DB"] = f"postgresql://tabletop@/tabletop?host={tmp_path}&port=5998"
    script = "/rule 79.1\n/roll dice:2d6 seed:3\n/agenda start name:분리 독트린\n"
    done = run_bot(["console"], cli_env, stdin=script, timeout=180)
    assert done.returncode == 0, done.stderr
    assert "79.1" in done.stdout
    assert "2d6" in done.stdout
    assert len(pattern("state.server_unavailable").findall(done.stdout)) == 1  # the agenda, told once, and no traceback
    assert "Traceback" not in done.stdout + done.stderr
    assert said("state.server_unavailable", done.stderr)  # said at start too


def test_the_console_runs_every_state_feature_on_postgresql(cli_env, pg_url):
    cli_env["STATE_DB"] = pg_url
    script = "\n".join(
        [
            "/settings game:liftoff",
            "/settings game:ti4",
            "/agenda start name:분리 독트린 players:Alice, Bob speaker:Bob",
            "as Alice: /agenda vote outcome:가결 votes:4",
            "as Bob: /agenda vote outcome:부결 votes:2",
            "as Bob: /agenda close",
            "/roll dice:3d10 seed:5",
            "",
        ]
    )
    done = run_bot(["console"], cli_env, stdin=script, timeout=180)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stdout + done.stderr and not said("state.server_unavailable", done.stdout)
    store = AgendaStore(open_state(pg_url))
    closed = store.history("console", "console")[0]
    assert closed.result["winner"] == FOR and closed.result["tally"] == {FOR: 4, AGAINST: 2}
    assert store.state.get_setting("console", "game") == "ti4"
    assert "combat:again:" not in done.stdout  # buttons are numbered in the console
    assert store.state.logged_roll(1) is not None  # the roll was logged, in PostgreSQL


def test_each_owner_registers_its_own_migrations_and_a_gap_is_refused(monkeypatch):
    from tabletop.store import schema

    owners = {number: owner for number, (owner, _) in schema._REGISTERED.items()}
    assert owners[1] == owners[3] == owners[7] == "store" and owners[2] == owners[8] == "agenda"
    with pytest.raises(ValueError, match="declared by agenda and by combat"):
        schema.register(2, "combat", "create table x (a integer);")
    monkeypatch.setattr(schema, "_REGISTERED", {n: v for n, v in schema._REGISTERED.items() if v[0] == "store"})
    with pytest.raises(RuntimeError, match=r"\[2, 4, 5, 6\] are not registered"):
        schema.migrations()


async def test_the_discord_adapter_votes_on_each_backend_and_counts_a_redelivery_once(state_target):
    from discord_fakes import FakeBot, FakeInteraction, FakeUser, form_of, submit

    from cogs.commands import slash

    state = open_state(state_target)
    bot = FakeBot(state=state, compendium=None, user=FakeUser(999, "bot", bot=True))
    await slash("agenda start").callback(FakeInteraction(bot), name="분리 독트린", players="<@1> <@2>")
    form = await form_of(bot, "agenda:1:vote:0", FakeUser(2, "Bob"), votes="6")
    first = FakeInteraction(bot, user=FakeUser(2, "Bob"))
    await submit(form, first)
    assert first.log[0].method == "edit_message" and "가결** — 6표" in first.log[0].embed.description
    again = FakeInteraction(bot, user=FakeUser(2, "Bob"), id=first.id)
    await submit(form, again)
    assert again.log[0].ephemeral and said("state.repeated_request", again.log[0].text)
    assert AgendaStore(state).get(1).tally()[FOR] == 6


def test_outcomes_kept_as_a_list_move_into_rows_on_upgrade(state_target):
    from tabletop.store.schema import render

    dialect = "postgresql" if state_target.startswith("postgresql") else "sqlite"
    statements = [s for script in migrations()[:8] for s in render(script, dialect)]
    legacy = (
        "insert into agendas (guild_id, channel_id, name, outcome_type, outcomes, players, starter_id, starter_name) "
        "values ('g', 'c', 'Arbiter', 'elect-planet', '[\"Mecatol Rex\", \"Jord\", \"문자열 행성\"]', '[]', 's', 'S')"
    )
    if dialect == "sqlite":
        import sqlite3

        conn = sqlite3.connect(state_target)
        for statement in [*statements, legacy]:
            conn.execute(statement)
        conn.execute("pragma user_version = 8")
        conn.commit()
        conn.close()
    else:
        import psycopg

        with psycopg.connect(state_target) as conn:
            for statement in statements:
                conn.execute(statement)  # type: ignore[arg-type]
            conn.execute(legacy)  # type: ignore[arg-type]
            conn.execute("create table schema_version (version integer not null)")
            conn.execute("insert into schema_version values (8)")
    store = AgendaStore(open_state(state_target))
    assert store.state.version == len(migrations())
    agenda = store.get(1)
    assert agenda.outcomes == ["Mecatol Rex", "Jord", "문자열 행성"]
    store.vote(1, ALICE, "Abyz", 2)  # a new planet after the upgraded ones
    assert store.get(1).outcomes == ["Mecatol Rex", "Jord", "문자열 행성", "Abyz"]
