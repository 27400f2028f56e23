"""Emergency Repairs (base action card): "At the start or end of a combat round: repair all of
your units that have SUSTAIN DAMAGE in the active system." Played at its first opportunity: the
end of the first round after which a unit of the holder's is damaged (the start of the next)."""

from __future__ import annotations

from tabletop.combat.played.card import Moment, Played, PlayedCard


class EmergencyRepairs(PlayedCard):
    id = "emergency-repairs"
    step = 3

    def after_round(self, holder: Moment, opponent: Moment) -> Played | None:
        if not holder.damaged or holder.gone or opponent.gone:
            return None
        repaired = ", ".join(u.label() for u in holder.alive if id(u) in holder.damaged)
        return Played(lambda _: (holder.repaired(), opponent, ("combat.played.repaired", {"units": repaired})))
