"""Agenda votes on Discord: /agenda …, and the buttons on the agenda message (one per outcome or a
menu, Abstain, Predict; Pass, Pass for this agenda and Play a card while a when or after window
is open) with a modal for the number of votes or the card played.

The ballot is committed by the core before the player is told it was accepted. The buttons carry
the agenda id in their custom_id (DynamicItem), so after a restart the next click just works. A
lock per agenda keeps the message right when several players click at once.
"""

from __future__ import annotations

import asyncio
import logging
import re
from typing import cast

import discord
from discord import app_commands
from discord.ext import commands

from tabletop.agenda import store as domain
from tabletop.agenda.commands import BUTTONS, AgendaReply, cast_vote, make_prediction, pass_window, play_card, store
from tabletop.agenda.view import agenda_reply
from tabletop.agenda.windows import MAX_CARD, WINDOWS
from tabletop.errors import UserError
from tabletop.frontend import commands as core
from tabletop.frontend.i18n import t
from tabletop.frontend.render import Select

from . import workers
from .rules import context
from .ui import (
    L,
    add_components,
    component_factory,
    locale_of,
    plain_button,
    plain_select,
    reports_errors,
    send_kwargs,
    show_answer,
)

log = logging.getLogger(__name__)
_locks: dict[int, asyncio.Lock] = {}


def lock_for(agenda_id: int) -> asyncio.Lock:
    return _locks.setdefault(agenda_id, asyncio.Lock())


def agenda_context(interaction: discord.Interaction) -> core.Context:
    ctx = context(interaction)
    guild = interaction.guild

    def resolve(uid: str) -> str:
        member = guild.get_member(int(uid)) if guild and hasattr(guild, "get_member") else None
        return member.display_name if member else f"<@{uid}>"

    ctx.resolve_user = resolve
    return ctx


def message_view(reply) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    add_components(view, reply)
    return view


async def refresh_message(interaction: discord.Interaction, reply: AgendaReply) -> None:
    """Re-render the agenda's message from the database (never from a stale copy)."""
    # text channels, threads and DMs can fetch a message by id; forums and categories cannot
    partial_message = getattr(interaction.channel, "get_partial_message", None)
    agenda = store(agenda_context(interaction)).get(reply.agenda_id) if reply.agenda_id is not None else None
    if agenda is None or not agenda.message_id or partial_message is None:
        return
    fresh = agenda_reply(agenda)
    try:
        await partial_message(int(agenda.message_id)).edit(**send_kwargs(fresh, message_view(fresh)))
    except discord.HTTPException:
        log.warning("agenda %s: could not edit its message %s", agenda.id, agenda.message_id, exc_info=True)


async def post_agenda(interaction: discord.Interaction, ctx: core.Context, reply: AgendaReply, followup: bool = False) -> None:
    """Post an agenda's message (with its buttons) and remember it, so later clicks edit it."""
    message: discord.Message | None
    if followup:
        message = await interaction.followup.send(**send_kwargs(reply, message_view(reply)), wait=True)
    else:
        await interaction.response.send_message(**send_kwargs(reply, message_view(reply)))
        message = await interaction.original_response()
    if reply.agenda_id is not None and message is not None:
        await workers.call(store(ctx).set_message, reply.agenda_id, str(message.id), locale=ctx.locale)


async def record(interaction: discord.Interaction, agenda_id: int, act) -> None:
    """From the agenda message: commit (the core does), update that message, then tell the
    actor privately."""
    async with lock_for(agenda_id):
        ctx = agenda_context(interaction)
        reply = await workers.call(act, ctx, locale=ctx.locale)
        await interaction.response.edit_message(**send_kwargs(agenda_reply_of(reply), message_view(reply)))
    await interaction.followup.send(reply.ack, ephemeral=True)


class VoteModal(discord.ui.Modal):
    """How many votes (and, for a planet election, which planet)."""

    def __init__(self, agenda_id: int, outcome: str | None, locale: str):
        super().__init__(
            title=t("agenda.modal.title", locale, outcome=outcome or "🪐")[:45], custom_id=f"agenda:{agenda_id}:modal"
        )
        self.agenda_id, self.outcome = agenda_id, outcome
        self.planet: discord.ui.TextInput | None = None
        if outcome is None:
            self.planet = discord.ui.TextInput(label=t("agenda.modal.planet", locale)[:45], max_length=domain.MAX_NAME)
            self.add_item(self.planet)
        self.votes: discord.ui.TextInput = discord.ui.TextInput(
            label=t("agenda.modal.votes", locale)[:45], max_length=3, placeholder="0-999"
        )
        self.add_item(self.votes)

    @reports_errors
    async def on_submit(self, interaction: discord.Interaction) -> None:
        raw = str(self.votes.value).strip()
        if not raw.isdigit():
            raise UserError(t("agenda.bad_number", locale_of(interaction), limit=domain.MAX_VOTES))
        outcome = self.outcome if self.planet is None else str(self.planet.value)
        await record(interaction, self.agenda_id, lambda ctx: cast_vote(ctx, self.agenda_id, outcome, int(raw)))


