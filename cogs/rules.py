"""Rules lookup on Discord: /rule, /search, /settings, chat mode (?질문 or a mention) and "Find
the rule" on any message (a message command: no Message Content intent needed).

Thin: parse the interaction, call the core (tabletop.commands / answers), show the pages.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator

import discord
from discord import app_commands
from discord.ext import commands

from tabletop.core import settings
from tabletop.core.i18n import LOCALE, lang, t
from tabletop.core.render import truncate_label
from tabletop.rules import answers
from tabletop.rules.commands import for_message
from tabletop.rules.compendium import compendium_of

from . import workers
from .commands import reach
from .components import Pager, card_of, show_answer
from .registry import completer
from .ui import L, context, locale_of, send_kwargs, speak_as_asked

log = logging.getLogger(__name__)

AUTOCOMPLETE_MAX = 25
CHAT_PREFIX = "?"
CHAT_BURST, CHAT_WINDOW = 3, 20.0  # at most 3 chat answers per user per 20 seconds


class RateLimiter:
    """Per-user sliding window: a flood of ?questions cannot make the bot spam."""

    def __init__(self, burst: int = CHAT_BURST, window: float = CHAT_WINDOW, clock=time.monotonic):
        self.burst, self.window, self.clock = burst, window, clock
        self.hits: dict[int, list[float]] = {}

    def check(self, user_id: int) -> float:
        """0 when allowed (and counted); otherwise seconds to wait."""
        now = self.clock()
        recent = [x for x in self.hits.get(user_id, []) if now - x < self.window]
        if len(recent) >= self.burst:
            self.hits[user_id] = recent
            return self.window - (now - recent[0])
        recent.append(now)
        self.hits[user_id] = recent
        if len(self.hits) > 10_000:  # forget idle users
            self.hits = {k: v for k, v in self.hits.items() if v and now - v[-1] < self.window}
        return 0.0


@completer("rule")
async def rule_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Choices from the core search; never raises (Discord would show an error)."""
    try:
        speak_as_asked(interaction)
        ctx = context(interaction)
        # the server's game is a state read: in the pool, not on the loop (a keystroke each)
        game = getattr(interaction.namespace, "game", None) or await workers.call(ctx.default_game)
        if game not in ctx.compendium.packs:
            return []
        choices, seen = [], set()
        for r in compendium_of(ctx).search.suggest(current or "", game, limit=AUTOCOMPLETE_MAX):
            section = compendium_of(ctx).known_section(game, r.section)
            value = r.rule or str(section.number)  # numbers find their section again in every pack
            if value in seen:
                continue
            seen.add(value)
            label = answers.section_heading(section) if not r.rule else f"{r.rule} · {answers.section_heading(section)}"
            choices.append(app_commands.Choice(name=truncate_label(label, 100), value=value[:100]))
        return choices[:AUTOCOMPLETE_MAX]
    except Exception:  # noqa: BLE001 - autocomplete must answer, even if with nothing
        log.exception("rule autocomplete failed for %r", current)
        return []


@completer("game")
async def game_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    try:
        comp = interaction.client.compendium  # type: ignore[attr-defined]
        loc = locale_of(interaction)
        key = (current or "").strip().lower()
        out = []
        for p in comp.packs.values():
            name = p.name(loc)
            if not key or key in p.id or key in name.lower():
                out.append(app_commands.Choice(name=truncate_label(f"{name} ({p.id})", 100), value=p.id))
        return out[:AUTOCOMPLETE_MAX]
    except Exception:  # noqa: BLE001
        log.exception("game autocomplete failed")
        return []


class RulesCog(commands.Cog):
    """Chat mode: ?질문 or a mention answered in the channel (/rule, /search and /settings are made
    from the command table, in cogs.commands)."""

    def __init__(self, bot: commands.Bot):
        self.bot = bot
        self.limiter = RateLimiter()

    # --- chat mode ---------------------------------------------------------------------------

    def chat_query(self, message: discord.Message) -> str | None:
        """The question in a chat message, or None when the message is not for the bot."""
        content = message.content.strip()
        if content.startswith(CHAT_PREFIX) and len(content) > 1 and not content.startswith(CHAT_PREFIX * 2):
            return content[1:].strip()
        me = self.bot.user
        if me is not None and any(u.id == me.id for u in message.mentions):
            for form in (f"<@{me.id}>", f"<@!{me.id}>"):
                content = content.replace(form, " ")
            return content.strip()
        return None

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        if message.author.bot:
            return
        query = self.chat_query(message)
        if query is None:
            return
        state = self.bot.state  # type: ignore[attr-defined]
        guild_id = str(message.guild.id) if message.guild else f"dm-{message.author.id}"
        LOCALE.set(lang(message.guild.preferred_locale if message.guild else None))  # the server's language
        try:
            chat = await workers.call(settings.read, state, guild_id, settings.CHAT)
        except answers.UserError:  # too slow to tell: stay quiet, as when chat mode is off
            return
        if not chat:
            return
        wait = self.limiter.check(message.author.id)
        if wait:
            if wait > CHAT_WINDOW - 1:  # tell them once per flood, then stay quiet
                await message.reply(t("error.rate_limited", seconds=int(wait) + 1), mention_author=False, delete_after=10)
            return
        try:
            game = await workers.call(settings.read, state, guild_id, settings.GAME, fallback=True)
            compendium = self.bot.compendium  # type: ignore[attr-defined]
            reply = await workers.call(answers.chat_answer, compendium, query, game)
        except answers.UserError as exc:
            await message.reply(exc.message, mention_author=False)
            return
        if isinstance(reply, answers.RuleAnswer):
            pager = Pager(reply, message.author.id)
            pager.message = await message.reply(**send_kwargs(reply.reply(), pager.refresh()), mention_author=False)
            return
        await message.reply(**send_kwargs(reply, card_of(reply)), mention_author=False)


def message_text(message: discord.Message) -> str:
    """What a message says: its text, or (another bot's answer) its embeds' or its card's."""
    if message.content.strip():
        return message.content
    parts = [part for e in message.embeds for part in (e.title, e.description) if part]
    return " ".join(parts + list(_card_text(getattr(message, "components", None) or [])))


def _card_text(components) -> Iterator[str]:
    """The text displays of a layout card, in order, however deep they sit."""
    for c in components:
        if isinstance(getattr(c, "content", None), str):
            yield c.content
        yield from _card_text(getattr(c, "children", None) or [])


async def find_rule(interaction: discord.Interaction, message: discord.Message) -> None:
    """The rule a message asks about, shown to the asker only, with a button to post it."""
    speak_as_asked(interaction)
    answer = await workers.call(for_message, context(interaction), message_text(message))
    await show_answer(interaction, answer, ephemeral=True)


def find_rule_menu() -> app_commands.ContextMenu:
    """The message command, installable by a server or a user like the rules commands."""
    return app_commands.ContextMenu(name=L("menu.find_rule"), callback=find_rule, **reach(False))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(RulesCog(bot))
    bot.tree.add_command(find_rule_menu())
