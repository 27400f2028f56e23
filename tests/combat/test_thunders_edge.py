"""Thunder's Edge units whose abilities change a fight: the Eidolon Maximum, the Quietus with an
active breach, linkships firing a structure's Space Cannon, Heaven's Eye repaired when its
condition is named. Each checked by hand or against the same fight written without the ability;
the dice and both solvers agree on each (tests/combat/test_every_effect.py runs them all too)."""

from __future__ import annotations

import pytest
from said import said

from tabletop.combat import odds
from tabletop.combat.commands import build_fight
from tabletop.combat.resolver import resolve
from tabletop.combat.units import unit_book
from tabletop.core.dice import Dice
from tabletop.core.errors import UserError
from tests.combat.test_every_effect import solvers_agree
from tests.combat.test_faction_effects import agree_with_dice


@pytest.fixture(scope="module")
def book():
    return unit_book("ti4")


def fight(book, kind, **options):
    return build_fight(kind, options, book)


def test_the_eidolon_maximum_is_repaired_every_round_so_one_infantry_never_destroys_it(book):
    """One infantry makes at most one hit a round: Sustain Damage takes it, and the repair at the
    start of the next round undoes it. Without the repair (the same unit typed by hand) two such
    rounds can destroy it."""
    repaired = agree_with_dice(fight(book, "ground", attacker="eidolon maximum", defender="1 infantry"))
    assert repaired.attacker == pytest.approx(1.0, abs=1e-9)
    by_hand = odds.solve(fight(book, "ground", attacker="1 mech@4x4 sustain", defender="1 infantry"))
    assert by_hand.attacker < 1.0 - 1e-6


def test_the_eidolon_maximum_fights_in_space_and_takes_no_hit_from_unit_abilities(book):
    """Space Cannon cannot be assigned to it: the defender's PDS change nothing. The Z-Grav
    Eidolon, a mech that is also a ship without that ability, is hit by them."""
    for_it = odds.solve(fight(book, "space", attacker="eidolon maximum", defender="2 dreadnought, 2 pds"))
    without = odds.solve(fight(book, "space", attacker="eidolon maximum", defender="2 dreadnought"))
    assert for_it.attacker == pytest.approx(without.attacker, abs=1e-12)
    zgrav = [odds.solve(fight(book, "space", attacker="2 z-grav eidolon", defender=d)) for d in ("1 carrier, 2 pds", "1 carrier")]
    assert zgrav[0].attacker < zgrav[1].attacker - 0.01
    battle = resolve(fight(book, "space", attacker="eidolon maximum, 2 fighter", defender="1 dreadnought, 2 pds"), Dice(8))
    cannon = [v for v in battle.steps[0].volleys if v.kind == "space_cannon_offense"]
    assert cannon and all("맥시멈" not in hit.unit for v in cannon for hit in v.taken)


def test_the_quietus_with_an_active_breach_takes_the_opponents_unit_abilities(book):
    """Two dreadnoughts without Sustain Damage are two ships of combat 5: the same odds exactly;
    the log says it lasts the whole combat. Without the Quietus the breach does nothing, and says so."""
    breach = fight(book, "space", attacker="quietus, active breach, 1 destroyer", defender="2 dreadnought")
    plain = fight(book, "space", attacker="quietus, 1 destroyer", defender="2 cruiser@5")
    assert agree_with_dice(breach).attacker == pytest.approx(odds.solve(plain).attacker, abs=1e-12)
    assert not any(u.sustain for u in breach.defender.units)
    assert any("퀴에투스" in note for note in breach.notes)
    idle = fight(book, "space", attacker="2 destroyer, active breach", defender="2 dreadnought")
    assert all(u.sustain for u in idle.defender.units) and any(said("combat.breach_idle", note) for note in idle.notes)
    invasion = fight(book, "invade", ships="quietus", landing="2 infantry, 균열", defender="1 mech", pds="1 pds")
    assert not any(u.sustain or u.space_cannon or u.planetary_shield for u in invasion.defender.units)


