#!/usr/bin/env python3
"""Speed under load, every figure at once: prints figures, asserts nothing.

  python bench/speed_bench.py                  (build the rules database once first: bot.py build)

1. A question's marginal cost: search with the model over every distinct question of the query
   files, each embedded afresh, beside the words alone on the same question (rules_bench).
2. Through the real bot against a fake Discord (gateway_bench): a /rule lookup while four heavy
   /odds run, and a burst of 200 /rule a second, with the bot computing its fights in its own
   process (the baseline) and in processes of their own (ours).

Targets (issue 57): question mean <= 30 ms and p99 <= 60 ms; /rule under heavy p50 < 50 ms and
max < 500 ms; burst p99 < 100 ms with none past 3 s.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parent.parent), str(Path(__file__).resolve().parent)]

import gateway_bench  # noqa: E402
import rules_bench  # noqa: E402

from tabletop.rules.compendium import Compendium  # noqa: E402


def main() -> int:
    comp = Compendium.open()
    print("1. a question's marginal cost (every distinct question, embedded afresh)")
    rules_bench.question_costs(comp, rules_bench.distinct_questions(comp))
    comp.close()
    print("2. through the real bot")
    return gateway_bench.main()


if __name__ == "__main__":
    sys.exit(main())
