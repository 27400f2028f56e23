"""Units and named effects as the dice and the odds use them (from `unitdata`), and
the little language players use to write a side: "3 infantry, 1 mech", "2x 보병", "보병 x2",
"dread2" (the upgrade), "3 custom@6x2 sustain" (an ad hoc unit), and named effects ("sardakk",
"plasma scoring").

Grammar of one item, documented in /help and the player's guide (docs/*/player/combat.md):
  count   a number before the name (2 보병, 2x 보병, 2× 보병) or after it with x/× (보병 x2), or a
          number with a counter word (보병 2기); a bare number after a space (보병 2) is refused as
          ambiguous;
  tier    II, Ⅱ, 2 or -2 joined to a name is the upgrade (보병2, pds2, dread2, hel-titan-2,
          보병 II);
  extras  @V or @VxD sets the combat value and dice; a trailing "sustain" gives Sustain Damage.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field, replace
from typing import Any

from rapidfuzz import fuzz, process

from tabletop.combat.unitdata import (
    DESCRIPTIVE,
    EFFECT_FIELDS,
    GROUND_TYPES,
    SHIP_TYPES,
    SIDE_SEPARATORS,
    STRUCTURE_TYPES,
    unit_entries,
)
from tabletop.core import text
from tabletop.core.errors import UserError
from tabletop.core.i18n import current, lang, t
from tabletop.core.settings import CONTENTS

MAX_UNITS_PER_SIDE = 100
MAX_COMBAT_VALUE = 10
MAX_SPEC_CHARS = 500
# a card played from round N (card@N): a fight that lasts longer has long been decided
MAX_PLAYED_ROUND = 20

# --- units and sides --------------------------------------------------------------------------


@dataclass(frozen=True)
class Roll:
    value: int  # hits on this or higher
    dice: int = 1


@dataclass(eq=False)
class Unit:
    """One unit on the table. `damaged` is its sustain-damage state (80.1). Two units are equal
    only if they are the same unit: two infantry with the same values are still two pieces."""

    id: str
    names: dict
    type: str = "infantry"
    combat: int | None = None
    dice: int = 1
    sustain: bool = False
    ground: bool = False
    ship: bool = False
    structure: bool = False
    bombardment: Roll | None = None
    space_cannon: Roll | None = None
    anti_fighter_barrage: Roll | None = None
    planetary_shield: bool = False
    disables_shields: bool = False
    abilities: frozenset[str] = frozenset()
    conditional_bonus: int = 0
    cost: float = 1.0
    damaged: bool = False
    number: int = 1  # 1, 2, … among units of the same kind on this side
    restored: Unit | None = None  # the unit before a breach took its abilities (while the Quietus lives)

    def name(self, locale: str | None = None) -> str:
        return self.names.get(lang(locale or current())) or self.names.get("en") or self.id

    def label(self, locale: str | None = None) -> str:
        return f"{self.name(locale)} #{self.number}"

    def copy(self) -> Unit:
        """A shallow copy: its fields are values (names and abilities are never changed). The
        exact odds copy a side for every branch of a pre-combat roll, and this is four times as
        fast as copy.copy or dataclasses.replace."""
        clone = object.__new__(Unit)
        clone.__dict__.update(self.__dict__)
        return clone

    @property
    def can_sustain(self) -> bool:
        return self.sustain and not self.damaged

    @property
    def non_fighter_ship(self) -> bool:
        return self.ship and self.type != "fighter"


@dataclass
class Effects:
    """What the named effects of one side change, gathered once (a name twice counts once)."""

    combat_modifier: int = 0
    round_modifier: int = 0  # first combat round only (Morale Boost)
    sustain_cancels: int = 1  # 80.6: Letnev, 2
    harrow: bool = False
    extra_die: frozenset[str] = frozenset()  # Plasma Scoring: bombardment, space_cannon
    cannon_against: int = 0  # applied to the opponent's space cannon rolls against this side
    bombardment_against: int = 0  # applied to bombardment rolls against this side (Bunker)
    opening_hit: str = ""  # Magen Ω: "structure" (1 hit at the start of ground combat)
    silence_round: bool = False  # Magen (PoK): the opponent makes no combat rolls in round 1
    ambush: bool = False  # Mentak: up to 2 cruisers or destroyers roll 1 die each at the start
    x89: bool = False
    repair_each_round: bool = False
    answering_hit: bool = False
    no_cannon_on_landing: bool = False
    assault_cannon: bool = False
    graviton: bool = False
    disable_pds: bool = False
    reroll_misses_round: int = 0
    blitz: int = 0
    no_bombardment: bool = False
    unit_bonus: dict[str, int] = field(default_factory=dict)
    unit_repairs: str = ""  # a unit of this side repaired at the start of each combat round (Heaven's Eye)
    active_breach: bool = False  # the fight's system has an active breach (the Quietus)
    smothering: bool = False  # Smothering Presence: the other side's units lose their unit abilities
    proxima: bool = False  # Proxima Targeting VI: bombardment of both sides each ground round
    bombardment_destroys: int = 0  # a galactic event: each bombardment hit destroys this many units
    space_modifier: int = 0  # added to this side's combat rolls in space combat only (a nebula)
    converge: bool = False  # space cannon hits on non-fighter ships (offence) or mechs (defence) if able
    gravleash: bool = False  # Letnev breakthrough: +X to one ship's space combat roll each round
    double_hits: bool = False  # X-89 Bacterial Weapon ΩΩ: bombardment and ground combat hits count twice
    void_shielding: bool = False  # Metali Void Shielding: a ship without Sustain Damage sustains once a volley
    barrage_roll: dict | None = None  # {value, dice}: an Anti-Fighter Barrage of the effect's own
    cannon_roll: dict | None = None  # {value, dice}: a Space Cannon offence roll of the effect's own
    dock_cannon: dict | None = None  # {value, dice}: this side's space docks gain Space Cannon
    played: dict[str, int] = field(default_factory=dict)  # a card held -> the round from which it is played

    def add(self, row: dict) -> None:
        """Add one named effect's fields, each combined as its schema says."""
        for name, value in row.items():
            spec = EFFECT_FIELDS.get(name)
            if spec is None or name in DESCRIPTIVE:
                continue
            current = getattr(self, name)
            if spec.merge == "add":
                value = current + value
            elif spec.merge == "max":
                value = max(current, value)
            elif spec.merge == "union":
                value = current | frozenset(value)
            elif spec.merge == "update":
                value = {**current, value["unit"]: value["value"]}
            elif spec.merge == "played":  # from round 1 unless the player says (parse_side: card@N)
                value = {**current, value: 1}
            setattr(self, name, value)


