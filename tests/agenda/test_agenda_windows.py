"""The when and after windows, riders in the after window, and the agenda phase as a whole."""

from __future__ import annotations

import threading

import pytest
from discord_fakes import FakeBot, FakeInteraction, FakeUser, persistent_item, submit
from run_bot import run_bot
from said import pattern, said

from tabletop.agenda.model import Player
from tabletop.agenda.store import AgendaStore
from tabletop.agenda.view import agenda_reply
from tabletop.console.app import run_line
from tabletop.console.printed import printed
from tabletop.core.errors import UserError
from tabletop.core.i18n import t
from tabletop.store import open_state

A, B, C = (Player(f"name:{n.lower()}", n) for n in "ABC")
STARTER = Player("999", "Starter")


@pytest.fixture
def agendas(state):
    return AgendaStore(state)


def with_windows(agendas, players=(A, B, C)):
    return agendas.start("g", "c", STARTER, "W", [], "for-against", None, players[0], list(players), with_windows=True)


def text_of(replies) -> str:
    return "\n".join(printed(r) for r in replies)


def test_the_issue_script_works_as_written(cli_env):
    script = """/agenda start name:W players:A, B, C speaker:A windows:true
as B: /agenda vote outcome:가결 votes:2
as B: /agenda pass window:when
as C: /agenda pass window:when
as A: /agenda pass window:when
as C: /agenda predict outcome:가결
as B: /agenda pass window:after
as C: /agenda pass window:after
as A: /agenda pass window:after
as B: /agenda vote outcome:가결 votes:2
/agenda show
"""
    out = run_bot(["console"], cli_env, stdin=script)
    assert out.returncode == 0 and "Traceback" not in out.stdout + out.stderr
    refused, rest = out.stdout.split(t("agenda.window_open", window=t("agenda.window.when"), players="B, C, A"), 1)
    assert not said("agenda.ack.vote", refused, votes=2)  # the first vote is refused by that sentence
    voted = pattern("agenda.ack.vote", voter="B", outcome="가결", votes=2)
    assert voted.search(rest)
    show = voted.split(rest, 1)[1]  # the agenda after the vote, and /agenda show
    assert show.count("가결 — 2표 · B 2") >= 2 and "C → 가결" in show


def test_no_vote_before_both_windows_close(agendas):
    a = with_windows(agendas)
    with pytest.raises(UserError) as exc:
        agendas.vote(a.id, B, "가결", 2)
    assert said("agenda.window_open", exc.value.message, window=t("agenda.window.when"))
    for p in (A, B, C):
        agendas.pass_window(a.id, p, "when")
    with pytest.raises(UserError) as exc:
        agendas.abstain(a.id, B)
    assert said("agenda.window_open", exc.value.message, window=t("agenda.window.after"), players="B, C, A")
    for p in (A, B, C):
        a = agendas.pass_window(a.id, p, "after")
    assert a.window is None and agendas.vote(a.id, B, "가결", 2).tally()["가결"] == 2


def test_a_card_reopens_the_window_except_for_a_lasting_pass(agendas):
    a = with_windows(agendas)
    agendas.pass_window(a.id, A, "when", lasting=True)
    agendas.pass_window(a.id, B, "when")
    a = agendas.play_card(a.id, C, "when", "Veto")
    assert a.window == "when" and [p.player_name for p in a.passes] == ["A"]  # B must answer again
    assert a.plays[0].card == "Veto" and "C: Veto" in printed(agenda_reply(a))
    agendas.pass_window(a.id, B, "when")
    a = agendas.pass_window(a.id, C, "when")
    assert a.window == "after"


def test_riders_and_predictions_only_in_the_after_window(agendas):
    a = with_windows(agendas)
    with pytest.raises(UserError) as exc:
        agendas.predict(a.id, C, "가결")
    assert said("agenda.predict_in_after", exc.value.message)
    for p in (A, B, C):
        agendas.pass_window(a.id, p, "when")
    assert agendas.predict(a.id, C, "가결").predictions[C.id] == ("C", "가결")


@pytest.mark.parametrize(
    "window, player, key",
    [
        ("after", A, "agenda.window_not_yet"),
        ("during", A, "agenda.bad_window"),
        ("when", Player("x", "Mallory"), "agenda.not_a_player"),
    ],
)
def test_a_pass_out_of_turn_is_refused_with_a_sentence(agendas, window, player, key):
    a = with_windows(agendas)
    with pytest.raises(UserError) as exc:
        agendas.pass_window(a.id, player, window)
    assert said(key, exc.value.message)
    assert agendas.get(a.id).passes == []


