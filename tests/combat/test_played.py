"""Cards a player plays at a moment (tabletop/combat/played/): Emergency Repairs, Courageous to the
End, Hardlight, Divinity and Lash, each at its first opportunity unless the player gives a round
(card@N), in the exact odds and the dice.

Checked against a solver written from the cards' texts alone (tests/combat/played_oracle.py, by a
writer who never saw ours), against the seeded dice, and (test_peer_ti4calcte.py) against the
calculator players use."""

from __future__ import annotations

import pytest
from said import said

from tabletop.combat import odds
from tabletop.combat.commands import build_fight
from tabletop.combat.played import CARDS
from tabletop.combat.resolver import resolve
from tabletop.combat.units import unit_book
from tabletop.core.dice import Dice
from tabletop.core.errors import UserError
from tests.combat import played_oracle
from tests.combat.test_faction_effects import agree_with_dice

# (kind, attacker, its loss order, defender, the oracle's sides in loss order, the cards held)
CASES = [
    (
        "space",
        "2 dreadnought, 2 cruiser, emergency repairs",
        "dreadnought, cruiser",
        "4 cruiser, 2 destroyer",
        (["dreadnought"] * 2 + ["cruiser"] * 2, ["destroyer"] * 2 + ["cruiser"] * 4),
        {"attacker": {"emergency repairs": 1}},
    ),
    (
        "space",
        "2 dreadnought, 2 cruiser, emergency repairs@2",
        "dreadnought, cruiser",
        "4 cruiser, 2 destroyer",
        (["dreadnought"] * 2 + ["cruiser"] * 2, ["destroyer"] * 2 + ["cruiser"] * 4),
        {"attacker": {"emergency repairs": 2}},
    ),
    (
        "space",
        "3 destroyer, 2 cruiser, courageous to the end",
        None,
        "3 cruiser, 1 dreadnought",
        (["destroyer"] * 3 + ["cruiser"] * 2, ["cruiser"] * 3 + ["dreadnought"]),
        {"attacker": {"courageous": 1}},
    ),
    (
        "space",
        "2 destroyer, 3 cruiser, hardlight",
        None,
        "2 cruiser, 2 dreadnought",
        (["destroyer"] * 2 + ["cruiser"] * 3, ["cruiser"] * 2 + ["dreadnought"] * 2),
        {"attacker": {"hardlight": 1}},
    ),
    (
        "space",
        "1 carrier, 2 dreadnought, divinity",
        None,
        "5 cruiser",
        (["carrier", "dreadnought", "dreadnought"], ["cruiser"] * 5),
        {"attacker": {"divinity": 1}},
    ),
    (
        "space",
        "3 cruiser, 1 dreadnought, lash",
        None,
        "2 destroyer, 2 dreadnought",
        (["cruiser"] * 3 + ["dreadnought"], ["destroyer"] * 2 + ["dreadnought"] * 2),
        {"attacker": {"lash": 1}},
    ),
    (
        "ground",
        "4 infantry, divinity",
        None,
        "2 infantry, 1 mech",
        (["infantry"] * 4, ["infantry"] * 2 + ["mech"]),
        {"attacker": {"divinity": 1}},
    ),
    (
        "ground",
        "3 infantry, 1 mech",
        None,
        "4 infantry, lash",
        (["infantry"] * 3 + ["mech"], ["infantry"] * 4),
        {"defender": {"lash": 1}},
    ),
    (
        "ground",
        "2 infantry, 2 mech, emergency repairs",
        None,
        "5 infantry",
        (["infantry"] * 2 + ["mech"] * 2, ["infantry"] * 5),
        {"attacker": {"emergency repairs": 1}},
    ),
    (  # both sides, several cards, in one round each
        "space",
        "2 destroyer, 1 cruiser, 1 dreadnought, divinity, courageous to the end",
        None,
        "2 cruiser, 1 dreadnought, lash, hardlight@2, emergency repairs",
        (["destroyer"] * 2 + ["cruiser"] + ["dreadnought"], ["cruiser"] * 2 + ["dreadnought"]),
        {"attacker": {"divinity": 1, "courageous": 1}, "defender": {"lash": 1, "hardlight": 2, "emergency repairs": 1}},
    ),
]


