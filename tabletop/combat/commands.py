"""/combat space|ground|bombard|invade, /odds space|ground|invade and /roll: parse the sides, build
the fight, roll it (or compute its exact odds), log the seed and lay out the pages.

Each roll is written to the state database with its command, so "roll again" can replay the
same battle with a new seed, and "odds" can open the full breakdown, even after a restart.
"""

from __future__ import annotations

import re

from tabletop.combat import odds as exact
from tabletop.combat import transforms, units
from tabletop.combat.battle import (
    ATTACKER,
    DEFENDER,
    MAX_MODIFIER,
    MAX_ROUNDS,
    Fight,
    check_modifier,
    idle_effects,
    with_modifier,
)
from tabletop.combat.chart import odds_chart
from tabletop.combat.report import battle_pages, odds_pages, roll_pages
from tabletop.combat.resolver import Battle, resolve
from tabletop.combat.unitdata import DESCRIPTIVE, EFFECT_FIELDS, GROUND_FIGHTS, UnitDataError
from tabletop.combat.units import Side, UnitBook, parse_order, parse_side
from tabletop.core import settings
from tabletop.core.commands import (
    CONTENT_OPTION,
    Context,
    Option,
    again_id,
    command,
    dispatch,
    log_roll,
    logged_command,
)
from tabletop.core.components import NUMBER, Component, Press
from tabletop.core.dice import SEED, Dice, parse_seed, roll_expression
from tabletop.core.errors import UserError
from tabletop.core.i18n import t
from tabletop.core.render import Attachment, Paged

GAME = "ti4"
SIDE_MAX_CHARS = 500  # a side is a list of units; a long but real fleet fits well within this
CHART_NAME = "odds.png"
ORDER_MAX_CHARS = 200  # a loss order names unit types: a few words
UNIT_PROBLEMS_SHOWN = 5  # the first few say what to fix; `python bot.py build` lists them all


def side(name: str, required: bool = False, help: str = "") -> Option:
    return Option(name, required=required, max_length=SIDE_MAX_CHARS, help=help or f"opt.combat.{name}.desc")


def modifier(name: str) -> Option:
    return Option(name, kind="int", min_value=-MAX_MODIFIER, max_value=MAX_MODIFIER, help="opt.combat.mod.desc")


def order(name: str) -> Option:
    return Option(name, max_length=ORDER_MAX_CHARS, help="opt.combat.order.desc")


RETREAT = Option("retreat", max_length=30, one_word=True, help="opt.combat.retreat.desc")
SHIELD = Option("shield", kind="bool", help="opt.combat.shield.desc")
# The content the table plays (Thunder's Edge reprints); without it, the server's setting.
CONTENT = CONTENT_OPTION
# "Fight N rounds, then decide": the combat stops after this round, whatever is left.
ROUNDS = Option("rounds", kind="int", min_value=1, max_value=MAX_ROUNDS, help="opt.combat.rounds.desc")


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


def _sides(options: dict, book: UnitBook, first: str, second: str, first_order: str, second_order: str) -> tuple[Side, Side]:
    a = parse_side(options[first], book, first)
    d = parse_side(options[second], book, second)
    a.order = parse_order(options.get(first_order), book, a)
    d.order = parse_order(options.get(second_order), book, d)
    a = with_modifier(a, check_modifier(options.get("attacker_mod") or 0, "attacker_mod"))
    d = with_modifier(d, check_modifier(options.get("defender_mod") or 0, "defender_mod"))
    return a, d


MAX_PDS_PER_PLANET = 2  # 89.3: each planet can have at most two PDS


