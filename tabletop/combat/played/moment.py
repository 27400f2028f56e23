"""Where the dice and the exact solvers meet the played cards (the package's registry): the hits
a card cancels before they are assigned, the cards played after a round's hits, and the fight
that follows a card, which is the fight of the sides it left, without it, from the next round.

Within a round the cards are played in the order of their `step`, the attacker's before the
defender's within a step, each seeing the sides as the cards before it left them."""

from __future__ import annotations

from collections.abc import Callable
from copy import copy
from dataclasses import dataclass, replace

from tabletop.combat.battle import ATTACKER, DEFENDER, Fight
from tabletop.combat.model import Die, SideModel, State
from tabletop.combat.played.card import CARDS, Moment
from tabletop.combat.units import Side
from tabletop.core.i18n import t

# hits of a card's own dice -> their chance (the odds: every number; the dice: the one rolled)
Roll = Callable[[tuple[Die, ...]], list[tuple[int, float]]]


@dataclass(frozen=True)
class Outcome:
    """One way the cards played after a round leave the fight: its chance, both sides, and the
    log's lines (side, card, message key, values), in the order the cards were played."""

    chance: float
    attacker: Side
    defender: Side
    logs: tuple[tuple[str, str, str, dict], ...]


def holds(fight: Fight) -> bool:
    """Whether a side holds a card still to be played."""
    return bool(fight.attacker.effects.played or fight.defender.effects.played)


def _ready(fight: Fight, name: str, number: int) -> list[str]:
    """The cards a side may play in this round, in the registry's order."""
    held = fight.side(name).effects.played
    return [c for c in CARDS if c in held and number >= held[c] and fight.kind in CARDS[c].fights]


def most_cancelled(fight: Fight, name: str) -> int:
    """The most hits the cards a side holds can cancel: the hits that can matter against it are
    that many more than its units and sustains can take."""
    return sum(CARDS[card].most_cancelled for card in fight.side(name).effects.played)


def cancelled(fight: Fight, name: str, hits: int, number: int) -> tuple[int, str | None]:
    """The hits side `name` takes once a card it holds has cancelled some, and that card."""
    for card in _ready(fight, name, number):
        cancels = CARDS[card].cancels(hits)
        if cancels:
            return hits - min(hits, cancels), card
    return hits, None


def after_round(
    fight: Fight,
    models: tuple[SideModel, SideModel],
    before: tuple[State, State],
    after: tuple[State, State],
    number: int,
    spent: dict[str, str],
    roll: Roll,
) -> list[Outcome] | None:
    """The cards played once a round's hits are assigned, and the sides they leave for each
    roll of their dice; None when no card was played in this round (`spent`: side -> a card
    it played before the hits, Hardlight)."""
    moments = {
        name: Moment.of(fight.kind, number, model, b, a) for name, model, b, a in zip((ATTACKER, DEFENDER), models, before, after)
    }
    ways: list[tuple[float, dict[str, Moment], tuple, dict[str, set[str]]]] = [
        (1.0, moments, (), {name: {spent[name]} if name in spent else set() for name in (ATTACKER, DEFENDER)})
    ]
    cards = sorted(
        (
            (CARDS[card].step, n, name, card)
            for n, name in enumerate((ATTACKER, DEFENDER))
            for card in _ready(fight, name, number)
        ),
    )
    for *_, name, card in cards:
        other = DEFENDER if name == ATTACKER else ATTACKER
        grown = []
        for chance, now, logs, used in ways:
            played = None if card in used[name] else CARDS[card].after_round(now[name], now[other])
            if played is None:
                grown.append((chance, now, logs, used))
                continue
            for hits, q in roll(played.dice) if played.dice else [(0, 1.0)]:
                holder, opponent, (key, values) = played.sides(hits)
                grown.append(
                    (
                        chance * q,
                        {name: holder, other: opponent},
                        (*logs, (name, card, key, values)),
                        {**used, name: used[name] | {card}},
                    )
                )
        ways = grown
    if not spent and all(not logs for _, _, logs, _ in ways):
        return None
    return [
        Outcome(chance, _side(fight, ATTACKER, now, used), _side(fight, DEFENDER, now, used), logs)
        for chance, now, logs, used in ways
        if chance > 0
    ]


def _side(fight: Fight, name: str, now: dict[str, Moment], used: dict[str, set[str]]) -> Side:
    """A side as the cards left it: its units alive with their damage, its cards played gone."""
    side = fight.side(name)
    played = {card: start for card, start in side.effects.played.items() if card not in used[name]}
    out = side.with_units(now[name].units())
    out.effects = copy(side.effects)  # (dataclasses.replace checks each of its many fields: slow here)
    out.effects.played = played
    return out


def resumed(fight: Fight, attacker: Side, defender: Side, rounds: int) -> Fight:
    """The fight that follows a card played in round `rounds`: these sides, counted from a
    round 1 that is the next one (what only the first round does is done; a retreat, a stop, a
    re-roll and a card's "from round N" keep their own rounds)."""

    def later(side: Side) -> Side:
        effects = side.effects
        out = side.with_units(side.units)
        out.effects = replace(
            effects,
            round_modifier=0,
            silence_round=False,
            reroll_misses_round=max(0, effects.reroll_misses_round - rounds),
            played={card: max(1, start - rounds) for card, start in effects.played.items()},
        )
        return out

    retreat = (fight.retreat[0], fight.retreat[1] - rounds) if fight.retreat else None
    stop = fight.stop_after - rounds if fight.stop_after is not None else None
    return replace(fight, attacker=later(attacker), defender=later(defender), retreat=retreat, stop_after=stop, notes=[])


def label(side: Side, card: str) -> str:
    """The card's name as the player named it on this side."""
    return side.effect_names[side.effect_ids.index(card)] if card in side.effect_ids else card


def notes(fight: Fight) -> list[str]:
    """What the reply says of each card held: when it is played (at its first opportunity, or
    from the round the player gave), or that this kind of fight never gives it one."""
    out = []
    for name in (ATTACKER, DEFENDER):
        side = fight.side(name)
        for card, start in side.effects.played.items():
            values = {"card": label(side, card), "side": t(f"combat.{name}")}
            if fight.kind not in CARDS[card].fights:
                out.append(t("combat.played.idle", **values))
            elif start > 1:
                out.append(t("combat.played.from", round=start, when=t(f"combat.played.when.{card}"), **values))
            else:
                name_typed = values["card"].split(" (")[0]
                out.append(t("combat.played.default", when=t(f"combat.played.when.{card}"), name=name_typed, **values))
    return out
