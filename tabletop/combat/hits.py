"""Hits of many dice, as exact distributions for the odds (tabletop.combat.odds): of a set of
dice, and of a side after each of its losses in the loss order."""

from __future__ import annotations

from collections import defaultdict
from functools import lru_cache

import numpy as np

from tabletop.combat.model import Die, SideModel


@lru_cache(maxsize=4096)
def _power(die: Die, count: int) -> np.ndarray:
    """The hit distribution of `count` identical dice (repeated squaring of one die's)."""
    one = np.zeros(4)
    for hits, p in die.distribution().items():
        one[hits] = p
    result, base, n = np.array([1.0]), one, count
    while n:
        if n & 1:
            result = np.convolve(result, base)
        n >>= 1
        if n:
            base = np.convolve(base, base)
    return result


def hit_distribution(dice: list[Die]) -> np.ndarray:
    """The distribution of the total hits of several dice, indexed by hits."""
    counts: dict[Die, int] = defaultdict(int)
    for die in dice:
        counts[die] += 1
    dist = np.array([1.0])
    for die, n in counts.items():
        dist = np.convolve(dist, _power(die, n))
    return dist


def side_rows(model: SideModel, dice: list, most: int) -> np.ndarray:
    """rows[d]: the hit distribution, over 0..most, of a side that has lost its first d units in
    the loss order (compiled: tabletop.combat.kernel.loss_rows). Units that roll the same dice
    share one distribution of their hits."""
    from tabletop.combat.kernel import loss_rows  # noqa: PLC0415 - numba, loaded by the odds

    rolls: dict[int, list[Die]] = {}
    for unit, _, die in dice:
        rolls.setdefault(id(unit), []).append(die)
    kinds: dict[tuple[Die, ...], int] = {}
    dists: list[np.ndarray] = []
    numbers = []  # for each unit, its row of dists (-1: it rolls nothing)
    for unit in model.units:
        mine = rolls.get(id(unit))
        if mine is None:
            numbers.append(-1)
            continue
        key = tuple(mine)
        number = kinds.get(key)
        if number is None:
            number = kinds[key] = len(dists)
            dists.append(dice_hits(key))
        numbers.append(number)
    table = np.zeros((max(1, len(dists)), max((len(d) for d in dists), default=1)))
    for row, dist in zip(table, dists):
        row[: len(dist)] = dist
    return loss_rows(np.array(numbers, dtype=np.int64), table, most)


@lru_cache(maxsize=1024)
def dice_hits(dice: tuple[Die, ...]) -> np.ndarray:
    """The hit distribution of these dice (hit_distribution), kept: a unit's dice, or a
    bombardment's, are of a few kinds asked for by every fight. Read-only, as it is shared."""
    dist = hit_distribution(list(dice))
    dist.setflags(write=False)
    return dist


def clip(dist: np.ndarray, most: int) -> np.ndarray:
    """A hit distribution over 0..most hits, more than `most` counted as `most`."""
    out = np.zeros(most + 1)
    cut = min(len(dist), most + 1)
    out[:cut] = dist[:cut]
    out[-1] += dist[cut:].sum()
    return out