def build_fight(kind: str, options: dict, book: UnitBook) -> Fight:
    """A fight from its command options; the dice, the odds, the CLI, the console and Discord
    all come here, so the same words mean the same battle everywhere."""
    if kind == "space":
        a, d = _sides(options, book, "attacker", "defender", "attacker_order", "defender_order")
        for name, s in (("attacker", a), ("defender", d)):
            if not any(u.ship for u in s.units):
                raise UserError(t("combat.no_ships", field=name))
        fight = Fight("space", a, d, retreat=parse_retreat(options.get("retreat")))
    elif kind == "ground":
        a, d = _sides(options, book, "attacker", "defender", "attacker_order", "defender_order")
        fight = Fight("ground", a, d)
        if not fight.participants(a, ATTACKER) or not fight.participants(d, DEFENDER):
            raise UserError(t("combat.no_ground_forces"))
    elif kind == "bombard":
        ships = parse_side(options["units"], book, "units")
        target = parse_side(options["target"], book, "target")
        target.order = parse_order(options.get("target_order"), book, target)
        if not any(u.bombardment for u in ships.units) and not ships.effects.blitz:
            raise UserError(t("combat.no_bombardment"))
        fight = Fight("bombard", ships, target, shield=bool(options.get("shield")))
    elif kind == "invade":
        ships = parse_side(options["ships"], book, "ships")
        if not any(u.ship for u in ships.units):  # ground forces land from ships (75)
            raise UserError(t("combat.landing_needs_ships"))
        if not (options.get("defender") or "").strip():  # only structures defend the planet
            options = {**options, "defender": ""}
        landing = parse_side(options["landing"], book, "landing")
        defender = parse_side(options["defender"], book, "defender") if options["defender"] else Side(units=[])
        landing.order = parse_order(options.get("landing_order"), book, landing)
        defender.order = parse_order(options.get("defender_order"), book, defender)
        landing = with_modifier(landing, check_modifier(options.get("attacker_mod") or 0, "attacker_mod"))
        defender = with_modifier(defender, check_modifier(options.get("defender_mod") or 0, "defender_mod"))
        landing.effects, landing.effect_names = _merged_effects(ships, landing)
        if options.get("pds"):
            structures = parse_side(options["pds"], book, "pds")
            wrong = [u for u in structures.units if not (u.space_cannon or u.structure)]
            if wrong:
                raise UserError(t("combat.pds_only", unit=wrong[0].name()))
            defender.units += structures.units
            for eid in structures.effect_ids:  # named with the structures (lightrail ordnance): the defender's
                if eid not in defender.effect_ids:
                    defender.effects.add(book.effects[eid])
                    defender.effect_names.append(book.effect_label(eid))
                    defender.effect_ids.append(eid)
        pds = sum(u.type == "pds" for u in defender.units)
        if pds > MAX_PDS_PER_PLANET:
            raise UserError(t("combat.too_many_pds", count=pds, limit=MAX_PDS_PER_PLANET))
        not_ground = [u for u in landing.units if not u.ground and u.type != "fighter"]
        if not_ground:
            raise UserError(t("combat.not_ground_force", unit=not_ground[0].name()))
        fight = Fight("invade", landing, defender, ships=ships, shield=bool(options.get("shield")))
    else:
        raise ValueError(kind)
    if kind != "bombard" and options.get("rounds") is not None:
        fight.stop_after = int(options["rounds"])
    fight.content = book.content
    fight.notes = fight.attacker.notes + fight.defender.notes + (fight.ships.notes if fight.ships else [])
    fight.notes += named_effects_checked(fight, book) + before_the_fight(fight)
    fight.notes += idle_effects(fight)
    return fight


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
                acting = [f.acts_in for f in fields if f.acts_in is not None]
                if acting and len(acting) == len(fields) and all(fight.kind not in kinds for kinds in acting):
                    notes.append(t("combat.effect_idle", side=t(f"combat.{who}"), effect=book.effect_label(eid)))
    unmovable = [u for s in (fight.attacker, fight.defender) for u in s.units if "no-ability-hits" in u.abilities]
    if unmovable and fight.kind in GROUND_FIGHTS:
        for side in [*attackers, fight.defender]:
            for eid in side.effect_ids:
                row = book.effects[eid]
                if row.get("proxima") or (row.get("harrow") and fight.kind == "invade"):
                    raise UserError(t("combat.no_ability_hits", effect=book.effect_label(eid)))
    return notes


def before_the_fight(fight: Fight) -> list[str]:
    """Abilities that change the units before the fight (transforms): the Quietus's breach, on
    either side; linkships taking a structure's Space Cannon in a space combat. Its notes."""
    for side in (fight.attacker, fight.defender):  # before the breach, which takes what they gain
        transforms.docks(side)
    attackers = [fight.attacker] + ([fight.ships] if fight.ships else [])  # an invasion's Quietus is a ship
    notes = transforms.breach(attackers, fight.defender)
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


def fight(kind: str, options: dict, book: UnitBook, seed: int) -> Battle:
    """Roll a battle from its command options (with its exact odds when they can be had)."""
    battle_fight = build_fight(kind, options, book)
    battle = resolve(battle_fight, Dice(seed))
    if kind != "bombard":
        try:
            battle.odds = exact.solve(battle_fight).as_dict()
        except UserError as exc:  # too big for exact odds: the dice still roll
            battle.notes.append(exc.message)
    return battle


def with_content(ctx: Context, options: dict) -> dict:
    """The options with the content the table plays: the command's, else the server's setting.
    Written into the options logged, so a replay reads the same units whatever the setting is then."""
    if options.get("content"):
        return options
    return {**options, "content": settings.read(ctx.state, ctx.guild_id, settings.CONTENT, fallback=True)}


def _battle(ctx: Context, kind: str, options: dict, seed) -> Paged:
    seed = parse_seed(seed)
    options = with_content(ctx, options)
    battle = fight(kind, options, unit_book(options["content"]), seed)
    roll_id = log_roll(ctx, f"combat {kind}", options, seed, f"{battle.winner or ''} {battle.control or ''}".strip())
    odds_id = ODDS.id(id=roll_id) if roll_id is not None and kind != "bombard" else None
    return battle_pages(battle, again_id=again_id(roll_id), odds_id=odds_id, swap_id=_swap_id(kind, roll_id))


def _swap_id(kind: str, roll_id: int | None) -> str | None:
    """Only a fight with two sides of the same kind can change places (an invasion cannot)."""
    return SWAP.id(id=roll_id) if roll_id is not None and kind in SWAPPABLE else None


