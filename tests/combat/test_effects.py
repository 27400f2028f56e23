"""Named effects and faction units that change the dice: each as its card says, cited in the log."""

from __future__ import annotations

import pytest
from said import pattern
from test_combat import Loaded, play

from tabletop.combat.units import unit_book
from tabletop.core.dice import Dice
from tabletop.core.i18n import t


@pytest.fixture(scope="module")
def book():
    return unit_book("ti4")


def volleys(battle, kind=None):
    """The battle's volleys of a kind ('space_cannon' is offense and defense alike)."""
    return [v for step in battle.steps for v in step.volleys if kind is None or v.kind.startswith(kind)]


# --- technologies and action cards ------------------------------------------------------------------


def test_plasma_scoring_adds_one_die_to_bombardment_and_space_cannon(book):
    plain = play(book, "bombard", Dice(1), units="2 dreadnought", target="3 infantry")
    plasma = play(book, "bombard", Dice(1), units="2 dreadnought, plasma scoring", target="3 infantry")
    assert len(volleys(plasma, "bombardment")[0].dice) == len(volleys(plain, "bombardment")[0].dice) + 1
    cannon = play(book, "space", Dice(1), attacker="1 pds, 1 cruiser, plasma scoring", defender="1 cruiser")
    assert len(volleys(cannon, "space_cannon")[0].dice) == 2


def test_antimass_deflectors_take_one_from_space_cannon_against_you(book):
    battle = play(book, "space", Loaded([6]), attacker="1 pds, 1 cruiser", defender="1 cruiser, antimass deflectors")
    shot = volleys(battle, "space_cannon")[0]
    assert shot.dice[0].modifier == -1 and shot.hits == 0  # a 6 would hit a PDS (6) without it


def test_magen_defense_grid_and_its_omega_version(book):
    magen = play(book, "ground", Dice(1), attacker="2 infantry", defender="1 infantry, 1 pds, magen defense grid")
    assert not volleys(magen, "opening_hit")  # the PoK card makes no hit: the opponent rolls nothing in round 1
    first = next(step for step in magen.steps if step.number == 1)
    assert [v.blocked != "" for v in first.volleys if v.kind == "combat"] == [True, False]
    no_shield = play(book, "ground", Dice(1), attacker="2 infantry", defender="1 infantry, 1 space dock, magen defense grid")
    first = next(step for step in no_shield.steps if step.number == 1)
    assert not any(v.blocked for v in first.volleys)  # it needs a unit with Planetary Shield
    omega = play(book, "ground", Dice(1), attacker="2 infantry", defender="1 infantry, 1 space dock, magen omega")
    assert volleys(omega, "opening_hit")[0].hits == 1  # Ω: any structure


def test_x89_omega_destroys_all_infantry_after_one_falls(book):
    # two hits: the mech sustains one (80.4), the other destroys an infantry, then X-89 Ω acts
    battle = play(book, "bombard", Loaded([5, 5]), units="2 dreadnought, x-89 omega", target="4 infantry, 1 mech")
    assert [u.type for u in battle.defender.units] == ["mech"]
    kept = play(book, "bombard", Loaded([5, 5]), units="2 dreadnought", target="4 infantry, 1 mech")
    assert sum(u.type == "infantry" for u in kept.defender.units) == 3


def test_duranium_armor_repairs_a_unit_damaged_in_an_earlier_round(book):
    # round 1: the cruiser hits the dreadnought (sustains); round 2: nobody hits -> repaired
    battle = play(book, "space", Loaded([1, 7, 1, 1] + [1] * 40), attacker="1 dreadnought, duranium armor", defender="1 cruiser")
    repairs = volleys(battle, "repair")
    assert repairs and repairs[0].taken[0].result == "repaired"
    assert not volleys(
        play(book, "space", Loaded([1, 7, 1, 1] + [1] * 40), attacker="1 dreadnought", defender="1 cruiser"), "repair"
    )


def test_valkyrie_particle_weave_answers_a_hit_with_a_hit(book):
    battle = play(book, "ground", Loaded([1, 8]), attacker="1 infantry, valkyrie particle weave", defender="1 infantry")
    assert battle.winner == "draw"  # the defender hit; the attacker's answering hit destroyed it


def test_l4_disruptors_stop_space_cannon_defence(book):
    battle = play(
        book, "invade", Dice(1), ships="1 carrier, l4 disruptors", landing="2 infantry", defender="1 infantry", pds="2 pds"
    )
    assert volleys(battle, "space_cannon")[0].blocked


def test_bunker_takes_four_from_bombardment(book):
    battle = play(book, "bombard", Loaded([8]), units="1 dreadnought", target="2 infantry, bunker")
    shot = volleys(battle, "bombardment")[0]
    assert shot.dice[0].modifier == -4 and shot.hits == 0


