"""Abilities that change what units are before a fight starts, applied to the sides once, so that
the dice and both exact solvers see the same units without knowing of them:

- the Quietus (Crimson Rebellion flagship) with an active breach named on its side: the other
  side's units lose their unit abilities (Sustain Damage, Anti-Fighter Barrage, Space Cannon,
  Bombardment, Planetary Shield and the rest). Each unit keeps what it was (`restored`): once
  the Quietus is destroyed, the rounds after meet them as they are (SideModel.facing);
- Smothering Presence (Crimson Rebellion, Twilight's Fall) named on a side with a structure: the
  other side's units lose their unit abilities for the whole fight (structures do not leave);
- linkships (Ral Nel Consortium destroyers) in a space combat fire the Space Cannon of one of
  their side's structures: Linkship I each structure once, Linkship II any (the best);
- Lightrail Ordnance: the side's space docks gain Space Cannon 5 (x2).
"""

from __future__ import annotations

from dataclasses import replace

from tabletop.combat.unitdata import DIE_FACES
from tabletop.combat.units import Roll, Side, Unit
from tabletop.core.i18n import t

BREACH = "breach-strips-abilities"
LINKSHIP_I, LINKSHIP_II = "borrows-structure-cannon", "shares-structure-cannon"


def without_abilities(unit: Unit) -> Unit:
    """The unit with no unit ability left: only its combat value and dice."""
    return replace(
        unit,
        sustain=False,
        bombardment=None,
        space_cannon=None,
        anti_fighter_barrage=None,
        planetary_shield=False,
        disables_shields=False,
        abilities=frozenset(),
        conditional_bonus=0,
        restored=unit,
    )


def breach(own: list[Side], other: Side) -> list[str]:
    """The Quietus's breach: when a side with the Quietus names an active breach, the other
    side's units lose their unit abilities. The notes to log."""
    if not any(s.effects.active_breach for s in own):
        return []
    if not any(BREACH in u.abilities for s in own for u in s.units):
        return [t("combat.breach_idle")]
    other.units = [without_abilities(u) for u in other.units]
    return [t("combat.breach")]


def smother(own: list[Side], other: Side) -> list[str]:
    """Smothering Presence: other players' units in or adjacent to systems with this side's
    structures lose their unit abilities. A structure of the side must be in the fight's units
    (a PDS or space dock typed on it: one next door is typed too, for its Space Cannon, as the
    calculators take it); without one, it is said to do nothing. The notes to log."""
    if not any(s.effects.smothering for s in own):
        return []
    if not any(u.structure for s in own for u in s.units):
        return [t("combat.smothering_idle")]
    other.units = [replace(without_abilities(u), restored=None) for u in other.units]  # for good: no Quietus to lose
    return [t("combat.smothered")]


def docks(side: Side) -> None:
    """Lightrail Ordnance: the side's space docks gain Space Cannon (offence and defence)."""
    roll = side.effects.dock_cannon
    if roll:
        side.units = [
            replace(u, space_cannon=Roll(roll["value"], roll["dice"])) if u.type == "space-dock" and not u.space_cannon else u
            for u in side.units
        ]


def linkships(side: Side) -> None:
    """Each linkship takes the Space Cannon of a structure of its side: the best first, and with
    Linkship I each structure serves one linkship only."""
    cannons = sorted(
        (u.space_cannon for u in side.units if u.structure and u.space_cannon),
        key=lambda roll: -roll.dice * (DIE_FACES + 1 - roll.value),  # most hits expected first
    )
    free = list(cannons)
    for i, unit in enumerate(side.units):
        if LINKSHIP_II in unit.abilities and cannons:
            roll = cannons[0]
        elif LINKSHIP_I in unit.abilities and free:
            roll = free.pop(0)
        else:
            continue
        if unit.id.endswith("+galvanized"):  # a galvanized unit rolls one more die for its abilities
            roll = replace(roll, dice=roll.dice + 1)
        side.units[i] = replace(unit, space_cannon=roll)
