"""The options of a fight as typed values, declared once for every front end (core.commands):
a ground or space combat's sides, modifiers, loss orders and rounds, a bombardment's, an
invasion's. commands.py declares the commands that take them; assembly.py builds their fights."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tabletop.combat.battle import MAX_MODIFIER, MAX_ROUNDS
from tabletop.core.commands import CONTENT, Values, opt

SIDE_MAX_CHARS = 500  # a side is a list of units; a long but real fleet fits well within this
ORDER_MAX_CHARS = 200  # a loss order names unit types: a few words


def side(name: str, required: bool = False, help: str = "") -> Any:
    return opt(required=required, max_length=SIDE_MAX_CHARS, help=help or f"opt.combat.{name}.desc")


def modifier() -> Any:
    return opt(min_value=-MAX_MODIFIER, max_value=MAX_MODIFIER, help="opt.combat.mod.desc")


def order() -> Any:
    return opt(max_length=ORDER_MAX_CHARS, help="opt.combat.order.desc")


def rounds() -> Any:
    """ "Fight N rounds, then decide": the combat stops after this round, whatever is left."""
    return opt(min_value=1, max_value=MAX_ROUNDS, help="opt.combat.rounds.desc")


@dataclass(frozen=True)
class GroundFight(Values):
    attacker: str = side("attacker", required=True, help="opt.combat.side.desc")
    defender: str = side("defender", required=True, help="opt.combat.side.desc")
    attacker_mod: int | None = modifier()
    defender_mod: int | None = modifier()
    attacker_order: str | None = order()
    defender_order: str | None = order()
    rounds: int | None = rounds()
    content: str | None = opt(**CONTENT)  # the content the table plays; without it, the server's setting


@dataclass(frozen=True)
class SpaceFight(GroundFight):
    retreat: str | None = opt(max_length=30, one_word=True, help="opt.combat.retreat.desc")  # attacker@2


@dataclass(frozen=True)
class Bombardment(Values):
    units: str = side("units", required=True)
    target: str = side("target", required=True)
    shield: bool | None = opt(help="opt.combat.shield.desc")
    target_order: str | None = order()
    content: str | None = opt(**CONTENT)


@dataclass(frozen=True)
class Invasion(Values):
    ships: str = side("ships", required=True)
    landing: str = side("landing", required=True)
    defender: str | None = side("defender")  # none: only structures (pds:) defend the planet
    pds: str | None = side("pds")
    shield: bool | None = opt(help="opt.combat.shield.desc")
    attacker_mod: int | None = modifier()
    defender_mod: int | None = modifier()
    landing_order: str | None = order()
    defender_order: str | None = order()
    rounds: int | None = rounds()
    content: str | None = opt(**CONTENT)


FightValues = GroundFight | Bombardment | Invasion
