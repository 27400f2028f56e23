"""Lookups by number, title, English name and alias; related topics."""

from __future__ import annotations

import pytest

from tabletop.core.i18n import t
from tabletop.rules import answers
from tabletop.rules.answers import UserError


@pytest.mark.parametrize("query", ["79.1", "§79.1", "79-1", " 79.1 ", "§ 79.1", "79 . 1", "79。1", "７９。１"])
def test_rule_number_forms(compendium, query):
    r = compendium.search.search(query)[0]
    assert (r.section, r.rule, r.how) == ("79", "79.1", "number")


def test_section_number(compendium):
    r = compendium.search.search("79")[0]
    assert (r.section, r.rule) == ("79", None)


@pytest.mark.parametrize(
    "number", ["79.9", "62.99", "1", "2", "3.2", "8", "18.1", "90.1", "12", "79.1.1", ".1", "-1", "1e9", "1" * 30, "§ 79.1.2"]
)
def test_a_rule_number_that_does_not_exist_opens_nothing(compendium, number):
    from tabletop.core.errors import UserError
    from tabletop.rules import answers

    assert compendium.search.search(number) == []
    with pytest.raises(UserError) as err:
        answers.lookup(compendium, number, "ti4")
    assert number in err.value.message and "62" in err.value.message and "89" in err.value.message


def test_several_numbers_open_each_in_the_order_typed_and_a_missing_one_is_named(compendium):
    assert [(r.section, r.rule) for r in compendium.search.search("80 79.1")] == [("80", None), ("79", "79.1")]
    assert [r.section for r in compendium.search.search("79、80")] == ["79", "80"]  # 、 is a Japanese comma
    assert answers.lookup(compendium, "79.1 79.2", "ti4").rule == "79.1"  # both exist: the first opens
    with pytest.raises(UserError) as err:
        answers.lookup(compendium, "79.1 99", "ti4")
    assert "99번" in err.value.message and "79.1" not in err.value.message


def test_a_missing_number_inside_a_question_that_nothing_else_answers_gives_the_range(compendium):
    for question, number in (("62.0 뭐야?", "62.0"), ("89.99번 규칙", "89.99")):
        with pytest.raises(UserError) as err:
            answers.lookup(compendium, question, "ti4")
        assert f"{number}번" in err.value.message and "62–89" in err.value.message, question
    assert answers.lookup(compendium, "79.1번 규칙", "ti4").rule == "79.1"
    # a decimal that is no rule of the pack's sections, beside a topic the document lacks: the topic
    assert compendium.search.find("이동 6.2", "ti4").missing[0].name == "이동"
    assert compendium.search.find("버전 4.0 변경점", "ti4").absent_number is None


def test_one_consonant_is_a_letter_not_initials(compendium):
    assert compendium.search.search("ㅍ") == [] and compendium.search.search("ㄱ", "galaxy-trucker") == []
    assert compendium.search.search("ㅍㄱ")[0].section == "79"


def test_chat_mode_says_a_named_games_range_for_a_number_it_lacks(compendium):
    for question, number, game in (("리프트오프 99", "99", "리프트오프"), ("뉴 프런티어 20", "20", "뉴 프런티어")):
        with pytest.raises(UserError) as err:
            answers.chat_answer(compendium, question, "ti4")
        assert f"{number}번" in err.value.message and game in err.value.message, question


@pytest.mark.parametrize(
    "query, section",
    [
        ("피해견딤", "80"),
        ("피해 견딤", "80"),
        ("Sustain Damage", "80"),
        ("sustain damage", "80"),
        ("SUSTAINDAMAGE", "80"),
        ("지상 전투", "70"),
        ("육지 전투", "70"),
        ("Invasion", "75"),
        ("ＰＤＳ", "89"),
    ],
)
def test_names_ignore_case_spaces_and_width(compendium, query, section):
    r = compendium.search.search(query)[0]
    assert r.section == section and r.how == "exact"


def test_lookup_marks_the_rule_and_opens_its_page(compendium):
    answer = answers.lookup(compendium, "79.1")
    assert answer.section.id == "79" and answer.rule == "79.1"
    page = answer.pages[answer.start].description
    assert "> ▶ **79.1**" in page


def test_related_topics_link_inside_the_pack_only(compendium):
    s = compendium.section("ti4", "80")
    related = {t.name: t.target for t in compendium.related(s)}
    assert related == {"능력": None, "우주 전투": None, "지상 전투": "70"}
    reply = answers.section_answer(compendium, s, None).reply()
    custom_ids = [c.custom_id for row in reply.rows for c in row]
    assert custom_ids == ["rule:open:ti4:70"]
    field = dict(reply.embeds[0].fields)[t("related")]
    assert f"능력 {t('related.missing')}" in field and "지상 전투 (→70)" in field


def test_bad_queries_are_user_errors(compendium):
    for query, key in (("", "찾을 낱말"), ("   ", "찾을 낱말"), ("x" * 201, "너무 길어요"), ("피자 레시피", "찾지 못했어요")):
        with pytest.raises(UserError) as exc:
            answers.lookup(compendium, query)
        assert key in exc.value.message
    with pytest.raises(UserError) as exc:
        answers.lookup(compendium, "폭격", game="chess")
    assert "chess" in exc.value.message and "ti4" in exc.value.message


def test_a_heading_names_each_name_once(compendium):
    assert answers.section_heading(compendium.section("ti4", "89")) == "89 PDS"
    assert answers.section_heading(compendium.section("ti4", "79")) == "79 폭격 (유닛 능력) · Bombardment"


def test_a_rule_longer_than_a_page_opens_at_its_first_page(tmp_path):
    """A matched rule that spans pages opens where it starts, not on its second page."""
    import shutil

    from tabletop.core.paths import RULES_DIR
    from tabletop.packimport.writer import import_pack
    from tabletop.rules import answers, ruledb
    from tabletop.rules.compendium import Compendium

    rules = tmp_path / "rules"
    shutil.copytree(RULES_DIR / "ti4", rules / "ti4")
    source = tmp_path / "long.txt"
    source.write_text(
        "긴 규칙\n\n" + "카드를 한 장 뽑고 다음 사람에게 넘깁니다 " * 200 + "\n\n짧은 규칙\n\n끝납니다.\n", encoding="utf-8"
    )
    import_pack(source, "long", rules)
    db = tmp_path / "rules.db"
    ruledb.build(rules, db)
    answer = answers.lookup(Compendium(db), "1.1", "long")
    assert len(answer.pages) > 1 and answer.start == 0
