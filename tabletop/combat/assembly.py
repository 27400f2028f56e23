"""A fight assembled from its options (options.py): the sides parsed, the loss orders and
modifiers, what each kind of fight adds (an invasion's ships and structures, a bombardment's
shield), the named effects checked, and what the reply says before the first die (notes)."""

from __future__ import annotations

import re

from tabletop.combat import transforms, units
from tabletop.combat.battle import ATTACKER, DEFENDER, MAX_ROUNDS, Fight, check_modifier, idle_effects, with_modifier
from tabletop.combat.options import Bombardment, FightValues, GroundFight, Invasion, SpaceFight
from tabletop.combat.played import moment
from tabletop.combat.shielded import unmodelled_against
from tabletop.combat.unitdata import DESCRIPTIVE, EFFECT_FIELDS, GROUND_FIGHTS, UnitDataError
from tabletop.combat.units import Side, UnitBook, parse_order, parse_side
from tabletop.core import settings
from tabletop.core.errors import UserError
from tabletop.core.i18n import t

GAME = "ti4"
UNIT_PROBLEMS_SHOWN = 5  # the first few say what to fix; `python bot.py build` lists them all


def unit_book(content: str = settings.CONTENTS[0]) -> UnitBook:
    """The unit catalogue as a table of this content reads it; a sentence naming the first
    problems when its files are broken (the rules keep answering: they never read these files)."""
    try:
        return units.unit_book(GAME).for_content(content)
    except UnitDataError as exc:
        shown = "\n".join(f"  {m}" for m in exc.messages[:UNIT_PROBLEMS_SHOWN])
        raise UserError(t("combat.unit_data_broken", count=len(exc.messages), problems=shown)) from None


_RETREAT_RE = re.compile(r"^\s*(attacker|defender|공격자|방어자|攻撃側|防御側)\s*@\s*(\d{1,3})\s*$", re.IGNORECASE)
_SIDE_WORDS = {
    "attacker": ATTACKER,
    "공격자": ATTACKER,
    "攻撃側": ATTACKER,
    "defender": DEFENDER,
    "방어자": DEFENDER,
    "防御側": DEFENDER,
}


def parse_retreat(spec: str | None) -> tuple[str, int] | None:
    """'attacker@2': that side retreats after round 2 if it still has ships."""
    if not spec or not spec.strip():
        return None
    m = _RETREAT_RE.match(spec)
    if not m or not 1 <= int(m[2]) <= MAX_ROUNDS:
        raise UserError(t("combat.bad_retreat", spec=spec[:30], limit=MAX_ROUNDS))
    return _SIDE_WORDS[m[1].lower()], int(m[2])


def _sides(values: GroundFight, book: UnitBook) -> tuple[Side, Side]:
    a = parse_side(values.attacker, book, "attacker")
    d = parse_side(values.defender, book, "defender")
    a.order = parse_order(values.attacker_order, book, a)
    d.order = parse_order(values.defender_order, book, d)
    a = with_modifier(a, check_modifier(values.attacker_mod or 0, "attacker_mod"))
    d = with_modifier(d, check_modifier(values.defender_mod or 0, "defender_mod"))
    return a, d


MAX_PDS_PER_PLANET = 2  # 89.3: each planet can have at most two PDS


def assemble(kind: str, values: FightValues, book: UnitBook) -> Fight:
    """A fight from its command's values: the dice, the odds, the CLI, the console and Discord
    all come here (commands.build_fight), so the same words mean the same battle everywhere."""
    if kind == "space" and isinstance(values, SpaceFight):
        fight = _space(values, book)
    elif kind == "ground" and isinstance(values, GroundFight):
        a, d = _sides(values, book)
        fight = Fight("ground", a, d)
        if not fight.participants(a, ATTACKER) or not fight.participants(d, DEFENDER):
            raise UserError(t("combat.no_ground_forces"))
    elif kind == "bombard" and isinstance(values, Bombardment):
        fight = _bombardment(values, book)
    elif kind == "invade" and isinstance(values, Invasion):
        fight = _invasion(values, book)
    else:
        raise ValueError(kind)
    if not isinstance(values, Bombardment) and values.rounds is not None:
        fight.stop_after = values.rounds
    fight.content = book.content
    fight.notes = fight.attacker.notes + fight.defender.notes + (fight.ships.notes if fight.ships else [])
    fight.notes += named_effects_checked(fight, book) + before_the_fight(fight)
    fight.notes += idle_effects(fight) + moment.notes(fight)
    return fight


