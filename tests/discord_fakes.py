"""Just enough of discord.Interaction to drive cog callbacks offline and record the answers."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from types import SimpleNamespace

import discord

from tabletop.core.payloads import FIELD, FOOTER, NOTE, SECTION, TEXT, TITLE, role


@dataclass
class Sent:
    method: str
    kwargs: dict

    @property
    def ephemeral(self) -> bool:
        return bool(self.kwargs.get("ephemeral"))

    @property
    def cards(self) -> list[discord.Embed]:
        """The message's layout cards read back as Discord shows them: each container's
        displays by the id that says what they show (payloads.card), as embeds for the asserts."""
        view = self.kwargs.get("view")
        if not isinstance(view, discord.ui.LayoutView):
            return []
        out: dict[int, discord.Embed] = {}
        for container in view.children:
            if not isinstance(container, discord.ui.Container):
                continue
            for item in container.children:
                if isinstance(item, discord.ui.TextDisplay | discord.ui.MediaGallery):
                    index, shows = role(item.id or 0)
                    embed = out.setdefault(index, discord.Embed(color=container.accent_color))
                    _read(embed, shows, item)
        return [out[k] for k in sorted(out)]

    @property
    def note(self) -> str:
        """The line above the cards (or the plain content of a message without one)."""
        view = self.kwargs.get("view")
        notes = [i.content for i in view.walk_children() if getattr(i, "id", None) == NOTE] if view is not None else []
        return notes[0] if notes else self.kwargs.get("content") or ""

    @property
    def embed(self) -> discord.Embed:
        if "embed" in self.kwargs:
            return self.kwargs["embed"]
        return (self.kwargs.get("embeds") or self.cards)[0]

    @property
    def text(self) -> str:
        parts = [self.note]
        for e in self.kwargs.get("embeds") or ([self.kwargs["embed"]] if "embed" in self.kwargs else []) or self.cards:
            parts += [e.title or "", e.description or ""]
        return "\n".join(parts)

    @property
    def items(self) -> list:
        """The message's buttons and menus, wherever they sit in its card."""
        view = self.kwargs.get("view")
        return [i for i in view.walk_children() if getattr(i, "custom_id", None) or getattr(i, "url", None)] if view else []


def _read(embed: discord.Embed, shows: int, item) -> None:
    """One display of a card into the embed that reads it back."""
    if isinstance(item, discord.ui.MediaGallery):
        embed.set_image(url=item.items[0].media.url)
    elif shows == TITLE:
        embed.title = item.content.removeprefix("### ")
    elif shows == TEXT:
        embed.description = item.content
    elif shows >= SECTION:  # a section continues the text, as a person reads the card
        embed.description = "\n".join(x for x in (embed.description, item.content) if x)
    elif shows == FOOTER:
        embed.set_footer(text=item.content.removeprefix("-# "))
    elif shows >= FIELD:
        name, _, value = item.content.partition("\n")
        embed.add_field(name=name.removeprefix("**").removesuffix("**"), value=value)


class FakeResponse:
    def __init__(self, log: list[Sent]):
        self.log = log
        self._done = False

    def is_done(self) -> bool:
        return self._done

    async def send_message(self, content=None, **kwargs):
        assert not self._done, "responded twice"
        self._done = True
        self.log.append(Sent("send_message", {"content": content, **kwargs}))

    async def edit_message(self, **kwargs):
        assert not self._done, "responded twice"
        self._done = True
        self.log.append(Sent("edit_message", kwargs))

    async def send_modal(self, modal):
        assert not self._done
        self._done = True
        self.log.append(Sent("send_modal", {"modal": modal}))

    async def defer(self, **kwargs):
        self._done = True
        self.log.append(Sent("defer", kwargs))


class FakeFollowup:
    def __init__(self, log):
        self.log = log

    async def send(self, content=None, **kwargs):
        self.log.append(Sent("followup", {"content": content, **kwargs}))
        return FakeMessage(self.log) if kwargs.get("wait") else None


class FakeMessage:
    _next = 1000

    def __init__(self, log, interaction_user=None):
        FakeMessage._next += 1
        self.id = FakeMessage._next
        self.log = log
        self.interaction_metadata = SimpleNamespace(user=interaction_user) if interaction_user else None

    async def edit(self, **kwargs):
        self.log.append(Sent("message_edit", kwargs))


@dataclass
class FakeUser:
    id: int
    display_name: str = "player"
    bot: bool = False

    @property
    def mention(self):
        return f"<@{self.id}>"


_INTERACTION_IDS = itertools.count(10**17)


