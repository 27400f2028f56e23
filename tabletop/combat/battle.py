"""The rules of each fight, written once and used by both the dice (resolver) and the exact odds
(odds): who takes part, which dice each side rolls in a state, what happens before the rounds,
and what effects add to a round.

Fights: space combat (space cannon offence, Assault Cannon, anti-fighter barrage in round 1,
rounds with Sustain Damage), ground combat (70), bombardment (79) and invasion (75: bombardment,
landing, space cannon defence, ground combat, control).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from tabletop.combat import transforms
from tabletop.combat.directed import SplitSideModel
from tabletop.combat.model import DENIES, Die, SideModel, State, die, loss_key, needs, weakest_first
from tabletop.combat.shielded import model_kind
from tabletop.combat.units import Roll, Side, Unit, galvanized
from tabletop.core.errors import UserError
from tabletop.core.i18n import t

ATTACKER, DEFENDER = "attacker", "defender"
MAX_ROUNDS = 100
MAX_MODIFIER = 10


def other(name: str) -> str:
    return DEFENDER if name == ATTACKER else ATTACKER


# --- rolls before the rounds ---------------------------------------------------------------------

# Proxima Targeting VI (Last Bastion): at the start of each round of ground combat, BOMBARDMENT
# 8 (x3) against the opponent's ground forces and the identical roll against its own.
PROXIMA = Roll(8, 3)
VALIANCE_INFANTRY = 3  # the A3 Valiance galvanizes up to 3 infantry when it dies galvanized


def galvanized_cancels(model: SideModel, state: State) -> int:
    """Proxima Targeting VI: 1 bombardment hit against a side's ground forces cancelled for each
    of its galvanized units present."""
    return sum(1 for u in model.alive(state) if u.id.endswith("+galvanized"))


# The attacks that are unit abilities (Bombardment, Space Cannon, Anti-Fighter Barrage; Harrow
# is a bombardment), as against technologies, faction abilities and cards that produce hits.
UNIT_ABILITY_ROLLS = frozenset({"bombardment", "harrow", "space_cannon_offense", "space_cannon_defense", "anti_fighter_barrage"})


@dataclass
class Attack:
    """A roll outside the combat rounds (space cannon, barrage, bombardment, Magen), and how its
    hits are assigned on the target side. `fixed` hits need no die."""

    shooter: str
    kind: str  # space_cannon | anti_fighter_barrage | bombardment | opening_hit | assault_cannon
    dice: list[tuple[str, int, Die]]  # (unit label, unit value, die)
    targets: Callable[[Unit], bool]
    first: Callable[[Unit], bool] | None = None  # Graviton: these targets before the others
    sustain: bool = True  # mechs may sustain against bombardment (80.4)
    fixed: int = 0
    x89: bool = False  # after it destroys an infantry, all the opponent's infantry are destroyed
    destroys: int = 1  # units each hit destroys unless cancelled (Conventions of War Abandoned: 3)
    modifier: int = 0
    blocked: str = ""  # why it does not happen (a planetary shield, 86)


def destroying(hits: int, sustains: int, destroys: int) -> int:
    """Conventions of War Abandoned: each bombardment hit destroys `destroys` units unless Sustain
    Damage cancels it. As hits on a side that sustains first: the cancelled ones, then `destroys`
    for each of the rest."""
    cancelled = min(hits, sustains)
    return cancelled + destroys * (hits - cancelled)


class HitPlan:
    """How an attack's hits fall on one side: the groups its targets form (Graviton Laser
    System: non-fighter ships if able) and the loss order of each, worked out once for every
    number of hits the attack can make (the odds ask for each)."""

    def __init__(self, side: Side, attack: Attack, by_strength: bool = False):
        self.side, self.attack = side, attack
        targets = [u for u in side.units if attack.targets(u)]
        if attack.kind in UNIT_ABILITY_ROLLS:  # the Eidolon Maximum is never assigned their hits
            targets = [u for u in targets if "no-ability-hits" not in u.abilities]
        if attack.first:
            groups = [[u for u in targets if attack.first(u)], [u for u in targets if not attack.first(u)]]
        else:
            groups = [targets]
        self.models = [model_kind(side, group)(side, group, attack.sustain, by_strength) for group in groups if group]

    def apply(self, hits: int) -> tuple[Side, list[tuple[Unit, str]], int]:
        """(the side after these hits, [(unit, "sustained" | "destroyed")], excess hits). The
        side is new and only the units whose damage changed are copied; with no hit it is the
        side itself, which the odds know as untouched."""
        if hits <= 0:
            return self.side, [], 0
        if self.attack.kind in ("bombardment", "harrow") and self.side.effects.proxima:  # Proxima Targeting VI
            hits = max(0, hits - sum(1 for u in self.side.units if u.ground and u.id.endswith("+galvanized")))
        if self.attack.destroys > 1:
            hits = destroying(hits, sum(m.undamaged_sustains(m.start) for m in self.models), self.attack.destroys)
        lost: set[int] = set()
        damage: dict[int, bool] = {}  # units whose damage changes
        events: list[tuple[Unit, str]] = []
        for model in self.models:
            if hits <= 0:
                break
            state, taken, hits = model.consume(model.start, hits)
            events += [(model.units[index], result) for index, result in taken]
            lost.update(id(unit) for unit in model.units[: state[1]])
            marked = set(model.damaged(state))
            for i in range(state[1], model.N):
                unit = model.units[i]
                now = i in marked or (unit.damaged and not (model.sustainer[i] or model.shieldable[i]))
                if now != unit.damaged:
                    damage[id(unit)] = now
        if self.attack.x89 and any(result == "destroyed" and unit.type == "infantry" for unit, result in events):
            for unit in self.side.units:  # the rest of the opponent's infantry is destroyed
                if unit.type == "infantry" and self.attack.targets(unit) and id(unit) not in lost:
                    lost.add(id(unit))
                    events.append((unit, "destroyed"))
        units = []
        for unit in self.side.units:
            if id(unit) in damage:
                changed = unit.copy()
                changed.damaged = damage[id(unit)]
                units.append(changed)
            elif id(unit) not in lost:
                units.append(unit)
        return self.side.with_units(units), events, max(hits, 0)


AMBUSH_SHIPS = ("cruiser", "destroyer")  # the ships Mentak's Ambush rolls for


def takes_all_ships(events: list[tuple[Unit, str]]) -> bool:
    """Whether hits (HitPlan.apply's events) destroyed a Yin flagship, which destroys every
    ship in the system."""
    return any(result == "destroyed" and "destroys-all-ships" in unit.abilities for unit, result in events)


def without_ships(side: Side) -> Side:
    return side.with_units([u for u in side.units if not u.ship])


# --- the fights ------------------------------------------------------------------------------------


@dataclass
class Fight:
    """One kind of combat between two sides: the pre-combat attacks, and the rounds."""

    kind: str  # space | ground | bombard | invade
    attacker: Side
    defender: Side
    ships: Side | None = None  # invasion: the attacker's ships in the system (bombardment, Harrow)
    shield: bool = False  # a planetary shield on the planet (86)
    retreat: tuple[str, int] | None = None  # (side, after round)
    stop_after: int | None = None  # the players end the combat after this round ("fight N rounds, then decide")
    notes: list[str] = field(default_factory=list)
    content: str = "pok"  # the content the table plays (unitdata.CONTENTS), said with the result

    def cut_round(self) -> int | None:
        """The round after which the combat ends whatever is left: a retreat or a stop."""
        rounds = [r for r in (self.retreat[1] if self.retreat else None, self.stop_after) if r is not None]
        return min(rounds) if rounds else None

    def retreats_after(self, number: int) -> bool:
        """Whether the retreat (not a stop) ends the combat after this round."""
        return self.retreat is not None and self.retreat[1] == number

    # --- who takes part in the rounds ---------------------------------------------------------

    def participants(self, side: Side, name: str) -> list[Unit]:
        if self.kind == "space":
            alastor = any("ground-forces-fight-in-space" in u.abilities for u in side.units)
            return [u for u in side.units if u.ship or (alastor and u.ground)]
        fighters_land = name == ATTACKER and self._naalu_flagship()
        return [u for u in side.units if u.ground or (fighters_land and u.type == "fighter")]

    def hit_plan(self, attack: Attack, target: Side, opponent: Side) -> HitPlan:
        """How a roll's hits before the rounds fall on `target`: in the rounds' loss order (a ship
        shielded then is the one they expect), and without Sustain Damage while a Mentak flagship
        (at a landing, its mech) of `opponent` is there; not against a bombardment, made before
        the ground forces land."""
        sustain = attack.sustain and (attack.kind == "bombardment" or self.sustain_allowed(opponent))
        by_strength = weakest_first(self.kind, self.participants(target, ATTACKER))
        return HitPlan(target, replace(attack, sustain=sustain), by_strength)

    def _naalu_flagship(self) -> bool:
        pool = (self.ships.units if self.ships else []) + self.attacker.units
        return any("fighters-fight-on-ground" in u.abilities for u in pool)

    def sustain_allowed(self, opponent: Side) -> bool:
        """Mentak: the opponent's units cannot use Sustain Damage (the flagship in space, the mech
        on the ground), as `opponent` stands when the rounds start."""
        pool = [u for u in opponent.units if (u.ship if self.kind == "space" else u.ground)]
        return not any("opponent-no-sustain" in u.abilities for u in pool)

    def side(self, name: str) -> Side:
        return self.attacker if name == ATTACKER else self.defender

    def models(self, attacker: Side, defender: Side) -> tuple[SideModel, SideModel]:
        """Each side's units in the rounds, in loss order; a side hindered by a unit of the other
        (Mentak, the Quietus) also as it is once that unit is gone (SideModel.facing)."""

        def model(side: Side, name: str, opponent: Side) -> SideModel:
            foes = self.participants(opponent, other(name))
            # whose hits may be directed, as the L1Z1X flagship had it before any breach
            directed = self.kind == "space" and any("hits-to-non-fighters" in (u.restored or u).abilities for u in foes)
            units = self.participants(side, name)
            kind = SplitSideModel if directed else model_kind(side, units) if self.kind == "space" else SideModel
            hindered = any(_hinders(u, opponent, self.kind) for u in foes if DENIES & u.abilities)
            pieces = sorted(units, key=loss_key(side.order, weakest_first(self.kind, units), damaged_first=hindered))
            # a space combat whose Quietus is gone (or never was): the units fight as they are
            gone = self.kind == "space" and not any(transforms.BREACH in u.abilities for u in foes)
            built = kind(
                side, [u.restored or u for u in pieces] if gone else pieces, self.sustain_allowed(opponent), ordered=True
            )
            built.pieces = pieces
            built.deniers = [i for i in built.deniers if _hinders(built.units[i], side, self.kind)]
            return built

        ma, md = model(attacker, ATTACKER, defender), model(defender, DEFENDER, attacker)
        ma.unhindered, md.unhindered = _unhindered(ma, md), _unhindered(md, ma)
        return ma, md

    def for_rounds(self, attacker: Side, defender: Side) -> tuple[Side, Side]:
        """The sides after the rolls before the rounds, as the rounds meet them: the same sides,
        unless a galvanized A3 Valiance fell to those rolls (its infantry are galvanized)."""
        return _fallen_valiance(self.attacker, attacker), _fallen_valiance(self.defender, defender)

    def directed(self, model: SideModel, state: State) -> Callable[[Unit], bool] | None:
        """The L1Z1X flagship ([0.0.1]): while it fights, the hits of its dice and of its side's
        dreadnoughts' must go to non-fighter ships if able. Which units' hits are directed, or
        None when no hit is."""
        if self.kind != "space" or not any("hits-to-non-fighters" in u.abilities for u in model.alive(state)):
            return None
        return lambda unit: unit.type == "dreadnought" or "hits-to-non-fighters" in unit.abilities

    # --- the dice of a round ------------------------------------------------------------------------

    def round_dice(
        self, name: str, model: SideModel, state: State, opponent: SideModel, opp_state: State, number: int
    ) -> list[tuple[Unit, int, Die]]:
        """(unit, value, die) for every die the side rolls in this round and state."""
        effects = model.side.effects
        if number == 1 and self.silenced(name):
            return []
        alive = model.alive(state)
        base = effects.combat_modifier + (effects.round_modifier if number == 1 else 0)
        if self.kind == "space":
            base += effects.space_modifier  # a nebula's defender
        reroll = effects.reroll_misses_round == number and self.kind != "space"
        times = 2 if effects.double_hits and self.kind != "space" else 1  # X-89 ΩΩ: ground combat rolls
        flagship_bonus = any("other-ships-plus-one" in u.abilities for u in alive) if self.kind == "space" else False
        extra_mech_die = any("mechs-extra-die" in u.abilities for u in self._pool(model.side, name))
        out = []
        made: dict[tuple, Die] = {}  # alike units roll alike dice: worked out once
        for unit in alive:
            if unit.combat is None:
                continue
            kind = (unit.id, unit.combat, unit.dice, unit.type, unit.abilities)
            if kind not in made:
                mod = base + effects.unit_bonus.get(unit.id, 0)
                if flagship_bonus and "other-ships-plus-one" not in unit.abilities:
                    mod += 1
                triple = 9 if "nine-and-ten-hit-thrice" in unit.abilities else 11
                made[kind] = die(needs(unit.combat, mod), triple, reroll, times)
            count = unit.dice
            if "dice-per-opponent-ship" in unit.abilities:
                count = sum(1 for u in opponent.alive(opp_state) if u.non_fighter_ship)
            if extra_mech_die and unit.type == "mech":
                count += 1
            out += [(unit, unit.combat, made[kind])] * count
        if effects.gravleash and self.kind == "space":
            out = _gravleash(out, alive)
        return _valiance(out, model, alive) if model.galvanizers else out

    def opening_dice(self, ma: SideModel, md: SideModel) -> dict[tuple[str, int], list[tuple[Unit, int, Die]]]:
        """{(side, 1 or 2): dice}: what each side rolls with every unit alive in the first round
        and in every round after it (one list when the first round is like the others)."""
        out = {}
        for name, model, opponent in ((ATTACKER, ma, md), (DEFENDER, md, ma)):
            out[(name, 2)] = later = self.round_dice(name, model, model.start, opponent, opponent.start, 2)
            if self.early_rounds_differ(name, model):
                out[(name, 1)] = self.round_dice(name, model, model.start, opponent, opponent.start, 1)
            else:
                out[(name, 1)] = later
        return out

    def early_rounds_differ(self, name: str, model: SideModel) -> bool:
        """Whether round_dice gives this side other dice in round 1 or 2 than in later rounds:
        every way it depends on the round's number (Magen, Morale Boost, Fire Team)."""
        effects = model.side.effects
        return self.silenced(name) or bool(effects.round_modifier) or effects.reroll_misses_round in (1, 2)

    def bombardment_destroys(self) -> int:
        """Units each bombardment hit destroys: 1, or what a galactic event named on any side says."""
        sides = [self.attacker, self.defender] + ([self.ships] if self.ships else [])
        return max(1, *(s.effects.bombardment_destroys for s in sides))

    def proxima_dice(self, name: str) -> list[tuple[str, int, Die]]:
        """The Proxima Targeting VI dice that hit this side at the start of each round of ground
        combat: BOMBARDMENT 8 (x3) from every side that has it (against its opponent, and the
        identical roll against itself), the side's Bunker applying. Used whenever it can be."""
        if self.kind == "space":
            return []
        mod = self.side(name).effects.bombardment_against
        owners = sum(1 for n in (ATTACKER, DEFENDER) if self.side(n).effects.proxima)
        label = t("combat.proxima_at", side=t(f"combat.{name}"))  # whose forces these dice hit
        return [(label, PROXIMA.value, die(needs(PROXIMA.value, mod)))] * (PROXIMA.dice * owners)

    def silenced(self, name: str) -> bool:
        """Magen Defense Grid (PoK): in ground combat on a planet holding a unit of the opponent's
        that has Planetary Shield, the opponent exhausts it at the start of the first round and
        this side makes no combat rolls in that round."""
        opponent = self.side(other(name))
        return self.kind != "space" and opponent.effects.silence_round and any(u.planetary_shield for u in opponent.units)

    def _pool(self, side: Side, name: str) -> list[Unit]:
        """Every unit of the side in the system, fighting or not (for flagship abilities)."""
        if name == ATTACKER and self.ships is not None:
            return self.ships.units + side.units
        return side.units

    def answering(self, name: str) -> bool:
        """Valkyrie Particle Weave: a hit back when the opponent hit (ground combat)."""
        return self.kind != "space" and self.side(name).effects.answering_hit

    def harrow(self, defender_state_side: Side) -> Attack | None:
        """L1Z1X Harrow: the attacker's ships bombard at the end of each ground combat round."""
        if self.kind != "invade" or not self.attacker.effects.harrow or self.ships is None:
            return None
        return self.bombardment(self.ships, defender_state_side, kind="harrow")

    # --- before the rounds ---------------------------------------------------------------------------

    def bombardment(self, ships: Side, target: Side, kind: str = "bombardment") -> Attack | None:
        """79: X (Y) dice per unit, no combat modifiers (79.1); hits on ground forces."""
        units = [u for u in ships.units if u.bombardment]
        blitz = ships.effects.blitz if kind == "bombardment" else 0
        if blitz:  # Blitz: non-fighter ships without Bombardment gain Bombardment 6
            units += [u for u in ships.units if u.non_fighter_ship and not u.bombardment]
        if not units:
            return None
        mod = target.effects.bombardment_against
        times = 2 if ships.effects.double_hits else 1  # X-89 Bacterial Weapon ΩΩ
        dice = []
        for u in units:
            roll = u.bombardment or Roll(blitz, 1)
            dice += [(u.label(), roll.value, die(needs(roll.value, mod), times=times))] * roll.dice
        if "bombardment" in ships.effects.extra_die and dice and kind == "bombardment":  # Plasma Scoring
            dice.append(_best(dice))
        attack = Attack(
            ATTACKER, kind, dice, targets=lambda u: u.ground, modifier=mod, x89=ships.effects.x89 and kind == "bombardment"
        )
        attack.destroys = self.bombardment_destroys()
        if target.effects.no_bombardment:
            attack.blocked = t("combat.conventions")
        elif self._shielded(target, ships.units):
            attack.blocked = t("combat.shield_blocks" if kind == "bombardment" else "combat.shield_blocks_harrow")
        return attack

    def _shielded(self, defender: Side, attackers: list[Unit]) -> bool:
        """A planetary shield counts unless a unit that ignores shields is among the attacker's
        (86.3); Disable takes PDS shields away."""
        disabled = self.attacker.effects.disable_pds or bool(self.ships and self.ships.effects.disable_pds)
        present = self.shield or any(u.planetary_shield and not (disabled and u.type == "pds") for u in defender.units)
        return present and not any(u.disables_shields for u in attackers)

    def space_cannon(self, shooter_name: str, shooter: Side, target: Side, at_landing: bool = False) -> Attack | None:
        """Space cannon offence (space combat) or defence (75.3: against the landing forces)."""
        disabled = self.side(other(shooter_name)).effects.disable_pds or bool(
            self.ships and shooter_name == DEFENDER and self.ships.effects.disable_pds
        )
        units = [u for u in shooter.units if u.space_cannon and not (disabled and u.type == "pds")]
        extra = None if at_landing else shooter.effects.cannon_roll  # Experimental Battlestation: offence only
        if not units and not extra:
            return None
        if at_landing and (
            self.attacker.effects.no_cannon_on_landing or (self.ships and self.ships.effects.no_cannon_on_landing)
        ):
            return Attack(shooter_name, "space_cannon_defense", [], targets=lambda u: u.ground, blocked=t("combat.l4"))
        if not at_landing and any("no-space-cannon-against" in u.abilities for u in target.units if u.ship):
            return Attack(shooter_name, "space_cannon_offense", [], targets=lambda u: u.ship, blocked=t("combat.argent"))
        mod = target.effects.cannon_against
        dice = []
        for u in units:
            roll = u.space_cannon
            assert roll is not None
            dice += [(u.label(), roll.value, Die(needs(roll.value, mod)))] * roll.dice
        if extra:
            dice += [(t("combat.effect_roll"), extra["value"], Die(needs(extra["value"], mod)))] * extra["dice"]
        if "space_cannon" in shooter.effects.extra_die and dice:  # Plasma Scoring
            dice.append(_best(dice))
        if at_landing:  # Converge: on mechs first, if able
            mechs = (lambda u: u.type == "mech") if shooter.effects.converge else None
            return Attack(shooter_name, "space_cannon_defense", dice, targets=lambda u: u.ground, first=mechs, modifier=mod)
        graviton = (lambda u: u.non_fighter_ship) if shooter.effects.graviton or shooter.effects.converge else None
        return Attack(shooter_name, "space_cannon_offense", dice, targets=lambda u: u.ship, first=graviton, modifier=mod)

    def barrage(self, shooter_name: str, shooter: Side, target: Side) -> Attack | None:
        """Anti-fighter barrage, first round of space combat only: hits on fighters, excess lost."""
        units = [u for u in shooter.units if u.anti_fighter_barrage and u.ship]
        extra = shooter.effects.barrage_roll  # Metali Void Armaments: a barrage of its own
        if not units and not extra:
            return None
        if any("no-barrage-against" in u.abilities for u in target.units):  # anywhere in the system
            return Attack(
                shooter_name, "anti_fighter_barrage", [], targets=lambda u: u.type == "fighter", blocked=t("combat.iconoclast")
            )
        dice = []
        for u in units:
            roll = u.anti_fighter_barrage
            assert roll is not None
            dice += [(u.label(), roll.value, Die(needs(roll.value, 0)))] * roll.dice
        if extra:
            dice += [(t("combat.effect_roll"), extra["value"], Die(needs(extra["value"], 0)))] * extra["dice"]
        return Attack(shooter_name, "anti_fighter_barrage", dice, targets=lambda u: u.type == "fighter", sustain=False)

    def assault_cannon(self, shooter_name: str, shooter: Side, target: Side) -> Attack | None:
        """Assault Cannon: with 3 or more non-fighter ships, the opponent destroys one of theirs."""
        if not shooter.effects.assault_cannon or sum(1 for u in shooter.units if u.non_fighter_ship) < 3:
            return None
        if not any(u.non_fighter_ship for u in target.units):
            return None
        return Attack(shooter_name, "assault_cannon", [], targets=lambda u: u.non_fighter_ship, sustain=False, fixed=1)

    def ambush(self, shooter_name: str, shooter: Side) -> Attack | None:
        """Mentak Ambush: 1 die for each of up to 2 cruisers or destroyers (the likeliest to
        hit), hitting on the ship's combat value; no combat modifiers, as it is no combat roll.
        The opponent assigns the hits to ships, Sustain Damage allowed."""
        if not shooter.effects.ambush:
            return None
        ships = sorted((u for u in shooter.units if u.type in AMBUSH_SHIPS and u.combat), key=lambda u: u.combat or 11)
        if not ships:
            return None
        dice = [(u.label(), u.combat, Die(needs(u.combat, 0))) for u in ships[:2] if u.combat]
        return Attack(shooter_name, "ambush", dice, targets=lambda u: u.ship)

    def opening_hit(self, shooter_name: str, shooter: Side) -> Attack | None:
        """Magen Defense Grid: 1 hit at the start of ground combat on a planet with a unit that
        has Planetary Shield (Ω: any structure) of the shooter's."""
        kind = shooter.effects.opening_hit
        if not kind:
            return None
        has = any(u.planetary_shield for u in shooter.units) if kind == "shield" else any(u.structure for u in shooter.units)
        if not has:
            return None
        return Attack(shooter_name, "opening_hit", [], targets=lambda u: u.ground, fixed=1)

    def stages(self) -> list[Callable[[Side, Side], Attack | None]]:
        """The pre-combat attacks in order, each built from the sides as they are by then."""
        if self.kind == "space":
            return [
                lambda a, d: self.space_cannon(ATTACKER, a, d),
                lambda a, d: self.space_cannon(DEFENDER, d, a),
                lambda a, d: self.assault_cannon(ATTACKER, a, d),
                lambda a, d: self.assault_cannon(DEFENDER, d, a),
                lambda a, d: self.ambush(ATTACKER, a),
                lambda a, d: self.ambush(DEFENDER, d),
                lambda a, d: self.barrage(ATTACKER, a, d),
                lambda a, d: self.barrage(DEFENDER, d, a),
            ]
        if self.kind in ("bombard", "invade"):
            ships = self.ships if self.kind == "invade" else self.attacker
            assert ships is not None
            first = [lambda a, d: self.bombardment(ships, d)]
            if self.kind == "bombard":
                return first
            return first + [
                lambda a, d: self.space_cannon(DEFENDER, d, a, at_landing=True),
                lambda a, d: self.opening_hit(DEFENDER, d),
                lambda a, d: self.opening_hit(ATTACKER, a),
            ]
        return [lambda a, d: self.opening_hit(DEFENDER, d), lambda a, d: self.opening_hit(ATTACKER, a)]

    def has_rounds(self) -> bool:
        return self.kind != "bombard"


