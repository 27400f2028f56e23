"""Where the dice and the exact solvers meet the played cards (the package's registry): the hits
a card cancels before they are assigned, the cards played after a volley's hits (a combat round's,
or a roll's before the rounds) and at the start of the rounds, and the fight that follows a card,
which is the fight of the sides it left, without it, from the next round.

Within a volley the cards are played in the order of their `step`, the attacker's before the
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
NAMES = (ATTACKER, DEFENDER)


@dataclass(frozen=True)
class Outcome:
    """One way the cards played leave the fight: its chance, both sides, and the log's lines
    (side, card, message key, values), in the order the cards were played."""

    chance: float
    attacker: Side
    defender: Side
    logs: tuple[tuple[str, str, str, dict], ...]


def holds(attacker: Side, defender: Side) -> bool:
    """Whether a side holds a card still to be played."""
    return bool(attacker.effects.played or defender.effects.played)


def _ready(side: Side, kind: str, number: int) -> list[str]:
    """The cards a side may play in this round, in the registry's order."""
    held = side.effects.played
    return [c for c in CARDS if c in held and number >= held[c] and kind in CARDS[c].fights]


def most_cancelled(side: Side) -> int:
    """The most hits the cards a side holds can cancel: the hits that can matter against it are
    that many more than its units and sustains can take."""
    return sum(CARDS[card].most_cancelled for card in side.effects.played)


def cancelled(side: Side, kind: str, hits: int, number: int, wipes: Callable[[int], bool]) -> tuple[int, str | None]:
    """The hits a side takes once a card it holds has cancelled some, and that card (`wipes`:
    whether so many hits would destroy every unit of it)."""
    for card in _ready(side, kind, number):
        cancels = CARDS[card].cancels(hits, hits > 0 and wipes(hits))
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
    """The cards played once a round's hits are assigned, and the sides they leave for each roll
    of their dice; None when no card was played in it (`spent`: side -> a card it played before
    the hits were assigned, Hardlight)."""
    moments = {name: Moment.of(fight.kind, number, m, b, a) for name, m, b, a in zip(NAMES, models, before, after)}
    sides = {name: model.side for name, model in zip(NAMES, models)}  # the sides the models were made of
    return _played(fight.kind, sides, moments, number, spent, roll)


def after_volley(
    kind: str, volley: str, sides: tuple[Side, Side], target: str, hit: tuple[Side, Side, list], spent: dict[str, str], roll: Roll
) -> list[Outcome] | None:
    """The cards played after a roll before the rounds (`volley`: its kind): `sides` as they
    are after it, `hit` the target side before and after its hits and their events."""
    shooter = DEFENDER if target == ATTACKER else ATTACKER
    now = dict(zip(NAMES, sides))
    other = now[shooter]
    damaged = frozenset(id(u) for u in other.units if u.damaged)
    moments = {
        target: Moment.of_side(kind, volley, *hit),
        shooter: Moment(
            kind,
            0,
            tuple(other.units),
            tuple(other.units),
            damaged,
            frozenset(id(u) for u in other.units if u.sustain),
            volley=volley,
        ),
    }
    return _played(kind, now, moments, 1, spent, roll)


def volley(fight: Fight, attack, attacker: Side, defender: Side, hits: int, roll: Roll) -> list[tuple[Outcome, list, int]]:
    """A roll before the rounds (battle.Attack) that made these hits: each way the sides end,
    with the cards played on it (Hardlight on its hits before they are assigned, the others
    after) in its log, the hits' events and the hits left with nothing to hit (HitPlan.apply)."""
    target = DEFENDER if attack.shooter == ATTACKER else ATTACKER
    sides = {ATTACKER: attacker, DEFENDER: defender}
    plan = fight.hit_plan(attack, sides[target], sides[attack.shooter])
    spent: dict[str, str] = {}
    logs: tuple = ()
    if holds(attacker, defender) and plan.apply(hits)[1]:  # a card is for hits that strike something

        def wipes(count: int) -> bool:
            return not fight.participants(plan.apply(count)[0], target)

        left, card = cancelled(sides[target], fight.kind, hits, 1, wipes)
        if card is not None:
            spent, logs = {target: card}, ((target, card, "combat.played.cancelled", {"hits": hits - left}),)
            hits = left
    after, events, excess = plan.apply(hits)
    now = {**sides, target: after}
    played = None
    if holds(attacker, defender):
        hit = (sides[target], after, events)
        played = after_volley(fight.kind, attack.kind, (now[ATTACKER], now[DEFENDER]), target, hit, spent, roll)
    if not played:
        return [(Outcome(1.0, now[ATTACKER], now[DEFENDER], logs), events, excess)]
    return [(replace(o, logs=logs + o.logs), events, excess) for o in played]


def going_on(fight: Fight, attacker: Side, defender: Side) -> Fight:
    """The fight these sides go on in after the rolls before the rounds: the fight's own, or,
    once a card was played on them, the fight of sides that no longer hold it."""
    if (attacker.effects.played, defender.effects.played) == (fight.attacker.effects.played, fight.defender.effects.played):
        return fight
    return replace(fight, attacker=attacker, defender=defender)


def at_start(kind: str, attacker: Side, defender: Side) -> Outcome | None:
    """The cards played at the start of the combat rounds (Emergency Repairs on units damaged
    before them), on the sides the rolls before the rounds left."""
    sides = {ATTACKER: attacker, DEFENDER: defender}
    moments = {}
    for name, side in sides.items():
        damaged = frozenset(id(u) for u in side.units if u.damaged)
        units = tuple(side.units)
        moments[name] = Moment(kind, 1, units, units, damaged, frozenset(id(u) for u in units if u.sustain), volley="start")
    starting = {name: [c for c in _ready(sides[name], kind, 1) if CARDS[c].at_start(moments[name])] for name in NAMES}
    if not any(starting.values()):
        return None
    played = _played(kind, sides, moments, 1, {}, lambda dice: [(0, 1.0)], only=starting)
    return played[0] if played else None


def _played(
    kind: str,
    sides: dict[str, Side],
    moments: dict[str, Moment],
    number: int,
    spent: dict[str, str],
    roll: Roll,
    only: dict[str, list[str]] | None = None,
) -> list[Outcome] | None:
    ways: list[tuple[float, dict[str, Moment], tuple, dict[str, set[str]]]] = [
        (1.0, moments, (), {name: {spent[name]} if name in spent else set() for name in NAMES})
    ]
    ready = only or {name: _ready(sides[name], kind, number) for name in NAMES}
    order = sorted((CARDS[card].step, n, who, card) for n, who in enumerate(NAMES) for card in ready[who])
    for *_, name, card in order:
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
        Outcome(
            chance,
            _side(sides[ATTACKER], now[ATTACKER], used[ATTACKER]),
            _side(sides[DEFENDER], now[DEFENDER], used[DEFENDER]),
            logs,
        )
        for chance, now, logs, used in ways
        if chance > 0
    ]


def _side(side: Side, moment: Moment, used: set[str]) -> Side:
    """A side as the cards left it: its units alive with their damage, its cards played gone
    (and those of its units not in the moment, which took no part: ground forces in space)."""
    covered = moment.covers or {id(u) for u in moment.before}
    out = side.with_units([u for u in side.units if id(u) not in covered] + moment.units())
    out.effects = copy(side.effects)  # (dataclasses.replace checks each of its many fields: slow here)
    out.effects.played = {card: start for card, start in side.effects.played.items() if card not in used}
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
    for name in NAMES:
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
