#!/usr/bin/env python3
"""Exact combat odds benchmark: prints figures, asserts nothing.

  python bench/combat_bench.py [--battles N]

For each case: the time of the exact odds (best of several runs), the time of a Monte Carlo
baseline of N battles (default 20,000, as ti4battle.com simulates) with the same dice engine in
the same run, their ratio, and how far the baseline's win rate is from the exact one. The
largest allowed battle must be answered or refused with a message within 1 s.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tabletop.combat import odds  # noqa: E402
from tabletop.combat.commands import build_fight, unit_book  # noqa: E402
from tabletop.combat.dice import Dice  # noqa: E402
from tabletop.combat.resolver import resolve  # noqa: E402
from tabletop.core.errors import UserError  # noqa: E402

CASES = [
    (
        "10 inf + 2 mech invade 8 inf after 2 dreadnoughts bombard",
        "invade",
        {"ships": "2 dreadnought", "landing": "10 infantry, 2 mech", "defender": "8 infantry"},
        1.0,
    ),
    ("20 inf + 4 mech vs 20 inf", "ground", {"attacker": "20 infantry, 4 mech", "defender": "20 infantry"}, 10.0),
    (
        "war sun, 2 dn, 2 carriers, 8 ff vs 3 dn, 3 cruisers, 6 ff",
        "space",
        {"attacker": "war sun, 2 dreadnought, 2 carrier, 8 fighter", "defender": "3 dreadnought, 3 cruiser, 6 fighter"},
        50.0,
    ),
]
LARGEST = [
    ("100 inf vs 100 inf", "ground", {"attacker": "100 infantry", "defender": "100 infantry"}),
    ("100 ff vs 50 dn + 50 destroyers", "space", {"attacker": "100 fighter", "defender": "50 dreadnought, 50 destroyer"}),
]


def best_of(fn, runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--battles", type=int, default=20_000)
    args = parser.parse_args()
    book = unit_book()
    print(f"{'case':<60} {'exact':>10} {'target':>9} {'baseline':>12} {'ratio':>9}  baseline error")
    for name, kind, options, target in CASES:
        fight = build_fight(kind, options, book)
        exact = odds.solve(fight)
        ours = best_of(lambda f=fight: odds.solve(f), 7)
        start = time.perf_counter()
        wins = sum(resolve(fight, Dice(seed)).winner == "attacker" for seed in range(args.battles))
        baseline = time.perf_counter() - start
        verdict = "ok" if ours * 1000 < target else "OVER"
        print(
            f"{name:<60} {ours * 1000:8.2f}ms {'<' + str(target) + 'ms':>9} {baseline * 1000:10.0f}ms {baseline / ours:8.0f}x"
            f"  {abs(wins / args.battles - exact.attacker):.4f} ({verdict})"
        )
    for name, kind, options in LARGEST:
        fight = build_fight(kind, options, book)
        start = time.perf_counter()
        try:
            odds.solve(fight)
            answer = "answered"
        except UserError as exc:
            answer = f"refused: {exc.message}"
        took = time.perf_counter() - start
        print(f"{name:<60} {took * 1000:8.0f}ms {'<1000ms':>9}  {answer} ({'ok' if took < 1 else 'OVER'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