@dataclass
class Side:
    """A player's units in a fight, with the named effects that change how they fight."""

    units: list[Unit]
    effects: Effects = field(default_factory=Effects)
    effect_names: list[str] = field(default_factory=list)  # for the log, each citing its card
    effect_ids: list[str] = field(default_factory=list)  # the same effects, by id
    order: list[str] = field(default_factory=list)  # unit ids to lose first (a player's choice)
    notes: list[str] = field(default_factory=list)  # e.g. an effect named twice, applied once

    def alive(self, kind: str = "ground") -> list[Unit]:
        return [u for u in self.units if getattr(u, kind)]

    def copy(self) -> Side:
        """A copy whose units can be damaged or removed without touching this side's (their
        fields are values, shared safely)."""
        return self.with_units([u.copy() for u in self.units])

    def with_units(self, units: list[Unit]) -> Side:
        """This side (effects, order, notes) with other units. Shallow, as Unit.copy: the odds
        make a side for every branch of a pre-combat roll."""
        clone = object.__new__(Side)
        clone.__dict__.update(self.__dict__)
        clone.units = units
        return clone


# --- the book and the parser ------------------------------------------------------------------------

# An upgrade marker joined to a name: "보병2", "pds-2", "dread2", "보병 II", "보병Ⅱ" (never "보병 2",
# which could be a count).
_TIER_RE = re.compile(r"^(?P<base>.*?\S)(?:-\s*2|2|\s*ii|\s*Ⅱ)$", re.IGNORECASE)


def _stray_symbol(name: str) -> bool:
    """A symbol no unit's name has (an emoji, ×, −, ₩; the names' own = aside): a comparison key
    drops it, so "in😀fantry" or "infantry ×-" would find infantry and the symbol be lost
    without a word. A name with one finds nothing, and its message shows it as typed."""
    return any(unicodedata.category(ch).startswith("S") and ch != "=" for ch in unicodedata.normalize("NFKC", name))


def _singulars(key: str) -> list[str]:
    """An English plural's possible singulars: infantries -> infantry, dreads -> dread."""
    if not key.isascii() or not key.endswith("s") or len(key) < 4:
        return []
    return [key[:-3] + "y"] * key.endswith("ies") + [key[:-1]] + [key[:-2]] * key.endswith("es")


