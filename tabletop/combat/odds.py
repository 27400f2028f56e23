"""Exact combat odds: probabilities propagated through the same fight the dice play
(tabletop.combat.battle and resolver.play_round), not sampled.

Before the rounds, every pre-combat roll (space cannon, Assault Cannon, barrage, bombardment,
space cannon defence, Magen) branches on its number of hits. A branch whose losses follow the
sides' own loss order is just a starting state of the rounds; others start rounds of their own.

In the rounds each side is a state (damaged, lost) and a round moves the pair of states by both
sides' hits. When each side's new state depends only on its own state and the hits it took,
the move is the product of two per-side distributions, and the cells (pairs of states) are
solved in one pass (tabletop.combat.levels, compiled in tabletop.combat.kernel): every round
that changes something loses a unit or uses a sustain, which only moves a side to a later state,
so a cell leads only to itself (a round where nothing happens, summed exactly as a geometric
series) and to later cells. The rounds that differ from the rest (the first, a retreat) are
played one by one first; Duranium Armor can undo a sustain, so with it all rounds are played one
by one until less than 1e-12 is still fighting. Effects that tie one side's losses to the
other's hits in the same round (Valkyrie, Particle Weave, Harrow) go through the general path,
pair by pair.
"""

from __future__ import annotations

import heapq
import sys
import time
from collections import defaultdict
from functools import cache

import numpy as np

from tabletop.combat.battle import (
    ATTACKER,
    DEFENDER,
    Fight,
    destroying,
    galvanized_cancels,
)
from tabletop.combat.budget import Budget
from tabletop.combat.hits import clip, hit_distribution, side_rows
from tabletop.combat.model import SideModel, State, after_doom
from tabletop.combat.outcome import Odds, units_key
from tabletop.combat.played import moment
from tabletop.combat.precombat import every_roll, merged, pre_combat, signature
from tabletop.combat.resolver import can_ever_hit, check_dice, play_round
from tabletop.combat.sidestates import SideStates, max_hits, split_hits
from tabletop.combat.tally import finish, finish_cells
from tabletop.combat.unitdata import ABILITIES, EFFECT_FIELDS
from tabletop.combat.units import Side
from tabletop.core.errors import UserError
from tabletop.core.i18n import t

ITERATION_TAIL = 1e-12  # played one by one, rounds go on until less than this is still fighting
MAX_ITERATED_ROUNDS = 3000


# --- the odds -----------------------------------------------------------------------------------


def compile_ahead() -> float:
    """Load the exact solver's compiled kernels, compiling and caching them on a first run (5-20 s
    on two cores): `bot.py build` and the Docker image call it so that no player waits for it,
    and the console starts it in the background. The seconds it took."""
    started = time.perf_counter()
    import tabletop.combat.levels  # noqa: F401, PLC0415 - its kernels compile (or load) on import

    return time.perf_counter() - started


# A fight of at most this many joint states (units + 1 on each side, multiplied) is solved pair by
# pair in milliseconds (35 of them: 7 ms here), sooner than a process that has not loaded the
# compiled kernels yet loads them (about 0.3 s): a one-shot `bot.py odds` of a few units, or a
# console's first /odds, answers without them. A process that has them uses them for every fight.
SMALL_FIGHT = 40


