"""A unit that hinders the other side only while it is in the system: the Mentak flagship (other
players' ships cannot use Sustain Damage), the Mentak mech (the same for ground forces on its
planet) and the Quietus with an active breach (other players' units lose their unit abilities).
Once it is destroyed, the other side's units are themselves again from the next round. Smothering
Presence (a structure of its side) takes the other side's abilities for the whole fight.

Checked against a small solver written here from the card texts alone (a fight as the list of
each side's units in loss order, rounds until one side is gone), and against the seeded dice."""

from __future__ import annotations

from functools import cache
from itertools import product
from typing import NamedTuple

import pytest
from said import said

from tabletop.combat import odds
from tabletop.combat.commands import build_fight
from tabletop.combat.resolver import resolve
from tabletop.combat.units import unit_book
from tabletop.core.dice import Dice
from tabletop.core.errors import UserError
from tests.combat.test_faction_effects import agree_with_dice


@pytest.fixture(scope="module")
def book():
    return unit_book("ti4")


def fight(book, kind, **options):
    return build_fight(kind, options, book)


def hit_chances(dice: tuple[int, ...]) -> list[float]:
    """The distribution of hits of dice needing these values (a d10 hits at or above it)."""
    dist = [1.0]
    for value in dice:
        p = (11 - value) / 10
        out = [0.0] * (len(dist) + 1)
        for h, q in enumerate(dist):
            out[h] += q * (1 - p)
            out[h + 1] += q * p
        dist = out
    return dist


class Piece(NamedTuple):
    """A unit as the cards describe it for this solver."""

    value: int  # a die hits at or above it
    dice: int
    sustain: bool = False
    hinders: bool = False  # the other side cannot use Sustain Damage while it lives
    damaged: bool = False


def attacker_wins(attacker: tuple[Piece, ...], defender: tuple[Piece, ...]) -> float:
    """The attacker's chance to win a combat of these sides, each listed in the order its
    player loses them. A hit is first cancelled by an undamaged unit that may sustain (none while
    a hindering unit of the other side is alive at the round's start), then destroys the first
    unit left."""

    def take(units: tuple[Piece, ...], hits: int, allowed: bool) -> tuple[Piece, ...]:
        left = list(units)
        while hits and left:
            able = [i for i, u in enumerate(left) if u.sustain and not u.damaged]
            if allowed and able:
                left[able[-1]] = left[able[-1]]._replace(damaged=True)
            else:
                left.pop(0)
            hits -= 1
        return tuple(left)

    @cache
    def win(a: tuple[Piece, ...], d: tuple[Piece, ...]) -> float:
        if not a or not d:
            return float(bool(a))
        rolls_a = hit_chances(tuple(u.value for u in a for _ in range(u.dice)))
        rolls_d = hit_chances(tuple(u.value for u in d for _ in range(u.dice)))
        free_a, free_d = not any(u.hinders for u in d), not any(u.hinders for u in a)
        total = 0.0
        for (ha, pa), (hd, pd) in product(enumerate(rolls_a), enumerate(rolls_d)):
            if ha or hd:
                total += pa * pd * win(take(a, hd, free_a), take(d, ha, free_d))
        return total / (1 - rolls_a[0] * rolls_d[0])

    return win(attacker, defender)


CRUISER, DREADNOUGHT, MECH, INFANTRY = Piece(7, 1), Piece(5, 1, True), Piece(6, 1, True), Piece(8, 1)
CASES = [  # (kind, attacker, its loss order, defender, the same as Pieces)
    (
        "space",
        "mentak flagship, 2 cruiser",
        "mentak flagship",
        "2 dreadnought",
        (Piece(7, 2, True, True), CRUISER, CRUISER),
        (DREADNOUGHT,) * 2,
    ),
    (
        "space",
        "quietus, active breach, 2 cruiser",
        "quietus",
        "2 dreadnought",
        (Piece(5, 2, True, True), CRUISER, CRUISER),
        (DREADNOUGHT,) * 2,
    ),
    ("ground", "mentak mech, 2 infantry", "mentak mech", "2 mech", (Piece(6, 1, True, True), INFANTRY, INFANTRY), (MECH, MECH)),
]


