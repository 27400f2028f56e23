"""Faction abilities and cards added this wave, each checked against hand-worked numbers or
against the seeded dice: Mentak Ambush, the Mahact flagship's bonus, both Magen Defense Grids,
Plasma Scoring's best die, the Naalu flagship's fighters, the Nekro flagship's ground forces."""

from __future__ import annotations

import pytest
from said import said

from tabletop.combat import odds
from tabletop.combat.commands import build_fight
from tabletop.combat.resolver import resolve
from tabletop.combat.units import unit_book
from tabletop.console.printed import printed
from tabletop.core.dice import Dice
from tabletop.core.errors import UserError


@pytest.fixture(scope="module")
def book():
    return unit_book("ti4")


def fight(book, kind, **options):
    return build_fight(kind, options, book)


def agree_with_dice(the_fight, n=1500):
    """The seeded dice land within four standard deviations of the exact odds."""
    exact = odds.solve(the_fight)
    wins = control = 0
    for seed in range(n):
        battle = resolve(the_fight, Dice(seed))
        wins += battle.winner == "attacker"
        control += battle.control == "attacker"
    sigma = max((exact.attacker * (1 - exact.attacker) / n) ** 0.5, 1e-9)
    assert abs(wins / n - exact.attacker) <= 4 * sigma + 1e-9, (wins / n, exact.attacker)
    if exact.control is not None:
        sigma = max((exact.control * (1 - exact.control) / n) ** 0.5, 1e-9)
        assert abs(control / n - exact.control) <= 4 * sigma + 1e-9, (control / n, exact.control)
    return exact


def test_ambush_rolls_for_two_cruisers_or_destroyers_before_the_rounds(book):
    """Two cruisers (combat 7) ambush one fighter: it survives both dice with 0.6 × 0.6, and then
    the fight is two cruisers against a lone fighter."""
    plain = odds.solve(fight(book, "space", attacker="2 cruiser", defender="1 fighter"))
    ambush = agree_with_dice(fight(book, "space", attacker="2 cruiser, mentak ambush", defender="1 fighter"))
    assert ambush.attacker == pytest.approx(0.64 + 0.36 * plain.attacker, abs=1e-9)
    battle = resolve(fight(book, "space", attacker="3 cruiser, 매복", defender="1 dreadnought"), Dice(1))
    ambush_volleys = [v for v in battle.steps[0].volleys if v.kind == "ambush"]
    assert len(ambush_volleys) == 1 and len(ambush_volleys[0].dice) == 2  # up to 2 ships, not 3


def test_ambush_without_cruisers_or_destroyers_says_it_did_not_trigger(book):
    the_fight = fight(book, "space", attacker="2 dreadnought, ambush", defender="1 cruiser")
    assert any("매복" in note for note in the_fight.notes)


def test_the_mahact_flagship_bonus_adds_two_to_its_rolls_only(book):
    """Arvicon Rex rolls 2 dice at 5; +2 makes them hit on 3."""
    plain = fight(book, "space", attacker="mahact flagship, 1 cruiser", defender="1 dreadnought")
    bonus = fight(book, "space", attacker="mahact flagship, 1 cruiser, mahact flagship bonus", defender="1 dreadnought")
    assert odds.solve(bonus).attacker > odds.solve(plain).attacker
    from tabletop.combat.battle import ATTACKER

    ma, md = bonus.models(bonus.attacker, bonus.defender)
    needs = sorted((u.type, die.needs) for u, _, die in bonus.round_dice(ATTACKER, ma, ma.start, md, md.start, 2))
    assert needs == [("cruiser", 7), ("flagship", 3), ("flagship", 3)]


