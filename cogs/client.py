"""The Discord client: loads the cogs, localises commands through the core's string table,
re-attaches persistent buttons on start, and answers every error ephemerally.
"""
from __future__ import annotations

import asyncio
import logging
import uuid

import discord
from discord import app_commands
from discord.ext import commands

from tabletop import answers
from tabletop.compendium import Compendium
from tabletop.i18n import DISCORD_LOCALES, command_text, lang, t
from tabletop.state import StateDB

log = logging.getLogger(__name__)
# A rules bot never joins voice: no warnings about voice libraries.
discord.VoiceClient.warn_nacl = False
discord.VoiceClient.warn_dave = False

EXTENSIONS = ("cogs.rules", "cogs.agenda", "cogs.combat", "cogs.galaxy_trucker")


class TableTranslator(app_commands.Translator):
    """Command names and descriptions from tabletop.i18n.COMMAND_TEXT, keyed by locale_str key."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale, context) -> str | None:
        key = string.extras.get("key")
        language = DISCORD_LOCALES.get(locale.value)
        if not key or not language:
            return None
        return command_text(key, language)


class RulesBot(commands.Bot):
    def __init__(self, compendium: Compendium | None = None, state: StateDB | None = None, **kwargs):
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
        self.tree.on_error = self.on_app_command_error
        for ext in EXTENSIONS:
            await self.load_extension(ext)
        from .ui import DYNAMIC_ITEMS

        # Buttons carry what they act on in their custom_id (DynamicItem): the buttons of every
        # message sent before a restart (open agendas, related topics, roll again) work again.
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        self.compendium.search  # build the search index now, not on the first autocomplete

    async def on_app_command_error(self, interaction: discord.Interaction, error: Exception) -> None:
        await answer_error(interaction, error)


async def answer_error(interaction: discord.Interaction, error: Exception) -> None:
    """One place for errors: a user's mistake gets its message, anything else an apology with an
    error id that is also in the log. Always ephemeral; never a traceback in the channel."""
    original = getattr(error, "original", error)
    locale = str(interaction.locale)
    if isinstance(original, answers.UserError):
        message = original.message
    elif isinstance(original, (app_commands.MissingPermissions, app_commands.CheckFailure)):
        message = t("error.no_permission", locale)
    else:
        error_id = uuid.uuid4().hex[:8]
        log.error("command failed [%s]", error_id, exc_info=original)
        message = t("error.unexpected", locale, error_id=error_id)
    embed = discord.Embed(description=message, color=answers.COLOR_ERROR)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(embed=embed, ephemeral=True)
        else:
            await interaction.response.send_message(embed=embed, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not deliver an error message", exc_info=True)


async def _offline_bot() -> RulesBot:
    """A bot with every cog loaded but no connection, for payloads and tests."""
    bot = RulesBot(compendium=_Unloaded(), state=_Unloaded())
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
    translator = bot.tree.translator
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


__all__ = ["RulesBot", "TableTranslator", "answer_error", "command_payloads", "run_bot", "sync_commands", "lang"]
