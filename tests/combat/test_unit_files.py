"""The unit files: every field checked by type, problems named with file, unit and field, and
broken unit data stopping only combat, never rules answers."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabletop.core.errors import UserError


def _unit_folder(tmp_path, *files: str):
    folder = tmp_path / "data" / "units"
    folder.mkdir(parents=True)
    for i, body in enumerate(files):
        (folder / f"f{i}.yaml").write_text(body, encoding="utf-8")
    return folder


def _problems(folder) -> list[str]:
    from tabletop.combat.unitdata import UnitDataError, load_unit_tables

    with pytest.raises(UnitDataError) as exc:
        load_unit_tables(folder)
    return exc.value.messages


def test_a_malformed_unit_file_is_refused_naming_file_unit_and_field(tmp_path):
    msgs = _problems(
        _unit_folder(
            tmp_path,
            "game: ti4\nunits:\n- {id: infantry, names: {en: Infantry}, type: infantry, combat: eight, source: x}\n"
            "- {id: mech, names: {en: Mech}, type: robot, combat: 6, source: x, colour: red}\n"
            "effects:\n- {id: x, names: {en: X}, kind: rumour, source: y}\n",
        )
    )
    assert "data/units/f0.yaml: unit infantry: 'combat' must be a whole number from 1 to 10" in msgs
    assert any(m.startswith("data/units/f0.yaml: unit mech: 'type' must be one of") for m in msgs)
    assert "data/units/f0.yaml: unit mech: unknown field 'colour'" in msgs
    assert any(m.startswith("data/units/f0.yaml: effect x: 'kind' must be one of") for m in msgs)


@pytest.mark.parametrize(
    ("entry", "field"),
    [
        ("{id: a, names: {en: 5}, type: infantry, source: x}", "names"),
        ("{id: a, names: {en: A, xx: B}, type: infantry, source: x}", "names"),
        ("{id: a, names: {en: A}, aliases: [5], type: infantry, source: x}", "aliases"),
        ("{id: a, names: {en: A}, abilities: 5, type: infantry, source: x}", "abilities"),
        ("{id: a, names: {en: A}, abilities: [flies], type: infantry, source: x}", "abilities"),
        ("{id: a, names: {en: A}, type: infantry, sustain: 'yes', source: x}", "sustain"),
        ("{id: a, names: {en: A}, type: infantry, space_cannon: {value: 5}, source: x}", "space_cannon"),
        ("{id: a, names: {en: A}, type: infantry, cost: -1, source: x}", "cost"),
        ("{id: a, names: {en: A}, type: infantry, source: 5}", "source"),
    ],
)
def test_every_unit_field_is_checked_by_type(tmp_path, entry, field):
    msgs = _problems(_unit_folder(tmp_path, f"game: ti4\nunits:\n- {entry}\n"))
    assert any(m.startswith(f"data/units/f0.yaml: unit a: '{field}' must be") for m in msgs), msgs


@pytest.mark.parametrize(
    ("effect", "field"),
    [
        ("unit_bonus: {foo: bar}", "unit_bonus"),
        ("unit_bonus: {unit: infantry, value: many}", "unit_bonus"),
        ("extra_die: [everything]", "extra_die"),
        ("combat_modifier: '+1'", "combat_modifier"),
        ("opening_hit: always", "opening_hit"),
    ],
)
def test_every_effect_field_is_checked_by_type(tmp_path, effect, field):
    body = f"game: ti4\nunits: []\neffects:\n- {{id: e, names: {{en: E}}, kind: technology, source: x, {effect}}}\n"
    msgs = _problems(_unit_folder(tmp_path, body))
    assert any(m.startswith(f"data/units/f0.yaml: effect e: '{field}' must be") for m in msgs), msgs


def test_a_file_of_the_wrong_shape_and_ids_repeated_across_files_are_named(tmp_path):
    one = "game: ti4\nunits:\n- {id: infantry, names: {en: Infantry}, type: infantry, source: x}\n"
    msgs = _problems(_unit_folder(tmp_path, one, one, "game: ti4\nunits: 5\n"))
    assert "data/units/f1.yaml: unit infantry: 'id' is already used in data/units/f0.yaml" in msgs
    assert "data/units/f2.yaml: 'units' must be a list of entries" in msgs


def test_a_unit_bonus_names_a_unit_of_the_game(tmp_path):
    body = (
        "game: ti4\nunits:\n- {id: infantry, names: {en: Infantry}, type: infantry, source: x}\n"
        "effects:\n- {id: e, names: {en: E}, kind: technology, source: x, unit_bonus: {unit: nobody, value: 2}}\n"
    )
    assert _problems(_unit_folder(tmp_path, body)) == ["data/units/f0.yaml: effect e: 'unit_bonus' names no unit 'nobody'"]


def test_a_name_that_could_not_be_typed_whole_is_refused(tmp_path):
    """A side is split at , + ; and their full-width forms: a name holding one would never be found."""
    body = "game: ti4\nunits:\n- {id: a, names: {en: 'Nebula (+1)'}, type: mech, source: x}\n"
    [problem] = _problems(_unit_folder(tmp_path, body))
    assert problem.startswith("data/units/f0.yaml: unit a: 'names' must be") and "+" in problem


def test_a_replacement_names_its_content_and_an_entry_of_its_kind(tmp_path):
    unit = "- {id: mech, names: {en: Mech}, type: mech, source: x}\n"
    body = (
        f"game: ti4\nunits:\n{unit}"
        "- {id: a, names: {en: A}, type: mech, source: x, replaces: mech}\n"  # no content
        "- {id: b, names: {en: B}, type: mech, source: x, content: te, replaces: nobody}\n"
    )
    problems = _problems(_unit_folder(tmp_path / "1", body))
    assert "data/units/f0.yaml: unit a: 'replaces' needs 'content' and an entry of its kind" in problems
    assert "data/units/f0.yaml: unit b: 'replaces' needs 'content' and an entry of its kind" in problems
    no_such = f"game: ti4\nunits:\n{unit}- {{id: c, names: {{en: C}}, type: mech, source: x, content: codex}}\n"
    assert _problems(_unit_folder(tmp_path / "2", no_such)) == ["data/units/f0.yaml: unit c: 'content' must be one of te"]


def test_the_shipped_unit_files_pass_and_every_effect_field_is_an_effects_attribute():
    from tabletop.combat.unitdata import DESCRIPTIVE, EFFECT_FIELDS, load_unit_tables
    from tabletop.combat.units import Effects

    assert len(load_unit_tables()["ti4"]) > 100
    assert set(EFFECT_FIELDS) - DESCRIPTIVE == set(Effects.__dataclass_fields__)


def test_broken_unit_data_stops_combat_with_a_sentence_and_never_the_rules(tmp_path, monkeypatch, compendium, state):
    from tabletop.combat import unitdata
    from tabletop.core.commands import Context, dispatch

    folder = _unit_folder(tmp_path, "game: ti4\nunits:\n- {id: a, names: {en: 5}, type: infantry, source: x}\n")
    monkeypatch.setattr(unitdata, "UNITS_DIR", folder)
    ctx = Context(compendium, state)
    with pytest.raises(UserError) as exc:
        dispatch(ctx, "combat ground", {"attacker": "1 infantry", "defender": "1 infantry"})
    assert "1" in exc.value.message and "data/units/f0.yaml: unit a: 'names' must be" in exc.value.message
    assert "79" in dispatch(ctx, "rule", {"query": "79"}).reply().embeds[0].title


def test_a_unit_bonus_naming_an_effect_is_refused(tmp_path):
    body = (
        "game: ti4\nunits:\n- {id: infantry, names: {en: Infantry}, type: infantry, source: x}\n"
        "effects:\n- {id: e, names: {en: E}, kind: technology, source: x, unit_bonus: {unit: e, value: 2}}\n"
    )
    assert _problems(_unit_folder(tmp_path, body)) == ["data/units/f0.yaml: effect e: 'unit_bonus' names no unit 'e'"]


# Our Thunder's Edge units by AsyncTI4's id for them (its data file is the list checked against).
THUNDERS_EDGE = {
    "bastion-flagship": "bastion_flagship",
    "deepwrought-flagship": "deepwrought_flagship",
    "deepwrought-mech": "deepwrought_mech",
    "crimson-mech": "crimson_mech",
    "crimson-destroyer": "crimson_destroyer",
    "crimson-destroyer-2": "crimson_destroyer2",
    "obsidian-flagship": "obsidian_flagship",
    "firmament-mech": "firmament_mech",
    "obsidian-mech": "obsidian_mech",
    "mentak-corsair": "mentak_cruiser3",
    "naalu-mech-te": "naalu_mech_te",
    "bastion-mech": "bastion_mech",
    "crimson-flagship": "crimson_flagship",
    "ralnel-flagship": "ralnel_flagship",
    "ralnel-mech": "ralnel_mech",
    "ralnel-destroyer": "ralnel_destroyer",
    "ralnel-destroyer-2": "ralnel_destroyer2",
    "firmament-flagship": "firmament_flagship",
    "naazrokha-eidolon-maximum": "naaz_voltron",
}


def test_thunders_edge_units_have_the_values_asyncti4_lists():
    import yaml

    from tabletop.combat.units import unit_book

    reference = yaml.safe_load((Path(__file__).with_name("te_units_asyncti4.yaml")).read_text("utf-8"))
    book = unit_book("ti4")
    for ours, theirs in THUNDERS_EDGE.items():
        unit, listed = book.make(ours, 1), reference[theirs]
        assert (unit.combat, unit.dice, unit.sustain) == (listed["combat"], listed["dice"], listed["sustain"]), ours
        assert listed["cost"] is None or unit.cost == listed["cost"], ours  # the Eidolon Maximum has none there
        barrage = listed["anti_fighter_barrage"]
        assert (unit.anti_fighter_barrage is None) == (barrage is None), ours
        if barrage:
            assert (unit.anti_fighter_barrage.value, unit.anti_fighter_barrage.dice) == (barrage["value"], barrage["dice"]), ours


def test_every_unit_is_named_in_three_languages_and_found_by_each():
    from tabletop.combat.units import unit_book

    book = unit_book("ti4")
    for uid, row in book.units.items():
        assert set(row["names"]) >= {"ko", "en", "ja"}, uid
        for name in row["names"].values():
            assert book.find(name) == ("units", uid), (uid, name)


@pytest.mark.parametrize("spec", ["3 歩兵", "3歩兵", "歩兵×3", "歩兵3体", "インファントリー 3"])
def test_japanese_players_name_and_count_units_their_way(spec):
    from tabletop.combat.units import parse_side, unit_book

    side = parse_side(spec, unit_book("ti4"))
    assert [u.id for u in side.units] == ["infantry"] * 3


@pytest.mark.parametrize(
    "spec, expected",
    [
        ("infantry×2", [("infantry", 8)] * 2),
        ("보병×2", [("infantry", 8)] * 2),
        ("歩兵×2", [("infantry", 8)] * 2),
        ("dread×2", [("dreadnought", 5)] * 2),
        ("infantry@2", [("infantry", 2)]),
        ("보병@2", [("infantry", 2)]),
        ("3 infantry @2", [("infantry", 2)] * 3),
        ("viper ex-23", [("firmament-mech", 6)]),
        ("2 exile ii", [("crimson-destroyer-2", 7)] * 2),
        ("dread2", [("dreadnought-2", 5)]),
    ],
)
def test_a_count_or_value_after_a_name_is_never_read_as_an_upgrade(spec, expected):
    from tabletop.combat.units import parse_side, unit_book

    assert [(u.id, u.combat) for u in parse_side(spec, unit_book("ti4")).units] == expected


def test_every_spelling_the_rules_lexicon_gives_a_unit_names_it_in_combat():
    """`dread` fought and `ドレッド` was refused: every form the TI4 pack's lexicon gives a unit
    (its term, names and players' spellings, in any language) names the unit here too."""
    from tabletop.combat.units import unit_book
    from tabletop.core.paths import RULES_DIR
    from tabletop.rules.packs import load_pack

    book = unit_book("ti4")
    by_name = {(row.get("names") or {}).get("en", "").lower(): uid for uid, row in book.units.items()}
    missing, checked = [], 0
    for term in load_pack(RULES_DIR / "ti4").lexicon:
        uid = by_name.get(term.names.get("en", "").lower())
        for form in (term.term, *term.names.values(), *term.spellings) if uid else ():
            checked += 1
            if book.find(form) != ("units", uid):
                missing.append((uid, form))
    assert checked > 40 and not missing