def test_magen_defense_grid_silences_the_first_round_and_omega_makes_a_hit(book):
    """One infantry each with a PDS on the defender's planet: with Magen (PoK) the attacker
    rolls nothing in round 1; with Magen Ω the defender starts with a hit instead."""
    base = dict(ships="1 dreadnought, l4 disruptors", landing="1 infantry")
    silenced = fight(book, "invade", **base, defender="1 infantry, magen defense grid", pds="1 pds")
    p = 0.3  # infantry (combat 8) hits on 8, 9 or 10
    first = odds.solve(fight(book, "invade", **base, defender="1 infantry", pds="1 pds"))
    exact = agree_with_dice(silenced)
    # round 1: only the defender rolls; afterwards as in the plain fight from the start
    assert exact.control == pytest.approx((1 - p) * first.control, abs=1e-9)
    battle = resolve(silenced, Dice(3))
    rounds = [s for s in battle.steps if s.number == 1]
    assert rounds and any(v.blocked for v in rounds[0].volleys if v.side == "attacker")
    omega = odds.solve(fight(book, "invade", **base, defender="1 infantry, magen omega", pds="1 pds"))
    assert omega.control == pytest.approx(0.0, abs=1e-12)  # the lone infantry is hit before it rolls


def test_magen_without_a_planetary_shield_unit_does_not_trigger(book):
    the_fight = fight(book, "ground", attacker="2 infantry", defender="2 infantry, magen defense grid")
    plain = fight(book, "ground", attacker="2 infantry", defender="2 infantry")
    assert odds.solve(the_fight).attacker == pytest.approx(odds.solve(plain).attacker, abs=1e-12)
    assert any("마겐" in note for note in the_fight.notes)


def test_plasma_scoring_rolls_with_the_best_unit_whatever_the_order(book):
    """Space cannon: a PDS II (5) and a PDS (6): the extra die is the PDS II's, in either order."""
    one = odds.solve(fight(book, "space", attacker="1 cruiser", defender="1 pds, 1 pds2, plasma scoring, 1 fighter"))
    two = odds.solve(fight(book, "space", attacker="1 cruiser", defender="1 pds2, 1 pds, plasma scoring, 1 fighter"))
    assert one.defender == pytest.approx(two.defender, abs=1e-12)
    ships = dict(ships="1 dreadnought, 1 war sun, plasma scoring", landing="1 infantry", defender="2 infantry")
    a = odds.solve(fight(book, "invade", **ships))
    b = odds.solve(fight(book, "invade", **{**ships, "ships": "1 war sun, 1 dreadnought, plasma scoring"}))
    assert a.control == pytest.approx(b.control, abs=1e-12)


def test_naalu_fighters_fight_on_the_ground_but_never_take_the_planet(book):
    the_fight = fight(book, "invade", ships="naalu flagship, 4 fighter", landing="4 fighter", defender="1 infantry")
    exact = agree_with_dice(the_fight)
    assert exact.control == pytest.approx(0.0, abs=1e-12)
    assert exact.attacker > 0.9
    landing = dict(ships="naalu flagship", landing="4 fighter, 1 infantry", defender="1 infantry")
    fighters_first = odds.solve(fight(book, "invade", **landing))
    assert fighters_first.control == pytest.approx(fighters_first.attacker, abs=1e-12)  # the infantry is lost last
    infantry_first = agree_with_dice(fight(book, "invade", **landing, landing_order="infantry"))
    assert 0.0 < infantry_first.control < infantry_first.attacker


def test_the_nekro_flagship_makes_ground_forces_fight_as_ships(book):
    """Without the Alastor, infantry typed on a space side take no part, and the log says so."""
    with_alastor = agree_with_dice(fight(book, "space", attacker="nekro flagship, 6 infantry", defender="3 cruiser"))
    without = fight(book, "space", attacker="1 dreadnought, 6 infantry", defender="3 cruiser")
    assert with_alastor.attacker > 0.85
    assert any("6" in note and "지상군" in note for note in without.notes)