def test_linkships_fire_a_structures_space_cannon_linkship_one_each_structure_once(book):
    """One PDS: a Linkship I takes its Space Cannon, the second finds none left; every Linkship II
    takes the best structure's. Only in a space combat."""
    ones = fight(book, "space", attacker="2 linkship, 1 pds", defender="2 cruiser")
    twos = fight(book, "space", attacker="2 linkship ii, 1 pds, 1 pds2", defender="2 cruiser")
    assert sum(u.space_cannon is not None for u in ones.attacker.units if u.type == "destroyer") == 1
    assert [u.space_cannon.value for u in twos.attacker.units if u.type == "destroyer"] == [5, 5]  # PDS II's 5
    agree_with_dice(twos)
    stronger = odds.solve(twos).attacker
    assert stronger > odds.solve(fight(book, "space", attacker="2 destroyer2, 1 pds, 1 pds2", defender="2 cruiser")).attacker


def test_heavens_eye_is_repaired_each_round_only_when_its_condition_is_named(book):
    repaired = agree_with_dice(fight(book, "space", attacker="heaven's eye, plot repair", defender="3 cruiser"))
    plain = odds.solve(fight(book, "space", attacker="heaven's eye", defender="3 cruiser"))
    assert repaired.attacker > plain.attacker + 0.1
    one_cruiser = odds.solve(fight(book, "space", attacker="heaven's eye, plot repair", defender="1 cruiser"))
    assert one_cruiser.attacker == pytest.approx(1.0, abs=1e-9)  # one hit a round is always undone


@pytest.mark.parametrize(
    "name",
    [
        "eidolon maximum",
        "아이돌론 맥시멈",
        "エイドロン・マキシマム",
        "linkship ii",
        "링크쉽 ii",
        "リンクシップ ii",
        "quietus",
        "퀴에투스",
        "last dispatch",
        "alarum",
        "heaven's eye",
    ],
)
def test_the_thunders_edge_units_are_found_in_three_languages(book, name):
    assert book.find(name) is not None and book.find(name)[0] == "units"


def test_metali_void_armaments_barrage_six_three_times_before_the_rounds(book):
    """A dreadnought has no barrage of its own: the relic's 6 (x3) misses the lone fighter with
    0.5³; then the fight is as without it."""
    plain = odds.solve(fight(book, "space", attacker="1 dreadnought", defender="1 fighter")).attacker
    relic = agree_with_dice(fight(book, "space", attacker="1 dreadnought, metali void armaments", defender="1 fighter"))
    assert relic.attacker == pytest.approx(1 - 0.5**3 + 0.5**3 * plain, abs=1e-9)


@pytest.mark.parametrize(
    "defender, dice", [("1 destroyer, experimental battlestation", 3), ("1 destroyer, 1 space dock, lightrail ordnance", 2)]
)
def test_a_space_dock_firing_space_cannon_five_before_a_space_combat(book, defender, dice):
    """Experimental Battlestation (5 x3, the defender's: it is played after another player moves
    in) and a dock with Lightrail Ordnance (5 x2) miss the lone cruiser with 0.4 per die; a dock
    without the relic fires nothing."""
    plain = odds.solve(fight(book, "space", attacker="1 cruiser", defender="1 destroyer")).defender
    exact = agree_with_dice(fight(book, "space", attacker="1 cruiser", defender=defender))
    assert exact.defender == pytest.approx(1 - 0.4**dice + 0.4**dice * plain, abs=1e-9)
    dock_alone = odds.solve(fight(book, "space", attacker="1 cruiser", defender="1 destroyer, 1 space dock"))
    assert dock_alone.defender == pytest.approx(plain, abs=1e-12)


def test_x89_omega_omega_doubles_ground_combat_and_bombardment_hits(book):
    """One infantry (0.3) against a mech (0.5, Sustain Damage): each hit counts twice, so one hit
    destroys the mech: A wins 0.15 of the rounds that decide, of 0.65. A bombardment hit on a mech
    is sustained and destroys it."""
    doubled = agree_with_dice(fight(book, "ground", attacker="1 infantry, x-89 ΩΩ", defender="1 mech"))
    assert doubled.attacker == pytest.approx(0.15 / 0.65, abs=1e-9)
    bombard = fight(book, "bombard", units="1 dreadnought, x-89 omega omega", target="1 mech")
    for seed in range(30):
        battle = resolve(bombard, Dice(seed))
        volley = battle.steps[0].volleys[0]
        survivors = battle.as_dict()["survivors"]["defender"]
        assert volley.hits in (0, 2) and bool(survivors) == (volley.hits == 0), (seed, volley.hits, survivors)