def solve(fight: Fight) -> Odds:
    """The exact odds of a fight."""
    check_dice(fight)
    sizes = [len(fight.participants(fight.side(name), name)) + 1 for name in (ATTACKER, DEFENDER)]
    compiled = "tabletop.combat.levels" in sys.modules or sizes[0] * sizes[1] > SMALL_FIGHT
    if compiled:
        import tabletop.combat.levels  # noqa: F401, PLC0415 - numba: loaded (or compiled) before the time budget starts

    budget = Budget()
    budget.compiled = compiled
    odds = Odds(
        control=0.0 if fight.kind == "invade" else None,
        retreating=fight.retreat[0] if fight.retreat else None,
        content=fight.content,
    )
    odds.notes = list(fight.notes)  # units typed that take no part, effects that never act
    scenarios = pre_combat(fight, budget)
    if not fight.has_rounds():  # bombardment only
        for p, a, d in scenarios:
            odds.add_survivors(ATTACKER, units_key(a.units), p)
            odds.add_survivors(DEFENDER, units_key(d.units), p)
        return odds
    # branches that only lost units in the loss order start the rounds of the untouched sides
    base_a, base_d = fight.models(fight.attacker, fight.defender)
    starts: dict[tuple[State, State], float] = defaultdict(float)
    others = []  # branches whose rounds are not those of the untouched sides
    for p, before_a, before_d in scenarios:
        a, d = fight.for_rounds(before_a, before_d)
        started = moment.at_start(fight.kind, a, d)  # Emergency Repairs on units damaged before the rounds
        if started is not None:
            a, d = started.attacker, started.defender
        if (
            a is not before_a or d is not before_d or moment.going_on(fight, a, d) is not fight
        ):  # a galvanized A3 Valiance fell, a card was played
            others.append((p, a, d))
            continue
        sa = base_a.start if a is fight.attacker else _state_of(base_a, fight.participants(a, ATTACKER))
        sd = base_d.start if d is fight.defender else _state_of(base_d, fight.participants(d, DEFENDER))
        if sa is not None and sd is not None and not _damaged_hindered(fight, base_a, a, base_d, d):
            starts[(sa, sd)] += p
        else:
            others.append((p, a, d))
    for p, a, d in merged(others):
        fought = moment.going_on(fight, a, d)
        ma, md = fought.models(a, d)
        _rounds(fought, ma, md, {(ma.start, md.start): p}, odds, budget)
    if starts:
        _rounds(fight, base_a, base_d, dict(starts), odds, budget)
    return odds


def _damaged_hindered(fight: Fight, base_a: SideModel, a: Side, base_d: SideModel, d: Side) -> bool:
    """Whether a hindered side (SideModel.facing) has units damaged before the rounds: its rounds
    are its own, in which those units cannot sustain again once the hindrance ends."""
    return any(
        base.unhindered is not None and side is not untouched and any(u.damaged for u in side.units)
        for base, side, untouched in ((base_a, a, fight.attacker), (base_d, d, fight.defender))
    )


def _state_of(model: SideModel, participants) -> State | None:
    """The state of the model these participants are in, if they are its units less a prefix of
    its loss order (pre-combat losses taken in the same order), else None."""
    d = model.N - len(participants)
    if d < 0 or sorted((u.id, u.number) for u in model.units[d:]) != sorted((u.id, u.number) for u in participants):
        return None
    keys = {(u.id, u.number): u for u in participants}
    damaged = [i for i in range(d, model.N) if keys[(model.units[i].id, model.units[i].number)].damaged]
    return model.state_of(model.first_lost(d), damaged)


# --- the rounds ---------------------------------------------------------------------------------


def _factorized(fight: Fight, ma: SideModel, md: SideModel) -> bool:
    """Whether the vectorised solver may answer: no side hindered only while a unit of the other
    lives, and no mechanic present that it cannot model (each declares it once, in the schema)."""
    if ma.unhindered is not None or md.unhindered is not None:
        return False
    abilities, fields = _unfactorized(fight.kind)
    if any(not abilities.isdisjoint(u.abilities) for u in ma.units + md.units):
        return False
    return not any(getattr(side.effects, name) for side in (fight.attacker, fight.defender) for name in fields)


@cache
def _unfactorized(kind: str) -> tuple[frozenset[str], tuple[str, ...]]:
    """The abilities and effect fields the vectorised solver cannot model in this kind of fight
    (the schema is read once)."""
    abilities = frozenset(name for name, mechanic in ABILITIES.items() if kind in mechanic.slow_in)
    return abilities, tuple(name for name, spec in EFFECT_FIELDS.items() if kind in spec.slow_in)


def _rounds(fight: Fight, ma: SideModel, md: SideModel, starts: dict, odds: Odds, budget: Budget, resumed: bool = False) -> None:
    """The rounds from these starting states; `resumed`: a fight that goes on after a card was
    played (moment.resumed), whose round starts are the last round's ends (already rebuilt)."""
    live: dict = defaultdict(float)
    for (sa, sd), p in starts.items():
        if ma.gone(sa) or md.gone(sd):
            finish(fight, odds, ma, md, (sa, sd), p, combat=resumed)
        elif resumed:
            live[(sa, sd)] += p
        else:  # the first round starts: a Letnev flagship is repaired
            fa, fd = _facing(ma, md, (sa, sd))
            live[(fa.rebuild(sa, first=True)[0], fd.rebuild(sd, first=True)[0])] += p
    if not live:
        return
    opening = fight.opening_dice(ma, md)
    if not can_ever_hit(fight, opening):
        if resumed:  # a card left units that cannot hit: the fight cannot end
            for state, p in live.items():
                finish(fight, odds, ma, md, state, p, stalemate=True)
            return
        raise UserError(t("combat.nobody_hits"))
    budget.check((ma.N + 1) * (md.N + 1))
    if budget.compiled and _factorized(fight, ma, md):
        _fast(fight, ma, md, live, opening, odds, budget)
    else:
        _general(fight, ma, md, live, odds, budget)


