"""The agenda phase's rules (glossary 62-63) as values: a new agenda checked, who a user votes as,
which outcome a typed word names, who may close or cancel, and how the ballots resolve. No
storage here: the store (store.py) reads and writes, and calls these under its locks."""

from __future__ import annotations

from tabletop.agenda.model import (
    AGAINST,
    FOR,
    KINDS,
    MAX_NAME,
    MAX_OUTCOMES,
    TYPES,
    Agenda,
    Player,
    clean,
    label,
    voting_order,
)
from tabletop.core import text
from tabletop.core.errors import UserError
from tabletop.core.i18n import current, t

_FOR_WORDS = {"가결", "for", "찬성", "yes", "y", "賛成", "可決"}
_AGAINST_WORDS = {"부결", "against", "반대", "no", "n", "反対", "否決"}


def checked(
    guild_id: str,
    channel_id: str,
    starter: Player,
    name: str,
    outcomes: list[str],
    outcome_type: str | None = None,
    card_kind: str | None = None,
    speaker: Player | None = None,
    players: list[Player] | None = None,
    secret: bool = False,
    with_windows: bool = False,
    barred: list[Player] | None = None,
    totals_only: bool = False,
) -> Agenda:
    """A new agenda, every value checked (a sentence for the first that is wrong); not yet
    stored, so its id is 0 (insert stores it)."""
    name = clean(name or "")
    outcomes = [clean(o) for o in outcomes]
    if not name:
        raise UserError(t("agenda.empty_name"))
    if len(name) > 100:
        raise UserError(t("agenda.name_too_long", limit=100))
    if outcome_type is None:  # outcomes without a type mean "elect from this list"
        outcome_type = "elect-other" if outcomes else "for-against"
    if outcome_type not in TYPES:
        raise UserError(t("agenda.bad_type", types=" | ".join(TYPES)))
    if outcome_type == "for-against" and outcomes:
        raise UserError(t("agenda.type_conflict"))
    if card_kind is not None and card_kind not in KINDS:
        raise UserError(t("agenda.bad_kind", kinds=" | ".join(KINDS)))
    players = players or []
    if outcome_type == "for-against":
        outcomes = [FOR, AGAINST]
    elif outcome_type == "elect-player" and not outcomes:
        outcomes = [p.name for p in players]
    if outcome_type != "elect-planet" and not outcomes:
        raise UserError(t("agenda.no_outcomes"))
    if len(outcomes) > MAX_OUTCOMES:
        raise UserError(t("agenda.too_many_outcomes", count=len(outcomes), limit=MAX_OUTCOMES))
    if any(len(o) > MAX_NAME for o in outcomes):
        raise UserError(t("agenda.outcome_too_long", limit=MAX_NAME))
    if len({text.key(o) for o in outcomes}) != len(outcomes) or any(not text.key(o) for o in outcomes):
        raise UserError(t("agenda.duplicate_outcome"))
    if with_windows and not players:  # every listed player passes: the list is needed
        raise UserError(t("agenda.windows_need_players"))
    speaker = speaker or None
    if speaker and players and not any(p.matches(speaker.id, speaker.name) for p in players):
        raise UserError(t("agenda.speaker_not_player", speaker=speaker.name, players=", ".join(p.name for p in players)))
    barred = _listed(barred or [], players)
    if totals_only and not speaker:  # the speaker tallies, and alone reads the ballots
        raise UserError(t("agenda.totals_only_need_speaker"))
    return Agenda(
        0,
        str(guild_id),
        str(channel_id),
        name,
        outcome_type,
        card_kind,
        outcomes,
        speaker,
        voting_order(players, speaker),
        starter,
        "open",
        locale=current(),  # the agenda's message stays in the language of who started it
        secret=bool(secret) or totals_only,
        windows=bool(with_windows),
        barred=barred,
        totals_only=bool(totals_only),
    )