def test_gravleash_maneuvers_adds_the_ship_types_to_the_roll_that_gains_most(book):
    """A lone cruiser: one ship type, +1: it hits on 6, half its rolls; against a fighter (0.2)
    the attacker wins 0.4 of the rounds that decide, of 0.6. With a dreadnought and a war sun
    (+2) the war sun's three dice gain more than the dreadnought's one: they hit on 1."""
    exact = agree_with_dice(fight(book, "space", attacker="1 cruiser, gravleash maneuvers", defender="1 fighter"))
    assert exact.attacker == pytest.approx(0.4 / 0.6, abs=1e-9)
    from tabletop.combat.battle import ATTACKER

    both = fight(book, "space", attacker="1 dreadnought, 1 war sun, 레트네브 돌파", defender="1 dreadnought")
    ma, md = both.models(both.attacker, both.defender)
    needs = sorted((u.type, d.needs) for u, _, d in both.round_dice(ATTACKER, ma, ma.start, md, md.start, 2))
    assert needs == [("dreadnought", 5), ("war-sun", 1), ("war-sun", 1), ("war-sun", 1)]
    ground = fight(book, "ground", attacker="2 infantry, gravleash", defender="2 infantry")
    plain = fight(book, "ground", attacker="2 infantry", defender="2 infantry")
    assert odds.solve(ground).attacker == pytest.approx(odds.solve(plain).attacker, abs=1e-12)  # space combat only


def test_proxima_targeting_bombards_both_sides_at_the_start_of_each_ground_round(book):
    """One infantry each, the attacker with Proxima: 3 dice at 8 (0.3) against each side first.
    Nobody galvanized: each infantry survives them with 0.7³; both gone is a draw, one gone the
    other's win, else a round of dice as usual (each 0.3), and again. A galvanized infantry
    cancels one of the hits against its side, and rolls two dice."""
    s = 0.7**3  # an infantry survives the three dice against it
    f = 1 - s
    both, a_only, d_only = s * s, s * f, f * s  # both survive; only A; only D
    # then the dice: A wins with 0.21, D with 0.21, a draw with 0.09, again with 0.49
    again = both * 0.49
    win = (a_only + both * 0.21) / (1 - again)
    exact = agree_with_dice(fight(book, "ground", attacker="1 infantry, proxima targeting", defender="1 infantry"))
    assert exact.attacker == pytest.approx(win, abs=1e-9)
    assert exact.defender == pytest.approx((d_only + both * 0.21) / (1 - again), abs=1e-9)
    galvanized = agree_with_dice(fight(book, "ground", attacker="1 galvanized infantry, proxima", defender="1 infantry"))
    assert galvanized.attacker > exact.attacker + 0.1
    space = fight(book, "space", attacker="1 cruiser, proxima", defender="1 cruiser")
    assert odds.solve(space).attacker == pytest.approx(
        odds.solve(fight(book, "space", attacker="1 cruiser", defender="1 cruiser")).attacker
    )


def test_the_a3_valiance_destroyed_galvanized_galvanizes_three_infantry(book):
    """Lost first (as ordered) while galvanized, it gives the three infantry lost last a second
    die; a plain A3 Valiance gives nothing. The dice and both solvers agree."""
    from tabletop.combat.battle import ATTACKER

    def dice_after_the_mech(attacker: str) -> list[int]:
        the_fight = fight(book, "ground", attacker=attacker, defender="6 infantry", attacker_order="a3 valiance")
        ma, md = the_fight.models(the_fight.attacker, the_fight.defender)
        assert ma.units[0].type == "mech"
        lost_mech = ma.first_lost(1)
        dice = the_fight.round_dice(ATTACKER, ma, (0, lost_mech), md, md.start, 2)
        return sorted(sum(1 for u, _, _ in dice if u is unit) for unit in ma.alive((0, lost_mech)))

    assert dice_after_the_mech("1 galvanized a3 valiance, 5 infantry") == [1, 1, 2, 2, 2]
    assert dice_after_the_mech("1 a3 valiance, 5 infantry") == [1, 1, 1, 1, 1]
    galvanized = agree_with_dice(
        fight(
            book, "ground", attacker="1 galvanized a3 valiance, 4 infantry", defender="6 infantry", attacker_order="a3 valiance"
        )
    )
    plain_mech = odds.solve(
        fight(book, "ground", attacker="1 galvanized mech, 4 infantry", defender="6 infantry", attacker_order="mech")
    )
    assert galvanized.attacker > plain_mech.attacker + 0.05


