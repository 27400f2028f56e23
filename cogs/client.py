"""The Discord client: loads the cogs, localises commands through the core's string table,
re-attaches persistent buttons on start, and answers every error ephemerally.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import time
from typing import cast

import discord
from discord import app_commands
from discord.ext import commands

from cogs.components import DYNAMIC_ITEMS, FORMS
from cogs.errors import answer_error
from cogs.lifecycle import HEARTBEAT_EVERY, HEARTBEAT_STALE, Lifecycle, write_heartbeat
from tabletop import features
from tabletop.combat.odds import compile_ahead
from tabletop.core import config, offload
from tabletop.core.i18n import DISCORD_LOCALES, command_text, t
from tabletop.core.logs import command_var, guild_var
from tabletop.rules.compendium import Compendium
from tabletop.store import StateStore, begin_request, open_state

log = logging.getLogger(__name__)
# What the heavy-work processes share, imported once before they fork: the solver with its
# compiled kernels and the chart's library (tabletop/core/offload.py)
HEAVY_MODULES = ("tabletop.combat.commands", "tabletop.combat.levels")
# A rules bot never joins voice: no warnings about voice libraries.
discord.VoiceClient.warn_nacl = False
discord.VoiceClient.warn_dave = False

EXTENSIONS = ("cogs.rules", "cogs.agenda", "cogs.commands")  # commands last: it makes the tree


class TableTranslator(app_commands.Translator):
    """Command names and descriptions from the i18n catalogues, keyed by locale_str key."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale, context) -> str | None:
        key = string.extras.get("key")
        language = DISCORD_LOCALES.get(locale.value)
        if not key or not language:
            return None
        return command_text(key, language)


def shard_settings(env: dict[str, str]) -> dict:
    """SHARD_COUNT (the bot's total) and SHARD_IDS (this process's, e.g. "0,1" or "2-3") as the
    client's keyword arguments; neither: Discord's recommended count, all in this process.
    A mistake raises ValueError with a sentence naming the variable."""
    count_text = (env.get("SHARD_COUNT") or "").strip()
    ids_text = (env.get("SHARD_IDS") or "").strip()
    if not count_text:
        if ids_text:
            raise ValueError("SHARD_IDS needs SHARD_COUNT, the bot's total number of shards")
        return {}
    if not count_text.isdigit() or int(count_text) < 1:
        raise ValueError(f"SHARD_COUNT must be a whole number of at least 1, not {count_text[:20]!r}")
    count = int(count_text)
    if not ids_text:
        return {"shard_count": count}
    ids: list[int] = []
    for part in ids_text.split(","):
        low, _, high = part.strip().partition("-")
        if not low.isdigit() or (high and not high.isdigit()):
            raise ValueError(f"SHARD_IDS is a list like 0,1 or 2-3, not {ids_text[:40]!r}")
        ids += range(int(low), int(high or low) + 1)
    if not ids or any(i >= count for i in ids) or len(set(ids)) != len(ids):
        raise ValueError(f"SHARD_IDS must name different shards from 0 to {count - 1} (SHARD_COUNT={count})")
    return {"shard_count": count, "shard_ids": sorted(ids)}


