"""The agenda phase (glossary 62-63): tallies, ties, elections, predictions, permissions,
durability and bad input."""

from __future__ import annotations

import sqlite3
import threading

import pytest
from run_bot import run_bot
from said import said

from tabletop.agenda.model import AGAINST, FOR, Player, parse_people, voting_order
from tabletop.agenda.store import AgendaStore
from tabletop.agenda.view import agenda_reply, audit_pages
from tabletop.core.commands import Context, dispatch
from tabletop.core.errors import UserError
from tabletop.core.i18n import t
from tabletop.core.payloads import check_limits
from tabletop.store import StateUnavailable, open_state
from tabletop.store.schema import migrations

ALICE, BOB, CAROL, DAVE = (Player(f"name:{n.lower()}", n) for n in ("Alice", "Bob", "Carol", "Dave"))
STARTER = Player("999", "Starter")


@pytest.fixture
def agendas(state):
    return AgendaStore(state)


def start(agendas, **kw):
    args = dict(outcomes=[], outcome_type="for-against", card_kind="law", speaker=DAVE, players=[ALICE, BOB, CAROL, DAVE])
    args.update(kw)
    return agendas.start(
        "g", "c", STARTER, "테스트 정책", args.pop("outcomes"), args.pop("outcome_type"), args.pop("card_kind"), **args
    )


def snapshot(state):
    return [
        list(map(tuple, state.conn.execute(f"select * from {t} order by rowid"))) for t in ("agendas", "ballots", "predictions")
    ]


def test_most_votes_wins_and_a_passed_law_stays(agendas):
    a = start(agendas)
    agendas.vote(a.id, ALICE, "가결", 4)
    agendas.vote(a.id, BOB, "for", 2)
    agendas.vote(a.id, CAROL, "부결", 5)
    a = agendas.vote(a.id, DAVE, "찬성", 1)
    assert a.tally() == {FOR: 7, AGAINST: 5}
    a = agendas.close(a.id, STARTER, False)
    assert a.result["winner"] == FOR and a.result["decided_by"] == "votes" and a.result["card"] == "stays"


@pytest.mark.parametrize(
    "kind, winner, fate", [("law", AGAINST, "discarded"), ("directive", FOR, "discarded"), (None, FOR, None)]
)
def test_what_happens_to_the_card(agendas, kind, winner, fate):
    a = start(agendas, card_kind=kind)
    agendas.vote(a.id, ALICE, winner, 3)
    assert agendas.close(a.id, STARTER, False).result["card"] == fate


def test_a_tie_is_the_speakers_choice_and_only_theirs(agendas):
    a = start(agendas)
    agendas.vote(a.id, ALICE, "가결", 3)
    agendas.vote(a.id, BOB, "부결", 3)
    with pytest.raises(UserError) as exc:
        agendas.close(a.id, STARTER, False)
    assert "의장(Dave)" in exc.value.message
    with pytest.raises(UserError):
        agendas.close(a.id, STARTER, False, choice="가결")  # the starter is not the speaker
    with pytest.raises(UserError):
        agendas.close(a.id, DAVE, False, choice="기권")
    a = agendas.close(a.id, DAVE, False, choice="부결")
    assert a.result["winner"] == AGAINST and a.result["decided_by"] == "speaker"


def test_a_choice_where_there_is_no_tie_is_refused_and_the_agenda_stays_open(agendas):
    a = start(agendas)
    agendas.vote(a.id, ALICE, "가결", 3)
    agendas.vote(a.id, BOB, "부결", 1)
    with pytest.raises(UserError) as exc:
        agendas.close(a.id, DAVE, False, choice="부결")  # the speaker, but the votes decided
    assert said("agenda.choice_without_tie", exc.value.message, winner="가결")
    assert agendas.get(a.id).result is None  # nothing closed
    from tabletop.core.i18n import speaking

    with speaking("en"), pytest.raises(UserError) as exc:
        agendas.close(a.id, DAVE, False, choice="부결")
    assert said(
        "agenda.choice_without_tie", exc.value.message, "en", winner=t("agenda.outcome.for", "en")
    )  # the outcome in the reader's language
    assert agendas.close(a.id, DAVE, False).result["winner"] == FOR


