"""`python bot.py pack cards ID`: a pack's search cards, what they lack and what the model
says of them (tabletop/rules/cards.py, cardcheck.py). An admin's and a card writer's command."""

from __future__ import annotations

import json
import sys

from tabletop.cli import opened
from tabletop.core import config
from tabletop.core.i18n import t
from tabletop.rules import answers, cardcheck
from tabletop.rules.packs import load_pack


def add_parser(pack) -> None:
    p = pack.add_parser("cards", help="a pack's search cards: --check lists what is missing or failing, --json prints them")
    p.add_argument("pack_id", metavar="ID")
    p.add_argument(
        "--check",
        action="store_true",
        help="per section, what the card lacks and which questions the model sends elsewhere; exit 1 if any",
    )
    p.add_argument("--json", action="store_true", help="print the cards as JSON")
    p.set_defaults(func=main)


def main(args) -> int:
    comp = opened.compendium()
    try:
        game = answers.check_game(comp, args.pack_id)
    except answers.UserError as exc:
        print(exc.message, file=sys.stderr)
        return 2
    pack = comp.packs[game]
    source = load_pack(config.rules_dir() / game)  # the cards as written (the database holds their vectors)
    if args.json and not args.check:
        print(json.dumps({sid: _as_dict(card) for sid, card in source.cards.items()}, ensure_ascii=False, indent=2))
        return 0
    report = cardcheck.check(comp, game, source)
    lines = []
    for section in pack.sections:
        gaps = report.gaps.get(section.id, [])
        misses = [m for m in report.misses if m.section == section.id]
        if gaps or misses:
            lines.append(t("cards.section", section=section.full_title, id=section.id))
            lines += [t("cards.gap", gap=t(key, **values)) for key, values in gaps]
            for m in misses:
                preferred = ", ".join(comp.known_section(game, s).full_title for s in m.preferred)
                lines.append(t("cards.miss", point=m.point, language=m.language, text=m.text, rank=m.rank, preferred=preferred))
    lines.append(t("cards.total", asked=report.asked, share=f"{report.share:.0%}", need=f"{cardcheck.ENOUGH:.0%}"))
    if args.json:
        print(
            json.dumps(
                {
                    "gaps": {sid: [t(k, **v) for k, v in g] for sid, g in report.gaps.items()},
                    "misses": [m.__dict__ for m in report.misses],
                    "share": report.share,
                },
                ensure_ascii=False,
                indent=2,
            )
        )
    else:
        print("\n".join(lines))
    return 0 if report.clean else 1


def _as_dict(card) -> dict:
    return {
        "section": card.section,
        "names": card.names,
        "summary": card.summary,
        "questions": [{"rule": q.rule, **q.texts} for q in card.questions],
    }