class RulesBot(commands.AutoShardedBot):
    """Auto-sharded: one process runs the shards SHARD_IDS names (all when unset), and several
    processes share one PostgreSQL state store; buttons carry their state in custom_id, so a
    press works in whichever process receives it."""

    def __init__(self, compendium: Compendium | None = None, state: StateStore | None = None, **kwargs):
        features.load()
        intents = discord.Intents.default()
        # chat mode (?질문) reads message text: a privileged intent, asked for unless turned off
        # (mentions and DMs carry their text without it; "Find the rule" needs none)
        intents.message_content = bool(config.setting("message_content"))
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None, **kwargs)
        self._compendium = compendium
        self._state = state
        self.lifecycle = Lifecycle()
        self._heartbeat: asyncio.Task | None = None
        self._warming: asyncio.Task | None = None
        self._embedding: asyncio.Task | None = None

    @property
    def compendium(self) -> Compendium:
        if self._compendium is None:
            self._compendium = Compendium.open()
        return self._compendium

    @property
    def state(self) -> StateStore:
        if self._state is None:
            self._state = open_state()
        return self._state

    async def setup_hook(self) -> None:
        await self.tree.set_translator(TableTranslator())
        self.tree.error(self.on_app_command_error)
        self.tree.interaction_check = self.accept_interaction  # type: ignore[method-assign]
        self._heartbeat = asyncio.create_task(self._beat(), name="heartbeat")
        for ext in EXTENSIONS:
            await self.load_extension(ext)
        # Buttons carry what they act on in their custom_id (DynamicItem): the buttons of every
        # message sent before a restart (open agendas, related topics, roll again) work again.
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        self.add_listener(FORMS.on_interaction, "on_interaction")  # and their forms, likewise
        _ = self.compendium.search  # build the search index now, not on the first autocomplete
        # and load the embedding model in a thread meanwhile: the first question does not pay for
        # it against the answer limit (autocomplete never uses it)
        self._warming = asyncio.create_task(asyncio.to_thread(self.compendium.search.embedder.query, "warm up"), name="warm-up")
        # a big import's texts the build left for later (tabletop/rules/backfill.py): embedded in a
        # thread while every pack answers, that one by its words until they are done
        for pack, count in self.compendium.waiting.items():
            log.info("pack %s: embedding %d texts in the background; searched by its words until then", pack, count)
        if self.compendium.waiting:
            self._embedding = asyncio.create_task(asyncio.to_thread(self.compendium.embed_waiting), name="embed-later")
        # heavy work (exact odds, rolled battles, charts) in processes of its own: its Python code
        # holds no lock this process's light answers wait for (tabletop/core/offload.py)
        if config.heavy_processes():
            try:
                await asyncio.to_thread(offload.start, config.heavy_processes(), compile_ahead, HEAVY_MODULES)
            except OSError as exc:  # a read-only container without TMPDIR: fights are computed here
                log.warning("heavy work stays in the bot's own process (%s: %s)", type(exc).__name__, exc)

    async def accept_interaction(self, interaction: discord.Interaction) -> bool:
        """While stopping, a new command gets a short note instead of half an answer."""
        if self.lifecycle.stopping:
            with contextlib.suppress(discord.HTTPException):
                await interaction.response.send_message(t("bot.stopping", str(interaction.locale)), ephemeral=True)
            return False
        begin_request(str(interaction.id))  # delivered twice, or to two processes: counted once
        guild_var.set(str(interaction.guild_id or "-"))
        command_var.set(interaction.command.qualified_name if interaction.command else "-")
        if interaction.type == discord.InteractionType.application_command:
            self.lifecycle.begin()  # ended on completion or error
        return True

    async def on_app_command_completion(self, interaction: discord.Interaction, command) -> None:
        self.lifecycle.end()

    async def on_app_command_error(self, interaction: discord.Interaction, error: Exception) -> None:
        try:
            await answer_error(interaction, error)
        finally:
            if interaction.type == discord.InteractionType.application_command:
                self.lifecycle.end()

    async def _beat(self) -> None:
        """The time of each shard's last live gateway heartbeat, for `bot.py health`: a shard
        that stops answering keeps its old time and goes stale."""
        beats: dict[int, float] = {}
        while not self.is_closed():
            if self.is_ready():
                for shard_id, latency in self.latencies:
                    if latency == latency and latency < HEARTBEAT_STALE:  # not NaN
                        beats[shard_id] = time.time()
                if beats:
                    write_heartbeat(beats)
            await asyncio.sleep(HEARTBEAT_EVERY)

    async def close(self) -> None:
        if self._heartbeat:
            self._heartbeat.cancel()
        offload.stop()
        if not hasattr(self, "_AutoShardedClient__queue"):
            # never connected (login refused, payload export): discord.py's sharded close posts
            # to an event queue only connect() creates
            self._AutoShardedClient__queue: asyncio.PriorityQueue = asyncio.PriorityQueue()
        await super().close()
        for store in (self._state, self._compendium):
            if store is not None and not isinstance(store, _Unloaded):
                with contextlib.suppress(Exception):
                    store.close()


async def _offline_bot() -> RulesBot:
    """A bot with every cog loaded but no connection, for payloads and tests."""
    bot = RulesBot(compendium=cast(Compendium, _Unloaded()), state=cast(StateStore, _Unloaded()))
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


def run_bot(token: str, state: StateStore | None = None, shards: dict | None = None) -> int:
    """Run until the gateway closes or SIGTERM/SIGINT asks the bot to stop; 0 on a clean stop."""
    return asyncio.run(serve(RulesBot(state=state, **(shards or {})), token))


async def serve(bot: RulesBot, token: str) -> int:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    runner = asyncio.create_task(bot.start(token), name="gateway")
    stopper = asyncio.create_task(stop.wait(), name="stop-signal")
    log.info("bot starting")
    done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
    if stopper in done:
        log.info("stop requested: taking no new interactions, letting %d finish", bot.lifecycle.in_flight)
        await bot.lifecycle.drain()
    else:
        stopper.cancel()
    await bot.close()
    if not runner.done():
        runner.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await runner
    failure = runner.exception() if runner.done() and not runner.cancelled() else None
    if failure is not None:  # say why, once, without the token
        log.error("bot could not run: %s", failure_reason(failure))
    log.info("bot stopped: gateway and databases closed")
    return 1 if failure is not None else 0


def failure_reason(exc: BaseException) -> str:
    """Why the gateway stopped, in a sentence an admin can act on."""
    if isinstance(exc, discord.LoginFailure):
        return "Discord refused the token: DISCORD_TOKEN is wrong or was reset (Developer Portal, Bot, Reset Token)"
    if isinstance(exc, discord.PrivilegedIntentsRequired):
        return "the Message Content intent is not enabled for this bot (Developer Portal, Bot, Privileged Gateway Intents)"
    if isinstance(exc, OSError | asyncio.TimeoutError) or type(exc).__module__.startswith("aiohttp"):
        return f"cannot reach Discord ({type(exc).__name__}: {exc}); check the network and try again"
    return f"{type(exc).__name__}: {exc}"


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


__all__ = ["RulesBot", "TableTranslator", "command_payloads", "run_bot", "shard_settings", "sync_commands"]
