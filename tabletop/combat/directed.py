"""A side whose opponent's hits may be directed: the L1Z1X flagship ([0.0.1], PoK) makes the hits
of itself and of its dreadnoughts go to non-fighter ships if able, so such a side no longer
loses its units in one order. Its losses are two chains, non-fighters and fighters, each in the
side's loss order: a hit the player assigns freely takes the first unit of the loss order still
alive (as on any side), a directed hit the first non-fighter (a fighter when none is left).

The state keeps the shape (damaged, lost) of tabletop.combat.model, so the pair-by-pair odds
and the dice use it unchanged: `lost` is a code for both chains, growing with every loss. Sustain
Damage works as on any side: a hit, directed or not, is first cancelled by an undamaged unit
that can sustain (all of which are non-fighters)."""

from __future__ import annotations

from collections import defaultdict

from tabletop.combat.model import SideModel, State
from tabletop.combat.units import Side, Unit


class SplitSideModel(SideModel):
    """The units of a side facing directed hits, in loss order, lost in two chains."""

    split = True

    def __init__(
        self, side: Side, fighters: list[Unit], sustain_allowed: bool = True, by_strength: bool = False, ordered: bool = False
    ):
        super().__init__(side, fighters, sustain_allowed, by_strength, ordered)
        self.heavy = [i for i, u in enumerate(self.units) if u.type != "fighter"]  # directed hits' targets
        self.light = [i for i, u in enumerate(self.units) if u.type == "fighter"]
        self.width = len(self.light) + 1
        codes = range(len(self.heavy) * self.width + self.width)
        self.lost_sets = [frozenset(self.heavy[: c // self.width] + self.light[: c % self.width]) for c in codes]
        self.able_after = [sum(1 for i, s in enumerate(self.sustainer) if s and i not in lost) for lost in self.lost_sets]
        self.end = len(self.heavy) * self.width + len(self.light)  # the code with every unit lost

    def _chains(self, code: int) -> tuple[int, int]:
        return code // self.width, code % self.width

    def first_lost(self, count: int) -> int:
        return sum(1 for i in self.heavy if i < count) * self.width + sum(1 for i in self.light if i < count)

    def doomed(self, state: State) -> bool:
        return self.doom is not None and self.doom in self.lost_sets[state[1]]

    def rebuild(self, state: State, first: bool = False) -> tuple[State, int | None]:
        unit = self.self_repairing
        if first and not self.repairs_at_start:
            return state, None
        if unit is None or unit in self.lost_sets[state[1]] or state[0] < 1 or not self.sustainer[unit]:
            return state, None
        return (state[0] - 1, state[1]), unit

    def alive(self, state: State) -> list[Unit]:
        lost = self.lost_sets[state[1]]
        return [u for i, u in enumerate(self.units) if i not in lost]

    def is_lost(self, index: int, state: State) -> bool:
        return index in self.lost_sets[state[1]]

    def survivors(self, state: State) -> tuple:
        counts: dict[str, int] = defaultdict(int)
        for unit in self.alive(state):
            counts[unit.name()] += 1
        return tuple(sorted(counts.items()))

    def ground_forces_left(self) -> list[bool]:
        return [any(u.ground for u in self.alive((0, code))) for code in range(self.end + 1)]

    def damaged(self, state: State) -> list[int]:
        u, code = state
        lost = self.lost_sets[code]
        alive_sustainers = [i for i in range(self.N) if self.sustainer[i] and i not in lost]
        return alive_sustainers[len(alive_sustainers) - u :] if u else []

    def consume(self, state: State, hits: int, directed: int = 0) -> tuple[State, list[tuple[int, str]], int]:
        """Directed hits first, then the others; each is first cancelled by Sustain Damage."""
        events: list[tuple[int, str]] = []
        excess = 0
        for count, to_heavy in ((directed, True), (hits, False)):
            state, left = self._take(state, count, to_heavy, events)
            excess += left
        return state, events, excess

    def _take(self, state: State, hits: int, to_heavy: bool, events: list[tuple[int, str]]) -> tuple[State, int]:
        u, code = state
        while hits > 0:
            if self.able_after[code] - u > 0:  # an undamaged sustainer is left: it sustains
                unit = self.damaged((u + 1, code))[0]
                cancelled = min(hits, self.cancels)
                events += [(unit, "sustained")] * cancelled
                hits -= cancelled
                u += 1
                continue
            if code == self.end:
                return (u, code), hits
            heavy, light = self._chains(code)
            next_heavy = self.heavy[heavy] if heavy < len(self.heavy) else self.N
            next_light = self.light[light] if light < len(self.light) else self.N
            index = next_heavy if (to_heavy and next_heavy < self.N) else min(next_heavy, next_light)
            if self.sustainer[index]:
                u -= 1  # every sustainer alive is damaged by now: a damaged one is lost
            events.append((index, "destroyed"))
            code += self.width if index == next_heavy else 1
            hits -= 1
            if self.doomed((u, code)):  # the Yin flagship is lost: the rest of the side goes with it
                lost = self.lost_sets[code]
                events += [(i, "destroyed") for i in range(self.N) if i not in lost]
                return (0, self.end), 0
        return (u, code), 0
