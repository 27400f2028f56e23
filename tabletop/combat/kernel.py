"""The loops of the exact odds, compiled: a side's states, where hits take them and which are
reached (side_states, pruned), a side's hits after each of its losses (loss_rows), and the
cells: every live cell of a fight passes its mass on to the cells a round can lead to, once, in
an order where every cell comes after all that lead to it (settle).

The cells' loop does about (cells) x (states one side can go to) x (states the other can go to)
additions; written with numpy it would be several array calls per level of cells, and calling
numpy costs more than the arithmetic for fights of a few dozen units, so it is compiled with
numba instead; the other loops are compiled because a numpy call costs more than their work. This module is imported by the first exact odds of a process, not by every
process that imports combat (numba adds about 105 MB); the machine code is cached on disk (see
_cache_directory), so only the first solve after an install compiles it (about 4.5 s).
"""

from __future__ import annotations

import os
from pathlib import Path

import numba
import numpy as np

from tabletop.core.config import state_db_path


def _cache_directory() -> str | None:
    """Where numba keeps the machine code: NUMBA_CACHE_DIR if set; else numba's default,
    __pycache__ beside this file, in a checkout that can be written there; else (an image that
    is read-only at run time) beside the state database, the one place the bot writes."""
    here = Path(__file__).parent / "__pycache__"
    if os.environ.get("NUMBA_CACHE_DIR") or os.access(here if here.exists() else here.parent, os.W_OK):
        return None
    return str(state_db_path().parent / "numba")


# numba's config module sets its attributes from the environment at import, unseen by mypy
numba.config.CACHE_DIR = _cache_directory() or numba.config.CACHE_DIR  # type: ignore[attr-defined]

STUCK = 1.0 - 1e-15  # a cell that stays where it is with this chance: nobody can hit any more
compiled = numba.njit(cache=True, nogil=True)
# the argument types of the functions odds calls, so that they are compiled (or loaded from the
# cache) on import, before a solve's time budget starts
_ints, _table, _floats = numba.int64[::1], numba.int64[:, ::1], numba.float64[:, ::1]


@numba.njit(numba.boolean[::1](_table, _ints), cache=True, nogil=True)
def reachable(next_state, starts):
    """Which states a side can reach from these, where next_state[s, h] is where hits h take
    state s (a search from the starts, each state taken up once)."""
    seen = np.zeros(next_state.shape[0], np.bool_)
    todo = np.empty(next_state.shape[0], np.int64)
    count = 0
    for s in starts:
        if not seen[s]:
            seen[s] = True
            todo[count] = s
            count += 1
    while count:
        count -= 1
        s = todo[count]
        for h in range(next_state.shape[1]):
            t = next_state[s, h]
            if not seen[t]:
                seen[t] = True
                todo[count] = t
                count += 1
    return seen


