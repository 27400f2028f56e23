"""A side holding Metali Void Shielding (Thunder's Edge relic): "each time hits are produced
against 1 or more of your non-fighter ships, 1 of those ships may use SUSTAIN DAMAGE as if it
had that ability". Once a volley, one undamaged non-fighter ship without the ability (a
destroyer, carrier, cruiser) cancels a hit and is damaged; a damaged one cannot do it again.

The state keeps the shape (damaged, lost) of tabletop.combat.model, so the dice and both exact
solvers use it unchanged: `damaged` is a code for two counts, n (units with Sustain Damage
damaged) and s (shielded ships damaged), n + (a + 1) s for a such units alive. A volley's first
hit goes to the shield, then hits go to the units' own Sustain Damage (the shield is lost if
unused, while the units' own sustains serve any number of hits of any later volley). The shield
goes to the ship next in the loss order: a damaged ship without the ability fights as before, so
shielding the next to be lost keeps the others for later volleys, and the damaged ones are the
first of them in the loss order. (Duranium Armor repairing a shielded ship keeps them so: the
damage left is taken to be on the first; between ships of one kind that is exact.)
"""

from __future__ import annotations

from tabletop.combat.model import SideModel, State
from tabletop.combat.units import Side, Unit


def model_kind(side: Side, units: list[Unit]) -> type[SideModel]:
    """The model of these units of a side: shielded where the relic can act (the side holds it
    and a ship of them lacks Sustain Damage of its own; never with directed hits: commands
    refuses that), else the plain one."""
    if side.effects.void_shielding and any(u.non_fighter_ship and not u.sustain for u in units):
        return ShieldedSideModel
    return SideModel


