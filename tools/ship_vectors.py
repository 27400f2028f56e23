"""Rewrites data/passage_vectors.sqlite3, the vectors shipped with the bundled packs, from the
passages and search cards the rules database is built from now. Run after editing a pack (the test
tests/rules/test_dense.py::test_every_bundled_passage_ships_its_vector says when)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tabletop.rules import dense, ruledb  # noqa: E402


def main() -> int:
    summaries, questions = ruledb.card_texts()
    count = dense.ship(ruledb.passages() + summaries, queries=questions)
    print(f"{dense.SHIPPED}: {count} passages, card summaries and card questions", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