def test_nobody_voted_the_speaker_chooses_among_all(agendas):
    a = start(agendas, outcome_type="elect-other", outcomes=["A", "B", "C"], card_kind=None)
    agendas.abstain(a.id, ALICE)
    assert a.leaders() == ["A", "B", "C"]
    a = agendas.close(a.id, DAVE, False, choice="C")
    assert a.result["winner"] == "C"


def test_elect_player_allows_voting_for_yourself(agendas):
    a = start(agendas, outcome_type="elect-player")
    assert a.outcomes == ["Alice", "Bob", "Carol", "Dave"]
    agendas.vote(a.id, ALICE, "alice", 5)
    a = agendas.close(a.id, STARTER, False)
    assert a.result["winner"] == "Alice" and a.result["card"] == "stays"


def test_elect_planet_takes_any_planet_and_reminds(agendas):
    a = start(agendas, outcome_type="elect-planet", outcomes=[], card_kind="law")
    agendas.vote(a.id, ALICE, "메카톨 렉스", 3)
    a = agendas.vote(a.id, BOB, "메카톨렉스", 2)  # same planet, spelled without the space
    assert a.tally() == {"메카톨 렉스": 5}
    text = agenda_reply(a).embeds[0].body
    assert "62.11" in text and "62.13" in text


def test_votes_all_go_to_one_outcome_and_can_change_with_a_log(agendas):
    a = start(agendas)
    agendas.vote(a.id, ALICE, "가결", 4)
    a = agendas.vote(a.id, ALICE, "부결", 2)
    assert a.tally() == {FOR: 0, AGAINST: 2}
    assert [e["action"] for e in agendas.log(a.id)] == ["start", "vote", "vote"]
    a = agendas.vote(a.id, ALICE, "가결", 0)  # zero votes is abstaining (62.14)
    assert a.ballot_of(ALICE.id).outcome is None


def test_predictions_only_before_the_first_ballot(agendas):
    a = start(agendas)
    agendas.predict(a.id, BOB, "가결")
    agendas.predict(a.id, CAROL, "부결")
    agendas.predict(a.id, BOB, "부결")  # may change their mind, still before any ballot
    agendas.vote(a.id, ALICE, "부결", 1)
    with pytest.raises(UserError) as exc:
        agendas.predict(a.id, DAVE, "가결")
    assert "62.22" in exc.value.message
    a = agendas.close(a.id, STARTER, False)
    assert sorted(a.result["predicted_right"]) == ["Bob", "Carol"]


def test_voting_order_starts_left_of_the_speaker():
    assert [p.name for p in voting_order([ALICE, BOB, CAROL, DAVE], BOB)] == ["Carol", "Dave", "Alice", "Bob"]


def test_whose_turn_is_shown(agendas):
    a = start(agendas, speaker=BOB)
    assert a.next_voter().name == "Carol"
    a = agendas.vote(a.id, CAROL, "가결", 1)
    assert a.next_voter().name == "Dave"
    a = agendas.vote(a.id, ALICE, "가결", 1)  # out of order: allowed, order still shown
    assert a.next_voter().name == "Dave"
    assert "▶ **Dave**" in agenda_reply(a).embeds[0].fields[0][1]


def test_permissions(agendas):
    a = start(agendas)
    with pytest.raises(UserError):
        agendas.vote(a.id, Player("x", "Mallory"), "가결", 1)  # not a listed player
    with pytest.raises(UserError):
        agendas.close(a.id, ALICE, False)
    with pytest.raises(UserError):
        agendas.cancel(a.id, ALICE, False)
    agendas.vote(a.id, ALICE, "가결", 1)
    assert agendas.close(a.id, ALICE, True).status == "closed"  # Manage Server


@pytest.mark.parametrize(
    "action",
    [
        lambda s, a: s.vote(a.id, ALICE, "가결", -1),
        lambda s, a: s.vote(a.id, ALICE, "가결", 1000),
        lambda s, a: s.vote(a.id, ALICE, "가결", True),
        lambda s, a: s.vote(a.id, ALICE, "아마도", 3),
        lambda s, a: s.vote(a.id, ALICE, "", 3),
        lambda s, a: s.predict(a.id, ALICE, "몰라"),
        lambda s, a: s.vote(a.id + 100, ALICE, "가결", 1),
    ],
)
def test_bad_input_changes_nothing(agendas, state, action):
    a = start(agendas)
    agendas.vote(a.id, BOB, "부결", 2)
    before = snapshot(state)
    with pytest.raises(UserError):
        action(agendas, a)
    assert snapshot(state) == before