def test_ground_forces_in_space_are_lost_weakest_first_unless_an_order_is_given(book):
    """With the Alastor, no order of types fits ships and ground forces alike: the default loses
    the unit whose roll expects the fewest hits first (fighter 0.2, infantry 0.3, cruiser and
    flagship 0.4, mech 0.5), the log says so, the dice and the odds agree; a given order goes first."""
    side = "nekro flagship, 1 mech, 1 infantry, 1 cruiser, 1 fighter"
    by_default = fight(book, "space", attacker=side, defender="2 dreadnought")
    attacker, _ = by_default.models(by_default.attacker, by_default.defender)
    assert [u.type for u in attacker.units] == ["fighter", "infantry", "cruiser", "flagship", "mech"]
    assert any(said("combat.weakest_first", note) for note in by_default.notes)
    agree_with_dice(by_default)
    ordered = fight(book, "space", attacker=side, defender="2 dreadnought", attacker_order="mech")
    attacker, _ = ordered.models(ordered.attacker, ordered.defender)
    assert [u.type for u in attacker.units][:2] == ["mech", "fighter"]
    ships_only = fight(book, "space", attacker="1 cruiser, 1 fighter, 1 carrier", defender="2 dreadnought")
    attacker, _ = ships_only.models(ships_only.attacker, ships_only.defender)
    assert [u.type for u in attacker.units] == ["fighter", "carrier", "cruiser"]  # as before
    assert not any(said("combat.weakest_first", note) for note in ships_only.notes)


@pytest.mark.parametrize(
    "attacker, defender",
    [("letnev flagship, 2 destroyer", "3 cruiser, 1 carrier"), ("yin flagship, 2 cruiser", "2 dreadnought, 2 destroyer")],
)
def test_flagship_odds_agree_on_both_solvers(book, monkeypatch, attacker, defender):
    the_fight = fight(book, "space", attacker=attacker, defender=defender)
    fast = odds.solve(the_fight).as_dict()
    monkeypatch.setattr(odds, "_factorized", lambda *_: False)
    general = odds.solve(the_fight).as_dict()
    for key in ("attacker", "defender", "draw", "rounds"):
        assert fast[key] == pytest.approx(general[key], abs=1e-9), key


def test_the_letnev_flagship_is_repaired_at_the_start_of_each_round(book):
    """Arc Secundus against one cruiser: repaired every round, it can be lost only to two hits in
    one round, which a lone cruiser cannot make; without the repair a hit in each of two rounds
    destroys it. The log shows the repair."""
    the_fight = fight(book, "space", attacker="letnev flagship", defender="2 cruiser")
    exact = agree_with_dice(the_fight)
    plain = odds.solve(fight(book, "space", attacker="sol flagship", defender="2 cruiser"))  # combat 5 x2, sustain
    assert exact.attacker > plain.attacker
    lone = odds.solve(fight(book, "space", attacker="letnev flagship", defender="1 cruiser"))
    assert lone.attacker == pytest.approx(1.0, abs=1e-9)
    for seed in range(40):
        battle = resolve(the_fight, Dice(seed))
        kinds = [v.kind for step in battle.steps for v in step.volleys]
        if "repair" in kinds:
            break
    else:
        pytest.fail("no repair in 40 battles")


def test_the_yin_flagship_takes_every_ship_with_it(book):
    """Van Hauge alone against many dreadnoughts: the defender can never win: when it is
    lost every ship goes with it, so the fight ends in mutual destruction, not a defender win."""
    the_fight = fight(book, "space", attacker="yin flagship", defender="6 dreadnought")
    exact = agree_with_dice(the_fight)
    assert exact.defender == pytest.approx(0.0, abs=1e-12)
    assert exact.draw > 0.99
    assert exact.survivors["defender"] == {(): pytest.approx(1.0)}
    battle = resolve(the_fight, Dice(5))
    assert battle.winner == "draw" and not battle.defender.units
    assert any("반 하우게" in note for note in battle.notes)
    # lost to space cannon before the rounds: nothing is left to fight
    cannon = fight(book, "space", attacker="yin flagship, 1 cruiser", defender="2 pds2, 2 cruiser")
    exact = agree_with_dice(cannon)
    general = odds.solve(cannon)
    assert exact.total() == pytest.approx(1.0, abs=1e-9) and general.draw > 0


