"""Combat dice and odds on Discord: /combat space|ground|bombard|invade, /odds space|ground|invade
and /roll, with persistent "roll again" and "odds" buttons. Thin: the core parses the sides,
rolls, computes the odds, logs and lays out the pages."""

from __future__ import annotations

import re

import discord
from discord import app_commands
from discord.ext import commands

from tabletop.combat.commands import odds_of, roll_again

from . import workers
from .rules import context
from .ui import L, component_factory, reports_errors, send_followup, show_answer

Side = app_commands.Range[str, 1, 500]
Mod = app_commands.Range[int, -10, 10]
Seed = app_commands.Range[str, 1, 20]


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


SIDES_RENAME = dict(
    attacker=L("opt.attacker"),
    defender=L("opt.defender"),
    attacker_mod=L("opt.attacker_mod"),
    defender_mod=L("opt.defender_mod"),
    attacker_order=L("opt.attacker_order"),
    defender_order=L("opt.defender_order"),
)
SIDES_DESCRIBE = dict(
    attacker=L("opt.combat.side.desc"),
    defender=L("opt.combat.side.desc"),
    attacker_mod=L("opt.combat.mod.desc"),
    defender_mod=L("opt.combat.mod.desc"),
    attacker_order=L("opt.combat.order.desc"),
    defender_order=L("opt.combat.order.desc"),
)
INVADE_RENAME = dict(
    ships=L("opt.ships"),
    landing=L("opt.landing"),
    defender=L("opt.defender"),
    pds=L("opt.pds"),
    shield=L("opt.shield"),
    attacker_mod=L("opt.attacker_mod"),
    defender_mod=L("opt.defender_mod"),
    landing_order=L("opt.landing_order"),
    defender_order=L("opt.defender_order"),
)
INVADE_DESCRIBE = dict(
    ships=L("opt.combat.ships.desc"),
    landing=L("opt.combat.landing.desc"),
    defender=L("opt.combat.defender.desc"),
    pds=L("opt.combat.pds.desc"),
    shield=L("opt.combat.shield.desc"),
    attacker_mod=L("opt.combat.mod.desc"),
    defender_mod=L("opt.combat.mod.desc"),
    landing_order=L("opt.combat.order.desc"),
    defender_order=L("opt.combat.order.desc"),
)
Order = app_commands.Range[str, 1, 200]


