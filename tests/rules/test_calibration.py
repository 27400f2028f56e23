"""The fits behind the search's two models recover what generated their data."""

from __future__ import annotations

import numpy as np

from tabletop.rules import calibration, fusion


def _questions(weights: np.ndarray, count: int, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Questions of 12 sections each, the expected one drawn from the softmax of these weights."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        x = rng.normal(size=(12, len(fusion.RANK_FEATURES)))
        p = np.exp(x @ weights)
        p /= p.sum()
        expected = np.zeros(12, dtype=bool)
        expected[rng.choice(12, p=p)] = True
        out.append((x, expected))
    return out


def test_the_ranking_fit_recovers_the_weights_that_made_the_data():
    truth = np.linspace(1.5, -0.5, len(fusion.RANK_FEATURES))
    fitted = calibration.fit_ranking(_questions(truth, 3000, seed=1))
    got = np.array([fitted[f] for f in fusion.RANK_FEATURES])
    assert np.allclose(got, truth, atol=0.15), got


def test_a_ranking_fitted_on_some_questions_ranks_new_ones_better_than_chance():
    truth = np.linspace(1.5, -0.5, len(fusion.RANK_FEATURES))
    fitted = calibration.fit_ranking(_questions(truth, 500, seed=2))
    quality = calibration.ranking_quality(_questions(truth, 500, seed=3), fitted)
    assert quality["top1"] > 0.3 and quality["mrr"] > 0.45  # chance: top-1 1/12, MRR about 0.26


def test_the_answer_fit_recovers_a_logistic_rule():
    rng = np.random.default_rng(4)
    samples = []
    for _ in range(4000):
        values = {f: float(rng.normal()) for f in fusion.ANSWER_FEATURES}
        logit = -0.5 + 2.0 * values["z"] + 1.0 * values["coverage"]
        samples.append((values, int(rng.random() < 1 / (1 + np.exp(-logit)))))
    model = calibration.fit(samples)
    assert abs(model["intercept"] + 0.5) < 0.15 and abs(model["z"] - 2.0) < 0.2 and abs(model["coverage"] - 1.0) < 0.15
    assert all(abs(model[f]) < 0.15 for f in fusion.ANSWER_FEATURES if f not in ("z", "coverage"))
    assert calibration.accuracy(samples, model) > 0.75
