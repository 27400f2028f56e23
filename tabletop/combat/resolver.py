"""Combat dice by the glossary: ground combat (70), bombardment (79), sustain damage (80), space
cannon defence (75.3) and whole invasions (75). Every die comes from a seeded generator, so a
battle can be replayed from its seed, and every hit names the unit that took it.

Hit assignment policy (a player may give another order): Sustain Damage first, on the most
valuable unit that can still sustain; then units in the player's order, if given; then the
cheapest unit first (infantry before mechs), damaged units before undamaged ones.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tabletop.combat.dice import MAX_DICE, Dice
from tabletop.combat.units import Side, Unit
from tabletop.errors import UserError
from tabletop.frontend.i18n import t

MAX_ROUNDS = 100
MAX_MODIFIER = 10
ATTACKER, DEFENDER = "attacker", "defender"


@dataclass
class Die:
    unit: str
    needs: int  # hits on this or higher (after the modifier)
    roll: int
    modifier: int
    hit: bool

    def as_dict(self) -> dict:
        return {"unit": self.unit, "needs": self.needs, "roll": self.roll, "modifier": self.modifier, "hit": self.hit}


@dataclass
class HitTaken:
    unit: str
    result: str  # "sustained" | "destroyed"

    def as_dict(self) -> dict:
        return {"unit": self.unit, "result": self.result}


@dataclass
class Volley:
    """One side's roll and what the hits did to the other side."""

    side: str  # who rolled: attacker | defender
    kind: str  # combat | bombardment | space_cannon | harrow | valkyrie
    dice: list[Die] = field(default_factory=list)
    hits: int = 0
    taken: list[HitTaken] = field(default_factory=list)
    excess: int = 0  # hits with nothing left to hit (79.2)
    blocked: str = ""  # why no roll happened (a planetary shield, 86)

    def as_dict(self) -> dict:
        d = {
            "side": self.side,
            "kind": self.kind,
            "dice": [x.as_dict() for x in self.dice],
            "hits": self.hits,
            "taken": [x.as_dict() for x in self.taken],
            "excess": self.excess,
        }
        if self.blocked:
            d["blocked"] = self.blocked
        return d


@dataclass
class Round:
    number: int
    volleys: list[Volley] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"round": self.number, "volleys": [v.as_dict() for v in self.volleys]}


@dataclass
class Battle:
    kind: str  # ground | bombard | invade
    seed: int
    steps: list[Round] = field(default_factory=list)  # rounds; step 0 holds pre-combat volleys
    attacker: Side | None = None
    defender: Side | None = None
    winner: str | None = None  # attacker | defender | draw (ground combat)
    control: str | None = None  # attacker | defender (invasion, 75.5)
    notes: list[str] = field(default_factory=list)
    stopped: bool = False  # stopped after MAX_ROUNDS

    def survivors(self, side: Side | None, locale="ko") -> list[str]:
        if side is None:
            return []
        return [u.label(locale) + (" (damaged)" if u.damaged else "") for u in side.units]

    def as_dict(self, locale="ko") -> dict:
        return {
            "kind": self.kind,
            "seed": self.seed,
            "rounds": [r.as_dict() for r in self.steps],
            "survivors": {
                ATTACKER: self.survivors(self.attacker, locale),
                DEFENDER: self.survivors(self.defender, locale),
            },
            "winner": self.winner,
            "control": self.control,
            "notes": self.notes,
            "stopped": self.stopped,
        }


# --- hits ---------------------------------------------------------------------------------------


def _destroy_order(side: Side, candidates: list[Unit]) -> list[Unit]:
    order = {uid: i for i, uid in enumerate(side.order)}
    return sorted(
        candidates,
        key=lambda u: (order.get(u.id, len(order)), u.cost, not u.damaged, u.number),
    )


def assign_hits(side: Side, hits: int, locale="ko", can_sustain: bool = True) -> tuple[list[HitTaken], int, int]:
    """Apply hits to a side's ground forces: (what happened, excess hits, Valkyrie counter-hits)."""
    taken: list[HitTaken] = []
    counter = 0
    while hits > 0:
        targets = [u for u in side.units if u.ground]
        if not targets:
            return taken, hits, counter
        sustainers = [u for u in targets if u.can_sustain] if can_sustain else []
        if sustainers:
            unit = max(sustainers, key=lambda u: (u.cost, -u.number))
            unit.damaged = True
            cancelled = min(hits, side.sustain_cancels)
            hits -= cancelled
            taken.extend(HitTaken(unit.label(locale), "sustained") for _ in range(cancelled))
            counter += unit.sustain_hit
            continue
        unit = _destroy_order(side, targets)[0]
        side.units.remove(unit)
        taken.append(HitTaken(unit.label(locale), "destroyed"))
        hits -= 1
    return taken, 0, counter


