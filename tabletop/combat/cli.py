"""`python bot.py combat space|ground|bombard|invade …`, `python bot.py odds space|ground|invade …`
and `python bot.py roll …`: the combat dice and odds from the shell, for scripts and checks.
Same fights, same seeds and same odds as the bot."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tabletop.combat import odds as exact
from tabletop.combat.chart import odds_chart
from tabletop.combat.commands import build_fight, fight, unit_book
from tabletop.combat.dice import parse_seed, roll_expression
from tabletop.combat.report import battle_pages, odds_pages, roll_pages
from tabletop.combat.units import UnitBook
from tabletop.errors import UserError
from tabletop.frontend.i18n import t

OPTION_KEYS = (
    *("attacker", "defender", "attacker_mod", "defender_mod", "attacker_order", "defender_order", "retreat"),
    *("units", "target", "target_order", "shield", "ships", "landing", "pds", "landing_order"),
)


def _sides(p, retreat: bool = False) -> None:
    p.add_argument("--attacker", required=True, help='e.g. "3 infantry, 1 mech" or "2x 보병, sardakk"')
    p.add_argument("--defender", required=True)
    p.add_argument("--attacker-mod", type=int, default=0, help="+/- to the attacker's combat rolls (66)")
    p.add_argument("--defender-mod", type=int, default=0)
    p.add_argument("--attacker-order", help='units to lose first, e.g. "mech, infantry"')
    p.add_argument("--defender-order")
    if retreat:
        p.add_argument("--retreat", help="attacker@2: that side retreats after round 2 if it still has ships")


def _invasion(p) -> None:
    p.add_argument("--ships", required=True)
    p.add_argument("--landing", required=True)
    p.add_argument("--defender", required=True, help='ground forces on the planet; "" when only structures defend it')
    p.add_argument("--pds", help='space cannon units and structures on the planet, e.g. "2 pds"')
    p.add_argument("--shield", action="store_true", help="the planet has a planetary shield (86)")
    p.add_argument("--attacker-mod", type=int, default=0)
    p.add_argument("--defender-mod", type=int, default=0)
    p.add_argument("--landing-order")
    p.add_argument("--defender-order")


def add_parsers(sub, run_combat, run_roll, run_odds) -> None:
    cp = sub.add_parser("combat", help="combat dice: space combat, ground combat, bombardment, invasion")
    csub = cp.add_subparsers(dest="kind", required=True)

    def common(p):
        p.add_argument("--seed", help="replay a battle: same seed, same dice (default: a fresh one)")
        p.add_argument("--json", action="store_true", help="seed, every round's dice and hits, survivors, winner, odds")
        p.add_argument("--locale", default="ko", choices=["ko", "en", "ja"])
        p.set_defaults(func=run_combat)

    p = csub.add_parser("space", help="space combat: space cannon, barrage, rounds with sustain damage")
    _sides(p, retreat=True)
    common(p)
    p = csub.add_parser("ground", help="ground combat (70) between two lists of ground forces")
    _sides(p)
    common(p)
    p = csub.add_parser("bombard", help="bombardment (79) of a planet's ground forces")
    p.add_argument("--units", required=True, help='e.g. "2 dreadnought, 1 war sun"')
    p.add_argument("--target", required=True, help='the planet: e.g. "3 infantry, 1 pds"')
    p.add_argument("--shield", action="store_true", help="the planet has a planetary shield (86)")
    p.add_argument("--target-order")
    common(p)
    p = csub.add_parser("invade", help="a whole invasion (75): bombard, land, space cannon, ground combat")
    _invasion(p)
    common(p)

    op = sub.add_parser("odds", help="exact combat odds: space, ground, invade")
    osub = op.add_subparsers(dest="kind", required=True)

    def odds_common(p):
        p.add_argument("--json", action="store_true", help='{"attacker", "defender", "draw", "rounds", "survivors"[, "control"]}')
        p.add_argument("--chart", help="save the chart as a PNG file")
        p.add_argument("--locale", default="ko", choices=["ko", "en", "ja"])
        p.set_defaults(func=run_odds)

    p = osub.add_parser("space", help="odds of a space combat")
    _sides(p, retreat=True)
    odds_common(p)
    p = osub.add_parser("ground", help="odds of a ground combat")
    _sides(p)
    odds_common(p)
    p = osub.add_parser("invade", help="odds of an invasion, with control of the planet")
    _invasion(p)
    odds_common(p)

    rp = sub.add_parser("roll", help='plain dice: "5d10>=7" counts successes, "2d6+1" sums')
    rp.add_argument("dice")
    rp.add_argument("--seed")
    rp.add_argument("--json", action="store_true")
    rp.add_argument("--locale", default="ko", choices=["ko", "en", "ja"])
    rp.set_defaults(func=run_roll)


def _book() -> UnitBook:
    from tabletop.rules.compendium import Compendium

    return unit_book(Compendium.open())


def _options(args) -> dict:
    return {
        k: getattr(args, k)
        for k in OPTION_KEYS
        if getattr(args, k, None) not in (None, "") or k == "defender" and hasattr(args, k)
    }


def main(args) -> int:
    try:
        seed = parse_seed(args.seed, args.locale)
        battle = fight(args.kind, _options(args), _book(), seed, args.locale)
    except UserError as exc:
        print(exc.message, file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(battle.as_dict(args.locale), ensure_ascii=False))
    else:
        print("\n\n".join(r.text() for r in battle_pages(battle, args.locale).replies()))
    return 0


def odds_main(args) -> int:
    try:
        the_fight = build_fight(args.kind, _options(args), _book(), args.locale)
        result = exact.solve(the_fight)
    except UserError as exc:
        print(exc.message, file=sys.stderr)
        return 1
    if args.chart:
        chart = Path(args.chart)
        try:
            chart.write_bytes(odds_chart(result, t(f"combat.title.{args.kind}", args.locale), args.locale))
        except OSError as exc:  # a folder, a missing folder, no permission
            print(t("combat.chart_not_written", args.locale, path=chart, reason=exc.strerror or exc), file=sys.stderr)
            return 1
    if args.json:
        print(json.dumps(result.as_dict(), ensure_ascii=False))
    else:
        print(odds_pages(result, args.kind, args.locale).reply().text())
    return 0


def roll_main(args) -> int:
    try:
        result = roll_expression(args.dice, parse_seed(args.seed, args.locale), args.locale)
    except UserError as exc:
        print(exc.message, file=sys.stderr)
        return 1
    print(json.dumps(result.as_dict()) if args.json else roll_pages(result, args.locale).reply().text())
    return 0