def test_windows_need_the_players_and_an_agenda_without_them_has_none(agendas):
    with pytest.raises(UserError) as exc:
        agendas.start("g", "c", STARTER, "W", [], "for-against", with_windows=True)
    assert said("agenda.windows_need_players", exc.value.message)
    plain = agendas.start("g", "c", STARTER, "W", [], "for-against", players=[A, B])
    with pytest.raises(UserError) as exc:
        agendas.pass_window(plain.id, A, "when")
    assert said("agenda.no_windows", exc.value.message, agenda=plain.label)


def test_passes_from_two_processes_at_once_all_count(state, tmp_path):
    """Two connections (as two processes) pass for different players at the same time: the
    window closes exactly when the last pass commits."""
    store = AgendaStore(state)
    players = [Player(f"p{i}", f"P{i}") for i in range(8)]
    a = with_windows(store, players)
    other = AgendaStore(open_state(state.path))

    def pass_all(s, chunk):
        for p in chunk:
            s.pass_window(a.id, p, "when")

    threads = [threading.Thread(target=pass_all, args=(s, players[i::2])) for i, s in enumerate((store, other))]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert store.get(a.id).window == "after" and len(store.get(a.id).passes) == 8


def test_a_whole_phase_runs_two_agendas_then_the_ready_reminder(compendium, state):
    from tabletop.core.commands import Context

    ctx = Context(compendium, state, user_id="A", user_name="A", guild_id="g", channel_id="c")
    out = text_of(run_line(ctx, "/agenda phase players:A, B speaker:A"))
    assert t("agenda.title", id=1, name=t("agenda.phase.first")) in out
    run_line(ctx, "as B: /agenda vote outcome:가결 votes:3")
    out = text_of(run_line(ctx, "/agenda close"))
    second = t("agenda.phase.second")
    assert t("agenda.phase.next", agenda=f"#2 {second}") in out and t("agenda.title", id=2, name=second) in out
    run_line(ctx, "as B: /agenda vote outcome:부결 votes:1")
    out = text_of(run_line(ctx, "/agenda close"))
    ready = compendium.section("ti4", "62").rule("62.4").text
    assert said("agenda.phase.over", out) and ready in out
    assert "정책 #3" not in out and AgendaStore(state).current("g", "c") is None


def test_the_server_setting_opens_agendas_with_windows(compendium, state):
    from tabletop.core.commands import Context

    admin = Context(compendium, state, user_id="A", user_name="A", guild_id="g", channel_id="c", is_admin=True)
    assert said("settings.agenda_windows", text_of(run_line(admin, "/settings agenda_windows:true")), state=t("settings.on"))
    out = text_of(run_line(admin, "/agenda start name:W players:A, B speaker:A"))
    when = t("agenda.window.when")
    assert when in out and f"[{t('agenda.button.pass', window=when)}]" in out


@pytest.mark.parametrize(
    "line, expected",
    [
        ("/agenda start name:W outcomes:,,,", t("agenda.outcomes_empty", value=",,,")),
        ("/agenda start name:W outcomes:a, b", ""),
    ],
)
def test_outcomes_that_name_nothing_are_refused(compendium, state, line, expected):
    from tabletop.core.commands import Context

    ctx = Context(compendium, state, user_id="A", user_name="A", guild_id="g", channel_id="c")
    out = text_of(run_line(ctx, line))
    if expected:
        assert expected in out and AgendaStore(state).current("g", "c") is None
    else:
        assert AgendaStore(state).current("g", "c").outcomes == ["a", "b"]


def test_hostile_names_outcomes_and_the_last_agenda(compendium, state):
    from tabletop.core.commands import Context

    ctx = Context(compendium, state, user_id="A", user_name="A", guild_id="g", channel_id="c", is_admin=True)
    run_line(ctx, "/agenda start name:\u202eW\x1b[31m outcomes:x\u202e, y")
    agenda = AgendaStore(state).current("g", "c")
    assert agenda.name == "W [31m" and agenda.outcomes == ["x", "y"]  # no override, no escape left
    assert "'🙂'" in text_of(run_line(ctx, "/agenda vote outcome:🙂 votes:1"))
    run_line(ctx, "/agenda vote outcome:x votes:1")
    run_line(ctx, "/agenda close")
    shown = text_of(run_line(ctx, "/agenda show"))  # after close: the channel's last agenda
    assert t("agenda.result", winner="x") in shown


