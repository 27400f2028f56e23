"""Combat dice: each glossary rule the resolver follows, fairness and reproducibility."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from math import comb

import pytest
import yaml
from run_bot import run_bot
from said import said

from tabletop.combat.commands import build_fight, fight
from tabletop.combat.report import result_line
from tabletop.combat.resolver import resolve
from tabletop.combat.units import parse_order, parse_side, unit_book
from tabletop.console.printed import printed
from tabletop.core.commands import Context, dispatch
from tabletop.core.components import press
from tabletop.core.dice import Dice, parse_seed, roll_expression
from tabletop.core.errors import UserError
from tabletop.core.i18n import t


class Loaded(Dice):
    """Dice that roll a fixed sequence, to force the situations a rule talks about; after it,
    seeded dice finish the battle."""

    def __init__(self, rolls):
        super().__init__(0)
        self.rolls = list(rolls)

    def roll(self, sides=10):
        return self.rolls.pop(0) if self.rolls else super().roll(sides)


@pytest.fixture(scope="module")
def book():
    return unit_book("ti4")


def side(book, spec):
    return parse_side(spec, book)


def play(book, kind, dice, **options):
    """A battle from command options with these dice (the same path as the commands)."""
    return resolve(build_fight(kind, options, book), dice)


# --- reading a side --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spec, expected",
    [
        ("3 infantry, 1 mech", ["infantry"] * 3 + ["mech"]),
        ("4 보병", ["infantry"] * 4),
        ("2x 보병", ["infantry"] * 2),
        ("2× 보병", ["infantry"] * 2),
        ("보병 x2", ["infantry"] * 2),
        ("보병 2기, 메크", ["infantry", "infantry", "mech"]),
        ("2x dreadnought + war sun", ["dreadnought", "dreadnought", "war-sun"]),
        ("ＰＤＳ", ["pds"]),
        ("노급 전함", ["dreadnought"]),
        # an upgrade marker joined to a name is the tier II unit, never a count
        ("pds2", ["pds-2"]),
        ("inf2", ["infantry-2"]),
        ("보병2", ["infantry-2"]),
        ("dread2", ["dreadnought-2"]),
        ("보병 II", ["infantry-2"]),
        ("보병Ⅱ", ["infantry-2"]),
        ("pds-2", ["pds-2"]),
        ("hel-titan-2", ["hel-titan-2"]),
        ("2 hel-titan-2", ["hel-titan-2"] * 2),
        ("3 inf2", ["infantry-2"] * 3),
        ("carrier2 x2", ["carrier-2"] * 2),
    ],
)
def test_sides_in_korean_and_english(book, spec, expected):
    assert [u.id for u in side(book, spec).units] == expected


def test_a_bare_number_after_a_name_is_refused_as_ambiguous(book):
    with pytest.raises(UserError) as exc:
        parse_side("보병 2", book)
    assert "'2 보병'" in exc.value.message and "'보병2'" in exc.value.message
    with pytest.raises(UserError) as exc:  # the hint keeps "galvanized": following it keeps the units
        parse_side("갈바나이즈된 보병 2", book)
    hint = exc.value.message.split("'")[3]
    assert hint == "2 갈바나이즈된 보병" and [u.id for u in parse_side(hint, book).units] == ["infantry+galvanized"] * 2


def test_one_grammar_for_every_unit_with_an_upgrade(book):
    """ "NAME 2" is refused for every unit that has an upgrade (no alias reads it as the upgrade),
    any other number after a name is a count, and a 2 joined to the name is the upgrade."""
    upgraded = [uid for uid in book.units if not uid.endswith("-2") and book.upgrade_of(uid)]
    assert len(upgraded) >= 8
    for uid in upgraded:
        name = book.units[uid]["names"]["en"]
        with pytest.raises(UserError):
            parse_side(f"{name} 2", book)
        assert [u.id for u in parse_side(f"{name} 3", book).units] == [uid] * 3
        assert [u.id for u in parse_side(f"{name}2", book).units] == [book.upgrade_of(uid)]
    assert [u.id for u in parse_side("보병３, 메크 ２기", book).units] == ["infantry"] * 3 + ["mech"] * 2


@pytest.mark.parametrize("locale", ["ko", "en", "ja"])
def test_every_example_a_message_gives_is_one_the_parser_accepts(book, locale):
    """The sentences that say how to write a side quote only forms that work."""
    from tabletop.core.i18n import speaking

    with speaking(locale):
        for spec in ("sardakk x2", "보병 2", "dread 2"):
            with pytest.raises(UserError) as exc:
                parse_side(spec, book)
            examples = re.findall(r"'([^']+)'", exc.value.message)
            shown = [e for e in examples if e != spec]
            assert shown, exc.value.message
            for example in shown:
                parse_side(example, book)


def test_every_alias_in_the_unit_file_reads_as_its_unit(book):
    from tabletop.core.paths import DATA_DIR

    data = yaml.safe_load((DATA_DIR / "units" / "ti4.yaml").read_text(encoding="utf-8"))
    for entry in data["units"]:
        for name in [entry["id"], *entry["names"].values(), *entry.get("aliases", [])]:
            if entry.get("needs_value"):  # named with its value for the fight (the Egeiro)
                name = f"{name}@7"
            parsed = parse_side(name, book)
            assert [u.id for u in parsed.units] == [entry["id"]], name
            assert [u.id for u in parse_side(f"2 {name}", book).units] == [entry["id"]] * 2, name
    for entry in data["effects"]:
        for name in [entry["id"], *entry["names"].values(), *entry.get("aliases", [])]:
            if entry.get("refused"):  # found, and refused with its name: never guessed
                with pytest.raises(UserError, match=re.escape(book.effect_label(entry["id"]))):
                    parse_side(f"1 infantry, {name}", book)
                continue
            parsed = parse_side(f"1 infantry, {name}", book)
            assert parsed.effect_names and len(parsed.units) == 1, name


def test_ad_hoc_units_and_overrides(book):
    s = side(book, "3 custom@6x2 sustain, 2 infantry@7")
    custom = s.units[0]
    assert (custom.combat, custom.dice, custom.sustain, custom.ground) == (6, 2, True, True)
    assert [u.combat for u in s.units[3:]] == [7, 7]
    assert [u.number for u in s.units] == [1, 2, 3, 1, 2]


def test_named_effects_apply_once_and_say_so(book):
    s = side(book, "3 infantry, sardakk, sardakk, non-euclidean shielding")
    assert s.effects.combat_modifier == 1 and s.effects.sustain_cancels == 2 and len(s.units) == 3
    assert len(s.notes) == 1 and "한 번만" in s.notes[0]


def test_a_faction_does_not_bring_a_technology_it_must_research(book):
    with pytest.raises(UserError) as exc:
        side(book, "2 dreadnought, letnev")  # Non-Euclidean Shielding must be named itself
    assert "Non-Euclidean Shielding" in exc.value.message


def test_super_dreadnought_tiers_have_their_own_values(book):
    one, two = side(book, "super-dreadnought").units[0], side(book, "super-dreadnought2").units[0]
    assert (one.combat, one.bombardment.value) == (5, 5)
    assert (two.combat, two.bombardment.value) == (4, 4)


@pytest.mark.parametrize(
    "spec, words",
    [
        ("3 mek", ["'mek'", "Mech (메크)"]),
        ("0 infantry", ["1 이상"]),
        ("-2 infantry", ["1 이상"]),
        ("infantry ×-5", ["1 이상"]),  # the count after ×, never read as 5
        ("歩兵×-3", ["1 이상"]),
        ("보병 −2기", ["1 이상"]),  # a minus sign (U+2212) is a minus
        ("in😀fantry", ["'in😀fantry'", "Infantry (보병)"]),  # a symbol is not dropped to find a name
        ("infantry 😀", ["'infantry 😀'"]),
        ("1e9 infantry", ["정수"]),  # not a new unit named "1e9 infantry"
        ("1.5 infantry", ["정수"]),
        ("보병 x2.5", ["정수"]),
        ("infantry 2.5기", ["정수"]),  # was 5 Infantry II: the dot fell out of the name's key
        ("보병.5", ["정수"]),
        ("infantry 1e3", ["정수"]),
        ("101 infantry", ["최대 100"]),
        ("60 infantry, 41 mech", ["최대 100"]),
        ("", ["유닛을 적어"]),
        ("infantry@11", ["1에서 10"]),
        ("custom@6x11", ["1에서 10개"]),
        ("plasma scorng", ["Plasma Scoring"]),
    ],
)
def test_bad_sides_are_refused_with_a_message(book, spec, words):
    with pytest.raises(UserError) as exc:
        parse_side(spec, book)
    for w in words:
        assert w in exc.value.message


# --- ground combat (70), sustain damage (80) --------------------------------------------------


def test_a_die_hits_at_or_above_the_combat_value_after_modifiers(book):
    battle = play(book, "ground", Loaded([7, 6]), attacker="1 infantry", defender="1 infantry", attacker_mod=1)
    v = battle.steps[0].volleys
    assert v[0].hits == 1 and v[1].hits == 0 and battle.winner == "attacker"


def test_units_with_several_dice_roll_each(book):
    battle = play(book, "ground", Loaded([9, 9, 9, 1, 1, 1]), attacker="1 custom@9x3", defender="3 infantry")
    assert len(battle.steps[0].volleys[0].dice) == 3 and battle.winner == "attacker"


def test_sustain_cancels_a_hit_once_then_the_unit_can_be_destroyed(book):
    battle = play(book, "ground", Loaded([1, 8, 1, 1, 8, 1]), attacker="1 mech", defender="2 infantry")
    first, second = battle.steps[0].volleys[1], battle.steps[1].volleys[1]
    assert [t.result for t in first.taken] == ["sustained"]
    assert [t.result for t in second.taken] == ["destroyed"]  # damaged: cannot sustain again (80.3)
    assert battle.winner == "defender"


def test_non_euclidean_shielding_sustain_cancels_two_hits(book):
    battle = play(book, "ground", Loaded([1, 8, 8]), attacker="1 mech, non-euclidean shielding", defender="2 infantry")
    assert [t.result for t in battle.steps[0].volleys[1].taken] == ["sustained", "sustained"]  # 80.6


def test_hits_go_to_sustain_first_then_infantry_before_mechs(book):
    # attacker dice in loss order: 2 infantry, then the mech; defender's 3 infantry
    battle = play(book, "ground", Loaded([1, 1, 1, 8, 8, 1]), attacker="1 mech, 2 infantry", defender="3 infantry")
    taken = battle.steps[0].volleys[1].taken
    assert [(t.unit, t.result) for t in taken] == [("메크 #1", "sustained"), ("보병 #1", "destroyed")]


def test_a_player_may_choose_another_order(book):
    battle = play(
        book,
        "ground",
        Loaded([1, 1, 1, 8, 1, 1]),
        attacker="2 infantry, 1 custom@9",
        defender="3 infantry",
        attacker_order="custom",
    )
    assert battle.steps[0].volleys[1].taken[0].unit.startswith("custom")


def test_an_order_naming_a_kind_places_every_unit_of_that_kind(book):
    """'flagship' is any faction's flagship, 'dreadnought' a Dreadnought II too: the order a
    player types by kind is the order used, not dropped because the unit has its own entry."""
    by_kind = play(
        book,
        "space",
        Loaded([1] * 4 + [10] * 2),
        attacker="sol flagship, 2 cruiser",
        defender="2 cruiser",
        attacker_order="flagship",
    )
    assert [(t.unit[:4], t.result) for t in by_kind.steps[0].volleys[1].taken] == [
        ("제네시스", "sustained"),
        ("제네시스", "destroyed"),
    ]
    upgraded = play(
        book,
        "space",
        Loaded([1] * 3 + [10] * 2),
        attacker="1 dreadnought ii, 2 cruiser",
        defender="2 cruiser",
        attacker_order="dreadnought",
    )
    assert [t.result for t in upgraded.steps[0].volleys[1].taken] == ["sustained", "destroyed"]
    assert upgraded.steps[0].volleys[1].taken[1].unit.startswith("노급 전함 II")


def test_an_unknown_unit_in_an_order_is_told_to_name_the_sides_units_not_to_add_one(book):
    with pytest.raises(UserError) as refused:
        play(book, "space", Dice(1), attacker="2 cruiser, 1 carrier", defender="1 destroyer", attacker_order="foobar")
    told = refused.value.message
    assert "foobar" in told and "순양함" in told and "우주모함" in told and "@6" not in told


def test_an_order_naming_a_unit_the_side_lacks_is_refused_not_ignored(book):
    """A known unit the side does not have (a typo for another, or the wrong side's): said, so the
    player never reads odds computed with an order that did nothing."""
    with pytest.raises(UserError) as refused:
        play(book, "space", Dice(1), attacker="2 cruiser, 1 carrier", defender="1 destroyer", attacker_order="dreadnought")
    told = refused.value.message
    assert "dreadnought" in told and "순양함" in told and "우주모함" in told
    play(book, "space", Dice(1), attacker="2 cruiser, 1 dreadnought ii", defender="1 destroyer", attacker_order="dreadnought")


def test_valkyrie_sustain_produces_a_hit(book):
    battle = play(book, "ground", Loaded([1, 8, 1]), attacker="1 valkyrie", defender="2 infantry")
    extra = battle.steps[0].volleys[2]
    assert extra.kind == "valkyrie" and extra.side == "attacker" and [t.result for t in extra.taken] == ["destroyed"]


def test_valkyrie_hits_chain_until_none_arise(book):
    # both sides a Valkyrie and an infantry (dice in loss order: infantry, then Valkyrie). The
    # defender's Valkyrie hits: the attacker's Valkyrie sustains and hits back; the defender's
    # Valkyrie sustains and hits back; the attacker's Valkyrie is damaged, so its infantry goes.
    battle = play(book, "ground", Loaded([1, 1, 1, 9]), attacker="1 valkyrie, 1 infantry", defender="1 valkyrie, 1 infantry")
    volleys = battle.steps[0].volleys
    assert [v.kind for v in volleys] == ["combat", "combat", "valkyrie", "valkyrie"]
    results = [(v.side, t.result) for v in volleys for t in v.taken]  # (who rolled or hit back, what it did)
    assert results == [("defender", "sustained"), ("attacker", "sustained"), ("defender", "destroyed")]


def test_both_wiped_out_is_a_draw(book):
    battle = play(book, "ground", Loaded([9, 9]), attacker="1 infantry", defender="1 infantry")
    assert battle.winner == "draw" and battle.as_dict()["survivors"] == {"attacker": [], "defender": []}


def test_sardakk_adds_one_to_combat_rolls(book):
    battle = play(book, "ground", Loaded([7, 1]), attacker="1 infantry, sardakk", defender="1 infantry")
    assert battle.steps[0].volleys[0].dice[0].modifier == 1 and battle.winner == "attacker"


def test_jol_nar_fragile_takes_one_away(book):
    battle = play(book, "ground", Loaded([8, 1] + [1, 1] * 50), attacker="1 infantry, jol-nar", defender="1 infantry")
    assert battle.steps[0].volleys[0].dice[0].modifier == -1 and battle.steps[0].volleys[0].hits == 0


def test_battles_that_cannot_end_are_refused(book):
    with pytest.raises(UserError) as exc:
        play(book, "ground", Dice(1), attacker="2 infantry", defender="2 infantry", attacker_mod=-10, defender_mod=-10)
    assert said("combat.nobody_hits", exc.value.message)
    with pytest.raises(UserError):
        play(book, "ground", Dice(1), attacker="2 infantry", defender="1 dreadnought")


def test_modifiers_beyond_ten_are_refused(book):
    with pytest.raises(UserError) as exc:
        play(book, "ground", Dice(1), attacker="1 infantry", defender="1 infantry", attacker_mod=11)
    assert said("error.out_of_range", exc.value.message, low=-10, high=10)  # as the command table says it for every front end


def test_more_than_100_dice_are_refused(book):
    with pytest.raises(UserError):
        play(book, "ground", Dice(1), attacker="40 custom@5x3", defender="1 infantry")


def test_long_battles_stop_with_a_note(book):
    battle = play(book, "ground", Dice(3), attacker="1 custom@10 sustain", defender="1 custom@10 sustain")
    assert battle.winner in ("attacker", "defender", "draw") or battle.stopped


# --- bombardment (79), planetary shield (86), invasion (75) -----------------------------------


def test_bombardment_ignores_combat_modifiers_and_loses_excess_hits(book):
    battle = play(book, "bombard", Loaded([10, 10, 10, 10]), units="1 war sun, sardakk", target="2 infantry")
    v = battle.steps[0].volleys[0]
    assert all(d.modifier == 0 for d in v.dice)  # 79.1
    assert v.hits == 3 and v.excess == 1 and battle.defender.units == []  # 79.2


def test_planetary_shield_blocks_bombardment_unless_a_war_sun(book):
    blocked = play(book, "bombard", Dice(1), units="2 dreadnought", target="2 infantry, 1 pds")
    assert blocked.steps[0].volleys[0].blocked
    through = play(book, "bombard", Loaded([10, 10, 10]), units="1 war sun", target="2 infantry, 1 pds")
    assert not through.steps[0].volleys[0].blocked and through.steps[0].volleys[0].hits == 3


def test_mechs_sustain_against_bombardment(book):
    battle = play(book, "bombard", Loaded([9]), units="1 dreadnought", target="1 mech")
    assert battle.steps[0].volleys[0].taken[0].result == "sustained"


def test_bombardment_follows_a_given_hit_order(book):
    battle = play(book, "bombard", Loaded([9]), units="1 dreadnought", target="1 mech, 2 infantry", target_order="mech")
    assert battle.steps[0].volleys[0].taken[0].unit.startswith("메크")


def test_space_cannon_fires_at_landed_forces(book):
    battle = play(book, "invade", Loaded([6]), ships="1 carrier", landing="2 infantry", defender="", pds="1 pds")
    cannon = battle.steps[0].volleys[-1]
    assert cannon.kind == "space_cannon_defense" and cannon.hits == 1
    assert battle.control == "attacker" and battle.defender.units == []  # PDS destroyed on control (75.5)
    assert battle.winner is None and not battle.combat  # nobody defended: no ground combat


def test_pds_option_takes_only_space_cannon_units_and_structures(book):
    with pytest.raises(UserError) as exc:
        play(book, "invade", Dice(1), ships="1 carrier", landing="2 infantry", defender="1 infantry", pds="3 infantry")
    assert "pds" in exc.value.message
    battle = play(
        book, "invade", Dice(1), ships="1 carrier", landing="2 infantry", defender="1 infantry", pds="1 xxcha mech, 1 space dock"
    )
    assert battle is not None


def test_invasion_where_all_landing_forces_are_shot_down_has_no_ground_combat(book):
    battle = play(book, "invade", Loaded([6, 6]), ships="1 carrier", landing="2 infantry", defender="3 infantry", pds="2 pds")
    assert not battle.combat and battle.winner is None and battle.control == "defender"
    assert any(t("combat.no_ground_combat") in n for n in battle.notes)


def test_an_invasion_without_ground_combat_names_who_controls_not_no_result(book):
    battle = play(book, "invade", Loaded([6, 6]), ships="1 carrier", landing="2 infantry", defender="3 infantry", pds="2 pds")
    shown = result_line(battle)
    assert t("combat.result.none") not in shown and shown == t("combat.control.defender")
    fought = play(book, "invade", Loaded([9, 9]), ships="1 carrier", landing="1 infantry", defender="1 infantry")
    assert result_line(fought).splitlines()[0] == t("combat.result.draw")


def test_invasion_where_both_are_wiped_out_leaves_control_with_the_defender(book):
    battle = play(book, "invade", Loaded([9, 9]), ships="1 carrier", landing="1 infantry", defender="1 infantry")
    assert battle.winner == "draw" and battle.control == "defender"


def test_invasion_order_bombard_then_cannon_then_combat(book):
    battle = play(book, "invade", Dice(11), ships="1 dreadnought, 1 war sun", landing="3 infantry", defender="2 infantry, 1 pds")
    kinds = [v.kind for v in battle.steps[0].volleys]
    assert kinds == ["bombardment", "space_cannon_defense"]


def test_harrow_is_stopped_by_shields_and_never_hits_own_forces(book):
    battle = play(
        book, "invade", Loaded([1] * 60), ships="2 super-dreadnought, l1z1x", landing="1 infantry", defender="3 infantry, 1 pds"
    )
    harrow = [v for r in battle.steps[1:] for v in r.volleys if v.kind == "harrow"]
    assert harrow and all(v.blocked for v in harrow)  # 86.2
    battle = play(
        book,
        "invade",
        Loaded([1, 1, 1, 1, 1, 9] + [1] * 60),
        ships="1 super-dreadnought, l1z1x",
        landing="2 infantry",
        defender="3 infantry",
    )
    harrow = [v for r in battle.steps for v in r.volleys if v.kind == "harrow"]
    assert harrow and all(t.unit.startswith("보병") for v in harrow for t in v.taken)
    assert all(v.side == "attacker" for v in harrow)  # rolled by L1Z1X against the defender only


# --- fairness and reproducibility ---------------------------------------------------------------


def test_same_seed_same_battle_new_seed_new_dice(book):
    opts = {"attacker": "5 infantry, 2 mech", "defender": "6 보병, 1 mech"}
    one = fight("ground", opts, book, 123456789).as_dict()
    two = fight("ground", opts, book, 123456789).as_dict()
    assert one == two
    others = {json.dumps(fight("ground", opts, book, s).as_dict()["rounds"]) for s in range(5)}
    assert len(others) > 1


def test_seeds_come_from_the_os_and_are_checked():
    seeds = {parse_seed(None) for _ in range(20)}
    assert len(seeds) == 20 and all(0 <= s < 2**63 for s in seeds)
    for bad in ("abc", "-1", str(2**63)):
        with pytest.raises(UserError):
            parse_seed(bad)


def test_d10_is_uniform_chi_square():
    dice = Dice(2024)
    n = 100_000
    counts = [0] * 10
    for _ in range(n):
        counts[dice.roll() - 1] += 1
    expected = n / 10
    chi2 = sum((c - expected) ** 2 / expected for c in counts)
    assert chi2 < 27.88  # df=9, p=0.001


def _exact_attacker_win(a: int, d: int, pa: float, pd: float) -> tuple[float, float]:
    """Exact (P attacker wins, P draw) for identical one-die units, by the round rule 70."""

    def binom(n, p, k):
        return comb(n, k) * p**k * (1 - p) ** (n - k)

    @lru_cache(None)
    def solve(i, j):
        if i == 0 and j == 0:
            return 0.0, 1.0
        if j == 0:
            return 1.0, 0.0
        if i == 0:
            return 0.0, 0.0
        stay = binom(i, pa, 0) * binom(j, pd, 0)
        win = draw = 0.0
        for ha in range(i + 1):
            for hd in range(j + 1):
                if ha == 0 and hd == 0:
                    continue
                p = binom(i, pa, ha) * binom(j, pd, hd)
                w, dr = solve(max(i - hd, 0), max(j - ha, 0))
                win += p * w
                draw += p * dr
        return win / (1 - stay), draw / (1 - stay)

    return solve(a, d)


@pytest.mark.parametrize("a, d", [("1 infantry", "1 infantry"), ("2 infantry", "1 infantry"), ("3 infantry", "2 infantry")])
def test_win_rates_match_exact_probabilities(book, a, d):
    n = 4000
    wins = draws = 0
    for seed in range(n):
        w = fight("ground", {"attacker": a, "defender": d}, book, seed).winner
        wins += w == "attacker"
        draws += w == "draw"
    exact_win, exact_draw = _exact_attacker_win(int(a[0]), int(d[0]), 0.3, 0.3)
    for observed, p in ((wins / n, exact_win), (draws / n, exact_draw)):
        sigma = (p * (1 - p) / n) ** 0.5
        assert abs(observed - p) < 4 * sigma, (observed, p)


def test_roll_expression():
    r = roll_expression("5d10>=7", 1)
    assert len(r.results) == 5 and r.successes == sum(x >= 7 for x in r.results)
    assert roll_expression("5d10>=7", 1).results == r.results
    assert roll_expression("2d6+1", 3).total == sum(roll_expression("2d6", 3).results) + 1
    for bad in ("101d10", "d1", "hello", "5d10>=", "0d10"):
        with pytest.raises(UserError):
            roll_expression(bad, 1)


# --- through the command table, the console and the shell -----------------------------------------


def test_commands_log_the_seed_and_roll_again_replays(compendium, state):
    ctx = Context(compendium, state)
    paged = dispatch(ctx, "combat ground", {"attacker": "3 infantry", "defender": "2 보병", "seed": "77"})
    reply = paged.reply()
    assert "77" in reply.embeds[0].footer
    again = reply.rows[-1][0]
    assert again.custom_id.startswith("combat:again:")
    replay = press(ctx, again.custom_id)
    assert replay.pages[-1].footer != reply.embeds[0].footer  # a new seed
    assert state.conn.execute("select count(*) from rolls").fetchone()[0] == 2
    with pytest.raises(UserError):
        press(ctx, "combat:again:99999")


@pytest.mark.parametrize(
    "logged",
    [
        {"command": "combat ground", "options": {"attacker": "3 infantry", "defender": "2 보병", "rounds": 999}},
        {"command": "combat ground", "options": {"attacker": "3 infantry", "defender": "2 보병", "renamed": "x"}},
        {"command": "combat melee", "options": {"attacker": "3 infantry"}},
    ],
)
def test_a_roll_logged_by_an_older_version_is_replayed_checked(compendium, state, logged):
    import json

    ctx = Context(compendium, state)
    roll_id = state.log_roll("g", "c", "u", json.dumps(logged), "1", "old")
    with pytest.raises(UserError):  # a sentence, not a crash or an unchecked value
        press(ctx, f"combat:again:{roll_id}")


def test_command_options_are_checked(compendium, state):
    ctx = Context(compendium, state)
    with pytest.raises(UserError) as exc:
        dispatch(ctx, "combat ground", {"attacker": "1 infantry", "defender": "1 infantry", "attacker_mod": "+11"})
    assert "attacker_mod" in exc.value.message
    with pytest.raises(UserError):
        dispatch(ctx, "combat ground", {"attacker": "1 infantry"})


def test_cli_json(cli_env):
    out = run_bot(
        ["combat", "ground", "--attacker", "3 infantry, 1 mech", "--defender", "4 보병", "--seed", "42", "--json"], cli_env
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["seed"] == 42 and data["winner"] in ("attacker", "defender", "draw")
    assert {"rounds", "survivors"} <= set(data)
    assert all("dice" in v and "hits" in v for r in data["rounds"] for v in r["volleys"])
    bad = run_bot(["combat", "ground", "--attacker", "3 mek", "--defender", "1 infantry"], cli_env)
    assert bad.returncode == 1 and "Mech (메크)" in bad.stderr and "Traceback" not in bad.stderr


def test_long_battle_logs_page_within_discord_limits(book):
    from tabletop.combat.report import battle_pages
    from tabletop.core.payloads import check_limits

    battle = fight("ground", {"attacker": "100 infantry", "defender": "100 보병"}, book, 2024)
    paged = battle_pages(battle, again_id="combat:again:1")
    assert len(paged.pages) > 1
    for reply in paged.replies():
        assert check_limits(reply) == []
    text = "".join(p.description for p in paged.pages)
    assert text.count("라운드") == len(battle.steps)


@pytest.mark.parametrize(
    "spec, expected",
    [
        ("2 dreads", ["dreadnought"] * 2),
        ("flagships", ["flagship"]),
        ("space docks", ["space-dock"]),
        ("3 infantries", ["infantry"] * 3),
        ("2 pdss", ["pds"] * 2),
        ("솔 기함", ["sol-flagship"]),
        ("레트네브 메크", ["letnev-mech"]),
    ],
)
def test_plurals_and_what_players_call_faction_units(book, spec, expected):
    assert [u.id for u in side(book, spec).units] == expected


def test_hel_titan_ii_fires_one_space_cannon_die(book):
    """Hel-Titan II: Space Cannon 5, one die (the faction technology card), not three."""
    titan = side(book, "hel-titan-2").units[0]
    assert titan.space_cannon is not None and (titan.space_cannon.value, titan.space_cannon.dice) == (5, 1)


def test_space_cannon_before_space_combat_is_offense_and_at_landing_defense(book):
    from tabletop.combat.report import battle_pages

    space = play(book, "space", Loaded([9]), attacker="2 cruiser", defender="1 destroyer, 1 pds")
    offense = [v for step in space.steps for v in step.volleys if v.kind.startswith("space_cannon")]
    assert offense and offense[0].kind == "space_cannon_offense"
    shown = printed(battle_pages(space).reply())
    assert t("combat.kind.space_cannon_offense") in shown and t("combat.kind.space_cannon_defense") not in shown


@pytest.mark.parametrize(
    "options, key, values",
    [
        ({"ships": "2 infantry", "landing": "2 infantry", "defender": ""}, "combat.landing_needs_ships", {}),
        ({"ships": "1 carrier", "landing": "2 infantry", "defender": "", "pds": "5 pds"}, "combat.too_many_pds", {"limit": 2}),
        (
            {"ships": "1 carrier", "landing": "2 infantry", "defender": "2 pds", "pds": "1 pds"},
            "combat.too_many_pds",
            {"count": 3},
        ),
    ],
)
def test_invasions_the_rules_do_not_allow_are_refused(book, options, key, values):
    with pytest.raises(UserError) as exc:
        build_fight("invade", options, book)
    assert said(key, exc.value.message, **values)


@pytest.mark.parametrize(
    "spec, unit, combat, dice",
    [
        ("artemiris", "keleres-flagship", 7, 2),
        ("켈레레스 메크", "keleres-mech", 6, 1),
        ("crimson legionnaire", "crimson-legionnaire", 8, 1),
        ("진홍 군단병 II", "crimson-legionnaire-2", 7, 1),
        ("floating factory ii", "floating-factory-2", None, 1),
        ("dimensional tear2", "dimensional-tear-2", None, 1),
    ],
)
def test_faction_units_added_from_their_cards(book, spec, unit, combat, dice):
    [made] = parse_side(spec, book).units
    assert (made.id, made.combat, made.dice) == (unit, combat, dice)


def test_full_width_dice_read_as_their_plain_forms():
    """A phone's keyboard may type ５ｄ１０: it rolls what 5d10 rolls, as ٥d١٠ already did."""
    assert roll_expression("５ｄ１０＞＝７", 1).results == roll_expression("5d10>=7", 1).results
    assert roll_expression("\u202e5d10", 1).results == roll_expression("5d10", 1).results


def test_bidirectional_overrides_in_a_side_are_dropped(book):
    """An override character (U+202E) typed before a count reorders nothing and hides no unit."""
    from tabletop.combat.units import parse_side

    names = lambda side: [u.id for u in side.units]  # noqa: E731 (units compare by identity)
    plain = parse_side("2 infantry, 1 mech", book, "attacker")
    assert names(parse_side("\u202e2 infantry,\u2066 1 mech\u200b", book, "attacker")) == names(plain)
    assert len(plain.units) == 3


def test_a_modifier_past_a_hundred_is_refused_with_its_limit():
    from tabletop.core.errors import UserError

    with pytest.raises(UserError) as err:
        roll_expression("5d10+101", 1)
    assert "100" in err.value.message and "5d10+101" not in err.value.message
    assert roll_expression("5d10+100", 1).modifier == 100


def test_a_suggestion_names_the_unit_in_the_askers_language(book):
    from tabletop.core.i18n import speaking

    with speaking("ko"):
        assert any("(메크)" in s for s in book.suggest("mek"))
    with speaking("en"):
        assert "Mech" in book.suggest("mek") and not any("메크" in s for s in book.suggest("mek"))


def test_a_unit_whose_value_depends_on_the_board_asks_for_it(book):
    with pytest.raises(UserError) as asked:
        parse_side("1 egeiro", book)
    assert "egeiro@7" in asked.value.message
    egeiro = parse_side("egeiro@6", book).units[0]
    assert (egeiro.id, egeiro.combat, egeiro.dice, egeiro.sustain) == ("bastion-flagship", 6, 1, True)


def test_a_galvanized_unit_rolls_one_more_die_for_combat_and_for_its_abilities(book):
    side = parse_side("2 galvanized infantry, 1 infantry, 갈바나이즈된 PDS, ガルバナイズ 駆逐艦", book)
    dice = {
        u.name("en"): (u.dice, u.space_cannon and u.space_cannon.dice, u.anti_fighter_barrage and u.anti_fighter_barrage.dice)
        for u in side.units
    }
    assert dice["Galvanized Infantry"] == (2, None, None) and dice["Infantry"] == (1, None, None)
    assert dice["Galvanized PDS"][1] == 2 and dice["Galvanized Destroyer"][2] == 3


def test_galvanized_odds_are_those_of_a_unit_with_one_more_die(book):
    from tabletop.combat import odds

    galvanized = odds.solve(build_fight("ground", {"attacker": "2 galvanized infantry", "defender": "3 infantry"}, book))
    same_dice = odds.solve(build_fight("ground", {"attacker": "2 g@8x2", "defender": "3 infantry"}, book))
    assert abs(galvanized.attacker - same_dice.attacker) < 1e-12 and abs(galvanized.defender - same_dice.defender) < 1e-12


def test_plain_units_are_lost_before_galvanized_ones_unless_an_order_says(book):
    from tabletop.combat.model import loss_key

    side = parse_side("1 galvanized infantry, 1 infantry, 1 mech", book)
    default = sorted(side.units, key=loss_key([]))
    assert [u.id for u in default] == ["infantry", "infantry+galvanized", "mech"]
    ordered = sorted(side.units, key=loss_key(parse_order("mech, infantry", book, side)))
    assert [u.id for u in ordered] == ["mech", "infantry", "infantry+galvanized"]  # "infantry" names both
    galvanized_first = sorted(side.units, key=loss_key(parse_order("galvanized infantry", book, side)))
    assert galvanized_first[0].id == "infantry+galvanized"


def test_a_draw_cites_the_ground_combat_rule_only_in_ground_combat(book):
    """70.4 is ground combat's rule; the glossary has no entry for space combat, so a space draw
    cites none."""
    from tabletop.combat.resolver import resolve
    from tabletop.core.dice import Dice

    for kind, unit, cited in (("space", "1 cruiser", False), ("ground", "1 infantry", True)):
        the_fight = build_fight(kind, {"attacker": unit, "defender": unit}, book)
        draw = next(b for b in (resolve(the_fight, Dice(s)) for s in range(200)) if b.winner == "draw")
        assert ("70.4" in result_line(draw)) is cited, kind


def test_other_times_signs_and_a_unit_named_with_dots_are_read(book):
    assert [len(side(book, s).units) for s in ("보병✕3", "歩兵✖3", "2⨯infantry", "2 [0.0.1]", "2 Mk2.5@6")] == [3, 3, 2, 2, 2]


def test_a_unit_both_ship_and_ground_force_may_stand_on_the_planet(book):
    fight = build_fight(
        "invade", {"ships": "1 carrier", "landing": "2 infantry", "defender": "1 infantry, eidolon maximum"}, book
    )
    assert any(u.id == "naazrokha-eidolon-maximum" for u in fight.defender.units)
    assert build_fight("bombard", {"units": "2 dreadnought", "target": "2 infantry, eidolon maximum"}, book)


@pytest.mark.parametrize(
    "kind, spec, ship",
    [
        ("bombard", {"units": "2 dreadnought", "target": "2 infantry, 1 war sun"}, "전쟁 태양"),
        ("invade", {"ships": "1 carrier", "landing": "2 infantry", "defender": "1 infantry, 1 cruiser"}, "순양함"),
    ],
)
def test_a_ship_on_the_planets_side_is_refused_not_fought(book, kind, spec, ship):
    """Bombardment hits ground forces and an invasion's defender is the planet: a ship typed there
    is said, not given hits that vanish."""
    with pytest.raises(UserError) as exc:
        build_fight(kind, spec, book)
    assert ship in exc.value.message and "행성" in exc.value.message


def test_a_loss_order_may_name_a_structure_that_fights_on_the_planet(book):
    """The Hel-Titan is a PDS and a ground force: named in the defender's loss order, it is on
    that side (it was refused as absent: the order was read before the structures joined)."""
    options = {"ships": "2 dreadnought", "landing": "4 infantry", "defender": "2 infantry", "pds": "1 hel-titan"}
    fight = build_fight("invade", {**options, "defender_order": "hel-titan"}, book)
    assert fight.defender.order == ["hel-titan"]
    assert "hel-titan" in [u.id for u in fight.defender.units]
    with pytest.raises(UserError):  # a unit on no side is still refused
        build_fight("invade", {**options, "defender_order": "mech"}, book)


@pytest.mark.parametrize(
    "attacker, content, effect, unit",
    [
        ("naalu mech, iconoclast bonus", "te", "naalu-mech-bonus", "naalu-mech"),
        ("2 infantry, mordred bonus", "pok", "nekro-mech-bonus", "nekro-mech"),
    ],
)
def test_a_units_bonus_without_that_unit_is_refused_with_why(attacker, content, effect, unit):
    """The Thunder's Edge Iconoclast has no bonus, and a Mordred bonus needs a Nekro mech: the
    figures came back without them, silently."""
    from tabletop.combat.commands import unit_book as table_book

    book = table_book(content)
    with pytest.raises(UserError) as refused:
        build_fight("ground", {"attacker": attacker, "defender": "2 infantry"}, book)
    told = t("combat.bonus_needs_unit", effect=book.effect_label(effect), unit=book.make(unit, 1).name())
    assert refused.value.message == told
    for kept in ("nekro mech, mordred bonus", "naalu mech, iconoclast bonus"):  # with the unit, it counts
        build_fight("ground", {"attacker": kept, "defender": "2 infantry"}, table_book("pok"))
