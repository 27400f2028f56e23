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


@lru_cache(maxsize=1024)
def _run_powers(dice: tuple[Die, ...], count: int) -> np.ndarray:
    """Row j - 1: the hit distribution of j units that each roll these dice, for j = 1..count
    (one unit's distribution convolved j times; padded with zeros to the widest). Read-only:
    it is shared by every solve that asks for it."""
    one = hit_distribution(list(dice))
    out = np.zeros((count, count * (len(one) - 1) + 1))
    dist = np.array([1.0])
    for j in range(count):
        dist = np.convolve(dist, one)
        out[j, : len(dist)] = dist
    out.setflags(write=False)
    return out


def side_rows(model: SideModel, dice: list, most: int) -> np.ndarray:
    """rows[d]: the hit distribution, over 0..most, of a side that has lost its first d units in
    the loss order. Units next to each other that roll the same dice (the twenty infantry of a
    ground force) are one run: all of its rows come from the run's powers in one product."""
    by_unit: dict[int, list[Die]] = defaultdict(list)
    for unit, _, die in dice:
        by_unit[id(unit)].append(die)
    keys = [tuple(by_unit.get(id(unit), ())) for unit in model.units]
    rows = np.zeros((model.N + 1, most + 1))
    rows[model.N, 0] = 1.0
    end = model.N
    while end > 0:
        start = end - 1
        while start > 0 and keys[start - 1] == keys[end - 1]:
            start -= 1
        if not keys[end - 1]:  # units that roll nothing
            rows[start:end] = rows[end]
        else:
            powers = _run_powers(keys[end - 1], end - start)
            width = powers.shape[1]
            shifted = np.zeros((width, width + most))  # row t: the rest's hits, t more
            shifted[np.arange(width)[:, None], np.arange(width)[:, None] + np.arange(most + 1)] = rows[end]
            full = (powers @ shifted)[::-1]  # run units alive: end - start first, one last
            rows[start:end, :most] = full[:, :most]
            rows[start:end, most] = full[:, most:].sum(axis=1)
        end = start
    return rows


def clip(dist: np.ndarray, most: int) -> np.ndarray:
    """A hit distribution over 0..most hits, more than `most` counted as `most`."""
    out = np.zeros(most + 1)
    cut = min(len(dist), most + 1)
    out[:cut] = dist[:cut]
    out[-1] += dist[cut:].sum()
    return out