def _space(values: SpaceFight, book: UnitBook) -> Fight:
    a, d = _sides(values, book)
    for name, s in (("attacker", a), ("defender", d)):
        if not any(u.ship for u in s.units):
            raise UserError(t("combat.no_ships", field=name))
    return Fight("space", a, d, retreat=parse_retreat(values.retreat))


def _bombardment(values: Bombardment, book: UnitBook) -> Fight:
    ships = parse_side(values.units, book, "units")
    target = parse_side(values.target, book, "target")
    target.order = parse_order(values.target_order, book, target)
    if not any(u.bombardment for u in ships.units) and not ships.effects.blitz:
        raise UserError(t("combat.no_bombardment"))
    _on_the_planet(target, "target")
    return Fight("bombard", ships, target, shield=bool(values.shield))


def _on_the_planet(side: Side, field_name: str) -> None:
    """A planet's side holds ground forces and structures: a ship typed there (a war sun as a
    bombardment's target) would be a unit no rule lets be there, its hits silently lost."""
    ships = [u for u in side.units if u.ship and not u.ground]  # Eidolon Maximum is both: it may stand there
    if ships:
        raise UserError(t("combat.ship_on_planet", unit=ships[0].name(), field=field_name))


def _invasion(values: Invasion, book: UnitBook) -> Fight:
    ships = parse_side(values.ships, book, "ships")
    if not any(u.ship for u in ships.units):  # ground forces land from ships (75)
        raise UserError(t("combat.landing_needs_ships"))
    landing = parse_side(values.landing, book, "landing")
    typed = (values.defender or "").strip()  # empty: only structures defend the planet
    defender = parse_side(typed, book, "defender") if typed else Side(units=[])
    _on_the_planet(defender, "defender")
    if values.pds:  # the planet's structures defend with it: a loss order may name them (a Hel-Titan)
        _add_structures(defender, parse_side(values.pds, book, "pds"), book)
    landing.order = parse_order(values.landing_order, book, landing)
    defender.order = parse_order(values.defender_order, book, defender)
    landing = with_modifier(landing, check_modifier(values.attacker_mod or 0, "attacker_mod"))
    defender = with_modifier(defender, check_modifier(values.defender_mod or 0, "defender_mod"))
    landing.effects, landing.effect_names = _merged_effects(ships, landing)
    pds = sum(u.type == "pds" for u in defender.units)
    if pds > MAX_PDS_PER_PLANET:
        raise UserError(t("combat.too_many_pds", count=pds, limit=MAX_PDS_PER_PLANET))
    not_ground = [u for u in landing.units if not u.ground and u.type != "fighter"]
    if not_ground:
        raise UserError(t("combat.not_ground_force", unit=not_ground[0].name()))
    return Fight("invade", landing, defender, ships=ships, shield=bool(values.shield))


def _add_structures(defender: Side, structures: Side, book: UnitBook) -> None:
    """An invasion's `pds:`: the planet's structures join its defender, and the effects named
    with them (lightrail ordnance) are the defender's."""
    wrong = [u for u in structures.units if not (u.space_cannon or u.structure)]
    if wrong:
        raise UserError(t("combat.pds_only", unit=wrong[0].name()))
    defender.units += structures.units
    for eid in structures.effect_ids:
        if eid not in defender.effect_ids:
            defender.effects.add(book.effects[eid])
            defender.effect_names.append(book.effect_label(eid))
            defender.effect_ids.append(eid)