def test_a_letnev_flagship_damaged_before_the_rounds_is_counted_once(book):
    """Space cannon damages Arc Secundus before the rounds; it is repaired as the first round
    starts, and that start must still be counted once: the survivors sum to one."""
    exact = agree_with_dice(fight(book, "space", attacker="letnev flagship, 1 cruiser", defender="2 pds2, 2 cruiser"))
    assert exact.total() == pytest.approx(1.0, abs=1e-9)
    for side in ("attacker", "defender"):
        assert sum(exact.survivors[side].values()) == pytest.approx(1.0, abs=1e-9)


def test_the_z_grav_eidolon_fights_as_a_ship_with_two_dice_three_with_the_flagship(book):
    def zgrav_dice(attacker):
        battle = resolve(fight(book, "space", attacker=attacker, defender="3 cruiser"), Dice(2))
        first = next(v for v in battle.steps[1].volleys if v.side == "attacker" and v.kind == "combat")
        return sum("제트-그라브" in d.unit for d in first.dice)

    assert zgrav_dice("1 z-grav eidolon") == 2
    assert zgrav_dice("1 z-grav eidolon, naaz-rokha flagship") == 3
    with pytest.raises(UserError):  # the planet side (Eidolon) is no ship: alone it cannot fight in space
        fight(book, "space", attacker="1 eidolon", defender="1 cruiser")
    agree_with_dice(fight(book, "space", attacker="2 z-grav eidolon, 1 destroyer", defender="2 cruiser"))


def test_iconoclast_omega_stops_anti_fighter_barrage_against_its_side(book):
    """Three destroyers' barrage (2 dice at 9 each) is what the fighters fear; with the Codex
    Naalu mech in the system the barrage is not rolled, so the odds are those of ships that hit
    on 9 with no barrage (cruisers made to hit on 9), and the log says why."""
    shielded = agree_with_dice(fight(book, "space", attacker="6 fighter, 1 carrier, 1 iconoclast omega", defender="3 destroyer"))
    exposed = odds.solve(fight(book, "space", attacker="6 fighter, 1 carrier, 1 iconoclast", defender="3 destroyer"))
    no_barrage = odds.solve(fight(book, "space", attacker="6 fighter, 1 carrier", defender="3 cruiser@9"))
    assert shielded.attacker == pytest.approx(no_barrage.attacker, abs=1e-9)
    assert shielded.attacker > exposed.attacker + 0.02
    battle = resolve(fight(book, "space", attacker="6 fighter, 1 carrier, 이코노클라스트 Ω", defender="3 destroyer"), Dice(3))
    barrage = [v for v in battle.steps[0].volleys if v.kind == "anti_fighter_barrage"]
    assert len(barrage) == 1 and not barrage[0].dice and "Ω" in barrage[0].blocked
    # its own side's barrage is not stopped: the ability protects only its owner's units
    theirs = resolve(fight(book, "space", attacker="3 destroyer, 1 iconoclast omega", defender="4 fighter, 1 carrier"), Dice(3))
    assert any(v.kind == "anti_fighter_barrage" and v.dice for v in theirs.steps[0].volleys)


def test_the_odds_say_which_typed_units_take_no_part(book):
    """Ground forces typed on a space side sit the combat out: the odds say so, as the dice do,
    in the reply and in --json, rather than dropping them without a word."""
    from tabletop.combat.report import odds_pages

    result = odds.solve(fight(book, "space", attacker="4 fighter, 1 carrier, 2 infantry", defender="2 destroyer"))
    assert any("2" in note for note in result.notes) and result.as_dict()["notes"] == result.notes
    assert result.notes[0] in printed(odds_pages(result, "space").reply())
    quiet = odds.solve(fight(book, "space", attacker="4 fighter, 1 carrier", defender="2 destroyer"))
    assert quiet.notes == [] and "notes" not in quiet.as_dict()
