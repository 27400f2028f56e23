"""Courageous to the End (base action card): "After 1 of your ships is destroyed during a space
combat: roll 2 dice. For each result equal to or greater than that ship's combat value, your
opponent must choose and destroy 1 of their ships." Played at its first opportunity: the first
round (or anti-fighter barrage: space cannon fire comes before the combat) that destroys ships of
the holder's, at the best combat value among them; the opponent's ships go in its loss order,
whatever their Sustain Damage."""

from __future__ import annotations

from tabletop.combat.model import die
from tabletop.combat.played.card import Moment, Played, PlayedCard

DICE = 2  # the card's "roll 2 dice"
DURING_COMBAT = ("combat", "anti_fighter_barrage")  # the volleys of a space combat (space cannon comes before it)


class CourageousToTheEnd(PlayedCard):
    id = "courageous-to-the-end"
    fights = frozenset({"space"})
    rolls = True

    def after_round(self, holder: Moment, opponent: Moment) -> Played | None:
        ships = [u for u in holder.destroyed if u.ship and u.combat is not None]
        if not ships or holder.volley not in DURING_COMBAT:
            return None
        value = min(u.combat for u in ships if u.combat is not None)
        targets = [u for u in opponent.alive if u.ship]

        def sides(hits: int) -> tuple:
            lost = targets[:hits]
            units = ", ".join(u.label() for u in lost)
            log = (
                ("combat.played.courageous", {"value": value, "hits": hits, "units": units})
                if lost
                else ("combat.played.courageous_missed", {"value": value})
            )
            return holder, opponent.losing(lost), log

        return Played(sides, (die(value),) * DICE)
