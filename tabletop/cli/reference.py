"""Reference tables made from the code for the documentation site: the slash commands from the
command table and the environment variables from `core.config.VARIABLES`, in the page's
language. Generated rather than written, so a new command, option or variable shows in the docs
the day it lands and a test only has to check that each has its catalogue text."""

from __future__ import annotations

import os
from pathlib import Path

from tabletop import features
from tabletop.core import commands, config
from tabletop.core.i18n import command_text, current, speaking, t
from tabletop.core.paths import ROOT

MARKERS = {
    "<!-- generated: commands -->": lambda: commands_table(),
    "<!-- generated: variables -->": lambda: variables_table(),
}


def fill(markdown: str, language: str) -> str:
    """A page's Markdown with each generated-table marker replaced by its table, in the page's
    language (the site is built a language at a time, like the rules website)."""
    with speaking(language):
        for marker, table in MARKERS.items():
            if marker in markdown:
                markdown = markdown.replace(marker, table())
    return markdown


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _slash(name: str) -> str:
    """`/규칙` (`/rule`) in Korean or Japanese, `/rule` in English (and for the console's own
    commands, which Discord never shows): what a player types."""
    words = name.split()
    shown = " ".join(command_text(f"cmd.{'.'.join(words[: i + 1])}", current()) or words[i] for i in range(len(words)))
    return f"`/{name}`" if shown == name else f"`/{shown}` (`/{name}`)"


def _options(cmd: commands.Command) -> str:
    parts = []
    for option in cmd.options:
        name = t(f"opt.{option.name}")
        required = f" ({t('docs.required')})" if option.required else ""
        parts.append(f"`{name}`{required}: {t(commands.description_key(cmd, option))}")
    return "<br>".join(parts) or "—"


def _flags(cmd: commands.Command) -> str:
    flags = [("admin", cmd.admin), ("server", cmd.guild_only), ("private", cmd.private), ("console", cmd.console_only)]
    return ", ".join(t(f"docs.flag.{name}") for name, on in flags if on) or "—"


def commands_table() -> str:
    """Every slash command with its description, options and who may use it."""
    features.load()
    head = [t(f"docs.column.{c}") for c in ("command", "what", "options", "who")]
    rows = [f"| {' | '.join(head)} |", "|---|---|---|---|"]
    for name, cmd in sorted(commands.COMMANDS.items()):
        described = t(f"cmd.{cmd.key}.desc")
        cells = (_slash(name), described, _options(cmd), _flags(cmd))
        rows.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    return "\n".join(rows)


def _shown_default(value: str) -> str:
    """A default as a reader of the docs would find it: relative to the checkout, `~` for home."""
    if not value:
        return "—"
    path = Path(value)
    if path.is_absolute() and path.is_relative_to(ROOT):
        return f"`{path.relative_to(ROOT).as_posix()}`"
    home = os.path.expanduser("~")
    return f"`~{value[len(home) :]}`" if home != "~" and value.startswith(home) else f"`{value}`"


def variables_table() -> str:
    """Every environment variable the product reads, its default and what it is for."""
    head = [t(f"docs.column.{c}") for c in ("variable", "default", "what")]
    rows = [f"| {' | '.join(head)} |", "|---|---|---|"]
    for _, name, default, _check in config.VARIABLES:
        cells = (f"`{name}`", _shown_default(default()), t(f"docs.variable.{name}"))
        rows.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    return "\n".join(rows)
