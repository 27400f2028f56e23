"""/agenda start|phase|pass|play|vote|abstain|predict|close|cancel|show|history through the
command table.

Each command returns an AgendaReply: the agenda message as it now is, plus a short
acknowledgement for the person who acted. Discord edits the one agenda message and answers the
actor privately; the console prints both.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from tabletop.agenda import phase as phases
from tabletop.agenda import rules, view
from tabletop.agenda.model import KINDS, MAX_NAME, MAX_VOTES, TYPES, Player, parse_people, split_outcomes
from tabletop.agenda.model import label as outcome_label
from tabletop.agenda.store import AgendaStore
from tabletop.agenda.view import agenda_reply, audit_pages, history_reply
from tabletop.agenda.windows import MAX_CARD, WINDOWS
from tabletop.core import settings
from tabletop.core.commands import Context, NoValues, Values, command, opt
from tabletop.core.components import InputField, Press
from tabletop.core.errors import UserError
from tabletop.core.i18n import t
from tabletop.core.render import Reply
from tabletop.core.timezones import server_zone
from tabletop.rules.compendium import compendium_of
from tabletop.store import state_of

# Agendas are voted in a server's channel: every agenda command needs one.
agenda_command = functools.partial(command, guild_only=True)
# Agenda ids are the store's row ids: a billion is more than any server will reach, and keeps the
# number within Discord's integer option.
MAX_AGENDA_ID = 10**9


@dataclass
class AgendaReply(Reply):
    agenda_id: int | None = None
    ack: str = ""  # shown to the actor only, on Discord


def store(ctx: Context) -> AgendaStore:
    return AgendaStore(state_of(ctx))


def me(ctx: Context) -> Player:
    return Player(str(ctx.user_id), ctx.user_name)


def _readable(ctx: Context) -> None:
    """No state database behind the stand-in: say why, not "no agenda here"."""
    if state_of(ctx).stand_in:
        raise UserError(str(state_of(ctx).refusal))


def _current(ctx: Context):
    _readable(ctx)
    agenda = store(ctx).current(ctx.guild_id, ctx.channel_id)
    if agenda is None:
        raise UserError(t("agenda.not_found"))
    return agenda


def _updated(agenda, ack: str) -> AgendaReply:
    reply = agenda_reply(agenda)
    return AgendaReply(content=ack, embeds=reply.embeds, rows=reply.rows, agenda_id=agenda.id, ack=ack)


def windows_default(ctx: Context, windows: bool | None) -> bool:
    """Windows as asked, else as the server's /settings agenda_windows: says (off by default)."""
    if windows is not None:
        return windows
    return settings.read(ctx.state, ctx.guild_id, settings.AGENDA_WINDOWS)


def _people(ctx: Context, players, speaker):
    people = parse_people(players, ctx.resolve_user)
    speaker_list = parse_people(speaker, ctx.resolve_user)
    the_speaker = speaker_list[0] if speaker_list else None
    if the_speaker:  # the speaker as listed among the players, if they are
        the_speaker = next((p for p in people if p.id == the_speaker.id or p.name == the_speaker.name), the_speaker)
    return people, the_speaker


PEOPLE_MAX_CHARS = 600  # a table's players as mentions or names: eight players fit with room
# One name typed in an option (a player, an outcome, an agenda): past it a sentence says so at
# once; the rules check their own limits (MAX_NAME) with theirs.
NAME_MAX_CHARS = 100


@dataclass(frozen=True)
class NewAgenda(Values):
    name: str = opt(required=True, max_length=NAME_MAX_CHARS)
    outcomes: str | None = opt(max_length=1500)  # up to MAX_OUTCOMES names, separated by commas
    type: str | None = opt(choices=TYPES)
    kind: str | None = opt(choices=KINDS)
    speaker: str | None = opt(max_length=NAME_MAX_CHARS)
    players: str | None = opt(max_length=PEOPLE_MAX_CHARS)
    secret: bool | None = opt()
    windows: bool | None = opt()
    no_token: str | None = opt(max_length=PEOPLE_MAX_CHARS)  # Stellar Atomics: players without its token
    hidden_agenda: bool | None = opt()  # the galactic event: secret ballots, the totals alone revealed