def test_converge_puts_space_cannon_hits_on_non_fighter_ships_or_on_mechs_at_a_landing(book):
    """One PDS II die (0.6) before the combat: with Converge a hit destroys the cruiser, not a
    fighter; at a landing it goes to the mech (which sustains) rather than an infantry."""
    from tabletop.combat.battle import DEFENDER

    space = fight(book, "space", attacker="1 cruiser, 4 fighter", defender="1 dreadnought, 1 pds2, converge")
    battle = resolve(space, Dice(next(s for s in range(50) if resolve(space, Dice(s)).steps[0].volleys[0].hits)))
    assert [hit.unit for hit in battle.steps[0].volleys[0].taken] == ["순양함 #1"]
    agree_with_dice(space)
    plain = odds.solve(fight(book, "space", attacker="1 cruiser, 4 fighter", defender="1 dreadnought, 1 pds2"))
    assert odds.solve(space).defender > plain.defender
    landing = fight(
        book, "invade", ships="1 dreadnought", landing="2 infantry, 1 mech", defender="1 infantry, converge", pds="1 pds2"
    )
    cannon = landing.space_cannon(DEFENDER, landing.defender, landing.attacker, at_landing=True)
    assert cannon is not None and cannon.first is not None
    assert [u.type for u in landing.attacker.units if cannon.first(u)] == ["mech"]


def test_galactic_events_and_a_nebula_as_options(book):
    """Conventions of War Abandoned: one bombardment hit (0.6) destroys all three infantry, but a
    mech's Sustain Damage cancels it. A nebula's defender: +1 in space (a cruiser hits on 6), +3
    under Cosmic Phenomenae, nothing on the ground. Wild Wild Galaxy's Morale Boost: +2 in round 1."""
    ground = odds.solve(fight(book, "ground", attacker="1 infantry", defender="3 infantry")).attacker
    cowa = odds.solve(  # the dice against these odds: test_every_effect
        fight(book, "invade", ships="1 dreadnought, conventions of war abandoned", landing="1 infantry", defender="3 infantry")
    )
    assert cowa.control == pytest.approx(0.6 + 0.4 * ground, abs=1e-9)
    with_mech = fight(book, "invade", ships="1 dreadnought, cowa", landing="1 infantry", defender="1 mech, 2 infantry")
    bombard = with_mech.bombardment(with_mech.ships, with_mech.defender)
    from tabletop.combat.battle import HitPlan

    after, events, _ = HitPlan(with_mech.defender, bombard).apply(1)
    assert [result for _, result in events] == ["sustained"] and len(after.units) == 3
    after, events, _ = HitPlan(with_mech.defender, bombard).apply(2)
    assert sorted(result for _, result in events) == ["destroyed", "destroyed", "destroyed", "sustained"]
    nebula = agree_with_dice(fight(book, "space", attacker="1 cruiser", defender="1 cruiser, nebula"))
    assert nebula.defender == pytest.approx(0.3 / 0.7, abs=1e-9)
    cosmic = odds.solve(fight(book, "space", attacker="1 cruiser", defender="1 cruiser, cosmic phenomenae"))
    assert cosmic.defender == pytest.approx(0.7 * 0.6 / (1 - 0.3 * 0.6), abs=1e-9)  # hits on 4: 0.7
    on_the_ground = odds.solve(fight(book, "ground", attacker="1 infantry", defender="1 infantry, nebula"))
    assert on_the_ground.defender == pytest.approx(0.21 / 0.51, abs=1e-9)
    boosted = agree_with_dice(fight(book, "space", attacker="1 cruiser, wild wild galaxy", defender="1 cruiser"))
    assert boosted.attacker == pytest.approx(0.6 * 0.6 + 0.6 * 0.4 * (0.24 / 0.64), abs=1e-9)


