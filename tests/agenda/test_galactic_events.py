"""Thunder's Edge galactic events that change the agenda phase. Stellar Atomics: a player whose
token left its card cannot vote or play action cards (a rider's prediction included) in the
agenda phase; they may still abstain and pass, and the order of voting passes them over."""

from __future__ import annotations

import pytest
from run_bot import run_bot
from said import said

from tabletop.agenda import phase
from tabletop.agenda.model import FOR, Player
from tabletop.agenda.store import AgendaStore
from tabletop.core.errors import UserError
from tabletop.core.i18n import t
from tabletop.store import open_state

A, B, C = (Player(f"name:{n.lower()}", n) for n in "ABC")
STARTER = Player("999", "Starter")


@pytest.fixture
def agendas(state):
    return AgendaStore(state)


def start(agendas, barred, windows=False):
    return agendas.start("g", "c", STARTER, "S", [], "for-against", None, A, [A, B, C], with_windows=windows, barred=barred)


def test_a_player_without_a_token_cannot_vote_but_may_abstain(agendas, state):
    a = start(agendas, [Player("", "b")])  # named as typed: the listed player B
    assert a.barred == [B] and a.next_voter() == C  # voting order: B, C, then the speaker A
    with pytest.raises(UserError) as exc:
        agendas.vote(a.id, B, "가결", 3)
    assert said("agenda.barred", exc.value.message, voter="B")
    assert agendas.get(a.id).ballots == []  # refused: nothing recorded
    a = agendas.abstain(a.id, B)
    a = agendas.vote(a.id, C, "가결", 2)
    assert a.tally()[FOR] == 2
    again = AgendaStore(open_state(state.path)).get(a.id)  # kept by the database, as a restart reads it
    assert again is not None and again.barred == [B]


def test_without_a_token_no_action_card_and_no_prediction(agendas):
    a = start(agendas, [C], windows=True)
    with pytest.raises(UserError) as exc:
        agendas.play_card(a.id, C, "when", "Veto")
    assert said("agenda.barred", exc.value.message, voter="C")
    agendas.pass_window(a.id, C, "when")  # passing is neither
    for p in (A, B):
        agendas.pass_window(a.id, p, "when")
    with pytest.raises(UserError) as exc:
        agendas.predict(a.id, C, "가결")
    assert said("agenda.barred", exc.value.message, voter="C")
    assert agendas.predict(a.id, B, "가결").predictions


def test_only_listed_players_can_be_without_a_token(agendas):
    with pytest.raises(UserError) as exc:
        start(agendas, [Player("", "Zed")])
    assert said("agenda.barred_not_player", exc.value.message, name="Zed")
    with pytest.raises(UserError) as exc:
        agendas.start("g", "c", STARTER, "S", [], "for-against", None, None, [], barred=[A])
    assert said("agenda.barred_need_players", exc.value.message)


def test_the_phases_second_agenda_keeps_who_has_no_token(agendas):
    first = phase.start(agendas, "g", "c", STARTER, [A, B, C], A, False, ["1", "2"], [B])
    agendas.vote(first.id, C, "가결", 1)
    closed = agendas.close(first.id, A, False)
    second, over = phase.advance(agendas, closed, A)
    assert second is not None and not over and second.barred == [B]


def test_the_console_takes_no_token_and_says_it_on_the_message(cli_env):
    script = "/agenda start name:S players:A, B, C speaker:A no_token:B\nas B: /agenda vote outcome:가결 votes:2\n"
    out = run_bot(["console"], cli_env, stdin=script)
    assert out.returncode == 0 and "Traceback" not in out.stdout + out.stderr
    assert t("agenda.barred_line", players="B") in out.stdout
    assert said("agenda.barred", out.stdout, voter="B")


def test_hidden_agenda_reveals_the_totals_only_and_the_ballots_to_the_speaker_alone(agendas):
    from zoneinfo import ZoneInfo

    from tabletop.agenda.view import agenda_reply, audit_pages
    from tabletop.console.printed import printed

    a = agendas.start("g", "c", STARTER, "H", [], "for-against", None, A, [A, B, C], totals_only=True)
    assert a.secret and a.totals_only  # Hidden Agenda's ballots are secret
    agendas.vote(a.id, B, "가결", 3)
    agendas.vote(a.id, C, "부결", 2)
    closed = agendas.close(a.id, A, False)
    shown = printed(agenda_reply(closed))
    assert "가결 — 3표" in shown and "부결 — 2표" in shown
    assert "B 3" not in shown and "C 2" not in shown  # who voted how stays hidden after closing
    log_for = {p.name: printed(audit_pages(agendas, closed, ZoneInfo("UTC"), p).reply(1)) for p in (A, B)}
    assert "가결 3" in log_for["A"] and "가결 3" not in log_for["B"]  # the speaker alone reads the ballots
    with pytest.raises(UserError) as exc:
        agendas.start("g", "c2", STARTER, "H", [], "for-against", None, None, [A, B], totals_only=True)
    assert said("agenda.totals_only_need_speaker", exc.value.message)


def test_hidden_agenda_is_an_option_of_the_commands(cli_env):
    script = (
        "/agenda start name:H players:A, B speaker:A hidden_agenda:true\nas B: /agenda vote outcome:가결 votes:2\n/agenda close\n"
    )
    out = run_bot(["console"], cli_env, stdin=script)
    assert out.returncode == 0 and "Traceback" not in out.stdout + out.stderr
    assert t("agenda.totals_only") in out.stdout and "가결 — 2표" in out.stdout and "B 2" not in out.stdout


def test_hidden_agenda_hides_abstentions_and_is_not_read_under_the_speakers_name(agendas):
    from zoneinfo import ZoneInfo

    from tabletop.agenda.view import audit_pages
    from tabletop.console.printed import printed

    speaker = Player("111", "Alice")
    bob, carol = Player("222", "Bob"), Player("333", "Carol")
    a = agendas.start("g", "c", STARTER, "H", [], "for-against", None, speaker, [bob, carol, speaker], totals_only=True)
    agendas.vote(a.id, bob, "가결", 3)
    agendas.abstain(a.id, carol)
    closed = agendas.close(a.id, speaker, False)

    def log(viewer: Player) -> str:
        return printed(audit_pages(agendas, closed, ZoneInfo("UTC"), viewer).reply(1))

    assert t("agenda.log.abstain") not in log(carol) and f"Carol: {t('agenda.log.vote')}" in log(
        carol
    )  # a ballot, not which kind
    assert "가결 3" not in log(Player("999", "alice"))  # another account under the speaker's name
    assert "가결 3" in log(speaker) and t("agenda.log.abstain") in log(speaker)
