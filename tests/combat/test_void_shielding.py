"""Metali Void Shielding (Thunder's Edge relic): "each time hits are produced against 1 or more of
your non-fighter ships, 1 of those ships may use SUSTAIN DAMAGE as if it had that ability".

Checked against a small solver written here from the card text alone, which lets the holder
choose every time which ship (if any) shields and takes the best choice, and against the dice."""

from __future__ import annotations

from functools import cache
from itertools import product
from typing import NamedTuple

import pytest

from tabletop.combat import odds
from tabletop.combat.commands import build_fight
from tabletop.combat.resolver import resolve
from tabletop.combat.units import unit_book
from tabletop.core.dice import Dice
from tabletop.core.errors import UserError
from tests.combat.test_faction_effects import agree_with_dice
from tests.combat.test_hindrance import hit_chances


@pytest.fixture(scope="module")
def book():
    return unit_book("ti4")


class Ship(NamedTuple):
    value: int
    sustain: bool = False
    fighter: bool = False
    damaged: bool = False


CRUISER, DESTROYER, DREADNOUGHT, FIGHTER = Ship(7), Ship(9), Ship(5, True), Ship(9, fighter=True)


def volley(units: tuple[Ship, ...], hits: int, shielded: bool) -> set[tuple[Ship, ...]]:
    """Every way the holder may take a volley's hits: (with the relic) any one undamaged
    non-fighter ship without the ability cancels one, or none does; the units' own Sustain Damage
    cancels what it can; the rest destroy units in order."""
    choices = [None]
    if shielded and hits:
        choices += [i for i, u in enumerate(units) if not (u.fighter or u.sustain or u.damaged)]
    outcomes = set()
    for choice in choices:
        left, rest = list(units), hits
        if choice is not None:
            left[choice] = left[choice]._replace(damaged=True)
            rest -= 1
        while rest and any(u.sustain and not u.damaged for u in left):
            i = max(i for i, u in enumerate(left) if u.sustain and not u.damaged)
            left[i] = left[i]._replace(damaged=True)
            rest -= 1
        outcomes.add(tuple(left[rest:]))
    return outcomes


def holder_wins(holder: tuple[Ship, ...], other: tuple[Ship, ...], opening: tuple[int, ...] = ()) -> float:
    """The holder's chance to win, each side listed in the order its player loses its ships; the
    other side's `opening` dice (space cannon) fire at the holder before the rounds."""

    @cache
    def win(a: tuple[Ship, ...], d: tuple[Ship, ...]) -> float:
        if not a or not d:
            return float(bool(a))
        rolls_a, rolls_d = hit_chances(tuple(u.value for u in a)), hit_chances(tuple(u.value for u in d))
        total = 0.0
        for (ha, pa), (hd, pd) in product(enumerate(rolls_a), enumerate(rolls_d)):
            if ha or hd:
                total += pa * pd * max(win(after, volley(d, ha, False).pop()) for after in volley(a, hd, True))
        return total / (1 - rolls_a[0] * rolls_d[0])

    chances = hit_chances(opening)
    return sum(p * max(win(after, other) for after in volley(holder, h, True)) for h, p in enumerate(chances))


CASES = [  # (holder, its ships in loss order, the other side, its ships, the other's space cannon dice)
    ("3 cruiser, void shielding", (CRUISER,) * 3, "3 destroyer", (DESTROYER,) * 3, ()),
    ("2 cruiser, 1 dreadnought, void shielding", (CRUISER, CRUISER, DREADNOUGHT), "2 dreadnought", (DREADNOUGHT,) * 2, ()),
    ("2 fighter, 2 destroyer, void shielding", (FIGHTER, FIGHTER, DESTROYER, DESTROYER), "2 cruiser", (CRUISER,) * 2, ()),
    ("2 cruiser, void shielding", (CRUISER,) * 2, "2 destroyer, 2 pds", (DESTROYER,) * 2, (6, 6)),
    # the shield first: a volley's one hit spent on it keeps the dreadnoughts' sustains for later
    ("2 cruiser, 2 dreadnought, void shielding", (CRUISER,) * 2 + (DREADNOUGHT,) * 2, "4 dreadnought", (DREADNOUGHT,) * 4, ()),
]