class PredictModal(discord.ui.Modal):
    def __init__(self, agenda_id: int, locale: str):
        super().__init__(title=t("agenda.button.predict", locale)[:45], custom_id=f"agenda:{agenda_id}:predict-modal")
        self.agenda_id = agenda_id
        self.outcome: discord.ui.TextInput = discord.ui.TextInput(
            label=t("agenda.modal.predict", locale)[:45], max_length=domain.MAX_NAME
        )
        self.add_item(self.outcome)

    @reports_errors
    async def on_submit(self, interaction: discord.Interaction) -> None:
        await record(interaction, self.agenda_id, lambda ctx: make_prediction(ctx, self.agenda_id, str(self.outcome.value)))


class CardModal(discord.ui.Modal):
    """The card played in the open window, as free text."""

    def __init__(self, agenda_id: int, locale: str):
        super().__init__(title=t("agenda.button.play", locale)[:45], custom_id=f"agenda:{agenda_id}:card-modal")
        self.agenda_id = agenda_id
        self.card: discord.ui.TextInput = discord.ui.TextInput(label=t("agenda.modal.card", locale)[:45], max_length=MAX_CARD)
        self.add_item(self.card)

    @reports_errors
    async def on_submit(self, interaction: discord.Interaction) -> None:
        await record(interaction, self.agenda_id, lambda ctx: play_card(ctx, self.agenda_id, None, str(self.card.value)))


def agenda_reply_of(reply: AgendaReply):
    """The agenda message part of a reply (the acknowledgement goes to the actor only)."""
    return type(reply)(embeds=reply.embeds, rows=reply.rows)


_TEMPLATE = BUTTONS  # declared with the console's handler, in the core


class AgendaButton(discord.ui.DynamicItem[discord.ui.Button], template=_TEMPLATE):
    def __init__(self, agenda_id: int, action: str, index: int | None = None, item: discord.ui.Item | None = None):
        custom_id = f"agenda:{agenda_id}:{action}" + (f":{index}" if index is not None else "")
        super().__init__(cast(discord.ui.Button, item or discord.ui.Button(label=action, custom_id=custom_id)))
        self.agenda_id, self.action, self.index = agenda_id, action, index

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match):
        index = int(match["index"]) if match["index"] is not None else None
        return cls(int(match["id"]), match["action"], index, item)

    @reports_errors
    async def callback(self, interaction: discord.Interaction) -> None:
        loc = locale_of(interaction)
        ctx = agenda_context(interaction)
        agenda = await workers.call(store(ctx).get, self.agenda_id, locale=loc)
        if agenda is None or not agenda.open:
            raise UserError(t("agenda.closed", loc, name=agenda.name if agenda else "?"))
        if self.action == "abstain":
            await record(interaction, self.agenda_id, lambda c: cast_vote(c, self.agenda_id, None, 0))
            return
        if self.action in ("pass", "passlock"):
            lasting = self.action == "passlock"
            await record(interaction, self.agenda_id, lambda c: pass_window(c, self.agenda_id, None, lasting))
            return
        if self.action == "play":
            store(ctx).voter(agenda, domain.Player(str(ctx.user_id), ctx.user_name), loc)  # refuse before the form
            await interaction.response.send_modal(CardModal(self.agenda_id, loc))
            return
        if self.action == "predict":
            await interaction.response.send_modal(PredictModal(self.agenda_id, loc))
            return
        if self.action == "planet":
            outcome = None
        else:
            index = int(getattr(self.item, "values", ["-1"])[0]) if self.action == "pick" else self.index
            if index is None or not 0 <= index < len(agenda.outcomes):
                raise UserError(t("agenda.unknown_outcome", loc, outcome=str(index), outcomes=", ".join(agenda.outcomes)))
            outcome = agenda.outcomes[index]
        store(ctx).voter(agenda, domain.Player(str(ctx.user_id), ctx.user_name), loc)  # refuse before the form
        await interaction.response.send_modal(VoteModal(self.agenda_id, outcome, loc))


