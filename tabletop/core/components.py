"""Buttons and menus, each declared once by the feature that owns it: its custom_id template and
what pressing it does. Discord's persistent items and the console's numbered choices are both
made from this registry, so no front end builds or parses a custom_id.

A custom_id carries everything the press needs (a section, an agenda id), so a button keeps
working after a restart and in every process. When a press needs words from the person (how
many votes), the handler raises NeedsInput; a front end asks (Discord: a form; the console: a
prompt) and presses again with the answers, so the handler's checks run before the question too.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from typing import Any

from tabletop.core.errors import UserError
from tabletop.core.i18n import t

CUSTOM_ID_MAX = 100  # Discord's limit on a component's custom_id
NUMBER = r"\d{1,18}"  # a database id or an index (Discord snowflakes fit in 18 digits too)
SLUG = r"[a-z0-9-]{1,40}"  # a game or section id
SHOWS = ("public", "private", "in_place")  # a new message; for the presser only; the asker's message turns


@dataclass(frozen=True)
class InputField:
    """One line a press asks for (a number of votes, a planet); its label is already localised."""

    key: str
    label: str
    max_length: int
    placeholder: str = ""


class NeedsInput(Exception):  # noqa: N818 - a request to the front end, not a failure
    """The press needs these answers first: ask them and press again with `inputs`."""

    def __init__(self, title: str, fields: tuple[InputField, ...]):
        super().__init__(title)
        self.title, self.fields = title, fields


@dataclass(frozen=True)
class Press:
    """One press: the values its custom_id carries, the menu's chosen value, answers given."""

    values: dict[str, str]
    chosen: str | None = None
    inputs: dict[str, str] = field(default_factory=dict)

    def ask(self, title: str, *fields: InputField) -> dict[str, str]:
        """The answers to these fields, or NeedsInput when they have not been asked yet."""
        if all(f.key in self.inputs for f in fields):
            return {f.key: self.inputs[f.key].strip() for f in fields}
        raise NeedsInput(title, fields)


# A handler takes the request's context (core.commands.Context, which itself builds on this
# module: named here only as Any, so that the two never import each other) and the press.
Handler = Callable[[Any, Press], object]


class Component:
    """A kind of button or menu: `agenda:{id}:vote:{index}` with a pattern per value."""

    def __init__(
        self,
        name: str,
        template: str,
        *,
        select: bool = False,
        heavy: bool = False,
        show: str = "public",
        local: bool = False,
        **fields: str,
    ):
        if show not in SHOWS:
            raise ValueError(f"{name}: show must be one of {SHOWS}")
        names = re.findall(r"{(\w+)}", template)
        if set(names) != set(fields) or len(set(names)) != len(names):
            raise ValueError(f"{name}: every value of {template!r} needs one pattern, and only those")
        self.name, self.template, self.select, self.heavy, self.show = name, template, select, heavy, show
        # pressed within the front end that shows it, which holds what it needs (a pager's
        # pages): it has no handler here, and no front end registers it as a persistent item
        self.local = local
        self.fields = fields
        parts = re.split(r"({\w+})", template)
        self.pattern = re.compile(
            "".join(f"(?P<{p[1:-1]}>{fields[p[1:-1]]})" if p.startswith("{") else re.escape(p) for p in parts)
        )
        self.handler: Handler | None = None
        if name in COMPONENTS or any(c.template == template for c in COMPONENTS.values()):
            raise ValueError(f"component {name} ({template}) is declared twice")
        COMPONENTS[name] = self

    def on_press(self, fn: Handler) -> Handler:
        """Declare what pressing it does: fn(ctx, press) returns the answer like a command."""
        self.handler = fn
        return fn

    def id(self, **values: object) -> str:
        """The custom_id for these values; a value its pattern refuses is a bug, said here."""
        custom_id = self.template.format(**{k: str(v) for k, v in values.items()})
        if not self.pattern.fullmatch(custom_id) or len(custom_id) > CUSTOM_ID_MAX:
            raise ValueError(f"{self.name}: {custom_id!r} does not fit {self.pattern.pattern}")
        return custom_id

    def __repr__(self) -> str:
        return f"Component({self.name!r}, {self.template!r})"


COMPONENTS: dict[str, Component] = {}


def find(custom_id: str) -> tuple[Component, dict[str, str]] | None:
    """The component a custom_id belongs to, with the values it carries."""
    for comp in COMPONENTS.values():
        m = comp.pattern.fullmatch(custom_id)
        if m:
            return comp, m.groupdict()
    return None


def press(ctx: Any, custom_id: str, chosen: str | None = None, inputs: dict[str, str] | None = None):
    """Run what a button or a menu option does (NeedsInput: ask, then press again)."""
    found = find(custom_id)
    if found is None or found[0].handler is None:
        raise UserError(t("error.unknown_button"))
    comp, values = found
    return comp.handler(ctx, Press(values, chosen, dict(inputs or {})))  # type: ignore[misc]


def press_asking(
    ctx: Any,
    custom_id: str,
    chosen: str | None,
    ask: Callable[[str], str | None],
    each: Callable[[], AbstractContextManager[object]] = nullcontext,
):
    """A press for a front end that asks line by line (the console): each field, one prompt.
    `each` wraps each press (a request's clock), never the time the player takes to answer."""
    try:
        with each():
            return press(ctx, custom_id, chosen)
    except NeedsInput as need:
        inputs = {f.key: ask(f.label) or "" for f in need.fields}
    with each():
        return press(ctx, custom_id, chosen, inputs)
