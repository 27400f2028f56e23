"""Seed text vs pack text: the helpers behind the fidelity tests."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from tabletop.rules.answers import ROMAN
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


def norm(line: str) -> str:
    return " ".join(line.replace("\xa0", " ").split())


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
    """The pack's text in source order, laid out line by line as the seed lays it out."""
    out: list[str] = []
    numbered = pack.numbering == "source"
    for s in pack.sections:
        if s.part:
            out.append(norm(s.part))
        if s.title_from == "heading":
            out.append(f"{s.number} {s.full_title}" if numbered else norm(s.full_title))
        out += [norm(x) for x in s.intro_lines()]
        for r in s.rules:
            first = True
            for label in (r.heading, r.text):
                if label:
                    out.append(norm(f"{r.id} {label}" if numbered and first else label))
                    first = False
            step = 0
            for item in r.items:
                if item.kind == "bullet":
                    out.append(norm(f"• {item.text}"))
                elif item.kind == "step":
                    out.append(norm(f"{ROMAN[step]}. {item.text}"))
                    step += 1
                else:
                    out.append(norm(item.text))
        if s.related and pack.id in RELATED_PREFIX:
            out.append(RELATED_PREFIX[pack.id] + ", ".join(s.related))
    return out


def compare(pack: Pack) -> tuple[Counter, Counter]:
    """(seed lines missing from the pack, pack lines not in the seed), counted."""
    seed, ours = Counter(seed_lines(pack.id)), Counter(pack_lines(pack))
    return seed - ours, ours - seed


_MARKER = re.compile(r"^[-•*]+")


def squash(lines: list[str]) -> str:
    """All the characters, in order, without white space or leading list markers: a pack may
    join hard-wrapped lines into paragraphs, but not add, drop or move a single character."""
    return "".join(re.sub(r"\s+", "", _MARKER.sub("", line.strip())) for line in lines)


def first_difference(a: str, b: str, context: int = 30) -> str:
    i = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return f"at {i}: seed …{a[max(0, i - context) : i + context]}… / pack …{b[max(0, i - context) : i + context]}…"