def _listed(barred: list[Player], players: list[Player]) -> list[Player]:
    """Players named as without a Stellar Atomics token: each one of the listed players (as
    listed); without a list of players there is nobody to bar, which a sentence says."""
    if barred and not players:
        raise UserError(t("agenda.barred_need_players"))
    out = []
    for b in barred:
        found = next((p for p in players if p.matches(b.id, b.name)), None)
        if found is None:
            raise UserError(t("agenda.barred_not_player", name=b.name, players=", ".join(p.name for p in players)))
        if found not in out:
            out.append(found)
    return out


def acting(agenda: Agenda, user: Player) -> Player:
    """The listed player this user is, when they may vote or play an action card: one without a
    Stellar Atomics token may not (a sentence says why)."""
    player = voter(agenda, user)
    if any(b.matches(player.id, player.name) for b in agenda.barred):
        raise UserError(t("agenda.barred", voter=player.name))
    return player


def voter(agenda: Agenda, user: Player) -> Player:
    """The listed player this user is; UserError when players are listed and they are not."""
    if not agenda.players:
        return user
    for p in agenda.players:
        if p.matches(user.id, user.name):
            return p
    raise UserError(t("agenda.not_a_player", players=", ".join(p.name for p in agenda.players)))


def resolve_outcome(agenda: Agenda, outcome: str | None) -> str:
    outcome = outcome or ""
    k = text.key(outcome)
    if not k:  # nothing a name could match (🙂, punctuation): say what was typed
        shown = clean(outcome)[:40]
        raise UserError(t("agenda.unknown_outcome", outcome=shown, outcomes=", ".join(map(label, agenda.outcomes)) or "-"))
    if agenda.outcome_type == "for-against":
        if k in _FOR_WORDS:
            return FOR
        if k in _AGAINST_WORDS:
            return AGAINST
    for o in agenda.outcomes:
        if text.key(o) == k:
            return o
    if agenda.outcome_type == "elect-planet":  # any planet may be named (62.11)
        if len(clean(outcome)) > MAX_NAME:
            raise UserError(t("agenda.outcome_too_long", limit=MAX_NAME))
        return clean(outcome)
    raise UserError(t("agenda.unknown_outcome", outcome=outcome[:40], outcomes=", ".join(map(label, agenda.outcomes))))


def can_manage(agenda: Agenda, user: Player, is_admin: bool) -> bool:
    speaker = agenda.speaker
    return is_admin or agenda.starter.id == str(user.id) or (speaker is not None and speaker.matches(user.id, user.name))


def resolution(agenda: Agenda, user: Player, choice: str | None) -> dict:
    """Most votes wins; a tie is the speaker's choice among the tied (62.19)."""
    leaders = agenda.leaders()
    decided_by = "votes"
    if len(leaders) > 1:
        speaker = agenda.speaker or agenda.starter
        if not choice:
            raise UserError(t("agenda.tie_needs_choice", speaker=speaker.name, outcomes=", ".join(map(label, leaders))))
        if not speaker.matches(user.id, user.name):
            raise UserError(t("agenda.only_speaker_breaks_ties", speaker=speaker.name))
        chosen = resolve_outcome(agenda, choice)
        if chosen not in leaders:
            raise UserError(t("agenda.choice_not_tied", outcomes=", ".join(map(label, leaders))))
        winner, decided_by = chosen, "speaker"
    else:
        winner = leaders[0]
        if choice:  # a choice where there is no tie would be ignored: said, and nothing closed
            raise UserError(t("agenda.choice_without_tie", winner=label(winner)))
    return {
        "winner": winner,
        "decided_by": decided_by,
        "tally": agenda.tally(),
        "card": card_fate(agenda, winner),
        "predicted_right": [name for _, (name, outcome) in agenda.predictions.items() if outcome == winner],
    }


def card_fate(agenda: Agenda, winner: str) -> str | None:
    """What happens to the card: 'stays' or 'discarded' (None when the kind was not given)."""
    if agenda.card_kind == "directive":
        return "discarded"  # 63.8
    if agenda.card_kind == "law":
        if agenda.outcome_type == "for-against":
            return "stays" if winner == FOR else "discarded"  # 62.20 / 62.21, 63.3 / 63.6
        return "stays"  # an election law (62.20, 63.3)
    return None
