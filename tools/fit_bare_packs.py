#!/usr/bin/env python3
"""Fit the answer decision for a pack as `pack import` makes it: its text and headings only, no
lexicon, no search cards, no names in other languages. Prints the model for
fusion.ANSWER_MODEL_BARE and, for each bundled pack left out, how the model fitted on the others
decides that pack's questions beside always answering.

  python tools/fit_bare_packs.py

The bundled packs are copied to a temporary folder and stripped to what an import writes (each
section's title, text and related topics; no `names`, `aliases`, lexicon or cards), then every
players' question of tests/eval is asked of them, in its own language and the others (the
*_xling files): an imported rulebook is asked about in any language.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tabletop import features  # noqa: E402
from tabletop.rules import calibration, evaluation, fusion, ruledb  # noqa: E402
from tabletop.rules.compendium import Compendium  # noqa: E402


def stripped(source: Path, folder: Path) -> None:
    """The pack at `source` as an import would have written it, in `folder`."""
    shutil.copytree(source, folder, ignore=shutil.ignore_patterns("cards", "lexicon.yaml"))
    for path in folder.glob("*.yaml"):
        if path.name == "pack.yaml":
            continue
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for key in ("names", "aliases"):
            data.pop(key, None)
        path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")


def main() -> int:
    features.load()
    work = Path(tempfile.mkdtemp(prefix="bare-packs-"))
    rules = work / "rules"
    for pack in sorted((ROOT / "rules").iterdir()):
        if (pack / "pack.yaml").exists():
            stripped(pack, rules / pack.name)
    db = work / "rules.db"
    os.environ.update(RULES_DIR=str(rules), RULES_DB=str(db))  # the compendium checks its packs against these
    ruledb.build(rules_dir=rules, db_path=db)
    compendium = Compendium.open(db)
    files: dict[str, list[dict]] = {}
    for path in sorted((ROOT / "tests" / "eval").glob("*_players*.yaml")):
        files.setdefault(evaluation.game_of_file(compendium, path), []).extend(evaluation.load_queries(path))
    by_pack = calibration.rows(compendium, files)
    features_used = tuple(f for f in fusion.ANSWER_FEATURES if f not in ("asked", "zq"))  # no cards: both 0
    fitted = calibration.leave_one_pack_out(by_pack, features_used)
    for line in calibration.report(fitted, "bare packs: no lexicon, no cards, no other names"):
        print(line)
    current = {p: calibration.accuracy(rows, fusion.ANSWER_MODEL_NO_CARDS) for p, rows in by_pack.items()}
    print("  today's ANSWER_MODEL_NO_CARDS on the same rows: " + ", ".join(f"{p} {a:.3f}" for p, a in current.items()))
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