def _short_names(row: dict) -> list[str]:
    """A faction unit by its faction's first word and its type, as players say it: 솔 기함 for
    제네시스 (솔 연방 기함), 레트네브 메크 for 던레인 리퍼 (레트네브 남작령 메크)."""
    ko = row.get("names", {}).get("ko", "")
    m = re.search(r"\(([^()]+)\)$", ko)
    words = m.group(1).split() if m and row.get("faction") else []
    return [f"{words[0]} {words[-1]}"] if len(words) >= 3 else []


class UnitBook:
    """The units and named effects of one game, with name lookup in any language."""

    def __init__(self, rows: list[dict], content: str = CONTENTS[0]):
        self.units: dict[str, dict] = {}
        self.effects: dict[str, dict] = {}
        self._names: dict[str, tuple[str, str]] = {}
        self.content = content  # the content the table plays: which printing a name means
        for row in rows:
            is_unit = row.get("kind", "units") == "units"
            (self.units if is_unit else self.effects)[row["id"]] = row
            for name in (row["id"], *row.get("names", {}).values(), *row.get("aliases", []), *_short_names(row)):
                self._names.setdefault(text.key(name), ("units" if is_unit else "effects", row["id"]))
        self._by_content: dict[str, UnitBook] = {}
        self._rows = rows

    def for_content(self, content: str) -> UnitBook:
        """The book as a table of this content reads names: an entry's names mean the entry
        that replaces it there (at a Thunder's Edge table, `naalu mech` is its reprint)."""
        if content == self.content:
            return self
        if content not in self._by_content:
            book = UnitBook(self._rows, content)
            replaced = {row["replaces"]: row["id"] for row in self._rows if row.get("content") == content and "replaces" in row}
            book._names = {k: (kind, replaced.get(uid, uid)) for k, (kind, uid) in self._names.items()}
            self._by_content[content] = book
        return self._by_content[content]

    def find(self, name: str) -> tuple[str, str] | None:
        """A unit or effect by any of its names; "dread2" and "보병 II" find the upgrade;
        English plurals find the singular (dreads, infantries, space docks, pdss)."""
        if _stray_symbol(name):
            return None
        k = text.key(name)
        found = self._names.get(k) or next(
            (self._names[s] for s in _singulars(k) if s in self._names and self._names[s][0] == "units"), None
        )
        if found:
            return found
        return self._upgrade_named(name)

    def named(self, name: str) -> bool:
        """Whether the words are one of the names as written in the file (no plural, no
        upgrade read into a trailing 2): "viper ex-23" is, "infantry×2" is not."""
        return not _stray_symbol(name) and text.key(name) in self._names

    def _upgrade_named(self, name: str) -> tuple[str, str] | None:
        m = _TIER_RE.match(text.normalize(name))
        if m:
            base = self._names.get(text.key(m["base"]))
            if base and base[0] == "units":
                upgrade = self.upgrade_of(base[1])
                if upgrade:
                    return "units", upgrade
        return None

    def upgrade_of(self, uid: str) -> str | None:
        """The tier II unit of a tier I unit (infantry -> infantry-2), if there is one."""
        if uid.endswith("-2"):
            return uid
        candidate = f"{uid}-2"
        return candidate if candidate in self.units else None

    def suggest(self, name: str, limit: int = 3) -> list[str]:
        """Closest names, shown as "mech (메크)": English and the asker's language (Korean when
        the unit has no name in it)."""
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
            local = names.get(current()) or names.get("ko", uid)
            out.append(names.get("en", uid) if local == names.get("en") else f"{names.get('en', uid)} ({local})")
            if len(out) == limit:
                break
        return out

    def make(self, uid: str, number: int) -> Unit:
        row = self.units[uid]
        kind = row["type"]
        return Unit(
            id=uid,
            names=dict(row.get("names", {})),
            type=kind,
            combat=row.get("combat"),
            dice=row.get("dice", 1),
            sustain=bool(row.get("sustain")),
            ground=kind in GROUND_TYPES or bool(row.get("ground")),
            ship=kind in SHIP_TYPES or bool(row.get("ship")),
            structure=kind in STRUCTURE_TYPES,
            bombardment=Roll(**row["bombardment"]) if row.get("bombardment") else None,
            space_cannon=Roll(**row["space_cannon"]) if row.get("space_cannon") else None,
            anti_fighter_barrage=Roll(**row["anti_fighter_barrage"]) if row.get("anti_fighter_barrage") else None,
            planetary_shield=bool(row.get("planetary_shield")),
            disables_shields=bool(row.get("disables_shields")),
            abilities=frozenset(row.get("abilities") or ()),
            conditional_bonus=row.get("conditional_bonus", 0),
            cost=row.get("cost", 1.0),
            number=number,
        )

    def effect_label(self, eid: str, locale: str | None = None) -> str:
        row = self.effects[eid]
        return row["names"].get(lang(locale or current())) or row["names"]["en"]


