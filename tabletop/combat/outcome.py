"""What exact odds answer: each side's chance to win, a draw, a retreat, control of the planet,
the expected rounds, and the survivors with their probabilities (tabletop.combat.odds fills it)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from tabletop.combat.battle import ATTACKER, DEFENDER


@dataclass
class Odds:
    attacker: float = 0.0
    defender: float = 0.0
    draw: float = 0.0
    retreat: float = 0.0  # included in the other side's win
    retreating: str | None = None  # the side that retreats (ATTACKER or DEFENDER), if one does
    stalemate: float = 0.0  # nobody can hit any more (counted in no side's win)
    undecided: float = 0.0  # both sides left when the combat stops after the rounds asked for
    rounds: float = 0.0  # expected number of combat rounds
    control: float | None = None  # invasion: the attacker controls the planet
    no_combat: float = 0.0  # invasion: no ground combat took place
    survivors: dict[str, dict[tuple, float]] = field(default_factory=lambda: {ATTACKER: {}, DEFENDER: {}})
    notes: list[str] = field(default_factory=list)  # what the fight as typed leaves out, said with the odds
    content: str = "pok"  # the content the table plays, said with the odds

    def total(self) -> float:
        return self.attacker + self.defender + self.draw + self.stalemate + self.undecided

    def top_survivors(self, side: str, n: int = 5) -> list[tuple[tuple, float]]:
        return sorted(self.survivors[side].items(), key=lambda kv: -kv[1])[:n]

    def survivor_counts(self, side: str) -> dict[int, float]:
        out: dict[int, float] = defaultdict(float)
        for units, p in self.survivors[side].items():
            out[sum(n for _, n in units)] += p
        return dict(sorted(out.items()))

    def at_least(self, side: str) -> dict[str, list[float]]:
        """For each kind of unit on a side: the chance that at least k of them survive, for
        k = 1 up to the most that can (what players ask a calculator: "will 2 carriers live?")."""
        names = sorted({name for key in self.survivors[side] for name, _ in key})
        out: dict[str, list[float]] = {}
        for name in names:
            exactly: dict[int, float] = defaultdict(float)
            for key, p in self.survivors[side].items():
                exactly[dict(key).get(name, 0)] += p
            most = max(exactly)
            out[name] = [sum(p for n, p in exactly.items() if n >= k) for k in range(1, most + 1)]
        return out

    def add_share(self, other: Odds, p: float) -> None:
        """Add the ends of a fight that follows this one with chance p (`other` solved with
        mass 1: the fight after a card is played, odds.Cards)."""
        for name in ("attacker", "defender", "draw", "retreat", "stalemate", "undecided", "rounds", "no_combat"):
            setattr(self, name, getattr(self, name) + p * getattr(other, name))
        if other.control is not None:
            self.control = (self.control or 0.0) + p * other.control
        for side, table in other.survivors.items():
            for key, q in table.items():
                self.add_survivors(side, key, p * q)

    def add_survivors(self, side: str, key: tuple, p: float) -> None:
        self.survivors[side][key] = self.survivors[side].get(key, 0.0) + p

    def as_dict(self) -> dict:
        out = {
            "attacker": round(self.attacker, 12),
            "defender": round(self.defender, 12),
            "draw": round(self.draw, 12),
            "rounds": round(self.rounds, 6),
            "survivors": {
                side: [{"units": dict(units), "p": round(p, 12)} for units, p in self.top_survivors(side, 10)]
                for side in (ATTACKER, DEFENDER)
            },
            "at_least": {
                side: {name: [round(p, 12) for p in chances] for name, chances in self.at_least(side).items()}
                for side in (ATTACKER, DEFENDER)
            },
        }
        out["content"] = self.content
        if self.notes:
            out["notes"] = list(self.notes)
        if self.retreat:
            out["retreat"] = round(self.retreat, 12)
        if self.stalemate:
            out["stalemate"] = round(self.stalemate, 12)
        if self.undecided:
            out["undecided"] = round(self.undecided, 12)
        if self.control is not None:
            out["control"] = round(self.control, 12)
            out["no_combat"] = round(self.no_combat, 12)
        return out


# The exact solvers' sums carry float error of about this size (their JSON is rounded to it): a
# chance this close to 0 or 1 is impossible or certain, and is written and listed as such.
NOISE = 1e-12


def percent(p: float) -> str:
    """One way to write a chance: whole percents; a chance that rounds to 0% or 100% but is not
    certain says so (<1%, >99%), so that 0% and 100% always mean impossible and certain."""
    if p < NOISE:
        return "0%"
    if p > 1 - NOISE:
        return "100%"
    if p < 0.005:
        return "<1%"
    if p > 0.995:
        return ">99%"
    return f"{p * 100:.0f}%"


def units_key(units) -> tuple:
    counts: dict[str, int] = defaultdict(int)
    for unit in units:
        counts[unit.name()] += 1
    return tuple(sorted(counts.items()))