@agenda_command("agenda start", NewAgenda)
def start(ctx: Context, values: NewAgenda):
    listed = split_outcomes(values.outcomes)
    if values.outcomes is not None and values.outcomes.strip() and not listed:  # ',,,' names no outcome at all
        raise UserError(t("agenda.outcomes_empty", value=values.outcomes.strip()[:40]))
    people, the_speaker = _people(ctx, values.players, values.speaker)
    agenda = store(ctx).start(
        ctx.guild_id,
        ctx.channel_id,
        me(ctx),
        values.name,
        listed,
        values.type,
        values.kind,
        the_speaker,
        people,
        bool(values.secret),
        with_windows=windows_default(ctx, values.windows),
        barred=parse_people(values.no_token, ctx.resolve_user),
        totals_only=bool(values.hidden_agenda),
    )
    reply = _updated(agenda, "")
    return reply


@dataclass(frozen=True)
class AgendaPhase(Values):
    players: str = opt(required=True, max_length=PEOPLE_MAX_CHARS)
    speaker: str = opt(required=True, max_length=NAME_MAX_CHARS)
    windows: bool | None = opt()
    first: str | None = opt(max_length=NAME_MAX_CHARS)  # the agendas' names, as agenda start's
    second: str | None = opt(max_length=NAME_MAX_CHARS)
    no_token: str | None = opt(max_length=PEOPLE_MAX_CHARS)  # Stellar Atomics: players without its token
    hidden_agenda: bool | None = opt()


@agenda_command("agenda phase", AgendaPhase)
def phase(ctx: Context, values: AgendaPhase):
    """The whole agenda phase: the first agenda now, the second when it closes, then the
    reminder to ready planets (62.2-62.4)."""
    people, the_speaker = _people(ctx, values.players, values.speaker)
    names = [values.first or t("agenda.phase.first"), values.second or t("agenda.phase.second")]
    windows = windows_default(ctx, values.windows)
    barred = parse_people(values.no_token, ctx.resolve_user)
    agenda = phases.start(
        store(ctx), ctx.guild_id, ctx.channel_id, me(ctx), people, the_speaker, windows, names, barred, bool(values.hidden_agenda)
    )
    reply = _updated(agenda, t("agenda.phase.started", agenda=agenda.label))
    return reply


WINDOW = {"required": True, "choices": WINDOWS}


@dataclass(frozen=True)
class Pass(Values):
    window: str = opt(**WINDOW)
    lock: bool | None = opt()


@agenda_command("agenda pass", Pass)
def pass_(ctx: Context, values: Pass):
    return pass_window(ctx, _current(ctx).id, values.window, bool(values.lock))


def pass_window(ctx: Context, agenda_id: int, window: str | None, lasting: bool) -> AgendaReply:
    s = store(ctx)
    window = window or _open_window(ctx, agenda_id)
    agenda = s.pass_window(agenda_id, me(ctx), window, lasting)
    voter = rules.voter(agenda, me(ctx))
    key = "agenda.ack.pass_lasting" if lasting else "agenda.ack.pass"
    return _updated(agenda, t(key, voter=voter.name, window=t(f"agenda.window.{window}"), agenda=agenda.label))


@dataclass(frozen=True)
class Play(Values):
    window: str = opt(**WINDOW)
    card: str = opt(required=True, max_length=MAX_CARD)


@agenda_command("agenda play", Play)
def play(ctx: Context, values: Play):
    return play_card(ctx, _current(ctx).id, values.window, values.card)


def play_card(ctx: Context, agenda_id: int, window: str | None, card: str) -> AgendaReply:
    s = store(ctx)
    window = window or _open_window(ctx, agenda_id)
    agenda = s.play_card(agenda_id, me(ctx), window, card)
    played = agenda.plays[-1]
    return _updated(
        agenda,
        t(
            "agenda.ack.play",
            voter=played.player_name,
            card=played.card,
            window=t(f"agenda.window.{window}"),
        ),
    )


def _open_window(ctx: Context, agenda_id: int) -> str:
    """A button passes or plays in the window open now."""
    agenda = store(ctx).get(agenda_id)
    if agenda is None or agenda.window is None:
        raise UserError(t("agenda.no_window_open"))
    return agenda.window


@dataclass(frozen=True)
class Vote(Values):
    outcome: str = opt(required=True, max_length=NAME_MAX_CHARS)
    votes: int = opt(required=True, min_value=0, max_value=MAX_VOTES)


