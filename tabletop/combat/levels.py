"""The rounds after the first, solved exactly and at once for the vectorised odds solver.

A round that changes anything takes a unit or a sustain from a side, so the fight's cells fall
into levels that only ever lead to later ones; each level is summed as a geometric series (the
rounds where nothing happens) and passed on. Split from tabletop.combat.odds, which sets the
states and moves up."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from tabletop.combat.odds import _Budget, _Space
    from tabletop.combat.outcome import Odds

MOVES_AT_ONCE = 4_000_000  # floats (32 MB): the most per-cell moves worked out in one go


def _rank(space: _Space) -> np.ndarray:
    """Each state's dense rank by 2 x lost + sustains in use (see solve_levels)."""
    return np.unique(2 * space.lost + space.used, return_inverse=True)[1].ravel()


def solve_levels(A: _Space, D: _Space, mass: np.ndarray, terminal: np.ndarray, moves, odds: Odds, budget: _Budget) -> np.ndarray:
    """Solve the rest level by level: (units lost, sustains used) of both sides only grows, so a
    level leads only to itself (nothing happened: a geometric series) and to later levels. This
    is forward substitution in a triangular system, one level's cells at a time."""
    # A round that changes anything loses a unit (possibly a damaged one: one fewer in use) or
    # uses a sustain, so on each side 2 x lost + sustains in use grows with every change; so
    # does its rank among the side's states, and the sum of both sides' ranks with any change:
    # cells with the same sum cannot reach each other. With the usual loss order a side's states
    # are a chain (one per hit taken) and there are only as many levels as both chains' lengths.
    level = _rank(A)[:, None] + _rank(D)[None, :]
    rows_a, cols_d = np.nonzero(~terminal)
    order = np.argsort(level[rows_a, cols_d], kind="stable")
    rows_a, cols_d = rows_a[order], cols_d[order]
    keys = level[rows_a, cols_d]
    bounds = np.concatenate([[0], np.flatnonzero(np.diff(keys)) + 1, [len(keys)]]).tolist()
    n = len(rows_a)
    flat = mass.ravel().copy()
    grid = flat.reshape(mass.shape)  # the same numbers, by (attacker state, defender state)
    # where each live cell leads does not depend on the mass: worked out once for all cells when
    # that fits in memory, else level by level
    at_once = n * (A.size + D.size) <= MOVES_AT_ONCE
    chunks = [(0, n)] if at_once else list(zip(bounds[:-1], bounds[1:]))
    for low, high in chunks:
        steps = _Steps(A, D, rows_a[low:high], cols_d[low:high], moves)
        arrived = np.empty(high - low)  # each cell's mass when its level comes
        cuts = [b - low for b in bounds if low <= b <= high]
        for start, end in zip(cuts[:-1], cuts[1:]):
            arrived[start:end] = here = flat[steps.cells[start:end]]
            grid += steps.to_a[start:end].T @ (steps.to_d[start:end] * here[:, None])
        budget.check()
        odds.rounds += float(arrived @ steps.per_visit)
        # a cell that passed its mass on is empty (what it passed to itself included: the
        # rounds where nothing happened, already summed in per_visit); a stuck cell keeps it
        flat[steps.cells[~steps.stuck]] = 0.0
    return grid


class _Steps:
    """Where a round leads from each of some live cells, with the rounds in which nothing happens
    summed: from a cell with mass m, m / (1 - stay) rounds are played, and that many times the
    cell's outflow leaves it; from a cell where nobody can hit any more, nothing leaves."""

    def __init__(self, A: _Space, D: _Space, rows_a: np.ndarray, cols_d: np.ndarray, moves):
        n = len(rows_a)
        self.to_a, self.to_d = moves(rows_a, cols_d, 2)
        self.cells = rows_a * D.size + cols_d
        stay = self.to_a[np.arange(n), rows_a] * self.to_d[np.arange(n), cols_d]
        self.stuck = stay >= 1.0 - 1e-15
        self.per_visit = np.where(self.stuck, 0.0, 1.0 / np.where(self.stuck, 1.0, 1.0 - stay))
        self.to_a *= self.per_visit[:, None]
