"""Our exact odds against the exact calculator fork that models Thunder's Edge
(BarbarianMatt/ti4calcTE), on every fight of its that our units describe (the figures and the
script that computed them: tests/combat/peer/). The fork as shipped stops once 99.99 % of the
probability has reached an end; the figures were computed with that one number set to 1 - 1e-13
(its propagation run to convergence), so the two must agree to 1e-9, outcome by outcome."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tabletop.combat import odds
from tabletop.combat.commands import build_fight
from tabletop.combat.units import unit_book

FIGURES = json.loads((Path(__file__).parent / "peer" / "ti4calcte_figures.json").read_text("utf-8"))
EXACT = 1e-9  # both sides' arithmetic


@pytest.mark.parametrize("case", FIGURES["cases"], ids=lambda c: c["case"][:40])
def test_our_odds_are_the_forks(case):
    fight = build_fight(case["kind"], {"attacker": case["attacker"], "defender": case["defender"]}, unit_book("ti4"))
    ours = odds.solve(fight)
    assert 1.0 - case["terminal_mass"] < 1e-12  # the fork's propagation ran to the end
    for outcome in ("attacker", "defender", "draw"):
        assert getattr(ours, outcome) == pytest.approx(case["peer"][outcome], abs=EXACT), outcome


def test_the_reference_covers_the_thunders_edge_units_and_cards_the_fork_models():
    named = " ".join(f"{c['attacker']} {c['defender']}" for c in FIGURES["cases"])
    for thing in (
        "quietus",
        "last dispatch",
        "linkship",
        "linkship ii",
        "eidolon maximum",
        "metali void armaments",
        "metali void shielding",
        "lightrail ordnance",
    ):
        assert thing in named, thing