@agenda_command("agenda vote", Vote)
def vote(ctx: Context, values: Vote):
    return cast_vote(ctx, _current(ctx).id, values.outcome, values.votes)


def cast_vote(ctx: Context, agenda_id: int, outcome: str | None, votes: int) -> AgendaReply:
    s = store(ctx)
    agenda = s.vote(agenda_id, me(ctx), outcome, votes)
    # the acknowledgement says what was committed, for the listed player this user is ('bob'
    # and 'ＢＯＢ' are Bob)
    ballot = agenda.ballot_of(rules.voter(agenda, me(ctx)).id)
    if ballot and ballot.outcome:
        ack = t(
            "agenda.ack.vote",
            voter=ballot.voter_name,
            outcome=outcome_label(ballot.outcome),
            votes=ballot.votes,
            agenda=agenda.label,
        )
    else:
        ack = t("agenda.ack.abstain", voter=ballot.voter_name if ballot else ctx.user_name, agenda=agenda.label)
    return _updated(agenda, ack)


@agenda_command("agenda abstain")
def abstain(ctx: Context, values: NoValues):
    return cast_vote(ctx, _current(ctx).id, None, 0)


@dataclass(frozen=True)
class Prediction(Values):
    outcome: str = opt(required=True, max_length=NAME_MAX_CHARS)


@agenda_command("agenda predict", Prediction)
def predict(ctx: Context, values: Prediction):
    return make_prediction(ctx, _current(ctx).id, values.outcome)


def make_prediction(ctx: Context, agenda_id: int, outcome: str) -> AgendaReply:
    s = store(ctx)
    agenda = s.predict(agenda_id, me(ctx), outcome)
    name, chosen = agenda.predictions[rules.voter(agenda, me(ctx)).id]
    return _updated(agenda, t("agenda.ack.predict", voter=name, outcome=outcome_label(chosen), agenda=agenda.label))


@dataclass(frozen=True)
class Close(Values):
    choice: str | None = opt(max_length=NAME_MAX_CHARS)  # the speaker's choice among tied outcomes


@agenda_command("agenda close", Close)
def close(ctx: Context, values: Close):
    s = store(ctx)
    agenda = s.close(_current(ctx).id, me(ctx), ctx.is_admin, values.choice)
    winner = outcome_label(agenda.result["winner"]) if agenda.result else ""
    ack = t("agenda.ack.close", agenda=agenda.label, winner=winner)
    following, over = phases.advance(s, agenda, me(ctx))
    if following is not None:  # the result links to the phase's next agenda (62.3)
        ack += "\n" + t("agenda.phase.next", agenda=following.label)
    if over:  # 62.4, quoted from the rules
        ack += "\n" + t("agenda.phase.over", rule=ready_rule(ctx))
    reply = _updated(agenda, ack)
    if following is not None:  # its own message, with its own buttons
        nxt = _updated(following, "")
        reply.follow_ups.append(nxt)
    return reply


def ready_rule(ctx: Context) -> str:
    """62.4 as the glossary says it, for the reminder at the end of the phase."""
    section = compendium_of(ctx).section("ti4", "62") if ctx.compendium else None
    rule = section.rule("62.4") if section else None
    return f"62.4 {rule.text}" if rule else "62.4"


@agenda_command("agenda cancel")
def cancel(ctx: Context, values: NoValues):
    s = store(ctx)
    agenda = s.cancel(_current(ctx).id, me(ctx), ctx.is_admin)
    phases.end(s, agenda)
    return _updated(agenda, t("agenda.ack.cancel", agenda=agenda.label))


@dataclass(frozen=True)
class Which(Values):
    id: int | None = opt(min_value=1, max_value=MAX_AGENDA_ID)


@agenda_command("agenda show", Which, private=True)
def show(ctx: Context, values: Which):
    _readable(ctx)
    s = store(ctx)
    if values.id:
        agenda = s.get(values.id)
    else:  # the open agenda, else the channel's last one (a closed agenda's result stays reachable)
        agenda = s.current(ctx.guild_id, ctx.channel_id) or next(iter(s.history(ctx.guild_id, ctx.channel_id, 1)), None)
    if agenda is None or agenda.guild_id != str(ctx.guild_id):  # another server's is not said to exist
        raise UserError(t("agenda.no_such_id", id=values.id) if values.id else t("agenda.not_found"))
    return audit_pages(s, agenda, server_zone(ctx), me(ctx))


