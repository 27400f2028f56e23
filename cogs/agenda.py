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
from discord.ext import commands

from tabletop.agenda import store as domain
from tabletop.agenda.commands import BUTTONS, AgendaReply, cast_vote, make_prediction, pass_window, play_card, store
from tabletop.agenda.view import agenda_reply
from tabletop.agenda.windows import MAX_CARD
from tabletop.core import commands as core
from tabletop.core.errors import UserError
from tabletop.core.i18n import t
from tabletop.core.render import Select

from . import workers
from .registry import presenter
from .ui import (
    add_components,
    component_factory,
    context,
    locale_of,
    plain_button,
    plain_select,
    reports_errors,
    send_kwargs,
)

log = logging.getLogger(__name__)
_locks: dict[int, asyncio.Lock] = {}


def lock_for(agenda_id: int) -> asyncio.Lock:
    return _locks.setdefault(agenda_id, asyncio.Lock())


async def current_lock(ctx: core.Context) -> asyncio.Lock:
    """The lock of the agenda open in the asker's channel (a slash command names none)."""
    current = await workers.call(store(ctx).current, ctx.guild_id, ctx.channel_id, locale=ctx.locale)
    return lock_for(current.id if current else 0)


def message_view(reply) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    add_components(view, reply)
    return view


async def refresh_message(interaction: discord.Interaction, reply: AgendaReply) -> None:
    """Re-render the agenda's message from the database (never from a stale copy)."""
    # text channels, threads and DMs can fetch a message by id; forums and categories cannot
    partial_message = getattr(interaction.channel, "get_partial_message", None)
    agenda = store(context(interaction)).get(reply.agenda_id) if reply.agenda_id is not None else None
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
        ctx = context(interaction)
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
        ctx = context(interaction)
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


@presenter("agenda start", "agenda phase")
async def post(interaction: discord.Interaction, cmd: core.Command, values: dict) -> None:
    """A new agenda: its message, with its buttons, for the table."""
    ctx = context(interaction)
    reply = await workers.run(ctx, cmd.name, **values)
    await post_agenda(interaction, ctx, reply)


@presenter("agenda pass", "agenda play", "agenda vote", "agenda abstain", "agenda predict", "agenda cancel")
async def act(interaction: discord.Interaction, cmd: core.Command, values: dict) -> None:
    """A player's act: committed before anyone is told, acknowledged privately, the agenda's
    message updated from the database."""
    ctx = context(interaction)
    async with await current_lock(ctx):
        reply = await workers.run(ctx, cmd.name, **values)
        await interaction.response.send_message(reply.ack, ephemeral=True)
        await refresh_message(interaction, reply)


@presenter("agenda close")
async def close(interaction: discord.Interaction, cmd: core.Command, values: dict) -> None:
    """The result for everyone, with the phase's next step; the phase's next agenda as a
    message of its own."""
    ctx = context(interaction)
    async with await current_lock(ctx):
        reply = await workers.run(ctx, cmd.name, **values)
        result = agenda_reply_of(reply)
        result.content = reply.ack
        await interaction.response.send_message(**send_kwargs(result))
        await refresh_message(interaction, reply)
    for following in reply.follow_ups:
        await post_agenda(interaction, ctx, cast(AgendaReply, following), followup=True)


DYNAMIC_ITEMS = [AgendaButton]


async def setup(bot: commands.Bot) -> None:
    if hasattr(bot, "add_dynamic_items"):
        bot.add_dynamic_items(*DYNAMIC_ITEMS)
