"""Turn the core's library-neutral replies into discord.py embeds and views.

Paging buttons live in a view bound to the person who asked (others get a short ephemeral
note) and disappear when the view times out. Buttons that open a section carry the game and
section in their custom_id (DynamicItem), so they keep working after a restart.
"""

from __future__ import annotations

import contextlib
import io
import logging
import re
from collections.abc import Awaitable, Callable

import discord

from cogs.errors import answer_error
from tabletop.core import commands as core
from tabletop.core.i18n import command_text, t
from tabletop.core.render import Button, Paged, Reply, Select, check_limits
from tabletop.rules import answers
from tabletop.store import begin_request

from . import workers

log = logging.getLogger(__name__)

PAGER_TIMEOUT = 600  # seconds; then the paging buttons are removed

_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def L(key: str) -> discord.app_commands.locale_str:
    """A command or option name/description from the core's table (English as the default)."""
    return discord.app_commands.locale_str(command_text(key, "en") or key, key=key)


def embeds(reply: Reply) -> list[discord.Embed]:
    return [discord.Embed.from_dict(e.to_dict()) for e in reply.embeds]


def send_kwargs(reply: Reply, view: discord.ui.View | None = None) -> dict:
    problems = check_limits(reply)
    if problems:  # the core pages every answer within the limits: this is a bug, say where
        log.error("a reply breaks Discord's limits: %s", "; ".join(problems))
    kwargs: dict = {"embeds": embeds(reply)}
    if reply.content:
        kwargs["content"] = reply.content
    if view is not None:
        kwargs["view"] = view
    return kwargs


def compendium_of(interaction: discord.Interaction):
    return interaction.client.compendium  # type: ignore[attr-defined]


def reports_errors(callback):
    """For button, menu and form callbacks, which the command tree's error handler does not see:
    any failure is answered like a command's (ephemeral; an error id for the unexpected)."""

    async def guarded(self, interaction: discord.Interaction, *args) -> None:
        lifecycle = getattr(interaction.client, "lifecycle", None)
        if lifecycle is not None and lifecycle.stopping:
            with contextlib.suppress(discord.HTTPException):
                await interaction.response.send_message(t("bot.stopping", locale_of(interaction)), ephemeral=True)
            return
        begin_request(str(interaction.id))  # a press delivered twice changes state once
        try:
            if lifecycle is not None:
                async with lifecycle.track():
                    await callback(self, interaction, *args)
            else:
                await callback(self, interaction, *args)
        except Exception as exc:  # noqa: BLE001 - every failure gets an answer
            await answer_error(interaction, exc)

    guarded.__name__ = callback.__name__
    guarded.__doc__ = callback.__doc__
    return guarded


def context(interaction: discord.Interaction) -> core.Context:
    """Who asks, where, with the bot's data; a mention's id is shown as the member's name."""
    client = interaction.client
    perms = getattr(interaction, "permissions", None)
    guild = interaction.guild

    def resolve(uid: str) -> str:
        member = guild.get_member(int(uid)) if guild and hasattr(guild, "get_member") else None
        return member.display_name if member else f"<@{uid}>"

    return core.Context(
        compendium=client.compendium,  # type: ignore[attr-defined]
        state=client.state,  # type: ignore[attr-defined]
        locale=locale_of(interaction),
        user_id=str(interaction.user.id),
        user_name=interaction.user.display_name,
        guild_id=str(interaction.guild_id or f"dm-{interaction.user.id}"),
        channel_id=str(interaction.channel_id),
        is_admin=bool(perms and perms.manage_guild),
        resolve_user=resolve,
    )


def locale_of(interaction: discord.Interaction) -> str:
    return str(interaction.locale)


# Factories for components whose custom_id a DynamicItem or a view knows how to handle.
ComponentFactory = Callable[[Button | Select], discord.ui.Item]
FACTORIES: list[tuple[re.Pattern, ComponentFactory]] = []


def component_factory(pattern: str):
    """Register how to build the discord.py item for custom_ids matching pattern. A cog loaded
    again (reload_extension) replaces its earlier registration."""

    def register(fn):
        compiled = re.compile(pattern)
        FACTORIES[:] = [(p, f) for p, f in FACTORIES if p.pattern != compiled.pattern]
        FACTORIES.append((compiled, fn))
        return fn

    return register


def item_for(component: Button | Select, row: int) -> discord.ui.Item | None:
    if isinstance(component, Button) and component.url:  # a link: Discord opens it, no callback
        return discord.ui.Button(label=component.label, url=component.url, row=row)
    for pattern, factory in FACTORIES:
        if pattern.fullmatch(component.custom_id):
            item = factory(component)
            item.row = row
            return item
    return None


def plain_button(component: Button) -> discord.ui.Button:
    return discord.ui.Button(
        label=component.label,
        custom_id=component.custom_id,
        style=_STYLES[component.style],
        disabled=component.disabled,
        emoji=component.emoji or None,
    )


def plain_select(component: Select) -> discord.ui.Select:
    return discord.ui.Select(
        custom_id=component.custom_id,
        placeholder=component.placeholder,
        options=[
            discord.SelectOption(label=o.label, value=o.value, description=o.description or None) for o in component.options
        ],
    )


def add_components(view: discord.ui.View, reply: Reply, skip: tuple[str, ...] = ()) -> None:
    for row_index, row in enumerate(reply.rows):
        for component in row:
            if component.custom_id in skip:
                continue
            item = item_for(component, row_index)
            if item is not None:
                view.add_item(item)


# --- opening sections -----------------------------------------------------------------------


def files(reply: Reply) -> list[discord.File]:
    """The reply's attachments (a chart), sent once with the first message; later edits keep them."""
    return [discord.File(io.BytesIO(f.data), filename=f.name) for f in reply.files]