def test_found_in_review_each_effect_acts_where_its_card_says(book):
    """Heaven's Eye is repaired at the end of each round, so damage from the space cannon before
    the combat stays through round 1; the Quietus's breach silences a dock that Lightrail Ordnance
    armed; Proxima cancels the opponent's bombardment hits too; Wild Wild Galaxy's Morale Boost is
    +2, not +3 with Morale Boost named; Proxima or Harrow against the Eidolon Maximum is refused."""
    eye = fight(book, "space", attacker="heaven's eye, plot repair", defender="1 cruiser")
    ma, _ = eye.models(eye.attacker, eye.defender)
    damaged = (1, 0)
    assert ma.rebuild(damaged, first=True) == (damaged, None) and ma.rebuild(damaged)[0] == (0, 0)
    letnev = fight(book, "space", attacker="letnev flagship", defender="1 cruiser")
    ma, _ = letnev.models(letnev.attacker, letnev.defender)
    assert ma.rebuild(damaged, first=True)[0] == (0, 0)  # the start of every round, the first too
    silenced = fight(
        book, "space", attacker="quietus, active breach, 2 cruiser", defender="1 space dock, lightrail ordnance, 2 carrier"
    )
    assert not any(u.space_cannon for u in silenced.defender.units)
    invasion = fight(book, "invade", ships="2 dreadnought", landing="2 infantry", defender="2 galvanized infantry, proxima")
    bombard = invasion.bombardment(invasion.ships, invasion.defender)
    from tabletop.combat.battle import HitPlan

    _, events, _ = HitPlan(invasion.defender, bombard).apply(2)
    assert events == []  # two galvanized infantry cancel both hits
    both = odds.solve(fight(book, "space", attacker="1 cruiser, morale boost, wild wild galaxy", defender="1 cruiser"))
    alone = odds.solve(fight(book, "space", attacker="1 cruiser, wild wild galaxy", defender="1 cruiser"))
    assert both.attacker == pytest.approx(alone.attacker, abs=1e-12)
    for attacker, defender, kind in (("2 infantry, proxima", "eidolon maximum", "ground"),):
        with pytest.raises(UserError):
            fight(book, kind, attacker=attacker, defender=defender)
    with pytest.raises(UserError):
        fight(book, "invade", ships="1 dreadnought, harrow", landing="2 infantry", defender="eidolon maximum")


def test_an_a3_valiance_felled_by_bombardment_galvanizes_the_infantry_before_the_rounds(book):
    """Killed before the rounds, it galvanizes three infantry all the same: the odds and the dice
    agree, and the defence holds better than with a plain mech lost the same way."""
    options = dict(ships="4 dreadnought", landing="3 infantry", defender_order="a3 valiance")
    valiant = agree_with_dice(fight(book, "invade", **options, defender="galvanized a3 valiance, 3 infantry"))
    plain = odds.solve(fight(book, "invade", **{**options, "defender_order": "mech"}, defender="galvanized mech, 3 infantry"))
    assert valiant.control < plain.control - 0.02
    the_fight = fight(book, "invade", **options, defender="galvanized a3 valiance, 3 infantry")
    after = the_fight.defender.with_units([u for u in the_fight.defender.units if u.type == "infantry"])
    _, defender = the_fight.for_rounds(the_fight.attacker, after)
    assert [u.id for u in defender.units] == ["infantry+galvanized"] * 3


@pytest.mark.parametrize(
    "kind, attacker, defender, order",
    [
        ("ground", "1 galvanized a3 valiance, 4 infantry", "5 infantry, 1 mech", "a3 valiance"),
        ("space", "2 dreadnought, 2 destroyer, 1 carrier, 3 fighter, gravleash", "2 dreadnought, 2 cruiser, 4 fighter", ""),
    ],
)
def test_dice_that_depend_on_who_is_alive_solve_alike_on_both_solvers(book, monkeypatch, kind, attacker, defender, order):
    """Gravleash's +X (by the ship types alive) and the A3 Valiance's galvanized infantry change a
    side's dice with its own losses: the fast solver follows them state by state, as the general
    one does."""
    the_fight = fight(book, kind, attacker=attacker, defender=defender, attacker_order=order)
    fast = solvers_agree(the_fight, monkeypatch)  # chances and survivors alike
    monkeypatch.setattr(odds, "_factorized", lambda *_: False)
    assert fast.rounds == pytest.approx(odds.solve(the_fight).rounds, abs=1e-9)


def test_an_effect_named_with_an_invasions_structures_is_the_defenders(book):
    """`pds: space dock, lightrail ordnance` arms the dock as the same relic named with the
    defender does; before, the effect was dropped without a word."""
    base = dict(ships="2 dreadnought", landing="4 infantry")
    with_pds = odds.solve(fight(book, "invade", **base, defender="2 infantry", pds="space dock, lightrail ordnance"))
    with_defender = odds.solve(fight(book, "invade", **base, defender="2 infantry, lightrail ordnance", pds="space dock"))
    unarmed = odds.solve(fight(book, "invade", **base, defender="2 infantry", pds="space dock"))
    assert with_pds.control == pytest.approx(with_defender.control, abs=1e-12)
    assert with_pds.control < unarmed.control - 0.01
