"""The /gt commands: roll meteors, shots and sabotage, show every die, quote the pack's own rules
text under the roll, and offer buttons to open the sections these rolls come from."""

from __future__ import annotations

from dataclasses import dataclass

from tabletop.core.commands import Context, Values, again_id, command, log_roll, opt
from tabletop.core.dice import SEED, Dice, Seeded, parse_seed
from tabletop.core.i18n import t
from tabletop.core.render import FIELD_VALUE_MAX, Button, Embed, Paged, escape_md
from tabletop.core.text import key
from tabletop.galaxy_trucker.dice import GAME, KIND_SECTIONS, Incoming, parse_incoming, roll_incoming, roll_sabotage
from tabletop.rules.answers import OPEN_SECTION
from tabletop.rules.compendium import compendium_of


def _open(label: str, section: str) -> Button:
    return Button(label, OPEN_SECTION.id(game=GAME, section=section), style="primary")


def rules_field(ctx: Context, section_id: str) -> tuple[str, str] | None:
    """The pack's own text of a section, quoted under the roll (never paraphrased)."""

    section = compendium_of(ctx).section(GAME, section_id)
    if section is None:
        return None
    value = "\n".join(f"{r.id} {escape_md(r.text)}" for r in section.rules if r.text)
    if len(value) > FIELD_VALUE_MAX:  # too long to quote whole: the button opens it instead
        return None
    return f"{section.number} {section.title}", value


def _pages(title_key: str, lines: list[str], seed: int, again_id, quote, section: str, label_key: str) -> Paged:
    embed = Embed(title=t(title_key), description="\n".join(lines), footer=t("combat.seed", seed=seed))
    if quote:
        embed.fields.append(quote)
    row = [_open(t(label_key), section)]
    if again_id:
        row.append(Button(t("combat.again"), again_id, emoji="🎲"))
    return Paged([embed], rows=[row])


def meteor_pages(incoming: list[Incoming], seed: int, again_id: str | None, quote=None) -> Paged:
    lines = [
        t(
            "gt.meteor.line",
            n=i,
            what=t(f"gt.{m.kind}.{m.size}"),
            where=t(f"gt.dir.{m.direction}"),
            a=m.dice[0],
            b=m.dice[1],
            total=m.line,
        )
        + " → "
        + t(f"gt.{m.along}", n=m.line)
        for i, m in enumerate(incoming, 1)
    ]
    return _pages("gt.meteor.title", lines, seed, again_id, quote, "meteor-swarm", "gt.rules.meteors")


def sabotage_pages(attempts, seed: int, again_id: str | None, quote=None) -> Paged:
    lines = [
        t("gt.sabotage.line", n=i, c1=c[0], c2=c[1], column=sum(c), r1=r[0], r2=r[1], row=sum(r))
        for i, (c, r) in enumerate(attempts, 1)
    ]
    return _pages("gt.sabotage.title", lines, seed, again_id, quote, "sabotage", "gt.rules.sabotage")


def kind_names(ctx: Context) -> dict[str, tuple[str, str]]:
    """Every name the pack gives the meteors' and shots' sections, in every language, by key."""
    pack = compendium_of(ctx).packs.get(GAME)
    names: dict[str, tuple[str, str]] = {}
    for section in pack.sections if pack else ():
        kind = KIND_SECTIONS.get(section.id)
        if kind is not None:
            names.update({key(name): kind for name in (section.title, *section.names.values(), *section.aliases)})
    return names


@dataclass(frozen=True)
class Meteors(Values):
    incoming: str | None = opt(max_length=300)  # a card's list of meteors and shots, as printed
    seed: str | None = opt(**SEED)


@command("gt meteor", Meteors)
def gt_meteor(ctx: Context, values: Meteors):
    incoming = values.incoming
    items = parse_incoming(incoming, kind_names(ctx))
    seed = parse_seed(values.seed)
    roll_incoming(items, Dice(seed))
    roll_id = log_roll(ctx, "gt meteor", {"incoming": incoming} if incoming else {}, seed, " ".join(str(i.line) for i in items))
    return meteor_pages(items, seed, again_id(roll_id), rules_field(ctx, "meteor-swarm"))


@command("gt sabotage", Seeded)
def gt_sabotage(ctx: Context, values: Seeded):
    seed = parse_seed(values.seed)
    attempts = roll_sabotage(Dice(seed))
    roll_id = log_roll(ctx, "gt sabotage", {}, seed, " ".join(f"{sum(c)}/{sum(r)}" for c, r in attempts))
    return sabotage_pages(attempts, seed, again_id(roll_id), rules_field(ctx, "sabotage"))
