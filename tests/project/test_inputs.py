"""The rough edges a hostile test found, each with its sentence: the command line, query files,
dice targets, Galaxy Trucker meteors, game names and console parsing."""

from __future__ import annotations

import re

import pytest
from run_bot import run_bot
from said import pattern, said

from tabletop.console.app import run_line
from tabletop.console.printed import printed
from tabletop.core import commands
from tabletop.core.errors import UserError
from tabletop.core.i18n import t


def text_of(replies) -> str:
    return "\n".join(printed(r) for r in replies)


# --- the command line -----------------------------------------------------------------------------


@pytest.mark.parametrize("limit", ["0", "-1", "26", "many"])
def test_search_limit_out_of_range_is_refused(cli_env, limit):
    out = run_bot(["search", "폭격", "--limit", limit], cli_env)
    assert out.returncode == 2 and "--limit" in out.stderr and not said("no_result", out.stdout)


@pytest.mark.parametrize("command", [["search", ""], ["rule", ""], ["search", "", "--json"], ["search", "가" * 201, "--json"]])
def test_search_and_rule_refuse_the_same_queries_alike(cli_env, command):
    out = run_bot(command, cli_env)
    assert out.returncode == 1 and "Traceback" not in out.stderr


@pytest.mark.parametrize(
    "command", [["render", "79", "--game", "nosuch"], ["eval", "tests/eval/ti4_queries.yaml", "--game", "nosuch"]]
)
def test_an_unknown_game_is_named_before_anything_runs(cli_env, command):
    out = run_bot(command, cli_env)
    assert out.returncode == 1 and "nosuch" in out.stderr and "MISS" not in out.stdout


def test_a_game_given_empty_is_refused_not_taken_for_the_default(cli_env, tmp_path):
    out = run_bot(["rule", "--game", "", "79"], cli_env)
    assert out.returncode == 1 and said("empty_game", out.stderr) and out.stdout == ""
    state = str(tmp_path / "s.db")
    script = "/settings game:갤럭시 트러커\n/settings game:\n/settings game:   \n/settings\n"
    out = run_bot(["console", "--state", state], cli_env, script)
    assert len(pattern("empty_game").findall(out.stdout)) == 2 and said(
        "settings.show", out.stdout, game="galaxy-trucker"
    )  # unchanged


def test_the_console_refuses_an_unknown_game_at_start(cli_env):
    out = run_bot(["console", "--game", "nosuch"], cli_env, "/rule 79\n")
    assert out.returncode == 2 and "nosuch" in out.stderr and "Traceback" not in out.stderr


def test_an_unknown_flag_is_reported_by_its_subcommand(cli_env):
    out = run_bot(["combat", "ground", "--attacker", "2 infantry", "--defender", "1 infantry", "--bogus", "1"], cli_env)
    assert (
        out.returncode == 2
        and t("cli.error") % {"prog": "bot.py combat ground", "message": t("cli.unrecognized") % "--bogus 1"} in out.stderr
    )  # in Korean, by default


@pytest.mark.parametrize("where", ["folder.png", "", "odds.jpg", "missing/odds.png"])
def test_a_chart_path_that_cannot_take_a_png_gets_a_sentence_and_nothing_is_written(cli_env, tmp_path, where):
    (tmp_path / "folder.png").mkdir()
    path = str(tmp_path / where) if where else ""
    out = run_bot(["odds", "ground", "--attacker", "2 infantry", "--defender", "1 infantry", "--chart", path], cli_env)
    assert out.returncode == 1 and path in out.stderr and "Traceback" not in out.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder.png"]  # no misnamed PNG left behind
    assert not path or "(" not in out.stderr.split(path)[-1]  # no untranslated system reason after the path


@pytest.mark.parametrize(
    "entry, field, line",
    [("expect: 79", "'expect'", 2), ('expect: "79"', "'expect'", 2), ("kind: [x]", "'kind'", 2)],
)
def test_a_query_file_entry_of_the_wrong_shape_is_named(cli_env, tmp_path, entry, field, line):
    path = tmp_path / "q.yaml"
    path.write_text(f'- {{q: "폭격", expect: [79]}}\n- {{q: "b", {entry}}}\n', encoding="utf-8")
    out = run_bot(["eval", str(path)], cli_env)
    assert out.returncode == 1 and f"{path}, line {line}: {field}" in out.stderr and "Traceback" not in out.stderr


# --- dice and meteors ---------------------------------------------------------------------------