@agenda_command("agenda history", private=True)
def history(ctx: Context, values: NoValues):
    _readable(ctx)
    return history_reply(store(ctx).history(ctx.guild_id, ctx.channel_id))


# --- the agenda message's buttons: the same steps as the commands, with a form for the rest ---


def _pressed(ctx: Context, press: Press):
    """The open agenda a button belongs to (a closed one's buttons refuse, in a sentence)."""
    agenda = store(ctx).get(int(press.values["id"]))
    if agenda is None or not agenda.open:
        raise UserError(t("agenda.closed", name=agenda.name if agenda else "?"))
    return agenda


def _ballot(ctx: Context, press: Press, agenda, outcome: str | None) -> AgendaReply:
    """Votes for an outcome (None: a planet, named in the form); a stranger, or a player who
    may not vote, is refused before the form opens."""
    rules.acting(agenda, me(ctx))
    votes = InputField("votes", t("agenda.modal.votes"), max_length=len(str(MAX_VOTES)), placeholder=f"0-{MAX_VOTES}")
    fields = (InputField("planet", t("agenda.modal.planet"), MAX_NAME), votes) if outcome is None else (votes,)
    answers = press.ask(t("agenda.modal.title", outcome=outcome_label(outcome) or "🪐"), *fields)
    if not answers["votes"].isdigit():
        raise UserError(t("agenda.bad_number", limit=MAX_VOTES))
    return cast_vote(ctx, agenda.id, answers.get("planet", outcome), int(answers["votes"]))


def _outcome(ctx: Context, agenda, index: str | None) -> str:
    if index is None or not index.isdigit() or not 0 <= int(index) < len(agenda.outcomes):
        raise UserError(
            t("agenda.unknown_outcome", outcome=str(index)[:40], outcomes=", ".join(map(outcome_label, agenda.outcomes)))
        )
    return agenda.outcomes[int(index)]


@view.VOTE.on_press
def press_vote(ctx: Context, press: Press) -> AgendaReply:
    agenda = _pressed(ctx, press)
    return _ballot(ctx, press, agenda, _outcome(ctx, agenda, press.values["index"]))


@view.PICK.on_press
def press_pick(ctx: Context, press: Press) -> AgendaReply:
    agenda = _pressed(ctx, press)
    return _ballot(ctx, press, agenda, _outcome(ctx, agenda, press.chosen))


@view.PLANET.on_press
def press_planet(ctx: Context, press: Press) -> AgendaReply:
    return _ballot(ctx, press, _pressed(ctx, press), None)


@view.ABSTAIN.on_press
def press_abstain(ctx: Context, press: Press) -> AgendaReply:
    return cast_vote(ctx, _pressed(ctx, press).id, None, 0)


@view.PASS.on_press
def press_pass(ctx: Context, press: Press) -> AgendaReply:
    return pass_window(ctx, _pressed(ctx, press).id, None, False)


@view.PASS_LOCK.on_press
def press_pass_lock(ctx: Context, press: Press) -> AgendaReply:
    return pass_window(ctx, _pressed(ctx, press).id, None, True)


@view.PLAY.on_press
def press_play(ctx: Context, press: Press) -> AgendaReply:
    agenda = _pressed(ctx, press)
    rules.acting(agenda, me(ctx))  # a stranger, or a player without a Stellar Atomics token, before the form
    card = InputField("card", t("agenda.modal.card"), MAX_CARD)
    return play_card(ctx, agenda.id, None, press.ask(t("agenda.button.play"), card)["card"])


@view.PREDICT.on_press
def press_predict(ctx: Context, press: Press) -> AgendaReply:
    agenda = _pressed(ctx, press)
    rules.acting(agenda, me(ctx))  # refused before the form, as the command would be
    outcome = InputField("outcome", t("agenda.modal.predict"), MAX_NAME)
    guess = press.ask(t("agenda.button.predict"), outcome)["outcome"]
    if not guess:
        raise UserError(t("agenda.unknown_outcome", outcome="", outcomes=", ".join(map(outcome_label, agenda.outcomes))))
    return make_prediction(ctx, agenda.id, guess)