class CombatCog(commands.Cog):
    combat = app_commands.Group(name=L("cmd.combat"), description=L("cmd.combat.desc"))
    odds = app_commands.Group(name=L("cmd.odds"), description=L("cmd.odds.desc"))

    def __init__(self, bot: commands.Bot):
        self.bot = bot

    @combat.command(name=L("cmd.combat.space"), description=L("cmd.combat.space.desc"))
    @app_commands.rename(**SIDES_RENAME, retreat=L("opt.retreat"), seed=L("opt.seed"))
    @app_commands.describe(**SIDES_DESCRIBE, retreat=L("opt.combat.retreat.desc"), seed=L("opt.seed.desc"))
    async def space(
        self,
        interaction: discord.Interaction,
        attacker: Side,
        defender: Side,
        attacker_mod: Mod | None = None,
        defender_mod: Mod | None = None,
        attacker_order: Order | None = None,
        defender_order: Order | None = None,
        retreat: app_commands.Range[str, 1, 30] | None = None,
        seed: Seed | None = None,
    ) -> None:
        paged = await workers.run(
            context(interaction),
            "combat space",
            attacker=attacker,
            defender=defender,
            attacker_mod=attacker_mod,
            defender_mod=defender_mod,
            attacker_order=attacker_order,
            defender_order=defender_order,
            retreat=retreat,
            seed=seed,
        )
        await show_answer(interaction, paged)

    @odds.command(name=L("cmd.odds.space"), description=L("cmd.odds.space.desc"))
    @app_commands.rename(**SIDES_RENAME, retreat=L("opt.retreat"))
    @app_commands.describe(**SIDES_DESCRIBE, retreat=L("opt.combat.retreat.desc"))
    async def odds_space(
        self,
        interaction: discord.Interaction,
        attacker: Side,
        defender: Side,
        attacker_mod: Mod | None = None,
        defender_mod: Mod | None = None,
        attacker_order: Order | None = None,
        defender_order: Order | None = None,
        retreat: app_commands.Range[str, 1, 30] | None = None,
    ) -> None:
        await interaction.response.defer(thinking=True)
        paged = await workers.run(
            context(interaction),
            "odds space",
            attacker=attacker,
            defender=defender,
            attacker_mod=attacker_mod,
            defender_mod=defender_mod,
            attacker_order=attacker_order,
            defender_order=defender_order,
            retreat=retreat,
        )
        await send_followup(interaction, paged)

    @odds.command(name=L("cmd.odds.ground"), description=L("cmd.odds.ground.desc"))
    @app_commands.rename(**SIDES_RENAME)
    @app_commands.describe(**SIDES_DESCRIBE)
    async def odds_ground(
        self,
        interaction: discord.Interaction,
        attacker: Side,
        defender: Side,
        attacker_mod: Mod | None = None,
        defender_mod: Mod | None = None,
        attacker_order: Order | None = None,
        defender_order: Order | None = None,
    ) -> None:
        await interaction.response.defer(thinking=True)
        paged = await workers.run(
            context(interaction),
            "odds ground",
            attacker=attacker,
            defender=defender,
            attacker_mod=attacker_mod,
            defender_mod=defender_mod,
            attacker_order=attacker_order,
            defender_order=defender_order,
        )
        await send_followup(interaction, paged)

    @odds.command(name=L("cmd.odds.invade"), description=L("cmd.odds.invade.desc"))
    @app_commands.rename(**INVADE_RENAME)
    @app_commands.describe(**INVADE_DESCRIBE)
    async def odds_invade(
        self,
        interaction: discord.Interaction,
        ships: Side,
        landing: Side,
        defender: Side | None = None,
        pds: Side | None = None,
        shield: bool | None = None,
        attacker_mod: Mod | None = None,
        defender_mod: Mod | None = None,
        landing_order: Order | None = None,
        defender_order: Order | None = None,
    ) -> None:
        await interaction.response.defer(thinking=True)
        paged = await workers.run(
            context(interaction),
            "odds invade",
            ships=ships,
            landing=landing,
            defender=defender,
            pds=pds,
            shield=shield,
            attacker_mod=attacker_mod,
            defender_mod=defender_mod,
            landing_order=landing_order,
            defender_order=defender_order,
        )
        await send_followup(interaction, paged)

    @combat.command(name=L("cmd.combat.ground"), description=L("cmd.combat.ground.desc"))
    @app_commands.rename(**SIDES_RENAME, seed=L("opt.seed"))
    @app_commands.describe(**SIDES_DESCRIBE, seed=L("opt.seed.desc"))
    async def ground(
        self,
        interaction: discord.Interaction,
        attacker: Side,
        defender: Side,
        attacker_mod: Mod | None = None,
        defender_mod: Mod | None = None,
        attacker_order: Order | None = None,
        defender_order: Order | None = None,
        seed: Seed | None = None,
    ) -> None:
        paged = await workers.run(
            context(interaction),
            "combat ground",
            attacker=attacker,
            defender=defender,
            attacker_mod=attacker_mod,
            defender_mod=defender_mod,
            attacker_order=attacker_order,
            defender_order=defender_order,
            seed=seed,
        )
        await show_answer(interaction, paged)

    @combat.command(name=L("cmd.combat.bombard"), description=L("cmd.combat.bombard.desc"))
    @app_commands.rename(
        units=L("opt.units"),
        target=L("opt.target"),
        shield=L("opt.shield"),
        target_order=L("opt.target_order"),
        seed=L("opt.seed"),
    )
    @app_commands.describe(
        units=L("opt.combat.units.desc"),
        target=L("opt.combat.target.desc"),
        shield=L("opt.combat.shield.desc"),
        target_order=L("opt.combat.order.desc"),
        seed=L("opt.seed.desc"),
    )
    async def bombard(
        self,
        interaction: discord.Interaction,
        units: Side,
        target: Side,
        shield: bool | None = None,
        target_order: Order | None = None,
        seed: Seed | None = None,
    ) -> None:
        paged = await workers.run(
            context(interaction),
            "combat bombard",
            units=units,
            target=target,
            shield=shield,
            target_order=target_order,
            seed=seed,
        )
        await show_answer(interaction, paged)

    @combat.command(name=L("cmd.combat.invade"), description=L("cmd.combat.invade.desc"))
    @app_commands.rename(**INVADE_RENAME, seed=L("opt.seed"))
    @app_commands.describe(**INVADE_DESCRIBE, seed=L("opt.seed.desc"))
    async def invade(
        self,
        interaction: discord.Interaction,
        ships: Side,
        landing: Side,
        defender: Side | None = None,
        pds: Side | None = None,
        shield: bool | None = None,
        attacker_mod: Mod | None = None,
        defender_mod: Mod | None = None,
        landing_order: Order | None = None,
        defender_order: Order | None = None,
        seed: Seed | None = None,
    ) -> None:
        paged = await workers.run(
            context(interaction),
            "combat invade",
            ships=ships,
            landing=landing,
            defender=defender,
            pds=pds,
            shield=shield,
            attacker_mod=attacker_mod,
            defender_mod=defender_mod,
            landing_order=landing_order,
            defender_order=defender_order,
            seed=seed,
        )
        await show_answer(interaction, paged)

    @app_commands.command(name=L("cmd.roll"), description=L("cmd.roll.desc"))
    @app_commands.rename(dice=L("opt.dice"), seed=L("opt.seed"))
    @app_commands.describe(dice=L("opt.roll.dice.desc"), seed=L("opt.seed.desc"))
    async def roll(
        self, interaction: discord.Interaction, dice: app_commands.Range[str, 1, 50], seed: Seed | None = None
    ) -> None:
        await show_answer(interaction, await workers.run(context(interaction), "roll", dice=dice, seed=seed))


DYNAMIC_ITEMS = [RollAgainButton, OddsButton]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(CombatCog(bot))
    if hasattr(bot, "add_dynamic_items"):
        bot.add_dynamic_items(*DYNAMIC_ITEMS)