@pytest.mark.parametrize(("kind", "attacker", "order", "defender", "pieces_a", "pieces_d"), CASES)
def test_the_other_side_is_itself_again_once_the_hindering_unit_is_destroyed(
    book, kind, attacker, order, defender, pieces_a, pieces_d
):
    """Lost first, the hindering unit dies while its side fights on: the exact odds are the cards'
    (to 1e-9), strictly between a hindrance for the whole combat and none at all."""
    exact = odds.solve(fight(book, kind, attacker=attacker, attacker_order=order, defender=defender)).attacker
    assert exact == pytest.approx(attacker_wins(pieces_a, pieces_d), abs=1e-9)
    for_good = tuple(p._replace(sustain=False) for p in pieces_d)  # as if it never ended
    never = tuple(p._replace(hinders=False) for p in pieces_a)
    assert attacker_wins(never, pieces_d) + 1e-3 < exact < attacker_wins(pieces_a, for_good) - 1e-3


def test_the_dice_agree_and_the_log_says_when_the_hindrance_ends(book):
    """In the seeded battles where the Mentak flagship falls, the defender's dreadnoughts sustain
    only in the rounds after, and the log says from when."""
    the_fight = fight(
        book, "space", attacker="mentak flagship, 3 cruiser", attacker_order="mentak flagship", defender="2 dreadnought"
    )
    agree_with_dice(the_fight)
    ended = 0
    for seed in range(60):
        battle = resolve(the_fight, Dice(seed))
        rounds = [[hit.result for v in step.volleys if v.side == "attacker" for hit in v.taken] for step in battle.steps]
        gone = next(
            (
                i
                for i, step in enumerate(battle.steps)
                for v in step.volleys
                if v.side == "defender"
                for hit in v.taken
                if hit.result == "destroyed" and "기함" in hit.unit
            ),
            None,
        )
        assert all("sustained" not in taken for taken in rounds[: (gone + 1) if gone is not None else len(rounds)])
        if gone is not None and len(rounds) > gone + 1:
            ended += 1
            assert any("멘탁" in note for note in battle.notes)
    assert ended  # some battles went on after it fell


def test_damage_taken_before_the_rounds_is_kept_when_the_hindrance_ends(book):
    """Two dreadnoughts bombard the defender's mechs before the Mentak mech lands (each hit
    sustained: the mech hinders only on the planet); a damaged mech stays damaged once the
    Mentak mech falls, so only an undamaged one sustains then."""
    exact = odds.solve(
        fight(
            book,
            "invade",
            ships="2 dreadnought",
            landing="mentak mech, 2 infantry",
            landing_order="mentak mech",
            defender="2 mech",
        )
    ).attacker
    a = (Piece(6, 1, True, True), INFANTRY, INFANTRY)
    bombardment = hit_chances((5, 5))  # the dreadnoughts' Bombardment 5
    damaged = MECH._replace(damaged=True)
    expected = sum(p * attacker_wins(a, (damaged,) * hits + (MECH,) * (2 - hits)) for hits, p in enumerate(bombardment))
    assert exact == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize(
    ("attacker", "order", "defender"),
    [
        ("mentak flagship, 2 cruiser", "mentak flagship", "2 dreadnought, 4 pds2"),  # the flagship may fall to space cannon
        ("quietus, active breach, 3 cruiser", "quietus", "3 dreadnought"),
        ("mentak mech, 2 infantry", "mentak mech", "2 mech"),
    ],
)
def test_the_dice_agree_with_the_odds_whenever_the_hindering_unit_falls(book, attacker, order, defender):
    kind = "ground" if "mech" in defender else "space"
    agree_with_dice(fight(book, kind, attacker=attacker, attacker_order=order, defender=defender))


def test_no_hindrance_is_modelled_where_it_cannot_end_or_never_began(book):
    """The Quietus without an active breach takes nothing; a flagship lost last ends with its
    side: both fights keep the fast solver, and no log says a hindrance ended."""
    for attacker, order in (("quietus, 3 cruiser", "quietus"), ("mentak flagship, 2 cruiser", "")):
        the_fight = fight(book, "space", attacker=attacker, attacker_order=order or None, defender="3 dreadnought")
        ma, md = the_fight.models(the_fight.attacker, the_fight.defender)
        assert md.unhindered is None, attacker
        for seed in range(20):
            assert not any("멘탁" in note for note in resolve(the_fight, Dice(seed)).notes)


@pytest.mark.parametrize(
    ("attacker", "order", "defender"),
    [
        ("quietus, active breach, 2 cruiser", "quietus", "yin flagship, 2 dreadnought"),  # its wipe once the breach ends
        ("mentak flagship, 2 cruiser, 2 pds2", "mentak flagship", "letnev flagship, 1 dreadnought"),  # repaired meanwhile
    ],
)
def test_the_dice_agree_with_the_odds_when_abilities_return_mid_fight(book, attacker, order, defender):
    agree_with_dice(fight(book, "space", attacker=attacker, attacker_order=order, defender=defender))


