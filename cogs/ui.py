"""Turn the core's library-neutral replies into discord.py embeds, buttons and menus, and make
the request's context (who asks, where, in which language) from an interaction."""

from __future__ import annotations

import contextlib
import logging

import discord

from cogs.cards import layout
from cogs.errors import answer_error
from tabletop.core import commands as core
from tabletop.core.i18n import LOCALE, command_text, lang, t
from tabletop.core.payloads import check_limits
from tabletop.core.render import Button, Reply, Select
from tabletop.store import begin_request

log = logging.getLogger(__name__)

PAGER_TIMEOUT = 600  # seconds; then the paging buttons are removed

_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def L(key: str) -> discord.app_commands.locale_str:
    """A command or option name/description from the core's table (English as the default)."""
    return discord.app_commands.locale_str(command_text(key, "en") or key, key=key)


def send_kwargs(reply: Reply, view: discord.ui.LayoutView | None = None) -> dict:
    """What to send or edit a message with: the reply as a card (`view`, or one with its links
    only); no content and no embeds, which a card replaces (an older message edited into one
    loses them)."""
    problems = check_limits(reply)
    if problems:  # the core pages every answer within the limits: this is a bug, say where
        log.error("a reply breaks Discord's limits: %s", "; ".join(problems))
    return {"view": view if view is not None else layout(reply), "embeds": [], "content": None}


def reports_errors(callback):
    """For button, menu and form callbacks, which the command tree's error handler does not see:
    any failure is answered like a command's (ephemeral; an error id for the unexpected)."""

    async def guarded(self, interaction: discord.Interaction, *args) -> None:
        lifecycle = getattr(interaction.client, "lifecycle", None)
        if lifecycle is not None and lifecycle.stopping:
            with contextlib.suppress(discord.HTTPException):
                await interaction.response.send_message(t("bot.stopping", locale_of(interaction)), ephemeral=True)
            return
        begin_request(str(interaction.id))  # a press delivered twice changes state once
        speak_as_asked(interaction)
        try:
            if lifecycle is not None:
                async with lifecycle.track():
                    await callback(self, interaction, *args)
            else:
                await callback(self, interaction, *args)
        except Exception as exc:  # noqa: BLE001 - every failure gets an answer
            await answer_error(interaction, exc)

    guarded.__name__ = callback.__name__
    guarded.__doc__ = callback.__doc__
    return guarded


def context(interaction: discord.Interaction) -> core.Context:
    """Who asks, where, with the bot's data; a mention's id is shown as the member's name."""
    client = interaction.client
    perms = getattr(interaction, "permissions", None)
    guild = interaction.guild

    def resolve(uid: str) -> str:
        member = guild.get_member(int(uid)) if guild and hasattr(guild, "get_member") else None
        return member.display_name if member else f"<@{uid}>"

    return core.Context(
        compendium=client.compendium,  # type: ignore[attr-defined]
        state=client.state,  # type: ignore[attr-defined]
        user_id=str(interaction.user.id),
        user_name=interaction.user.display_name,
        # without a server (a DM, a group DM) the asker's own settings stand in for a server's,
        # and the asker manages them
        guild_id=str(interaction.guild_id or f"dm-{interaction.user.id}"),
        channel_id=str(interaction.channel_id),
        is_admin=interaction.guild_id is None or bool(perms and perms.manage_guild),
        in_server=interaction.guild_id is not None,
        resolve_user=resolve,
    )


def locale_of(interaction: discord.Interaction) -> str:
    return str(interaction.locale)


def speak_as_asked(interaction: discord.Interaction) -> None:
    """Answer this interaction in the asker's language: every message below reads it from the
    request's context (each interaction runs in its own task, and the worker pool copies it)."""
    LOCALE.set(lang(interaction.locale))


def plain_button(component: Button) -> discord.ui.Button:
    return discord.ui.Button(
        label=component.label,
        custom_id=component.custom_id,
        style=_STYLES[component.style],
        disabled=component.disabled,
        emoji=component.emoji or None,
    )


def plain_select(component: Select) -> discord.ui.Select:
    return discord.ui.Select(
        custom_id=component.custom_id,
        placeholder=component.placeholder,
        options=[
            discord.SelectOption(label=o.label, value=o.value, description=o.description or None) for o in component.options
        ],
    )


async def sent_message(interaction: discord.Interaction, sent: object) -> discord.InteractionMessage:
    """The message an interaction's response created: Discord returns it with the response, so
    asking for it again (a second request per answer) is only for a response that lacks it."""
    resource = getattr(sent, "resource", None)
    return resource if isinstance(resource, discord.InteractionMessage) else await interaction.original_response()
