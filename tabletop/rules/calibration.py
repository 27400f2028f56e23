"""Fitting the search's two models on the players' files, each with one pack left out to show
that it carries over to a pack it never saw:

- the ranking (fusion.RANK_WEIGHTS): a conditional logit, the expected section against every
  other section of its pack, over fusion.RANK_FEATURES;
- the answer decision (fusion.ANSWER_MODEL): a logistic regression over the features of each
  question's best section;

and, beside them, how far choosing between the two rankers could go (`rankers`).

For the answer decision, a question's label is 1 when its expected section is among the first three results (an answer
is worth showing) and 0 when it is not, or when the document has no answer (`none`): showing
nothing costs such a question nothing. Questions answered by a name (a number, a title) are left
out: the decision never overrules a player who named the section.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

from tabletop.rules import fusion
from tabletop.rules.evaluation import section_id

L2 = 1.0  # a light ridge: the features are on similar scales and the files hold a few hundred rows


def ranking_rows(compendium, files: dict[str, list[dict]]) -> dict[str, list[tuple[np.ndarray, np.ndarray]]]:
    """Pack -> (features of every section the search reached, which of them were expected) for
    each answerable question the names do not settle."""
    out: dict[str, list[tuple[np.ndarray, np.ndarray]]] = {}
    with _every_result(compendium) as engine:
        for game, question, expect in _asked(compendium, files):
            results = [r for r in engine.search(question, game, limit=10_000) if r.evidence is not None]
            if expect and any(r.section in expect for r in results):
                x = np.array([[r.evidence[f] for f in fusion.RANK_FEATURES] for r in results])
                out.setdefault(game, []).append((x, np.array([r.section in expect for r in results])))
    return out


def fit_ranking(samples: list[tuple[np.ndarray, np.ndarray]], use: tuple[str, ...] = fusion.RANK_FEATURES) -> dict[str, float]:
    """Weights maximising the chance of the expected sections under a softmax over each question's
    sections, on the features in `use` (the others weigh 0): Newton steps on the penalised log
    likelihood, with the Fisher information as the curvature (always positive definite) and the
    step halved until the likelihood rises."""
    columns = [fusion.RANK_FEATURES.index(f) for f in use]
    data = [(x[:, columns], expected) for x, expected in samples]

    def objective(w: np.ndarray) -> float:
        total = -0.5 * L2 * float(w @ w)
        for x, expected in data:
            scores = x @ w
            total += _logsumexp(scores[expected]) - _logsumexp(scores)
        return float(total)

    w = np.zeros(len(columns))
    current = objective(w)
    for _ in range(100):
        gradient = -L2 * w
        fisher = L2 * np.eye(len(w))
        for x, expected in data:
            p = _softmax(x @ w)
            q = p * expected / (p * expected).sum()  # the same, within the expected sections
            mean_p = p @ x
            gradient += q @ x - mean_p
            fisher += (x.T * p) @ x - np.outer(mean_p, mean_p)
        step = np.linalg.solve(fisher, gradient)
        scale = 1.0
        while scale > 1e-6 and objective(w + scale * step) < current:
            scale /= 2
        if scale <= 1e-6:
            break  # no step raises the likelihood: w is the optimum, as far as steps can tell
        w, previous, current = w + scale * step, current, objective(w + scale * step)
        if current - previous < 1e-9:
            break
    weights = dict.fromkeys(fusion.RANK_FEATURES, 0.0)
    weights.update({f: float(v) for f, v in zip(use, w)})
    return weights


def _logsumexp(scores: np.ndarray) -> float:
    top = float(scores.max())
    return top + float(np.log(np.exp(scores - top).sum()))


def _softmax(scores: np.ndarray) -> np.ndarray:
    e = np.exp(scores - scores.max())
    return e / e.sum()


def ranking_quality(samples: list[tuple[np.ndarray, np.ndarray]], weights: dict[str, float]) -> dict[str, float]:
    """Top-1, top-3 and MRR of the expected sections under these weights."""
    w = np.array([weights[f] for f in fusion.RANK_FEATURES])
    ranks = []
    for x, expected in samples:
        scores = x @ w
        # a tie counts against the expected section: a ranking that knows nothing ranks it last
        ranks.append(1 + int((scores[~expected] >= scores[expected].max()).sum()))
    n = len(ranks) or 1
    return {"top1": sum(r == 1 for r in ranks) / n, "top3": sum(r <= 3 for r in ranks) / n, "mrr": sum(1 / r for r in ranks) / n}


def ranking_leave_one_pack_out(by_pack: dict[str, list[tuple[np.ndarray, np.ndarray]]]) -> dict:
    """For each pack: the weights fitted on the other packs and what they score on it, beside
    words alone (every feature but the meaning's, fitted the same way) and meaning alone (the
    model's features, passages and cards, fitted the same way)."""
    words = tuple(f for f in fusion.RANK_FEATURES if f not in fusion.MEANING_FEATURES)
    out = {}
    for left_out, samples in by_pack.items():
        others = [s for pack, rows_ in by_pack.items() if pack != left_out for s in rows_]
        weights = fit_ranking(others)
        out[left_out] = {
            "weights": weights,
            "fused": ranking_quality(samples, weights),
            "words_only": ranking_quality(samples, fit_ranking(others, words)),
            "meaning_only": ranking_quality(samples, fit_ranking(others, fusion.MEANING_FEATURES)),
        }
    everything = [s for rows_ in by_pack.values() for s in rows_]
    return {"packs": out, "weights": fit_ranking(everything)}


def ranking_report(fitted: dict) -> list[str]:
    lines = ["ranking, fitted on every pack: " + _coefficients(fitted["weights"])]
    for pack, r in fitted["packs"].items():
        f, w, m = r["fused"], r["words_only"], r["meaning_only"]
        lines.append(
            f"  left out {pack}: MRR {f['mrr']:.3f} top-1 {f['top1']:.3f} top-3 {f['top3']:.3f} "
            f"(words only MRR {w['mrr']:.3f}, meaning only {m['mrr']:.3f}); fitted on the others: {_coefficients(r['weights'])}"
        )
    return lines


RANKERS = ("fused", "words", "meaning", "either")


def rankers(compendium, files: dict[str, list[dict]]) -> dict[str, dict[str, dict[str, float]]]:
    """Pack -> ranker -> top-1 and top-3 of its answerable questions, before the answer decision:
    the fused ranking, the words alone, the meaning alone, and `either`, the better of the two
    single rankers question by question. `either` is what choosing between the two rankings
    could reach: where it stands under a target, the rankers must learn more, not be reweighed."""
    out: dict[str, dict[str, dict[str, float]]] = {}
    with _every_result(compendium) as engine:
        for game, question, expect in _asked(compendium, files):
            if not expect:
                continue
            ranks = {
                "fused": _rank(engine.search(question, game), expect),
                "words": _rank(engine.search(question, game, dense=False), expect),
            }
            engine.ranks_words = False
            try:
                ranks["meaning"] = _rank(engine.search(question, game), expect)
            finally:
                engine.ranks_words = True
            ranks["either"] = min(ranks["words"], ranks["meaning"])
            tally = out.setdefault(game, {name: {"n": 0.0, "top1": 0.0, "top3": 0.0} for name in RANKERS})
            for name, rank in ranks.items():
                tally[name]["n"] += 1
                tally[name]["top1"] += rank == 1
                tally[name]["top3"] += rank <= 3
    return {
        game: {name: {k: t[k] / t["n"] for k in ("top1", "top3")} | {"n": t["n"]} for name, t in tally.items()}
        for game, tally in out.items()
    }


def _rank(results, expect: set[str]) -> float:
    return next((i + 1 for i, r in enumerate(results) if r.section in expect), math.inf)


def rankers_report(figures: dict[str, dict[str, dict[str, float]]]) -> list[str]:
    lines = ["rankers, top-1 / top-3 before the answer decision (either: the better single ranker, question by question):"]
    for pack, by in figures.items():
        lines.append(
            f"  {pack} ({by['fused']['n']:.0f}): " + ", ".join(f"{r} {by[r]['top1']:.3f} / {by[r]['top3']:.3f}" for r in RANKERS)
        )
    return lines


@contextmanager
def _every_result(compendium) -> Iterator:
    """The search with its answer decision off, for as long as a fit reads its rankings: every
    question's best sections come back, answered or not."""
    engine = compendium.search
    saved, engine.answer_threshold = engine.answer_threshold, 0.0
    try:
        yield engine
    finally:
        engine.answer_threshold = saved


def _asked(compendium, files: dict[str, list[dict]]) -> Iterator[tuple[str, str, set[str]]]:
    """(pack, question, the sections it expects) for every question of the files."""
    for game, queries in files.items():
        for q in queries:
            yield game, str(q["q"]), {section_id(compendium, game, str(e)) for e in q.get("expect") or []}


def rows(compendium, files: dict[str, list[dict]], dense: bool = True) -> dict[str, list[tuple[dict, int]]]:
    """Pack -> (features of the best section, label) for every question the names do not settle."""
    out: dict[str, list[tuple[dict, int]]] = {}
    with _every_result(compendium) as engine:
        for game, question, expect in _asked(compendium, files):
            results = engine.search(question, game, limit=3, dense=dense)
            if results and results[0].evidence is not None:
                label = int(any(r.section in expect for r in results))
                out.setdefault(game, []).append((results[0].evidence, label))
    return out


def fit(samples: list[tuple[dict, int]], features: tuple[str, ...] = fusion.ANSWER_FEATURES) -> dict[str, float]:
    """Logistic coefficients by Newton's method with an L2 penalty (the intercept unpenalised)."""
    if not samples:
        raise ValueError("nothing to fit: no question the names do not settle")
    x = np.array([[1.0, *(s[f] for f in features)] for s, _ in samples])
    y = np.array([label for _, label in samples], dtype=float)
    w = np.zeros(x.shape[1])
    penalty = np.diag([0.0] + [L2] * len(features))
    for _ in range(50):
        p = 1 / (1 + np.exp(-np.clip(x @ w, -30, 30)))
        gradient = x.T @ (p - y) + penalty @ w
        hessian = x.T @ (x * (p * (1 - p))[:, None]) + penalty + 1e-9 * np.eye(len(w))
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    model = dict.fromkeys(fusion.ANSWER_FEATURES, 0.0)
    model.update({"intercept": float(w[0]), **{f: float(v) for f, v in zip(features, w[1:])}})
    return model


def accuracy(samples: list[tuple[dict, int]], model: dict[str, float]) -> float:
    """Share of questions the decision gets right (answers a good top three, refuses the rest)."""
    right = sum((fusion.probability(s, model) >= fusion.ANSWER_THRESHOLD) == bool(label) for s, label in samples)
    return right / len(samples) if samples else 0.0


def leave_one_pack_out(by_pack: dict[str, list[tuple[dict, int]]], features: tuple[str, ...]) -> dict:
    """For each pack: the model fitted on the other packs and its accuracy on the one left out,
    beside the accuracy of always answering; and the model fitted on every pack."""
    out = {}
    for left_out, samples in by_pack.items():
        others = [s for pack, rows_ in by_pack.items() if pack != left_out for s in rows_]
        model = fit(others, features)
        out[left_out] = {
            "accuracy": accuracy(samples, model),
            "always_answer": sum(label for _, label in samples) / len(samples) if samples else 0.0,
            "model": model,
        }
    everything = [s for rows_ in by_pack.values() for s in rows_]
    return {"packs": out, "model": fit(everything, features)}


def report(fitted: dict, title: str) -> list[str]:
    lines = [f"answer decision ({title}), fitted on every pack: " + _coefficients(fitted["model"])]
    for pack, r in fitted["packs"].items():
        lines.append(
            f"  left out {pack}: right {r['accuracy']:.3f} of its decisions (always answering: "
            f"{r['always_answer']:.3f}); fitted on the others: {_coefficients(r['model'])}"
        )
    return lines


def _coefficients(model: dict[str, float]) -> str:
    return ", ".join(f"{k} {v:+.2f}" for k, v in model.items() if k == "intercept" or v)