def odds_answer(ctx: Context, kind: str, options: dict) -> Paged:
    """/odds: the exact probabilities, the most likely survivors, and a chart."""
    options = with_content(ctx, options)
    the_fight = build_fight(kind, options, unit_book(options["content"]))
    result = exact.solve(the_fight)
    # logged like a roll (no seed: nothing is rolled), so its swap button works after a restart
    roll_id = log_roll(ctx, f"odds {kind}", options, None, "") if kind in SWAPPABLE else None
    paged = odds_pages(result, kind, chart=CHART_NAME, swap_id=_swap_id(kind, roll_id))
    paged.files = [Attachment(CHART_NAME, odds_chart(result, t(f"combat.title.{kind}")))]
    return paged


GROUND = (
    side("attacker", required=True, help="opt.combat.side.desc"),
    side("defender", required=True, help="opt.combat.side.desc"),
    modifier("attacker_mod"),
    modifier("defender_mod"),
    order("attacker_order"),
    order("defender_order"),
    ROUNDS,
    CONTENT,
)
SPACE = (*GROUND, RETREAT)
INVADE = (
    side("ships", required=True),
    side("landing", required=True),
    side("defender"),  # empty: only structures (pds:) defend the planet
    side("pds"),
    SHIELD,
    modifier("attacker_mod"),
    modifier("defender_mod"),
    order("landing_order"),
    order("defender_order"),
    ROUNDS,
    CONTENT,
)


@command("combat space", *SPACE, SEED, heavy=True)
def combat_space(ctx: Context, seed=None, **options):
    return _battle(ctx, "space", options, seed)


@command("combat ground", *GROUND, SEED, heavy=True)
def combat_ground(ctx: Context, seed=None, **options):
    return _battle(ctx, "ground", options, seed)


@command(
    "combat bombard",
    side("units", required=True),
    side("target", required=True),
    SHIELD,
    order("target_order"),
    CONTENT,
    SEED,
    heavy=True,
)
def combat_bombard(ctx: Context, seed=None, **options):
    return _battle(ctx, "bombard", options, seed)


@command("combat invade", *INVADE, SEED, heavy=True)
def combat_invade(ctx: Context, seed=None, **options):
    return _battle(ctx, "invade", options, seed)


@command("odds space", *SPACE, heavy=True, deferred=True)
def odds_space(ctx: Context, **options):
    return odds_answer(ctx, "space", options)


@command("odds ground", *GROUND, heavy=True, deferred=True)
def odds_ground(ctx: Context, **options):
    return odds_answer(ctx, "ground", options)


@command("odds invade", *INVADE, heavy=True, deferred=True)
def odds_invade(ctx: Context, **options):
    return odds_answer(ctx, "invade", options)


@command("roll", Option("dice", required=True, max_length=50), SEED)
def roll(ctx: Context, dice: str, seed=None):
    seed = parse_seed(seed)
    result = roll_expression(dice, seed)
    roll_id = log_roll(ctx, "roll", {"dice": dice}, seed, str(result.successes if result.target else result.total))
    return roll_pages(result, again_id=again_id(roll_id))


ODDS = Component("combat.odds", "combat:odds:{id}", heavy=True, show="private", id=NUMBER)
SWAP = Component("combat.swap", "combat:swap:{id}", heavy=True, id=NUMBER)
SWAPPABLE = ("space", "ground")
# What changes places when the sides swap: each attacker's option becomes the defender's.
_SWAPPED_OPTIONS = {"attacker": "defender", "attacker_mod": "defender_mod", "attacker_order": "defender_order"}
_SWAPPED_OPTIONS |= {v: k for k, v in _SWAPPED_OPTIONS.items()}


def swapped(options: dict) -> dict:
    """The same fight with the attacker and the defender changing places (a retreat too)."""
    out = {_SWAPPED_OPTIONS.get(k, k): v for k, v in options.items()}
    retreat = parse_retreat(out.get("retreat"))
    if retreat:
        out["retreat"] = f"{DEFENDER if retreat[0] == ATTACKER else ATTACKER}@{retreat[1]}"
    return out


@SWAP.on_press
def swap_sides(ctx: Context, press: Press) -> Paged:
    """The same roll or odds with the sides swapped: a fresh roll (new seed), or the odds."""
    name, options = logged_command(ctx, int(press.values["id"]))
    if name.split()[-1] not in SWAPPABLE:
        raise UserError(t("dice.unknown_roll"))
    return dispatch(ctx, name, swapped(options))  # checked as if typed, like "roll again"


@ODDS.on_press
def odds_of(ctx: Context, press: Press) -> Paged:
    """The full odds of a logged battle, with its chart, for whoever presses "odds"."""
    name, options = logged_command(ctx, int(press.values["id"]))
    kind = name.split()[-1]
    if kind not in ("space", "ground", "invade"):
        raise UserError(t("dice.unknown_roll"))
    return dispatch(ctx, f"odds {kind}", options)  # checked as if typed, like "roll again"