def _fast(fight: Fight, ma: SideModel, md: SideModel, live: dict, opening: dict, odds: Odds, budget: Budget) -> None:
    # each side's states that the rounds can reach; the hits it can take
    A = SideStates(fight, ATTACKER, ma, md, {sa for sa, _ in live}, budget)
    D = SideStates(fight, DEFENDER, md, ma, {sd for _, sd in live}, budget)
    budget.check(A.size * D.size)
    mass = np.zeros((A.size, D.size))
    for (sa, sd), p in live.items():
        mass[A.start_index[sa], D.start_index[sd]] += p
    tables: dict[tuple, np.ndarray] = {}

    def hit_table(space: SideStates, opp: SideStates, number: int) -> np.ndarray:
        """hits[i]: the distribution of the hits `space` makes in each of its states (it depends
        only on the units lost), as the opponent's table reads them (SideStates.hits); when each
        unit's dice do not depend on who else is alive, one row per loss (hits.side_rows)."""
        key = (space.name, 1 if number == 1 else 2)  # round 1, and every round after it
        if key not in tables:
            # the dice depend on who is alive (Sardakk flagship), or whose hits are directed
            # does; a side lost in two chains is not lost in one order
            if space.model.split or opp.model.split or space.dice_vary:
                rows = {}
                for i, (_, lost) in enumerate(space.states):
                    if lost not in rows:
                        rows[lost] = space.hits(opp, i, 0, number)
                tables[key] = np.stack([rows[lost] for _, lost in space.states])
            else:
                tables[key] = side_rows(space.model, opening[key], opp.H)[space.lost]
        return tables[key]

    def hits_taken(rows_a: np.ndarray, cols_d: np.ndarray, number: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The hits each side takes in this round, for the cells (rows_a[n], cols_d[n]): a table
        of distributions and the row of it for each cell, the attacker's, then the defender's."""
        if A.by_opponent or D.by_opponent:  # a Winnu flagship's dice depend on the other side
            on_a = np.stack([D.hits(A, j, i, number) for i, j in zip(rows_a, cols_d)])
            on_d = np.stack([A.hits(D, i, j, number) for i, j in zip(rows_a, cols_d)])
            cells = np.arange(len(rows_a))
            return on_a, cells, on_d, cells
        return hit_table(D, A, number), cols_d, hit_table(A, D, number), rows_a

    def moves(rows_a: np.ndarray, cols_d: np.ndarray, number: int) -> tuple[np.ndarray, np.ndarray]:
        """For live cells (rows_a[n], cols_d[n]): where the attacker goes, where the defender goes."""
        on_a, key_a, on_d, key_d = hits_taken(rows_a, cols_d, number)
        return _scatter(A.next[rows_a], on_a[key_a], A.size), _scatter(D.next[cols_d], on_d[key_d], D.size)

    def like_later_rounds() -> bool:
        """Whether round 1 rolls the dice every later round rolls (no first-round effect), so
        the level-by-level solution can start at once."""
        if any(sp.by_opponent or sp.model.split or sp.dice_vary for sp in (A, D)):
            return False
        return all(opening[(sp.name, 1)] == opening[(sp.name, 2)] for sp in (A, D))

    terminal = A.gone[:, None] | D.gone[None, :]
    repairs = ma.repairs or md.repairs
    cut = fight.cut_round()
    if cut:
        first = cut
    else:
        first = 0 if not repairs and like_later_rounds() else 1
    number = 0
    while number < (MAX_ITERATED_ROUNDS if repairs else first):
        number += 1
        rows_a, cols_d = np.nonzero((mass > 0) & ~terminal)
        if not len(rows_a):
            break
        weights = mass[rows_a, cols_d]
        odds.rounds += weights.sum()
        to_a, to_d = moves(rows_a, cols_d, number)
        mass = mass * terminal + (to_a * weights[:, None]).T @ to_d
        if number == cut:
            mass = _cut(fight, odds, A, D, mass, terminal, number)
        budget.check()
        if repairs and mass[~terminal].sum() < ITERATION_TAIL:
            break
    if not repairs:
        from tabletop.combat.levels import solve_levels  # noqa: PLC0415 - loaded by solve()

        mass = solve_levels(A, D, mass, terminal, lambda rows_a, cols_d: hits_taken(rows_a, cols_d, 2), odds)
    # how a fight ends depends on the units each side lost, not on its damaged units
    ii, jj = np.nonzero(mass > 0)
    finish_cells(fight, odds, ma, md, A.lost[ii], D.lost[jj], mass[ii, jj], terminal[ii, jj])


def _scatter(targets: np.ndarray, weights: np.ndarray, size: int) -> np.ndarray:
    """Row n: the distribution over states of targets[n, h] weighted by weights[n, h]."""
    rows = len(targets)
    flat = (np.arange(rows)[:, None] * size + targets).ravel()
    return np.bincount(flat, weights=weights.ravel(), minlength=rows * size).reshape(rows, size)


def _cut(
    fight: Fight, odds: Odds, A: SideStates, D: SideStates, mass: np.ndarray, terminal: np.ndarray, number: int
) -> np.ndarray:
    """After the retreat round, whatever still fights ends with that side's retreat; after the
    round the players stop at, it ends undecided."""
    for i, j in np.argwhere((mass > 0) & ~terminal):
        _end(fight, odds, A.model, D.model, (A.states[i], D.states[j]), float(mass[i, j]), number)
    return mass * terminal


def _end(fight: Fight, odds: Odds, ma: SideModel, md: SideModel, state, p: float, number: int) -> None:
    if fight.retreats_after(number):
        assert fight.retreat is not None
        finish(fight, odds, ma, md, state, p, retreated=fight.retreat[0])
    else:
        finish(fight, odds, ma, md, state, p, undecided=True)


def _general(fight: Fight, ma: SideModel, md: SideModel, live: dict, odds: Odds, budget: Budget) -> None:
    """Pair by pair: for effects where one side's losses depend on both sides' hits, and for
    fights in which a card is played (Cards)."""
    cache: dict = {}
    harrow_attack = fight.harrow(fight.defender)
    most_a, most_d = (
        max(max_hits(m), max_hits(m.unhindered or m)) + moment.most_cancelled(fight.side(name))
        for m, name in ((ma, ATTACKER), (md, DEFENDER))
    )
    dist_h = np.array([1.0])
    if harrow_attack is not None and not harrow_attack.blocked:
        dist_h = clip(hit_distribution([die for _, _, die in harrow_attack.dice]), most_d)
    cut = fight.cut_round()  # the round a retreat or a stop ends the combat: its moves are its own
    later = max([2, *fight.attacker.effects.played.values(), *fight.defender.effects.played.values()])
    cards = Cards(fight, max(later, cut or 0))

    def transitions(state, number: int) -> dict:
        key = (state, min(number, later))  # rounds from `later` on all move alike
        if key in cache and number != cut:
            return cache[key]
        out: dict = defaultdict(float)
        for (sa, sd), p in _proxima(fight, *_facing(ma, md, state), state).items():
            if ma.gone(sa) or md.gone(sd):  # the bombardment ended it before the dice
                out[(sa, sd)] += p
                continue
            fa, fd = _facing(ma, md, (sa, sd))
            rolls_a = _round_hits(fight, ATTACKER, fa, sa, fd, sd, number, most_d)
            rolls_d = _round_hits(fight, DEFENDER, fd, sd, fa, sa, number, most_a)
            for ha, da, pa in rolls_a:
                budget.check()  # one state of a large fight can take long: refuse in time, not after
                for hd, dd, pd in rolls_d:
                    for hh, ph in enumerate(dist_h):
                        if ph > 0:
                            for target, q in cards.round(fa, fd, (sa, sd), (ha, hd, hh), (da, dd), number):
                                out[target] += float(p * pa * pd * ph) * q
        cache[key] = out
        return out

    def terminal(state) -> bool:
        return state[0] == HANDOFF or ma.gone(state[0]) or md.gone(state[1])

    def end(state, p: float, **how) -> None:
        if state[0] == HANDOFF:
            cards.mass[state[1]] += p
        else:
            finish(fight, odds, ma, md, state, p, **how)

    first = max(1, cut or 1, later - 1)
    repairs = any(m.repairs for m in (ma, md, ma.unhindered, md.unhindered) if m is not None)
    current = dict(live)
    number = 0
    while current and number < (MAX_ITERATED_ROUNDS if repairs else first):
        number += 1
        nxt: dict = defaultdict(float)
        for state, p in current.items():
            odds.rounds += p
            for target, q in transitions(state, number).items():
                nxt[target] += p * q
        current = {}
        for state, p in nxt.items():
            if terminal(state):
                end(state, p)
            elif number == cut:
                _end(fight, odds, ma, md, state, p, number)
            else:
                current[state] = p
        budget.check(len(current))
        if repairs and sum(current.values()) < ITERATION_TAIL:
            break
    if repairs:
        for state, p in current.items():
            end(state, p, stalemate=True)
    else:
        _settle(odds, current, lambda state: transitions(state, later), terminal, end, budget)
    cards.resume(odds, budget)


HANDOFF = "card"  # a state's mark: a card was played, and the fight goes on as another (Cards)


class Cards:
    """The played cards of a fight solved pair by pair (tabletop.combat.played): a round's hits
    less what a card cancels; after the round, each way the cards played leave the sides is a
    state of its own (HANDOFF, n), whose mass goes on, once the fight is solved, as the fight of
    those sides from the next round (moment.resumed), solved once for all the mass it gets."""

    def __init__(self, fight: Fight, horizon: int):
        self.fight = fight
        self.on = moment.holds(fight.attacker, fight.defender)
        self.horizon = horizon  # rounds from here on differ in nothing the fight that follows sees
        self.handed: dict[tuple, int] = {}
        self.sides: list[tuple[Side, Side, int]] = []
        self.mass: dict[int, float] = defaultdict(float)
        self.after: dict[tuple, list] = {}  # a round's end (models, states, round, cards spent) -> where it leads

    def round(self, fa: SideModel, fd: SideModel, start: tuple, hits: tuple, directed: tuple, number: int) -> list:
        """Where a round with these hits (the attacker's, the defender's, Harrow's) leads: its
        states, or the handoffs of the cards played in it, with their chances."""
        ha, hd, hh = hits
        spent: dict[str, str] = {}
        if self.on:  # a card cancels hits before they are assigned (Hardlight)
            ha, card_d = moment.cancelled(fd.side, self.fight.kind, ha, number, _wipes(fd, start[1]))
            hd, card_a = moment.cancelled(fa.side, self.fight.kind, hd, number, _wipes(fa, start[0]))
            spent = {name: card for name, card in ((ATTACKER, card_a), (DEFENDER, card_d)) if card}
            directed = (min(directed[0], ha), min(directed[1], hd))
        result = play_round(self.fight, fa, fd, start[0], start[1], ha, hd, hh, directed)
        na, nd, _ = after_doom(fa, fd, result.a, result.d)
        if not self.on:
            return [((na, nd), 1.0)]
        key = (id(fa), id(fd), start, (na, nd), number if number < self.horizon else self.horizon, tuple(spent.items()))
        if key not in self.after:  # many rolls end a round alike
            played = moment.after_round(self.fight, (fa, fd), start, (na, nd), number, spent, every_roll)
            self.after[key] = (
                [((na, nd), 1.0)]
                if played is None
                else [(self._handoff(o.attacker, o.defender, number), o.chance) for o in played]
            )
        return self.after[key]

    def _handoff(self, attacker: Side, defender: Side, number: int) -> tuple[str, int]:
        number = min(number, self.horizon)
        key = (signature(attacker), signature(defender), *(tuple(s.effects.played.items()) for s in (attacker, defender)), number)
        if key not in self.handed:
            self.handed[key] = len(self.sides)
            self.sides.append((attacker, defender, number))
        return (HANDOFF, self.handed[key])

    def resume(self, odds: Odds, budget: Budget) -> None:
        """Every fight the cards left, from the round after theirs, with the mass it got: each
        solved once a solve for a mass of 1 (Budget.followed) and added in its share."""
        for index, p in self.mass.items():
            attacker, defender, number = self.sides[index]
            after = moment.resumed(self.fight, attacker, defender, number)
            key = (
                *(signature(s) for s in (after.attacker, after.defender)),
                *(tuple(s.effects.played.items()) + (s.effects.reroll_misses_round,) for s in (after.attacker, after.defender)),
                after.retreat,
                after.stop_after,
                self.fight.cut_round() == number,
            )
            if key not in budget.followed:
                budget.followed[key] = self._solved(after, number, budget)
            odds.add_share(budget.followed[key], p)  # type: ignore[arg-type]

    def _solved(self, after: Fight, number: int, budget: Budget) -> Odds:
        ends = Odds(control=0.0 if after.kind == "invade" else None)
        ma, md = after.models(after.attacker, after.defender)
        start = (ma.start, md.start)
        if not (ma.gone(start[0]) or md.gone(start[1])) and self.fight.cut_round() == number:
            _end(after, ends, ma, md, start, 1.0, 0)  # played in the round that ends the combat
        else:
            _rounds(after, ma, md, {start: 1.0}, ends, budget, resumed=True)
        return ends


def _wipes(model: SideModel, state: State):
    """Whether so many hits would destroy every unit of a side in this state."""
    return lambda hits: model.gone(model.consume(state, hits)[0])


def _settle(odds: Odds, current: dict, moves_of, terminal, end, budget: Budget) -> None:
    """The rounds after the first ones, whose moves no longer change: each state is settled once,
    fewest units first (and, with played cards, fewest cards played: a card played leaves the
    state for a handoff), its chance of staying put folded into the chances of leaving it."""
    mass: dict = defaultdict(float, current)
    heap = [((s[0][1] + s[1][1], s[0][0] + s[1][0]), s) for s in current]
    heapq.heapify(heap)
    seen: set = set()
    while heap:
        _, state = heapq.heappop(heap)
        if state in seen:
            continue
        seen.add(state)
        budget.check(len(seen))
        p = mass.pop(state)
        moves = moves_of(state)
        stay = moves.get(state, 0.0)
        if stay >= 1.0 - 1e-15:
            end(state, p, stalemate=True)
            continue
        odds.rounds += p / (1.0 - stay)
        for target, q in moves.items():
            if target == state:
                continue
            share = p * q / (1.0 - stay)
            if terminal(target):
                end(target, share)
            else:
                if target not in mass:
                    heapq.heappush(heap, ((target[0][1] + target[1][1], target[0][0] + target[1][0]), target))
                mass[target] += share


def _facing(ma: SideModel, md: SideModel, state: tuple[State, State]) -> tuple[SideModel, SideModel]:
    """Both sides as a round in this state meets them (SideModel.facing)."""
    return ma.facing(md, state[1]), md.facing(ma, state[0])


def _proxima(fight: Fight, ma: SideModel, md: SideModel, state) -> dict:
    """The states after Proxima Targeting VI's bombardment at the start of a round, with their
    chances ({state: 1} without it): each side's hits less its galvanized units, applied."""
    out: dict = {state: 1.0}
    for index, model in ((0, ma), (1, md)):
        dice = fight.proxima_dice(ATTACKER if index == 0 else DEFENDER)
        if not dice:
            continue
        dist = hit_distribution([die for _, _, die in dice])
        after: dict = defaultdict(float)
        for both, p in out.items():
            cancel = galvanized_cancels(model, both[index])
            destroys, sustains = fight.bombardment_destroys(), model.undamaged_sustains(both[index])
            for hits, q in enumerate(dist):
                if q > 0:
                    moved = list(both)
                    moved[index] = model.consume(both[index], destroying(max(0, hits - cancel), sustains, destroys))[0]
                    after[tuple(moved)] += p * float(q)
        out = after
    return out


def _round_hits(
    fight: Fight, name: str, model: SideModel, state: State, opponent: SideModel, opp_state: State, number: int, most: int
) -> list[tuple[int, int, float]]:
    """A side's possible combat rolls in a round: (hits, of which directed, probability). Hits
    past what destroys every unit change nothing: counted as the most that matter."""
    dice = fight.round_dice(name, model, state, opponent, opp_state, number)
    free, directed = split_hits(fight, model, state, dice, most)
    return [(h + k, k, float(p * q)) for h, p in enumerate(free) if p > 0 for k, q in enumerate(directed) if q > 0]
