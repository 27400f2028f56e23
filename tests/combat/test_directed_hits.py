"""The L1Z1X flagship ([0.0.1]): during a space combat the hits of itself and of its dreadnoughts
must be assigned to non-fighter ships if able; other hits are assigned as the player likes.
Checked against a solution written apart from the solver, on the seeded dice, and in the log."""

from __future__ import annotations

from functools import cache

import pytest
from test_combat import Loaded

from tabletop.combat import odds
from tabletop.combat.commands import build_fight
from tabletop.combat.directed import SplitSideModel
from tabletop.combat.resolver import resolve
from tabletop.combat.units import unit_book
from tabletop.core.dice import Dice


@pytest.fixture(scope="module")
def book():
    return unit_book("ti4")


def space(book, attacker: str, defender: str):
    return build_fight("space", {"attacker": attacker, "defender": defender}, book)


def _binomial(n: int, p: float) -> list[float]:
    dist = [1.0]
    for _ in range(n):
        dist = [(dist[k] if k < len(dist) else 0.0) * (1 - p) + (dist[k - 1] * p if k else 0.0) for k in range(len(dist) + 1)]
    return dist


def _by_hand(fighters: int) -> tuple[float, float, float]:
    """[0.0.1] (2 dice, 60%, Sustain Damage) and a cruiser (40%) against `fighters` fighters and a
    destroyer (20% each), as (attacker wins, defender wins, draw). The flagship's hits take the
    destroyer first, the cruiser's the fighters first; the defender's hits damage the flagship,
    then take the cruiser (cheaper), then the flagship."""

    @cache
    def value(flag: int, cruiser: int, f: int, destroyer: int) -> tuple[float, float, float]:
        a_alive, d_alive = flag < 2 or cruiser, f + destroyer > 0
        if not a_alive or not d_alive:
            return (float(a_alive), float(d_alive), float(not a_alive and not d_alive))
        directed = _binomial(2 if flag < 2 else 0, 0.6)
        free = _binomial(cruiser, 0.4)
        taken = _binomial(f + destroyer, 0.2)
        stay, total = 0.0, [0.0, 0.0, 0.0]
        for x, px in enumerate(directed):
            for y, py in enumerate(free):
                for k, pk in enumerate(taken):
                    nf, nd = f, destroyer
                    kill_d = min(nd, x)
                    nd -= kill_d
                    nf = max(0, nf - (x - kill_d))  # directed hits spill onto fighters
                    spill = max(0, y - nf)
                    nf = max(0, nf - y)
                    nd = max(0, nd - spill)
                    fl, cr = flag, cruiser
                    for _ in range(k):
                        if fl == 0:
                            fl = 1
                        elif cr:
                            cr = 0
                        elif fl < 2:
                            fl = 2
                    p = px * py * pk
                    if (fl, cr, nf, nd) == (flag, cruiser, f, destroyer):
                        stay += p
                        continue
                    after = value(fl, cr, nf, nd)
                    total = [t + p * v for t, v in zip(total, after)]
        return tuple(t / (1 - stay) for t in total)  # type: ignore[return-value]

    return value(0, 1, fighters, 1)


@pytest.mark.parametrize("fighters", [0, 1, 3])
def test_odds_match_a_solution_written_apart(book, fighters):
    attacker = "l1z1x flagship, 1 cruiser"
    defender = f"{fighters} fighter, 1 destroyer" if fighters else "1 destroyer"
    exact = odds.solve(space(book, attacker, defender))
    win, loss, draw = _by_hand(fighters)
    assert exact.attacker == pytest.approx(win, abs=1e-9)
    assert exact.defender == pytest.approx(loss, abs=1e-9)
    assert exact.draw == pytest.approx(draw, abs=1e-9)


def test_the_odds_agree_with_the_dice_on_a_mixed_fleet(book):
    defender = "8 fighter, 2 carrier, 1 cruiser"
    the_fight = space(book, "l1z1x flagship, 2 dreadnought, 2 fighter", defender)
    exact = odds.solve(the_fight)
    n = 1500
    wins = sum(resolve(the_fight, Dice(seed)).winner == "attacker" for seed in range(n))
    sigma = (exact.attacker * (1 - exact.attacker) / n) ** 0.5
    assert abs(wins / n - exact.attacker) <= 4 * sigma, (wins / n, exact.attacker)
    assert exact.total() == pytest.approx(1.0, abs=1e-9)

    def carrier_survives(result) -> float:
        return sum(p for key, p in result.survivors["defender"].items() if any("우주모함" in name for name, _ in key))

    # another flagship's hits go to the fighters first and leave carriers alive far more often
    plain = odds.solve(space(book, "jol-nar flagship, 2 dreadnought, 2 fighter", defender))
    assert carrier_survives(exact) < 0.01 < 0.1 < carrier_survives(plain)