def test_disable_takes_shield_and_space_cannon_from_pds(book):
    battle = play(
        book, "invade", Dice(1), ships="2 dreadnought, disable", landing="2 infantry", defender="1 infantry", pds="1 pds"
    )
    assert not volleys(battle, "bombardment")[0].blocked and not volleys(battle, "space_cannon")


def test_fire_team_rerolls_misses_in_the_first_round(book):
    # round 1: the attacker misses (1) and rolls again (8: a hit); the defender misses (1)
    battle = play(book, "ground", Loaded([1, 8, 1]), attacker="1 infantry, fire team", defender="1 infantry")
    attack = next(v for v in volleys(battle) if v.side == "attacker")
    assert battle.winner == "attacker" and [(d.roll, d.hit, d.rerolled) for d in attack.dice] == [
        (1, False, False),
        (8, True, True),
    ]
    plain = play(book, "ground", Loaded([1, 8, 1]), attacker="1 infantry", defender="1 infantry")
    assert [d.roll for d in next(v for v in volleys(plain) if v.side == "attacker").dice] == [1]  # no reroll without it


def test_morale_boost_adds_one_in_the_first_round_only(book):
    battle = play(
        book, "ground", Loaded([7, 1, 7, 1, 8, 1] + [1] * 10), attacker="2 infantry, morale boost", defender="2 infantry"
    )
    first, second = battle.steps[0], battle.steps[1]
    assert first.volleys[0].dice[0].modifier == 1 and second.volleys[0].dice[0].modifier == 0


def test_blitz_gives_ships_without_bombardment_bombardment_6(book):
    battle = play(book, "invade", Loaded([6, 6]), ships="2 cruiser, blitz", landing="1 infantry", defender="3 infantry")
    shot = volleys(battle, "bombardment")[0]
    assert len(shot.dice) == 2 and shot.hits == 2


def test_conventions_of_war_stop_bombardment_of_a_cultural_planet(book):
    battle = play(book, "bombard", Dice(1), units="2 dreadnought", target="2 infantry, conventions of war")
    assert volleys(battle, "bombardment")[0].blocked


def test_assault_cannon_makes_the_opponent_lose_a_non_fighter_ship(book):
    battle = play(book, "space", Dice(1), attacker="3 cruiser, assault cannon", defender="1 destroyer, 1 dreadnought, 2 fighter")
    hit = volleys(battle, "assault_cannon")[0]
    assert [t.result for t in hit.taken] == ["destroyed"] and hit.taken[0].unit.startswith("구축함")


def test_graviton_laser_hits_non_fighter_ships_first(book):
    battle = play(book, "space", Loaded([9]), attacker="1 pds, 1 cruiser, graviton laser", defender="3 fighter, 1 cruiser")
    assert volleys(battle, "space_cannon")[0].taken[0].unit.startswith("순양함")
    plain = play(book, "space", Loaded([9]), attacker="1 pds, 1 cruiser", defender="3 fighter, 1 cruiser")
    assert volleys(plain, "space_cannon")[0].taken[0].unit.startswith("전투기")


def test_anti_fighter_barrage_hits_only_fighters_and_loses_the_rest(book):
    battle = play(book, "space", Loaded([9, 9]), attacker="1 destroyer", defender="1 fighter, 1 cruiser")
    barrage = volleys(battle, "anti_fighter_barrage")[0]
    assert barrage.hits == 2 and barrage.excess == 1 and [t.unit[:3] for t in barrage.taken] == ["전투기"]


def test_space_cannon_offence_fires_first_and_a_retreat_ends_the_combat(book):
    battle = play(book, "space", Dice(5), attacker="2 dreadnought, 2 cruiser", defender="1 pds, 4 cruiser", retreat="attacker@1")
    assert volleys(battle)[0].kind == "space_cannon_offense"
    if battle.retreated:
        assert battle.winner == "defender" and len([s for s in battle.steps if s.number]) == 1


# --- faction units ----------------------------------------------------------------------------------


def test_mentak_flagship_stops_the_opponents_sustain(book):
    battle = play(book, "space", Loaded([9, 9, 1, 1, 1]), attacker="mentak flagship", defender="1 dreadnought")
    assert [t.result for t in battle.steps[0].volleys[0].taken] == ["destroyed"]


def test_mentak_mech_stops_sustain_on_the_ground(book):
    battle = play(book, "ground", Loaded([9, 1]), attacker="mentak mech", defender="1 mech")
    assert [t.result for t in battle.steps[0].volleys[0].taken] == ["destroyed"]


