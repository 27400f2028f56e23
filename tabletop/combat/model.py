"""A side in one combat as a small state machine, shared by the dice (resolver) and the exact odds
(odds), so that both follow the same rules and the same loss policy.

A side's state is (u, d): d units lost in the loss order, u of the surviving units damaged.
Hits go first to Sustain Damage (80.1; each cancels `sustain_cancels` hits, 80.6), then destroy
units in the loss order: the player's order if given, then the default order (fighters,
destroyers, carriers, cruisers, dreadnoughts, war suns, flagships; infantry before mechs),
cheapest first within a type.

Which units carry the damage is a convention, the same for the dice and the odds: the damaged
units are the ones lost last (the top of the loss order), and a new sustain goes to the highest
undamaged one. Nothing the rules ask depends on which of two equal units is damaged, and with
the convention a state is two numbers, which is what makes exact odds fast.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import cache

from tabletop.combat.unitdata import DIE_FACES, LOSS_ORDER
from tabletop.combat.units import Side, Unit

State = tuple[int, int]  # (damaged units alive, units lost)


@dataclass(frozen=True)
class Die:
    """One die: the natural roll it needs (modifiers already applied), and its specials."""

    needs: int  # the natural roll (1-10) must be at least this
    triple_on: int = 11  # a natural roll at or above this makes 3 hits (Jol-Nar flagship)
    reroll: bool = False  # a miss is rolled again once (Fire Team)
    times: int = 1  # each hit counts this many times (X-89 Bacterial Weapon ΩΩ doubles them)

    def distribution(self) -> dict[int, float]:
        """Hits this die produces: {hits: probability}."""
        hit = [r for r in range(1, 11) if r >= self.needs]
        triple = [r for r in hit if r >= self.triple_on]
        p_hit, p_triple = len(hit) / 10, len(triple) / 10
        if self.reroll:  # a miss is rolled once more
            miss = 1 - p_hit
            p_hit, p_triple = p_hit + miss * p_hit, p_triple + miss * p_triple
        out = {0: 1 - p_hit}
        if p_hit - p_triple > 0:
            out[self.times] = p_hit - p_triple
        if p_triple > 0:
            out[3 * self.times] = p_triple
        return out

    def hits(self, roll: int) -> int:
        if roll < self.needs:
            return 0
        return (3 if roll >= self.triple_on else 1) * self.times


@cache
def die(needs: int, triple_on: int = 11, reroll: bool = False, times: int = 1) -> Die:
    """The one Die of these values (a few dozen exist): lists of dice then compare by identity,
    as the odds compare a side's first-round dice with the later rounds'."""
    return Die(needs, triple_on, reroll, times)


def convolve(dice: list[Die]) -> list[float]:
    """The distribution of the total hits of several dice, as a list indexed by hits."""
    dist = [1.0]
    cache: dict[Die, dict[int, float]] = {}
    for die in dice:
        d = cache.setdefault(die, die.distribution())
        out = [0.0] * (len(dist) + max(d))
        for h, p in enumerate(dist):
            if p:
                for extra, q in d.items():
                    out[h + extra] += p * q
        dist = out
    return dist


def needs(value: int, modifier: int) -> int:
    """The natural roll a die needs: its value less the modifiers; 11 means it cannot hit."""
    return max(1, min(11, value - modifier))


_TYPE_RANK = {kind: i for i, kind in enumerate(LOSS_ORDER)}
# Abilities that hinder the other side's units only while their unit is in the system: the Mentak
# flagship and mech (no Sustain Damage), the Quietus with an active breach (no unit abilities).
DENIES = frozenset({"opponent-no-sustain", "breach-strips-abilities"})


def strength(u: Unit) -> float:
    """The hits a unit's combat roll expects: a weaker unit expects fewer."""
    return u.dice * (DIE_FACES + 1 - u.combat) / DIE_FACES if u.combat else 0.0


def loss_key(order: list[str], weakest_first: bool = False, damaged_first: bool = False):
    """Sort key of the loss order: the player's order, then the default order by type, cheapest
    first; a Valkyrie, which hits back when it sustains, is kept to the last of its kind. Where
    ground forces fight in space (weakest_first), the default loses the unit whose roll expects
    the fewest hits first, as the published calculators do: no order of types fits both kinds.
    `damaged_first`: a side that cannot sustain (facing the Mentak flagship) loses a damaged unit
    before an undamaged one of its kind (elsewhere the damaged units are the last, by convention)."""
    rank = {uid: i for i, uid in enumerate(order)}
    last, types = len(rank), len(_TYPE_RANK)

    def place(u: Unit) -> int:
        """Its place in the player's order: by its own entry, else as its kind ("infantry" places
        galvanized infantry, "flagship" any faction's flagship, "dreadnought" Dreadnought IIs)."""
        return rank.get(u.id, rank.get(u.id.split("+", 1)[0], rank.get(u.type, last)))

    return lambda u: (
        place(u),
        strength(u) if weakest_first else 0.0,
        _TYPE_RANK.get(u.type, types),
        u.cost,
        "valkyrie" in u.abilities,
        damaged_first and not u.damaged,
        u.number,
    )