_COUNTER_WORDS = "기|개|명|대|척|体|機|隻|個|つ"  # counters players put after a number (4기, 4体)
_ITEM_RE = re.compile(
    rf"""^(?:(?P<count>-?\d+)\s*[x×]?\s+|(?P<count2>-?\d+)\s*[x×](?=\S))?   # before: "3 infantry", "3x mech", "3xmech"
        (?P<name>.+?)
        (?:\s*[x×]\s*(?P<count3>-?\d+)|\s*(?P<count4>-?\d+)\s*(?:{_COUNTER_WORDS})|\s+(?P<bare>-?\d+))?   # after: "보병 x2", "보병 4기"
        (?:\s*@\s*(?P<value>-?\d+)(?:\s*[x×]\s*(?P<dice>-?\d+))?)?       # combat value: "@6", "@6x2"
        (?P<flags>(?:\s+(?:sustain|견딤|피해견딤|피해\s견딤))*)\s*$""",
    re.VERBOSE | re.IGNORECASE,
)


def _count_joined(item: str, book: UnitBook) -> str:
    """A number joined to a name is a count ("보병3", "3歩兵" -> "3 보병", "3 歩兵"), unless it is
    the name itself ("pds-2", "dread2": an upgrade, which `book.find` knows)."""
    if book.find(item):
        return item
    after = re.fullmatch(r"(?P<name>.*\D)(?P<n>\d+)", item)
    if after and not after["name"].endswith((" ", "x", "×", "@")) and book.find(after["name"]):
        return f"{after['n']} {after['name']}"
    before = re.fullmatch(r"(?P<n>\d+)(?P<name>[^\d\sx×@].*)", item)
    if before and book.find(before["name"]):
        return f"{before['n']} {before['name']}"
    return item


# Thunder's Edge, the Last Bastion's faction ability: "Galvanized units roll 1 additional die for
# combat rolls and unit abilities." Written before a unit's name ("2 galvanized infantry"); a
# galvanized unit costs a little more than a plain one, so the plain ones are lost first.
GALVANIZED = {"en": "Galvanized", "ko": "갈바나이즈된", "ja": "ガルバナイズされた"}
_GALVANIZED = re.compile(r"^(?:galvani[sz]ed\s+|galv\.?\s+|갈바나이즈(?:된|드)?\s*|ガルバナイズ(?:された|ド)?\s*)", re.IGNORECASE)
GALVANIZED_WORTH = 0.25


def galvanized(unit: Unit) -> Unit:
    """The unit galvanized: one more die for its combat rolls and for each ability's roll."""

    def more(roll: Roll | None) -> Roll | None:
        return replace(roll, dice=roll.dice + 1) if roll else None

    return replace(
        unit,
        id=f"{unit.id}+galvanized",
        names={k: f"{GALVANIZED.get(k, GALVANIZED['en'])} {v}" for k, v in unit.names.items()},
        dice=unit.dice + 1,
        bombardment=more(unit.bombardment),
        space_cannon=more(unit.space_cannon),
        anti_fighter_barrage=more(unit.anti_fighter_barrage),
        cost=unit.cost + GALVANIZED_WORTH,
    )


def _galvanizing(name: str, book: UnitBook) -> tuple[bool, str]:
    """(whether the name says galvanized, the unit's name without it); a name that is not a unit
    once the word is taken off stays as typed, for its message."""
    rest = _GALVANIZED.sub("", name, count=1)
    if rest == name or not rest or book.find(name) or not book.find(rest):
        return False, name
    return True, rest


_GROUPS = ("count", "count2", "count3", "count4", "bare", "value", "dice", "flags")
# what the grammar reads as a count or a value after a name: "×2", " x2", "@2", " 2"
_COUNT_OR_VALUE = re.compile(r"[×@]|(?:^|\s)x\s*-?\d+$|\s-?\d+$", re.IGNORECASE)
_LEADING_COUNT = re.compile(r"(?:(?P<count>\d+)\s*[x×]?\s+)?(?P<name>.+)", re.IGNORECASE)


