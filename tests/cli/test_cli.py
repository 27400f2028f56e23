"""The command line contract: bot.py build, rule, search, console, run, render."""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

import pytest
from run_bot import CLONE_SKIPS, card_buttons, card_parts, run_bot
from said import said

from tabletop.core.i18n import t

ROOT = Path(__file__).resolve().parents[2]


def test_rule_prints_section_with_rule_marked(cli_env):
    out = run_bot(["rule", "79.1"], cli_env)
    assert out.returncode == 0, out.stderr
    assert "79 폭격 (유닛 능력) · Bombardment" in out.stdout
    assert "┃ ▶ 79.1 1단계" in out.stdout
    assert "\n79.2 2단계" in out.stdout  # other rules shown, not marked


def test_search_json_from_stdin(cli_env):
    out = run_bot(["search", "--json", "-"], cli_env, stdin="피해견딤\n피자 레시피\n79.1\n")
    assert out.returncode == 0, out.stderr
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert rows[0]["query"] == "피해견딤" and rows[0]["results"][0]["id"] == "80"
    assert rows[0]["results"][0]["rule"] is None and rows[0]["results"][0]["title"] == "피해 견딤 (유닛 능력)"
    assert rows[1] == {"query": "피자 레시피", "results": []}
    assert rows[2]["results"][0]["rule"] == "79.1"


def test_console_speaks_slash_commands(cli_env):
    session = "/rule query:폭격\n/rule 80.3\n/rule\n/nope\n?피해 견딤\n/quit\n/rule 79\n"
    out = run_bot(["console"], cli_env, stdin=session)
    assert out.returncode == 0, out.stderr
    assert out.stdout.count("79 폭격") == 1  # nothing after /quit
    assert "┃ ▶ 80.3" in out.stdout
    assert (
        t("error.missing_option", option=f"{t('opt.query')}(query)") in out.stdout
    )  # as Discord shows it in Korean, and as the console takes it
    assert said("error.unknown_command", out.stdout, command="nope")
    assert "Traceback" not in out.stdout + out.stderr


def test_console_json_prints_discord_payloads(cli_env):
    out = run_bot(["console", "--json"], cli_env, stdin="/rule 79.1\n")
    payload = json.loads(out.stdout.splitlines()[0])
    assert card_parts(payload)["title"].startswith("79 폭격")
    assert card_buttons(payload)[0] == "rule:open:ti4:75"


def test_run_without_token_explains_and_exits_2(cli_env, tmp_path):
    out = run_bot(["run"], cli_env, cwd=tmp_path)
    assert out.returncode == 2
    assert said("run.no_token", out.stderr)
    assert "Traceback" not in out.stderr and out.stderr.strip() == t("run.no_token", "ko")  # in the CLI's language
    assert run_bot([], cli_env, cwd=tmp_path).returncode == 2  # plain `python bot.py` is `run`


def test_help_lists_commands(cli_env):
    out = run_bot(["--help"], cli_env)
    for word in ("console", "build", "search", "rule", "eval", "render", "commands", "sync"):
        assert word in out.stdout


def test_build_with_broken_yaml_exits_nonzero_and_keeps_database(tmp_path, cli_env):
    repo = tmp_path / "repo"
    shutil.copytree(ROOT, repo, ignore=shutil.ignore_patterns(*CLONE_SKIPS, "tests"))
    env = {**cli_env, "RULES_DB": str(repo / "data" / "rules.db")}
    ok = run_bot(["build"], env, cwd=repo, app=repo)
    assert ok.returncode == 0, ok.stderr
    before = (repo / "data" / "rules.db").read_bytes()
    path = repo / "rules" / "ti4" / "80.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("title: 피해 견딤", "title: ''"), encoding="utf-8")
    bad = run_bot(["build"], env, cwd=repo, app=repo)
    assert bad.returncode == 1
    assert "rules/ti4/80.yaml: section 80: 'title' is missing" in bad.stderr
    assert (repo / "data" / "rules.db").read_bytes() == before
    # a lookup answers from the last good database, and says so (never silently)
    rule = run_bot(["rule", "80"], env, cwd=repo, app=repo)
    assert rule.returncode == 0 and "피해 견딤" in rule.stdout
    assert said("rules.stale.invalid", rule.stderr) and "'title' is missing" in rule.stderr
    assert (repo / "data" / "rules.db").read_bytes() == before


