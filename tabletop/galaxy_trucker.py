"""Galaxy Trucker dice: where meteors and shots hit (유성군) and where sabotage strikes (사보타주).

The bot cannot see anyone's ship, so it names the row or column and shows every roll; players
check which tile is hit. The buttons open the rules sections these rolls come from.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .commands import Context, Option, command, log_roll
from .dice import Dice, parse_seed
from .errors import UserError
from .i18n import t
from .render import Button, Embed, Paged
from .text import key

GAME = "galaxy-trucker"
MAX_INCOMING = 12
SABOTAGE_ATTEMPTS = 3  # "세 번째도 빗나가면 아무 일도 일어나지 않습니다"

_DIRECTIONS = {
    "front": ("front", "앞", "앞쪽", "전방", "위", "위쪽", "f", "前", "前方"),
    "back": ("back", "rear", "뒤", "뒤쪽", "후방", "아래", "b", "後ろ", "後方"),
    "left": ("left", "왼쪽", "좌", "좌측", "l", "左"),
    "right": ("right", "오른쪽", "우", "우측", "r", "右"),
}
_KINDS = {
    ("meteor", "small"): ("small", "작은", "작은유성", "small meteor", "小さな流星"),
    ("meteor", "large"): ("large", "big", "큰", "큰유성", "large meteor", "大きな流星"),
    ("shot", "light"): ("light", "약한", "약한사격", "light shot", "弱いキャノン"),
    ("shot", "heavy"): ("heavy", "강한", "강한사격", "heavy shot", "強いキャノン"),
}


@dataclass
class Incoming:
    kind: str  # meteor | shot
    size: str  # small | large | light | heavy
    direction: str  # front | back | left | right
    dice: tuple[int, int] = (0, 0)

    @property
    def line(self) -> int:
        return sum(self.dice)

    @property
    def along(self) -> str:
        """Meteors from the front or back travel down a column; from a side, along a row."""
        return "column" if self.direction in ("front", "back") else "row"


def _lookup(word: str, table: dict) -> str | None:
    k = key(word)
    for name, words in table.items():
        if k in {key(w) for w in words}:
            return name
    return None


def parse_incoming(spec: str | None, locale="ko") -> list[Incoming]:
    """'large front, small left, heavy shot right' / '큰 앞, 작은 왼쪽'; default one small from the front."""
    items = [x.strip() for x in re.split(r"[,，、;\n]", spec or "") if x.strip()] or ["small front"]
    if len(items) > MAX_INCOMING:
        raise UserError(t("gt.too_many", locale, limit=MAX_INCOMING))
    out = []
    for item in items:
        words = item.replace("유성", " ").replace("사격", " shot ").replace("meteor", " ").split()
        kind_size = direction = None
        for w in words:
            kind_size = kind_size or next((ks for ks, ws in _KINDS.items() if key(w) in {key(x) for x in ws}), None)
            direction = direction or _lookup(w, _DIRECTIONS)
        if "shot" in words and kind_size and kind_size[0] == "meteor":
            kind_size = ("shot", "light" if kind_size[1] == "small" else "heavy")
        if direction is None or (kind_size is None and len(words) > 1 and "shot" not in words):
            raise UserError(t("gt.bad_incoming", locale, item=item[:40]))
        kind_size = kind_size or (("shot", "light") if "shot" in words else ("meteor", "small"))
        out.append(Incoming(kind_size[0], kind_size[1], direction))
    return out


def roll_incoming(incoming: list[Incoming], dice: Dice) -> list[Incoming]:
    for item in incoming:
        item.dice = (dice.roll(6), dice.roll(6))
    return incoming


def roll_sabotage(dice: Dice) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Up to three attempts, each a column (2d6) then a row (2d6)."""
    return [((dice.roll(6), dice.roll(6)), (dice.roll(6), dice.roll(6))) for _ in range(SABOTAGE_ATTEMPTS)]


def _open(label: str, section: str) -> Button:
    return Button(label, f"rule:open:{GAME}:{section}", style="primary")


def rules_field(ctx: Context, section_id: str) -> tuple[str, str] | None:
    """The pack's own text of a section, quoted under the roll (never paraphrased)."""
    from .render import FIELD_VALUE_MAX, escape_md

    section = ctx.compendium.section(GAME, section_id)
    if section is None:
        return None
    value = "\n".join(f"{r.id} {escape_md(r.text)}" for r in section.rules if r.text)
    if len(value) > FIELD_VALUE_MAX:  # too long to quote whole: the button opens it instead
        return None
    return f"{section.number} {section.title}", value


def _pages(title_key: str, lines: list[str], seed: int, locale, again_id, quote, section: str, label_key: str) -> Paged:
    embed = Embed(title=t(title_key, locale), description="\n".join(lines), footer=t("combat.seed", locale, seed=seed))
    if quote:
        embed.fields.append(quote)
    row = [_open(t(label_key, locale), section)]
    if again_id:
        row.append(Button(t("combat.again", locale), again_id, emoji="🎲"))
    return Paged([embed], rows=[row], locale=str(locale))


def meteor_pages(incoming: list[Incoming], seed: int, locale, again_id: str | None, quote=None) -> Paged:
    lines = [
        t("gt.meteor.line", locale, n=i, what=t(f"gt.{m.kind}.{m.size}", locale), where=t(f"gt.dir.{m.direction}", locale),
          a=m.dice[0], b=m.dice[1], total=m.line)
        + " → " + t(f"gt.{m.along}", locale, n=m.line)
        for i, m in enumerate(incoming, 1)
    ]
    return _pages("gt.meteor.title", lines, seed, locale, again_id, quote, "meteor-swarm", "gt.rules.meteors")


def sabotage_pages(attempts, seed: int, locale, again_id: str | None, quote=None) -> Paged:
    lines = [
        t("gt.sabotage.line", locale, n=i, c1=c[0], c2=c[1], column=sum(c), r1=r[0], r2=r[1], row=sum(r))
        for i, (c, r) in enumerate(attempts, 1)
    ]
    return _pages("gt.sabotage.title", lines, seed, locale, again_id, quote, "sabotage", "gt.rules.sabotage")


@command("gt meteor", Option("incoming", max_length=300), Option("seed", max_length=20))
def gt_meteor(ctx: Context, incoming: str | None = None, seed=None):
    items = parse_incoming(incoming, ctx.locale)
    seed = parse_seed(seed, ctx.locale)
    roll_incoming(items, Dice(seed))
    again = log_roll(ctx, "gt meteor", {"incoming": incoming} if incoming else {}, seed, " ".join(str(i.line) for i in items))
    return meteor_pages(items, seed, ctx.locale, again, rules_field(ctx, "meteor-swarm"))


@command("gt sabotage", Option("seed", max_length=20))
def gt_sabotage(ctx: Context, seed=None):
    seed = parse_seed(seed, ctx.locale)
    attempts = roll_sabotage(Dice(seed))
    again = log_roll(ctx, "gt sabotage", {}, seed, " ".join(f"{sum(c)}/{sum(r)}" for c, r in attempts))
    return sabotage_pages(attempts, seed, ctx.locale, again, rules_field(ctx, "sabotage"))
