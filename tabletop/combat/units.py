"""Unit statistics for the combat dice, and the little language players use to list a side:
"3 infantry, 1 mech", "보병 4", "2 dreadnought, war sun", "3 custom@6x2 sustain", "sardakk".
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

import yaml
from rapidfuzz import fuzz, process

from tabletop.errors import UserError
from tabletop.frontend.i18n import lang, t
from tabletop.rules import text

MAX_UNITS_PER_SIDE = 100
MAX_COMBAT_VALUE = 10


def load_unit_tables(folder: Path) -> list[dict]:
    """Rows for the rules database's units table: one per unit or faction effect, as JSON."""
    rows = []
    for path in sorted(folder.glob("*.yaml")):
        with path.open(encoding="utf-8") as f:
            data = yaml.safe_load(f) or {}
        for kind in ("units", "factions"):
            for entry in data.get(kind) or []:
                rows.append(
                    {"game": data["game"], "id": entry["id"], "data": json.dumps({**entry, "kind": kind}, ensure_ascii=False)}
                )
    return rows


@dataclass(frozen=True)
class Roll:
    value: int  # hits on this or higher
    dice: int = 1


@dataclass
class Unit:
    """One unit on the table. `damaged` is its sustain-damage state (80.1)."""

    id: str
    names: dict
    combat: int | None = None
    dice: int = 1
    sustain: bool = False
    ground: bool = False
    ship: bool = False
    structure: bool = False
    bombardment: Roll | None = None
    space_cannon: Roll | None = None
    planetary_shield: bool = False
    disables_shields: bool = False
    sustain_hit: int = 0
    cost: float = 1.0
    damaged: bool = False
    number: int = 1  # 1, 2, … among units of the same kind on this side

    def name(self, locale="ko") -> str:
        return self.names.get(lang(locale)) or self.names.get("en") or self.id

    def label(self, locale="ko") -> str:
        return f"{self.name(locale)} #{self.number}"

    @property
    def can_sustain(self) -> bool:
        return self.sustain and not self.damaged


@dataclass
class Side:
    """A player's units in a fight, with the side-wide effects of their faction."""

    units: list[Unit]
    combat_modifier: int = 0  # faction ability; the command's modifier is added on top
    sustain_cancels: int = 1  # hits one Sustain Damage cancels (80.6: Letnev, 2)
    harrow: bool = False
    effects: list[str] = field(default_factory=list)  # effect names, for the log
    order: list[str] = field(default_factory=list)  # unit ids to lose first (a player's choice)

    def alive(self, kind: str = "ground") -> list[Unit]:
        return [u for u in self.units if getattr(u, kind)]

    def copy(self) -> Side:
        return replace(self, units=[replace(u) for u in self.units])


class UnitBook:
    """The units and faction effects of one game, with name lookup in any language."""

    def __init__(self, rows: list[dict]):
        self.units: dict[str, dict] = {}
        self.effects: dict[str, dict] = {}
        self._names: dict[str, tuple[str, str]] = {}
        for row in rows:
            target = self.effects if row.get("kind") == "factions" else self.units
            target[row["id"]] = row
            for name in (row["id"], *row.get("names", {}).values(), *row.get("aliases", [])):
                self._names.setdefault(text.key(name), (row.get("kind", "units"), row["id"]))

    def find(self, name: str) -> tuple[str, str] | None:
        return self._names.get(text.key(name))

    def suggest(self, name: str, locale="ko", limit: int = 3) -> list[str]:
        """Closest names, shown as "mech (메크)"."""
        k = text.decompose(text.key(name))
        keys = list(self._names)
        matches = process.extract(k, [text.decompose(x) for x in keys], scorer=fuzz.ratio, limit=limit * 3, score_cutoff=50)
        seen, out = set(), []
        for _candidate, _score, index in matches:
            kind, uid = self._names[keys[index]]
            if uid in seen:
                continue
            seen.add(uid)
            row = (self.units if kind == "units" else self.effects)[uid]
            names = row.get("names", {})
            out.append(f"{names.get('en', uid)} ({names.get('ko', uid)})")
            if len(out) == limit:
                break
        return out

    def make(self, uid: str, number: int) -> Unit:
        row = self.units[uid]
        return Unit(
            id=uid,
            names=dict(row.get("names", {})),
            combat=row.get("combat"),
            dice=row.get("dice", 1),
            sustain=bool(row.get("sustain")),
            ground=bool(row.get("ground")),
            ship=bool(row.get("ship")),
            structure=bool(row.get("structure")),
            bombardment=Roll(**row["bombardment"]) if row.get("bombardment") else None,
            space_cannon=Roll(**row["space_cannon"]) if row.get("space_cannon") else None,
            planetary_shield=bool(row.get("planetary_shield")),
            disables_shields=bool(row.get("disables_shields")),
            sustain_hit=row.get("sustain_hit", 0),
            cost=row.get("cost", 1.0),
            number=number,
        )