def test_a_unit_damaged_before_the_rounds_does_not_sustain_again_in_an_ordinary_fight(book):
    """The log never has a unit sustain twice without a repair between (the damaged units are
    the ones the model says are)."""
    the_fight = fight(book, "space", attacker="3 cruiser, 2 pds2", defender="3 dreadnought")
    for seed in range(60):
        damaged: set[str] = set()
        for step in resolve(the_fight, Dice(seed)).steps:
            for volley in step.volleys:
                for hit in volley.taken:
                    if hit.result == "sustained":
                        assert hit.unit not in damaged, (seed, hit.unit)
                        damaged.add(hit.unit)
                    elif hit.result in ("destroyed", "repaired"):
                        damaged.discard(hit.unit)


def test_a_quietus_breach_against_the_mentak_flagship_is_refused(book):
    """The breach takes the flagship's ability only while the Quietus lives: refused, not guessed."""
    with pytest.raises(UserError, match="Mentak|멘탁"):
        fight(book, "space", attacker="quietus, active breach, 1 cruiser", defender="mentak flagship")
    fight(book, "space", attacker="quietus, 1 cruiser", defender="mentak flagship")  # no breach: fine


@pytest.mark.parametrize(
    ("kind", "options", "volley"),
    [
        ("space", {"attacker": "mentak flagship, 2 cruiser, mentak ambush", "defender": "2 dreadnought"}, "ambush"),
        ("space", {"attacker": "mentak flagship, 2 cruiser", "defender": "2 dreadnought, 3 pds"}, None),
        ("invade", {"ships": "1 dreadnought", "landing": "3 mech", "defender": "mentak mech, 2 pds"}, "space_cannon_defense"),
    ],
)
def test_no_sustain_against_the_rolls_before_the_rounds_while_the_hindering_unit_is_there(book, kind, options, volley):
    """The Mentak flagship stops Sustain Damage in its system from the first roll on (Ambush, the
    other side's own space cannon... any hits on its opponent's ships), and its mech on the planet
    at the landing's space cannon defence; the dice agree with the odds."""
    the_fight = fight(book, kind, **options)
    agree_with_dice(the_fight, n=800)
    hindered = "defender" if kind == "space" else "attacker"
    for seed in range(60):
        for step in resolve(the_fight, Dice(seed)).steps[:1]:
            for v in step.volleys:
                if v.side != hindered and (volley is None or v.kind == volley):
                    assert all(hit.result != "sustained" for hit in v.taken), (seed, v.kind, v.taken)


# --- Smothering Presence: the other side's units lose their abilities for the whole fight ----------


@pytest.mark.parametrize("where", ["attacker", "defender"])
def test_smothering_presence_takes_the_other_sides_abilities_for_good(book, where):
    """With a structure of its side in the fight (a space dock: no part in a space combat), the
    other side's dreadnoughts cannot sustain from the first round to the last; the small solver
    and the seeded dice agree with the exact odds."""
    smothering, plain = "2 dreadnought, 1 space dock, smothering presence", "2 dreadnought"
    sides = {"attacker": smothering, "defender": plain} if where == "attacker" else {"attacker": plain, "defender": smothering}
    the_fight = fight(book, "space", **sides)
    other = the_fight.defender if where == "attacker" else the_fight.attacker
    assert all(not u.sustain and not u.abilities and u.restored is None for u in other.units)
    bare = (Piece(5, 1),) * 2  # a dreadnought without Sustain Damage
    pieces = (DREADNOUGHT,) * 2, bare
    expected = attacker_wins(*pieces) if where == "attacker" else attacker_wins(*reversed(pieces))
    assert agree_with_dice(the_fight, n=600).attacker == pytest.approx(expected, abs=1e-9)


def test_smothering_presence_without_a_structure_does_nothing_and_says_so(book):
    smothered = odds.solve(fight(book, "space", attacker="2 dreadnought", defender="2 dreadnought, smothering presence"))
    plain = odds.solve(fight(book, "space", attacker="2 dreadnought", defender="2 dreadnought"))
    assert smothered.attacker == pytest.approx(plain.attacker, abs=1e-12)
    assert any(said("combat.smothering_idle", note) for note in smothered.notes)


def test_smothering_presence_on_the_planet_takes_the_invaders_bombardment(book):
    the_fight = fight(
        book, "invade", ships="2 dreadnought", landing="4 infantry", defender="2 infantry, 1 pds, smothering presence"
    )
    assert all(u.bombardment is None and not u.sustain for u in the_fight.ships.units)
    assert all(not u.abilities for u in the_fight.attacker.units)