def idle_effects(fight: Fight) -> list[str]:
    """Named effects whose condition the sides as typed never meet, and units typed that take no
    part: said in the log, so that a name under "effects" is not read as having acted and no unit
    is dropped without a word. Assault Cannon needs 3 non-fighter ships of its own and one of the
    opponent's at the start of space combat; Ambush a cruiser or destroyer; Magen Defense Grid a
    unit with Planetary Shield on the planet."""
    notes = []
    for who, side, other_side in (("attacker", fight.attacker, fight.defender), ("defender", fight.defender, fight.attacker)):
        label = t(f"combat.{who}")
        if fight.kind == "space":
            own = sum(1 for u in side.units if u.non_fighter_ship)
            if side.effects.assault_cannon and (own < 3 or not any(u.non_fighter_ship for u in other_side.units)):
                notes.append(t("combat.assault_cannon_idle", side=label, ships=own))
            if side.effects.ambush and not any(u.type in AMBUSH_SHIPS for u in side.units):
                notes.append(t("combat.ambush_idle", side=label))
            taking_part = fight.participants(side, who)
            left_out = [u for u in side.units if u.ground and all(u is not p for p in taking_part)]
            if left_out:
                notes.append(t("combat.ground_forces_idle", side=label, count=len(left_out)))
            if weakest_first(fight.kind, taking_part):
                notes.append(t("combat.weakest_first", side=label))
        elif side.effects.silence_round and not any(u.planetary_shield for u in side.units):
            notes.append(t("combat.magen_idle", side=label))
    return notes