def test_render_json_gives_every_page(cli_env):
    out = run_bot(["render", "62.19", "--json"], cli_env)
    pages = json.loads(out.stdout)
    assert len(pages) >= 1
    joined = "".join(card_parts(p)["description"] for p in pages)
    assert "62.19" in joined and "62.1**" in joined


def test_console_agenda_carries_over_between_sessions(cli_env, tmp_path):
    state = str(tmp_path / "votes.db")
    first = run_bot(
        ["console", "--json", "--state", state],
        cli_env,
        stdin="/agenda start name:의회 해산 players:Alice, Bob speaker:Bob kind:law\nas Alice: /agenda vote outcome:가결 votes:4\n",
    )
    assert first.returncode == 0, first.stderr
    started = json.loads(first.stdout.splitlines()[0])
    assert card_parts(started)["title"] == f"{t('agenda.title', id=1, name='의회 해산')} ({t('agenda.kind.law')})"
    assert card_buttons(started)[:2] == ["agenda:1:vote:0", "agenda:1:vote:1"]
    second = run_bot(["console", "--json", "--state", state], cli_env, stdin="as Bob: /agenda close\n")
    closed = json.loads(second.stdout.splitlines()[0])
    closing = card_parts(closed)["description"]
    assert t("agenda.result", winner="가결") in closing and t("agenda.card.stays") in closing
    assert card_buttons(closed) == []


def test_a_first_start_says_the_rules_are_being_built(cli_env):
    """The first start builds the rules database: the console says so instead of looking stuck."""
    out = run_bot(["rule", "79.1"], cli_env)
    assert out.returncode == 0 and t("rules.building") in out.stderr
    again = run_bot(["rule", "79.1"], cli_env)
    assert not said("rules.building", again.stderr)  # built: nothing to say


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    found: dict[str, argparse.ArgumentParser] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found.update(action.choices)
    return found


def test_the_command_lines_are_made_from_the_command_table():
    """One flag per option of the table, with its limits checked by the table: nothing is
    declared a second time for the shell (rule, search and render skip only `private`)."""
    from tabletop.cli import arguments
    from tabletop.cli import main as entry
    from tabletop.core.commands import COMMANDS

    top = _subparsers(entry.parser())
    names = [name for name, cmd in COMMANDS.items() if cmd.group in ("combat", "odds", "roll")]
    assert len(names) == 8
    shell = [
        (name, top[name.split()[0]] if " " not in name else _subparsers(top[name.split()[0]])[name.split()[1]]) for name in names
    ]
    shell += [("rule", top["rule"]), ("search", top["search"]), ("rule", top["render"])]
    for name, parser in shell:
        cmd = COMMANDS[name]
        skipped = entry.SHELL_SKIPS if cmd.group in ("rule", "search") else ()
        dests = {a.dest for a in parser._actions}
        assert {o.name for o in cmd.options if o.name not in skipped} <= dests and not set(skipped) & dests, name
        first = arguments.positional(cmd)
        for opt in (o for o in cmd.options if o.name not in skipped):
            action = next(a for a in parser._actions if a.dest == opt.name)
            if opt is first:
                assert not action.option_strings
            else:
                assert action.option_strings == [arguments.flag(opt)] and action.required == opt.required, (name, opt.name)


def test_a_command_line_value_out_of_the_tables_limits_gets_its_sentence(cli_env):
    out = run_bot(["combat", "ground", "--attacker", "3 infantry", "--defender", "2 infantry", "--attacker-mod", "11"], cli_env)
    assert out.returncode == 1 and "attacker_mod" in out.stderr and "-10" in out.stderr and "Traceback" not in out.stderr


def test_eval_reads_the_pack_from_the_file_name_and_fit_needs_two_packs(cli_env):
    out = run_bot(["eval", "tests/eval/liftoff_players.yaml", "--json"], cli_env)
    assert out.returncode == 0 and json.loads(out.stdout)["overall"]["top3"] > 0.5  # scored against Liftoff
    out = run_bot(["eval", "tests/eval/ti4_own.yaml", "--fit", "tests/eval/ti4_players.yaml"], cli_env)
    assert out.returncode == 1 and t("eval.fit_needs_two") in out.stderr and "Traceback" not in out.stderr