def test_jol_nar_flagship_nine_and_ten_make_three_hits(book):
    battle = play(book, "space", Loaded([9, 1, 1]), attacker="jol-nar flagship", defender="3 fighter")
    assert battle.steps[0].volleys[0].hits == 3


def test_sardakk_flagship_adds_one_to_other_ships(book):
    battle = play(book, "space", Dice(1), attacker="sardakk flagship, 1 cruiser", defender="1 cruiser")
    dice = battle.steps[0].volleys[0].dice
    assert {d.unit[:3]: d.modifier for d in dice} == {"순양함": 1, "크모란": 0}


def test_winnu_flagship_rolls_a_die_per_opponent_non_fighter_ship(book):
    battle = play(book, "space", Dice(1), attacker="winnu flagship", defender="3 cruiser, 4 fighter")
    assert len(battle.steps[0].volleys[0].dice) == 3


def test_letnev_flagship_bombards_5_x3_through_shields(book):
    battle = play(book, "bombard", Dice(1), units="letnev flagship", target="2 infantry, 1 pds")
    shot = volleys(battle, "bombardment")[0]
    assert not shot.blocked and len(shot.dice) == 3 and all(d.needs == 5 for d in shot.dice)


def test_prototype_war_sun_and_vuil_raith_flagship_bombard(book):
    assert (
        len(
            volleys(play(book, "bombard", Dice(1), units="prototype war sun II", target="3 infantry, 1 pds"), "bombardment")[
                0
            ].dice
        )
        == 3
    )
    assert len(volleys(play(book, "bombard", Dice(1), units="cabal flagship", target="3 infantry"), "bombardment")[0].dice) == 1


def test_arborec_mech_has_a_planetary_shield_and_xxcha_mech_a_space_cannon(book):
    assert volleys(play(book, "bombard", Dice(1), units="2 dreadnought", target="arborec mech"), "bombardment")[0].blocked
    battle = play(book, "invade", Loaded([8]), ships="1 carrier", landing="2 infantry", defender="xxcha mech")
    assert volleys(battle, "space_cannon")[0].hits == 1


def test_naaz_rokha_mech_rolls_two_dice_and_more_with_the_flagship(book):
    assert len(play(book, "ground", Dice(1), attacker="naaz-rokha mech", defender="1 infantry").steps[0].volleys[0].dice) == 2
    battle = play(book, "invade", Dice(1), ships="naaz-rokha flagship", landing="naaz-rokha mech", defender="1 infantry")
    assert len([s for s in battle.steps if s.number][0].volleys[0].dice) == 3


def test_nekro_and_naalu_mechs_get_two_under_their_condition(book):
    plain = play(book, "ground", Dice(1), attacker="nekro mech", defender="1 infantry")
    bonus = play(book, "ground", Dice(1), attacker="nekro mech, mordred bonus", defender="1 infantry")
    assert plain.steps[0].volleys[0].dice[0].modifier == 0 and bonus.steps[0].volleys[0].dice[0].modifier == 2
    naalu = play(book, "ground", Dice(1), attacker="naalu mech, iconoclast bonus", defender="1 infantry")
    assert naalu.steps[0].volleys[0].dice[0].modifier == 2


def test_naalu_flagship_lets_fighters_fight_on_the_ground(book):
    battle = play(book, "invade", Dice(1), ships="naalu flagship", landing="2 fighter", defender="1 infantry")
    assert battle.combat and len([s for s in battle.steps if s.number][0].volleys[0].dice) == 2


def test_effects_are_cited_in_the_log(book):
    from tabletop.combat.report import battle_pages

    battle = play(book, "ground", Dice(1), attacker="2 infantry, sardakk, morale boost", defender="2 infantry")
    text = "\n".join(p.description for p in battle_pages(battle).pages)
    assert "불굴 (사르다크 노르)" in text and "사기 진작" in text


@pytest.mark.parametrize(
    ("attacker", "defender", "idle"),
    [
        ("2 cruiser, assault cannon", "2 destroyer", True),  # two ships of its own: short of three
        ("3 cruiser, assault cannon", "4 fighter", True),  # nothing of the opponent's it can destroy
        ("3 cruiser, assault cannon", "2 destroyer", False),
    ],
)
def test_an_effect_that_cannot_trigger_is_said_so_in_the_log(book, attacker, defender, idle):
    from tabletop.combat.commands import build_fight
    from tabletop.combat.resolver import resolve

    fight = build_fight("space", {"attacker": attacker, "defender": defender}, book)
    battle = resolve(fight, Dice(3))
    told = [n for n in battle.notes if pattern("combat.assault_cannon_idle", side=t("combat.attacker")).match(n)]
    assert bool(told) == idle
    fired = any(v.kind == "assault_cannon" for step in battle.steps for v in step.volleys)
    assert fired == (not idle)
