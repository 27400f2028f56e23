"""Our exact odds against the exact calculator fork that models Thunder's Edge
(BarbarianMatt/ti4calcTE), on every fight of its that our units describe (the figures and the
script that computed them: tests/combat/peer/). The fork stops once all but a sliver of the
probability has reached an end, so each of its figures is a lower bound and the truth lies within
that sliver above it: ours must fall in that band, for every outcome."""

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
def test_our_odds_lie_within_the_forks_unfinished_share(case):
    fight = build_fight(case["kind"], {"attacker": case["attacker"], "defender": case["defender"]}, unit_book("ti4"))
    ours = odds.solve(fight)
    sliver = 1.0 - case["terminal_mass"]
    assert 0 < sliver < 1e-4  # the fork's stopping rule: 99.99 % reached an end
    for outcome in ("attacker", "defender", "draw"):
        theirs = case["peer"][outcome]
        assert theirs - EXACT <= getattr(ours, outcome) <= theirs + sliver + EXACT, (outcome, getattr(ours, outcome), theirs)


def test_the_reference_covers_the_thunders_edge_units_and_cards_the_fork_models():
    named = " ".join(f"{c['attacker']} {c['defender']}" for c in FIGURES["cases"])
    for thing in (
        "quietus",
        "last dispatch",
        "linkship",
        "linkship ii",
        "eidolon maximum",
        "metali void armaments",
        "lightrail ordnance",
    ):
        assert thing in named, thing
