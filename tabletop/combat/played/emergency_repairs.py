"""Emergency Repairs (base action card): "At the start or end of a combat round: repair all of
your units that have SUSTAIN DAMAGE in the active system." Played at its first opportunity: the
start of the combat rounds if a unit of the holder's is damaged by then, else the end of the
first round after which one is."""

from __future__ import annotations

from tabletop.combat.played.card import Moment, Played, PlayedCard


class EmergencyRepairs(PlayedCard):
    id = "emergency-repairs"
    step = 3

    def at_start(self, holder: Moment) -> bool:
        return bool(holder.damaged & holder.sustainers)

    def after_round(self, holder: Moment, opponent: Moment) -> Played | None:
        if not holder.damaged or holder.gone or opponent.gone:
            return None
        repaired = ", ".join(u.label() for u in holder.alive if id(u) in holder.damaged)
        return Played(lambda _: (holder.repaired(), opponent, ("combat.played.repaired", {"units": repaired})))
