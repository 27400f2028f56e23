"""The documentation is true: the site builds with warnings as errors (links and anchors checked),
its generated tables have their text in every language, the layout names every module, every
example in the player's guide runs as written, and the README stays short with its twin."""

from __future__ import annotations

import io
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from said import said

import bot
from tabletop import features
from tabletop.cli import reference
from tabletop.console.app import run_line
from tabletop.console.printed import printed
from tabletop.core import commands, config
from tabletop.core.i18n import LOCALES, catalogue, speaking
from tabletop.rules.answers import COLOR_ERROR

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
SITE_LANGUAGES = ("ko", "en")  # every page in both; ja holds the quick start and the player's guide
README_MAX_LINES = 200  # the bound: a README a newcomer reads to the end


def pages(*languages: str, under: str = "") -> list[Path]:
    return sorted(p for lang in languages for p in (DOCS / lang / under).rglob("*.md"))


def player_pages() -> list[Path]:
    return [p for lang in LOCALES for p in [DOCS / lang / "index.md", *pages(lang, under="player")] if p.exists()]


def blocks(path: Path, language: str) -> list[str]:
    """The lines of a page's fenced blocks in `language` (```text: console lines; ```sh: shell)."""
    found = re.findall(rf"^ *```{language}\n(.*?)^ *```", path.read_text("utf-8"), re.DOTALL | re.MULTILINE)
    return [line.strip() for block in found for line in block.splitlines() if line.strip() and not line.strip().startswith("#")]


def test_the_site_builds_with_warnings_as_errors(tmp_path):
    """mkdocs --strict fails on a broken link or anchor, a page left out of the nav, a bad hook."""
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    configuration = (tmp_path / "site" / "en" / "admin" / "configuration" / "index.html").read_text("utf-8")
    assert all(f"<code>{name}</code>" in configuration for _, name, *_ in config.VARIABLES)
    assert "<!-- generated" not in configuration


def test_every_page_is_written_in_both_languages():
    assert [p.relative_to(DOCS / "ko") for p in pages("ko")] == [p.relative_to(DOCS / "en") for p in pages("en")]
    assert (DOCS / "ja" / "index.md").exists() and pages("ja", under="player")


def test_the_generated_tables_are_placed_and_have_their_text_in_every_language():
    for lang in SITE_LANGUAGES:
        assert "<!-- generated: variables -->" in (DOCS / lang / "admin" / "configuration.md").read_text("utf-8")
        assert "<!-- generated: commands -->" in (DOCS / lang / "admin" / "commands.md").read_text("utf-8")
    features.load()
    for locale in LOCALES:
        missing = [name for _, name, *_ in config.VARIABLES if f"docs.variable.{name}" not in catalogue(locale)]
        missing += [name for name, cmd in commands.COMMANDS.items() if f"cmd.{cmd.key}.desc" not in catalogue(locale)]
        assert missing == [], locale
    with speaking("en"):
        table = reference.commands_table()
    assert all(f"`/{name}`" in table for name in commands.COMMANDS)


def test_the_layout_names_every_module():
    """Each module of tabletop/ is named in a layout row of its package, in both languages."""
    for lang in SITE_LANGUAGES:
        text = (DOCS / lang / "contributor" / "architecture.md").read_text("utf-8")
        rows = {line.split("|")[1].strip(" `"): line for line in text.splitlines() if line.startswith("| `tabletop")}
        missing = []
        for path in sorted((ROOT / "tabletop").rglob("*.py")):
            if path.name == "__init__.py":
                continue
            folder = f"tabletop/{path.parent.relative_to(ROOT / 'tabletop')}/".replace("/./", "/")
            row = rows.get(folder) or rows.get(f"tabletop/{path.name}")
            if row is None or f"`{path.name}`" not in row and not row.startswith(f"| `tabletop/{path.name}`"):
                missing.append(str(path.relative_to(ROOT)))
        assert missing == [], lang


def console_examples() -> dict[str, list[str]]:
    """Each player's page (player/combat.md…) with the console lines of all its languages, each
    distinct line once: the translations share their examples, which need running only once."""
    out: dict[str, list[str]] = {}
    for page in player_pages():
        language = page.relative_to(DOCS).parts[0]
        lines = out.setdefault(str(page.relative_to(DOCS / language)), [])
        lines += [line for line in blocks(page, "text") if line not in lines]
    return out


@pytest.mark.parametrize("page", sorted(console_examples()))
def test_every_console_example_of_the_players_guide_runs(page, compendium, state):
    features.load()
    ctx = commands.Context(compendium, state, user_id="console", user_name="console", is_admin=True)
    for line in console_examples()[page]:
        for reply in run_line(ctx, line):
            text = printed(reply)
            assert all(e.color != COLOR_ERROR for e in reply.embeds), (line, text)
            assert not said("error.unexpected", text) and not said("error.unexpected", text, "en"), line
            assert not text.startswith(("알 수 없는", "'")), (line, text)  # no refusal of the line itself


def shell_examples() -> list[tuple[str, str]]:
    return [(str(p.relative_to(DOCS)), line) for p in player_pages() for line in blocks(p, "sh")]


@pytest.mark.parametrize(("page", "line"), shell_examples())
def test_every_command_line_example_of_the_players_guide_runs(page, line, rules_db, tmp_path, monkeypatch, capsys):
    words = shlex.split(line)
    if words[:2] != ["python", "bot.py"]:
        assert words[0] in ("python3", "bash", ".venv/bin/python", ". .venv/bin/activate"), (page, line)
        return  # the quick start's set-up lines: the README's commands, run by CI itself
    monkeypatch.setenv("RULES_DB", str(rules_db))
    monkeypatch.setenv("STATE_DB", str(tmp_path / "state.db"))
    monkeypatch.chdir(tmp_path)  # a --chart or site path in an example lands here
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # a console example reads nothing and ends
    config.forget_choices()
    code = bot.main(words[2:])
    assert code == 0, (page, line, capsys.readouterr())


def test_the_readme_is_short_and_its_twin_says_the_same_commands():
    korean, english = (ROOT / "README.md").read_text("utf-8"), (ROOT / "README.en.md").read_text("utf-8")
    assert len(korean.splitlines()) <= README_MAX_LINES and len(english.splitlines()) <= README_MAX_LINES
    fenced = [re.findall(r"```sh\n(.*?)```", text, re.DOTALL) for text in (korean, english)]
    assert fenced[0] == fenced[1] and len(fenced[0]) >= 2
    for command in fenced[0][:2]:
        assert any(command in p.read_text("utf-8") for p in pages("ko", "en"))  # the docs repeat the two commands


def test_the_readmes_links_reach_existing_files():
    for name in ("README.md", "README.en.md"):
        targets = re.findall(r"\]\(([^)#]+)\)", (ROOT / name).read_text("utf-8"))
        assert targets and all((ROOT / target).is_file() for target in targets), name


@pytest.mark.parametrize("name", ["README.md", "README.en.md"])
def test_each_capabilitys_example_in_the_readme_runs_in_the_console(name, compendium, state):
    """The one-line examples of the READMEs' capability list are console lines that work."""
    bullets = [line for line in (ROOT / name).read_text("utf-8").splitlines() if line.startswith("- [**")]
    examples = [code for line in bullets for code in re.findall(r"`(/[^`]+)`", line.split(" — ", 1)[1])]
    assert len(examples) >= 6
    ctx = commands.Context(compendium, state, user_id="console", user_name="console", is_admin=True)
    for line in examples:
        for reply in run_line(ctx, line):
            assert all(e.color != COLOR_ERROR for e in reply.embeds), (line, printed(reply))
