"""Battle logs as pages: every die (hits marked), which unit took each hit, units left, result."""

from __future__ import annotations

from collections import Counter

from tabletop.combat.odds import Odds
from tabletop.combat.outcome import NOISE, percent
from tabletop.combat.resolver import ATTACKER, DEFENDER, Battle, Volley
from tabletop.combat.units import Side
from tabletop.core.dice import DiceRoll
from tabletop.core.i18n import t
from tabletop.core.render import COLOR_OK, COLOR_RULE, Button, Embed, Paged, escape_md, footer_page, paginate


def _side_name(side: str) -> str:
    return t(f"combat.{side}")


def _die(d) -> str:
    shown = f"{d.roll}{d.modifier:+d}" if d.modifier else str(d.roll)
    shown = f"↻{shown}" if d.rerolled else shown  # the miss before it, rolled again
    return f"**{shown}**✓" if d.hit else f"{shown}"


def volley_lines(v: Volley) -> list[str]:
    who = _side_name(v.side)
    if v.said:  # a card played: what it did, after the dice it rolled
        rolled = " ".join(_die(d) for d in v.dice)
        return [f"{who} · {escape_md(v.said)}" + (f" ({v.dice[0].needs}+: {rolled})" if v.dice else "")]
    kind = t(f"combat.kind.{v.kind}")
    if v.blocked:
        return [f"{who} · {kind}: {v.blocked}"]
    lines = []
    if v.dice:
        by_unit: dict[str, list] = {}
        for d in v.dice:
            by_unit.setdefault(d.unit, []).append(d)
        parts = [f"{escape_md(unit)} ({dice[0].needs}+) " + " ".join(_die(d) for d in dice) for unit, dice in by_unit.items()]
        lines.append(f"{who} · {kind}: " + " · ".join(parts) + f" → {t('combat.hits', n=v.hits)}")
    else:
        lines.append(f"{who} · {kind}: {t('combat.hits', n=v.hits)}")
    if v.taken:
        lines.append("  ↳ " + ", ".join(f"{escape_md(x.unit)} {t(f'combat.{x.result}')}" for x in v.taken))
    if v.excess:
        lines.append("  ↳ " + t("combat.excess", n=v.excess))
    return lines


def side_summary(side: Side | None) -> str:
    if side is None or not side.units:
        return t("combat.none_left")
    counts = Counter(u.name() + (f" ({t('combat.damaged')})" if u.damaged else "") for u in side.units)
    return ", ".join(f"{escape_md(name)} ×{n}" for name, n in counts.items())


def result_line(battle: Battle) -> str:
    if battle.kind == "bombard":
        return ""
    if battle.stopped_after:
        return t("combat.result.undecided", n=battle.stopped_after)
    lines = []
    if battle.combat or battle.kind != "invade":  # no ground combat: its note says so, not "no result"
        # a draw cites 70.4, ground combat's rule: the glossary has no entry for space combat
        space_draw = battle.kind == "space" and battle.winner == "draw"
        lines.append(t("combat.result.draw_space") if space_draw else t(f"combat.result.{battle.winner or 'none'}"))
    if battle.control:
        lines.append(t(f"combat.control.{battle.control}"))
    return "\n".join(lines)


def odds_line(odds: dict, kind: str) -> str:
    """ "공격자 승리 확률 62%": the odds of the battle, shown before its dice."""
    line = t("odds.line", attacker=percent(odds["attacker"]), defender=percent(odds["defender"]), draw=percent(odds["draw"]))
    if odds.get("undecided"):
        line += " · " + t("odds.undecided", p=percent(odds["undecided"]))
    if kind == "invade" and odds.get("control") is not None:
        line += " · " + t("odds.control", p=percent(odds["control"]))
    return line


def battle_pages(battle: Battle, again_id: str | None = None, odds_id: str | None = None, swap_id: str | None = None) -> Paged:
    blocks = []
    if battle.odds is not None:
        blocks.append(f"📊 {odds_line(battle.odds, battle.kind)}")
    for step in battle.steps:
        head = t("combat.before") if step.number == 0 else t("combat.round", n=step.number)
        lines = [f"__**{head}**__"]
        for v in step.volleys:
            lines += volley_lines(v)
        blocks.append("\n".join(lines))
    effects = [f"{_side_name(name)}: {', '.join(names)}" for name, names in battle.effects.items() if names]
    summary = [
        f"**{t('combat.left')}** — {_side_name(ATTACKER)}: {side_summary(battle.attacker)}"
        f" / {_side_name(DEFENDER)}: {side_summary(battle.defender)}"
    ]
    if effects:
        summary.append(f"{t('combat.effects')}: " + "; ".join(escape_md(e) for e in effects))
    summary += [escape_md(n) for n in battle.notes]
    result = result_line(battle)
    if result:
        summary.append(f"**{result}**")
    blocks.append("\n".join(summary))
    raw = paginate(blocks)
    title = t(f"combat.title.{battle.kind}")
    footer_prefix = t("combat.seed", seed=battle.seed)
    pages = [
        Embed(
            title=title,
            description=text,
            footer=footer_page(i + 1, len(raw), footer_prefix),
            color=COLOR_OK if i == len(raw) - 1 else COLOR_RULE,
        )
        for i, (text, _) in enumerate(raw)
    ]
    pages[-1].footer = f"{content_line(battle.content)}\n{t('combat.policy')}\n{pages[-1].footer}"
    buttons = [Button(t("combat.again"), again_id, emoji="🎲")] if again_id else []
    if odds_id:
        buttons.append(Button(t("odds.button"), odds_id, emoji="📊"))
    if swap_id:
        buttons.append(Button(t("combat.swap"), swap_id, emoji="🔄"))
    return Paged(pages, start=len(pages) - 1, rows=[buttons] if buttons else [])