def _breach_meets_mentak(side: Side, opponent: Side) -> bool:
    """A Quietus with an active breach against the Mentak flagship: the breach takes the flagship's
    ability while the Quietus lives, and it would hinder again once the Quietus falls, a turn the
    odds do not follow (they would leave the Quietus's side able to sustain)."""
    quietus = side.effects.active_breach and any("breach-strips-abilities" in u.abilities for u in side.units)
    return quietus and any(u.ship and "opponent-no-sustain" in u.abilities for u in opponent.units)


def named_effects_checked(fight: Fight, book: UnitBook) -> list[str]:
    """What the named effects can do in this fight: refused where the odds cannot follow them (a
    defender's effect named by the attacker; Proxima or Harrow against the Eidolon Maximum, whose
    hits the loss order cannot place); a note for each that does nothing in this kind of fight."""
    notes = []
    attackers = [fight.attacker] + ([fight.ships] if fight.ships else [])
    for who, sides in (("attacker", attackers), ("defender", [fight.defender])):
        for side in sides:
            for eid in side.effect_ids:
                fields = [EFFECT_FIELDS[f] for f in book.effects[eid] if f in EFFECT_FIELDS and f not in DESCRIPTIVE]
                if who == "attacker" and any(f.defender_only for f in fields):
                    raise UserError(t("combat.defender_only", effect=book.effect_label(eid)))
                bonus = book.effects[eid].get("unit_bonus")
                if bonus and not any(u.id == bonus["unit"] for u in side.units):  # it would change nothing
                    unit = book.make(bonus["unit"], 1).name()
                    raise UserError(t("combat.bonus_needs_unit", effect=book.effect_label(eid), unit=unit))
                acting = [f.acts_in for f in fields if f.acts_in is not None]
                if acting and len(acting) == len(fields) and all(fight.kind not in kinds for kinds in acting):
                    notes.append(t("combat.effect_idle", side=t(f"combat.{who}"), effect=book.effect_label(eid)))
    for side, opponent in ((fight.attacker, fight.defender), (fight.defender, fight.attacker)):
        if fight.kind == "space" and _breach_meets_mentak(side, opponent):
            raise UserError(t("combat.breach_against_mentak"))
        if fight.kind == "space" and side.effects.void_shielding and unmodelled_against(opponent):
            relic = next(e for e in side.effect_ids if book.effects[e].get("void_shielding"))
            raise UserError(t("combat.void_shielding_hindered", effect=book.effect_label(relic)))
    unmovable = [u for s in (fight.attacker, fight.defender) for u in s.units if "no-ability-hits" in u.abilities]
    if unmovable and fight.kind in GROUND_FIGHTS:
        for side in [*attackers, fight.defender]:
            for eid in side.effect_ids:
                row = book.effects[eid]
                if row.get("proxima") or (row.get("harrow") and fight.kind == "invade"):
                    raise UserError(t("combat.no_ability_hits", effect=book.effect_label(eid)))
    return notes


def before_the_fight(fight: Fight) -> list[str]:
    """Abilities that change the units before the fight (transforms): Smothering Presence and the
    Quietus's breach, on either side; linkships taking a structure's Space Cannon in a space
    combat. Its notes."""
    for side in (fight.attacker, fight.defender):  # before the breach, which takes what they gain
        transforms.docks(side)
    attackers = [fight.attacker] + ([fight.ships] if fight.ships else [])  # an invasion's Quietus is a ship
    notes = transforms.smother(attackers, fight.defender) + transforms.breach(attackers, fight.defender)
    notes += transforms.smother([fight.defender], fight.attacker) + (
        transforms.smother([fight.defender], fight.ships) if fight.ships else []
    )
    if not fight.ships:  # in an invasion the defender's ships are gone: space combat came first
        notes += transforms.breach([fight.defender], fight.attacker)
    if fight.kind == "space":
        transforms.linkships(fight.attacker)
        transforms.linkships(fight.defender)
    return notes


def _merged_effects(ships: Side, landing: Side):
    """A faction or technology named once with the fleet counts for the troops too."""
    if landing.effect_names or not ships.effect_names:
        return landing.effects, landing.effect_names
    return ships.effects, list(ships.effect_names)
