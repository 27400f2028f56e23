"""Fair, reproducible dice: every roll comes from a generator seeded with a number that the reply
shows, so the same command with the same seed gives the same dice. Seeds come from the operating
system's randomness.
"""

from __future__ import annotations

import random
import re
import secrets
import unicodedata
from dataclasses import dataclass

from tabletop.core import text
from tabletop.core.commands import Values, opt
from tabletop.core.errors import UserError
from tabletop.core.i18n import t

MAX_DICE = 100
MAX_MODIFIER = 100  # a sum's +N or -N: past a hundred it is no game's roll, only a typo
MAX_SIDES = 1000
MAX_SEED = 2**63 - 1
# The option every dice command takes to replay a roll: the largest seed has 19 digits, and one
# more character lets a stray sign through to parse_seed's clear sentence.
SEED = {"max_length": len(str(MAX_SEED)) + 1, "one_word": True, "help": "opt.seed.desc"}


@dataclass(frozen=True)
class Seeded(Values):
    """The values of a dice command with no option but its seed."""

    seed: str | None = opt(**SEED)


def new_seed() -> int:
    return secrets.randbits(63)


def parse_seed(value) -> int:
    """A seed option: None draws a fresh one; otherwise a whole number 0 … 2^63-1."""
    if value is None or value == "":
        return new_seed()
    try:
        seed = int(str(value).strip())
    except ValueError:
        raise UserError(t("dice.bad_seed")) from None
    if not 0 <= seed <= MAX_SEED:
        raise UserError(t("dice.bad_seed"))
    return seed


class Dice:
    """A seeded d10 (or dN) source. random.Random(int) is stable across Python versions."""

    def __init__(self, seed: int):
        self.seed = seed
        self._rng = random.Random(seed)

    def roll(self, sides: int = 10) -> int:
        return self._rng.randint(1, sides)


@dataclass
class DiceRoll:
    count: int
    sides: int
    target: int | None  # count successes at or above this
    modifier: int
    seed: int
    results: list[int]

    @property
    def successes(self) -> int | None:
        if self.target is None:
            return None
        return sum(r + self.modifier >= self.target for r in self.results)

    @property
    def total(self) -> int:
        return sum(self.results) + self.modifier

    def as_dict(self) -> dict:
        return {
            "seed": self.seed,
            "dice": f"{self.count}d{self.sides}",
            "target": self.target,
            "modifier": self.modifier,
            "results": self.results,
            "successes": self.successes,
            "total": self.total,
        }


_EXPR_RE = re.compile(
    r"^\s*(?P<count>\d+)?\s*[dDㅇ]\s*(?P<sides>\d+)\s*(?P<mod>[+-]\s*\d+)?\s*(?:(?:>=|≥|=>)\s*(?P<target>\d+))?\s*$"
)


def roll_expression(expr: str, seed: int) -> DiceRoll:
    """'5d10>=7' counts dice at 7 or more; '2d6+1' sums; 'd10' is one die. Full-width forms
    (５ｄ１０, as a phone's keyboard may type them) read as their plain ones."""
    expr = unicodedata.normalize("NFKC", text.without_controls(expr or ""))
    m = _EXPR_RE.match(expr)
    if not m:
        raise UserError(t("dice.bad_expression", expr=(expr or "")[:40]))
    count = int(m["count"] or 1)
    sides = int(m["sides"])
    modifier = int(m["mod"].replace(" ", "")) if m["mod"] else 0
    if not 1 <= count <= MAX_DICE:
        raise UserError(t("dice.too_many", limit=MAX_DICE))
    if not 2 <= sides <= MAX_SIDES:
        raise UserError(t("dice.bad_sides", limit=MAX_SIDES))
    if abs(modifier) > MAX_MODIFIER:
        raise UserError(t("dice.bad_modifier", limit=MAX_MODIFIER))
    target = int(m["target"]) if m["target"] else None
    # a target no die can miss, or none can reach, makes the roll say nothing: name the range
    low, high = 1 + modifier, sides + modifier
    if target is not None and not low < target <= high:
        raise UserError(t("dice.pointless_target", target=target, expr=expr.strip()[:40], low=low + 1, high=high))
    dice = Dice(seed)
    results = [dice.roll(sides) for _ in range(count)]
    return DiceRoll(count, sides, target, modifier, seed, results)
