"""The persistent "roll again" and "odds" buttons of combat and dice answers (the commands
themselves are made from the command table, in cogs.commands)."""

from __future__ import annotations

import re

import discord
from discord.ext import commands

from tabletop.combat.commands import odds_of, roll_again

from . import workers
from .ui import component_factory, context, reports_errors, show_answer


class RollAgainButton(discord.ui.DynamicItem[discord.ui.Button], template=r"combat:again:(?P<id>\d+)"):
    """Re-runs a logged roll or battle with a new seed; the id points into the state database."""

    def __init__(self, roll_id: int, label: str = "🎲") -> None:
        super().__init__(discord.ui.Button(label=label, emoji="🎲", custom_id=f"combat:again:{roll_id}"))
        self.roll_id = roll_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match):
        return cls(int(match["id"]), item.label or "🎲")

    @reports_errors
    async def callback(self, interaction: discord.Interaction) -> None:
        ctx = context(interaction)
        await show_answer(interaction, await workers.call(roll_again, ctx, self.roll_id, heavy=True, locale=ctx.locale))


@component_factory(r"combat:again:\d+")
def _again(component):
    return RollAgainButton(int(component.custom_id.rsplit(":", 1)[1]), component.label)


class OddsButton(discord.ui.DynamicItem[discord.ui.Button], template=r"combat:odds:(?P<id>\d+)"):
    """Opens the exact odds of a logged battle, with its chart, for whoever presses it."""

    def __init__(self, roll_id: int, label: str = "📊") -> None:
        super().__init__(discord.ui.Button(label=label, emoji="📊", custom_id=f"combat:odds:{roll_id}"))
        self.roll_id = roll_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match):
        return cls(int(match["id"]), item.label or "📊")

    @reports_errors
    async def callback(self, interaction: discord.Interaction) -> None:
        ctx = context(interaction)
        answer = await workers.call(odds_of, ctx, self.roll_id, heavy=True, locale=ctx.locale)
        await show_answer(interaction, answer, ephemeral=True)


@component_factory(r"combat:odds:\d+")
def _odds(component):
    return OddsButton(int(component.custom_id.rsplit(":", 1)[1]), component.label)


DYNAMIC_ITEMS = [RollAgainButton, OddsButton]


async def setup(bot: commands.Bot) -> None:
    if hasattr(bot, "add_dynamic_items"):
        bot.add_dynamic_items(*DYNAMIC_ITEMS)