def content_line(content: str) -> str:
    """Which printing of the units the fight used: the table's content, said on every reply."""
    return t("combat.content", content=t(f"choice.content.{content}"))


def _units(units: tuple) -> str:
    return ", ".join(f"{escape_md(name)} ×{n}" for name, n in units) or t("combat.none_left")


# At most this many thresholds per kind of unit: 100 fighters still fit on one line.
AT_LEAST_SHOWN = 6


def thresholds(written: list[str], chances: list[float]) -> list[int]:
    """The k to show for "at least k survive", given each k's chance as written: always 1 (does
    any survive?); of a run of k written alike only one: the last where the chance is high (at
    least 8 at >99% says the same of 2 to 7), the first where it is low (at least 6 at <1% says
    the same of 7 and more); then, if still too many, evenly spread, keeping the first and last."""
    most = len(written)

    def telling_k(k: int) -> bool:
        if k in (1, most):
            return True
        if chances[k - 1] >= 0.5:
            return written[k - 1] != written[k]  # the last of its run
        return written[k - 1] != written[k - 2]  # the first of its run

    telling = [k for k in range(1, most + 1) if telling_k(k)]
    if len(telling) <= AT_LEAST_SHOWN:
        return telling
    picks = {telling[round(i * (len(telling) - 1) / (AT_LEAST_SHOWN - 1))] for i in range(AT_LEAST_SHOWN)}
    return sorted(picks)


def at_least_lines(odds: Odds, side: str) -> list[str]:
    """ "순양함: ≥1 72% · ≥2 45%": the chance that at least k of each kind survive."""
    lines = []
    for name, chances in odds.at_least(side).items():
        if chances[0] < NOISE:  # none of them survives
            continue
        written = [percent(p) for p in chances]
        shown = [f"≥{k} {written[k - 1]}" for k in thresholds(written, chances)]
        lines.append(f"{escape_md(name)}: " + " · ".join(shown))
    return [f"*{t('odds.at_least')}*", *lines] if lines else []


def odds_pages(odds: Odds, kind: str, chart: str = "", swap_id: str | None = None) -> Paged:
    """The full breakdown: outcomes, control, expected rounds, the likeliest survivors."""
    lines = [f"**{odds_line(odds.as_dict(), kind)}**"]
    if odds.retreat and odds.retreating:
        winner = DEFENDER if odds.retreating == ATTACKER else ATTACKER
        lines.append(
            t(
                "odds.retreat",
                p=percent(odds.retreat),
                side=_side_name(odds.retreating),
                winner=_side_name(winner),
            )
        )
    if kind == "invade" and odds.no_combat:
        lines.append(t("odds.no_combat", p=percent(odds.no_combat)))
    lines.append(t("odds.rounds", n=f"{odds.rounds:.2f}"))
    lines += [escape_md(n) for n in odds.notes]
    for side in (ATTACKER, DEFENDER):
        lines.append(f"__**{t('odds.likely', side=_side_name(side))}**__")
        lines += [f"{percent(p)} — {_units(units)}" for units, p in odds.top_survivors(side, 3) if p >= NOISE]
        lines += at_least_lines(odds, side)
    embed = Embed(
        title=t("odds.title", kind=t(f"combat.title.{kind}")),
        description="\n".join(lines),
        footer=f"{content_line(odds.content)}\n{t('odds.exact')}",
        color=COLOR_OK,
        image=f"attachment://{chart}" if chart else "",
    )
    return Paged([embed], rows=[[Button(t("combat.swap"), swap_id, emoji="🔄")]] if swap_id else [])


def roll_pages(roll: DiceRoll, again_id: str | None = None) -> Paged:
    shown = " ".join(
        (f"**{r}**✓" if roll.target is not None and r + roll.modifier >= roll.target else str(r)) for r in roll.results
    )
    lines = [shown]
    if roll.target is not None:
        lines.append(t("dice.successes", n=roll.successes, target=roll.target))
    else:
        lines.append(t("dice.total", total=roll.total))
    mod = f"{roll.modifier:+d}" if roll.modifier else ""
    expr = f"{roll.count}d{roll.sides}{mod}" + (f">={roll.target}" if roll.target is not None else "")
    embed = Embed(title=t("dice.title", dice=expr), description="\n".join(lines), footer=t("combat.seed", seed=roll.seed))
    rows = [[Button(t("combat.again"), again_id, emoji="🎲")]] if again_id else []
    return Paged([embed], rows=rows)
