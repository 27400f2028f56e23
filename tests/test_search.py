"""Search quality and robustness: the evaluation floors, each signal, and hostile input."""

from __future__ import annotations

import unicodedata

import pytest
from conftest import EVAL
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop.rules import evaluation, text
from tabletop.rules.search import MAX_QUERY_CHARS


def test_eval_floors_on_the_shared_query_set(compendium):
    result = evaluation.evaluate(compendium, evaluation.load_queries(EVAL / "ti4_queries.yaml"))
    assert evaluation.failures(result, top1=0.90, top3=0.97) == [], evaluation.report(result)


@pytest.mark.parametrize(
    "file, game",
    [
        ("galaxy_trucker_queries.yaml", "galaxy-trucker"),
        ("galaxy_trucker_big_expansion_queries.yaml", "galaxy-trucker-big-expansion"),
        ("new_frontiers_queries.yaml", "new-frontiers"),
        ("liftoff_queries.yaml", "liftoff"),
    ],
)
def test_eval_floor_for_every_other_pack(compendium, file, game):
    queries = evaluation.load_queries(EVAL / file)
    assert len(queries) >= 25
    assert {str(e) for q in queries for e in q["expect"]} <= {s.id for s in compendium.packs[game].sections}
    result = evaluation.evaluate(compendium, queries, game)
    assert evaluation.failures(result, top1=0.0, top3=0.90) == [], evaluation.report(result)


def test_japanese_search_normalises_width_and_splits_particles(compendium):
    game = "galaxy-trucker-big-expansion"
    assert compendium.search.search("ｼｰﾙﾄﾞﾌﾞｰｽﾀｰ", game)[0].section == "shield-booster"
    assert compendium.search.search("借金の返済", game)[0].section == "loans"
    assert compendium.search.search("호화 선실", game)[0].section == "luxury-cabin"  # a Korean alias


def test_eval_counts_misses(compendium):
    queries = [{"q": "폭격", "expect": [80], "kind": "term"}, {"q": "폭격", "expect": [], "kind": "none"}]
    result = evaluation.evaluate(compendium, queries)
    assert result["overall"]["top1"] == 0 and result["overall"]["none_empty"] == 0
    assert len(result["misses"]) == 2
    assert evaluation.failures(result, 0.9, 0.97)


@pytest.mark.parametrize(
    "query, section",
    [
        ("ㅍㄱ", "79"),
        ("ㅊㄱ", "75"),
        ("ㅎㅅ ㅂㅎㅁ", "86"),
        ("ㅎㅅㅂㅎㅁ", "86"),
        ("폭걱", "79"),
        ("칩공", "75"),
        ("피해 견듬", "80"),
        ("행성 보호먹", "86"),
        ("modifer", "66"),
        ("bombardmnet", "79"),
    ],
)
def test_initials_and_typos(compendium, query, section):
    assert compendium.search.search(query)[0].section == section


def test_typo_does_not_jump_to_another_real_word(compendium):
    # 통제 (control) is one jamo from 통치, but 파괴 is a word the rules use: it stays itself
    assert compendium.search.search("파괴")[0].section == "78"
    assert compendium.search.search("폭격")[0].section == "79"


@pytest.mark.parametrize(
    "query, section, rule",
    [
        ("폭격 주사위 재굴림", "79", "79.1"),
        ("무역품으로 투표 가능?", "62", "62.13"),
        ("득표수가 같으면 어떻게 돼", "62", "62.19"),
        ("피해 견딤으로 직접 파괴 막을 수 있나", "80", "80.5"),
    ],
)
def test_questions_point_at_the_rule(compendium, query, section, rule):
    r = compendium.search.search(query)[0]
    assert (r.section, r.rule) == (section, rule)


@pytest.mark.parametrize("query", ["피자 레시피", "주식 투자 방법", "날씨 어때", "고양이 사료 추천", "asdf qwer", "😀😀"])
def test_nothing_fits_means_no_result(compendium, query):
    assert compendium.search.search(query) == []


@pytest.mark.parametrize(
    "query",
    [
        "",
        "   ",
        "\t\n",
        "x" * 10_000,
        '"',
        "*",
        "AND",
        "NEAR(",
        "(",
        "^",
        '"폭격" AND',
        "폭격 OR *",
        "'; DROP TABLE rules; --",
        "SELECT * FROM docs",
        "\x00\x01\x1b[31m",
        "폭격\u200b",
        "🎲🎲 폭격 🚀",
        "폭격",
        "폭격bombard爆撃",
        "ｐｄｓ",
        "-- 79.1",
        "{}[]|\\",
    ],
)
def test_hostile_input_never_raises(compendium, query):
    results = compendium.search.search(query)
    assert isinstance(results, list)
    suggestions = compendium.search.suggest(query)
    assert len(suggestions) <= 25


def test_combining_jamo_and_fullwidth_are_normalised(compendium):
    decomposed = unicodedata.normalize("NFD", "\ud3ed\uaca9")  # 폭격 as conjoining jamo, as some keyboards send
    assert len(decomposed) == 6 and compendium.search.search(decomposed)[0].section == "79"
    assert compendium.search.search("ＳＵＳＴＡＩＮ ＤＡＭＡＧＥ")[0].section == "80"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=300))
def test_search_accepts_any_text(compendium, query):
    results = compendium.search.search(query)
    assert all(r.score >= 30 for r in results)
    assert len(compendium.search.suggest(query)) <= 25


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(alphabet=st.sampled_from("폭격피해견딤행성보호막ㅍㄱㅎㅅ 79.1§-"), max_size=30))
def test_korean_like_text_never_raises(compendium, query):
    compendium.search.search(query)


def test_suggest_completes_prefixes_even_mid_syllable(compendium):
    assert compendium.search.suggest("폭")[0].section == "79"
    assert compendium.search.suggest("폭ㄱ")[0].section == "79"  # still composing 격
    assert compendium.search.suggest("sust")[0].section == "80"
    rules = [r.rule for r in compendium.search.suggest("79.")]
    assert "79.1" in rules and "79.2" in rules
    assert len(compendium.search.suggest("")) == 25


def test_results_name_the_matched_rule(compendium):
    r = compendium.search.search("80.3")[0]
    assert r.as_dict() == {"id": "80", "title": "피해 견딤 (유닛 능력)", "rule": "80.3", "score": 100.0}


def test_query_limit_constant():
    assert MAX_QUERY_CHARS == 200


def test_text_helpers():
    assert text.key("피해 견딤?") == "피해견딤"
    assert text.decompose("폭격") == "ㅍㅗㄱㄱㅕㄱ"
    assert text.initials("행성 보호막") == "ㅎㅅㅂㅎㅁ"
    assert text.is_initials_query("ㅎㅅ ㅂㅎㅁ") and not text.is_initials_query("행성")
    assert text.strip_particle("무역품으로") == "무역품" and text.strip_particle("피해") == "피해"
    big, uni = text.tokens("폭격은 PDS 79.1")
    assert "폭격" in big and "pds" in big and "79" in big and "폭" in uni