def _fallen_valiance(before: Side, now: Side) -> Side:
    """The side for the rounds when galvanized A3 Valiances fell before them (to bombardment or
    space cannon): their infantry galvanized, VALIANCE_INFANTRY each, the plain ones lost last."""

    def valiant(units: list[Unit]) -> int:
        return sum(1 for u in units if "galvanizes-on-death" in u.abilities and u.id.endswith("+galvanized"))

    if now is before:  # nothing fell: the common case, asked of every branch
        return now
    fallen = valiant(before.units) - valiant(now.units)
    if fallen <= 0:
        return now
    plain = sorted((u for u in now.units if u.type == "infantry" and not u.id.endswith("+galvanized")), key=loss_key(now.order))
    chosen = {id(u) for u in plain[len(plain) - min(len(plain), VALIANCE_INFANTRY * fallen) :]}
    return now.with_units([galvanized(u) if id(u) in chosen else u for u in now.units])


def _valiance(dice: list[tuple[Unit, int, Die]], model: SideModel, alive: list[Unit]) -> list[tuple[Unit, int, Die]]:
    """The A3 Valiance (Last Bastion mech): when it is destroyed galvanized, up to 3 of its side's
    infantry are galvanized: one more die each. They are the plain infantry lost last."""
    living = {id(u) for u in alive}
    fallen = sum(1 for u in model.galvanizers if id(u) not in living)
    plain = [u for u in alive if u.type == "infantry" and not u.id.endswith("+galvanized")]
    chosen = {id(u) for u in plain[len(plain) - min(len(plain), VALIANCE_INFANTRY * fallen) :]}
    extra = [next(x for x in dice if x[0] is u) for u in alive if id(u) in chosen and any(x[0] is u for x in dice)]
    return dice + extra