def roll_volley(side_name: str, units: list[Unit], kind: str, dice: Dice, modifier: int, locale="ko") -> Volley:
    volley = Volley(side_name, kind)
    for unit in units:
        if kind == "combat":
            if unit.combat is None:
                continue
            value, count = unit.combat, unit.dice
        else:
            stat = unit.space_cannon if kind == "space_cannon" else unit.bombardment
            if stat is None:
                continue
            value, count = stat.value, stat.dice
        for _ in range(count):
            roll = dice.roll()
            hit = roll + modifier >= value
            volley.dice.append(Die(unit.label(locale), value, roll, modifier, hit))
            volley.hits += hit
    return volley


def fire(side_name: str, units: list[Unit], kind: str, dice: Dice, target: Side, locale="ko") -> Volley:
    """A roll that is not a combat roll (bombardment, Harrow, space cannon): no modifiers
    (79.1), and the target assigns the hits at once."""
    volley = roll_volley(side_name, units, kind, dice, 0, locale)
    volley.taken, volley.excess, _ = assign_hits(target, volley.hits, locale)
    return volley


def check_modifier(value: int, name: str, locale="ko") -> int:
    if not -MAX_MODIFIER <= value <= MAX_MODIFIER:
        raise UserError(t("combat.bad_modifier", locale, field=name, limit=MAX_MODIFIER))
    return value


def _check_dice(units: list[Unit], per_unit, field_name: str, locale) -> None:
    total = sum(per_unit(u) for u in units)
    if total > MAX_DICE:
        raise UserError(t("combat.too_many_dice", locale, field=field_name, count=total, limit=MAX_DICE))


def _shield(defender: Side, attackers: list[Unit], shield: bool | None) -> bool:
    """A planetary shield on the planet counts unless a war sun is among the attacker's units (86.3)."""
    present = bool(shield) or any(u.planetary_shield for u in defender.units)
    return present and not any(u.disables_shields for u in attackers)


# --- the fights ---------------------------------------------------------------------------------


def ground_combat(
    attacker: Side,
    defender: Side,
    dice: Dice,
    attacker_mod: int = 0,
    defender_mod: int = 0,
    locale="ko",
    harrow_ships: list[Unit] | None = None,
    harrow_blocked: bool = False,
    battle: Battle | None = None,
) -> Battle:
    """Rounds of ground combat (70) until one side or both are gone (70.3-70.4)."""
    battle = battle or Battle("ground", dice.seed)
    battle.attacker, battle.defender = attacker, defender
    a_mod = check_modifier(attacker_mod, "attacker_mod", locale) + attacker.combat_modifier
    d_mod = check_modifier(defender_mod, "defender_mod", locale) + defender.combat_modifier
    a_ground, d_ground = attacker.alive(), defender.alive()
    if not a_ground or not d_ground:
        raise UserError(t("combat.no_ground_forces", locale))
    for units, name in ((a_ground, "attacker"), (d_ground, "defender")):
        _check_dice(units, lambda u: u.dice, name, locale)
        missing = [u for u in units if u.combat is None]
        if missing:
            raise UserError(t("combat.no_combat_value", locale, unit=missing[0].name(locale)))
    can_hit = lambda units, mod: any(u.combat - mod <= 10 for u in units)  # noqa: E731
    if not can_hit(a_ground, a_mod) and not can_hit(d_ground, d_mod):
        raise UserError(t("combat.nobody_hits", locale))
    harrow_units = [u for u in (harrow_ships or []) if u.bombardment] if attacker.harrow else []
    number = 0
    while attacker.alive() and defender.alive():
        if number >= MAX_ROUNDS:
            battle.stopped = True
            battle.notes.append(t("combat.stopped", locale, rounds=MAX_ROUNDS))
            break
        number += 1
        rnd = Round(number)
        a_volley = roll_volley(ATTACKER, attacker.alive(), "combat", dice, a_mod, locale)
        d_volley = roll_volley(DEFENDER, defender.alive(), "combat", dice, d_mod, locale)
        # 70.2: both players assign the hits they received at the same time
        a_volley.taken, a_volley.excess, d_counter = assign_hits(defender, a_volley.hits, locale)
        d_volley.taken, d_volley.excess, a_counter = assign_hits(attacker, d_volley.hits, locale)
        rnd.volleys += [a_volley, d_volley]
        for side_name, hits, target in ((ATTACKER, a_counter, defender), (DEFENDER, d_counter, attacker)):
            if hits:  # Valkyrie Exoskeleton: a hit for each sustain it used
                extra = Volley(side_name, "valkyrie", hits=hits)
                extra.taken, extra.excess, _ = assign_hits(target, hits, locale)
                rnd.volleys.append(extra)
        if harrow_units and defender.alive():  # L1Z1X Harrow, end of each round (79.1, 86.2)
            if harrow_blocked:
                rnd.volleys.append(Volley(ATTACKER, "harrow", blocked=t("combat.shield_blocks_harrow", locale)))
            else:
                rnd.volleys.append(fire(ATTACKER, harrow_units, "harrow", dice, defender, locale))
        battle.steps.append(rnd)
    battle.winner = outcome(attacker, defender)
    return battle


