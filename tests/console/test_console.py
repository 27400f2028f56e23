"""The offline console: line parsing, buttons pressed by number, the terminal app in a real
pseudo-terminal (line editing, completion, history, paging) and piped sessions kept plain (the
docs' console examples run in tests/project/test_docs.py)."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pexpect
import pytest
from rich.console import Console
from run_bot import run_bot
from said import pattern, said

from tabletop import features
from tabletop.console import lines
from tabletop.console.app import run_command, run_line
from tabletop.console.printed import printed
from tabletop.console.terminal import choices, render
from tabletop.core import commands
from tabletop.core.components import find, press, press_asking
from tabletop.core.i18n import t
from tabletop.core.render import Attachment, Button, Embed, Paged, Reply, harmless

ROOT = Path(__file__).resolve().parents[2]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|[\x08\r]")
READY = "\x1b[?2004h"  # prompt_toolkit turns bracketed paste on when it waits for a line


@pytest.fixture
def ctx(compendium, state):
    features.load()
    return commands.Context(compendium, state, user_id="me", user_name="me")


def text_of(replies) -> str:
    return "\n".join(printed(r) for r in replies)


# --- line parsing --------------------------------------------------------------------------------


def test_options_may_come_in_any_order():
    features.load()
    expected = ("rule", {"game": "galaxy-trucker", "query": "14.2"})
    assert lines.parse_line("/rule game:galaxy-trucker 14.2")[1:] == expected
    assert lines.parse_line("/rule 14.2 game:galaxy-trucker")[1:] == expected
    assert lines.parse_line("/rule query:14.2 game:galaxy-trucker")[1:] == expected
    # a free-text option takes the words up to the next option
    _, name, options = lines.parse_line("/combat ground seed:7 attacker:3 보병, 1 mech defender:4 보병")
    assert name == "combat ground"
    assert options == {"seed": "7", "attacker": "3 보병, 1 mech", "defender": "4 보병"}
    # a value quoted whole, as a shell would want it, is read without its quotes; quotes inside stay
    _, _, options = lines.parse_line("/odds space attacker:\"2 dread, 1 carrier\" defender:“1 war sun” seed:'7'")
    assert options == {"attacker": "2 dread, 1 carrier", "defender": "1 war sun", "seed": "7"}
    assert lines.parse_line('/agenda start name:"A" vs "B"')[2]["name"] == '"A" vs "B"'
    assert lines.parse_line('/agenda vote outcome:"Elect Mecatol" votes:3')[2] == {"outcome": "Elect Mecatol", "votes": "3"}


@pytest.mark.parametrize(
    "line, option, quote",
    [('/combat space attacker:"2 dread defender:3 cruiser', "attacker", '"'), ("/rule 79.1 game:「ti4", "game", "「")],
)
def test_a_quote_left_open_is_named_not_read_into_the_value(line, option, quote):
    """The open quote swallowed the next option and stayed in the unit's name, and the reply then
    suggested '"2 dread@6', which the console would read the same way."""
    features.load()
    with pytest.raises(commands.UserError) as refused:
        lines.parse_line(line)
    assert refused.value.message == t("console.unclosed_quote", option=option, quote=quote, close=lines._QUOTES[quote])


def test_an_option_the_command_lacks_is_named_not_searched_for(ctx):
    out = text_of(run_line(ctx, "/rule 79.1 bogus:1"))
    assert "'bogus'" in out and "query, game, private" in out
    # a URL is not an option
    assert lines.parse_line("/rule http://example.com 폭격")[2] == {"query": "http://example.com 폭격"}


def test_bad_values_are_explained_in_a_sentence(ctx):
    assert text_of(run_line(ctx, "/rule 79 private:maybe")) == t(
        "error.not_a_bool", "ko", option="비공개(private)", value="maybe"
    )  # as Discord names it, and the console
    assert "shield" in text_of(run_line(ctx, "/combat bombard units:1 dreadnought target:1 보병 shield:perhaps"))


def test_a_slash_alone_and_a_group_alone_say_what_to_type(ctx):
    assert text_of(run_line(ctx, "/")) == t("error.no_command", "ko")
    unknown = text_of(run_line(ctx, "/agenda frobnicate"))  # the word typed is named, not dropped
    assert "frobnicate" in unknown and "start" in unknown
    out = text_of(run_line(ctx, "/agenda"))
    assert out.startswith("/agenda") and "vote" in out and "close" in out
    assert "space" in text_of(run_line(ctx, "/combat")) and "invade" in text_of(run_line(ctx, "/odds"))


def test_game_is_chosen_by_id_or_by_name_in_any_language(ctx):
    run_line(ctx, "/game 갤럭시 트러커")
    assert ctx.game == "galaxy-trucker"
    assert "유성군" in text_of(run_line(ctx, "/rule 14.2"))
    run_line(ctx, "/game Twilight Imperium")  # the start of a name in English
    assert ctx.game == "ti4"
    out = text_of(run_line(ctx, "/game 갤럭시"))  # the start of two games' names: which one?
    assert ctx.game == "ti4" and "galaxy-trucker-big-expansion" in out
    out = text_of(run_line(ctx, "/game 체스"))
    assert ctx.game == "ti4" and "체스" in out and "galaxy-trucker" in out  # refused, nothing changed
    now = text_of(run_line(ctx, "/game"))
    assert "트와일라잇 임페리움" in now and "liftoff" in now


# --- buttons by number ---------------------------------------------------------------------------


def test_every_button_the_console_shows_can_be_pressed(ctx):
    """Each numbered choice of these answers has a handler (or is paging), so pressing it works."""
    lines = [
        "/rule 79",
        "/search 폭격 주사위",
        "/combat ground attacker:3 보병 defender:2 보병 seed:5",
        "/agenda start name:분리 독트린 kind:law speaker:me players:me, Bob",
    ]
    for line in lines:
        result = run_command(ctx, line)
        reply = result.reply() if isinstance(result, Paged) else commands.as_replies(result)[0]
        numbered = choices(reply)
        assert numbered, line
        for choice in numbered:
            if choice.custom_id.startswith("page:"):
                continue
            assert find(choice.custom_id) is not None, choice.custom_id


def test_pressing_a_related_topic_opens_it(ctx):
    reply = commands.as_replies(run_command(ctx, "/rule 79"))[0]
    related = [c for c in choices(reply) if c.custom_id.startswith("rule:open:")]
    opened = commands.as_replies(press(ctx, related[0].custom_id, related[0].value))[0]
    assert opened.embeds[0].title.startswith("75 침공")


def test_pressing_an_agenda_button_asks_for_votes_and_records_them(ctx):
    reply = commands.as_replies(run_command(ctx, "/agenda start name:분리 독트린 kind:law speaker:me players:me, Bob"))[0]
    for_button = next(c for c in choices(reply) if c.custom_id.endswith(":vote:0"))
    asked = []
    press_asking(ctx, for_button.custom_id, for_button.value, lambda prompt: asked.append(prompt) or "5")
    assert asked == [t("agenda.modal.votes", "ko")]
    out = text_of(run_line(ctx, "/agenda show"))
    assert re.search(r"가결\D+5", out), out
    # cancelled (no answer): refused, nothing recorded
    with pytest.raises(Exception) as refused:
        press_asking(ctx, for_button.custom_id, None, lambda prompt: None)
    assert type(refused.value).__name__ == "UserError"
    assert text_of(run_line(ctx, "/agenda show")) == out


def test_an_unknown_button_is_refused_politely(ctx):
    with pytest.raises(Exception) as refused:
        press(ctx, "nothing:here")
    assert getattr(refused.value, "message", "") == t("error.unknown_button", "ko")


def test_disabled_buttons_are_not_numbered():
    reply = Reply(rows=[[Button("이전", "page:prev", disabled=True), Button("다음", "page:next")]])
    assert [c.custom_id for c in choices(reply)] == ["page:next"]


# --- what reaches the terminal -------------------------------------------------------------------


def test_control_characters_cannot_drive_the_terminal():
    shown = harmless("a\x1b[31mred\x07\u202eevil\x00")
    assert not re.search(r"[\x00-\x1f\u202e]", shown)
    assert "red" in shown and "evil" in shown and "␛" in shown
    assert harmless("줄\n바꿈\t탭") == "줄\n바꿈\t탭"  # line breaks and tabs are text


def test_rendering_styles_the_highlighted_rule_and_numbers_the_choices(ctx):
    result = run_command(ctx, "/rule 79.1")
    assert isinstance(result, Paged)
    reply = result.reply()
    console = Console(file=io.StringIO(), width=120, force_terminal=True, color_system="standard")
    render(console, reply, choices(reply))
    raw = console.file.getvalue()  # type: ignore[attr-defined]
    plain = ANSI.sub("", raw)
    assert "┃ ▶ 79.1" in plain and "**" not in plain
    assert "[1] 침공" in plain and "[2] 행성 방어막" in plain
    assert "\x1b[1;33m" in raw  # the rule that answers is bold yellow


def test_fields_show_as_a_table_of_name_and_value():
    console = Console(file=io.StringIO(), width=100)
    embed = Embed(title="정책", fields=[("투표 순서", "▶ Bob → console"), ("예측", "**Alice**: 가결")])
    render(console, Reply(embeds=[embed]), [])
    lines = console.file.getvalue().splitlines()  # type: ignore[attr-defined]
    assert any("투표 순서" in ln and "▶ Bob → console" in ln for ln in lines)
    assert any("예측" in ln and "Alice: 가결" in ln for ln in lines)  # markdown rendered, not shown


def test_an_attachment_is_saved_where_the_person_can_open_it(monkeypatch, tmp_path):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    console = Console(file=io.StringIO(), width=200)
    render(console, Reply(content="차트", files=[Attachment("odds.png", b"\x89PNG data")]), [])
    shown = console.file.getvalue()  # type: ignore[attr-defined]
    path = Path(re.search(r"📎 (\S+)", shown).group(1))  # type: ignore[union-attr]
    assert path.is_relative_to(tmp_path) and path.suffix == ".png"
    assert path.read_bytes() == b"\x89PNG data"


def test_free_text_is_chat_mode_through_the_piped_console(cli_env):
    """A line without a slash is asked as chat mode asks it: it stays in the session's game
    unless it names another game, and then says which game answered."""
    out = run_bot(["console"], cli_env, stdin="리프트오프 점수\n갤럭시 트러커에서 유성군\n")
    assert out.returncode == 0, out.stderr
    assert said("chat.other_game", out.stdout, game="리프트오프") and said("chat.other_game", out.stdout, game="갤럭시 트러커")
    assert "━━ 14 유성군" in out.stdout


def test_input_that_is_not_utf8_is_refused_in_a_sentence_and_the_session_goes_on(cli_env):
    """A file saved in CP949 (or a terminal set to it): each such line gets one sentence, no
    traceback, and the UTF-8 lines around it are answered."""
    script = "폭격 주사위\n".encode("cp949") + b"/rule 79.1\n"
    out = subprocess.run(
        [sys.executable, str(ROOT / "bot.py"), "console"], input=script, capture_output=True, env=cli_env, timeout=120
    )
    stdout = out.stdout.decode()
    assert out.returncode == 0 and "Traceback" not in out.stderr.decode()
    assert t("input.not_utf8", "ko") in stdout and "┃ ▶ 79.1" in stdout


def test_search_from_stdin_reads_windows_lines_and_refuses_a_line_not_utf8(cli_env):
    lines = b"79.1\r\n" + "폭격\n".encode("cp949")
    out = subprocess.run(
        [sys.executable, str(ROOT / "bot.py"), "search", "-", "--json"],
        input=lines,
        capture_output=True,
        env=cli_env,
        timeout=120,
    )
    first, second = [json.loads(line) for line in out.stdout.decode().splitlines()]
    assert first["query"] == "79.1" and first["results"][0]["rule"] == "79.1"
    assert second["error"] == t("input.not_utf8", "ko") and out.returncode == 1 and "Traceback" not in out.stderr.decode()


def test_a_command_line_that_is_not_utf8_is_refused_in_a_sentence(cli_env):
    not_utf8 = "폭격".encode("cp949").decode("utf-8", "surrogateescape")  # as Python reads such an argument
    for args in (
        ["search", not_utf8],
        ["rule", not_utf8],
        ["combat", "space", "--attacker", not_utf8, "--defender", "1 carrier"],
    ):
        out = run_bot(args, cli_env)
        assert out.returncode == 2 and out.stderr.strip() == t("input.not_utf8", "ko") and out.stdout == "", args


def test_an_empty_name_after_as_is_refused_not_asked_as_a_question(ctx):
    assert text_of(run_line(ctx, "as : /roll dice:1d10")) == t("console.actor_empty", "ko")
    assert text_of(run_line(ctx, "AS: /rule 79")) == t("console.actor_empty", "ko")
    for invisible in ("\u200b", "\u202e", "\x01 \u200d", "\u3164", "\u2800", "\u034f"):  # marks nobody could tell apart as voters
        assert text_of(run_line(ctx, f"as {invisible}: /rule 79")) == t("console.actor_empty", "ko")


def test_piped_console_stays_plain_and_harmless(cli_env):
    out = run_bot(["console"], cli_env, stdin="/rule 79.1\nhello\x1b[31mred\n")
    assert out.returncode == 0, out.stderr
    assert "\x1b" not in out.stdout and "hello␛[31mred" in out.stdout
    assert "┃ ▶ 79.1" in out.stdout and "> " not in out.stdout  # plain text, no prompt
    assert "[1] 침공 [2] 행성 방어막" in out.stdout  # buttons numbered, for a following line to press


def test_a_piped_script_reads_every_page_and_presses_buttons_by_number(cli_env, tmp_path):
    script = "/rule 62\n/rule 79.1\n1\n9\n/agenda start name:X\n1\n3\n/agenda show\n"
    out = run_bot(["console", "--state", str(tmp_path / "s.db")], cli_env, stdin=script)
    assert out.returncode == 0 and "Traceback" not in out.stdout + out.stderr
    assert "62.1 " in out.stdout and "62.22" in out.stdout  # both pages of 62, no buttons to turn them
    assert "━━ 75 침공" in out.stdout  # '1' pressed 침공 under 79.1
    assert said("console.no_choice_only", out.stdout, number=9)  # a number past the choices opens no rule
    assert said(
        "agenda.ack.vote", out.stdout, voter="console", outcome="가결", votes=3
    )  # 1 = 가결, and the next line answered "how many votes"
    assert "*" not in out.stdout.replace("**", "")  # no raw markdown
    assert "> " not in out.stdout.splitlines()[0]


# --- the terminal app, in a real pseudo-terminal -------------------------------------------------


class Session:
    """bot.py console in a pseudo-terminal, as a person would use it."""

    def __init__(self, env):
        self.child = pexpect.spawn(
            sys.executable,
            [str(ROOT / "bot.py"), "console"],
            env=env,
            cwd=str(ROOT),
            encoding="utf-8",
            timeout=20,
            dimensions=(50, 160),
        )
        self.welcome = self.ready()

    def ready(self) -> str:
        """Wait for the prompt; the text shown since the last one, without terminal codes."""
        self.child.expect_exact(READY)
        return ANSI.sub("", self.child.before)

    def line(self, keys: str) -> str:
        self.child.send(keys + "\r")
        return self.ready()  # the line as typed, then the answer

    def close(self) -> int:
        self.child.sendeof()
        self.child.expect(pexpect.EOF)
        self.child.close()
        return self.child.exitstatus


@pytest.fixture
def pty_env(cli_env, tmp_path):
    env = dict(cli_env, XDG_STATE_HOME=str(tmp_path / "xdg"), TERM="xterm", PROMPT_TOOLKIT_NO_CPR="1")
    env.pop("NO_COLOR", None)
    return env


def test_terminal_edits_completes_pages_and_presses(pty_env):
    s = Session(pty_env)
    assert "/help" in s.welcome
    # Tab completes the command; arrow keys edit the line: '/rule 791' becomes '/rule 79.1'
    s.child.send("/ru\t")
    s.child.expect_exact("rule")
    out = s.line(" 791\x1b[D.")
    assert "┃ ▶ 79.1" in out and "[1] 침공" in out
    # a related topic, pressed by its number
    out = s.line("1")
    assert "75 침공" in out
    # paging: 62 is two pages; 다음 is choice 1 on the first page
    out = s.line("/rule 62")
    assert "62.1 " in out and "62.21" not in out and "[1] ▶ 다음" in out
    out = s.line("1")
    assert "62.21" in out and "2/2" in out
    # a number that is no choice on screen never opens a rule: it says what to type instead
    out = s.line("80")
    assert said("console.no_choice", out, number=80) and "피해 견딤" not in out and "Traceback" not in out
    assert s.close() == 0


def test_terminal_votes_through_numbered_buttons(pty_env):
    s = Session(pty_env)
    out = s.line("/agenda start name:분리 독트린 kind:law speaker:console players:console, Bob")
    vote_for = re.search(r"\[(\d+)\] [^\[]*가결", out)
    assert vote_for, out
    s.line(vote_for.group(1))
    out = s.line("4")
    assert out.startswith(t("agenda.modal.votes", "ko"))  # it asked how many votes, then recorded them
    assert "4" in out and "가결" in out
    out = s.line("as Bob: /agenda vote outcome:부결 votes:3")
    assert "Bob" in out
    out = s.line("/agenda show")
    assert "console" in out and "Bob" in out
    assert s.close() == 0


def test_history_is_kept_between_sessions(pty_env, tmp_path):
    s = Session(pty_env)
    s.line("/rule 80.3")
    assert s.close() == 0
    assert "/rule 80.3" in (tmp_path / "xdg" / "ti4-rules-bot" / "console_history").read_text(encoding="utf-8")
    s = Session(pty_env)
    out = s.line("\x1b[A")  # the up arrow recalls the last session's line
    assert "┃ ▶ 80.3" in out
    assert s.close() == 0


def test_an_escape_typed_before_text_is_kept_as_text(pty_env):
    """Esc then '[31m' is no mouse report: no prompt_toolkit traceback, nothing stray."""
    s = Session(pty_env)
    out = s.line("\x1b[31m")
    assert "Unhandled exception" not in out and "Traceback" not in out
    assert "[31m" in out and said("no_result", out)
    out = s.line("/rule 79.1")
    assert "┃ ▶ 79.1" in out and "Press ENTER" not in out
    assert s.close() == 0


@pytest.mark.parametrize("width", [80, 100, 119, 120, 121])
def test_the_terminal_app_loses_no_character_at_any_width(ctx, width):
    """Wide (Hangul) characters at a line's edge are wrapped, never cut (/rule 76 at 120)."""
    import collections
    import io

    from rich.console import Console

    from tabletop.console import terminal
    from tabletop.core.render import plain

    for section in ctx.compendium.packs["ti4"].sections:
        answer = run_command(ctx, f"/rule {section.id}")
        for page in range(len(answer.pages)):
            reply = answer.reply(page)
            out = io.StringIO()
            terminal.render(Console(file=out, width=width, force_terminal=True, color_system=None), reply, [])
            wanted = collections.Counter(
                c for e in reply.embeds for c in plain(e.description + "".join(v for _, v in e.fields)) if not c.isspace()
            )
            assert not wanted - collections.Counter(c for c in out.getvalue() if not c.isspace()), (section.id, page)