_ITEM_RE = re.compile(
    r"""^(?:(?P<count>-?\d+)\s*[x×]?\s+|(?P<count2>-?\d+)\s*[x×]?(?=\D))?   # leading count: "3 infantry", "3x mech"
        (?P<name>.+?)
        (?:\s*(?P<count3>-?\d+)\s*(?:기|개|명|대)?)?                    # trailing count: "보병 4", "보병4기"
        (?:\s*@\s*(?P<value>-?\d+)(?:\s*[x×]\s*(?P<dice>-?\d+))?)?       # combat value: "@6", "@6x2"
        (?P<flags>(?:\s+(?:sustain|견딤|피해견딤|피해\s견딤))*)\s*$""",
    re.VERBOSE | re.IGNORECASE,
)


def parse_side(spec: str, book: UnitBook, locale="ko", field_name: str = "units") -> Side:
    """A side from "3 infantry, 1 mech, sardakk"; UserError for anything it cannot use."""
    spec = (spec or "").strip()
    if not spec:
        raise UserError(t("combat.empty_side", locale, field=field_name))
    if len(spec) > 500:
        raise UserError(t("combat.spec_too_long", locale, field=field_name, limit=500))
    side = Side(units=[])
    counts: dict[str, int] = {}
    for raw in re.split(r"[,，、;+\n]|\s+and\s+|\s*및\s*", spec):
        item = raw.strip()
        if not item:
            continue
        m = _ITEM_RE.match(item)
        if not m:
            raise UserError(t("combat.bad_item", locale, item=item[:40]))
        count_text = m["count"] or m["count2"] or m["count3"]
        count = int(count_text) if count_text else 1
        name = m["name"].strip()
        found = book.find(name)
        if found and found[0] == "factions":
            if count_text:
                raise UserError(t("combat.bad_item", locale, item=item[:40]))
            effect = book.effects[found[1]]
            side.combat_modifier += effect.get("combat_modifier", 0)
            side.sustain_cancels = max(side.sustain_cancels, effect.get("sustain_cancels", 1))
            side.harrow = side.harrow or bool(effect.get("harrow"))
            side.effects.append(effect["names"].get(lang(locale)) or effect["names"]["en"])
            continue
        if count <= 0:
            raise UserError(t("combat.bad_count", locale, item=item[:40]))
        value = int(m["value"]) if m["value"] is not None else None
        dice = int(m["dice"]) if m["dice"] is not None else None
        if found is None:
            if value is None:
                suggestions = book.suggest(name, locale)
                raise UserError(t("combat.unknown_unit", locale, name=name[:40], suggestions=", ".join(suggestions) or "-"))
            uid = f"custom:{text.key(name)[:20] or 'unit'}"
            template = Unit(id=uid, names={"ko": name[:30], "en": name[:30]}, ground=True, cost=1.0)
        else:
            template = book.make(found[1], 1)
        if value is not None:
            if not 1 <= value <= MAX_COMBAT_VALUE:
                raise UserError(t("combat.bad_value", locale, item=item[:40]))
            template.combat = value
        if dice is not None:
            if not 1 <= dice <= 10:
                raise UserError(t("combat.bad_dice", locale, item=item[:40]))
            template.dice = dice
        if m["flags"].strip():
            template.sustain = True
        if len(side.units) + count > MAX_UNITS_PER_SIDE:
            raise UserError(t("combat.too_many_units", locale, field=field_name, limit=MAX_UNITS_PER_SIDE))
        for _ in range(count):
            counts[template.id] = counts.get(template.id, 0) + 1
            side.units.append(replace(template, number=counts[template.id]))
    if not side.units and not side.effects:
        raise UserError(t("combat.empty_side", locale, field=field_name))
    return side


def parse_order(spec: str | None, book: UnitBook, locale="ko") -> list[str]:
    """A hit order such as "mech, infantry": unit ids to lose first, in that order."""
    out = []
    for raw in re.split(r"[,，、;>]", spec or ""):
        name = raw.strip()
        if not name:
            continue
        found = book.find(name)
        if not found or found[0] != "units":
            raise UserError(
                t("combat.unknown_unit", locale, name=name[:40], suggestions=", ".join(book.suggest(name, locale)) or "-")
            )
        out.append(found[1])
    return out
