"""Rule packs: schema validation with precise messages, and fidelity to the seed documents."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from fidelity import PACK_SEEDS, compare, pack_lines, seed_lines

from tabletop.core.paths import RULES_DIR
from tabletop.packimport.fidelity import first_difference, squash
from tabletop.rules.packs import PackError, load_pack, load_packs


def test_every_pack_validates():
    packs = load_packs(RULES_DIR)
    assert {p.id for p in packs} >= {"ti4"}
    for p in packs:
        assert set(p.names) >= {"ko", "en", "ja"}
        assert p.sections


def test_ti4_has_all_28_sections_with_english_names():
    ti4 = load_pack(RULES_DIR / "ti4")
    assert [s.number for s in ti4.sections] == list(range(62, 90))
    names = {s.number: s.name_en for s in ti4.sections}
    assert names[80] == "Sustain Damage" and names[75] == "Invasion" and names[79] == "Bombardment"
    assert all(names.values())
    s79 = next(s for s in ti4.sections if s.number == 79)
    assert s79.title == "폭격" and s79.kind == "유닛 능력"
    assert "지상 전투" in next(s for s in ti4.sections if s.number == 70).aliases


def test_ti4_structure_keeps_steps_subheadings_and_related():
    ti4 = load_pack(RULES_DIR / "ti4")
    s62 = next(s for s in ti4.sections if s.number == 62)
    r622 = s62.rule("62.2")
    assert [i.kind for i in r622.items] == ["step", "step", "step"]
    assert s62.rule("62.17").heading == "결과" and not s62.rule("62.17").text
    s85 = next(s for s in ti4.sections if s.number == 85)
    assert s85.rule("85.5").heading == "행성 카드"
    assert s62.related == ("게임 라운드", "수호자 토큰", "영향력")
    s87 = next(s for s in ti4.sections if s.number == 87)
    assert s87.rule("87.3") is not None  # the seed's "873"


@pytest.mark.parametrize("pack_id", sorted(PACK_SEEDS))
def test_pack_text_is_the_seed_text_in_order(pack_id):
    """Every character of the seed, in order, once; nothing added (whitespace aside)."""
    pack = load_pack(RULES_DIR / pack_id)
    seed, ours = squash(seed_lines(pack_id)), squash(pack_lines(pack))
    assert seed == ours, first_difference(seed, ours)


def test_ti4_lines_are_the_seed_lines_exactly_once():
    pack = load_pack(RULES_DIR / "ti4")
    missing, extra = compare(pack)
    assert not missing, f"seed lines missing from the pack: {list(missing)[:5]}"
    assert not extra, f"pack lines not in the seed: {list(extra)[:5]}"


def test_fidelity_check_catches_an_edit():
    pack = load_pack(RULES_DIR / "ti4")
    lines = pack_lines(pack)
    assert lines.count("79 폭격 (유닛 능력)") == 1
    assert "87.3 플레이어는 다른 플레이어의 지휘 토큰이 올려져 있는 성계를 활성화 할 수 있습니다." in seed_lines("ti4")
    # a paraphrase shows up as both a missing and an extra line
    s = pack.sections[0]
    r = s.rules[0]
    edited = type(r)(r.id, r.text.replace("무시됩니다", "무시합니다"), r.heading, r.items)
    s2 = type(s)(**{**s.__dict__, "rules": (edited, *s.rules[1:])})
    p2 = type(pack)(**{**pack.__dict__, "sections": (s2, *pack.sections[1:])})
    missing, extra = compare(p2)
    assert len(missing) == 1 and len(extra) == 1


def test_editor_notes_are_separate_from_text_and_labelled_once_in_every_language(compendium):
    from tabletop.core.i18n import speaking, t
    from tabletop.rules import answers

    pack = load_pack(RULES_DIR / "ti4")
    s74 = next(s for s in pack.sections if s.number == 74)
    assert "소행성 지대" in s74.rules[0].text
    note = s74.rules[0].editor_note
    assert "초신성" in note["ko"] and "편집자" not in note["ko"]  # the label is the UI's
    for locale, words in (("ko", "초신성"), ("en", "supernova"), ("ja", "超新星")):
        label = t("editor_note", locale)
        with speaking(locale):
            for query in ("70", "74.1"):
                shown = answers.lookup(compendium, query, "ti4").reply()
                page = shown.content + "".join(e.description or "" for e in shown.embeds)
                assert page.count(label) == 1 and (locale == "ko" or t("editor_note", "ko") not in page), (locale, query)
            # the note itself in the reader's language, and the document's description in a missing topic's reply
            assert words in answers.lookup(compendium, "74.1", "ti4").reply().embeds[0].description
            missing = answers.lookup(compendium, "의장", "ti4").reply()
            text = missing.content + "".join(e.description or "" for e in missing.embeds)
            assert ("용어 사전" in text) is (locale == "ko"), (locale, text)


def test_a_note_or_description_is_plain_text_or_one_for_each_language():
    from tabletop.core.i18n import speaking
    from tabletop.rules.packs import in_language, localized

    both = localized({"ko": "한국어", "en": "English"})
    shown = []
    for locale in ("en", "ko", "ja"):
        with speaking(locale):
            shown.append((in_language(localized("원문은 …")), in_language(both)))
    # plain text is the pack's own, for every reader; given per language, each reader's, else any
    assert shown == [("원문은 …", "English"), ("원문은 …", "한국어"), ("원문은 …", "한국어")]


# --- validation messages --------------------------------------------------------------------


@pytest.fixture
def rules_copy(tmp_path) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(RULES_DIR / "ti4", root / "rules" / "ti4")
    return root / "rules"


def _edit(path: Path, change):
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")


def _messages(rules_dir: Path) -> list[str]:
    """The problems, each naming its file by the path the rules folder was given (read here
    from the copy's parent, as the checkout's own rules/ is named)."""
    with pytest.raises(PackError) as exc:
        load_packs(rules_dir)
    given = f"{rules_dir.parent}/"
    assert all(m.startswith(given) for m in exc.value.messages), exc.value.messages
    return [m.replace(given, "") for m in exc.value.messages]


def test_missing_rule_text_names_file_section_rule_and_field(rules_copy):
    _edit(rules_copy / "ti4" / "79.yaml", lambda d: (d["rules"][0].pop("text"), d["rules"][0].pop("items")))
    assert "rules/ti4/79.yaml: section 79, rule 79.1: 'text' is missing" in _messages(rules_copy)


def test_unknown_and_mistyped_fields(rules_copy):
    def change(d):
        d["titel"] = "오타"
        d["number"] = "여든"
        d["rules"][1]["items"] = [{"bulet": "x"}]

    _edit(rules_copy / "ti4" / "80.yaml", change)
    msgs = _messages(rules_copy)
    assert "rules/ti4/80.yaml: section 80: unknown field 'titel'" in msgs
    assert "rules/ti4/80.yaml: section 80: 'number' must be a whole number, 0 or more" in msgs
    assert any(m.startswith("rules/ti4/80.yaml: section 80, rule 80.2: item #1") for m in msgs)


def test_broken_yaml_and_duplicates(rules_copy):
    (rules_copy / "ti4" / "81.yaml").write_text("id: '81'\nrules: [unclosed\n", encoding="utf-8")
    shutil.copy(rules_copy / "ti4" / "82.yaml", rules_copy / "ti4" / "82-copy.yaml")
    msgs = _messages(rules_copy)
    assert any(m.startswith("rules/ti4/81.yaml: line") and "not valid YAML" in m for m in msgs)
    assert "rules/ti4/82.yaml: section 82: 'id' is also used by rules/ti4/82-copy.yaml" in msgs


def test_rule_ids_must_belong_to_their_section(rules_copy):
    _edit(rules_copy / "ti4" / "79.yaml", lambda d: d["rules"][1].update(id="97.2"))
    assert any("rule 97.2: 'id' must be 79.N" in m for m in _messages(rules_copy))


def test_pack_yaml_is_checked(rules_copy):
    _edit(rules_copy / "ti4" / "pack.yaml", lambda d: (d.pop("credit"), d["names"].pop("ja")))
    msgs = _messages(rules_copy)
    assert "rules/ti4/pack.yaml: pack: 'credit' is missing" in msgs
    assert "rules/ti4/pack.yaml: pack: 'names' must give a name in ko, en and ja" in msgs


def test_lexicon_entries_are_checked(rules_copy):
    def change(d):
        d["terms"][0]["spelings"] = ["오타"]
        d["terms"][1]["words"] = "배"
        d["terms"][2]["broader"] = ["없는 용어"]
        d["terms"].append({"term": d["terms"][3]["term"]})
        d["terms"].append({"names": {"en": "No term"}})

    _edit(rules_copy / "ti4" / "lexicon.yaml", change)
    msgs = _messages(rules_copy)
    assert "rules/ti4/lexicon.yaml: term #1 (유닛): unknown field 'spelings'" in msgs
    assert "rules/ti4/lexicon.yaml: term #2 (함선): 'words' must be a list of non-empty texts" in msgs
    assert "rules/ti4/lexicon.yaml: term '육군': 'broader' names '없는 용어', which is not a term of this lexicon" in msgs
    assert any(m.endswith("'term' repeats term #4") for m in msgs)
    assert any(m.endswith("'term' is missing") for m in msgs)


def test_every_pack_has_a_lexicon_and_its_forms_are_clean():
    for pack in load_packs(RULES_DIR):
        assert len(pack.lexicon) >= 10, pack.id
        for term in pack.lexicon:
            assert all(f.strip() == f and f for f in term.forms), term.term


def test_a_key_given_twice_is_refused_with_the_file_and_line(tmp_path):
    shutil.copytree(RULES_DIR / "ti4", tmp_path / "rules" / "ti4")
    section = tmp_path / "rules" / "ti4" / "69.yaml"
    lines = section.read_text(encoding="utf-8").count("\n")
    with section.open("a", encoding="utf-8") as f:
        f.write("related:\n- 지휘 토큰\n")
    with pytest.raises(PackError) as caught:
        load_packs(tmp_path / "rules")
    (message,) = caught.value.messages
    assert message.startswith(f"{tmp_path}/rules/ti4/69.yaml: line {lines + 1}") and "'related'" in message