def test_a_refused_press_leaves_the_choices_on_screen(compendium, state):
    """A number past the choices (or any refusal) is answered aside; the buttons stay, as on
    Discord, so the next number still presses one."""
    import io

    from tabletop.console.app import run

    out = io.StringIO()
    run(compendium, state, stdin=io.StringIO("/rule 79\n9\n1\n"), stdout=out)
    refused = pattern("console.no_choice_only", number=9).search(out.getvalue())
    assert refused
    before, after = out.getvalue()[: refused.start()], out.getvalue()[refused.end() :]
    assert "━━ 79 폭격" in before and "━━ 75 침공" in after, after[:200]


def test_a_piped_odds_chart_is_saved_and_its_path_shown(cli_env):
    out = run_bot(["console"], cli_env, stdin="/odds ground attacker:3 infantry defender:2 infantry\n")
    assert out.returncode == 0, out.stderr
    found = re.search(r"📎 (\S+\.png)", out.stdout)
    assert found and Path(found.group(1)).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_number_that_is_no_button_suggests_only_a_rule_that_exists(cli_env):
    out = run_bot(["console"], cli_env, stdin="/rule 79.1\n999\n80\n")
    assert out.returncode == 0, out.stderr
    assert said("console.no_choice_only", out.stdout, number=999) and "/rule 999" not in out.stdout
    assert said("console.no_choice", out.stdout, number=80)


