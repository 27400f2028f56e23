"""Discord's application commands, made from the core's command table: every command, option,
limit, choice, autocomplete and localised text is declared once, in the core, and this module
turns each into discord.py's slash command (and subcommands under their group).

How an answer is shown is the only thing a feature's cog adds, and only where the default does
not fit (an agenda's message that later clicks edit): `presenter("agenda vote", …)`.
"""

from __future__ import annotations

import functools
import importlib
import inspect
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands as ext

from tabletop.core import commands as core
from tabletop.core.render import Paged

from . import workers
from .components import card_of, send_followup, show_answer
from .registry import COMPLETERS, PRESENTERS, Completer
from .ui import L, context, send_kwargs, speak_as_asked


async def show(interaction: discord.Interaction, cmd: core.Command, values: dict) -> None:
    """The default: the core's answer, off the event loop; pages with their pager, or a reply
    with its buttons; private when the command or the asker says so."""
    private = cmd.private or bool(values.get("private"))
    if cmd.deferred:
        await interaction.response.defer(thinking=True, ephemeral=private)
    answer = await workers.run(context(interaction), cmd.name, **values)
    if not cmd.deferred:
        await show_answer(interaction, answer, ephemeral=private)
    elif isinstance(answer, Paged):
        await send_followup(interaction, answer)
    else:
        await interaction.followup.send(**send_kwargs(answer, card_of(answer)), ephemeral=private or answer.ephemeral)


def annotation(opt: core.Option) -> Any:
    """The option's type with its limits, as discord.py reads a parameter's annotation."""
    if opt.kind == "bool":
        base: Any = bool
    elif opt.kind == "int":
        limited = opt.min_value is not None or opt.max_value is not None
        base = app_commands.Range[int, opt.min_value, opt.max_value] if limited else int
    else:
        base = app_commands.Range[str, 1, opt.max_length] if opt.max_length else str
    return base if opt.required else base | None


def _complete(kind: str) -> Completer:
    async def complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        found = COMPLETERS.get(kind)
        return await found(interaction, current) if found else []

    return complete


def callback_for(cmd: core.Command) -> Callable[..., Awaitable[None]]:
    """A coroutine with one keyword parameter per option, typed and decorated from the table."""

    async def callback(interaction: discord.Interaction, **values: Any) -> None:
        speak_as_asked(interaction)
        await PRESENTERS.get(cmd.name, show)(interaction, cmd, values)

    parameters = [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction)]
    for opt in cmd.options:
        default = inspect.Parameter.empty if opt.required else None
        parameters.append(
            inspect.Parameter(opt.name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation(opt))
        )
    callback.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    callback.__qualname__ = callback.__name__ = cmd.key.replace(".", "_")
    if cmd.options:
        names = {o.name: L(f"opt.{o.name}") for o in cmd.options}
        callback = app_commands.rename(**names)(callback)
        callback = app_commands.describe(**{o.name: L(core.description_key(cmd, o)) for o in cmd.options})(callback)
    choices = {
        o.name: [app_commands.Choice(name=L(f"choice.{o.name}.{c}"), value=c) for c in o.choices]
        for o in cmd.options
        if o.choices
    }
    if choices:
        callback = app_commands.choices(**choices)(callback)
    completes = {o.name: _complete(o.autocomplete) for o in cmd.options if o.autocomplete}
    if completes:
        callback = app_commands.autocomplete(**completes)(callback)  # type: ignore[arg-type]
    if cmd.admin:
        callback = app_commands.default_permissions(manage_guild=True)(callback)
    return callback


def reach(guild_only: bool) -> dict[str, Any]:
    """Where a command may be installed and used: a user may install the bot and ask anywhere
    (any server, a group DM, its DM), except for what needs a server's shared state (agendas,
    server settings), which a server installs and uses in its channels."""
    if guild_only:
        return {
            "allowed_installs": app_commands.AppInstallationType(guild=True, user=False),
            "allowed_contexts": app_commands.AppCommandContext(guild=True, dm_channel=False, private_channel=False),
        }
    return {
        "allowed_installs": app_commands.AppInstallationType(guild=True, user=True),
        "allowed_contexts": app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True),
    }


def application_commands() -> list[app_commands.Command | app_commands.Group]:
    """Every command of the table that Discord has, grouped as declared (`agenda vote` is the
    subcommand `vote` of `/agenda`), in the table's order."""
    out: list[app_commands.Command | app_commands.Group] = []
    groups: dict[str, app_commands.Group] = {}
    shown = [c for c in core.COMMANDS.values() if not c.console_only]
    for cmd in shown:
        parts = cmd.name.split()
        parent = None
        if len(parts) == 2:
            parent = groups.get(parts[0])
            if parent is None:
                members = [c for c in shown if c.group == parts[0]]
                parent = groups[parts[0]] = app_commands.Group(
                    name=L(f"cmd.{parts[0]}"),
                    description=L(f"cmd.{parts[0]}.desc"),
                    **reach(all(c.guild_only for c in members)),  # a group says it for its subcommands
                )
                out.append(parent)
        made: app_commands.Command = app_commands.Command(
            name=L(f"cmd.{cmd.key}"),
            description=L(f"cmd.{cmd.key}.desc"),
            callback=callback_for(cmd),  # type: ignore[arg-type]
            parent=parent,
            extras={"table": cmd.name},
            **(reach(cmd.guild_only) if parent is None else {}),
        )
        if parent is not None:
            parent.add_command(made)
        else:
            out.append(made)
    return out


def find(name: str, made: list[app_commands.Command | app_commands.Group]) -> app_commands.Command:
    """A generated command by its name in the table ('agenda vote')."""
    for item in made:
        for leaf in item.commands if isinstance(item, app_commands.Group) else [item]:
            if leaf.extras.get("table") == name:
                return leaf  # type: ignore[return-value]
    raise KeyError(name)


@functools.cache
def _generated() -> tuple[app_commands.Command | app_commands.Group, ...]:
    from cogs.client import EXTENSIONS  # the feature cogs register their presenters and completers

    for name in EXTENSIONS:
        importlib.import_module(name)
    return tuple(application_commands())


def slash(name: str) -> app_commands.Command:
    """The generated command for a table name, made once per process (for scripts and tests
    that call a command as Discord would: `await slash("rule").callback(interaction, query=…)`)."""
    return find(name, list(_generated()))


async def setup(bot: ext.Bot) -> None:
    """Load last: every command of the loaded features goes on the tree."""
    for made in application_commands():
        bot.tree.add_command(made)
