"""Galaxy Trucker dice: where meteors and shots hit (유성군) and where sabotage strikes (사보타주).
The bot cannot see anyone's ship, so it names the row or column and shows every roll; players
check which tile is hit."""

from __future__ import annotations

import re
from dataclasses import dataclass

from tabletop.core.dice import Dice
from tabletop.core.errors import UserError
from tabletop.core.i18n import t
from tabletop.core.text import key

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
    ("meteor", "small"): ("small", "작은", "작은유성", "small meteor", "小さな流星", "小さい", "小"),
    ("meteor", "large"): ("large", "big", "큰", "큰유성", "large meteor", "大きな流星", "大きい", "大"),
    ("shot", "light"): ("light", "약한", "약한사격", "light shot", "弱いキャノン", "弱い", "軽い"),
    ("shot", "heavy"): ("heavy", "강한", "강한사격", "heavy shot", "強いキャノン", "強い", "重い"),
}
# The pack's sections that name each kind: their titles, names in every language and aliases are
# read too (the command passes them), so every name the rules give is typed as it is written.
KIND_SECTIONS = {
    "small-meteors": ("meteor", "small"),
    "large-meteors": ("meteor", "large"),
    "light-fire": ("shot", "light"),
    "heavy-fire": ("shot", "heavy"),
}
_SHOT_WORDS = ("shot", "shots", "cannon", "fire", "砲撃", "キャノン")


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


_COUNT_RE = re.compile(r"^(?:[x×*](\d{1,2})|(\d{1,2})(?:[x×개번발])?)$", re.IGNORECASE)


def _named_kind(words: list[str], names: dict[str, tuple[str, str]]) -> tuple[tuple[str, str] | None, list[str]]:
    """The longest run of words that is a kind's name (`heavy fire left`: Heavy Fire), and the
    words left; (None, words) when no run is one."""
    for n in range(len(words), 0, -1):
        for i in range(len(words) - n + 1):
            found = names.get(key("".join(words[i : i + n])))
            if found and (n > 1 or len(words[i]) > 1):
                return found, words[:i] + words[i + n :]
    return None, words


def parse_incoming(spec: str | None, names: dict[str, tuple[str, str]] | None = None) -> list[Incoming]:
    """'large front, small left x2, heavy shot right' / '큰 앞, 3 작은 왼쪽' / 'heavy fire left' /
    '強い砲撃 右'. `names` maps further names (the pack's, by key) to kinds. Left out entirely:
    one small meteor from the front. Every word must be a size, a kind, a direction or a
    count: nothing typed is dropped or guessed."""
    if spec is None or not spec.strip():
        return [Incoming("meteor", "small", "front")]
    items = [x.strip() for x in re.split(r"[,，、;\n]", spec) if x.strip()]
    if not items:  # ',,,' names nothing
        raise UserError(t("gt.empty_incoming", spec=spec.strip()[:40]))
    out: list[Incoming] = []
    for item in items:
        spaced = re.sub(r"([x×*])\s+(\d)", r"\1\2", item, flags=re.IGNORECASE)
        kind_size, rest = _named_kind(spaced.split(), names or {})
        words = " ".join(rest).replace("유성", " ").replace("사격", " shot ").replace("meteor", " ").split()
        directions, count, shot = [], 1, False
        for w in words:
            found_kind = next((ks for ks, ws in _KINDS.items() if key(w) in {key(x) for x in ws}), None)
            found_direction = _lookup(w, _DIRECTIONS)
            number = _COUNT_RE.match(w)
            if key(w) in _SHOT_WORDS:
                shot = True
            elif found_kind and not kind_size:
                kind_size = found_kind
            elif found_direction:
                directions.append(found_direction)
            elif number:
                count = int(number.group(1) or number.group(2))
            else:
                raise UserError(t("gt.bad_incoming", item=item[:40]))
        if len(set(directions)) > 1:
            raise UserError(t("gt.two_directions", item=item[:40]))
        if not directions or count < 1:
            raise UserError(t("gt.bad_incoming", item=item[:40]))
        if shot and kind_size and kind_size[0] == "meteor":
            kind_size = ("shot", "light" if kind_size[1] == "small" else "heavy")
        kind_size = kind_size or (("shot", "light") if shot else ("meteor", "small"))
        out += [Incoming(kind_size[0], kind_size[1], directions[0]) for _ in range(count)]
        if len(out) > MAX_INCOMING:
            raise UserError(t("gt.too_many", limit=MAX_INCOMING))
    return out


def roll_incoming(incoming: list[Incoming], dice: Dice) -> list[Incoming]:
    for item in incoming:
        item.dice = (dice.roll(6), dice.roll(6))
    return incoming


def roll_sabotage(dice: Dice) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Up to three attempts, each a column (2d6) then a row (2d6)."""
    return [((dice.roll(6), dice.roll(6)), (dice.roll(6), dice.roll(6))) for _ in range(SABOTAGE_ATTEMPTS)]
