"""An exact solver of small fights with the five played cards, written from the cards' texts
alone as a test oracle by a writer who never saw this project's solvers (tests/combat/test_played.py
compares ours with it). Amended by us with two options for the first opportunity as the
calculators players use read it (hardlight_trigger="two_or_wipe": 2 hits or more, or any hit that
would destroy the holder's last unit; lash_waits=True: Lash waits for a unit it can destroy).
Its own notes follow.


Plain Python 3.11, stdlib only.  Intended as a test oracle.

All arithmetic is done with fractions.Fraction, so the result is the exact
rational probability; ``odds`` converts it to (correctly rounded) floats,
``odds_exact`` returns the Fractions.

Public API
----------
odds(attacker, defender, cards, kind="space", courageous_pick="best",
     hardlight_trigger="two", zero_hit_rounds_count=True) -> (att, dfd, draw)

    attacker / defender : unit names (or Unit objects) in LOSS order
                          (first listed = first destroyed).
    cards               : {"attacker": {card: from_round, ...},
                           "defender": {card: from_round, ...}}
                          e.g. {"attacker": {"emergency repairs": 1, "hardlight": 2}}
    kind                : "space" or "ground"

See README-style docstring of ``_Solver._resolve`` for the exact per-round
semantics.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from math import comb

sys.setrecursionlimit(max(sys.getrecursionlimit(), 100_000))


# --------------------------------------------------------------------------
# Units
# --------------------------------------------------------------------------
@dataclass(frozen=True)
class Unit:
    name: str
    value: int  # a d10 hits when roll >= value
    dice: int  # dice per combat round
    sustain: bool  # has SUSTAIN DAMAGE
    cost: float
    is_ship: bool


UNITS: dict[str, Unit] = {
    "fighter": Unit("fighter", 9, 1, False, 0.5, True),
    "destroyer": Unit("destroyer", 9, 1, False, 1.0, True),
    "cruiser": Unit("cruiser", 7, 1, False, 2.0, True),
    "carrier": Unit("carrier", 9, 1, False, 3.0, True),
    "dreadnought": Unit("dreadnought", 5, 1, True, 4.0, True),
    "war sun": Unit("war sun", 3, 3, True, 12.0, True),
    "infantry": Unit("infantry", 8, 1, False, 0.5, False),
    "mech": Unit("mech", 6, 1, True, 2.0, False),
}


def hit_prob(value: int) -> Fraction:
    """P(d10 >= value), d10 faces 1..10."""
    return Fraction(max(0, min(10, 11 - value)), 10)


# --------------------------------------------------------------------------
# Cards
# --------------------------------------------------------------------------
ER = "emergency repairs"
COUR = "courageous"
HL = "hardlight"
DIV = "divinity"
LASH = "lash"
ALL_CARDS = (ER, COUR, HL, DIV, LASH)

_ALIASES = {
    "emergency repairs": ER,
    "emergency_repairs": ER,
    "emergencyrepairs": ER,
    "er": ER,
    "courageous": COUR,
    "courageous to the end": COUR,
    "courageous_to_the_end": COUR,
    "hardlight": HL,
    "hard light": HL,
    "divinity": DIV,
    "lash": LASH,
}


def _norm_card(name: str) -> str:
    key = name.strip().lower()
    if key not in _ALIASES:
        raise ValueError(f"unknown card {name!r}")
    return _ALIASES[key]


def _norm_cards(d: dict | None) -> dict[str, int]:
    out: dict[str, int] = {}
    for k, v in (d or {}).items():
        c = _norm_card(k)
        n = 1 if v is None else int(v)
        if n < 1:
            raise ValueError(f"from-round must be >= 1 (card {k!r}: {v!r})")
        out[c] = n
    return out


# --------------------------------------------------------------------------
# Solver
# --------------------------------------------------------------------------
Side = tuple  # tuple[tuple[Unit, bool], ...]  (unit, damaged), in loss order
# State = ((att_side, def_side), (att_unused_cards, def_unused_cards), round)
#   round is the number of the round about to be fought, capped at the
#   largest "from round" so that the state space stays finite.

ZERO = Fraction(0)
ONE = Fraction(1)


def _hits_distribution(side: Side) -> tuple[Fraction, ...]:
    dist = [ONE]
    for unit, _dmg in side:
        p = hit_prob(unit.value)
        for _ in range(unit.dice):
            new = [ZERO] * (len(dist) + 1)
            for k, q in enumerate(dist):
                if q:
                    new[k] += q * (1 - p)
                    new[k + 1] += q * p
            dist = new
    return tuple(dist)


class _Solver:
    def __init__(
        self,
        att_cards: dict[str, int],
        def_cards: dict[str, int],
        kind: str,
        courageous_pick: str,
        hardlight_trigger: str,
        zero_hit_rounds_count: bool,
        lash_waits: bool = False,
    ):
        self.lash_waits = lash_waits
        self.from_round = (att_cards, def_cards)
        self.cap = max([1, *att_cards.values(), *def_cards.values()])
        self.kind = kind
        self.courageous_pick = courageous_pick
        self.hl_threshold = 1 if hardlight_trigger == "any" else 2
        self.hl_on_wipe = hardlight_trigger == "two_or_wipe"
        self.zero_hit_rounds_count = zero_hit_rounds_count
        self.memo: dict = {}
        self._hd_cache: dict = {}
        self.max_depth = 0

    # -- helpers ----------------------------------------------------------
    def _ready(self, i: int, card: str, cards: list[set], r: int) -> bool:
        return card in cards[i] and r >= self.from_round[i][card]

    def _hits(self, side: Side):
        d = self._hd_cache.get(side)
        if d is None:
            d = self._hd_cache[side] = _hits_distribution(side)
        return d

    def measure(self, state):
        """Well-founded measure, strictly decreasing (lexicographically) on
        every transition except the exact self-loop."""
        (a, d), (ca, cd), r = state
        undamaged_sustain = sum(1 for u, dmg in a + d if u.sustain and not dmg)
        return (len(ca) + len(cd), len(a) + len(d), undamaged_sustain, self.cap - r)

    # -- value ------------------------------------------------------------
    def value(self, state, depth=0):
        (a, d), _cards, _r = state
        if not a and not d:
            return (ZERO, ZERO, ONE)
        if not d:
            return (ONE, ZERO, ZERO)
        if not a:
            return (ZERO, ONE, ZERO)
        got = self.memo.get(state)
        if got is not None:
            return got
        self.max_depth = max(self.max_depth, depth)
        trans = self.transitions(state)
        p_self = trans.pop(state, ZERO)
        if p_self >= 1:
            raise ValueError("combat can never progress (no unit can ever score a hit)")
        m0 = self.measure(state)
        wa = wd = wx = ZERO
        for ns, p in trans.items():
            assert self.measure(ns) < m0, ("termination measure violated", state, ns)
            va, vd, vx = self.value(ns, depth + 1)
            wa += p * va
            wd += p * vd
            wx += p * vx
        norm = 1 - p_self
        res = (wa / norm, wd / norm, wx / norm)
        self.memo[state] = res
        return res

    # -- one round ----------------------------------------------------------
    def transitions(self, state) -> dict:
        (a, d), _cards, _r = state
        dist_a = self._hits(a)  # hits scored BY the attacker
        dist_d = self._hits(d)  # hits scored BY the defender
        out: dict = {}
        for ha, pa in enumerate(dist_a):
            if not pa:
                continue
            for hd, pd in enumerate(dist_d):
                if not pd:
                    continue
                p = pa * pd
                for ns, q in self._resolve(state, ha, hd):
                    out[ns] = out.get(ns, ZERO) + p * q
        return out

    def _resolve(self, state, hits_by_att: int, hits_by_def: int):
        """Deterministic part of a round given the rolled hit counts, plus the
        Courageous-to-the-End dice.  Returns [(next_state, prob), ...].

        (1) both sides rolled (given);
        (2) Hardlight: holder facing >= threshold hits cancels min(2, hits);
        (3) hits assigned: each hit damages the LAST undamaged sustain unit,
            else destroys the FIRST alive unit of the list;
        (4) Divinity: the most expensive unit destroyed in (3) (ties: latest
            in list) is restored with its damaged state;
        (5) Lash, then Courageous, for the attacker, then for the defender,
            both computed from the state after (4); triggered only by units
            destroyed in (3) and not restored in (4); destructions caused by
            these cards trigger nothing;
        (6) Emergency Repairs at end of round if fight continues and holder
            has a damaged unit;
        (7) end check (done by caller: empty sides are terminal).
        """
        (sa, sd), (ca, cd), r = state
        if hits_by_att == 0 and hits_by_def == 0 and not self.zero_hit_rounds_count:
            return [(state, ONE)]
        sides = (sa, sd)
        cards = [set(ca), set(cd)]
        incoming = [hits_by_def, hits_by_att]  # hits against side i

        # (2) Hardlight
        for i in (0, 1):
            lasting = sum(1 + (u.sustain and not x) for u, x in sides[i])  # hits that destroy every unit
            wipes = self.hl_on_wipe and 0 < incoming[i] >= lasting
            if self._ready(i, HL, cards, r) and (incoming[i] >= self.hl_threshold or wipes):
                incoming[i] -= min(2, incoming[i])
                cards[i].discard(HL)

        # (3) assign hits
        units = [[u for u, _ in sides[i]] for i in (0, 1)]
        dmg = [[x for _, x in sides[i]] for i in (0, 1)]
        alive = [[True] * len(sides[i]) for i in (0, 1)]
        destroyed: list[list[int]] = [[], []]
        for i in (0, 1):
            for _ in range(incoming[i]):
                idx = None
                for k in range(len(units[i]) - 1, -1, -1):
                    if alive[i][k] and units[i][k].sustain and not dmg[i][k]:
                        idx = k
                        break
                if idx is not None:
                    dmg[i][idx] = True
                    continue
                first = next((k for k in range(len(units[i])) if alive[i][k]), None)
                if first is None:
                    break
                alive[i][first] = False
                destroyed[i].append(first)

        # (4) Divinity
        for i in (0, 1):
            if destroyed[i] and self._ready(i, DIV, cards, r):
                k = max(destroyed[i], key=lambda j: (units[i][j].cost, j))
                alive[i][k] = True
                destroyed[i].remove(k)
                cards[i].discard(DIV)

        # (5) Lash and Courageous. Side i's effects only touch side 1-i, and
        # their triggers only depend on side i's losses in (3)/(4), so each
        # side's effect can be computed independently: distribution over the
        # opponent's alive-flags.
        effect_dist: list[list[tuple[list[bool], Fraction]]] = [None, None]  # indexed by victim side
        for i in (0, 1):
            opp = 1 - i
            flags = list(alive[opp])
            if destroyed[i] and self._ready(i, LASH, cards, r):
                c = max(units[i][k].cost for k in destroyed[i])
                cand = [k for k in range(len(units[opp])) if flags[k] and units[opp][k].cost <= c]
                if cand or not self.lash_waits:
                    cards[i].discard(LASH)
                if cand:
                    k = max(cand, key=lambda j: (units[opp][j].cost, j))
                    flags[k] = False
            outcomes = [(flags, ONE)]
            if self.kind == "space" and self._ready(i, COUR, cards, r):
                ships = [k for k in destroyed[i] if units[i][k].is_ship]
                if ships:
                    cards[i].discard(COUR)
                    if self.courageous_pick == "best":
                        v = min(units[i][k].value for k in ships)
                    else:  # "first_destroyed": first in list order
                        v = units[i][min(ships)].value
                    p = hit_prob(v)
                    outcomes = []
                    for n in range(3):
                        q = comb(2, n) * p**n * (1 - p) ** (2 - n)
                        if not q:
                            continue
                        f2 = list(flags)
                        left = n
                        for k in range(len(units[opp])):
                            if left == 0:
                                break
                            if f2[k] and units[opp][k].is_ship:
                                f2[k] = False
                                left -= 1
                        outcomes.append((f2, q))
            effect_dist[opp] = outcomes

        # (6) Emergency Repairs, (7) next state
        results = []
        for fa, qa in effect_dist[0]:
            for fd, qd in effect_dist[1]:
                new_sides = []
                for i, f in ((0, fa), (1, fd)):
                    new_sides.append([(units[i][k], dmg[i][k]) for k in range(len(units[i])) if f[k]])
                continues = bool(new_sides[0]) and bool(new_sides[1])
                cards2 = [set(cards[0]), set(cards[1])]
                for i in (0, 1):
                    if continues and self._ready(i, ER, cards2, r) and any(x for _, x in new_sides[i]):
                        new_sides[i] = [(u, False) for u, _ in new_sides[i]]
                        cards2[i].discard(ER)
                ns = (
                    (tuple(new_sides[0]), tuple(new_sides[1])),
                    (frozenset(cards2[0]), frozenset(cards2[1])),
                    min(r + 1, self.cap),
                )
                results.append((ns, qa * qd))
        return results


# --------------------------------------------------------------------------
# Public API
# --------------------------------------------------------------------------
def _to_units(names: Iterable) -> Side:
    out = []
    for n in names:
        if isinstance(n, Unit):
            out.append((n, False))
        else:
            key = str(n).strip().lower().replace("_", " ")
            if key == "warsun":
                key = "war sun"
            if key not in UNITS:
                raise ValueError(f"unknown unit {n!r}")
            out.append((UNITS[key], False))
    return tuple(out)


def make_solver(
    attacker,
    defender,
    cards=None,
    kind="space",
    courageous_pick="best",
    hardlight_trigger="two",
    zero_hit_rounds_count=True,
    lash_waits=False,
):
    if kind not in ("space", "ground"):
        raise ValueError("kind must be 'space' or 'ground'")
    if courageous_pick not in ("best", "first_destroyed"):
        raise ValueError("courageous_pick must be 'best' or 'first_destroyed'")
    if hardlight_trigger not in ("two", "any", "two_or_wipe"):
        raise ValueError("hardlight_trigger must be 'two', 'any' or 'two_or_wipe'")
    cards = cards or {}
    bad = set(cards) - {"attacker", "defender"}
    if bad:
        raise ValueError(f"cards keys must be 'attacker'/'defender', got {bad}")
    a = _to_units(attacker)
    d = _to_units(defender)
    for u, _ in a + d:
        if kind == "space" and not u.is_ship:
            raise ValueError(f"{u.name} is not a ship; not allowed in space combat")
        if kind == "ground" and u.is_ship:
            raise ValueError(f"{u.name} is a ship; not allowed in ground combat")
    ac = _norm_cards(cards.get("attacker"))
    dc = _norm_cards(cards.get("defender"))
    solver = _Solver(ac, dc, kind, courageous_pick, hardlight_trigger, zero_hit_rounds_count, lash_waits)
    start = ((a, d), (frozenset(ac), frozenset(dc)), 1)
    return solver, start


def odds_exact(
    attacker,
    defender,
    cards=None,
    kind="space",
    courageous_pick="best",
    hardlight_trigger="two",
    zero_hit_rounds_count=True,
    lash_waits=False,
):
    solver, start = make_solver(
        attacker, defender, cards, kind, courageous_pick, hardlight_trigger, zero_hit_rounds_count, lash_waits
    )
    return solver.value(start)


def odds(
    attacker: list[str],
    defender: list[str],
    cards: dict[str, dict[str, int]] | None = None,
    kind: str = "space",
    courageous_pick: str = "best",
    hardlight_trigger: str = "two",
    zero_hit_rounds_count: bool = True,
    lash_waits: bool = False,
) -> tuple[float, float, float]:
    """Exact (attacker win, defender win, draw) probabilities as floats."""
    a, d, x = odds_exact(attacker, defender, cards, kind, courageous_pick, hardlight_trigger, zero_hit_rounds_count, lash_waits)
    return (float(a), float(d), float(x))


__all__ = ["Unit", "UNITS", "odds", "odds_exact", "make_solver", "hit_prob", "ALL_CARDS"]
