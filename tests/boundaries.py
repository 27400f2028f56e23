"""Where each section of a pack starts, as an offset into the squashed text of its document,
so an imported pack and the hand-made one can be compared section by section."""

from __future__ import annotations

from dataclasses import replace

from tabletop.packimport.fidelity import pack_lines, squash
from tabletop.rules.packs import Pack

# The hand-made TI4 pack corrects the seed's numbering slips (873 -> 87.3, 62.13. -> 62.13):
# a start within this many characters of the other is the same place.
TOLERANCE = 3


def starts(pack: Pack, related_prefix: str = "") -> list[int]:
    """Offsets of each section's first character in the pack's own squashed text."""
    offsets, at = [], 0
    for section in pack.sections:
        offsets.append(at)
        at += len(squash(pack_lines(replace(pack, sections=(section,)), related_prefix)))
    return offsets


def agreement(hand: list[int], imported: list[int]) -> tuple[float, float]:
    """(share of hand-made starts the import also has, share of imported starts that are hand-made)."""
    found = sum(1 for h in hand if any(abs(h - i) <= TOLERANCE for i in imported))
    kept = sum(1 for i in imported if any(abs(h - i) <= TOLERANCE for h in hand))
    return found / len(hand), kept / len(imported)