def _whole_name(item: str, book: UnitBook) -> dict[str, Any] | None:
    """An item that is a name as it stands after its count ("viper ex-23", "2 exile ii"): read
    whole, before the grammar could take the name's own x or digits for a count."""
    m = _LEADING_COUNT.fullmatch(item.strip())
    if m is None or _COUNT_OR_VALUE.search(m["name"]) or not book.named(m["name"]):  # "보병 2", "보병×2", "보병@2"
        return None
    return {**dict.fromkeys(_GROUPS), "flags": "", "count": m["count"], "name": m["name"]}


# A number that is no whole one (2.5, .5, 1e9): a count of it would be misread (the dot falls out
# of a name's key, "infantry 2.5기" was 5 Infantry II), so it is said; "[0.0.1]" is a unit's name.
_NOT_WHOLE = re.compile(r"\d\s*[.。]\s*\d|(?<![\d.])\.\d|\d[eE][-+]?\d")
# what players type for "times" besides ×, read as ×
_TIMES = str.maketrans({"✕": "×", "✖": "×", "⨯": "×", "\u2212": "-"})  # and a minus sign as a minus


def _item_text(raw: str, book: UnitBook) -> str:
    """One item of a side as the grammar reads it: full-width digits and letters as typed on a
    phone, the other times signs as ×, a minus sign as a hyphen-minus (a negative count is then
    refused as one); UserError for a count that is no whole number."""
    item = unicodedata.normalize("NFKC", raw).translate(_TIMES).strip()
    if _NOT_WHOLE.search(item) and "@" not in item and not _whole_name(item, book):  # Mk2.5@6 is a name
        raise UserError(t("combat.count_not_whole", item=item[:40]))
    return item


_ITEM_SPLIT_RE = re.compile(f"[{re.escape(SIDE_SEPARATORS)}\n]|\\s+and\\s+|\\s*및\\s*")


def parse_side(spec: str, book: UnitBook, field_name: str = "units") -> Side:
    """A side from "3 infantry, 1 mech, sardakk"; UserError for anything it cannot use.

    One grammar: a count is a number before the name (3 보병, 3x 보병) or after it (보병 3,
    보병 x3, 보병 3기, 보병3); an upgrade is II or a 2 joined to the name (보병 II, 보병2, pds-2).
    Only "보병 2" can be read both ways, for a unit that has an upgrade: it is refused, with both."""
    spec = (spec or "").strip()
    if not spec:
        raise UserError(t("combat.empty_side", field=field_name))
    if len(spec) > MAX_SPEC_CHARS:
        raise UserError(t("combat.spec_too_long", field=field_name, limit=MAX_SPEC_CHARS))
    side = Side(units=[])
    counts: dict[str, int] = {}
    named: set[str] = set()
    for raw in _ITEM_SPLIT_RE.split(text.without_controls(spec)):
        item = _item_text(raw, book)
        if not item:
            continue
        m = _whole_name(item, book) or _ITEM_RE.match(_count_joined(item, book))
        if not m:
            raise UserError(t("combat.bad_item", item=item[:40]))
        galvanize, name = _galvanizing(m["name"].strip(), book)
        found = book.find(name)
        if m["bare"] == "2" and found and found[0] == "units" and book.upgrade_of(found[1]) not in (None, found[1]):
            # the hint keeps every word the player typed ("galvanized" too): following it changes nothing else
            raise UserError(t("combat.ambiguous_count", item=item[:40], name=m["name"].strip()[:40]))
        count_text = m["count"] or m["count2"] or m["count3"] or m["count4"] or m["bare"]
        count = int(count_text) if count_text else 1
        if found and found[0] == "effects":
            refused = book.effects[found[1]].get("refused")
            if refused:  # a choice the odds cannot know, or not modelled: said, never guessed
                raise UserError(t(f"combat.refused.{refused}", effect=book.effect_label(found[1])))
            if count_text or (m["value"] is not None and not book.effects[found[1]].get("played")):
                raise UserError(t("combat.bad_item", item=item[:40]))
            if found[1] in named:
                side.notes.append(t("combat.effect_once", effect=book.effect_label(found[1])))
                continue
            named.add(found[1])
            side.effects.add(book.effects[found[1]])
            _play_from(side, book.effects[found[1]], m["value"], item)
            side.effect_names.append(book.effect_label(found[1]))
            side.effect_ids.append(found[1])
            continue
        if count <= 0:
            raise UserError(t("combat.bad_count", item=item[:40]))
        value = int(m["value"]) if m["value"] is not None else None
        dice = int(m["dice"]) if m["dice"] is not None else None
        if found is not None and found[0] == "units" and value is None and book.units[found[1]].get("needs_value"):
            unit_name = book.make(found[1], 1).name()
            raise UserError(t("combat.needs_value", unit=unit_name, example=f"{name}@{book.units[found[1]]['combat'] - 2}"))
        if found is None:
            if value is None:
                raise UserError(unknown_unit(book, name))
            uid = f"custom:{text.key(name)[:20] or 'unit'}"
            template = Unit(id=uid, names={"ko": name[:30], "en": name[:30]}, type="infantry", ground=True, cost=1.0)
        else:
            template = book.make(found[1], 1)
        if value is not None:
            if not 1 <= value <= MAX_COMBAT_VALUE:
                raise UserError(t("combat.bad_value", item=item[:40]))
            template.combat = value
        if dice is not None:
            if not 1 <= dice <= 10:
                raise UserError(t("combat.bad_dice", item=item[:40]))
            template.dice = dice
        if m["flags"].strip():
            template.sustain = True
        if galvanize:
            template = galvanized(template)
        if len(side.units) + count > MAX_UNITS_PER_SIDE:
            raise UserError(t("combat.too_many_units", field=field_name, limit=MAX_UNITS_PER_SIDE))
        for _ in range(count):
            counts[template.id] = counts.get(template.id, 0) + 1
            side.units.append(replace(template, number=counts[template.id]))
    if not side.units and not side.effect_names:
        raise UserError(t("combat.empty_side", field=field_name))
    return side


