"""The Discord client: loads the cogs, localises commands through the core's string table,
re-attaches persistent buttons on start, and answers every error ephemerally.
"""

from __future__ import annotations

import asyncio
import logging
from typing import cast

import discord
from discord import app_commands
from discord.ext import commands

from cogs.errors import answer_error
from cogs.ui import DYNAMIC_ITEMS
from tabletop import features
from tabletop.frontend.i18n import DISCORD_LOCALES, command_text
from tabletop.frontend.state import StateDB
from tabletop.rules.compendium import Compendium

log = logging.getLogger(__name__)
# A rules bot never joins voice: no warnings about voice libraries.
discord.VoiceClient.warn_nacl = False
discord.VoiceClient.warn_dave = False

EXTENSIONS = ("cogs.rules", "cogs.agenda", "cogs.combat", "cogs.galaxy_trucker")


class TableTranslator(app_commands.Translator):
    """Command names and descriptions from the i18n catalogues, keyed by locale_str key."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale, context) -> str | None:
        key = string.extras.get("key")
        language = DISCORD_LOCALES.get(locale.value)
        if not key or not language:
            return None
        return command_text(key, language)


class RulesBot(commands.Bot):
    def __init__(self, compendium: Compendium | None = None, state: StateDB | None = None, **kwargs):
        features.load()
        intents = discord.Intents.default()
        intents.message_content = True  # chat mode (?질문) reads message text
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None, **kwargs)
        self._compendium = compendium
        self._state = state

    @property
    def compendium(self) -> Compendium:
        if self._compendium is None:
            self._compendium = Compendium.open()
        return self._compendium

    @property
    def state(self) -> StateDB:
        if self._state is None:
            self._state = StateDB()
        return self._state

    async def setup_hook(self) -> None:
        await self.tree.set_translator(TableTranslator())
        self.tree.error(self.on_app_command_error)
        for ext in EXTENSIONS:
            await self.load_extension(ext)
        # Buttons carry what they act on in their custom_id (DynamicItem): the buttons of every
        # message sent before a restart (open agendas, related topics, roll again) work again.
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        _ = self.compendium.search  # build the search index now, not on the first autocomplete

    async def on_app_command_error(self, interaction: discord.Interaction, error: Exception) -> None:
        await answer_error(interaction, error)


async def _offline_bot() -> RulesBot:
    """A bot with every cog loaded but no connection, for payloads and tests."""
    bot = RulesBot(compendium=cast(Compendium, _Unloaded()), state=cast(StateDB, _Unloaded()))
    await bot.tree.set_translator(TableTranslator())
    for ext in EXTENSIONS:
        await bot.load_extension(ext)
    return bot


class _Unloaded:
    """Placeholder for data the payload export never touches."""

    def __getattr__(self, name):
        raise RuntimeError("not available offline")


async def _payloads() -> list[dict]:
    bot = await _offline_bot()
    translator = TableTranslator()
    out = [await cmd.get_translated_payload(bot.tree, translator) for cmd in bot.tree.get_commands()]
    await bot.close()
    return sorted(out, key=lambda c: c["name"])


def command_payloads() -> list[dict]:
    """The exact application-command payloads `sync` would send, without connecting."""
    return asyncio.run(_payloads())


def run_bot(token: str) -> None:
    RulesBot().run(token, log_handler=None)


def sync_commands(token: str, guild_id: int | None) -> str:
    async def go() -> str:
        bot = RulesBot()
        async with bot:
            await bot.login(token)  # runs setup_hook: cogs, translator
            if guild_id:
                guild = discord.Object(id=guild_id)
                bot.tree.copy_global_to(guild=guild)
                synced = await bot.tree.sync(guild=guild)
                return f"synced {len(synced)} commands to server {guild_id}"
            synced = await bot.tree.sync()
            return f"synced {len(synced)} commands globally (may take up to an hour to appear)"

    return asyncio.run(go())


__all__ = ["RulesBot", "TableTranslator", "command_payloads", "run_bot", "sync_commands"]
