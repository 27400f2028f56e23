"""The unit catalogue's files (data/units/*.yaml) and their schema.

Combat owns its data: the files are read and checked here, when a combat command first needs
them and again whenever a file changes, never as part of the rules database. A bad unit file
therefore stops the combat commands only (each says what is wrong, naming the file, the entry
and the field); rules answers never depend on it.

Every field is declared once, with the check its value must pass and, for effects, how two
named effects that set it combine on one side.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import yaml

from tabletop.core.paths import DATA_DIR
from tabletop.core.settings import CONTENTS

UNITS_DIR = DATA_DIR / "units"

# Default loss order (what calculators use): cheapest kinds of ship first, infantry before mechs.
LOSS_ORDER = (
    "fighter",
    "destroyer",
    "carrier",
    "cruiser",
    "dreadnought",
    "war-sun",
    "flagship",
    "infantry",
    "mech",
    "pds",
    "space-dock",
)
SHIP_TYPES = frozenset(LOSS_ORDER[:7])
GROUND_TYPES = frozenset({"infantry", "mech"})
STRUCTURE_TYPES = frozenset({"pds", "space-dock"})
GROUND_FIGHTS = frozenset({"ground", "invade"})  # the kinds of fight with a ground combat


@dataclass(frozen=True)
class Mechanic:
    """What a unit ability does to a fight, declared once. `slow_in` names the kinds of fight
    (space, ground, invade) in which the vectorised odds solver cannot model it (the hits one
    side takes then depend on more than its own losses): there the fight is solved pair by pair."""

    note: str
    slow_in: frozenset[str] = frozenset()


ABILITIES: dict[str, Mechanic] = {
    "no-space-cannon-against": Mechanic("Argent flagship: no space cannon against your ships"),
    "no-barrage-against": Mechanic("Naalu mech Iconoclast Ω (Codex): no anti-fighter barrage against your units in its system"),
    "opponent-no-sustain": Mechanic("Mentak flagship (space) and mech (ground)"),
    "fighters-fight-on-ground": Mechanic("Naalu flagship"),
    "other-ships-plus-one": Mechanic("Sardakk flagship"),
    "nine-and-ten-hit-thrice": Mechanic("Jol-Nar flagship"),
    "dice-per-opponent-ship": Mechanic("Winnu flagship"),
    "mechs-extra-die": Mechanic("Naaz-Rokha flagship"),
    "valkyrie": Mechanic("Sardakk mech: a hit back for each sustain in ground combat", GROUND_FIGHTS),
    "repaired-each-round": Mechanic("Letnev flagship, Eidolon Maximum: repaired at the start of each combat round"),
    "galvanizes-on-death": Mechanic("A3 Valiance: destroyed galvanized, it galvanizes up to 3 of its side's infantry"),
    "no-ability-hits": Mechanic("Eidolon Maximum: cannot be assigned hits from unit abilities"),
    "breach-strips-abilities": Mechanic("Quietus: with an active breach, other players' units lose their unit abilities"),
    "borrows-structure-cannon": Mechanic("Linkship I: fires the Space Cannon of one of its side's structures, each once"),
    "shares-structure-cannon": Mechanic("Linkship II: fires the Space Cannon of one of its side's structures"),
    "ground-forces-fight-in-space": Mechanic("Nekro flagship: ground forces in its system fight as ships"),
    "destroys-all-ships": Mechanic("Yin flagship: when it is destroyed, every ship in the system is"),
    "hits-to-non-fighters": Mechanic("L1Z1X flagship: its hits and its dreadnoughts' go to non-fighter ships if able"),
}
EFFECT_KINDS = frozenset(
    {"faction-ability", "technology", "action-card", "agenda", "condition", "relic", "breakthrough", "galactic-event"}
)
# An entry marked `content: te` with `replaces: ID` is what ID's names mean at a Thunder's Edge
# table (the Naalu mech reprinted without its bonus); its own names find it at any table.
# The languages a name may be given in: the bot's UI languages.
NAME_LANGUAGES = ("ko", "en", "ja")
# A die's value and count, and a modifier's size: TI4's dice have ten faces.
DIE_FACES = 10

# A check returns None when the value fits, or what the value must be (for the message).
Check = Callable[[object], str | None]


def _text(value: object) -> str | None:
    return None if isinstance(value, str) and value.strip() else "text"


def _flag(value: object) -> str | None:
    return None if isinstance(value, bool) else "true or false"


def _whole(low: int, high: int) -> Check:
    def check(value: object) -> str | None:
        fits = isinstance(value, int) and not isinstance(value, bool) and low <= value <= high
        return None if fits else f"a whole number from {low} to {high}"

    return check


def _cost(value: object) -> str | None:
    fits = isinstance(value, int | float) and not isinstance(value, bool) and value >= 0
    return None if fits else "a number, 0 or more"


# What separates the items of a side ("3 infantry, mech + sardakk"): a name holding one could never
# be typed whole (units.parse_side splits on them).
SIDE_SEPARATORS = ",，、;+"


def _names(value: object) -> str | None:
    fits = (
        isinstance(value, dict)
        and "en" in value
        and all(k in NAME_LANGUAGES and isinstance(v, str) and v.strip() for k, v in value.items())
        and not any(ch in v for v in value.values() for ch in SIDE_SEPARATORS)
    )
    return None if fits else f"a mapping of {', '.join(NAME_LANGUAGES)} to text, with en, none holding any of {SIDE_SEPARATORS}"


def _words(value: object) -> str | None:
    fits = isinstance(value, list) and all(isinstance(v, str) and v.strip() for v in value)
    return None if fits else "a list of text"


def _one_of(choices: frozenset[str] | tuple[str, ...]) -> Check:
    def check(value: object) -> str | None:
        return None if isinstance(value, str) and value in choices else f"one of {', '.join(sorted(choices))}"

    return check


def _some_of(choices: frozenset[str]) -> Check:
    def check(value: object) -> str | None:
        fits = isinstance(value, list) and all(isinstance(v, str) and v in choices for v in value)
        return None if fits else f"a list of {', '.join(sorted(choices))}"

    return check


def _roll(value: object) -> str | None:
    die = _whole(1, DIE_FACES)
    fits = isinstance(value, dict) and set(value) == {"value", "dice"} and not any(map(die, value.values()))
    return None if fits else f"{{value: 1-{DIE_FACES}, dice: 1-{DIE_FACES}}}"


def _unit_bonus(value: object) -> str | None:
    fits = (
        isinstance(value, dict)
        and set(value) == {"unit", "value"}
        and _text(value["unit"]) is None
        and _whole(-DIE_FACES, DIE_FACES)(value["value"]) is None
    )
    return None if fits else f"{{unit: a unit id, value: -{DIE_FACES} to {DIE_FACES}}}"


@dataclass(frozen=True)
class Field:
    """One field of a unit or an effect: the check its value passes, and, for an effect, how two
    effects named on one side combine it (set: the last one named; add; max; union; update) and
    whether the fast odds solver models it."""

    check: Check
    required: bool = False
    merge: str = "set"
    slow_in: frozenset[str] = frozenset()  # as Mechanic.slow_in: where the vectorised solver cannot model it
    acts_in: frozenset[str] | None = None  # the kinds of fight where it can act (None: every kind); elsewhere the log says so
    defender_only: bool = False  # an effect of the defender's (a nebula's, a card played on another's move)


_MODIFIER = _whole(-DIE_FACES, DIE_FACES)
UNIT_FIELDS: dict[str, Field] = {
    "id": Field(_text, required=True),
    "names": Field(_names, required=True),
    "aliases": Field(_words),
    "faction": Field(_text),
    "type": Field(_one_of(LOSS_ORDER), required=True),
    "tier": Field(_whole(1, 2)),
    "ground": Field(_flag),
    "ship": Field(_flag),  # a unit of another type that is also a ship (the Z-Grav Eidolon in space)
    "combat": Field(_whole(1, DIE_FACES)),
    "dice": Field(_whole(1, DIE_FACES)),
    "sustain": Field(_flag),
    "bombardment": Field(_roll),
    "space_cannon": Field(_roll),
    "anti_fighter_barrage": Field(_roll),
    "planetary_shield": Field(_flag),
    "disables_shields": Field(_flag),
    "abilities": Field(_some_of(frozenset(ABILITIES))),
    "conditional_bonus": Field(_MODIFIER),
    # its combat value depends on the board (the Egeiro: +1 per system): the player gives it (@N)
    "needs_value": Field(_flag),
    "content": Field(_one_of(CONTENTS[1:])),  # the content it belongs to, when not every table's
    "replaces": Field(_text),  # the entry whose names it takes at a table of its content
    "cost": Field(_cost),
    "source": Field(_text, required=True),
}
EFFECT_FIELDS: dict[str, Field] = {
    "id": Field(_text, required=True),
    "names": Field(_names, required=True),
    "kind": Field(_one_of(EFFECT_KINDS), required=True),
    "aliases": Field(_words),
    "source": Field(_text, required=True),
    "combat_modifier": Field(_MODIFIER, merge="add"),
    "round_modifier": Field(_MODIFIER, merge="max"),  # Morale Boost's +1, or +2 under Wild Wild Galaxy: one applies
    "sustain_cancels": Field(_whole(1, 3), merge="max"),
    "harrow": Field(_flag, slow_in=frozenset({"invade"})),  # a bombardment after each ground round
    "extra_die": Field(_some_of(frozenset({"bombardment", "space_cannon"})), merge="union"),
    "cannon_against": Field(_MODIFIER, merge="add"),
    "bombardment_against": Field(_MODIFIER, merge="add"),
    "opening_hit": Field(_one_of(("shield", "structure"))),
    "silence_round": Field(_flag),
    "ambush": Field(_flag),
    "x89": Field(_flag),
    "repair_each_round": Field(_flag),
    "answering_hit": Field(_flag, slow_in=GROUND_FIGHTS),  # a hit back for each sustain
    "no_cannon_on_landing": Field(_flag),
    "assault_cannon": Field(_flag),
    "graviton": Field(_flag),
    "disable_pds": Field(_flag),
    "reroll_misses_round": Field(_whole(1, 99)),
    "blitz": Field(_whole(1, DIE_FACES)),
    "no_bombardment": Field(_flag),
    "unit_bonus": Field(_unit_bonus, merge="update"),
    "unit_repairs": Field(_text),  # a unit id: repaired at the start of each combat round
    # why naming it is refused (a message key): its effect needs a choice the odds cannot know
    "refused": Field(_one_of(("choice_per_die", "count"))),
    "active_breach": Field(_flag),  # an active breach in the system (the Quietus's condition)
    # the other side's units lose their unit abilities while this side has a structure (Smothering Presence)
    "smothering": Field(_flag),
    # both sides' losses before each ground round's dice: solved pair by pair
    "proxima": Field(_flag, slow_in=GROUND_FIGHTS, acts_in=GROUND_FIGHTS),
    "bombardment_destroys": Field(_whole(2, 3), merge="max"),  # Conventions of War Abandoned
    "space_modifier": Field(
        _MODIFIER, merge="max", acts_in=frozenset({"space"}), defender_only=True
    ),  # in space combat only: a nebula's +1 (or +3)
    "converge": Field(_flag),  # space cannon hits on non-fighter ships, or on mechs at a landing, if able
    "gravleash": Field(_flag, acts_in=frozenset({"space"})),  # +X to one ship's space combat roll, X its ship types
    "double_hits": Field(
        _flag, acts_in=frozenset({"ground", "invade", "bombard"})
    ),  # bombardment and ground combat hits count twice (X-89 ΩΩ)
    # once a volley, a non-fighter ship without Sustain Damage may sustain (Metali Void Shielding)
    "void_shielding": Field(_flag, acts_in=frozenset({"space"})),
    "barrage_roll": Field(_roll, acts_in=frozenset({"space"})),  # an Anti-Fighter Barrage of its own (Metali Void Armaments)
    "cannon_roll": Field(
        _roll, acts_in=frozenset({"space"}), defender_only=True
    ),  # a Space Cannon offence roll of its own (Experimental Battlestation)
    "dock_cannon": Field(
        _roll, acts_in=frozenset({"space", "invade"})
    ),  # the side's space docks gain Space Cannon (Lightrail Ordnance)
    "content": Field(_one_of(CONTENTS[1:])),  # the content it belongs to, when not every table's
    "replaces": Field(_text),  # the entry whose names it takes at a table of its content
    # a card its player plays at a moment: the id of its class in tabletop/combat/played/ (the
    # fights in which it is held are solved pair by pair, a fight that follows each card played)
    "played": Field(_text, merge="played", slow_in=frozenset({"space", "ground", "invade"})),
}
DESCRIPTIVE = frozenset(
    {"id", "names", "kind", "aliases", "source", "content", "replaces", "refused"}
)  # what an effect is, not does
FILE_KEYS = frozenset({"game", "sources", "units", "effects"})


class UnitDataError(Exception):
    """Every problem found in the unit files, each naming the file, the entry and the field."""

    def __init__(self, messages: list[str]):
        super().__init__("\n".join(messages))
        self.messages = messages


def _check_entry(entry: object, fields: dict[str, Field], where: str) -> list[str]:
    if not isinstance(entry, dict):
        return [f"{where}: must be a mapping of fields"]
    problems = [f"{where}: '{name}' is missing" for name, f in fields.items() if f.required and name not in entry]
    for name, value in entry.items():
        spec = fields.get(name)
        if spec is None:
            problems.append(f"{where}: unknown field '{name}'")
            continue
        wanted = spec.check(value)
        if wanted:
            problems.append(f"{where}: '{name}' must be {wanted}")
    return problems


def validate_unit_file(file: str, data: object, seen: dict[tuple[str, str], str] | None = None) -> list[str]:
    """Schema messages for one unit file, each naming the file, the entry and the field. `seen`
    carries the ids of earlier files, so an id given twice across files is named too."""
    if not isinstance(data, dict) or _text(data.get("game")):
        return [f"{file}: must be a mapping with 'game', 'units' and 'effects'"]
    problems = [f"{file}: unknown key '{k}'" for k in data if k not in FILE_KEYS]
    seen = {} if seen is None else seen
    game = str(data["game"])
    for kind, fields in (("units", UNIT_FIELDS), ("effects", EFFECT_FIELDS)):
        entries = data.get(kind) or []
        if not isinstance(entries, list):
            problems.append(f"{file}: '{kind}' must be a list of entries")
            continue
        for index, entry in enumerate(entries):
            uid = entry.get("id") if isinstance(entry, dict) else None
            label = uid if isinstance(uid, str) else f"#{index + 1}"
            where = f"{file}: {kind[:-1]} {label}"
            problems += _check_entry(entry, fields, where)
            if isinstance(uid, str):
                if (game, uid) in seen:
                    problems.append(f"{where}: 'id' is already used in {seen[game, uid]}")
                seen.setdefault((game, uid), file)
    return problems


def _cross_checks(file: str, data: dict, unit_ids: set[str], effect_ids: set[str]) -> list[str]:
    """What one entry says of another: an effect's unit bonus names a unit of the game; an entry
    replaces one of its own kind, and only with its content named."""
    problems = []
    for entry in data.get("effects") or []:
        bonus = entry.get("unit_bonus")
        if bonus and bonus["unit"] not in unit_ids:
            problems.append(f"{file}: effect {entry['id']}: 'unit_bonus' names no unit '{bonus['unit']}'")
        if "unit_repairs" in entry and entry["unit_repairs"] not in unit_ids:
            problems.append(f"{file}: effect {entry['id']}: 'unit_repairs' names no unit '{entry['unit_repairs']}'")
    for kind, ids in (("units", unit_ids), ("effects", effect_ids)):
        for entry in data.get(kind) or []:
            if "replaces" in entry and (entry["replaces"] not in ids or "content" not in entry):
                problems.append(f"{file}: {kind[:-1]} {entry['id']}: 'replaces' needs 'content' and an entry of its kind")
    return problems


def load_unit_tables(folder: Path | None = None) -> dict[str, list[dict]]:
    """Each game's entries (units and effects, each with its `kind`); UnitDataError lists every
    schema problem, so a bad file never reaches a battle."""
    folder = folder or UNITS_DIR
    games: dict[str, list[dict]] = {}
    problems: list[str] = []
    seen: dict[tuple[str, str], str] = {}
    files: list[tuple[str, dict]] = []
    for path in sorted(folder.glob("*.yaml")):
        file = f"data/units/{path.name}"
        try:
            with path.open(encoding="utf-8") as f:
                data = yaml.safe_load(f) or {}
        except (yaml.YAMLError, UnicodeDecodeError) as exc:
            problems.append(f"{file}: not valid YAML ({exc})")
            continue
        found = validate_unit_file(file, data, seen)
        problems += found
        if not found:
            files.append((file, data))
    unit_ids: dict[str, set[str]] = {}
    effect_ids: dict[str, set[str]] = {}
    for _, data in files:
        unit_ids.setdefault(data["game"], set()).update(entry["id"] for entry in data.get("units") or [])
        effect_ids.setdefault(data["game"], set()).update(entry["id"] for entry in data.get("effects") or [])
    for file, data in files:
        problems += _cross_checks(file, data, unit_ids[data["game"]], effect_ids[data["game"]])
        for kind in ("units", "effects"):
            for entry in data.get(kind) or []:
                games.setdefault(data["game"], []).append(
                    {**entry, "kind": entry.get("kind", kind) if kind == "effects" else "units"}
                )
    if problems:
        raise UnitDataError(problems)
    return games


_cache: dict[Path, tuple[tuple, dict[str, list[dict]] | UnitDataError]] = {}
_cache_lock = threading.Lock()


def _signature(folder: Path) -> tuple:
    """What changes when a unit file is edited, added or removed (a stat per file, no read)."""
    out = []
    for path in sorted(folder.glob("*.yaml")):
        st = os.stat(path)
        out.append((path.name, st.st_mtime_ns, st.st_size))
    return tuple(out)


def unit_entries(game: str, folder: Path | None = None) -> list[dict]:
    """One game's unit and effect entries, read again only when a file changed; UnitDataError
    (the same one, until the files are fixed) when they have problems."""
    folder = folder or UNITS_DIR
    signature = _signature(folder)
    with _cache_lock:
        cached = _cache.get(folder)
        if cached is None or cached[0] != signature:
            try:
                loaded: dict[str, list[dict]] | UnitDataError = load_unit_tables(folder)
            except UnitDataError as exc:
                loaded = exc
            cached = _cache[folder] = (signature, loaded)
    if isinstance(cached[1], UnitDataError):  # a fresh error each time: re-raising one would grow its traceback
        raise UnitDataError(cached[1].messages)
    return cached[1].get(game, [])