def outcome(attacker: Side, defender: Side) -> str | None:
    """70.4: whoever still has ground forces wins; nobody left is a draw; both left: no result."""
    a_left, d_left = bool(attacker.alive()), bool(defender.alive())
    if a_left != d_left:
        return ATTACKER if a_left else DEFENDER
    return None if a_left else "draw"


def bombard(
    units: Side, target: Side, dice: Dice, shield: bool | None = None, locale="ko", battle: Battle | None = None
) -> Battle:
    """Bombardment (79): X (Y) dice per unit, no modifiers or rerolls (79.1), hits on the
    planet's ground forces, excess lost (79.2), blocked by a planetary shield (86) unless a
    war sun is present (86.3). Units with Sustain Damage may use it against these hits (80.4)."""
    battle = battle or Battle("bombard", dice.seed)
    battle.attacker, battle.defender = units, target
    bombarders = [u for u in units.units if u.bombardment]
    if not bombarders:
        raise UserError(t("combat.no_bombardment", locale))
    _check_dice(bombarders, lambda u: u.bombardment.dice, "units", locale)
    step = Round(0)
    if _shield(target, units.units, shield):
        step.volleys.append(Volley(ATTACKER, "bombardment", blocked=t("combat.shield_blocks", locale)))
    else:
        step.volleys.append(fire(ATTACKER, bombarders, "bombardment", dice, target, locale))
    battle.steps.append(step)
    return battle


def space_cannon_defence(landing: Side, defender: Side, dice: Dice, locale="ko") -> Volley | None:
    """75.3: space cannon units on the planet fire at the ground forces that landed."""
    cannons = [u for u in defender.units if u.space_cannon]
    if not cannons:
        return None
    _check_dice(cannons, lambda u: u.space_cannon.dice, "defender", locale)
    return fire(DEFENDER, cannons, "space_cannon", dice, landing, locale)


def invade(
    ships: Side,
    landing: Side,
    defender: Side,
    dice: Dice,
    shield: bool | None = None,
    attacker_mod: int = 0,
    defender_mod: int = 0,
    locale="ko",
) -> Battle:
    """Invasion (75): bombardment, landing, space cannon defence, ground combat, control."""
    battle = Battle("invade", dice.seed)
    battle.attacker, battle.defender = landing, defender
    not_ground = [u for u in landing.units if not u.ground]
    if not_ground:
        raise UserError(t("combat.not_ground_force", locale, unit=not_ground[0].name(locale)))
    if not landing.units:
        raise UserError(t("combat.empty_side", locale, field="landing"))
    if ships.effects and not landing.effects:  # a faction named once, with the fleet, counts for the landing
        landing.combat_modifier, landing.sustain_cancels = ships.combat_modifier, ships.sustain_cancels
        landing.harrow, landing.effects = ships.harrow, list(ships.effects)
    pre = Round(0)
    if any(u.bombardment for u in ships.units):  # 75.1
        bombard(ships, defender, dice, shield, locale, battle)
        pre = battle.steps.pop()
    battle.attacker = landing
    cannon = space_cannon_defence(landing, defender, dice, locale)  # 75.3
    if cannon:
        pre.volleys.append(cannon)
    if pre.volleys:
        battle.steps.append(pre)
    if landing.alive() and defender.alive():  # 75.4
        ground_combat(
            landing,
            defender,
            dice,
            attacker_mod,
            defender_mod,
            locale,
            harrow_ships=ships.units,
            harrow_blocked=_shield(defender, ships.units, shield),
            battle=battle,
        )
    else:
        battle.winner = outcome(landing, defender)
    # 75.5: the attacker takes control if any of its ground forces remain; otherwise
    # (including when both sides were wiped out) the defender keeps it.
    battle.control = ATTACKER if landing.alive() else DEFENDER
    if battle.control == ATTACKER:
        structures = [u for u in defender.units if u.structure]
        for u in structures:  # 75.5: the other player's structures on the planet are destroyed
            defender.units.remove(u)
        if structures:
            battle.notes.append(t("combat.structures_destroyed", locale, count=len(structures)))
    return battle
