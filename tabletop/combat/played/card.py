"""The registry of played cards and what each one is told of a round (see the package)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from tabletop.combat.model import Die, SideModel, State
from tabletop.combat.units import Side, Unit

CARDS: dict[str, PlayedCard] = {}  # the effect entry's id (data/units/*.yaml) -> its card


@dataclass(frozen=True)
class Moment:
    """One side's part in a round just played: its units as the round met them (`before`) and
    those alive now, with the id() of those damaged; a card played makes a new one."""

    kind: str  # the fight: space | ground | invade
    number: int  # the round
    before: tuple[Unit, ...]
    alive: tuple[Unit, ...]
    damaged: frozenset[int]
    sustainers: frozenset[int] = field(default=frozenset())  # id() of its units that may sustain
    struck: frozenset[int] = field(default=frozenset())  # id() of those the round's hits destroyed
    volley: str = "combat"  # what made the hits: a combat round, or a roll before the rounds (Attack.kind)
    covers: frozenset[int] = field(default=frozenset())  # id() of every unit of the side it stands for

    @classmethod
    def of(cls, kind: str, number: int, model: SideModel, before: State, after: State) -> Moment:
        """A side's moment read through its model (any kind: model.is_lost and model.damaged say
        which of its pieces are alive and damaged)."""
        pieces = model.pieces

        def alive(state: State) -> tuple[Unit, ...]:
            return tuple(pieces[i] for i in range(model.N) if not model.is_lost(i, state))

        damaged = frozenset(id(pieces[i]) for i in model.damaged(after))
        sustainers = frozenset(id(pieces[i]) for i in range(model.N) if model.sustainer[i])
        left = {id(u) for u in alive(after)}
        struck = frozenset(id(u) for u in alive(before) if id(u) not in left)
        covers = frozenset(id(u) for u in pieces)
        return cls(kind, number, alive(before), alive(after), damaged, sustainers, struck, covers=covers)

    @classmethod
    def of_side(cls, kind: str, volley: str, side: Side, after: Side, events: list[tuple[Unit, str]]) -> Moment:
        """A side's moment in a roll before the rounds, from the side before and after its hits
        (battle.HitPlan.apply: a unit whose damage changed is a copy, a destroyed one an event)."""
        struck = {id(u) for u, result in events if result == "destroyed"}
        later = iter(after.units)
        before = tuple(u if id(u) in struck else next(later) for u in side.units)
        damaged = frozenset(id(u) for u in after.units if u.damaged)
        sustainers = frozenset(id(u) for u in before if u.sustain)
        covers = frozenset(id(u) for u in (*side.units, *after.units))
        return cls(kind, 0, before, tuple(after.units), damaged, sustainers, frozenset(struck), volley, covers)

    @property
    def destroyed(self) -> list[Unit]:
        """Its units the round's hits destroyed and no card saved, in loss order (a unit a card
        destroys sets off no card: the cards answer the round's hits)."""
        left = {id(u) for u in self.alive}
        return [u for u in self.before if id(u) in self.struck and id(u) not in left]

    @property
    def gone(self) -> bool:
        return not self.alive

    def restoring(self, unit: Unit) -> Moment:
        """The unit back (a unit that could sustain had sustained first: damaged)."""
        damaged = self.damaged | ({id(unit)} & self.sustainers)
        order = {id(u): n for n, u in enumerate(self.before)}
        alive = tuple(sorted((*self.alive, unit), key=lambda u: order[id(u)]))
        return replace(self, alive=alive, damaged=damaged)

    def losing(self, units: list[Unit]) -> Moment:
        gone = {id(u) for u in units}
        return replace(self, alive=tuple(u for u in self.alive if id(u) not in gone), damaged=self.damaged - gone)

    def repaired(self) -> Moment:
        return replace(self, damaged=frozenset())

    def units(self) -> list[Unit]:
        """Copies of its units alive, each with its damage: the side of the fight that follows."""
        out = []
        for unit in self.alive:
            copy = unit.copy()
            copy.damaged = id(unit) in self.damaged
            out.append(copy)
        return out


@dataclass(frozen=True)
class Played:
    """A card played: for each number of hits of its own dice (`dice`, none for most cards:
    then `sides(0)`), the holder's moment and the opponent's after it, and the log's line (a
    message key and its values)."""

    sides: Callable[[int], tuple[Moment, Moment, tuple[str, dict]]]
    dice: tuple[Die, ...] = ()


class PlayedCard:
    """A card played once a fight, at its first opportunity (from round `from_round` on).
    Subclasses say where it acts and what it does; the registry holds one of each."""

    id = ""  # the effect entry's id in the unit files
    fights: frozenset[str] = frozenset({"space", "ground", "invade"})
    # its place among the cards played after one round's hits: what saves a unit from being
    # destroyed (1) before what a unit's destruction sets off (2), repairs of what is left last (3)
    step = 2
    rolls = False  # whether it rolls dice of its own (the log shows them with its line)
    most_cancelled = 0  # the most hits it cancels: hits past what destroys every unit count again

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        CARDS[cls.id] = cls()

    def cancels(self, hits: int, wipes: bool) -> int:
        """Before hits are assigned to the holder's units (`wipes`: they would destroy every one
        of them): how many it cancels (0: not played)."""
        return 0

    def at_start(self, holder: Moment) -> bool:
        """At the start of the combat rounds: whether it is played on the sides as they are."""
        return False

    def after_round(self, holder: Moment, opponent: Moment) -> Played | None:
        """After a round's hits: what playing it does (None: not played now)."""
        return None


def most_expensive(units: list[Unit]) -> Unit:
    """The unit a player would keep (or take) first: the highest cost, the latest in the loss
    order among equals (the order puts what the player values last)."""
    return max(reversed(units), key=lambda u: u.cost)
