"""Search quality on the players' question files, as held-out sets judge it: floors for every
file, the fusion never losing what one ranker knows, honest answers to what the documents lack,
and both fitted models carrying over to a pack left out of their fit."""

from __future__ import annotations

import pytest
from conftest import EVAL

from tabletop.rules import calibration, evaluation

# Every players' file (written by people who never saw our files), and ours in their style, with
# its floors (top-1, top-3): regression guards a little under today's figures (with the search
# cards), which the README lists beside the wave's targets (0.85 / 0.93 in the pack's language,
# 0.80 / 0.90 across) and the figures before cards.
FLOORS = {
    "ti4_players.yaml": (0.85, 0.94),
    "ti4_players_2.yaml": (0.85, 0.95),
    "ti4_players_xling.yaml": (0.85, 0.90),
    "ti4_own.yaml": (0.92, 0.97),
    "galaxy_trucker_players.yaml": (0.81, 0.93),
    "galaxy_trucker_players_2.yaml": (0.81, 0.96),
    "galaxy_trucker_players_xling.yaml": (0.80, 0.90),
    "galaxy_trucker_big_expansion_players.yaml": (0.88, 0.94),
    "galaxy_trucker_big_expansion_players_xling.yaml": (0.74, 0.85),
    "new_frontiers_players.yaml": (0.87, 0.93),
    "new_frontiers_players_2.yaml": (0.79, 0.91),
    "new_frontiers_players_xling.yaml": (0.69, 0.85),
    "liftoff_players.yaml": (0.91, 0.96),
    "liftoff_players_2.yaml": (0.70, 0.88),
    "liftoff_players_xling.yaml": (0.58, 0.74),
}


def _game(compendium, file: str) -> str:
    return evaluation.game_of_file(compendium, EVAL / file)


def test_every_players_file_is_measured():
    """A players' file added to tests/eval gets floors here, or this fails."""
    assert {p.name for p in EVAL.glob("*players*.yaml")} | {"ti4_own.yaml"} == set(FLOORS)


@pytest.mark.parametrize("file, floors", FLOORS.items())
def test_floors_on_the_players_questions(compendium, file, floors):
    result = evaluation.evaluate(compendium, evaluation.load_queries(EVAL / file), _game(compendium, file))
    assert evaluation.failures(result, *floors, none_floor=0.0) == [], evaluation.report(result)


def test_the_fusion_never_loses_what_one_ranker_knows(compendium, players_files):
    """Over every players' file together, the fused ranking's top three hold at least what the
    better of the words alone and the meaning alone hold, less 0.02. (File by file it holds for
    most; where one ranker is far better on a small file, the fusion is a question or two short:
    see the README.)"""
    figures = calibration.rankers(compendium, players_files)
    n = sum(by["fused"]["n"] for by in figures.values())
    top3 = {r: sum(by[r]["n"] * by[r]["top3"] for by in figures.values()) / n for r in calibration.RANKERS}
    assert top3["fused"] >= max(top3["words"], top3["meaning"]) - 0.02, top3


def test_most_questions_the_documents_cannot_answer_get_an_honest_reply(compendium):
    """`none` questions of every players' file together are answered with nothing or with "this
    topic has no entry here" at least half the time (each file holds two to eight; the wave's
    target is 80%, see the README)."""
    honest = total = 0
    for file in FLOORS:
        result = evaluation.evaluate(compendium, evaluation.load_queries(EVAL / file), _game(compendium, file))
        nones = result["kinds"].get("none")
        if nones:
            honest += round(nones["none_honest"] * nones["queries"])
            total += nones["queries"]
    assert total >= 50 and honest / total >= 0.5, (honest, total)


@pytest.fixture(scope="module")
def players_files(compendium) -> dict[str, list[dict]]:
    files: dict[str, list[dict]] = {}
    for file in FLOORS:
        files.setdefault(_game(compendium, file), []).extend(evaluation.load_queries(EVAL / file))
    return files


@pytest.mark.slow  # fits the ranking five times: about 4 s
def test_the_ranking_fitted_on_other_packs_lifts_the_pack_left_out(compendium, players_files):
    """Fitted on the other packs' files, the fused ranking beats the words alone on the pack left
    out, and stays within 0.03 MRR of the meaning alone: it is no fit to one file."""
    fitted = calibration.ranking_leave_one_pack_out(calibration.ranking_rows(compendium, players_files))
    for pack, r in fitted["packs"].items():
        assert r["fused"]["mrr"] > r["words_only"]["mrr"], (pack, r)
        assert r["fused"]["mrr"] >= r["meaning_only"]["mrr"] - 0.03, (pack, r)


def test_the_answer_decision_fitted_on_other_packs_carries_over(compendium, players_files):
    """Fitted on the other packs, the answer decision is right on the pack left out about as often
    as always answering, or more (within 0.02): refusing costs no pack its answers."""
    from tabletop.rules import fusion

    fitted = calibration.leave_one_pack_out(calibration.rows(compendium, players_files), fusion.ANSWER_FEATURES)
    for pack, r in fitted["packs"].items():
        assert r["accuracy"] >= r["always_answer"] - 0.02, (pack, r)