def test_closed_agendas_refuse_votes(agendas, state):
    a = start(agendas)
    agendas.vote(a.id, ALICE, "가결", 1)
    agendas.close(a.id, STARTER, False)
    before = snapshot(state)
    with pytest.raises(UserError) as exc:
        agendas.vote(a.id, BOB, "부결", 5)
    assert said("agenda.closed", exc.value.message) and snapshot(state) == before


@pytest.mark.parametrize(
    "kw, words",
    [
        (dict(outcome_type="elect-other", outcomes=[f"o{i}" for i in range(100)]), "최대 25"),
        (dict(outcome_type="elect-other", outcomes=[]), "결과를 쉼표로"),
        (dict(outcome_type="elect-other", outcomes=["A", "a"]), "두 번"),
        (dict(outcome_type="elect-other", outcomes=["x" * 81]), "80자"),
        (dict(outcome_type="nope"), "종류"),
    ],
)
def test_bad_agendas_are_refused(agendas, state, kw, words):
    with pytest.raises(UserError) as exc:
        start(agendas, **kw)
    assert words in exc.value.message
    assert state.conn.execute("select count(*) from agendas").fetchone()[0] == 0


def test_empty_name_and_people(agendas):
    with pytest.raises(UserError):
        agendas.start("g", "c", STARTER, "   ", [])
    with pytest.raises(UserError):
        parse_people("a, b, c, d, e, f, g, h, i")
    with pytest.raises(UserError):
        parse_people("a, A")
    assert [p.id for p in parse_people("<@12> <@!34>, Carol")] == ["12", "34", "name:carol"]


def test_concurrent_votes_lose_nothing(tmp_path):
    path = tmp_path / "state.db"
    first = AgendaStore(open_state(path))
    players = [Player(f"p{i}", f"P{i}") for i in range(8)]
    agendas = [first.start("g", f"c{i}", STARTER, f"A{i}", [], "for-against", None, None, players) for i in range(5)]
    errors = []

    def worker(n):
        store = AgendaStore(open_state(path))  # its own connection, as another process would have
        try:
            for a in agendas:
                for round_ in range(4):
                    store.vote(a.id, players[n], "가결" if (n + round_) % 2 else "부결", n + round_ + 1)
        except Exception as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors
    for a in agendas:
        got = first.get(a.id)
        assert len(got.ballots) == 8
        assert {b.voter_id: b.votes for b in got.ballots} == {f"p{n}": n + 4 for n in range(8)}
        assert len([e for e in first.log(a.id) if e["action"] == "vote"]) == 32


def test_a_restart_loses_nothing_and_gives_the_same_result(tmp_path):
    path = tmp_path / "state.db"
    s1 = open_state(path)
    store = AgendaStore(s1)
    a = start(store)
    store.predict(a.id, CAROL, "가결")
    store.vote(a.id, ALICE, "가결", 4)
    store.vote(a.id, BOB, "부결", 3)
    s1.conn.close()  # the process dies here: no clean shutdown
    s2 = open_state(path)
    again = AgendaStore(s2)
    reloaded = again.get(a.id)
    assert reloaded.tally() == {FOR: 4, AGAINST: 3} and reloaded.open
    again.vote(a.id, CAROL, "가결", 1)
    result = again.close(a.id, STARTER, False).result
    assert result == {
        "winner": FOR,
        "decided_by": "votes",
        "tally": {FOR: 5, AGAINST: 3},
        "card": "stays",
        "predicted_right": ["Carol"],
    }


def test_state_database_migrates_from_an_old_version(tmp_path):
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path)
    conn.executescript(migrations()[0] + "pragma user_version = 1;")
    conn.execute("insert into settings values ('g', 'chat', 'off')")
    conn.commit()
    conn.close()
    state = open_state(path)
    assert state.version == len(migrations())
    assert state.get_setting("g", "chat") == "off"
    assert state.conn.execute("pragma journal_mode").fetchone()[0] == "wal"