@pytest.fixture(scope="module")
def book():
    return unit_book("ti4")


def fight(book, kind, attacker, defender, order=None):
    values = {"attacker": attacker, "defender": defender}
    if order:
        values["attacker_order"] = order
    return build_fight(kind, values, book)


@pytest.mark.parametrize(("kind", "attacker", "order", "defender", "sides", "cards"), CASES, ids=lambda c: str(c)[:30])
def test_the_odds_are_the_card_texts_solvers(book, kind, attacker, order, defender, sides, cards):
    ours = odds.solve(fight(book, kind, attacker, defender, order))
    theirs = played_oracle.odds(*sides, cards, kind=kind, hardlight_trigger="two_or_wipe", lash_waits=True)
    assert (ours.attacker, ours.defender, ours.draw) == pytest.approx(theirs, abs=1e-12)


BEFORE_THE_ROUNDS = [  # cards played on the rolls before the rounds: a barrage, space cannon
    ("space", "2 fighter, 1 cruiser, hardlight, courageous", None, "2 destroyer, 1 cruiser"),
    ("space", "2 dreadnought, 1 cruiser, divinity, lash", None, "1 dreadnought, 2 cruiser, 1 pds"),
    ("space", "1 dreadnought, 2 cruiser, emergency repairs", None, "2 cruiser, 2 pds"),
]


@pytest.mark.parametrize(
    ("kind", "attacker", "order", "defender"), [c[:4] for c in CASES] + BEFORE_THE_ROUNDS, ids=lambda c: str(c)[:30]
)
def test_the_dice_agree_with_the_odds(book, kind, attacker, order, defender):
    agree_with_dice(fight(book, kind, attacker, defender, order), n=600)


def test_the_log_says_what_each_card_did_and_the_reply_when_it_is_played(book):
    the_fight = fight(
        book, "space", "2 dreadnought, 2 cruiser, emergency repairs, courageous", "3 cruiser, 2 destroyer, 하드라이트"
    )
    assert any(said("combat.played.default", note, side="공격자") for note in the_fight.notes)
    lines = []
    for seed in range(40):
        lines += [v.said for step in resolve(the_fight, Dice(seed)).steps for v in step.volleys if v.said]
    for key in ("combat.played.repaired", "combat.played.cancelled"):
        assert any(said(key, line) for line in lines), key
    assert any(said("combat.played.courageous", line) or said("combat.played.courageous_missed", line) for line in lines)
    battle = resolve(the_fight, Dice(3))
    played = [v.said for step in battle.steps for v in step.volleys if v.said]
    assert len(played) == len(set(played)) <= 3  # each card once a fight


def test_a_card_that_never_acts_here_is_said_and_changes_nothing(book):
    plain = odds.solve(fight(book, "ground", "4 infantry", "3 infantry"))
    held = fight(book, "ground", "4 infantry, courageous to the end", "3 infantry")
    assert any(said("combat.played.idle", note) for note in held.notes)
    assert odds.solve(held).attacker == pytest.approx(plain.attacker, abs=1e-12)


@pytest.mark.parametrize("item", ["emergency repairs@0", "emergency repairs@99", "sardakk@2"])
def test_a_round_is_a_cards_and_within_the_limit(book, item):
    with pytest.raises(UserError):
        fight(book, "space", f"2 dreadnought, {item}", "3 cruiser")


def test_every_card_entry_names_a_card_of_the_registry(book):
    named = {entry["played"] for entry in book.effects.values() if entry.get("played")}
    assert named == set(CARDS)


def test_hardlight_waits_for_hits_that_strike_something(book):
    """A barrage against a side without fighters strikes nothing: Hardlight is kept for the
    rounds (the fork, too, only plays it on a volley that would destroy or damage a unit)."""
    the_fight = fight(book, "space", "2 cruiser, hardlight", "3 destroyer")
    in_rounds = 0
    for seed in range(30):
        battle = resolve(the_fight, Dice(seed))
        assert battle.steps[0].volleys and not any(v.said for v in battle.steps[0].volleys)  # the barrage, no card
        in_rounds += any(said("combat.played.cancelled", v.said) for step in battle.steps[1:] for v in step.volleys)
    assert in_rounds > 0