def test_with_no_home_the_history_stays_in_memory_and_writes_nothing(monkeypatch, tmp_path):
    import pwd

    from prompt_toolkit.history import InMemoryHistory

    from tabletop.console.terminal import open_history

    def nobody(uid):
        raise KeyError(uid)

    monkeypatch.delenv("HOME", raising=False)
    monkeypatch.delenv("XDG_STATE_HOME", raising=False)
    monkeypatch.setattr(pwd, "getpwuid", nobody)
    monkeypatch.chdir(tmp_path)
    assert isinstance(open_history(), InMemoryHistory) and list(tmp_path.iterdir()) == []


def test_a_lone_menus_options_are_numbered_without_the_menus_name():
    from tabletop.console.printed import choices
    from tabletop.core.render import Reply, Select, SelectOption

    one = Select("pick", "열어 볼 항목 고르기…", [SelectOption("79 폭격", "79"), SelectOption("80 피해 견딤", "80")])
    assert [c.label for c in choices(Reply(rows=[[one]]))] == ["79 폭격", "80 피해 견딤"]
    other = Select("other", "결과 고르기…", [SelectOption("가결", "0")])
    labels = [c.label for c in choices(Reply(rows=[[one], [other]]))]
    assert labels == ["열어 볼 항목 고르기: 79 폭격", "열어 볼 항목 고르기: 80 피해 견딤", "결과 고르기: 가결"]