@pytest.mark.parametrize(("holder", "ships", "other", "other_ships", "cannon"), CASES)
def test_the_odds_are_the_cards_with_the_best_choice_of_ship(book, holder, ships, other, other_ships, cannon):
    """The odds (to 1e-9) equal the card solver's, which tries every ship (or none) at every
    volley: the ship next in the loss order shields, before the units' own Sustain Damage, and a
    ship shielded by the space cannon stays damaged."""
    exact = odds.solve(build_fight("space", {"attacker": holder, "defender": other}, book)).attacker
    assert exact == pytest.approx(holder_wins(ships, other_ships, cannon), abs=1e-9)
    without = odds.solve(build_fight("space", {"attacker": holder.replace(", void shielding", ""), "defender": other}, book))
    assert exact > without.attacker + 0.01


def test_only_one_ship_a_volley_and_never_twice(book):
    """Two hits on three cruisers in one volley: one is shielded, one destroyed; a shielded cruiser
    is the one lost next, never shielded again, and the dice agree with the odds."""
    the_fight = build_fight("space", {"attacker": "3 cruiser, void shielding", "defender": "2 dreadnought"}, book)
    agree_with_dice(the_fight)
    for seed in range(40):
        shielded: set[str] = set()
        for step in resolve(the_fight, Dice(seed)).steps:
            for v in step.volleys:
                if v.side == "defender":  # the defender's dice: hits the holder takes
                    sustained = [hit.unit for hit in v.taken if hit.result == "sustained"]
                    assert len(sustained) <= 1 and not shielded & set(sustained), (seed, sustained)
                    shielded |= set(sustained)


def test_a_ship_with_sustain_of_its_own_or_a_fighter_never_uses_it(book):
    """Dreadnoughts and fighters alone: nothing for the relic to do."""
    plain = odds.solve(build_fight("space", {"attacker": "2 dreadnought, 2 fighter", "defender": "3 cruiser"}, book))
    relic = build_fight("space", {"attacker": "2 dreadnought, 2 fighter, void shielding", "defender": "3 cruiser"}, book)
    assert odds.solve(relic).attacker == pytest.approx(plain.attacker, abs=1e-12)


@pytest.mark.parametrize("other", ["mentak flagship, 1 cruiser", "l1z1x flagship"])
def test_against_a_unit_that_takes_sustain_away_or_directs_hits_it_is_refused(book, other):
    with pytest.raises(UserError, match="Metali|메탈리"):
        build_fight("space", {"attacker": "2 cruiser, void shielding", "defender": other}, book)


def test_a_ship_shielded_before_the_rounds_is_the_one_the_rounds_hold_damaged(book):
    """With ground forces fighting in space (the Eidolon Maximum), the default loss order is by
    strength, before the rounds as in them: a ship shielded against the space cannon never
    sustains again, and only ships that were hit are damaged."""
    the_fight = build_fight(
        "space",
        {"attacker": "2 carrier, 1 destroyer ii, eidolon maximum, void shielding", "defender": "2 dreadnought, 3 pds"},
        book,
    )
    agree_with_dice(the_fight, n=1000)
    for seed in range(300):
        sustained: list[str] = []
        battle = resolve(the_fight, Dice(seed))
        for step in battle.steps:
            sustained += [h.unit for v in step.volleys if v.side == "defender" for h in v.taken if h.result == "sustained"]
        ships = [u for u in sustained if "Eidolon" not in u and "아이돌론" not in u]
        assert len(ships) == len(set(ships)), (seed, sustained)


def test_duranium_armor_repairs_a_shielded_ship(book):
    """Three cruisers and Duranium Armor: a cruiser shielded in one round is repaired at its end
    (it did not sustain in the next), so the relic serves again; the dice agree."""
    plain = odds.solve(build_fight("space", {"attacker": "3 cruiser, void shielding", "defender": "2 dreadnought"}, book))
    both = agree_with_dice(
        build_fight("space", {"attacker": "3 cruiser, void shielding, duranium armor", "defender": "2 dreadnought"}, book)
    )
    assert both.attacker > plain.attacker + 0.05
