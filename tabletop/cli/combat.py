"""`python bot.py combat space|ground|bombard|invade …`, `python bot.py odds space|ground|invade …`
and `python bot.py roll …`: the combat dice and odds from the shell, for scripts and checks.
Same fights, same seeds and same odds as the bot."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tabletop.cli import arguments
from tabletop.combat import odds as exact
from tabletop.combat.chart import odds_chart
from tabletop.combat.commands import DiceRoll, build_fight, fight, unit_book
from tabletop.combat.options import Bombardment, FightValues, GroundFight, Invasion
from tabletop.combat.report import battle_pages, odds_pages, roll_pages
from tabletop.console.printed import printed
from tabletop.core import text
from tabletop.core.commands import COMMANDS
from tabletop.core.dice import Seeded, parse_seed, roll_expression
from tabletop.core.errors import UserError
from tabletop.core.i18n import t
from tabletop.core.settings import CONTENTS


def add_parsers(sub, run_combat, run_roll, run_odds) -> None:
    """`combat …`, `odds …` and `roll`, made from the command table (options, limits, help),
    with the command line's own output flags."""
    groups = {}
    for group, summary, run in (
        ("combat", "combat dice: space combat, ground combat, bombardment, invasion", run_combat),
        ("odds", "exact combat odds: space, ground, invade", run_odds),
    ):
        groups[group] = (sub.add_parser(group, help=summary).add_subparsers(dest="kind", required=True), run)
    for cmd in COMMANDS.values():
        if cmd.group in groups:
            parsers, run = groups[cmd.group]
            p = arguments.add_command(parsers, cmd, cmd.name.split()[1])
            if cmd.group == "combat":
                p.add_argument("--json", action="store_true", help="seed, every round's dice and hits, survivors, winner, odds")
            else:
                p.add_argument(
                    "--json", action="store_true", help='{"attacker", "defender", "draw", "rounds", "survivors"[, "control"]}'
                )
                p.add_argument("--chart", help="save the chart as a PNG file")
            p.set_defaults(func=run)
    p = arguments.add_command(sub, COMMANDS["roll"], "roll")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=run_roll)


def _values(args) -> FightValues:
    """The fight's values as the table checks them (a dice command's seed included)."""
    values = arguments.values(COMMANDS[args.table_command], args)
    assert isinstance(values, GroundFight | Bombardment | Invasion)
    return values


def main(args) -> int:
    try:
        values = _values(args)
        seed = parse_seed(values.seed if isinstance(values, Seeded) else None)
        battle = fight(args.kind, values, unit_book(values.content or CONTENTS[0]), seed)
    except UserError as exc:
        print(exc.message, file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(battle.as_dict(), ensure_ascii=False))
    else:
        print("\n\n".join(printed(r) for r in battle_pages(battle).replies()))
    return 0


def odds_main(args) -> int:
    try:
        values = _values(args)
        the_fight = build_fight(args.kind, values, unit_book(values.content or CONTENTS[0]))
        result = exact.solve(the_fight)
    except UserError as exc:
        print(exc.message, file=sys.stderr)
        return 1
    if args.chart is not None:
        chart = Path(args.chart)
        if chart.suffix.lower() != ".png":  # "" or x.jpg: the chart is a PNG, never misnamed
            print(t("combat.chart_needs_png", path=text.printable(args.chart)), file=sys.stderr)
            return 1
        try:
            chart.write_bytes(odds_chart(result, t(f"combat.title.{args.kind}")))
        except OSError:  # a folder, a missing folder, no permission
            print(t("combat.chart_not_written", path=text.printable(chart)), file=sys.stderr)
            return 1
        print(t("combat.chart_written", path=text.printable(chart.resolve())), file=sys.stderr)  # stdout stays the odds
    if args.json:
        print(json.dumps(result.as_dict(), ensure_ascii=False))
    else:
        print(printed(odds_pages(result, args.kind).reply()))
    return 0


def roll_main(args) -> int:
    try:
        values = arguments.values(COMMANDS["roll"], args)
        assert isinstance(values, DiceRoll)
        result = roll_expression(values.dice, parse_seed(values.seed))
    except UserError as exc:
        print(exc.message, file=sys.stderr)
        return 1
    print(json.dumps(result.as_dict()) if args.json else printed(roll_pages(result).reply()))
    return 0
