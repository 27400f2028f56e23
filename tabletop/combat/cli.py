"""`python bot.py combat ground|bombard|invade …` and `python bot.py roll …`: the combat dice
from the shell, for scripts and checks. Same engine and same seeds as the bot."""

from __future__ import annotations

import json
import sys

from tabletop.combat.commands import fight, unit_book
from tabletop.combat.dice import parse_seed, roll_expression
from tabletop.combat.report import battle_pages, roll_pages
from tabletop.combat.units import UnitBook
from tabletop.errors import UserError


def add_parsers(sub, run_combat, run_roll) -> None:
    cp = sub.add_parser("combat", help="combat dice: ground combat, bombardment, invasion")
    csub = cp.add_subparsers(dest="kind", required=True)

    def common(p):
        p.add_argument("--seed", help="replay a battle: same seed, same dice (default: a fresh one)")
        p.add_argument("--json", action="store_true", help="seed, every round's dice and hits, survivors, winner")
        p.add_argument("--locale", default="ko", choices=["ko", "en", "ja"])
        p.set_defaults(func=run_combat)

    p = csub.add_parser("ground", help="ground combat (70) between two lists of ground forces")
    p.add_argument("--attacker", required=True, help='e.g. "3 infantry, 1 mech" or "보병 3, sardakk"')
    p.add_argument("--defender", required=True)
    p.add_argument("--attacker-mod", type=int, default=0, help="+/- to the attacker's combat rolls (66)")
    p.add_argument("--defender-mod", type=int, default=0)
    p.add_argument("--attacker-order", help='units to lose first, e.g. "mech, infantry"')
    p.add_argument("--defender-order")
    common(p)
    p = csub.add_parser("bombard", help="bombardment (79) of a planet's ground forces")
    p.add_argument("--units", required=True, help='e.g. "2 dreadnought, 1 war sun"')
    p.add_argument("--target", required=True, help='the planet: e.g. "3 infantry, 1 pds"')
    p.add_argument("--shield", action="store_true", help="the planet has a planetary shield (86)")
    common(p)
    p = csub.add_parser("invade", help="a whole invasion (75): bombard, land, space cannon, ground combat")
    p.add_argument("--ships", required=True)
    p.add_argument("--landing", required=True)
    p.add_argument("--defender", required=True)
    p.add_argument("--pds", help='space cannon units on the planet, e.g. "2 pds"')
    p.add_argument("--shield", action="store_true")
    p.add_argument("--attacker-mod", type=int, default=0)
    p.add_argument("--defender-mod", type=int, default=0)
    common(p)
    rp = sub.add_parser("roll", help='plain dice: "5d10>=7" counts successes, "2d6+1" sums')
    rp.add_argument("dice")
    rp.add_argument("--seed")
    rp.add_argument("--json", action="store_true")
    rp.add_argument("--locale", default="ko", choices=["ko", "en", "ja"])
    rp.set_defaults(func=run_roll)


def _book() -> UnitBook:
    from tabletop.rules.compendium import Compendium

    return unit_book(Compendium.open())


def main(args) -> int:
    options = {k: v for k, v in vars(args).items() if k not in ("func", "kind", "seed", "json", "locale", "command", "verbose")}
    try:
        seed = parse_seed(args.seed, args.locale)
        battle = fight(args.kind, options, _book(), seed, args.locale)
    except UserError as exc:
        print(exc.message, file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(battle.as_dict(args.locale), ensure_ascii=False))
    else:
        print("\n\n".join(r.text() for r in battle_pages(battle, args.locale).replies()))
    return 0


def roll_main(args) -> int:
    try:
        result = roll_expression(args.dice, parse_seed(args.seed, args.locale), args.locale)
    except UserError as exc:
        print(exc.message, file=sys.stderr)
        return 1
    print(json.dumps(result.as_dict()) if args.json else roll_pages(result, args.locale).reply().text())
    return 0
