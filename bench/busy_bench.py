#!/usr/bin/env python3
"""A question's embedding while the machine is busy: prints figures, asserts nothing.

  python bench/busy_bench.py [--questions N] [--busy K]

K processes spin on the CPU (default: one per core, as when the bot's worker pool, another
service or CI shares the host) while a fresh process embeds N questions through the project's
embedder, each never asked before. Figures: p50 / p99 with the engine's OpenMP threads waiting
passively (the embedder's setting, dense.OPENMP_ENVIRONMENT) beside the baseline in the same
run, the engine's default (threads spin while they wait); and both on an idle machine.
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

# The child: load the project's embedder, warm it once, time N different questions.
CHILD = """
import json, sys, time
sys.path.insert(0, {root!r})
from tabletop.rules import dense
model = dense.embedder()
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


def measure(policy: str, n: int) -> list[float]:
    env = {**os.environ, "OMP_WAIT_POLICY": policy}
    out = subprocess.run(
        [sys.executable, "-c", CHILD.format(root=str(ROOT), n=n)], env=env, capture_output=True, text=True, check=True
    )
    return sorted(json.loads(out.stdout.strip().splitlines()[-1]))


def report(name: str, samples: list[float]) -> None:
    p99 = samples[max(0, int(len(samples) * 0.99) - 1)]
    print(f"{name:<52} p50 {statistics.median(samples):8.1f} ms   p99 {p99:8.1f} ms   n={len(samples)}")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--questions", type=int, default=40)
    ap.add_argument("--busy", type=int, default=os.cpu_count() or 2)
    args = ap.parse_args()
    report("idle: passive waiting (ours)", measure("PASSIVE", args.questions))
    report("idle: baseline, spinning threads (engine default)", measure("ACTIVE", args.questions))
    spinners = [multiprocessing.Process(target=spin, daemon=True) for _ in range(args.busy)]
    for p in spinners:
        p.start()
    try:
        report(f"{args.busy} busy processes: passive waiting (ours)", measure("PASSIVE", args.questions))
        report(f"{args.busy} busy processes: baseline, spinning threads", measure("ACTIVE", args.questions))
    finally:
        for p in spinners:
            p.terminate()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
