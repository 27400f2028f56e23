"""Discord's side of the core's component registry: one persistent DynamicItem per declared
button or menu, a form when a press needs words (how many votes), and how each kind of answer
is shown. The pager's ◀ ▶ belong to one message's view, bound to the person who asked.

Every button carries what it acts on in its custom_id, so after a restart, or in another
process of a sharded bot, the next press just works.
"""

from __future__ import annotations

import contextlib
import io
import re
from collections.abc import Awaitable, Callable

import discord

from cogs.errors import answer_error
from tabletop import features
from tabletop.core.components import COMPONENTS, CUSTOM_ID_MAX, Component, NeedsInput, Press, find
from tabletop.core.errors import UserError
from tabletop.core.i18n import t
from tabletop.core.render import Button, Paged, Reply, Select, page_step

from . import workers
from .cards import layout, links_only
from .registry import COMPONENT_PRESENTERS
from .ui import context, locale_of, plain_button, plain_select, reports_errors, send_kwargs, sent_message

PAGER_TIMEOUT = 600  # seconds; then the paging buttons are removed
FORM_TEXT_MAX = 45  # Discord's limit on a form's title and on a field's label


# --- showing an answer ----------------------------------------------------------------------


def files(reply: Reply) -> list[discord.File]:
    """The reply's attachments (a chart), sent once with the first message; later edits keep them."""
    return [discord.File(io.BytesIO(f.data), filename=f.name) for f in reply.files]


async def show_answer(interaction: discord.Interaction, answer: Paged | Reply, ephemeral: bool = False) -> None:
    """Send an answer as the first response: pages with their pager, or a reply with its buttons."""
    if not isinstance(answer, Paged):
        await interaction.response.send_message(ephemeral=ephemeral or answer.ephemeral, **send_kwargs(answer, card_of(answer)))
        return
    pager = Pager(answer, interaction.user.id)
    reply = answer.reply(ephemeral=ephemeral)
    kwargs = send_kwargs(reply, pager.refresh())
    if reply.files:
        kwargs["files"] = files(reply)
    sent = await interaction.response.send_message(ephemeral=ephemeral, **kwargs)
    pager.message = await sent_message(interaction, sent)


async def send_followup(interaction: discord.Interaction, answer: Paged) -> None:
    """Send a paged answer after `defer()` (exact odds may take a moment), with its files."""
    pager = Pager(answer, interaction.user.id)
    reply = answer.reply()
    kwargs = send_kwargs(reply, pager.refresh())
    if reply.files:
        kwargs["files"] = files(reply)
    pager.message = await interaction.followup.send(wait=True, **kwargs)


async def _answer(interaction: discord.Interaction, comp: Component, press: Press):
    ctx = context(interaction)
    return await workers.call(comp.handler, ctx, press, heavy=comp.heavy)


async def show_public(interaction: discord.Interaction, comp: Component, press: Press) -> None:
    await show_answer(interaction, await _answer(interaction, comp, press))


async def show_private(interaction: discord.Interaction, comp: Component, press: Press) -> None:
    await show_answer(interaction, await _answer(interaction, comp, press), ephemeral=True)


async def show_in_place(interaction: discord.Interaction, comp: Component, press: Press) -> None:
    """The asker's message turns to the answer (a related topic opened); anyone else gets it
    privately, so one player's click never changes what the table is reading."""
    answer = await _answer(interaction, comp, press)
    meta = getattr(interaction.message, "interaction_metadata", None) if interaction.message else None
    asker = getattr(getattr(meta, "user", None), "id", None)
    if asker is None or asker != interaction.user.id or not isinstance(answer, Paged):
        await show_answer(interaction, answer, ephemeral=True)
        return
    pager = Pager(answer, interaction.user.id)
    await interaction.response.edit_message(**send_kwargs(answer.reply(), pager.refresh()))
    pager.message = interaction.message


SHOW: dict[str, Callable[[discord.Interaction, Component, Press], Awaitable[None]]] = {
    "public": show_public,
    "private": show_private,
    "in_place": show_in_place,
}


# --- pressing -------------------------------------------------------------------------------


async def pressed(interaction: discord.Interaction, comp: Component, press: Press) -> None:
    """Run a press and show its answer; a press that needs words first opens a form, whose
    answers press it again."""
    show = COMPONENT_PRESENTERS.get(comp.name) or SHOW[comp.show]
    try:
        await show(interaction, comp, press)
    except NeedsInput as need:
        if press.inputs:  # the form's answers were not enough: a bug, not a second form
            raise
        await open_form(interaction, Form(need, comp, press))


# A form's custom_id: this prefix, then the custom_id of the button that opened it (and a menu's
# chosen value): everything its submission needs, so that it is answered by whichever process
# receives it, after a restart too (in-memory forms would be forgotten).
FORM_PREFIX = "form:"
FORM_CHOSEN = "|"


class Form(discord.ui.Modal):
    """What a press asks for, one text field each (its key as the field's custom_id); submitting
    presses again with the answers, through `submitted`, never through this object."""

    def __init__(self, need: NeedsInput, comp: Component, press: Press):
        opened_by = comp.id(**press.values) + (FORM_CHOSEN + press.chosen if press.chosen else "")
        super().__init__(title=need.title[:FORM_TEXT_MAX], custom_id=(FORM_PREFIX + opened_by)[:CUSTOM_ID_MAX])
        self.boxes: dict[str, discord.ui.TextInput] = {}
        for f in need.fields:
            box: discord.ui.TextInput = discord.ui.TextInput(
                label=f.label[:FORM_TEXT_MAX], max_length=f.max_length, placeholder=f.placeholder or None, custom_id=f.key
            )
            self.boxes[f.key] = box
            self.add_item(box)


