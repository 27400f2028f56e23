"""Seed text vs pack text: the helpers behind the fidelity tests."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from tabletop.packimport.fidelity import norm
from tabletop.packimport.fidelity import pack_lines as text_lines
from tabletop.rules.packs import Pack

SEEDS = Path(__file__).resolve().parent / "seeds"

# pack id -> (seed file, first line of the text the pack carries: before it is front matter)
PACK_SEEDS = {
    "ti4": ("003_4151336e0b4c46e3.txt", "62 정책 단계"),
    "galaxy-trucker": ("000_98998ac7dd1651a4.txt", None),
    "galaxy-trucker-big-expansion": ("004_6ff00c0686082059.txt", None),
    "new-frontiers": ("001_2fd52811cafb59ee.txt", None),
    "liftoff": ("002_3ae7427f8f9ab1f1.txt", None),
}
RELATED_PREFIX = {"ti4": "연관 주제: "}


def seed_lines(pack_id: str) -> list[str]:
    """The seed's text as normalised non-empty lines; a bullet alone on its line is joined to
    the next line, and the numbering slips the seeds README lists are corrected."""
    file, start = PACK_SEEDS[pack_id]
    lines = [norm(x) for x in (SEEDS / file).read_text(encoding="utf-8").split("\n")]
    lines = [x for x in lines if x]
    if start:
        lines = lines[lines.index(start) :]
    out: list[str] = []
    for line in lines:
        if out and out[-1] == "•":
            out[-1] = f"• {line}"
            continue
        out.append(line)
    if pack_id == "ti4":
        out = [re.sub(r"^(\d+\.\d+)\. ", r"\1 ", x) for x in out]
        out = [re.sub(r"^873 ", "87.3 ", x) for x in out]
    return out


def pack_lines(pack: Pack) -> list[str]:
    return text_lines(pack, RELATED_PREFIX.get(pack.id, ""))


def compare(pack: Pack) -> tuple[Counter, Counter]:
    """(seed lines missing from the pack, pack lines not in the seed), counted."""
    seed, ours = Counter(seed_lines(pack.id)), Counter(pack_lines(pack))
    return seed - ours, ours - seed