def test_a_newer_database_is_refused(tmp_path):
    path = tmp_path / "new.db"
    conn = sqlite3.connect(path)
    conn.execute(f"pragma user_version = {len(migrations()) + 1}")
    conn.close()
    with pytest.raises(StateUnavailable, match="업그레이드"):
        open_state(path)


def test_agenda_message_fits_discord_with_many_outcomes_and_players(agendas):
    players = [Player(f"p{i}", "플레이어" * 5 + str(i)) for i in range(8)]
    outcomes = [f"비밀 목표 {i} " + "긴이름" * 10 for i in range(25)]
    a = agendas.start("g", "c", STARTER, "x" * 100, outcomes, "elect-other", "law", players[0], players)
    for i, p in enumerate(players):
        agendas.vote(a.id, p, outcomes[i], 999)
    reply = agenda_reply(agendas.get(a.id))
    assert check_limits(reply) == []
    assert reply.rows[0][0].custom_id == f"agenda:{a.id}:pick"  # more than five outcomes: a menu


def test_commands_and_console_as_other_players(compendium, state):
    ctx = Context(compendium, state, user_id="console", user_name="console", guild_id="g", channel_id="c")
    dispatch(ctx, "agenda start", {"name": "의회 해산", "players": "Alice, Bob", "speaker": "Bob", "kind": "directive"})
    ctx.user_id = ctx.user_name = "Alice"
    reply = dispatch(ctx, "agenda vote", {"outcome": "부결", "votes": "3"})
    assert reply.ack == t(
        "agenda.ack.vote", agenda="#1 의회 해산", voter="Alice", outcome="부결", votes=3
    )  # every acknowledgement names its agenda
    with pytest.raises(UserError):
        dispatch(ctx, "agenda vote", {"outcome": "부결", "votes": "-3"})
    ctx.user_id = ctx.user_name = "Bob"
    closed = dispatch(ctx, "agenda close", {})
    assert "결과: 부결" in closed.embeds[0].body and "버린" in closed.embeds[0].body
    history = dispatch(ctx, "agenda history", {})
    assert "의회 해산" in history.embeds[0].body
    shown = dispatch(ctx, "agenda show", {"id": "1"})
    log_text = "\n".join(p.description for p in shown.pages[1:])
    assert f"Alice: {t('agenda.log.vote')} 부결 3" in log_text and "Asia/Seoul" in log_text


# --- one open agenda per channel, and acknowledgements that name their agenda ------------------------


def test_a_second_agenda_in_a_channel_is_refused_naming_the_open_one(agendas, compendium, state):
    first = agendas.start("g", "c", STARTER, "분리 독트린", [], "for-against")
    with pytest.raises(UserError) as exc:
        agendas.start("g", "c", STARTER, "의회 해산", [], "for-against")
    assert f"#{first.id}" in exc.value.message and "분리 독트린" in exc.value.message
    other_channel = agendas.start("g", "c2", STARTER, "의회 해산", [], "for-against")  # another channel is fine
    # the reported bug: start #1, start #2, close #2, vote -> recorded on #1 silently. Now #2 never
    # starts while #1 is open, and every acknowledgement names the agenda it recorded on.
    ctx = Context(compendium, state, user_id="Alice", user_name="Alice", guild_id="g", channel_id="c")
    reply = dispatch(ctx, "agenda vote", {"outcome": "가결", "votes": "2"})
    assert reply.ack.startswith(f"#{first.id} 분리 독트린:")
    assert other_channel.id != first.id


def test_outcomes_without_a_type_are_an_election_from_that_list(agendas):
    a = agendas.start("g", "c", STARTER, "비밀 목표", ["A", "B", "C", "D", "E", "F", "G"])
    assert a.outcome_type == "elect-other" and a.outcomes == ["A", "B", "C", "D", "E", "F", "G"]
    with pytest.raises(UserError) as exc:
        agendas.start("g", "c2", STARTER, "x", ["A", "B"], "for-against")
    assert "elect-other" in exc.value.message
    with pytest.raises(UserError) as exc:  # a hundred outcomes: refused with a message, never dropped
        agendas.start("g", "c3", STARTER, "x", [f"o{i}" for i in range(100)])
    assert "100" in exc.value.message


