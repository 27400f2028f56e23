"""Agenda votes on Discord: how the agenda message is posted and kept current. The commands and
the message's buttons (with their forms) are declared in the core and made by cogs.commands and
cogs.components; this module only says how their answers are shown.

The ballot is committed by the core before the player is told it was accepted. A lock per agenda
keeps the message right when several players in this process click at once; the database keeps
the votes right across processes.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from contextlib import asynccontextmanager
from typing import cast

import discord
from discord.ext import commands

from tabletop.agenda import view
from tabletop.agenda.commands import AgendaReply, store
from tabletop.agenda.view import agenda_reply
from tabletop.core import commands as core
from tabletop.core.components import Component, Press
from tabletop.core.errors import UserError
from tabletop.core.i18n import t
from tabletop.core.limits import ANSWER_LIMIT, STORE_MARGIN, answer_within, time_left

from . import workers
from .components import card_of
from .registry import component_presenter, presenter
from .ui import context, send_kwargs, sent_message

log = logging.getLogger(__name__)
# A lock lives while a press holds or awaits it, then goes: the bot sees thousands of agendas over
# its life, and a lock nobody holds has nothing to keep in order.
_locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()


def lock_for(agenda_id: int) -> asyncio.Lock:
    """The one lock of an agenda in this process, while anyone holds or awaits it."""
    lock = _locks.get(agenda_id)
    if lock is None:
        lock = _locks[agenda_id] = asyncio.Lock()
    return lock


async def current_lock(ctx: core.Context) -> asyncio.Lock:
    """The lock of the agenda open in the asker's channel (a slash command names none)."""
    current = await workers.call(store(ctx).current, ctx.guild_id, ctx.channel_id)
    return lock_for(current.id if current else 0)


@asynccontextmanager
async def held_in_time(lock: asyncio.Lock):
    """The agenda's lock, waited for within the request's one deadline (started as the request
    came in): past it, the act is refused before anything is written, never answered late
    (90 votes queued behind a stalled one were answered after 12 s)."""
    try:
        await asyncio.wait_for(lock.acquire(), time_left(ANSWER_LIMIT) - STORE_MARGIN)
    except TimeoutError:
        raise UserError(t("state.busy")) from None
    try:
        yield
    finally:
        lock.release()


def message_view(reply) -> discord.ui.LayoutView:
    return card_of(reply)


async def refresh_message(interaction: discord.Interaction, reply: AgendaReply) -> None:
    """Re-render the agenda's message from the database (never from a stale copy)."""
    # text channels, threads and DMs can fetch a message by id; forums and categories cannot
    partial_message = getattr(interaction.channel, "get_partial_message", None)
    if reply.agenda_id is None or partial_message is None:
        return
    answer_within(ANSWER_LIMIT)  # the asker has been answered: the message's edit has a clock of its own
    ctx = context(interaction)
    agenda = await workers.call(store(ctx).get, reply.agenda_id)  # a state read: off the loop
    if agenda is None or not agenda.message_id or partial_message is None:
        return
    fresh = agenda_reply(agenda)
    try:
        await partial_message(int(agenda.message_id)).edit(**send_kwargs(fresh, message_view(fresh)))
    except discord.HTTPException:
        log.warning("agenda %s: could not edit its message %s", agenda.id, agenda.message_id, exc_info=True)


async def post_agenda(interaction: discord.Interaction, ctx: core.Context, reply: AgendaReply, followup: bool = False) -> None:
    """Post an agenda's message (with its buttons) and remember it, so later clicks edit it."""
    answer_within(ANSWER_LIMIT)  # each message posted, with its own clock
    message: discord.Message | None
    if followup:
        message = await interaction.followup.send(**send_kwargs(reply, message_view(reply)), wait=True)
    else:
        sent = await interaction.response.send_message(**send_kwargs(reply, message_view(reply)))
        message = await sent_message(interaction, sent)
    if reply.agenda_id is not None and message is not None:
        await workers.call(store(ctx).set_message, reply.agenda_id, str(message.id))


@component_presenter(*view.BUTTONS)
async def record(interaction: discord.Interaction, comp: Component, press: Press) -> None:
    """A press on the agenda message: committed (by the core) before anyone is told, that
    message updated, the actor answered privately."""
    answer_within(ANSWER_LIMIT)  # one clock for the lock, the work and the answer
    async with held_in_time(lock_for(int(press.values["id"]))):
        ctx = context(interaction)
        reply = await workers.call(comp.handler, ctx, press)
        public = agenda_reply_of(reply)  # the table's message: never the actor's acknowledgement
        await interaction.response.edit_message(**send_kwargs(public, message_view(public)))
    await interaction.followup.send(reply.ack, ephemeral=True)


def agenda_reply_of(reply):
    """The agenda message part of a reply (the acknowledgement goes to the actor only)."""
    return type(reply)(embeds=reply.embeds, rows=reply.rows)


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
    answer_within(ANSWER_LIMIT)  # one clock for the lock, the work and the answer
    async with held_in_time(await current_lock(ctx)):
        reply = await workers.run(ctx, cmd.name, **values)
        await interaction.response.send_message(reply.ack, ephemeral=True)
        await refresh_message(interaction, reply)


@presenter("agenda close")
async def close(interaction: discord.Interaction, cmd: core.Command, values: dict) -> None:
    """The result for everyone, with the phase's next step; the phase's next agenda as a
    message of its own."""
    ctx = context(interaction)
    answer_within(ANSWER_LIMIT)
    async with held_in_time(await current_lock(ctx)):
        reply = await workers.run(ctx, cmd.name, **values)
        result = agenda_reply_of(reply)
        result.content = reply.ack
        await interaction.response.send_message(**send_kwargs(result))
        await refresh_message(interaction, reply)
    for following in reply.follow_ups:
        await post_agenda(interaction, ctx, cast(AgendaReply, following), followup=True)


async def setup(bot: commands.Bot) -> None:
    """Nothing to add: the presenters above are registered on import, the commands and the
    buttons' persistent items are made from the core's tables (cogs.commands, cogs.components)."""
