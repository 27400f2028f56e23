"""Every named effect and every unit ability of the unit files, run through the rolled dice and
both exact solvers: the solvers agree to 1e-9 and the seeded dice land within four standard
deviations of the odds. A new effect or ability is checked here without a line added; one that
the vectorised solver cannot model but is not declared so (unitdata `slow_in`) fails here."""

from __future__ import annotations

import pytest

from tabletop.combat import odds
from tabletop.combat.commands import build_fight
from tabletop.combat.resolver import resolve
from tabletop.combat.unitdata import ABILITIES, DESCRIPTIVE, EFFECT_FIELDS
from tabletop.combat.units import unit_book
from tabletop.core.dice import Dice
from tabletop.core.errors import UserError

BOOK = unit_book("ti4")
DICE_RUNS = 300  # enough for 4 sigma to catch a rule applied to the wrong side or round


def _named(eid: str) -> str:
    """The effect as a player names it, with the unit it adds to when it is one unit's bonus
    (alone it is refused: test_a_units_bonus_without_that_unit_is_refused_with_why)."""
    bonus = BOOK.effects[eid].get("unit_bonus")
    unit = f"1 {BOOK.units[bonus['unit']]['names']['en']}, " if bonus else ""
    return unit + BOOK.effects[eid]["names"]["en"]


KINDS = ("space", "ground", "invade", "invade-unshielded")


def scenarios(kind: str, attacker_extra: str, defender_extra: str = "") -> dict:
    """A fight of this kind where most mechanics have something to act on: sustain, fighters,
    space cannon, ground forces on both sides, and an invasion with a planetary shield (space
    cannon defence) and one without (bombardment and what follows it)."""
    a, d = (f", {attacker_extra}" if attacker_extra else ""), (f", {defender_extra}" if defender_extra else "")
    if kind == "space":
        return {
            "attacker": f"2 dreadnought, 1 cruiser, 1 destroyer, 2 fighter{a}",
            "defender": f"1 dreadnought, 2 cruiser, 2 fighter, 1 pds{d}",
        }
    if kind == "ground":
        return {"attacker": f"3 infantry, 1 mech{a}", "defender": f"3 infantry, 1 mech{d}"}
    invasion = {"ships": f"2 dreadnought, 1 cruiser{a}", "landing": "3 infantry, 1 mech", "defender": f"2 infantry, 1 mech{d}"}
    return invasion if kind == "invade-unshielded" else {**invasion, "pds": "1 pds"}


def effect_cases():
    for eid in sorted(BOOK.effects):
        if BOOK.effects[eid].get("refused"):  # never reaches a fight: test_a_refused_effect_is_said_never_guessed
            continue
        defenders_own = any(EFFECT_FIELDS[f].defender_only for f in BOOK.effects[eid] if f in EFFECT_FIELDS)
        bonus = BOOK.effects[eid].get("unit_bonus")
        ship = bonus is not None and BOOK.units[bonus["unit"]]["type"] in (
            "flagship",
            "dreadnought",
            "carrier",
            "cruiser",
            "destroyer",
            "fighter",
            "war sun",
        )
        for kind in KINDS:
            if not defenders_own:  # refused on the attacker: test_a_defenders_effect_named_by_the_attacker_is_refused
                yield pytest.param(kind, _named(eid), "", id=f"{eid}-{kind}-attacker")
            if not (ship and kind.startswith("invade")):  # a planet's side holds no ship, nor its bonus
                yield pytest.param(kind, "", _named(eid), id=f"{eid}-{kind}-defender")


def unit_cases():
    for uid, row in sorted(BOOK.units.items()):
        if not (row.get("abilities") or row.get("conditional_bonus")):
            continue
        name = row["names"]["en"]
        kinds = ["space"] if row["type"] in ("flagship",) or not row.get("ground", row["type"] in ("infantry", "mech")) else []
        if row["type"] in ("infantry", "mech") or row.get("ground"):
            kinds += ["ground"]
        if row["type"] == "flagship":
            kinds += ["invade", "invade-unshielded"]
        for kind in kinds:
            yield pytest.param(kind, f"1 {name}", "", id=f"{uid}-{kind}-attacker")
            if not (kind.startswith("invade") and row["type"] == "flagship"):  # a planet's side holds no ship
                yield pytest.param(kind, "", f"1 {name}", id=f"{uid}-{kind}-defender")


def fight_or_skip(kind: str, attacker_extra: str, defender_extra: str):
    try:
        return build_fight(kind.split("-")[0], scenarios(kind, attacker_extra, defender_extra), BOOK)
    except UserError:  # this effect has no place in this kind of fight (said to the user)
        return None


