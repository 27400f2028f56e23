"""Choosing the game, chat mode across games, and the Galaxy Trucker dice."""

from __future__ import annotations

import pytest

from tabletop.console.app import run_line
from tabletop.console.lines import parse_line
from tabletop.core.commands import Context, dispatch
from tabletop.core.components import press
from tabletop.core.dice import Dice
from tabletop.core.errors import UserError
from tabletop.core.i18n import t
from tabletop.galaxy_trucker.dice import parse_incoming, roll_incoming, roll_sabotage
from tabletop.rules import answers


def test_every_pack_loads_with_names_in_three_languages(compendium):
    assert set(compendium.packs) == {"ti4", "galaxy-trucker", "galaxy-trucker-big-expansion", "new-frontiers", "liftoff"}
    for pack in compendium.packs.values():
        assert all(pack.names.get(lang) for lang in ("ko", "en", "ja"))
    assert compendium.packs["galaxy-trucker-big-expansion"].language == "ja"


def test_rule_by_generated_number_and_game_option(compendium, state):
    ctx = Context(compendium, state)
    answer = dispatch(ctx, "rule", {"query": "3.2", "game": "galaxy-trucker"})
    assert answer.section.id == "preparing-for-flight" and answer.rule == "3.2"
    assert dispatch(ctx, "rule", {"query": "유성군", "game": "galaxy-trucker"}).section.id == "meteor-swarm"
    with pytest.raises(UserError) as exc:
        dispatch(ctx, "rule", {"query": "x", "game": "chess"})
    assert "galaxy-trucker" in exc.value.message


def test_server_default_game_and_console_game(compendium, state):
    ctx = Context(compendium, state, guild_id="g1", is_admin=True)
    dispatch(ctx, "settings", {"game": "liftoff"})
    assert dispatch(ctx, "rule", {"query": "로켓 발사"}).section.pack == "liftoff"
    ctx.is_admin = False
    with pytest.raises(UserError):
        dispatch(ctx, "settings", {"game": "ti4"})
    console = Context(compendium, state)
    [reply] = run_line(console, "/game galaxy-trucker")
    assert "갤럭시 트러커" in reply.content and console.game == "galaxy-trucker"
    [reply] = run_line(console, "/rule 사보타주")
    assert reply.embeds[0].title.startswith("24 사보타주")


def test_chat_mode_answers_in_the_servers_game_unless_another_is_named(compendium):
    answer = answers.chat_answer(compendium, "폭격", "ti4")
    assert answer.section.pack == "ti4" and answer.note == ""
    with pytest.raises(answers.UserError):  # a Galaxy Trucker title, but the game is not named
        answers.chat_answer(compendium, "유성군", "ti4")
    answer = answers.chat_answer(compendium, "갤럭시 트러커 유성군", "ti4")
    assert answer.section.pack == "galaxy-trucker" and "갤럭시 트러커" in answer.reply().content


def test_korean_alias_reaches_the_japanese_expansion(compendium):
    r = compendium.search.search("악의 음모", "galaxy-trucker-big-expansion")[0]
    assert r.section == "evil-machinations"
    heading = answers.section_heading(compendium.section("galaxy-trucker-big-expansion", "evil-machinations"))
    assert heading == "29 悪の陰謀 · 악의 음모 · Evil Machinations"


@pytest.mark.parametrize(
    "spec, expected",
    [
        ("큰 앞, 작은 왼쪽", [("meteor", "large", "front", "column"), ("meteor", "small", "left", "row")]),
        ("heavy shot right", [("shot", "heavy", "right", "row")]),
        ("", [("meteor", "small", "front", "column")]),
    ],
)
def test_meteor_specs(spec, expected):
    items = parse_incoming(spec)
    assert [(i.kind, i.size, i.direction, i.along) for i in items] == expected


def test_meteor_and_sabotage_rolls_are_two_d6_and_reproducible():
    items = roll_incoming(parse_incoming("large front, small back, light shot left"), Dice(3))
    assert all(1 <= a <= 6 and 1 <= b <= 6 and i.line == a + b for i in items for a, b in [i.dice])
    again = roll_incoming(parse_incoming("large front, small back, light shot left"), Dice(3))
    assert [i.dice for i in items] == [i.dice for i in again]
    attempts = roll_sabotage(Dice(4))
    assert len(attempts) == 3 and all(2 <= sum(c) <= 12 and 2 <= sum(r) <= 12 for c, r in attempts)


def test_bad_meteor_input_is_refused():
    for spec in ("이상한 것", ", ".join(["큰 앞"] * 13)):
        with pytest.raises(UserError):
            parse_incoming(spec)


def test_gt_commands_quote_the_rules_and_roll_again(compendium, state):
    ctx = Context(compendium, state)
    paged = dispatch(ctx, "gt sabotage", {"seed": "9"})
    reply = paged.reply()
    name, value = reply.embeds[0].fields[0]
    assert name == "24 사보타주" and "세 번째도 빛나가면" in value
    assert [b.custom_id for b in reply.rows[0]][0] == "rule:open:galaxy-trucker:sabotage"
    assert press(ctx, reply.rows[0][1].custom_id).pages[0].title == reply.embeds[0].title
    meteor = dispatch(ctx, "gt meteor", {"incoming": "큰 앞", "seed": "5"}).reply()
    assert t("gt.column", n=8) in meteor.embeds[0].description


def test_console_parses_subcommands():
    assert parse_line("/gt meteor incoming:큰 앞, 작은 왼쪽") == (None, "gt meteor", {"incoming": "큰 앞, 작은 왼쪽"})
    assert parse_line("as Bob: /agenda vote 가결 votes:3") == ("Bob", "agenda vote", {"outcome": "가결", "votes": "3"})


@pytest.mark.parametrize(
    "spec, expected",
    [
        ("heavy fire left", [("shot", "heavy", "left")]),  # the pack's English name
        ("強い砲撃 右", [("shot", "heavy", "right")]),  # its Japanese name
        ("大きい 前", [("meteor", "large", "front")]),
        ("小さい 左", [("meteor", "small", "left")]),
        ("큰 운석 뒤, 2 light fire right", [("meteor", "large", "back")] + [("shot", "light", "right")] * 2),
    ],
)
def test_every_name_the_pack_gives_a_meteor_or_shot_is_read(compendium, state, spec, expected):
    from tabletop.galaxy_trucker.commands import kind_names

    items = parse_incoming(spec, kind_names(Context(compendium, state)))
    assert [(i.kind, i.size, i.direction) for i in items] == expected