class ShieldedSideModel(SideModel):
    """The units of a side holding Metali Void Shielding, in loss order."""

    def __init__(
        self, side: Side, fighters: list[Unit], sustain_allowed: bool = True, by_strength: bool = False, ordered: bool = False
    ):
        super().__init__(side, fighters, sustain_allowed, by_strength, ordered)
        self.shieldable = [u.non_fighter_ship and not s and sustain_allowed for u, s in zip(self.units, self.sustainer)]
        self.shield_after = [0] * (self.N + 1)  # shieldable ships alive after losing d units
        for d in range(self.N - 1, -1, -1):
            self.shield_after[d] = self.shield_after[d + 1] + self.shieldable[d]
        own = sum(1 for u, s in zip(self.units, self.sustainer) if s and u.damaged)
        shielded = sum(1 for u, k in zip(self.units, self.shieldable) if k and u.damaged)
        self.start = (self.encode(min(own, self.able_after[0]), shielded, 0), 0)

    @property
    def capacity(self) -> list[int]:
        return [(a + 1) * (k + 1) - 1 for a, k in zip(self.able_after, self.shield_after)]

    @property
    def most_sustains(self) -> int:
        return self.able_after[0] + self.shield_after[0]

    # --- the code --------------------------------------------------------------------------------

    def encode(self, own: int, shielded: int, lost: int) -> int:
        return own + (self.able_after[lost] + 1) * shielded

    def decode(self, state: State) -> tuple[int, int]:
        """(units with Sustain Damage damaged, shielded ships damaged) in this state."""
        width = self.able_after[state[1]] + 1
        return state[0] % width, state[0] // width

    def state_of(self, lost: int, damaged: list[int]) -> State:
        own = sum(1 for i in damaged if self.sustainer[i])
        shielded = sum(1 for i in damaged if self.shieldable[i])
        return (self.encode(min(own, self.able_after[lost]), shielded, lost), lost)

    def undamaged_sustains(self, state: State) -> int:
        return self.able_after[state[1]] - self.decode(state)[0]

    def damaged(self, state: State) -> list[int]:
        """The units with the ability: the top `own` alive; the shielded ships: the first `s`
        alive in the loss order."""
        own, shielded = self.decode(state)
        d = state[1]
        able = [i for i in range(d, self.N) if self.sustainer[i]]
        ships = [i for i in range(d, self.N) if self.shieldable[i]]
        return (able[len(able) - own :] if own else []) + ships[:shielded]

    # --- the volley --------------------------------------------------------------------------------

    def consume(self, state: State, hits: int, directed: int = 0) -> tuple[State, list[tuple[int, str]], int]:
        """One volley's hits: the shield once, then the units' own Sustain Damage, then losses."""
        hits += directed
        own, shielded = self.decode(state)
        d = state[1]
        events: list[tuple[int, str]] = []
        shield_used = False
        while hits > 0:
            shields = not shield_used and self.shield_after[d] - shielded > 0
            if shields or self.able_after[d] - own > 0:
                unit = self._next_to_sustain(d, own, shielded, shields)
                cancelled = min(hits, self.cancels)
                events += [(unit, "sustained")] * cancelled
                hits -= cancelled
                if shields:
                    shielded, shield_used = shielded + 1, True
                else:
                    own += 1
                continue
            if d >= self.N:
                return (self.encode(own, shielded, d), d), events, hits
            if self.sustainer[d]:
                own -= 1  # every unit with the ability alive is damaged by now: a damaged one is lost
            elif self.shieldable[d] and shielded:
                shielded -= 1  # the first shieldable ship alive is a damaged one
            events.append((d, "destroyed"))
            d += 1
            hits -= 1
            if self.doomed((0, d)):  # the Yin flagship is lost: the rest of the side goes with it
                events += [(i, "destroyed") for i in range(d, self.N)]
                return (0, self.N), events, 0
        return (self.encode(own, shielded, d), d), events, 0

    def _next_to_sustain(self, d: int, own: int, shielded: int, shields: bool) -> int:
        if shields:  # the next ship without the ability to be lost
            return [i for i in range(d, self.N) if self.shieldable[i]][shielded]
        able = [i for i in range(d, self.N) if self.sustainer[i]]  # the highest undamaged unit with it
        return able[len(able) - own - 1]

    # --- repairs -------------------------------------------------------------------------------------

    def rebuild(self, state: State, first: bool = False) -> tuple[State, int | None]:
        own, shielded = self.decode(state)
        unit = self.self_repairing
        if first and not self.repairs_at_start:
            return state, None
        if unit is None or state[1] > unit or own < 1 or not self.sustainer[unit]:
            return state, None
        return (self.encode(own - 1, shielded, state[1]), state[1]), unit

    def repair(self, before: State, after: State, events: list[tuple[int, str]]) -> tuple[State, list[int]]:
        """Duranium Armor repairs one damaged unit that did not use Sustain Damage this round: one
        with the ability of its own if any (its sustain serves any volley), else a shielded ship;
        then a self-repairing unit is repaired."""
        repaired: list[int] = []
        if self.side.effects.repair_each_round:
            (own_before, shielded_before), (own, shielded) = self.decode(before), self.decode(after)
            sustained = {i for i, kind in events if kind == "sustained"}
            lost = [i for i, kind in events if kind == "destroyed"]
            # damaged before this round and still alive (the oldest damage is lost first)
            fresh_own = sum(1 for i in sustained if self.sustainer[i])
            old_own = own_before - max(0, sum(1 for i in lost if self.sustainer[i]) - fresh_own)
            fresh_shielded = sum(1 for i in sustained if self.shieldable[i])
            old_shielded = shielded_before - min(shielded_before, shielded_before + fresh_shielded - shielded)
            alive = range(after[1], self.N)
            if old_own >= 1 and own >= 1:
                repaired.append([i for i in alive if self.sustainer[i]][-1])
                own -= 1
            elif old_shielded >= 1:
                repaired.append([i for i in alive if self.shieldable[i]][shielded - 1])
                shielded -= 1
            after = (self.encode(own, shielded, after[1]), after[1])
        after, unit = self.rebuild(after)
        return after, repaired + ([unit] if unit is not None else [])


def unmodelled_against(opponent: Side) -> bool:
    """Whether the opponent has a ship that takes Sustain Damage away (the Mentak flagship, the
    Quietus with an active breach) or directs hits (the L1Z1X flagship): with the relic, which
    ships may sustain would then change within a fight in ways this model does not follow."""
    return any(
        u.ship
        and (
            "opponent-no-sustain" in u.abilities
            or "hits-to-non-fighters" in u.abilities
            or ("breach-strips-abilities" in u.abilities and opponent.effects.active_breach)
        )
        for u in opponent.units
    )