@pytest.mark.parametrize("expr, low, high", [("d10>=11", 2, 10), ("5d10>=0", 2, 10), ("5d10>=1", 2, 10), ("2d6+1>=8", 3, 7)])
def test_a_dice_target_no_die_can_miss_or_reach_is_refused(expr, low, high):
    from tabletop.core.dice import roll_expression

    with pytest.raises(UserError) as exc:
        roll_expression(expr, 1)
    assert f"{low}에서 {high}" in exc.value.message and expr in exc.value.message
    assert roll_expression(expr.split(">=")[0] + f">={high}", 1).successes is not None


@pytest.mark.parametrize(
    "spec, expected",
    [
        ("큰 앞 x3", [("large", "front")] * 3),
        ("3 큰 앞", [("large", "front")] * 3),
        ("large front, small left x 2", [("large", "front"), ("small", "left"), ("small", "left")]),
        (None, [("small", "front")]),
    ],
)
def test_meteor_counts_are_read(spec, expected):
    from tabletop.galaxy_trucker.dice import parse_incoming

    assert [(m.size, m.direction) for m in parse_incoming(spec)] == expected


@pytest.mark.parametrize(
    "spec, key, values",
    [
        (",,,", "gt.empty_incoming", {"spec": ",,,"}),
        ("큰 앞 왼쪽", "gt.two_directions", {"item": "큰 앞 왼쪽"}),
        ("banana front", "gt.bad_incoming", {"item": "banana front"}),
    ],
)
def test_meteors_that_name_nothing_or_too_much_are_refused(spec, key, values):
    from tabletop.galaxy_trucker.dice import parse_incoming

    with pytest.raises(UserError) as exc:
        parse_incoming(spec)
    assert said(key, exc.value.message, **values)


# --- game names and console parsing ---------------------------------------------------------------


@pytest.fixture
def ctx(compendium, state):
    return commands.Context(compendium, state, user_id="me", user_name="me", guild_id="g", channel_id="c", is_admin=True)


def test_a_game_name_that_could_mean_two_says_which(ctx):
    out = text_of(run_line(ctx, "/game 갤럭시"))
    assert (
        "galaxy-trucker (갤럭시 트러커)" in out
        and "galaxy-trucker-big-expansion" in out
        and said("ambiguous_game", out, game="갤럭시")
    )


def test_game_names_with_spaces_are_read_whole(ctx, state):
    assert "갤럭시 트러커" in text_of(run_line(ctx, "/settings game:갤럭시 트러커"))
    assert state.get_setting("g", "game") == "galaxy-trucker"
    out = text_of(run_line(ctx, "/search game:갤럭시 트러커 유성"))
    assert t("search.title", query="유성") in out and "14 유성군" in out


@pytest.mark.parametrize(
    "line, says",
    [
        ("/rule 79.1 GAME:liftoff", pattern("no_such_rule", game="리프트오프")),  # the option, in capitals, not query text
        ("/rule 79.1 game:ti4 game:liftoff", pattern("console.repeated_option", option="game")),
        ("as " + "x" * 70 + ": /agenda abstain", pattern("console.actor_too_long", limit=64)),
        ("/help rule", re.compile(re.escape("/rule query:"))),
        ("/규칙 79.1", re.compile(re.escape("▶ 79.1"))),
    ],
)
def test_console_lines_are_read_as_typed(ctx, line, says):
    assert says.search(text_of(run_line(ctx, line)))


def test_quit_with_words_after_it_ends_the_console(cli_env):
    out = run_bot(["console"], cli_env, "/quit now\n/rule 79.1\n")
    assert out.returncode == 0 and "79.1" not in out.stdout


def cli_error(locale: str, message: str) -> str:
    """argparse's error line in `locale` (its templates are %-style), from where the program's
    name ends."""
    return (t("cli.error", locale) % {"prog": "", "message": message}).lstrip(": ")


@pytest.mark.parametrize(
    "args, expected",
    [
        (["combat", "ground", "--attacker", "1 infantry"], cli_error("ko", t("cli.required", "ko") % "--defender")),
        (
            ["combat", "ground", "--attacker", "1 infantry", "--locale", "en"],
            cli_error("en", t("cli.required", "en") % "--defender"),
        ),
        (
            ["search", "--limit", "0", "폭격", "--locale=ja"],
            cli_error(
                "ja",
                t("cli.argument", "ja")
                % {"argument_name": "--limit", "message": t("cli.out_of_range", "ja", value=0, low=1, high=25)},
            ),
        ),
        (["rule", "--locale", "fr", "79"], (t("cli.invalid_choice", "ko") % {"value": "fr", "choices": "\0"}).split("\0")[0]),
    ],
)
def test_a_command_line_mistake_is_said_in_the_runs_language(cli_env, args, expected):
    out = run_bot(args, cli_env)
    assert out.returncode == 2 and expected in out.stderr and "Traceback" not in out.stderr and out.stdout == ""