@numba.njit(_table(_ints, _ints, numba.int64, numba.int64, _ints, _ints, _ints, numba.int64), cache=True, nogil=True)
def loss_table(used, lost, width, cancels, able_after, sustainers_before, offset, doom):
    """next[s, h]: the state (numbered offset[lost] + damaged) after state s = (used[s] sustains
    in use, lost[s] units lost) takes h hits, as SideModel.consume takes them: each undamaged
    sustainer cancels up to `cancels` hits, then units are lost in order (a damaged one takes
    its damage with it); past unit number doom (the Yin flagship, -1: none) all are lost."""
    total = able_after.shape[0] - 1  # units
    out = np.empty((used.shape[0], width), np.int64)
    for s in range(used.shape[0]):
        u, d = used[s], lost[s]
        for taken in range(width):
            sustains = min(able_after[d] - u, (taken + cancels - 1) // cancels)
            rest = taken - min(taken, sustains * cancels)
            d2 = min(total, d + rest)
            u2 = u + sustains - (sustainers_before[d2] - sustainers_before[d])
            if 0 <= doom < d2:
                d2, u2 = total, 0
            out[s, taken] = offset[d2] + u2
    return out


# the states a side can reach from its starts: (used, lost, next, the starts' numbers), renumbered
_Reached = numba.types.Tuple((_ints, _ints, _table, _ints))


@numba.njit(_Reached(_table, _ints, _ints, _ints), cache=True, nogil=True)
def pruned(next_state, starts, used, lost):
    """Only the states reachable from the starts, numbered anew in the same order: their
    (sustains in use, units lost), where hits take each of them, and the starts' new numbers."""
    seen = reachable(next_state, starts)
    renumber = np.full(next_state.shape[0], -1, np.int64)
    count = 0
    for s in range(next_state.shape[0]):
        if seen[s]:
            renumber[s] = count
            count += 1
    kept_used, kept_lost = np.empty(count, np.int64), np.empty(count, np.int64)
    kept_next = np.empty((count, next_state.shape[1]), np.int64)
    for s in range(next_state.shape[0]):
        k = renumber[s]
        if k >= 0:
            kept_used[k], kept_lost[k] = used[s], lost[s]
            for h in range(next_state.shape[1]):
                kept_next[k, h] = renumber[next_state[s, h]]
    return kept_used, kept_lost, kept_next, renumber[starts]


@numba.njit(numba.types.Tuple((_ints, _ints, _ints))(_ints), cache=True, nogil=True)
def numbered(able_after):
    """Every state (u sustains in use, d units lost) of a side with able_after[d] sustainers
    alive after d losses, numbered by d, then u: (offset, used, lost), where the states with d
    units lost start at number offset[d] and state k is (used[k], lost[k])."""
    losses = able_after.shape[0]
    offset = np.zeros(losses + 1, np.int64)
    for d in range(losses):
        offset[d + 1] = offset[d] + able_after[d] + 1
    used, lost = np.empty(offset[losses], np.int64), np.empty(offset[losses], np.int64)
    for d in range(losses):
        for u in range(able_after[d] + 1):
            used[offset[d] + u], lost[offset[d] + u] = u, d
    return offset, used, lost


@numba.njit(_Reached(_ints, numba.int64, numba.int64, numba.int64, _ints, _ints), cache=True, nogil=True)
def side_states(sustainer, width, cancels, doom, start_used, start_lost):
    """A side whose units are lost in one order (sustainer[i]: unit i of it can sustain), as
    pruned() gives it: every state (numbered()), where 0..width-1 hits take each (loss_table),
    kept if reachable from the starts."""
    units = sustainer.shape[0]
    able_after = np.zeros(units + 1, np.int64)  # sustainers alive after the first d are lost
    sustainers_before = np.zeros(units + 1, np.int64)
    for d in range(units - 1, -1, -1):
        able_after[d] = able_after[d + 1] + sustainer[d]
    for d in range(units):
        sustainers_before[d + 1] = sustainers_before[d] + sustainer[d]
    offset, used, lost = numbered(able_after)
    table = loss_table(used, lost, width, cancels, able_after, sustainers_before, offset, doom)
    return pruned(table, offset[start_lost] + start_used, used, lost)


@numba.njit(_floats(_ints, _floats, numba.int64), cache=True, nogil=True)
def loss_rows(kinds, dists, most):
    """rows[d]: the hit distribution over 0..most (more counted as most) of a side that has
    lost its first d units in the loss order, where unit i rolls dice whose hits are
    distributed as dists[kinds[i]] (kinds[i] = -1: it rolls none). From the last unit back,
    each row is the next one convolved with one unit's dice."""
    units = kinds.shape[0]
    rows = np.zeros((units + 1, most + 1))
    rows[units, 0] = 1.0
    for d in range(units - 1, -1, -1):
        kind = kinds[d]
        if kind < 0:
            rows[d] = rows[d + 1]
            continue
        for h in range(most + 1):
            p = rows[d + 1, h]
            if p == 0.0:
                continue
            for extra in range(dists.shape[1]):
                rows[d, min(h + extra, most)] += p * dists[kind, extra]
    return rows


@numba.njit(numba.boolean(_table), cache=True, nogil=True)
def moves_forward(next_state):
    """Whether hits only ever take a state to itself or to a state of a higher number."""
    for s in range(next_state.shape[0]):
        for h in range(next_state.shape[1]):
            if next_state[s, h] < s:
                return False
    return True


@compiled
def _buffers(states):
    return np.empty(states, np.int64), np.empty(states, np.float64), np.full(states, -1, np.int64)


@compiled
def _gather(targets, chances, to, chance, slot):
    """The distinct states `targets` leads to with a chance above zero, into to[:count] and
    chance[:count]; returns count (slot is left all -1 again)."""
    count = 0
    for h in range(targets.shape[0]):
        p = chances[h]
        if p == 0.0:
            continue
        state = targets[h]
        if slot[state] < 0:
            slot[state] = count
            to[count] = state
            chance[count] = 0.0
            count += 1
        chance[slot[state]] += p
    for x in range(count):
        slot[to[x]] = -1
    return count


@compiled
def _chance_of(state, to, chance, count):
    for x in range(count):
        if to[x] == state:
            return chance[x]
    return 0.0


@numba.njit(numba.float64(_floats, _ints, _ints, _table, _table, _floats, _ints, _floats, _ints), cache=True, nogil=True)
def settle(grid, rows_a, cols_d, next_a, next_d, on_a, key_a, on_d, key_d):
    """For each cell n = (rows_a[n], cols_d[n]) in turn: the attacker takes hits h with chance
    on_a[key_a[n], h] and goes to next_a[i, h]; the defender likewise with on_d, key_d, next_d.
    The rounds where neither moves are summed as a geometric series: a cell with mass m is
    visited m / (1 - stay) times, passes that much on and is left empty (a stuck cell keeps its
    mass). Returns the expected number of rounds played from these cells. The arrays must be
    C-ordered, of int64 and float64 (the signature); grid is changed in place."""
    rounds = 0.0
    # each side's moves from the cell, gathered by the state they lead to (hits past the last
    # unit all lead to the same state): targets, chances, and where a state is in that list
    to_a, chance_a, slot_a = _buffers(next_a.shape[0])
    to_d, chance_d, slot_d = _buffers(next_d.shape[0])
    for n in range(rows_a.shape[0]):
        i = rows_a[n]
        j = cols_d[n]
        mass = grid[i, j]
        if mass == 0.0:
            continue
        count_a = _gather(next_a[i], on_a[key_a[n]], to_a, chance_a, slot_a)
        count_d = _gather(next_d[j], on_d[key_d[n]], to_d, chance_d, slot_d)
        stay = _chance_of(i, to_a, chance_a, count_a) * _chance_of(j, to_d, chance_d, count_d)
        if stay >= STUCK:
            continue
        visits = mass / (1.0 - stay)
        rounds += visits
        grid[i, j] = 0.0
        for x in range(count_a):
            p = chance_a[x] * visits
            i2 = to_a[x]
            for y in range(count_d):
                j2 = to_d[y]
                if i2 != i or j2 != j:
                    grid[i2, j2] += p * chance_d[y]
    return rounds