@dataclass
class FakeInteraction:
    client: object
    user: FakeUser = field(default_factory=lambda: FakeUser(1, "Alice"))
    locale: discord.Locale = discord.Locale.korean
    guild_id: int | None = 42
    channel_id: int = 7
    permissions: discord.Permissions = field(default_factory=discord.Permissions.none)
    data: dict = field(default_factory=dict)
    message: FakeMessage | None = None
    namespace: SimpleNamespace = field(default_factory=SimpleNamespace)
    log: list = field(default_factory=list)
    type: discord.InteractionType = discord.InteractionType.component
    # where it was asked, and who installed the app it reached (0: a server, 1: a user), as
    # Discord sends them for user-installed apps
    context: discord.AppCommandContext = field(default_factory=lambda: discord.AppCommandContext(guild=True))
    authorizing_integration_owners: dict = field(default_factory=lambda: {"0": "42"})
    id: int = field(default_factory=lambda: next(_INTERACTION_IDS))  # each interaction its own, as Discord's

    def __post_init__(self):
        self.response = FakeResponse(self.log)
        self.followup = FakeFollowup(self.log)
        self.channel = FakeChannel(self.log)

    @property
    def guild(self):
        return SimpleNamespace(id=self.guild_id) if self.guild_id else None

    async def original_response(self):
        return FakeMessage(self.log, self.user)


class FakeBot(SimpleNamespace):
    """The attributes cogs read from interaction.client."""


class FakeChannel:
    """interaction.channel: records edits of earlier messages by id."""

    def __init__(self, log):
        self.log = log

    def get_partial_message(self, message_id):
        channel = self

        class Partial:
            id = message_id

            async def edit(self, **kwargs):
                channel.log.append(Sent("channel_edit", {"message_id": message_id, **kwargs}))

        return Partial()


def persistent_item(custom_id: str, chosen: str | None = None) -> discord.ui.DynamicItem:
    """The item discord.py makes from a message's button or menu by its custom_id alone, as after
    a restart; `chosen` is the menu option picked."""
    from cogs.components import ITEMS
    from tabletop.core.components import find

    found = find(custom_id)
    assert found is not None, custom_id
    comp = found[0]
    base: discord.ui.Item
    if comp.select:
        base = discord.ui.Select(custom_id=custom_id, options=[discord.SelectOption(label=chosen or "-", value=chosen or "-")])
        base._values = [chosen] if chosen is not None else []  # what the gateway's press carries
    else:
        base = discord.ui.Button(label="-", custom_id=custom_id)
    return ITEMS[comp.name](base)


async def form_of(bot, custom_id: str, user: FakeUser, **answers: str):
    """Press a button that asks for words as `user`, and fill its form with `answers`."""
    click = FakeInteraction(bot, user=user)
    await persistent_item(custom_id).callback(click)
    form = click.log[0].kwargs["modal"]
    for key, value in answers.items():
        form.boxes[key]._value = value
    return form


async def submit(form, interaction: FakeInteraction) -> None:
    """Submit a form as the gateway delivers it: only its custom_id and the typed values, in
    the interaction's raw data, to whichever process receives it (none has the form object)."""
    from cogs.components import FORMS

    interaction.type = discord.InteractionType.modal_submit
    interaction.data = {
        "custom_id": form.custom_id,
        "components": [
            {"type": 1, "components": [{"type": 4, "custom_id": box.custom_id, "value": box.value}]}
            for box in form.boxes.values()
        ],
    }
    await FORMS.on_interaction(interaction)


def user_installed(bot, user: FakeUser, where: str = "dm") -> FakeInteraction:
    """An interaction with the app a user installed: in its DM with the user ("dm"), in a group
    DM ("group"), or in a server that never added the bot ("server": a guild, no bot member)."""
    context = {  # Discord's context 1 (the bot's DM), 2 (a group DM or another DM), 0 (a server)
        "dm": discord.AppCommandContext(dm_channel=True),
        "group": discord.AppCommandContext(private_channel=True),
        "server": discord.AppCommandContext(guild=True),
    }[where]
    return FakeInteraction(
        bot,
        user=user,
        guild_id=777 if where == "server" else None,
        context=context,
        authorizing_integration_owners={"1": str(user.id)},
    )


def chat_message(content: str, embeds: list | None = None, card: discord.ui.LayoutView | None = None) -> SimpleNamespace:
    """A message someone posted, as a message command receives it (its text resolved by Discord
    itself: no Message Content intent); `card`: a layout message, its components as Discord
    sends them back."""
    from discord.components import _component_factory

    components = [_component_factory(c) for c in card.to_components()] if card is not None else []
    return SimpleNamespace(
        id=next(_INTERACTION_IDS), content=content, embeds=embeds or [], components=components, author=FakeUser(5, "Eve")
    )
