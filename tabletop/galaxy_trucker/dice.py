"""Galaxy Trucker dice: where meteors and shots hit (유성군) and where sabotage strikes (사보타주).
The bot cannot see anyone's ship, so it names the row or column and shows every roll; players
check which tile is hit."""

from __future__ import annotations

import re
from dataclasses import dataclass

from tabletop.combat.dice import Dice
from tabletop.errors import UserError
from tabletop.frontend.i18n import t
from tabletop.rules.text import key

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
