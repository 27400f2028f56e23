"""The rules shared by the dice and the odds (tabletop.combat.battle): how a pre-combat attack's
hits fall on a side (HitPlan), and the dice of the first rounds (Fight.opening_dice)."""

from __future__ import annotations

import pytest

from tabletop.combat.battle import ATTACKER, DEFENDER, HitPlan
from tabletop.combat.commands import build_fight
from tabletop.combat.units import unit_book
from tabletop.core.errors import UserError


@pytest.fixture(scope="module")
def book():
    return unit_book("ti4")


def state_of(side) -> list[tuple]:
    return [(u.id, u.number, u.damaged) for u in side.units]


@pytest.mark.parametrize(
    "options",
    [
        {"ships": "3 dreadnought", "landing": "2 infantry", "defender": "3 infantry, 2 mech"},  # mechs sustain (80.4)
        {"ships": "3 dreadnought, x-89 omega", "landing": "2 infantry", "defender": "4 infantry, 1 mech"},
    ],
)
def test_a_hit_plan_makes_new_sides_and_leaves_the_side_it_was_made_from(book, options):
    """Every number of hits gives a side of its own: the side the plan was made from, shared by
    every branch of the odds, keeps its units and their damage."""
    fight = build_fight("invade", options, book)
    attack = fight.bombardment(fight.ships, fight.defender)
    target = fight.defender
    before = state_of(target)
    plan = HitPlan(target, attack)
    sides = [plan.apply(hits) for hits in range(8)]
    assert state_of(target) == before
    assert sides[0][0] is target and sides[0][1] == []  # no hit: nothing changed
    left = [len(side.units) for side, _, _ in sides]
    assert left == sorted(left, reverse=True) and left[-1] < left[1]
    for side, events, _ in sides[1:]:
        assert side is not target and events
        damaged = {id(u) for u in side.units if u.damaged}
        assert not damaged & {id(u) for u in target.units}  # a unit damaged now is a copy


def test_a_hit_plan_sends_graviton_hits_to_non_fighter_ships_first(book):
    fight = build_fight("space", {"attacker": "1 pds, 1 cruiser, graviton laser", "defender": "3 fighter, 1 cruiser"}, book)
    attack = fight.space_cannon(ATTACKER, fight.attacker, fight.defender)
    after, events, excess = HitPlan(fight.defender, attack).apply(2)
    assert [unit.type for unit, _ in events] == ["cruiser", "fighter"] and excess == 0
    assert sorted(u.type for u in after.units) == ["fighter", "fighter"]


def effect_names(book) -> list[str]:
    return [row["names"]["en"] for row in book.effects.values()]


@pytest.mark.parametrize("kind", ["space", "ground"])
def test_opening_dice_are_the_dice_of_the_first_round_and_of_the_next(book, kind):
    """The odds take round 1's dice from opening_dice, which reuses round 2's unless
    early_rounds_differ says otherwise: with every named effect on either side, the dice are
    those round_dice gives for each round."""
    army = "2 dreadnought, 2 cruiser, 2 fighter" if kind == "space" else "3 infantry, 1 mech"
    checked = 0
    for name in effect_names(book):
        for attacker, defender in ((f"{army}, {name}", f"{army}, 1 pds"), (f"{army}, 1 pds", f"{army}, {name}")):
            try:
                fight = build_fight(kind, {"attacker": attacker, "defender": defender}, book)
            except UserError:  # an effect with no place in this kind of fight
                continue
            ma, md = fight.models(fight.attacker, fight.defender)
            opening = fight.opening_dice(ma, md)
            for side, model, opponent in ((ATTACKER, ma, md), (DEFENDER, md, ma)):
                for number in (1, 2):
                    expected = fight.round_dice(side, model, model.start, opponent, opponent.start, number)
                    assert opening[(side, number)] == expected, (name, side, number)
            checked += 1
    assert checked > 20
