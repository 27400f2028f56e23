"""Galaxy Trucker dice on Discord: /gt meteor and /gt sabotage. Thin: the core rolls and lays out."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from . import workers
from .rules import context
from .ui import L, show_answer

Seed = app_commands.Range[str, 1, 20]


class GalaxyTruckerCog(commands.Cog):
    gt = app_commands.Group(name=L("cmd.gt"), description=L("cmd.gt.desc"))

    def __init__(self, bot: commands.Bot):
        self.bot = bot

    @gt.command(name=L("cmd.gt.meteor"), description=L("cmd.gt.meteor.desc"))
    @app_commands.rename(incoming=L("opt.incoming"), seed=L("opt.seed"))
    @app_commands.describe(incoming=L("opt.gt.incoming.desc"), seed=L("opt.seed.desc"))
    async def meteor(
        self, interaction: discord.Interaction, incoming: app_commands.Range[str, 1, 300] | None = None, seed: Seed | None = None
    ) -> None:
        await show_answer(interaction, await workers.run(context(interaction), "gt meteor", incoming=incoming, seed=seed))

    @gt.command(name=L("cmd.gt.sabotage"), description=L("cmd.gt.sabotage.desc"))
    @app_commands.rename(seed=L("opt.seed"))
    @app_commands.describe(seed=L("opt.seed.desc"))
    async def sabotage(self, interaction: discord.Interaction, seed: Seed | None = None) -> None:
        await show_answer(interaction, await workers.run(context(interaction), "gt sabotage", seed=seed))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(GalaxyTruckerCog(bot))
