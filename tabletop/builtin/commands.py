"""Commands every front end has whatever features are loaded: server settings, the console's
choice of game, and /help."""

from __future__ import annotations

from dataclasses import dataclass

from tabletop.core import settings as settings_
from tabletop.core.commands import COMMANDS, CONTENT, Context, Values, command, description_key, opt
from tabletop.core.errors import UserError
from tabletop.core.i18n import t
from tabletop.core.render import CONTENT_MAX, Embed, Reply, chunk_lines
from tabletop.core.timezones import check_zone
from tabletop.rules import answers
from tabletop.rules.commands import GAME
from tabletop.rules.compendium import compendium_of


@dataclass(frozen=True)
class Settings(Values):
    chat: bool | None = opt()
    game: str | None = opt(**GAME)
    timezone: str | None = opt(max_length=64)  # the longest IANA zone names are about 30
    agenda_windows: bool | None = opt()
    content: str | None = opt(**CONTENT)


@command("settings", Settings, admin=True)  # in a server its managers'; in a DM or group DM the asker's own
def settings(ctx: Context, values: Settings):
    """Server settings: chat mode on/off, the default game, the time zone for times shown, and
    whether agendas open with the when and after windows, and the content combat reads units
    for. Without options: show them. A bad
    value changes nothing (all are checked first)."""
    chat, agenda_windows, content = values.chat, values.agenda_windows, values.content
    zone = check_zone(values.timezone) if values.timezone is not None else None  # every value checked
    game = answers.check_game(compendium_of(ctx), values.game) if values.game is not None else None  # before any is written
    changes: list[tuple[settings_.Setting, object]] = []
    lines = []
    if content is not None:  # a choice: the table of options checked it
        changes.append((settings_.CONTENT, content))
        lines.append(t("settings.content", content=t(f"choice.content.{content}")))
    if agenda_windows is not None:
        changes.append((settings_.AGENDA_WINDOWS, agenda_windows))
        state = t("settings.on" if agenda_windows else "settings.off")
        lines.append(t("settings.agenda_windows", state=state))
    if zone is not None:
        changes.append((settings_.TIMEZONE, zone))
        lines.append(t("settings.timezone", zone=zone))
    if game is not None:
        changes.append((settings_.GAME, game))
        lines.append(t("settings.game", game=ctx.compendium.packs[game].name()))
    if chat is not None:
        changes.append((settings_.CHAT, chat))
        lines.append(t("settings.chat", state=t("settings.on" if chat else "settings.off")))
    if changes:  # all in one transaction: a fault in the store writes none of them
        settings_.write(ctx.state, ctx.guild_id, *changes)
    if not lines:

        def switch(setting: settings_.Setting[bool]) -> str:
            return t("settings.is_on" if settings_.read(ctx.state, ctx.guild_id, setting) else "settings.is_off")

        game_id = settings_.read(ctx.state, ctx.guild_id, settings_.GAME)
        shown_zone = settings_.read(ctx.state, ctx.guild_id, settings_.TIMEZONE)
        lines.append(t("settings.show", chat=switch(settings_.CHAT), game=game_id, zone=shown_zone))
        lines.append(t("settings.show_agenda_windows", state=switch(settings_.AGENDA_WINDOWS)))
        lines.append(
            t("settings.show_content", content=t(f"choice.content.{settings_.read(ctx.state, ctx.guild_id, settings_.CONTENT)}"))
        )
    return Reply(embeds=[Embed(description="\n".join(lines))], ephemeral=True)


@dataclass(frozen=True)
class GameChoice(Values):
    name: str | None = opt(**GAME)


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
