"""Hardlight (Twilight's Fall action card): "Before hits are assigned to your units: cancel up
to 2 hits." Played at its first opportunity: the first volley (any roll, before the rounds too)
that makes 2 hits or more against the holder, or that would destroy its last unit; before
Sustain Damage."""

from __future__ import annotations

from tabletop.combat.played.card import PlayedCard

CANCELLED = 2  # the card's "up to 2 hits"


class Hardlight(PlayedCard):
    id = "hardlight"
    most_cancelled = CANCELLED

    def cancels(self, hits: int, wipes: bool) -> int:
        return CANCELLED if hits >= CANCELLED or (hits and wipes) else 0
