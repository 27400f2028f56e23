"""The rounds after the first, solved exactly and at once for the vectorised odds solver.

A round that changes anything takes a unit or a sustain from a side, so the fight's cells fall
into an order where each only ever leads to later ones; each cell is summed as a geometric series
(the rounds where nothing happens) and passed on, in that order (the compiled loop in
tabletop.combat.kernel). Split from tabletop.combat.odds, which sets the states and hits up,
and imports this module when it first solves a fight (it loads numba)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from tabletop.combat.kernel import moves_forward, settle

if TYPE_CHECKING:
    from tabletop.combat.outcome import Odds
    from tabletop.combat.sidestates import SideStates

# (attacker states, defender states) of live cells -> the hits each takes, per cell:
# (table of the attacker's, row of it for each cell, table of the defender's, row for each cell)
Hits = Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]


def solve_levels(A: SideStates, D: SideStates, mass: np.ndarray, terminal: np.ndarray, hits: Hits, odds: Odds) -> np.ndarray:
    """Solve the rest cell by cell: a round that changes anything takes a unit or a sustain from
    a side, which moves it to a state of a higher number (states are numbered by units lost,
    then by sustains in use), so a cell leads only to itself (nothing happened: a geometric
    series) and to cells later in row-major order. This is forward substitution in a
    triangular system, and a cell's mass is all there when the cells before it have passed
    theirs on."""
    assert moves_forward(A.next) and moves_forward(D.next), "a round moved a side back"  # what the order rests on
    rows_a, cols_d = np.nonzero(~terminal)  # in row-major order
    grid = np.array(mass, dtype=np.float64, order="C")
    on_a, key_a, on_d, key_d = hits(rows_a, cols_d)
    ints = lambda a: np.ascontiguousarray(a, dtype=np.int64)  # noqa: E731 - the kernel's types
    floats = lambda a: np.ascontiguousarray(a, dtype=np.float64)  # noqa: E731
    arrays = (ints(rows_a), ints(cols_d), ints(A.next), ints(D.next), floats(on_a), ints(key_a), floats(on_d), ints(key_d))
    odds.rounds += settle(grid, *arrays)
    return grid