def solvers_agree(the_fight, monkeypatch) -> odds.Odds:
    fast = odds.solve(the_fight)
    with monkeypatch.context() as m:
        m.setattr(odds, "_factorized", lambda *_: False)
        general = odds.solve(the_fight)
    for key in ("attacker", "defender", "draw", "control"):
        assert getattr(fast, key) == pytest.approx(getattr(general, key), abs=1e-9), key
    for side in ("attacker", "defender"):
        assert fast.survivors[side].keys() == general.survivors[side].keys()
        for k, p in fast.survivors[side].items():
            assert p == pytest.approx(general.survivors[side][k], abs=1e-9)
    return fast


def attacker_won(battle) -> bool:
    """As the odds count it: an invasion nobody defended (all fell to bombardment or space
    cannon before a ground round) is the attacker's win when anyone landed."""
    if battle.winner is None and not battle.combat and battle.kind == "invade":
        return bool(battle.attacker and battle.attacker.alive("ground"))
    return battle.winner == "attacker"


def dice_agree(the_fight, exact: odds.Odds) -> None:
    wins = control = 0
    for seed in range(DICE_RUNS):
        battle = resolve(the_fight, Dice(seed))
        wins += attacker_won(battle)
        control += battle.control == "attacker"
    for observed, expected in ((wins, exact.attacker), (control, exact.control)):
        if expected is None:
            continue
        sigma = max((expected * (1 - expected) / DICE_RUNS) ** 0.5, 1e-9)
        assert abs(observed / DICE_RUNS - expected) <= 4 * sigma + 1e-9, (observed / DICE_RUNS, expected)


@pytest.mark.parametrize("kind, attacker_extra, defender_extra", [*effect_cases(), *unit_cases()])
def test_the_dice_and_both_solvers_agree(kind, attacker_extra, defender_extra, monkeypatch):
    """Every effect and unit in every kind of fight it names: each fight builds (an effect with
    no place in a kind would be refused to the user, and fail here), and dice and solvers agree."""
    the_fight = build_fight(kind.split("-")[0], scenarios(kind, attacker_extra, defender_extra), BOOK)
    dice_agree(the_fight, solvers_agree(the_fight, monkeypatch))


def test_every_effect_and_ability_is_checked_in_some_fight():
    """Each named effect takes part in at least one kind of fight above; and every mechanic the
    schema declares is used by some effect or unit (a mechanic nothing uses is dead code)."""
    for eid in BOOK.effects:
        if BOOK.effects[eid].get("refused"):
            continue  # refused everywhere, by design (test_a_refused_effect_is_said_never_guessed)
        accepted = [
            k for k in ("space", "ground", "invade") if fight_or_skip(k, _named(eid), "") or fight_or_skip(k, "", _named(eid))
        ]
        assert accepted, eid
    used_fields = {f for row in BOOK.effects.values() for f in row} - DESCRIPTIVE
    assert set(EFFECT_FIELDS) - DESCRIPTIVE == used_fields
    used_abilities = {a for row in BOOK.units.values() for a in row.get("abilities") or ()}
    assert set(ABILITIES) == used_abilities


def test_the_code_names_only_declared_abilities():
    """`"x" in unit.abilities` anywhere in combat names an ability the schema declares (a typo
    would make a faction's ability silently do nothing)."""
    import ast
    from pathlib import Path

    named = set()
    for path in (Path(__file__).resolve().parents[2] / "tabletop" / "combat").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            literal = isinstance(node, ast.Compare) and isinstance(node.left, ast.Constant) and isinstance(node.left.value, str)
            if literal and any(isinstance(c, ast.Attribute) and c.attr == "abilities" for c in node.comparators):  # type: ignore[attr-defined]
                named.add(node.left.value)  # type: ignore[attr-defined]
    assert len(named) >= 8 and sorted(named - set(ABILITIES)) == []


@pytest.mark.parametrize("eid", sorted(e for e, row in BOOK.effects.items() if row.get("refused")))
def test_a_refused_effect_is_said_never_guessed(eid):
    """An effect whose use the odds cannot know (Meddle's add or subtract 1, a round the player
    picks) is refused with a sentence naming it and what to do instead, in every kind of fight."""
    for kind in KINDS:
        with pytest.raises(UserError) as refused:
            build_fight(kind.split("-")[0], scenarios(kind, _named(eid)), BOOK)
        assert BOOK.effect_label(eid) in refused.value.message


@pytest.mark.parametrize(
    "eid", sorted(e for e, row in BOOK.effects.items() if any(EFFECT_FIELDS[f].defender_only for f in row if f in EFFECT_FIELDS))
)
def test_a_defenders_effect_named_by_the_attacker_is_refused(eid):
    """A nebula's bonus, a card played on another player's move: named on the attacker's side they
    are refused with a sentence naming them, never applied to the wrong side."""
    assert eid in ("nebula", "nebula-cosmic-phenomenae", "experimental-battlestation")
    with pytest.raises(UserError) as refused:
        build_fight("space", scenarios("space", _named(eid)), BOOK)
    assert BOOK.effect_label(eid) in refused.value.message
