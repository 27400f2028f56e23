"""/combat ground|bombard|invade and /roll: parse the sides, roll, log the seed, show the log.

Each roll is written to the state database with its command, so "roll again" can replay the
same battle with a new seed, even after a restart.
"""

from __future__ import annotations

import json

from tabletop.combat import resolver as combat
from tabletop.combat.dice import Dice, parse_seed, roll_expression
from tabletop.combat.report import battle_pages, roll_pages
from tabletop.combat.units import UnitBook, parse_order, parse_side
from tabletop.errors import UserError
from tabletop.frontend.commands import Context, Option, command, log_roll
from tabletop.frontend.i18n import t

GAME = "ti4"
SIDE_MAX_CHARS = 500  # a side is a list of units; a long but real fleet fits well within this


def side(name: str, required: bool = False) -> Option:
    return Option(name, required=required, max_length=SIDE_MAX_CHARS)


def modifier(name: str) -> Option:
    return Option(name, kind="int", min_value=-combat.MAX_MODIFIER, max_value=combat.MAX_MODIFIER)


SEED = Option("seed", max_length=20)


def unit_book(compendium) -> UnitBook:
    return UnitBook(compendium.unit_rows(GAME))


def fight(kind: str, options: dict, book: UnitBook, seed: int, locale="ko") -> combat.Battle:
    """Run a battle from its command options; the CLI, the console and Discord all come here."""
    dice = Dice(seed)
    if kind == "ground":
        attacker = parse_side(options["attacker"], book, locale, "attacker")
        defender = parse_side(options["defender"], book, locale, "defender")
        attacker.order = parse_order(options.get("attacker_order"), book, locale)
        defender.order = parse_order(options.get("defender_order"), book, locale)
        return combat.ground_combat(
            attacker, defender, dice, options.get("attacker_mod") or 0, options.get("defender_mod") or 0, locale
        )
    if kind == "bombard":
        units = parse_side(options["units"], book, locale, "units")
        target = parse_side(options["target"], book, locale, "target")
        return combat.bombard(units, target, dice, options.get("shield"), locale)
    if kind == "invade":
        ships = parse_side(options["ships"], book, locale, "ships")
        landing = parse_side(options["landing"], book, locale, "landing")
        defender = parse_side(options["defender"], book, locale, "defender")
        if options.get("pds"):
            defender.units += parse_side(options["pds"], book, locale, "pds").units
        return combat.invade(
            ships,
            landing,
            defender,
            dice,
            options.get("shield"),
            options.get("attacker_mod") or 0,
            options.get("defender_mod") or 0,
            locale,
        )
    raise ValueError(kind)


def _battle(ctx: Context, kind: str, options: dict, seed):
    seed = parse_seed(seed, ctx.locale)
    battle = fight(kind, options, unit_book(ctx.compendium), seed, ctx.locale)
    again = log_roll(ctx, f"combat {kind}", options, seed, f"{battle.winner or ''} {battle.control or ''}".strip())
    return battle_pages(battle, ctx.locale, again_id=again)


@command(
    "combat ground",
    side("attacker", required=True),
    side("defender", required=True),
    modifier("attacker_mod"),
    modifier("defender_mod"),
    Option("attacker_order", max_length=200),
    Option("defender_order", max_length=200),
    SEED,
)
def combat_ground(ctx: Context, seed=None, **options):
    return _battle(ctx, "ground", options, seed)


@command(
    "combat bombard",
    side("units", required=True),
    side("target", required=True),
    Option("shield", kind="bool"),
    SEED,
)
def combat_bombard(ctx: Context, seed=None, **options):
    return _battle(ctx, "bombard", options, seed)


@command(
    "combat invade",
    side("ships", required=True),
    side("landing", required=True),
    side("defender", required=True),
    side("pds"),
    Option("shield", kind="bool"),
    modifier("attacker_mod"),
    modifier("defender_mod"),
    SEED,
)
def combat_invade(ctx: Context, seed=None, **options):
    return _battle(ctx, "invade", options, seed)


@command("roll", Option("dice", required=True, max_length=50), SEED)
def roll(ctx: Context, dice: str, seed=None):
    seed = parse_seed(seed, ctx.locale)
    result = roll_expression(dice, seed, ctx.locale)
    again = log_roll(ctx, "roll", {"dice": dice}, seed, str(result.successes if result.target else result.total))
    return roll_pages(result, ctx.locale, again_id=again)


def roll_again(ctx: Context, roll_id: int):
    """Replay a logged roll or battle with a fresh seed (the "roll again" button)."""
    row = ctx.state.conn.execute("select command from rolls where id = ?", (roll_id,)).fetchone()
    if row is None:
        raise UserError(t("dice.unknown_roll", ctx.locale))
    spec = json.loads(row[0])
    from tabletop.frontend.commands import COMMANDS

    return COMMANDS[spec["command"]].handler(ctx, **spec["options"])  # a fresh seed: none is passed