def test_the_flagships_and_dreadnoughts_hits_take_non_fighters_and_the_others_fighters(book):
    # round 1: the directed dice roll first (the dreadnought 10, the flagship 10 and 1), then the
    # cruiser (10); the defender's five dice miss
    battle = resolve(
        space(book, "l1z1x flagship, 1 dreadnought, 1 cruiser", "3 fighter, 2 carrier"), Loaded([10, 10, 1, 10] + [1] * 5)
    )
    first = battle.steps[0]
    taken = [h for v in first.volleys if v.side == "attacker" and v.kind == "combat" for h in v.taken]
    destroyed = [h.unit for h in taken if h.result == "destroyed"]
    assert sum("우주모함" in u for u in destroyed) == 2 and sum("전투기" in u for u in destroyed) == 1
    assert any("[0.0.1]" in note for note in battle.notes)
    # another flagship's hits follow the defender's loss order: fighters first (dice in loss order:
    # the cruiser 10, the dreadnought 1, the flagship 10)
    battle = resolve(
        space(book, "creuss flagship, 1 dreadnought, 1 cruiser", "3 fighter, 2 carrier"), Loaded([10, 1, 10] + [1] * 5)
    )
    taken = [h for v in battle.steps[0].volleys if v.side == "attacker" and v.kind == "combat" for h in v.taken]
    assert all("전투기" in h.unit for h in taken) and len(taken) == 2
    assert not any("[0.0.1]" in note for note in battle.notes)


def test_directed_hits_spill_onto_fighters_when_no_other_ship_is_left(book):
    the_fight = space(book, "l1z1x flagship", "2 fighter, 1 destroyer")
    _, defender = the_fight.models(the_fight.attacker, the_fight.defender)
    assert isinstance(defender, SplitSideModel)
    state, events, excess = defender.consume(defender.start, 0, 2)
    assert [defender.units[i].type for i, _ in events] == ["destroyer", "fighter"] and excess == 0
    state, events, excess = defender.consume(state, 3, 0)
    assert defender.gone(state) and excess == 2


def test_sustain_damage_cancels_a_directed_hit_first(book):
    the_fight = space(book, "l1z1x flagship", "2 fighter, 1 dreadnought, 1 carrier")
    _, defender = the_fight.models(the_fight.attacker, the_fight.defender)
    state, events, _ = defender.consume(defender.start, 1, 2)
    kinds = [(defender.units[i].type, kind) for i, kind in events]
    # the dreadnought sustains the first directed hit, the carrier takes the second, a fighter the free one
    assert kinds == [("dreadnought", "sustained"), ("carrier", "destroyed"), ("fighter", "destroyed")]
    names = {defender.units[i].type: defender.units[i].name() for i in range(defender.N)}
    assert defender.survivors(state) == tuple(sorted({names["fighter"]: 1, names["dreadnought"]: 1}.items()))
    assert defender.damaged(state) == [next(i for i in range(defender.N) if defender.units[i].type == "dreadnought")]


@pytest.mark.parametrize(
    "attacker, defender",
    [
        ("l1z1x flagship, 2 dreadnought, 3 fighter", "letnev flagship, 4 fighter, 1 carrier"),  # repairs
        ("l1z1x flagship, 1 dreadnought", "yin flagship, 3 fighter, 1 destroyer"),  # the Yin flagship's loss
        ("sardakk flagship, 2 cruiser, 2 fighter", "l1z1x flagship, 2 dreadnought, 2 fighter"),  # dice by state
        ("l1z1x flagship, 2 dreadnought, 2 fighter", "3 fighter, 1 dreadnought, 2 carrier, non-euclidean"),  # sustains cancel 2
    ],
)
def test_both_solvers_and_the_dice_agree(book, monkeypatch, attacker, defender):
    the_fight = space(book, attacker, defender)
    fast = odds.solve(the_fight)
    n = 1000
    wins = sum(resolve(the_fight, Dice(seed)).winner == "attacker" for seed in range(n))
    assert abs(wins / n - fast.attacker) <= 4 * max((fast.attacker * (1 - fast.attacker) / n) ** 0.5, 1e-9)
    monkeypatch.setattr(odds, "_factorized", lambda *_: False)
    general = odds.solve(the_fight)
    for key in ("attacker", "defender", "draw", "rounds"):
        assert getattr(fast, key) == pytest.approx(getattr(general, key), abs=1e-9), key
    for side in ("attacker", "defender"):
        assert set(fast.survivors[side]) == set(general.survivors[side])
        for key, p in fast.survivors[side].items():
            assert p == pytest.approx(general.survivors[side][key], abs=1e-9)
