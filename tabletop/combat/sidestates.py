"""One side's states in the vectorised exact odds (tabletop.combat.odds): the states the rounds
can reach from where the side starts, where each number of hits takes each of them, and the
hits the side makes in a state.

A state is (sustains in use, units lost) of its SideModel. A side whose units are lost in one
order, with no repair, is laid out and searched by one compiled call (kernel.side_states);
repairs and directed hits are worked out state by state from SideModel.consume and repair.
The kernel is imported on first use: it loads numba (tabletop.combat.odds.solve loads it first).
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from tabletop.combat.battle import Fight
from tabletop.combat.budget import Budget
from tabletop.combat.hits import clip, hit_distribution
from tabletop.combat.model import SideModel, State


def max_hits(model: SideModel) -> int:
    """Hits beyond what destroys every unit change nothing: the most that matter."""
    return model.N + model.most_sustains * model.cancels


class SideStates:
    """One side's reachable states, and where h hits lead from each (a table of state numbers)."""

    def __init__(self, fight: Fight, name: str, model: SideModel, opponent: SideModel, starts: set, budget: Budget):
        self.fight, self.name, self.model, self.opponent = fight, name, model, opponent
        self.H = max_hits(model)
        # what a round's hits on this side can be: a count, or (directed, free) as one index
        self.outcomes = (self.H + 1) ** 2 if model.split else self.H + 1
        self.by_opponent = any("dice-per-opponent-ship" in u.abilities for u in model.units)
        # its units' dice depend on which others are alive (the Sardakk flagship's +1 to the rest,
        # Gravleash's +X by ship types, the infantry a fallen A3 Valiance galvanized)
        self.dice_vary = (
            any("other-ships-plus-one" in u.abilities for u in model.units)
            or model.side.effects.gravleash
            or bool(model.galvanizers)
        )
        first = sorted(starts)
        used, lost = (np.array(column, dtype=np.int64) for column in zip(*first))
        if model.repairs or model.split or any(model.shieldable):
            reached = self._reached_one_by_one(used, lost, budget)
        else:
            from tabletop.combat.kernel import side_states  # noqa: PLC0415 - loaded by solve()

            sustainer = np.array(model.sustainer, dtype=np.int64)
            doom = -1 if model.doom is None else model.doom
            reached = side_states(sustainer, self.H + 1, model.cancels, doom, used, lost)
        self.used, self.lost, self.next, numbers = reached
        self.start_index: dict[State, int] = dict(zip(first, numbers.tolist()))
        self.size = len(self.used)
        self.gone = self.lost >= model.end

    @cached_property
    def states(self) -> list[State]:
        """The states as (used, lost) pairs, in their numbers' order."""
        return list(zip(self.used.tolist(), self.lost.tolist()))

    def _reached_one_by_one(self, start_used: np.ndarray, start_lost: np.ndarray, budget: Budget) -> tuple:
        """Repairs look at the round's events, and directed hits split a side's losses into two
        chains: such tables are filled state by state from consume(), for the states reached.
        Directed hits are taken before the others, so without repairs (directed k, free f) leads
        where k directed hits and then f free ones do: two rows per state, not one per pair."""
        from tabletop.combat.kernel import numbered, pruned  # noqa: PLC0415 - loaded by solve()

        model, width = self.model, self.H + 1
        offset, used, lost = numbered(np.array(model.capacity, dtype=np.int64))
        composed = model.split and not model.repairs
        if composed:  # (free, directed): (0, k) for k = 0..H, then (f, 0) for f = 1..H
            pairs = [(0, k) for k in range(width)] + [(f, 0) for f in range(1, width)]
        else:  # every (free, directed) as the index k * width + f
            pairs = [(h % width, h // width) for h in range(self.outcomes)]
        table = np.zeros((len(used), len(pairs)), dtype=np.int64)
        states = list(zip(used.tolist(), lost.tolist()))
        starts = offset[start_lost] + start_used
        done = np.zeros(len(used), dtype=bool)
        todo = starts.tolist()
        while todo:
            i = todo.pop()
            if done[i]:
                continue
            done[i] = True
            budget.check()
            for h, (free, directed) in enumerate(pairs):
                after, events, _ = model.consume(states[i], free, directed)
                repaired, _ = model.repair(states[i], after, events)
                table[i, h] = k = int(offset[repaired[1]]) + repaired[0]
                todo.append(k)
        if composed:
            directed_to = table[:, :width]  # (0, k) for k = 0..H
            free_from = np.concatenate([table[:, :1], table[:, width:]], axis=1)  # (f, 0) for f = 0..H
            table = free_from[directed_to].reshape(len(used), width * width)  # [i, k * width + f]
        return pruned(np.ascontiguousarray(table), starts, used, lost)

    def hits(self, opp: SideStates, i: int, j: int, number: int) -> np.ndarray:
        """This side's hit distribution in state i against the opponent in state j, as hits
        the opponent takes (more than it can take counts as the most it can)."""
        dice = self.fight.round_dice(self.name, self.model, self.states[i], self.opponent, opp.states[j], number)
        if not opp.model.split:
            return clip(hit_distribution([die for _, _, die in dice]), opp.H)
        free, directed = split_hits(self.fight, self.model, self.states[i], dice, opp.H)
        return np.outer(directed, free).ravel()  # as opp.next reads them: [k * (H + 1) + f]


def split_hits(fight: Fight, model: SideModel, state: State, dice: list, most: int) -> tuple[np.ndarray, np.ndarray]:
    """The hit distributions of a side's free dice and of its directed ones (the L1Z1X flagship's
    and its dreadnoughts'; none without it), each over 0..most hits."""
    directs = fight.directed(model, state) or (lambda unit: False)
    free = clip(hit_distribution([die for unit, _, die in dice if not directs(unit)]), most)
    directed = clip(hit_distribution([die for unit, _, die in dice if directs(unit)]), most)
    return free, directed
