"""Search cards: every bundled section has one, none copies a query file, the model finds each
card question's own section, a bad card is refused with its file named, and a reader of another
language than the pack's sees the summary labelled as ours."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from rapidfuzz import fuzz

from tabletop.core import text
from tabletop.core.i18n import speaking, t
from tabletop.core.paths import RULES_DIR
from tabletop.rules import answers, cardcheck, cards
from tabletop.rules.packs import PackError, load_pack, load_packs

ROOT = Path(__file__).resolve().parents[2]
# every query file a card must not be written from: the project's and the shared ones beside a
# checkout (a user's clone has only the project's)
QUERY_FILES = sorted((ROOT / "tests" / "eval").glob("*.yaml")) + sorted((ROOT.parent / "shared" / "eval").glob("*.yaml"))
NEAR_COPY = 90  # rapidfuzz token_set_ratio, after normalising
# token_set_ratio is 100 whenever one side's words are a subset of the other's: a one-word query
# (행성) would "copy" every card question that uses the word. A copy is nearly as long as what it
# copies, so the shorter side must hold at least half the longer's characters.
COPY_LENGTH = 0.5


def near_copy(mine: str, other: str) -> bool:
    short, long_ = sorted((len(mine), len(other)))
    return short >= COPY_LENGTH * long_ and fuzz.token_set_ratio(mine, other) >= NEAR_COPY


def _normal(question: str) -> str:
    return " ".join(text.normalize(question).strip(" ?？!！.。").split())


def _queries() -> list[str]:
    out = []
    for path in QUERY_FILES:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or []
        items = data.get("queries", []) if isinstance(data, dict) else data
        out += [_normal(str(q["q"])) for q in items if isinstance(q, dict) and q.get("q")]
    return out


def test_a_near_copy_is_nearly_as_long_as_what_it_copies():
    assert near_copy("작은 유성이 매끈한 면에 맞으면 어떻게 돼", "작은 유성 매끈한 면에 맞으면 어떻게 돼")
    assert near_copy("can i split my votes", "Can I split my votes?".lower().strip("?"))
    assert not near_copy("행성 하나에 두 명 착륙할 수 있어", "행성")  # one word is no copy of a question
    assert not near_copy("who rolls for each meteor", "who decides the speaker")


def test_every_bundled_section_has_a_complete_card():
    for pack in load_packs(RULES_DIR):
        lacking = {s.id: cards.gaps(s, pack.cards.get(s.id), pack.language) for s in pack.sections}
        assert not {k: v for k, v in lacking.items() if v}, pack.id


@pytest.mark.slow  # every card question against every query: about 5 s
def test_no_card_question_is_a_near_copy_of_a_query_file():
    queries = _queries()
    assert len(queries) > 500  # the files were read (a format change would silently pass)
    copies = []
    for pack in load_packs(RULES_DIR):
        for card in pack.cards.values():
            for q in card.questions:
                for written in q.texts.values():
                    mine = _normal(written)
                    near = [other for other in queries if near_copy(mine, other)]
                    if near:
                        copies.append((card.file, written, near[0]))
    assert not copies


@pytest.mark.parametrize("game", [p.id for p in load_packs(RULES_DIR)])
def test_the_model_finds_each_card_questions_own_section(compendium, game):
    report = cardcheck.check(compendium, game, load_pack(RULES_DIR / game))
    assert report.asked >= 4 * len(compendium.packs[game].sections) * 3
    assert report.share >= cardcheck.ENOUGH, [(m.section, m.text, m.preferred) for m in report.misses]


def _pack_copy(tmp_path: Path) -> Path:
    shutil.copytree(RULES_DIR / "ti4", tmp_path / "rules" / "ti4")
    return tmp_path / "rules" / "ti4"


def test_a_card_naming_a_rule_the_section_lacks_is_refused_with_its_file(tmp_path):
    folder = _pack_copy(tmp_path)
    card = folder / "cards" / "79.yaml"
    data = yaml.safe_load(card.read_text(encoding="utf-8"))
    data["questions"][0]["rule"] = "79.99"
    card.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with pytest.raises(PackError) as caught:
        load_pack(folder, tmp_path)
    assert any("rules/ti4/cards/79.yaml" in m and "79.99" in m for m in caught.value.messages)


def test_a_card_without_its_section_and_a_language_unknown_are_refused(tmp_path):
    folder = _pack_copy(tmp_path)
    (folder / "cards" / "99.yaml").write_text("section: '99'\n", encoding="utf-8")
    card = folder / "cards" / "62.yaml"
    data = yaml.safe_load(card.read_text(encoding="utf-8"))
    data["summary"]["fr"] = "Phase des lois."
    card.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with pytest.raises(PackError) as caught:
        load_pack(folder, tmp_path)
    messages = " ".join(caught.value.messages)
    assert "cards/99.yaml" in messages and "fr" in messages


def test_a_missing_card_is_listed_not_refused(tmp_path):
    folder = _pack_copy(tmp_path)
    (folder / "cards" / "69.yaml").unlink()
    pack = load_pack(folder, tmp_path)
    section = next(s for s in pack.sections if s.id == "69")
    assert cards.gaps(section, pack.cards.get("69"), pack.language) == [("cards.gap.none", {})]


def test_a_blank_card_loads_and_lists_what_an_admin_may_fill_in(tmp_path):
    folder = _pack_copy(tmp_path)
    (folder / "cards" / "69.yaml").write_text(cards.blank("69", "증원 부대", "ko"), encoding="utf-8")
    pack = load_pack(folder, tmp_path)
    section = next(s for s in pack.sections if s.id == "69")
    keys = [key for key, _ in cards.gaps(section, pack.cards["69"], pack.language)]
    assert keys.count("cards.gap.summary") == 3 and "cards.gap.count" in keys


def test_a_reader_of_another_language_sees_the_summary_labelled_as_ours(compendium):
    section = compendium.section("ti4", "79")
    with speaking("en"):
        english = answers.section_answer(compendium, section, None).pages[0].description
        label = t("card.summary")
    summary = compendium.summary(section, "en")
    assert summary and english.startswith(f"*{label}: ")
    with speaking("ko"):
        korean = answers.section_answer(compendium, section, None).pages[0].description
    assert t("card.summary") not in korean and compendium.summary(section, "ko") not in korean
    first = section.rules[0].text  # the rules text is the pack's own, in both
    assert first[:20] in english and first[:20] in korean