def test_render_of_a_refused_query_prints_the_refusal_and_fails(cli_env):
    out = run_bot(["render", "", "--json"], cli_env)
    assert out.returncode == 1 and json.loads(out.stdout)[0]["flags"] == 64 | 1 << 15  # an ephemeral error card
    assert run_bot(["render", "79.1", "--json"], cli_env).returncode == 0


@pytest.mark.parametrize(
    "args",
    [
        ["rule", "--locale", "ko", "--locale", "en", "79.1"],
        ["search", "--limit", "3", "--limit", "4", "폭격"],
        ["odds", "ground", "--attacker", "1 infantry", "--defender", "1 infantry", "--chart", "a.png", "--chart", "b.png"],
        ["pack", "import", "notes.txt", "--id", "x", "--id", "y", "--dry-run"],
        ["console", "--state", "a.db", "--state", "b.db"],
    ],
)
def test_a_hand_written_flag_given_twice_is_refused_too(cli_env, tmp_path, args):
    out = run_bot(args, cli_env, cwd=tmp_path)
    assert out.returncode == 2 and said("cli.given_twice", out.stderr) and out.stdout == "", args
    assert not list(tmp_path.iterdir())  # nothing written


def test_an_option_given_twice_is_refused_not_overwritten(cli_env):
    args = ["odds", "ground", "--attacker", "2 infantry", "--attacker", "30 infantry", "--defender", "1 infantry"]
    out = run_bot(args, cli_env)
    assert out.returncode == 2 and said("cli.given_twice", out.stderr, option="--attacker") and out.stdout == ""


def test_a_python_without_the_packages_is_told_how_to_set_up_not_shown_a_traceback():
    import subprocess
    import sys

    bare = subprocess.run(  # -S: no site-packages, as a system Python before setup
        [sys.executable, "-S", str(ROOT / "bot.py"), "rule", "79.1"], capture_output=True, text=True, cwd=ROOT
    )
    assert bare.returncode == 1 and "Traceback" not in bare.stderr
    assert said("setup.missing_module", bare.stderr)


def test_eval_fit_reports_what_each_ranker_finds_alone(cli_env):
    files = ["tests/eval/liftoff_players.yaml", "tests/eval/new_frontiers_players.yaml"]
    out = run_bot(["eval", files[0], "--fit", *files, "--json"], cli_env)
    assert out.returncode == 0, out.stderr
    figures = json.loads(out.stdout)["rankers"]
    assert set(figures) == {"liftoff", "new-frontiers"}
    for by in figures.values():
        assert set(by) == {"fused", "words", "meaning", "either"}
        assert all(by[r]["n"] == 23 for r in by)  # every answerable question, the names' included
        assert by["fused"]["top3"] > by["words"]["top3"]  # what the meaning adds to the words, on these packs


def test_sync_that_cannot_reach_discord_says_why_in_one_line(cli_env, monkeypatch, capsys):
    import cogs.client
    from tabletop.cli import main

    def unreachable(token, guild):
        raise OSError("Cannot connect to host discord.com:443\n(a second line)")

    monkeypatch.setattr(cogs.client, "sync_commands", unreachable)
    monkeypatch.setenv("DISCORD_TOKEN", "abc.def.ghi")
    monkeypatch.setenv("STATE_DB", cli_env["STATE_DB"])
    assert main.main(["sync", "--guild", "123"]) == main.EXIT_FAULT
    err = capsys.readouterr().err.strip()
    assert err.startswith("sync: cannot reach Discord") and "\n" not in err and "abc.def.ghi" not in err


def test_a_port_out_of_range_is_refused_before_the_site_is_written(cli_env, tmp_path):
    for port in ("70000", "-1", "http"):
        out = run_bot(["site", str(tmp_path / "site"), "--port", port, "--serve"], cli_env)
        assert out.returncode == 2 and "--port" in out.stderr and "Traceback" not in out.stderr, port
        assert not (tmp_path / "site").exists()
