"""Is a pack the document's text? Both as one string of their characters in order, without
white space or list markers: a pack may join wrapped lines and drop bullets' marks, never add,
drop or move a character. The shipped packs' tests and every import use this one check."""

from __future__ import annotations

import re

from tabletop.core.text import ROMAN
from tabletop.rules.packs import Pack

_MARKER = re.compile(r"^[-•*]+")


def norm(line: str) -> str:
    return " ".join(line.replace("\xa0", " ").split())


def squash(lines: list[str]) -> str:
    return "".join(re.sub(r"\s+", "", _MARKER.sub("", line.strip())) for line in lines)


def first_difference(a: str, b: str, context: int = 30) -> str:
    i = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return f"at {i}: document …{a[max(0, i - context) : i + context]}… / pack …{b[max(0, i - context) : i + context]}…"


def pack_lines(pack: Pack, related_prefix: str = "") -> list[str]:
    """The pack's text in source order, laid out line by line as its document lays it out."""
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
        if s.related and related_prefix:
            out.append(related_prefix + ", ".join(s.related))
    return out
