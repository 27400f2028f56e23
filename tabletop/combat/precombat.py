"""The rolls before the rounds as exact branches (space cannon, Assault Cannon, barrage,
bombardment, space cannon defence, Magen): every way they can end, with its chance, branches that
leave the same units merged as they go (odds.py solves the rounds of each)."""

from __future__ import annotations

from tabletop.combat.battle import Attack, Fight, takes_all_ships, without_ships
from tabletop.combat.budget import Budget
from tabletop.combat.hits import dice_hits, hit_distribution
from tabletop.combat.played import moment
from tabletop.combat.units import Side


def pre_combat(fight: Fight, budget: Budget) -> list[tuple[float, Side, Side]]:
    """(chance, attacker, defender) for every way the rolls before the rounds can end; the
    fight's own sides, untouched, when nothing rolls. Branches that end alike are merged
    before they branch again; after the last roll solve() merges them by their state."""
    scenarios: list[tuple[float, Side, Side, Attack | None]] = [(1.0, fight.attacker, fight.defender, None)]
    branched = False
    for build in fight.stages():
        scenarios = [(p, a, d, build(a, d)) for p, a, d, _ in scenarios]
        if all(attack is None or attack.blocked for *_, attack in scenarios):
            continue
        if branched:
            scenarios = merged(scenarios)
        branched = True
        branches: list[tuple[float, Side, Side, Attack | None]] = []
        for p, a, d, attack in scenarios:
            if attack is None or attack.blocked:
                branches.append((p, a, d, None))
                continue
            for hits, q in enumerate(dice_hits(tuple(die for _, _, die in attack.dice)).tolist()):
                if q <= 0:
                    continue
                for way, events, _ in moment.volley(fight, attack, a, d, hits + attack.fixed, every_roll):
                    na, nd = way.attacker, way.defender
                    if takes_all_ships(events):  # a Yin flagship lost before the rounds
                        na, nd = without_ships(na), without_ships(nd)
                    branches.append((p * q * way.chance, na, nd, None))
        scenarios = branches
        budget.check(len(scenarios))
    return [(p, a, d) for p, a, d, _ in scenarios]


def signature(side: Side) -> tuple:
    """Two sides with the same units in the same damage, holding the same cards, are the same
    for what follows. Sides made from one side by losses (HitPlan, without_ships) keep its
    order, so for them the units need no sorting."""
    return (*[(u.id, u.number, u.damaged) for u in side.units], *side.effects.played.items())


def every_roll(dice: tuple) -> list[tuple[int, float]]:
    """A card's own dice (Courageous to the End) as the odds read them: every number of hits."""
    return [(hits, float(q)) for hits, q in enumerate(hit_distribution(list(dice))) if q > 0]


def merged(branches: list[tuple]) -> list[tuple]:
    """Branches (chance, attacker, defender, what goes with them) that leave the same units in
    the same damage, as one (with the first one's companions)."""
    merged: dict[tuple, tuple] = {}
    signatures: dict[int, tuple] = {}  # a side left untouched is in many branches
    for q, a, d, *rest in branches:
        key = tuple(signatures.get(id(side)) or signatures.setdefault(id(side), signature(side)) for side in (a, d))
        merged[key] = (merged[key][0] + q, *merged[key][1:]) if key in merged else (q, a, d, *rest)
    return list(merged.values())
