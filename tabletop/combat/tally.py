"""Where a fight ends, tallied: who won (or retreated, or stalled, or stopped undecided), who
survived, and for an invasion who holds the planet; one end at a time or many cells at once."""

from __future__ import annotations

import numpy as np

from tabletop.combat.battle import ATTACKER, DEFENDER, Fight
from tabletop.combat.model import SideModel, after_doom
from tabletop.combat.outcome import Odds
from tabletop.combat.resolver import outcome


def finish(
    fight,
    odds: Odds,
    ma: SideModel,
    md: SideModel,
    state,
    p: float,
    combat: bool = True,
    retreated: str | None = None,
    stalemate: bool = False,
    undecided: bool = False,
) -> None:
    sa, sd, _ = after_doom(ma, md, *state)
    odds.add_survivors(ATTACKER, ma.survivors(sa), p)
    odds.add_survivors(DEFENDER, md.survivors(sd), p)
    if undecided:  # stopped as asked with both sides left: nobody wins, nobody takes the planet
        odds.undecided += p
        return
    ground_left = fight.kind == "invade" and any(u.ground for u in ma.alive(sa))
    tally(fight, odds, ma.gone(sa), md.gone(sd), ground_left, p, combat, retreated, stalemate)


def finish_cells(
    fight: Fight, odds: Odds, ma: SideModel, md: SideModel, la: np.ndarray, ld: np.ndarray, p: np.ndarray, over: np.ndarray
) -> None:
    """The ends of many cells (units lost on each side, chance, whether the combat is over, else
    nobody can hit any more) as _finish tallies them one by one, summed first by what each
    part of the tally depends on: survivors by one side's losses, the result by who is gone."""
    if ma.doom is not None or md.doom is not None:  # a Yin flagship lost: both sides are (after_doom)
        wiped = np.zeros(len(p), dtype=bool)
        for model, lost in ((ma, la), (md, ld)):
            if model.doom is not None:
                wiped |= lost >= model.end
        la, ld = np.where(wiped, ma.N, la), np.where(wiped, md.N, ld)
    for name, model, lost in ((ATTACKER, ma, la), (DEFENDER, md, ld)):
        survivors = odds.survivors[name]
        for value, q in enumerate(np.bincount(lost, weights=p).tolist()):
            if q > 0:
                key = model.survivors((0, value))
                survivors[key] = survivors.get(key, 0.0) + q
    key = 8 * (la >= ma.end) + 4 * (ld >= md.end) + 2 * over
    if fight.kind == "invade":  # whether ground forces are left
        key += np.array(ma.ground_forces_left())[la]
    for k, q in enumerate(np.bincount(key, weights=p).tolist()):
        if q > 0:
            tally(fight, odds, bool(k & 8), bool(k & 4), bool(k & 1), q, stalemate=not k & 2)


def tally(
    fight: Fight,
    odds: Odds,
    a_gone: bool,
    d_gone: bool,
    ground_left: bool,
    p: float,
    combat: bool = True,
    retreated: str | None = None,
    stalemate: bool = False,
) -> None:
    """Who won an end with chance p, and whether the attacker took the planet."""
    if fight.kind == "invade":
        if not combat:
            odds.no_combat += p
        if ground_left:  # Naalu fighters return to space: no control
            odds.control = (odds.control or 0.0) + p
    if retreated:
        odds.retreat += p
        winner: str | None = DEFENDER if retreated == ATTACKER else ATTACKER
    elif stalemate:
        odds.stalemate += p
        return
    elif not combat and fight.kind == "invade":
        winner = DEFENDER if a_gone else ATTACKER  # nobody landed, or nobody defended
    else:
        winner = outcome(a_gone, d_gone)
    if winner == ATTACKER:
        odds.attacker += p
    elif winner == DEFENDER:
        odds.defender += p
    elif winner == "draw":
        odds.draw += p
