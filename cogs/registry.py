"""How each command's (and button's) answer is shown on Discord and how its options are completed, where a
feature's cog says so. Kept apart from the extensions: discord.py executes an extension's module
afresh when it loads it, and a registry there would start empty again."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import discord
from discord import app_commands

from tabletop.core import commands as core
from tabletop.core.components import Component, Press

Presenter = Callable[[discord.Interaction, core.Command, dict], Awaitable[None]]
Completer = Callable[[discord.Interaction, str], Awaitable[list[app_commands.Choice[str]]]]
PRESENTERS: dict[str, Presenter] = {}
COMPLETERS: dict[str, Completer] = {}  # Option.autocomplete -> the cog's completer
ComponentPresenter = Callable[[discord.Interaction, Component, Press], Awaitable[None]]
COMPONENT_PRESENTERS: dict[str, ComponentPresenter] = {}  # a component's name -> how it is shown


def presenter(*names: str):
    """Show these commands' answers another way than `show` (registered by the feature's cog)."""

    def register(fn: Presenter) -> Presenter:
        for name in names:
            PRESENTERS[name] = fn
        return fn

    return register


def completer(kind: str):
    def register(fn: Completer) -> Completer:
        COMPLETERS[kind] = fn
        return fn

    return register


def component_presenter(*components: Component):
    """Show these components' answers another way than their declared `show`."""

    def register(fn: ComponentPresenter) -> ComponentPresenter:
        for comp in components:
            COMPONENT_PRESENTERS[comp.name] = fn
        return fn

    return register
