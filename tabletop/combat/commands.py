"""/combat space|ground|bombard|invade, /odds space|ground|invade and /roll: the fight's options
(options.py) assembled into a fight (assembly.py), rolled (or its exact odds computed), the seed
logged and the pages laid out.

Each roll is written to the state database with its command, so "roll again" can replay the
same battle with a new seed, and "odds" can open the full breakdown, even after a restart.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from tabletop.combat import assembly
from tabletop.combat import odds as exact
from tabletop.combat.assembly import parse_retreat, unit_book
from tabletop.combat.battle import (
    ATTACKER,
    DEFENDER,
    Fight,
)
from tabletop.combat.chart import odds_chart
from tabletop.combat.options import Bombardment, FightValues, GroundFight, Invasion, SpaceFight
from tabletop.combat.outcome import Odds
from tabletop.combat.report import battle_pages, odds_pages, roll_pages
from tabletop.combat.resolver import Battle, resolve
from tabletop.combat.units import UnitBook
from tabletop.core import offload, settings
from tabletop.core.commands import (
    COMMANDS,
    Context,
    Values,
    again_id,
    command,
    convert,
    dispatch,
    log_roll,
    logged_command,
    opt,
)
from tabletop.core.components import NUMBER, Component, Press
from tabletop.core.dice import SEED, Dice, Seeded, parse_seed, roll_expression
from tabletop.core.errors import UserError
from tabletop.core.i18n import t
from tabletop.core.render import Attachment, Paged

CHART_NAME = "odds.png"


# the dice commands' values: a fight's, then the seed (the last option on every front end)
@dataclass(frozen=True)
class SpaceRoll(Seeded, SpaceFight):
    pass


@dataclass(frozen=True)
class GroundRoll(Seeded, GroundFight):
    pass


@dataclass(frozen=True)
class BombardmentRoll(Seeded, Bombardment):
    pass


@dataclass(frozen=True)
class InvasionRoll(Seeded, Invasion):
    pass


def fight_values(kind: str, options: Mapping[str, object]) -> FightValues:
    """A fight's values from options by name, converted and checked as /combat's are (the
    command line's and the tests' way in)."""
    cmd = COMMANDS[f"combat {kind}"]
    values = cmd.values(**convert(cmd, {k: v for k, v in options.items() if v is not None}))
    assert isinstance(values, GroundFight | Bombardment | Invasion)
    return values


def build_fight(kind: str, values: FightValues | Mapping[str, object], book: UnitBook) -> Fight:
    """A fight from its command's values, or from options by name converted as typed (the
    command line's and the tests' way in): assembly.assemble."""
    if not isinstance(values, Values):
        values = fight_values(kind, values)
    return assembly.assemble(kind, values, book)


def fight(kind: str, values: FightValues | Mapping[str, object], book: UnitBook, seed: int) -> Battle:
    """Roll a battle from its command's values (with its exact odds when they can be had)."""
    battle_fight = build_fight(kind, values, book)
    battle = resolve(battle_fight, Dice(seed))
    if kind != "bombard":
        try:
            battle.odds = exact.solve(battle_fight).as_dict()
        except UserError as exc:  # too big for exact odds: the dice still roll
            battle.notes.append(exc.message)
    return battle


def with_content(ctx: Context, values: FightValues) -> FightValues:
    """The values with the content the table plays: the command's, else the server's setting.
    Written into the options logged, so a replay reads the same units whatever the setting is then."""
    if values.content:
        return values
    return replace(values, content=settings.read(ctx.state, ctx.guild_id, settings.CONTENT, fallback=True))


def rolled(kind: str, values: FightValues, seed: int) -> Battle:
    """A rolled battle from values alone: what a heavy-work process runs (core.offload)."""
    return fight(kind, values, unit_book(values.content or settings.CONTENTS[0]), seed)


def exact_odds(kind: str, values: FightValues) -> tuple[Odds, bytes]:
    """A fight's exact odds and their chart from values alone: what a heavy-work process runs."""
    the_fight = build_fight(kind, values, unit_book(values.content or settings.CONTENTS[0]))
    result = exact.solve(the_fight)
    return result, odds_chart(result, t(f"combat.title.{kind}"))


def _battle(ctx: Context, kind: str, values: FightValues) -> Paged:
    seed = parse_seed(values.seed if isinstance(values, Seeded) else None)
    values = with_content(ctx, values)
    battle = offload.run(rolled, kind, values, seed)
    summary = f"{battle.winner or ''} {battle.control or ''}".strip()
    roll_id = log_roll(ctx, f"combat {kind}", values.given("seed"), seed, summary)
    odds_id = ODDS.id(id=roll_id) if roll_id is not None and kind != "bombard" else None
    return battle_pages(battle, again_id=again_id(roll_id), odds_id=odds_id, swap_id=_swap_id(kind, roll_id))


def _swap_id(kind: str, roll_id: int | None) -> str | None:
    """Only a fight with two sides of the same kind can change places (an invasion cannot)."""
    return SWAP.id(id=roll_id) if roll_id is not None and kind in SWAPPABLE else None


def odds_answer(ctx: Context, kind: str, values: FightValues) -> Paged:
    """/odds: the exact probabilities, the most likely survivors, and a chart."""
    values = with_content(ctx, values)
    result, chart = offload.run(exact_odds, kind, values)
    # logged like a roll (no seed: nothing is rolled), so its swap button works after a restart
    roll_id = log_roll(ctx, f"odds {kind}", values.given(), None, "") if kind in SWAPPABLE else None
    paged = odds_pages(result, kind, chart=CHART_NAME, swap_id=_swap_id(kind, roll_id))
    paged.files = [Attachment(CHART_NAME, chart)]
    return paged


@command("combat space", SpaceRoll, heavy=True)
def combat_space(ctx: Context, values: SpaceRoll):
    return _battle(ctx, "space", values)


@command("combat ground", GroundRoll, heavy=True)
def combat_ground(ctx: Context, values: GroundRoll):
    return _battle(ctx, "ground", values)


@command("combat bombard", BombardmentRoll, heavy=True)
def combat_bombard(ctx: Context, values: BombardmentRoll):
    return _battle(ctx, "bombard", values)


@command("combat invade", InvasionRoll, heavy=True)
def combat_invade(ctx: Context, values: InvasionRoll):
    return _battle(ctx, "invade", values)


@command("odds space", SpaceFight, heavy=True, deferred=True)
def odds_space(ctx: Context, values: SpaceFight):
    return odds_answer(ctx, "space", values)


@command("odds ground", GroundFight, heavy=True, deferred=True)
def odds_ground(ctx: Context, values: GroundFight):
    return odds_answer(ctx, "ground", values)


@command("odds invade", Invasion, heavy=True, deferred=True)
def odds_invade(ctx: Context, values: Invasion):
    return odds_answer(ctx, "invade", values)


@dataclass(frozen=True)
class DiceRoll(Values):
    dice: str = opt(required=True, max_length=50)  # an expression: 3d10>=7, 2d6+1
    seed: str | None = opt(**SEED)


@command("roll", DiceRoll)
def roll(ctx: Context, values: DiceRoll):
    seed = parse_seed(values.seed)
    result = roll_expression(values.dice, seed)
    roll_id = log_roll(ctx, "roll", {"dice": values.dice}, seed, str(result.successes if result.target else result.total))
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