async def open_form(interaction: discord.Interaction, form: Form) -> None:
    """Show the form, then forget it: its submission is answered from its custom_id alone."""
    await interaction.response.send_modal(form)
    form.stop()  # out of discord.py's in-memory store: `submitted` answers it, in any process


def form_answers(data: dict) -> dict[str, str]:
    """A submitted form's text fields, by custom_id, from the interaction's raw data."""
    answers: dict[str, str] = {}
    for row in data.get("components") or ():
        for part in row.get("components") or ([row.get("component")] if row.get("component") else ()):
            if part.get("custom_id") is not None:
                answers[str(part["custom_id"])] = str(part.get("value") or "")
    return answers


class Forms:
    """Answers our forms' submissions (an on_interaction listener): the press their custom_id
    names, again, with the answers typed."""

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        data: dict = dict(interaction.data or {})
        custom_id = str(data.get("custom_id") or "")
        if interaction.type == discord.InteractionType.modal_submit and custom_id.startswith(FORM_PREFIX):
            await self.answer(interaction, custom_id[len(FORM_PREFIX) :])

    @reports_errors
    async def answer(self, interaction: discord.Interaction, opened_by: str) -> None:
        button, _, chosen = opened_by.partition(FORM_CHOSEN)
        found = find(button)
        if found is None:  # a form shown by a version that had other buttons
            raise UserError(t("form.outdated"))
        comp, values = found
        await pressed(interaction, comp, Press(values, chosen or None, form_answers(dict(interaction.data or {}))))


FORMS = Forms()


def dynamic_item(comp: Component) -> type[discord.ui.DynamicItem]:
    """The persistent discord.py item for one declared component: discord.py finds it by the
    custom_id's pattern on any message, however old."""
    base = discord.ui.DynamicItem[discord.ui.Select] if comp.select else discord.ui.DynamicItem[discord.ui.Button]

    class Item(base, template=comp.pattern):  # type: ignore[valid-type,misc,call-arg]
        @classmethod
        async def from_custom_id(cls, interaction, item, match: re.Match):
            return cls(item)

        @reports_errors
        async def callback(self, interaction: discord.Interaction) -> None:
            chosen = getattr(self.item, "values", None)
            values = comp.pattern.fullmatch(self.item.custom_id or "")
            await pressed(interaction, comp, Press(values.groupdict() if values else {}, chosen[0] if chosen else None))

    Item.__name__ = Item.__qualname__ = "".join(part.title() for part in re.split(r"[._]", comp.name))
    return Item


features.load()  # every feature has declared its components before the items are made
ITEMS: dict[str, type[discord.ui.DynamicItem]] = {
    name: dynamic_item(comp)
    for name, comp in COMPONENTS.items()
    if not comp.local  # a pager: its view turns it
}
DYNAMIC_ITEMS = list(ITEMS.values())


def item_for(component: Button | Select) -> discord.ui.Item | None:
    """The discord.py item for a button or menu of a reply (None for one nobody declared)."""
    if isinstance(component, Button) and component.url:  # a link: Discord opens it, no callback
        return links_only(component)
    found = find(component.custom_id)
    if found is None:
        return None
    plain = plain_select(component) if isinstance(component, Select) else plain_button(component)
    return ITEMS[found[0].name](plain)


def card_of(reply: Reply) -> discord.ui.LayoutView:
    """The reply as a card with its persistent buttons and menus (any process answers them)."""
    return layout(reply, make=item_for)


# --- paging ---------------------------------------------------------------------------------


class AuthorOnlyView(discord.ui.LayoutView):
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

    def settled(self) -> discord.ui.LayoutView:
        """The card once its own buttons stop answering: the same text, without them."""
        return discord.ui.LayoutView(timeout=None)

    async def on_timeout(self) -> None:
        if self.message is not None:
            with contextlib.suppress(discord.HTTPException):  # deleted, or an expired ephemeral message
                await self.message.edit(view=self.settled())

    async def on_error(self, interaction: discord.Interaction, error: Exception, item) -> None:
        await answer_error(interaction, error)


class Pager(AuthorOnlyView):
    """◀ ▶ through any paged answer (a rules section, a battle log), plus its other buttons."""

    def __init__(self, answer: Paged, author_id: int):
        super().__init__(author_id)
        self.answer = answer
        self.page = answer.start

    def refresh(self) -> Pager:
        layout(self.answer.reply(self.page), self, self._item)
        return self

    def _item(self, component: Button | Select) -> discord.ui.Item | None:
        step = page_step(component.custom_id)
        if step and isinstance(component, Button):
            button = plain_button(component)
            button.callback = self._turn(step)  # type: ignore[method-assign,assignment]
            return button
        return item_for(component)

    def settled(self) -> discord.ui.LayoutView:
        """The page being read stays; ◀ ▶ go, the other buttons (anyone's) stay."""
        return layout(self.answer.reply(self.page), make=lambda c: None if page_step(c.custom_id) else item_for(c))

    def _turn(self, step: int) -> Callable[[discord.Interaction], Awaitable[None]]:
        async def turn(interaction: discord.Interaction) -> None:
            self.page = max(0, min(self.page + step, len(self.answer.pages) - 1))
            await interaction.response.edit_message(**send_kwargs(self.answer.reply(self.page), self.refresh()))

        return turn

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        # other buttons (related topics, roll again) are for everyone; only paging is the asker's
        custom_id = dict(interaction.data or {}).get("custom_id", "")
        if not page_step(str(custom_id)):
            return True
        return await super().interaction_check(interaction)