async def test_discord_buttons_pass_and_play_and_survive_a_restart(compendium, state):
    from cogs.commands import slash
    from cogs.components import Form

    bot = FakeBot(compendium=compendium, state=state, user=FakeUser(999, "bot", bot=True))
    starting = FakeInteraction(bot)
    await slash("agenda start").callback(starting, name="W", players="<@1> <@2>", speaker="<@1>", windows=True)
    ids = [c.custom_id for c in starting.log[0].items]
    assert ids == ["agenda:1:pass", "agenda:1:passlock", "agenda:1:play"]  # no vote buttons yet
    bot.state = open_state(state.path)  # a restart: buttons rebuilt from their custom_id alone
    click = FakeInteraction(bot, user=FakeUser(2, "Bob"))
    await persistent_item("agenda:1:play").callback(click)
    modal = click.log[0].kwargs["modal"]
    assert isinstance(modal, Form) and list(modal.boxes) == ["card"]
    modal.boxes["card"]._value = "Veto"
    submitter = FakeInteraction(bot, user=FakeUser(2, "Bob"))
    await submit(modal, submitter)
    assert any("Veto" in f.value for f in submitter.log[0].embed.fields)
    for uid in (1, 2):
        inter = FakeInteraction(bot, user=FakeUser(uid, f"P{uid}"))
        await persistent_item("agenda:1:pass").callback(inter)
        assert inter.log[-1].ephemeral and said("agenda.ack.pass", inter.log[-1].text)
    assert AgendaStore(bot.state).get(1).window == "after"
    early = FakeInteraction(bot, user=FakeUser(2, "Bob"))
    with pytest.raises(UserError) as exc:  # the error handler answers it privately
        await slash("agenda vote").callback(early, outcome="가결", votes=1)
    assert said("agenda.window_open", exc.value.message, window=t("agenda.window.after"))
    assert AgendaStore(bot.state).get(1).ballots == []


async def test_discord_runs_a_whole_phase_with_a_message_per_agenda(compendium, state):
    from cogs.commands import slash

    bot = FakeBot(compendium=compendium, state=state, user=FakeUser(999, "bot", bot=True))
    speaker = FakeInteraction(bot, user=FakeUser(1, "Alice"))
    await slash("agenda phase").callback(speaker, players="<@1> <@2>", speaker="<@1>")
    assert speaker.log[0].embed.title == t("agenda.title", id=1, name=t("agenda.phase.first"))
    await slash("agenda vote").callback(FakeInteraction(bot, user=FakeUser(2, "Bob")), outcome="가결", votes=2)
    closing = FakeInteraction(bot, user=FakeUser(1, "Alice"))
    await slash("agenda close").callback(closing)
    result, *rest = closing.log
    second = t("agenda.phase.second")
    assert t("agenda.phase.next", agenda=f"#2 {second}") in result.text
    posted = [s for s in rest if s.method == "followup" and s.kwargs.get("view") is not None]
    assert posted and posted[0].embed.title == t("agenda.title", id=2, name=second)  # its own message, with buttons
    assert AgendaStore(state).get(2).message_id is not None  # later clicks edit that message
    await slash("agenda vote").callback(FakeInteraction(bot, user=FakeUser(2, "Bob")), outcome="부결", votes=1)
    last = FakeInteraction(bot, user=FakeUser(1, "Alice"))
    await slash("agenda close").callback(last)
    assert said("agenda.phase.over", last.log[0].text) and "62.4" in last.log[0].text


def test_a_window_cancelled_before_it_opened_is_not_shown_closed(agendas):
    a = with_windows(agendas)
    agendas.pass_window(a.id, A, "when")
    cancelled = agendas.cancel(a.id, STARTER, True)
    fields = dict(agenda_reply(cancelled).embeds[0].fields)
    after = fields[t("agenda.window.after")]
    assert t("agenda.window.not_opened") in after and t("agenda.window.closed") not in after


def test_the_window_open_when_the_agenda_was_cancelled_is_shown_cancelled_not_closed(agendas):
    a = with_windows(agendas)
    agendas.pass_window(a.id, A, "when")  # B and C have not passed: the when window is still open
    cancelled = agendas.cancel(a.id, STARTER, True)
    fields = dict(agenda_reply(cancelled).embeds[0].fields)
    when = fields[t("agenda.window.when")]
    assert t("agenda.status.cancelled") in when and t("agenda.window.closed") not in when
    assert t("agenda.window.not_opened") in fields[t("agenda.window.after")]


def test_windows_all_passed_before_a_cancel_are_shown_closed(agendas):
    a = with_windows(agendas)
    for window in ("when", "after"):
        for player in (A, B, C):
            agendas.pass_window(a.id, player, window)
    cancelled = agendas.cancel(a.id, STARTER, True)
    fields = dict(agenda_reply(cancelled).embeds[0].fields)
    assert all(t("agenda.window.closed") in fields[t(f"agenda.window.{name}")] for name in ("when", "after"))


def test_a_window_still_open_when_the_speaker_closes_is_shown_cut_short(agendas):
    a = with_windows(agendas)
    agendas.pass_window(a.id, A, "when")  # B and C have not passed when the agenda is closed
    closed = agendas.close(a.id, A, True, "가결")
    fields = dict(agenda_reply(closed).embeds[0].fields)
    when = fields[t("agenda.window.when")]
    assert "⏹" in when and t("agenda.window.closed") not in when
    assert t("agenda.window.not_opened") in fields[t("agenda.window.after")]