def test_a_speaker_who_is_not_a_player_is_refused(agendas):
    players = [Player("1", "Alice"), Player("2", "Bob")]
    with pytest.raises(UserError) as exc:
        agendas.start("g", "c", STARTER, "x", [], "for-against", None, Player("3", "Carol"), players)
    assert "Carol" in exc.value.message and "Alice" in exc.value.message


# --- any size within Discord's limits --------------------------------------------------------------


@pytest.mark.slow  # thousands of ballots: about 15 s
def test_thousands_of_ballots_stay_within_discords_limits(agendas, state):
    from zoneinfo import ZoneInfo

    players = [Player(str(i), f"플레이어{i}" * 4) for i in range(8)]
    a = agendas.start(
        "g", "c", STARTER, "긴 이름" * 14, [f"결과 {i} " + "x" * 60 for i in range(25)], "elect-other", "law", players[0], players
    )
    for n in range(3000):  # ballots changed again and again: the log grows, the message does not
        agendas.vote(a.id, players[n % 8], a.outcomes[n % 25], n % 1000)
    agenda = agendas.get(a.id)
    assert check_limits(agenda_reply(agenda)) == []
    paged = audit_pages(agendas, agenda, ZoneInfo("Asia/Seoul"))
    assert len(paged.pages) > 10
    for reply in paged.replies():
        assert check_limits(reply) == []
    voted, abstained = f": {t('agenda.log.vote')} ", f": {t('agenda.log.abstain')}"
    changes = sum(p.description.count(voted) + p.description.count(abstained) for p in paged.pages)
    assert changes == 3000  # every change (0 votes is abstaining), nothing cut
    open_voters = agendas.start("g", "c2", STARTER, "누구나", [], "for-against")  # no players: anyone votes
    for n in range(2000):
        agendas.vote(open_voters.id, Player(f"u{n}", f"투표자 {n} " + "이름" * 10), "가결" if n % 2 else "부결", 5)
    big = agendas.get(open_voters.id)
    reply = agenda_reply(big)
    assert check_limits(reply) == [] and "외 " in reply.embeds[0].body
    for page in audit_pages(agendas, big, ZoneInfo("UTC")).replies():
        assert check_limits(page) == []


# --- closing removes the buttons; times in the server's zone ------------------------------------------


def test_closed_and_cancelled_agendas_have_no_buttons(agendas):
    a = agendas.start("g", "c", STARTER, "x", [], "for-against")
    assert agenda_reply(agendas.get(a.id)).rows
    agendas.vote(a.id, Player("1", "A"), "가결", 1)
    assert agenda_reply(agendas.close(a.id, STARTER, True)).rows == []
    b = agendas.start("g", "c", STARTER, "y", [], "for-against")
    assert agenda_reply(agendas.cancel(b.id, STARTER, True)).rows == []


def test_log_times_are_in_the_servers_zone_and_labelled(compendium, state):
    ctx = Context(compendium, state, guild_id="g", channel_id="c")
    dispatch(ctx, "agenda start", {"name": "x"})
    state.conn.execute("update agenda_log set at = '2026-11-21T00:30:00.000Z'")
    shown = dispatch(ctx, "agenda show", {})
    log = shown.pages[1].description
    assert "11-21 09:30:00" in log and "Asia/Seoul" in log and "KST" in log  # UTC+9, labelled
    with pytest.raises(UserError) as exc:
        dispatch(ctx, "settings", {"timezone": "Mars/Olympus"})
    assert "Mars/Olympus" in exc.value.message
    assert state.get_setting("g", "timezone") is None  # a bad value changes nothing
    dispatch(ctx, "settings", {"timezone": "Europe/Berlin"})
    log = dispatch(ctx, "agenda show", {}).pages[1].description
    assert "11-21 01:30:00" in log and "Europe/Berlin" in log


# --- secret ballots ----------------------------------------------------------------------------------


