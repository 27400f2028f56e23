"""Commands every front end has whatever features are loaded: server settings, the console's
choice of game, and /help."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tabletop.core import settings as settings_
from tabletop.core.commands import COMMANDS, Context, Values, command, description_key, localized_names, opt
from tabletop.core.errors import UserError
from tabletop.core.i18n import t
from tabletop.core.render import CONTENT_MAX, Embed, Reply, chunk_lines
from tabletop.core.timezones import check_zone
from tabletop.rules import answers
from tabletop.rules.compendium import compendium_of


@dataclass(frozen=True)
class Settings(Values):  # one field per setting, named as it, with the option it carries
    chat: bool | None = opt(**settings_.CHAT.option)
    game: str | None = opt(**settings_.GAME.option)
    timezone: str | None = opt(**settings_.TIMEZONE.option)
    agenda_windows: bool | None = opt(**settings_.AGENDA_WINDOWS.option)
    content: str | None = opt(**settings_.CONTENT.option)


@dataclass(frozen=True)
class Changeable:
    """A setting as /settings changes it: its value checked (a sentence when wrong), and said."""

    setting: settings_.Setting[Any]
    said: Callable[[Context, Any], str]
    check: Callable[[Context, Any], Any] = lambda ctx, value: value  # the table of options checked it


def _on_off(value: bool) -> str:
    return t("settings.on" if value else "settings.off")


CHANGEABLE = (  # in the order a change is said
    Changeable(settings_.CONTENT, lambda ctx, v: t("settings.content", content=t(f"choice.content.{v}"))),
    Changeable(settings_.AGENDA_WINDOWS, lambda ctx, v: t("settings.agenda_windows", state=_on_off(v))),
    Changeable(settings_.TIMEZONE, lambda ctx, v: t("settings.timezone", zone=v), lambda ctx, v: check_zone(v)),
    Changeable(
        settings_.GAME,
        lambda ctx, v: t("settings.game", game=ctx.compendium.packs[v].name()),
        lambda ctx, v: answers.check_game(compendium_of(ctx), v),
    ),
    Changeable(settings_.CHAT, lambda ctx, v: t("settings.chat", state=_on_off(v))),
)


@command("settings", Settings, admin=True)  # in a server its managers'; in a DM or group DM the asker's own
def settings(ctx: Context, values: Settings):
    """Server settings: chat mode on/off, the default game, the time zone for times shown, and
    whether agendas open with the when and after windows, and the content combat reads units
    for. Without options: show them. A bad value changes nothing: every value is checked
    before any is written, and all are written in one transaction."""
    asked = [(c, getattr(values, c.setting.key)) for c in CHANGEABLE if getattr(values, c.setting.key) is not None]
    changes = [(c, c.check(ctx, value)) for c, value in asked]
    if changes:
        settings_.write(ctx.state, ctx.guild_id, *((c.setting, value) for c, value in changes))
        lines = [c.said(ctx, value) for c, value in changes]
    else:
        lines = _shown(ctx)
    return Reply(embeds=[Embed(description="\n".join(lines))], ephemeral=True)


def _shown(ctx: Context) -> list[str]:
    """The server's settings as they are."""

    def read(setting: settings_.Setting[Any]) -> Any:
        return settings_.read(ctx.state, ctx.guild_id, setting)

    def switch(setting: settings_.Setting[bool]) -> str:
        return t("settings.is_on" if read(setting) else "settings.is_off")

    return [
        t("settings.show", chat=switch(settings_.CHAT), game=read(settings_.GAME), zone=read(settings_.TIMEZONE)),
        t("settings.show_agenda_windows", state=switch(settings_.AGENDA_WINDOWS)),
        t("settings.show_content", content=t(f"choice.content.{read(settings_.CONTENT)}")),
    ]


@dataclass(frozen=True)
class GameChoice(Values):
    name: str | None = opt(**settings_.GAME.option)


@command("game", GameChoice, console_only=True)
def game(ctx: Context, values: GameChoice):
    """Console: which game's rules /rule and /search look up. With a name (an id or a name in
    any language) it switches; without one it shows the current game and the list."""
    name = values.name
    if name:
        ctx.game = answers.check_game(compendium_of(ctx), name)
    current = ctx.compendium.packs[ctx.default_game()]
    listing = "\n".join(f"{'▶' if p.id == current.id else ' '} {p.id} — {p.name()}" for p in ctx.compendium.packs.values())
    head = t("console.game" if name else "console.game_now", game=current.name())
    return Reply(content=head + "\n" + listing)


@dataclass(frozen=True)
class HelpTopic(Values):
    command: str | None = opt(max_length=40)  # a command's name: the longest is "agenda history"


@command("help", HelpTopic, console_only=True)
def help_(ctx: Context, values: HelpTopic):
    """Every command with its options, and the console's own ways: bare questions, ?, as NAME:,
    numbered buttons, the unit grammar. With a command's name (/help rule, /help agenda): that
    command and its subcommands only."""
    lines = []
    if values.command:
        wanted = values.command.strip().lstrip("/").lower()
        wanted = localized_names().get(wanted, wanted)  # /help 확률 is /help odds
        found = [c for c in COMMANDS.values() if c.name == wanted or c.name.startswith(wanted + " ")]
        if not found:
            raise UserError(t("error.unknown_command", command=wanted[:40]))
        for cmd in found:  # one command asked about: what it and each of its options are for
            opts = " ".join(f"{o.name}:" + ("…" if o.required else "[…]") for o in cmd.options)
            lines += [f"/{cmd.name} {opts}".rstrip(), f"  {t(f'cmd.{cmd.key}.desc')}"]
            lines += [f"  • {o.name}: {t(description_key(cmd, o))}" for o in cmd.options]
        return _messages(lines)
    for cmd in COMMANDS.values():
        opts = " ".join(f"{o.name}:" + ("…" if o.required else "[…]") for o in cmd.options)
        lines.append(f"/{cmd.name} {opts}".rstrip())
    lines.append("/quit")
    lines += ["", t("help.console"), "", t("help.units")]
    return _messages(lines)


def _messages(lines: list[str]) -> Reply:
    """The lines as one message, or as several that each fit a message (nothing cut)."""
    first, *rest = [Reply(content=chunk) for chunk in chunk_lines(lines, CONTENT_MAX, "\n")]
    first.follow_ups = rest
    return first
