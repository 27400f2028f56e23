"""Questions in another language than the pack's: kanji read in Korean, names in three
languages, the script share the answer decision reads, and the examples players gave."""

from __future__ import annotations

import pytest
from run_bot import run_bot

from tabletop.rules import crossling


@pytest.mark.parametrize(
    "japanese, korean",
    [
        ("爆撃", "폭격"),
        ("議長", "의장"),
        ("増援", "증원"),  # a Japanese simplified form (増 for 增)
        ("地上戦って何ラウンド", "지상전"),
        ("領土", "영토"),  # the initial sound law: 領 alone is 령
        ("利益", "이익"),
        ("人々", "인인"),  # 々 repeats the kanji before it
        ("流星群と宇宙船", "유성군 우주선"),
    ],
)
def test_kanji_words_are_read_in_korean(japanese, korean):
    assert crossling.hangul_reading(japanese) == korean


def test_text_without_kanji_words_has_no_reading():
    assert crossling.hangul_reading("폭격 주사위 bombard ラウンド") == ""
    assert crossling.hangul_reading("山") == ""  # one kanji alone is a counter or a stem, not a word
    assert crossling.with_reading("폭격") == "폭격"
    assert crossling.with_reading("爆撃の順番") == "爆撃の順番\n폭격 순번"


def test_the_share_of_a_question_in_another_script():
    assert crossling.foreign_share("폭격 주사위", "ko") == 0.0
    assert crossling.foreign_share("can I retreat?", "ko") == 1.0
    assert crossling.foreign_share("爆撃はいつ？", "ja") == 0.0
    assert crossling.foreign_share("PDS가 쏴?", "ko") == pytest.approx(3 / 5)
    assert crossling.foreign_share("79.1 ?!", "ko") == 0.0  # no letters: nothing foreign


def test_japanese_names_reach_korean_sections(compendium):
    """A pack's terms carry Japanese names: a question by them finds the Korean rule."""
    search = compendium.search.search
    assert search("歩兵を2つの惑星に分けて降ろしたらどっちから戦う？")[0].section == "75"
    assert search("サステインダメージ")[0].section == "80"
    assert search("入植のとき、足りない分をクレジットで払ってもいい？", "new-frontiers")[0].title.startswith("정착")


def test_korean_and_english_questions_reach_the_japanese_pack(compendium):
    game = "galaxy-trucker-big-expansion"
    assert compendium.search.search("대출 갚는 법", game)[0].section == "loans"
    assert compendium.search.search("shield booster", game)[0].section == "shield-booster"


def test_the_issue_examples_from_the_command_line(cli_env):
    out = run_bot(["rule", "地上戦って何ラウンドまでやるの？"], cli_env)
    assert out.returncode == 0 and out.stdout.startswith("━━ 70 ")
    out = run_bot(["search", "--game", "new-frontiers", "入植のとき、足りない分をクレジットで払ってもいい？"], cli_env)
    assert out.returncode == 0 and out.stdout.startswith(" 1. 10 정착")