def test_secret_ballots_show_who_voted_not_how_until_the_close(compendium, state):
    ctx = Context(compendium, state, user_id="Alice", user_name="Alice", guild_id="g", channel_id="c")
    dispatch(ctx, "agenda start", {"name": "비밀 안건", "players": "Alice, Bob", "secret": "true"})
    ack = dispatch(ctx, "agenda vote", {"outcome": "부결", "votes": "7"})
    assert "부결에 7표" in ack.ack  # the voter's own acknowledgement says how
    ctx.user_id = ctx.user_name = "Bob"
    reply = dispatch(ctx, "agenda vote", {"outcome": "가결", "votes": "2"})
    message = reply.embeds[0].body
    assert "Alice" in message and "Bob" in message and "7표" not in message and "2표" not in message
    shown = dispatch(ctx, "agenda show", {})
    assert "부결" not in "\n".join(p.description for p in shown.pages[1:])  # the log hides how, until close
    ctx.is_admin = True
    closed = dispatch(ctx, "agenda close", {})
    assert "부결** — 7표" in closed.embeds[0].body and "결과: 부결" in closed.embeds[0].body
    revealed = dispatch(ctx, "agenda show", {"id": "1"})
    assert f"{t('agenda.log.vote')} 부결 7" in "\n".join(p.description for p in revealed.pages[1:])


def test_showing_an_agenda_number_the_server_lacks_says_so_not_that_none_is_open(compendium, state):
    from tabletop.core.errors import UserError as Refused

    ctx = Context(compendium, state, user_id="Alice", user_name="Alice", guild_id="g", channel_id="c")
    dispatch(ctx, "agenda start", {"name": "열린 안건", "players": "Alice, Bob"})
    with pytest.raises(Refused) as exc:
        dispatch(ctx, "agenda show", {"id": "99"})
    assert said("agenda.no_such_id", exc.value.message, id=99) and not said("agenda.not_found", exc.value.message)
    other = Context(compendium, state, user_id="Eve", user_name="Eve", guild_id="h", channel_id="c")
    with pytest.raises(Refused) as exc:
        dispatch(other, "agenda show", {"id": "1"})  # another server's agenda is not said to exist
    assert "#1" in exc.value.message


def test_cancelling_a_secret_agenda_reveals_no_ballot(compendium, state):
    ctx = Context(compendium, state, user_id="Alice", user_name="Alice", guild_id="g", channel_id="c")
    dispatch(ctx, "agenda start", {"name": "비밀 안건", "players": "Alice, Bob", "secret": "true"})
    dispatch(ctx, "agenda vote", {"outcome": "부결", "votes": "7"})
    ctx.is_admin = True
    cancelled = dispatch(ctx, "agenda cancel", {})
    message = cancelled.embeds[0].body
    assert "Alice" in message and "7표" not in message and "부결** —" not in message
    shown = dispatch(ctx, "agenda show", {"id": "1"})
    assert f"{t('agenda.log.vote')} 부결 7" not in "\n".join(p.description for p in shown.pages[1:])


@pytest.mark.parametrize("locale, yes, no", [("en", "For", "Against"), ("ja", "可決", "否決"), ("ko", "가결", "부결")])
def test_for_and_against_are_shown_in_the_readers_language(cli_env, tmp_path, locale, yes, no):
    """The two outcomes of a for/against agenda are stored once; every reader sees them in their
    own language: the rows, the buttons, the acknowledgement and the result."""
    from run_bot import run_bot

    script = "/agenda start name:X\n1\n3\n/agenda close\n"
    out = run_bot(["console", "--locale", locale, "--state", str(tmp_path / "s.db")], cli_env, stdin=script)
    assert out.returncode == 0, out.stderr
    assert f"[1] {yes} [2] {no}" in out.stdout and f"{yes} — " in out.stdout and f"{no} — " in out.stdout
    assert locale == "ko" or ("가결" not in out.stdout and "부결" not in out.stdout)


def test_the_log_speaks_the_readers_language_on_every_page(cli_env, tmp_path):
    """Started in English, shown in Japanese: the first page was English and the log said
    'B: vote 가결 2' (the outcome as stored, the action as a code)."""
    env = {**cli_env, "STATE_DB": str(tmp_path / "state.db")}
    run_bot(["console", "--locale", "en"], env, stdin="/agenda start name:Test\nas B: /agenda vote outcome:for votes:2\n")
    shown = run_bot(["console", "--locale", "ja"], env, stdin="/agenda show\n").stdout
    assert f"B: {t('agenda.log.vote', 'ja')} 可決 2" in shown and "가결" not in shown
    assert t("agenda.type.for-against", "ja") in shown and t("agenda.type.for-against", "en") not in shown
