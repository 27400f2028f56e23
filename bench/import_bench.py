#!/usr/bin/env python3
"""A big rulebook imported beside the bundled packs: prints figures, asserts nothing.

  python bench/import_bench.py [--kilobytes 2000]

Writes a rulebook of its own (Markdown: parts, topics, paragraphs of made-up sentences; nothing
read from elsewhere), imports it into a copy of the bundled packs, and times, each in a fresh
process with the bot's own command line:

- the baseline: building the bundled packs alone, then `/rule 폭격` (TI4);
- the import (`bot.py pack import`);
- the first command after it, which builds the database (the big pack's texts left for later,
  tabletop/rules/backfill.py), then `/rule 폭격` and a question about the big pack.

Embedding the big pack (`bot.py build`, or the bot and console in the background) is not timed:
it is the model's speed, some 60 ms a short passage on two cores (docs: admin/packs.md).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORDS = (
    "ship harbour reef coin card pilot captain crew cargo storm island map token dice round turn "
    "market fleet cannon anchor sail moves draws spends loses gains trades discards places passes"
).split()


def rulebook(size: int, seed: int = 7) -> str:
    """A Markdown rulebook of about `size` characters: '#' parts of eight '##' topics each."""
    rng = random.Random(seed)
    lines = ["# Harbour Days: Rules of Play", ""]
    length, part, topic = 0, 0, 0
    while length < size:
        part += 1
        lines += [f"# Part {part}", ""]
        for _ in range(8):
            topic += 1
            lines += [f"## Topic {topic}: the {rng.choice(WORDS)}", ""]
            for _ in range(rng.randint(4, 12)):
                sentences = (
                    "The " + " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 20))) + "."
                    for _ in range(rng.randint(2, 6))
                )
                lines += [" ".join(sentences), ""]
        length = sum(len(x) + 1 for x in lines)
    return "\n".join(lines)


def timed(env: dict, *args: str) -> float:
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, str(ROOT / "bot.py"), *args], env=env, check=False, capture_output=True
    )  # "not found" is an answer too
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kilobytes", type=int, default=2000)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="import-bench-"))
    try:
        shutil.copytree(ROOT / "rules", work / "rules")
        env = {**os.environ, "RULES_DIR": str(work / "rules"), "RULES_DB": str(work / "rules.db")}
        env["EMBEDDINGS_CACHE"] = str(work / "cache.db")
        source = work / "harbour.md"
        source.write_text(rulebook(args.kilobytes * 1000), encoding="utf-8")
        print(f"rulebook: {source.stat().st_size / 1e6:.1f} MB")
        print(f"baseline: build the bundled packs  {timed(env, 'build'):6.1f} s")
        print(f"baseline: /rule 폭격                {timed(env, 'rule', '폭격'):6.1f} s")
        print(f"import                             {timed(env, 'pack', 'import', str(source), '--id', 'harbour'):6.1f} s")
        print(f"first command (builds), /rule 폭격  {timed(env, 'rule', '폭격'):6.1f} s")
        print(f"then /rule 폭격                     {timed(env, 'rule', '폭격'):6.1f} s")
        print(f"a question about the big pack      {timed(env, 'rule', 'storm pilot', '--game', 'harbour'):6.1f} s")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
