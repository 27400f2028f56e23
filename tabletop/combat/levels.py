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
FLOW_AT_ONCE = 2_000_000  # floats (16 MB): the largest cell-to-cell flow held at once; larger fights go level by level


def _rank(space: _Space) -> np.ndarray:
    """Each state's dense rank by 2 x lost + sustains in use (see solve_levels)."""
    used = np.array([u for u, _ in space.states])
    return np.unique(2 * space.lost + used, return_inverse=True)[1].ravel()


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
    if len(rows_a) * A.size * D.size <= FLOW_AT_ONCE:
        return levels_at_once(A, D, mass, rows_a, cols_d, bounds, moves, odds, budget)
    # where each live cell leads does not depend on the mass: worked out once for all cells when
    # that fits in memory, else level by level
    at_once = len(rows_a) * (A.size + D.size) <= MOVES_AT_ONCE
    all_a, all_d = moves(rows_a, cols_d, 2) if at_once else (None, None)
    for start, end in zip(bounds[:-1], bounds[1:]):
        ci, cj = rows_a[start:end], cols_d[start:end]
        weights = mass[ci, cj]
        keep = weights > 0
        if not keep.any():
            continue
        budget.check()
        if all_a is not None and all_d is not None:
            to_a, to_d = all_a[start:end][keep], all_d[start:end][keep]
        else:
            to_a, to_d = moves(ci[keep], cj[keep], 2)
        ci, cj, weights = ci[keep], cj[keep], weights[keep]
        stay = to_a[np.arange(len(ci)), ci] * to_d[np.arange(len(cj)), cj]
        flowing = stay < 1.0 - 1e-15  # else nobody can hit any more from here: left as it is
        if not flowing.any():
            continue
        ci, cj, stay = ci[flowing], cj[flowing], stay[flowing]
        w = weights[flowing] / (1.0 - stay)
        odds.rounds += w.sum()
        outflow = (to_a[flowing] * w[:, None]).T @ to_d[flowing]
        outflow[ci, cj] -= w * stay  # the round that changed nothing is already summed in w
        mass[ci, cj] = 0.0
        mass += outflow
    return mass


def levels_at_once(A: _Space, D: _Space, mass: np.ndarray, rows_a, cols_d, bounds, moves, odds: Odds, budget: _Budget):
    """The same substitution for a fight small enough to hold every cell's outflow (to every
    cell) at once: per level, one gather and one product, which is what small fights cost."""
    n = len(rows_a)
    to_a, to_d = moves(rows_a, cols_d, 2)
    flow = (to_a[:, :, None] * to_d[:, None, :]).reshape(n, -1)
    cells = rows_a * D.size + cols_d
    stay = flow[np.arange(n), cells]
    flow[np.arange(n), cells] = 0.0  # the round that changed nothing: summed in the visits below
    stuck = stay >= 1.0 - 1e-15  # nobody can hit any more from here: left as it is
    per_visit = np.where(stuck, 0.0, 1.0 / np.where(stuck, 1.0, 1.0 - stay))
    left = stuck.astype(float)
    flat = mass.ravel().copy()
    visits = np.zeros(n)
    for start, end in zip(bounds[:-1], bounds[1:]):
        cell = cells[start:end]
        here = flat[cell]
        visits[start:end] = w = here * per_visit[start:end]
        flat[cell] = here * left[start:end]
        flat += w @ flow[start:end]
    odds.rounds += visits.sum()
    budget.check()
    return flat.reshape(mass.shape)
