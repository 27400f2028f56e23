"""The command table's typed values: each command declares one frozen class of its options, from
which every front end's options are made, and its handler gets that class filled in, however
the command came (typed, from a button's replay, from the command line)."""

from __future__ import annotations

import dataclasses
import typing

import pytest

import tabletop.features  # noqa: F401 - the feature modules register their commands
from tabletop.core import commands as table
from tabletop.core.commands import COMMANDS, Context, Values, opt, options_of
from tabletop.core.errors import UserError


@dataclasses.dataclass(frozen=True)
class Sample(Values):
    name: str = opt(required=True, max_length=10)
    count: int | None = opt(min_value=1, max_value=3)
    loud: bool | None = opt()


def test_options_are_made_from_the_fields_in_order_with_their_kind():
    made = options_of(Sample)
    assert [(o.name, o.kind, o.required) for o in made] == [
        ("name", "str", True),
        ("count", "int", False),
        ("loud", "bool", False),
    ]
    assert made[0].max_length == 10 and made[1].max_value == 3


def test_the_handler_gets_its_values_frozen_and_converted(monkeypatch):
    got = []
    monkeypatch.setitem(COMMANDS, "sample", table.Command("sample", lambda ctx, v: got.append(v), Sample, options_of(Sample)))
    ctx = Context(compendium=None, state=None)  # type: ignore[arg-type]
    table.dispatch(ctx, "sample", {"name": "abc", "count": "2", "loud": "yes"})
    assert got == [Sample("abc", 2, True)]
    with pytest.raises(dataclasses.FrozenInstanceError):
        got[0].count = 3  # type: ignore[misc]
    assert got[0].given() == {"name": "abc", "count": 2, "loud": True}
    with pytest.raises(UserError):  # out of the declared range: a sentence, the handler never runs
        table.dispatch(ctx, "sample", {"name": "abc", "count": "9"})
    assert len(got) == 1


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_takes_its_own_values_class(name):
    """The handler's `values` is the class the command declared, whose fields are its options."""
    cmd = COMMANDS[name]
    assert cmd.options == options_of(cmd.values)
    hints = typing.get_type_hints(cmd.handler)
    assert hints["values"] is cmd.values
    required = [o.required for o in cmd.options]
    assert required == sorted(required, reverse=True)  # Discord wants the required options first
