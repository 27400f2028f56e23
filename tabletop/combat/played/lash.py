"""Lash (Twilight's Fall action card): "When 1 of your units is destroyed: destroy a unit in its
system that has an equal or lower cost." Played at its first opportunity: the first volley (any
roll, before the rounds too) that destroys a unit of the holder's when the opponent has a unit
costing no more; the most expensive of those destroyed sets the cost, and the opponent's most
expensive unit at or under it is destroyed, whatever its Sustain Damage."""

from __future__ import annotations

from tabletop.combat.played.card import Moment, Played, PlayedCard, most_expensive


class Lash(PlayedCard):
    id = "lash"

    def after_round(self, holder: Moment, opponent: Moment) -> Played | None:
        if not holder.destroyed:
            return None
        cost = most_expensive(holder.destroyed).cost
        within = [u for u in opponent.alive if u.cost <= cost]
        if not within:  # no unit to destroy: not its moment yet
            return None
        target = most_expensive(within)
        return Played(lambda _: (holder, opponent.losing([target]), ("combat.played.destroyed", {"units": target.label()})))