@component_factory(_TEMPLATE)
def _factory(component):
    m = re.fullmatch(_TEMPLATE, component.custom_id)
    if m is None:
        raise ValueError(component.custom_id)
    index = int(m["index"]) if m["index"] is not None else None
    item = plain_select(component) if isinstance(component, Select) else plain_button(component)
    return AgendaButton(int(m["id"]), m["action"], index, item)


class AgendaCog(commands.Cog):
    agenda = app_commands.Group(name=L("cmd.agenda"), description=L("cmd.agenda.desc"), guild_only=True)

    def __init__(self, bot: commands.Bot):
        self.bot = bot

    async def _act(self, interaction: discord.Interaction, name: str, **values) -> None:
        ctx = agenda_context(interaction)
        current = await workers.call(store(ctx).current, ctx.guild_id, ctx.channel_id, locale=ctx.locale)
        async with lock_for(current.id if current else 0):
            reply = await workers.run(ctx, name, **values)  # committed before anyone is told
            await interaction.response.send_message(reply.ack, ephemeral=True)
            await refresh_message(interaction, reply)

    @agenda.command(name=L("cmd.agenda.start"), description=L("cmd.agenda.start.desc"))
    @app_commands.rename(
        name=L("opt.name"),
        outcomes=L("opt.outcomes"),
        type=L("opt.type"),
        kind=L("opt.kind"),
        speaker=L("opt.speaker"),
        players=L("opt.players"),
        secret=L("opt.secret"),
        windows=L("opt.windows"),
    )
    @app_commands.describe(
        name=L("opt.agenda.name.desc"),
        outcomes=L("opt.agenda.outcomes.desc"),
        type=L("opt.agenda.type.desc"),
        kind=L("opt.agenda.kind.desc"),
        speaker=L("opt.agenda.speaker.desc"),
        players=L("opt.agenda.players.desc"),
        secret=L("opt.agenda.secret.desc"),
        windows=L("opt.agenda.windows.desc"),
    )
    @app_commands.choices(
        type=[app_commands.Choice(name=L(f"choice.type.{x}"), value=x) for x in domain.TYPES],
        kind=[app_commands.Choice(name=L(f"choice.kind.{x}"), value=x) for x in domain.KINDS],
    )
    async def start(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 100],
        outcomes: app_commands.Range[str, 1, 1500] | None = None,
        type: str | None = None,
        kind: str | None = None,
        speaker: app_commands.Range[str, 1, 100] | None = None,
        players: app_commands.Range[str, 1, 600] | None = None,
        secret: bool | None = None,
        windows: bool | None = None,
    ) -> None:
        ctx = agenda_context(interaction)
        reply = await workers.run(
            ctx,
            "agenda start",
            name=name,
            outcomes=outcomes,
            type=type,
            kind=kind,
            speaker=speaker,
            players=players,
            secret=secret,
            windows=windows,
        )
        await post_agenda(interaction, ctx, reply)

    @agenda.command(name=L("cmd.agenda.phase"), description=L("cmd.agenda.phase.desc"))
    @app_commands.rename(
        players=L("opt.players"), speaker=L("opt.speaker"), windows=L("opt.windows"), first=L("opt.first"), second=L("opt.second")
    )
    @app_commands.describe(
        players=L("opt.agenda.players.desc"),
        speaker=L("opt.agenda.speaker.desc"),
        windows=L("opt.agenda.windows.desc"),
        first=L("opt.agenda.first.desc"),
        second=L("opt.agenda.second.desc"),
    )
    async def phase(
        self,
        interaction: discord.Interaction,
        players: app_commands.Range[str, 1, 600],
        speaker: app_commands.Range[str, 1, 100],
        windows: bool | None = None,
        first: app_commands.Range[str, 1, 100] | None = None,
        second: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        ctx = agenda_context(interaction)
        reply = await workers.run(
            ctx, "agenda phase", players=players, speaker=speaker, windows=windows, first=first, second=second
        )
        await post_agenda(interaction, ctx, reply)

    @agenda.command(name=L("cmd.agenda.pass"), description=L("cmd.agenda.pass.desc"))
    @app_commands.rename(window=L("opt.window"), lock=L("opt.lock"))
    @app_commands.describe(window=L("opt.agenda.window.desc"), lock=L("opt.agenda.lock.desc"))
    @app_commands.choices(window=[app_commands.Choice(name=L(f"choice.window.{w}"), value=w) for w in WINDOWS])
    async def pass_(self, interaction: discord.Interaction, window: str, lock: bool | None = None) -> None:
        await self._act(interaction, "agenda pass", window=window, lock=lock)

    @agenda.command(name=L("cmd.agenda.play"), description=L("cmd.agenda.play.desc"))
    @app_commands.rename(window=L("opt.window"), card=L("opt.card"))
    @app_commands.describe(window=L("opt.agenda.window.desc"), card=L("opt.agenda.card.desc"))
    @app_commands.choices(window=[app_commands.Choice(name=L(f"choice.window.{w}"), value=w) for w in WINDOWS])
    async def play(self, interaction: discord.Interaction, window: str, card: app_commands.Range[str, 1, MAX_CARD]) -> None:
        await self._act(interaction, "agenda play", window=window, card=card)

    @agenda.command(name=L("cmd.agenda.vote"), description=L("cmd.agenda.vote.desc"))
    @app_commands.rename(outcome=L("opt.outcome"), votes=L("opt.votes"))
    @app_commands.describe(outcome=L("opt.agenda.outcome.desc"), votes=L("opt.agenda.votes.desc"))
    async def vote(
        self, interaction: discord.Interaction, outcome: app_commands.Range[str, 1, 100], votes: app_commands.Range[int, 0, 999]
    ) -> None:
        await self._act(interaction, "agenda vote", outcome=outcome, votes=votes)

    @agenda.command(name=L("cmd.agenda.abstain"), description=L("cmd.agenda.abstain.desc"))
    async def abstain(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, "agenda abstain")

    @agenda.command(name=L("cmd.agenda.predict"), description=L("cmd.agenda.predict.desc"))
    @app_commands.rename(outcome=L("opt.outcome"))
    @app_commands.describe(outcome=L("opt.agenda.outcome.desc"))
    async def predict(self, interaction: discord.Interaction, outcome: app_commands.Range[str, 1, 100]) -> None:
        await self._act(interaction, "agenda predict", outcome=outcome)

    @agenda.command(name=L("cmd.agenda.close"), description=L("cmd.agenda.close.desc"))
    @app_commands.rename(choice=L("opt.choice"))
    @app_commands.describe(choice=L("opt.agenda.choice.desc"))
    async def close(self, interaction: discord.Interaction, choice: app_commands.Range[str, 1, 100] | None = None) -> None:
        ctx = agenda_context(interaction)
        current = await workers.call(store(ctx).current, ctx.guild_id, ctx.channel_id, locale=ctx.locale)
        async with lock_for(current.id if current else 0):
            reply = await workers.run(ctx, "agenda close", choice=choice)
            result = agenda_reply_of(reply)
            result.content = reply.ack  # the result, for everyone: with the phase's next step
            await interaction.response.send_message(**send_kwargs(result))
            await refresh_message(interaction, reply)
        for following in reply.follow_ups:  # the phase's second agenda: a message with its own buttons
            await post_agenda(interaction, ctx, cast(AgendaReply, following), followup=True)

    @agenda.command(name=L("cmd.agenda.cancel"), description=L("cmd.agenda.cancel.desc"))
    async def cancel(self, interaction: discord.Interaction) -> None:
        await self._act(interaction, "agenda cancel")

    @agenda.command(name=L("cmd.agenda.show"), description=L("cmd.agenda.show.desc"))
    @app_commands.rename(id=L("opt.id"))
    @app_commands.describe(id=L("opt.agenda.id.desc"))
    async def show(self, interaction: discord.Interaction, id: app_commands.Range[int, 1, 10**9] | None = None) -> None:
        await show_answer(interaction, await workers.run(agenda_context(interaction), "agenda show", id=id), ephemeral=True)

    @agenda.command(name=L("cmd.agenda.history"), description=L("cmd.agenda.history.desc"))
    async def history(self, interaction: discord.Interaction) -> None:
        reply = await workers.run(agenda_context(interaction), "agenda history")
        await interaction.response.send_message(**send_kwargs(reply), ephemeral=True)


DYNAMIC_ITEMS = [AgendaButton]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(AgendaCog(bot))
    if hasattr(bot, "add_dynamic_items"):
        bot.add_dynamic_items(*DYNAMIC_ITEMS)