@pytest.mark.parametrize(("count", "shown", "not_shown"), [(1, "1", "1–1"), (3, "1–3", "1–1")])
def test_a_number_past_the_buttons_names_the_ones_there_are(ctx, count, shown, not_shown):
    message = lines.no_choice(ctx, 7, count)
    assert said("console.no_choice_only", message, number=7, choices=shown) and not_shown not in message


def test_each_console_line_runs_on_the_bots_clock(ctx, monkeypatch):
    """A state wait in the console ends within the limit the bot gives the same command (a
    frozen server cannot freeze the console); the clock is gone once the line is answered."""
    from tabletop.core.limits import ANSWER_LIMIT, DEFERRED_LIMIT, time_left

    seen: dict[str, float] = {}
    monkeypatch.setattr(commands, "dispatch", lambda c, name, options: seen.setdefault(name, time_left(99)))
    run_command(ctx, "/rule 79.1")
    run_command(ctx, "/odds space attacker:1 cruiser defender:1 cruiser")
    assert ANSWER_LIMIT - 0.5 < seen["rule"] <= ANSWER_LIMIT
    assert DEFERRED_LIMIT - 0.5 < seen["odds space"] <= DEFERRED_LIMIT
    assert time_left(99) == 99


@pytest.mark.parametrize(
    ("line", "name"),
    [
        ("/확률 지상전 attacker:2 보병 defender:1 보병", "odds ground"),
        ("/확률 ground attacker:2 보병 defender:1 보병", "odds ground"),
        ("/odds 지상전 attacker:2 보병 defender:1 보병", "odds ground"),
        ("/確率 space attacker:2 dread defender:1 cruiser", "odds space"),
        ("/정책 start name:분리 독트린", "agenda start"),
        ("/갤럭시트러커 meteor incoming:큰 앞", "gt meteor"),
        ("/규칙 79.1", "rule"),
    ],
)
def test_a_group_and_its_subcommand_are_known_by_their_names_in_every_language(ctx, monkeypatch, line, name):
    """As on Discord, where each player sees the names in their language: a group and its
    subcommand in any of ko, en, ja, mixed as typed."""
    asked: list[str] = []
    monkeypatch.setattr(commands, "dispatch", lambda c, n, options: asked.append(n))
    run_command(ctx, line)
    assert asked == [name]


def test_help_takes_a_groups_name_in_any_language(ctx):
    assert printed(run_command(ctx, "/help 확률")) == printed(run_command(ctx, "/help odds"))