def _gravleash(dice: list[tuple[Unit, int, Die]], alive: list[Unit]) -> list[tuple[Unit, int, Die]]:
    """Gravleash Maneuvers (Letnev breakthrough): before each space combat roll, +X to the results
    of one ship's roll, X the number of ship types the side has in the combat. The ship is the one
    whose dice gain the most expected hits (the first of them in loss order on a tie)."""
    bonus = len({u.type for u in alive if u.ship})
    best: Unit | None = None
    best_gain, better = 0, None
    for unit in alive:
        rolled = [d for u, _, d in dice if u is unit]
        if not unit.ship or not rolled:
            continue
        boosted = die(max(1, rolled[0].needs - bonus), rolled[0].triple_on, rolled[0].reroll, rolled[0].times)
        gain = len(rolled) * (rolled[0].needs - boosted.needs)
        if gain > best_gain:
            best, best_gain, better = unit, gain, boosted
    if best is None or better is None:
        return dice
    return [(u, value, better if u is best else d) for u, value, d in dice]


def _best(dice: list[tuple[str, int, Die]]) -> tuple[str, int, Die]:
    """Plasma Scoring's extra die is rolled by the unit likeliest to hit."""
    return min(dice, key=lambda d: d[2].needs)


def check_modifier(value: int, name: str) -> int:
    if not -MAX_MODIFIER <= value <= MAX_MODIFIER:
        raise UserError(t("combat.bad_modifier", field=name, limit=MAX_MODIFIER))
    return value


