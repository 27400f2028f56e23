"""Lash (Twilight's Fall action card): "When 1 of your units is destroyed: destroy a unit in its
system that has an equal or lower cost." Played at its first opportunity: the first round that
destroys units of the holder's; the most expensive of them sets the cost, and the opponent's most
expensive unit left at or under it is destroyed, whatever its Sustain Damage."""

from __future__ import annotations

from tabletop.combat.played.card import Moment, Played, PlayedCard, most_expensive


class Lash(PlayedCard):
    id = "lash"

    def after_round(self, holder: Moment, opponent: Moment) -> Played | None:
        if not holder.destroyed:
            return None
        cost = most_expensive(holder.destroyed).cost
        within = [u for u in opponent.alive if u.cost <= cost]
        if not within:
            return Played(lambda _: (holder, opponent, ("combat.played.lash_idle", {"cost": f"{cost:g}"})))
        target = most_expensive(within)
        return Played(lambda _: (holder, opponent.losing([target]), ("combat.played.destroyed", {"units": target.label()})))
