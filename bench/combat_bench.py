#!/usr/bin/env python3
"""Exact combat odds benchmark: prints figures, asserts nothing.

  python bench/combat_bench.py [--battles N] [--json] [--first-use]

For each case the peer's exact calculator was timed on: the time of our exact odds (best of
several runs) beside the peer's, and a Monte Carlo baseline of N battles (default 20,000, as
ti4battle.com simulates) with the same dice engine in the same run, with how far its win rate is
from the exact one. --json prints one line per case: case, best_ms and the three chances.

--first-use times what a player waits for on a first use, each in a fresh process of the bot's
own command line, beside a rules lookup in the same run: a one-shot `bot.py odds` (a small fight
and a larger one) against `bot.py rule 79.1`, and the console's first /odds from its start.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tabletop.combat import odds  # noqa: E402
from tabletop.combat.commands import build_fight, unit_book  # noqa: E402
from tabletop.combat.resolver import resolve  # noqa: E402
from tabletop.core.dice import Dice  # noqa: E402
from tabletop.core.errors import UserError  # noqa: E402

# The cases the peer's exact calculator (ti4calc, prophecy-of-kings branch, JavaScript) was timed
# on, on the machine this project is measured on, with its figures: ours must be at least as fast.
# "A similar fleet" is the peer case's opponent as we chose it (the issue names no list).
FLEET = "2 war sun, 4 dreadnought, 6 cruiser, 8 fighter"
CASES = [
    (
        "10 infantry + 2 mechs invading 8 infantry after 2 dreadnoughts bombard",
        "invade",
        {"ships": "2 dreadnought", "landing": "10 infantry, 2 mech", "defender": "8 infantry"},
        0.29,
    ),
    ("20 infantry + 4 mechs v 20 infantry", "ground", {"attacker": "20 infantry, 4 mech", "defender": "20 infantry"}, 0.62),
    (
        "2 war suns, 4 dreadnoughts, 6 cruisers, 8 fighters v a similar fleet",
        "space",
        {"attacker": FLEET, "defender": "1 war sun, 5 dreadnought, 6 cruiser, 10 fighter"},
        4.2,
    ),
    ("the mirror match", "space", {"attacker": FLEET, "defender": FLEET}, 0.97),
    (
        "100 fighters v 50 dreadnoughts + 50 destroyers",
        "space",
        {"attacker": "100 fighter", "defender": "50 dreadnought, 50 destroyer"},
        240.0,
    ),
    # Thunder's Edge, against the fork that models it (BarbarianMatt/ti4calcTE, one run in Node 20 on
    # this machine: tests/combat/peer/ti4calcte_figures.json, peer_ms)
    (
        "Thunder's Edge: Eidolon Maximum + 2 fighters v 2 dreadnoughts + a cruiser",
        "space",
        {"attacker": "eidolon maximum, 2 fighter", "defender": "2 dreadnought, 1 cruiser"},
        1188.0,
    ),
    (
        "Thunder's Edge: 2 Linkship II + a cruiser v 6 fighters + a carrier",
        "space",
        {"attacker": "2 linkship ii, 1 cruiser", "defender": "6 fighter, 1 carrier"},
        318.0,
    ),
]
# The Monte Carlo baseline runs for fights of at most this many units (the largest would take minutes).
BASELINE_UNITS = 50


def best_of(fn, runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--battles", type=int, default=20_000, help="Monte Carlo baseline battles (0: none)")
    parser.add_argument("--json", action="store_true", help="one JSON line per case: case, best_ms, the three chances")
    parser.add_argument("--first-use", action="store_true", help="time first uses in fresh processes instead")
    args = parser.parse_args()
    if args.first_use:
        return first_use()
    book = unit_book()
    if not args.json:
        print(f"{'case':<72} {'exact':>10} {'peer':>9} {'baseline':>12}  baseline error")
    for name, kind, options, peer_ms in CASES:
        fight = build_fight(kind, options, book)
        try:
            exact = odds.solve(fight)
        except UserError as exc:  # too big: say so, with how long the refusal took
            took = best_of(lambda f=fight: _refused(f), 1)
            print(json.dumps({"case": name, "best_ms": round(took * 1000, 2), "refused": exc.message}, ensure_ascii=False))
            continue
        ours = best_of(lambda f=fight: odds.solve(f), 3 if peer_ms > 100 else 9)
        if args.json:
            chances = {"attacker": exact.attacker, "defender": exact.defender, "draw": exact.draw}
            print(json.dumps({"case": name, "best_ms": round(ours * 1000, 3), **{k: round(v, 9) for k, v in chances.items()}}))
            continue
        baseline = error = ""
        if args.battles and len(fight.attacker.units) + len(fight.defender.units) <= BASELINE_UNITS:
            start = time.perf_counter()
            wins = sum(resolve(fight, Dice(seed)).winner == "attacker" for seed in range(args.battles))
            baseline = f"{(time.perf_counter() - start) * 1000:10.0f}ms"
            error = f"{abs(wins / args.battles - exact.attacker):.4f}"
        verdict = "as fast as" if ours * 1000 <= peer_ms else "slower than"
        print(f"{name:<72} {ours * 1000:8.2f}ms {peer_ms:7.2f}ms {baseline:>12}  {error} ({verdict} the peer)")
    return 0


BOT = [sys.executable, str(ROOT / "bot.py")]
SMALL = ["odds", "space", "--attacker", "2 dreadnought", "--defender", "3 cruiser"]
LARGER = [
    "odds",
    "space",
    "--attacker",
    "2 dreadnought, 3 cruiser, 2 carrier, 4 fighter",
    "--defender",
    "3 dreadnought, 5 fighter",
]


def first_use(runs: int = 5) -> int:
    """Fresh processes: the median of `runs` one-shot commands each, and the console's first
    /odds, beside `bot.py rule 79.1` (the kernels compiled and cached already: `bot.py build`)."""
    import statistics
    import subprocess

    def median_seconds(argv: list[str], stdin: str | None = None) -> float:
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            subprocess.run(BOT + argv, input=stdin, capture_output=True, text=True, check=False)
            times.append(time.perf_counter() - start)
        return statistics.median(times)

    rule = median_seconds(["rule", "79.1"])
    print(f"{'bot.py rule 79.1 (baseline)':<52} {rule:6.2f} s")
    for label, argv in (("bot.py odds space, 2 dreadnought v 3 cruiser", SMALL), ("bot.py odds space, 11 units v 8", LARGER)):
        took = median_seconds(argv)
        print(f"{label:<52} {took:6.2f} s  ({took / rule:.2f}x the rules lookup; target <= 1.5x)")
    line = "/odds space attacker:2 dreadnought, 3 cruiser, 2 carrier, 4 fighter defender:3 dreadnought, 5 fighter\n"
    empty = median_seconds(["console"], stdin="")
    console = median_seconds(["console"], stdin=line)
    print(f"{'console start, nothing asked (baseline)':<52} {empty:6.2f} s")
    print(
        f"{'console start and its first /odds (11 v 8)':<52} {console:6.2f} s  (the /odds: {console - empty:.2f} s; target < 2 s)"
    )
    return 0


def _refused(fight) -> None:
    with contextlib.suppress(UserError):
        odds.solve(fight)


if __name__ == "__main__":
    sys.exit(main())