def _play_from(side: Side, entry: dict, value: str | None, item: str) -> None:
    """A card played from round N (card@N) rather than at its first opportunity."""
    if value is None or not entry.get("played"):
        return
    if not 1 <= int(value) <= MAX_PLAYED_ROUND:
        raise UserError(t("combat.bad_round", item=item[:40], limit=MAX_PLAYED_ROUND))
    side.effects.played = {**side.effects.played, entry["played"]: int(value)}


def unknown_unit(book: UnitBook, name: str) -> str:
    """An unknown name, with the closest names when there are any."""
    suggestions = book.suggest(name)
    if suggestions:
        return t("combat.unknown_unit", name=name[:40], suggestions=", ".join(suggestions))
    return t("combat.unknown_unit_plain", name=name[:40])


def parse_order(spec: str | None, book: UnitBook, side: Side | None = None) -> list[str]:
    """A hit order such as "mech, infantry": unit ids to lose first, in that order. Ad hoc units
    of the side (custom@6) may be named too; a unit the side does not have is refused (an order
    that silently did nothing would let a typo go unnoticed)."""
    out = []
    adhoc = {u.id.split(":", 1)[1]: u.id for u in (side.units if side else []) if u.id.startswith("custom:")}
    for raw in re.split(r"[,，、;>]", spec or ""):
        name = raw.strip()
        if not name:
            continue
        if text.key(name) in adhoc:
            out.append(adhoc[text.key(name)])
            continue
        galvanize, name = _galvanizing(name, book)
        found = book.find(name)
        if not found or found[0] != "units":
            raise UserError(_unknown_in_order(book, name, side))
        uid = found[1] + ("+galvanized" if galvanize else "")
        if side is not None and not any(uid in (u.id, u.id.split("+", 1)[0], u.type) for u in side.units):
            names = ", ".join(dict.fromkeys(u.name() for u in side.units)) or "—"
            raise UserError(t("combat.order_not_on_side", name=name[:40], units=names))
        out.append(uid)
    return out


def _unknown_in_order(book: UnitBook, name: str, side: Side | None) -> str:
    """An order names units already in the fight: say which, not how to add a new unit."""
    names = list(dict.fromkeys(u.name() for u in side.units)) if side else []
    if names:
        return t("combat.unknown_in_order", name=name[:40], units=", ".join(names))
    suggestions = book.suggest(name)
    return t("combat.unknown_in_order", name=name[:40], units=", ".join(suggestions) or "—")


_books: dict[str, tuple[list[dict], UnitBook]] = {}


def unit_book(game: str) -> UnitBook:
    """The game's book, made again only when its unit files changed; UnitDataError when they
    have problems."""
    entries = unit_entries(game)
    known = _books.get(game)
    if known is None or known[0] is not entries:
        known = _books[game] = (entries, UnitBook(entries))
    return known[1]
