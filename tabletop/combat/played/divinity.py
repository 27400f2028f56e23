"""Divinity (Twilight's Fall action card): "When 1 of your units would be destroyed: it is not
destroyed instead." Played at its first opportunity: the first round that destroys units of the
holder's; the most expensive of them stays (damaged, if it had sustained)."""

from __future__ import annotations

from tabletop.combat.played.card import Moment, Played, PlayedCard, most_expensive


class Divinity(PlayedCard):
    id = "divinity"
    step = 1

    def after_round(self, holder: Moment, opponent: Moment) -> Played | None:
        if not holder.destroyed:
            return None
        saved = most_expensive(holder.destroyed)
        return Played(lambda _: (holder.restoring(saved), opponent, ("combat.played.saved", {"unit": saved.label()})))