async def show_answer(interaction: discord.Interaction, answer: Paged, ephemeral: bool = False) -> None:
    """Send a paged answer (first response) with its pager and its files."""
    pager = Pager(answer, interaction.user.id)
    reply = answer.reply(ephemeral=ephemeral)
    kwargs = send_kwargs(reply, pager.refresh())
    if reply.files:
        kwargs["files"] = files(reply)
    await interaction.response.send_message(ephemeral=ephemeral, **kwargs)
    pager.message = await interaction.original_response()


async def send_followup(interaction: discord.Interaction, answer: Paged) -> None:
    """Send a paged answer after `defer()` (exact odds may take a moment), with its files."""
    pager = Pager(answer, interaction.user.id)
    reply = answer.reply()
    kwargs = send_kwargs(reply, pager.refresh())
    if reply.files:
        kwargs["files"] = files(reply)
    pager.message = await interaction.followup.send(wait=True, **kwargs)


async def open_from_component(interaction: discord.Interaction, game: str, value: str) -> None:
    """A related-topic button or a result menu: the asker's message turns to that section;
    anyone else gets it privately."""
    locale = locale_of(interaction)
    try:
        answer = await workers.call(answers.open_section, compendium_of(interaction), game, value, locale, locale=locale)
    except answers.UserError as exc:
        await interaction.response.send_message(exc.message, ephemeral=True)
        return
    meta = getattr(interaction.message, "interaction_metadata", None) if interaction.message else None
    asker = getattr(getattr(meta, "user", None), "id", None)
    if asker is not None and asker == interaction.user.id:
        pager = Pager(answer, interaction.user.id)
        await interaction.response.edit_message(**send_kwargs(answer.reply(), pager.refresh()))
        pager.message = interaction.message
    else:
        await show_answer(interaction, answer, ephemeral=True)


class OpenSectionButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"rule:open:(?P<game>[a-z0-9-]+):(?P<section>[a-z0-9-]+)"
):
    def __init__(self, game: str, section: str, label: str = "…") -> None:
        super().__init__(
            discord.ui.Button(label=label, style=discord.ButtonStyle.primary, custom_id=f"rule:open:{game}:{section}")
        )
        self.game, self.section = game, section

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match):
        return cls(match["game"], match["section"], item.label or "…")

    @reports_errors
    async def callback(self, interaction: discord.Interaction) -> None:
        await open_from_component(interaction, self.game, self.section)


class OpenSectionSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"rule:(?:related|pick):(?P<game>[a-z0-9-]+)"):
    def __init__(self, game: str, select: discord.ui.Select | None = None) -> None:
        super().__init__(select or discord.ui.Select(custom_id=f"rule:pick:{game}", options=[discord.SelectOption(label="-")]))
        self.game = game

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match):
        return cls(match["game"], item)

    @reports_errors
    async def callback(self, interaction: discord.Interaction) -> None:
        await open_from_component(interaction, self.game, self.item.values[0])


@component_factory(r"rule:open:[a-z0-9-]+:[a-z0-9-]+")
def _open_button(component: Button):
    _, _, game, section = component.custom_id.split(":")
    return OpenSectionButton(game, section, component.label)


@component_factory(r"rule:(?:related|pick):[a-z0-9-]+")
def _open_select(component: Select):
    return OpenSectionSelect(component.custom_id.split(":")[2], plain_select(component))


DYNAMIC_ITEMS = [OpenSectionButton, OpenSectionSelect]


# --- paging ------------------------------------------------------------------------------------


class AuthorOnlyView(discord.ui.View):
    """A view whose buttons answer only the person who asked."""

    def __init__(self, author_id: int, timeout: float | None = PAGER_TIMEOUT):
        super().__init__(timeout=timeout)
        self.author_id = author_id
        self.message: discord.Message | None = None

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.user.id == self.author_id:
            return True
        await interaction.response.send_message(t("not_yours", locale_of(interaction)), ephemeral=True)
        return False

    async def on_timeout(self) -> None:
        if self.message is not None:
            with contextlib.suppress(discord.HTTPException):  # deleted, or an expired ephemeral message
                await self.message.edit(view=None)

    async def on_error(self, interaction: discord.Interaction, error: Exception, item) -> None:
        await answer_error(interaction, error)


class Pager(AuthorOnlyView):
    """◀ ▶ through any paged answer (a rules section, a battle log), plus its other buttons."""

    def __init__(self, answer: Paged, author_id: int):
        super().__init__(author_id)
        self.answer = answer
        self.page = answer.start

    def refresh(self) -> Pager:
        self.clear_items()
        reply = self.answer.reply(self.page)
        for row_index, row in enumerate(reply.rows):
            for component in row:
                if component.custom_id in ("page:prev", "page:next"):
                    button = plain_button(component)
                    button.row = row_index
                    button.callback = self._turn(-1 if component.custom_id == "page:prev" else 1)  # type: ignore[method-assign,assignment]
                    self.add_item(button)
                else:
                    item = item_for(component, row_index)
                    if item is not None:
                        self.add_item(item)
        return self

    def _turn(self, step: int) -> Callable[[discord.Interaction], Awaitable[None]]:
        async def turn(interaction: discord.Interaction) -> None:
            self.page = max(0, min(self.page + step, len(self.answer.pages) - 1))
            await interaction.response.edit_message(**send_kwargs(self.answer.reply(self.page), self.refresh()))

        return turn

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        # other buttons (related topics, roll again) are for everyone; only paging is the asker's
        custom_id = dict(interaction.data or {}).get("custom_id", "")
        if custom_id not in ("page:prev", "page:next"):
            return True
        return await super().interaction_check(interaction)
