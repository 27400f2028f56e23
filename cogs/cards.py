"""Replies as layout cards (Discord's components v2), made from the core's card (payloads.card)
so that what is sent is what the limit checks measured. Every answer is one; a one-line
acknowledgement (a vote recorded) stays plain text."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import discord

from tabletop.core.payloads import CONTAINER, MEDIA_GALLERY, TEXT_DISPLAY, card
from tabletop.core.render import Button, Reply, Select

# What makes a reply's button or menu into a discord.py item (None: leave it out).
MakeItem = Callable[[Button | Select], "discord.ui.Item | None"]


def links_only(component: Button | Select) -> discord.ui.Item | None:
    """A reply shown without its own buttons keeps its links (they need no callback)."""
    if isinstance(component, Button) and component.url:
        return discord.ui.Button(label=component.label, url=component.url)
    return None


def layout(reply: Reply, view: discord.ui.LayoutView | None = None, make: MakeItem = links_only) -> discord.ui.LayoutView:
    """The reply as a layout card in `view` (emptied first; a new one by default)."""
    view = view if view is not None else discord.ui.LayoutView(timeout=None)
    view.clear_items()
    rows = iter([row for row in reply.rows if row])
    for spec in card(reply):
        item = _component(spec, rows, make)
        if item is not None:
            view.add_item(item)
    return view


def _component(spec: dict, rows: Iterator[list], make: MakeItem) -> discord.ui.Item | None:
    kind = spec["type"]
    if kind == TEXT_DISPLAY:
        return discord.ui.TextDisplay(spec["content"], id=spec["id"])
    if kind == MEDIA_GALLERY:
        return discord.ui.MediaGallery(discord.MediaGalleryItem(spec["items"][0]["media"]["url"]), id=spec["id"])
    if kind == CONTAINER:
        container: discord.ui.Container = discord.ui.Container(accent_color=spec["accent_color"])
        for child in spec["components"]:
            item = _component(child, rows, make)
            if item is not None:
                container.add_item(item)
        return container
    row: discord.ui.ActionRow = discord.ui.ActionRow()
    for component in next(rows):
        item = make(component)
        if item is not None:
            row.add_item(item)
    return row if row.children else None  # Discord refuses an empty row