def weakest_first(kind: str, units: list[Unit]) -> bool:
    """Whether a side's default loss order is by strength: ground forces fighting a space combat
    (The Alastor, the Eidolon Maximum) beside ships."""
    return kind == "space" and any(u.ground for u in units)


def _first_with(units: list[Unit], ability: str) -> int | None:
    """The index of the first unit with this ability, if any."""
    return next((i for i, u in enumerate(units) if ability in u.abilities), None)


class SideModel:
    """The units of a side that take part in one kind of fight, in loss order."""

    split = False  # whether some hits it takes are directed (tabletop.combat.directed)

    def __init__(
        self, side: Side, fighters: list[Unit], sustain_allowed: bool = True, by_strength: bool = False, ordered: bool = False
    ):
        self.side = side
        self.units = list(fighters) if ordered else sorted(fighters, key=loss_key(side.order, by_strength))
        self.pieces = self.units  # the side's own unit objects, in the same order (a breach's copies differ)
        self.cancels = max(1, side.effects.sustain_cancels)
        self.sustainer = [u.sustain and sustain_allowed for u in self.units]
        self.N = len(self.units)
        self.end = self.N  # the `lost` of a state with every unit lost
        self.able_after = [0] * (self.N + 1)  # sustainers alive after losing d units
        for d in range(self.N - 1, -1, -1):
            self.able_after[d] = self.able_after[d + 1] + self.sustainer[d]
        self.memo: dict = {}  # values derived from this model, for the odds
        self.shieldable = [False] * self.N  # ships that may sustain as if they could (shielded.py)
        self.start: State = (min(sum(1 for u, s in zip(self.units, self.sustainer) if s and u.damaged), self.able_after[0]), 0)
        special = self.units if any(u.abilities for u in self.units) else []  # most units have none
        # Letnev flagship, Eidolon Maximum: repaired at the start of every combat round (its player
        # sustains with it first, so while it lives and anything is damaged, it is); Heaven's Eye
        # too when its condition is named (at the end of each round: the same for every roll)
        self.self_repairing = _first_with(special, "repaired-each-round")
        self.repairs_at_start = True  # at the start of each round (else at the end: Heaven's Eye)
        if self.self_repairing is None and side.effects.unit_repairs:  # Heaven's Eye, its condition met
            self.repairs_at_start = False
            self.self_repairing = next(
                (i for i, u in enumerate(self.units) if u.id.split("+", 1)[0] == side.effects.unit_repairs), None
            )
        self.repairs = side.effects.repair_each_round or self.self_repairing is not None
        # A3 Valiance: galvanized, its loss galvanizes up to 3 infantry (battle.round_dice)
        self.galvanizers = [u for u in special if "galvanizes-on-death" in u.abilities and u.id.endswith("+galvanized")]
        # Yin flagship: once it is lost, every ship in the system is destroyed (both sides')
        self.doom = _first_with(special, "destroys-all-ships")
        # Mentak flagship or mech, the Quietus: while one lives, the other side's units are hindered
        self.deniers = [i for i, u in enumerate(special) if DENIES & u.abilities]
        self.unhindered: SideModel | None = None  # this side once the other side's deniers are gone

    @property
    def capacity(self) -> list[int]:
        """The largest `damaged` of a state with each `lost` (its states are numbered by it)."""
        return self.able_after

    @property
    def most_sustains(self) -> int:
        """Sustains the side can use in the whole fight, at most (hits past them and its units
        change nothing)."""
        return self.able_after[0]

    def state_of(self, lost: int, damaged: list[int]) -> State:
        """The state with the first `lost` units lost and these (indexes) damaged."""
        return (min(sum(1 for i in damaged if self.sustainer[i]), self.able_after[lost]), lost)

    def undamaged_sustains(self, state: State) -> int:
        """Hits the units' Sustain Damage can still cancel (one each)."""
        return self.able_after[state[1]] - state[0]

    def denies(self, state: State) -> bool:
        """Whether a unit that hinders the other side (DENIES) is alive in this state."""
        return any(not self.is_lost(i, state) for i in self.deniers)

    def facing(self, opponent: SideModel, opp_state: State) -> SideModel:
        """This side as a round meets it: hindered while a denier of the opponent lives (at the
        round's start: hits of the round it falls in are assigned while it is there), else its
        units as they are. The two share their loss order, so a state means the same in both."""
        if self.unhindered is None or opponent.denies(opp_state):
            return self
        return self.unhindered

    def doomed(self, state: State) -> bool:
        """Whether this side's loss took every ship in the system with it (the Yin flagship)."""
        return self.doom is not None and state[1] > self.doom

    def rebuild(self, state: State, first: bool = False) -> tuple[State, int | None]:
        """The start of a round: a self-repairing unit alive and damaged is repaired (the end of
        each round is the start of the next; only the first round's start differs)."""
        unit = self.self_repairing
        if first and not self.repairs_at_start:
            return state, None
        if unit is None or state[1] > unit or state[0] < 1 or not self.sustainer[unit]:
            return state, None
        return (state[0] - 1, state[1]), unit

    def alive(self, state: State) -> list[Unit]:
        return self.units[state[1] :]

    def first_lost(self, count: int) -> int:
        """The `lost` of a state in which the first `count` units of the loss order are lost."""
        return count

    def is_lost(self, index: int, state: State) -> bool:
        return index < state[1]

    def survivors(self, state: State) -> tuple:
        """The survivors' names and counts (the same for every state with these losses), kept
        on the model: a solve asks for the same few many times."""
        keys = self.memo.get("survivors")
        if keys is None:  # every suffix's key in one pass from the end
            keys = [()] * (self.N + 1)
            counts: dict[str, int] = defaultdict(int)
            names: dict[int, str] = {}  # units of a kind share one table of names: looked up once
            for d in range(self.N - 1, -1, -1):
                table = id(self.units[d].names)
                if table not in names:
                    names[table] = self.units[d].name()
                counts[names[table]] += 1
                keys[d] = tuple(sorted(counts.items()))
            self.memo["survivors"] = keys
        return keys[state[1]]

    def ground_forces_left(self) -> list[bool]:
        """For each `lost`: whether ground forces are among the units left (an invasion that
        ends with one takes the planet)."""
        left = [False] * (self.N + 1)
        for d in range(self.N - 1, -1, -1):
            left[d] = left[d + 1] or self.units[d].ground
        return left

    def gone(self, state: State) -> bool:
        return state[1] >= self.end

    def damaged(self, state: State) -> list[int]:
        """Indexes of the damaged units: the top `u` sustainers still alive."""
        u, d = state
        alive_sustainers = [i for i in range(d, self.N) if self.sustainer[i]]
        return alive_sustainers[len(alive_sustainers) - u :] if u else []

    def consume(self, state: State, hits: int, directed: int = 0) -> tuple[State, list[tuple[int, str]], int]:
        """Apply hits: (new state, [(unit index, "sustained" | "destroyed")], excess hits).
        `directed` hits must go to non-fighters if able (tabletop.combat.directed); on a side
        whose losses are one chain they are hits like the others."""
        hits += directed
        u, d = state
        events: list[tuple[int, str]] = []
        while hits > 0:
            if self.able_after[d] - u > 0:  # an undamaged sustainer is left: it sustains
                alive_sustainers = [i for i in range(d, self.N) if self.sustainer[i]]
                unit = alive_sustainers[len(alive_sustainers) - u - 1]
                cancelled = min(hits, self.cancels)
                events += [(unit, "sustained")] * cancelled
                hits -= cancelled
                u += 1
                continue
            if d >= self.N:
                return (u, d), events, hits
            if self.sustainer[d]:
                u -= 1  # every sustainer alive is damaged by now: a damaged one is lost
            events.append((d, "destroyed"))
            d += 1
            hits -= 1
            if self.doomed((u, d)):  # the Yin flagship is lost: the rest of the side goes with it
                events += [(i, "destroyed") for i in range(d, self.N)]
                return (0, self.N), events, 0
        return (u, d), events, 0

    def repair(self, before: State, after: State, events: list[tuple[int, str]]) -> tuple[State, list[int]]:
        """The end of a round: Duranium Armor repairs one damaged unit that did not use Sustain
        Damage this round; then a self-repairing flagship is repaired for the next round (at
        its start, which nothing comes between). Returns the new state and the repaired units."""
        repaired: list[int] = []
        if self.side.effects.repair_each_round:
            fresh = len({i for i, kind in events if kind == "sustained"})
            lost_damaged = sum(1 for i, kind in events if kind == "destroyed" and self.sustainer[i])
            # damaged before this round and still alive: new damage sits below old damage, and
            # losses take the lowest first, so new damage is lost before old damage
            old_alive = before[0] - max(0, lost_damaged - fresh)
            if old_alive >= 1 and after[0] >= 1:
                repaired.append(self.damaged(after)[-1])  # the oldest damage is the top of the block
                after = (after[0] - 1, after[1])
        after, unit = self.rebuild(after)
        return after, repaired + ([unit] if unit is not None else [])

    def sustains_by(self, events: list[tuple[int, str]], ability: str) -> int:
        """How many sustains in these events were used by units with an ability (Valkyrie)."""
        return len({i for i, kind in events if kind == "sustained" and ability in self.units[i].abilities})


def after_doom(ma: SideModel, md: SideModel, sa: State, sd: State) -> tuple[State, State, bool]:
    """The states once a side whose Yin flagship was lost has taken every ship in the system
    with it: both sides wiped out, and whether that happened."""
    if ma.doom is not None and ma.gone(sa) or md.doom is not None and md.gone(sd):
        return (0, ma.N), (0, md.N), True
    return sa, sd, False
