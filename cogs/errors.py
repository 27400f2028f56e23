"""The one error handler: a user's mistake gets its message, anything else an apology with an
error id that is also in the log. Always ephemeral; never a traceback in the channel."""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from cogs.cards import layout
from tabletop.core.errors import UserError, unexpected
from tabletop.core.i18n import speaking, t
from tabletop.core.render import COLOR_ERROR, Embed, Reply

log = logging.getLogger(__name__)


async def answer_error(interaction: discord.Interaction, error: Exception) -> None:
    original = getattr(error, "original", error)
    with speaking(interaction.locale):  # in the asker's language, whichever task reports it
        message = _message(original)
    card = layout(Reply(embeds=[Embed(description=message, color=COLOR_ERROR)]))
    try:
        if interaction.response.is_done():
            await interaction.followup.send(view=card, ephemeral=True)
        else:
            await interaction.response.send_message(view=card, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not deliver an error message", exc_info=True)


def _message(original: BaseException) -> str:
    if isinstance(original, UserError):
        message = original.message
    elif isinstance(original, (app_commands.MissingPermissions, app_commands.CheckFailure)):
        message = t("error.no_permission")
    else:
        message = unexpected(original, "command")
    return message