def with_modifier(side: Side, value: int) -> Side:
    """A side whose combat rolls get a modifier given on the command (on top of its effects)."""
    if not value:
        return side
    effects = replace(side.effects, combat_modifier=side.effects.combat_modifier + value)
    return replace(side, effects=effects)


def _hinders(unit: Unit, side: Side, kind: str) -> bool:
    """Whether this unit hinders the other side in this kind of fight: the Mentak flagship in
    space, its mech on the ground; the Quietus in space when its side names an active breach."""
    if unit.ship != (kind == "space"):
        return False
    return "opponent-no-sustain" in unit.abilities or side.effects.active_breach


def _unhindered(hindered: SideModel, opponent: SideModel) -> SideModel | None:
    """The side as it fights once the opponent's hindering units are gone, or None when that
    cannot differ: nothing is taken from it, or no hindering unit can fall while others of its
    side fight on. A unit damaged by a roll before the rounds does not sustain again, but a unit
    repaired at the start of every round (the Letnev flagship) is whole by then. (Duranium
    Armor's repair of such a unit while the hindrance lasts is not followed.)"""
    if not opponent.deniers or not (opponent.split or min(opponent.deniers) < opponent.N - 1):
        return None
    regained = [u.restored or u for u in hindered.units]
    # repaired at the start of each round (the Letnev flagship) while it could not sustain: whole again
    regained = [replace(u, sustain=False) if u.damaged and "repaired-each-round" not in u.abilities else u for u in regained]
    free = type(hindered)(hindered.side, regained, ordered=True)
    if free.sustainer == hindered.sustainer and all(u.restored is None for u in hindered.units):
        return None
    free.pieces = hindered.pieces
    return free
