"""Fusing the dense and lexical rankings of one question.

The lexical ranking (names, lemmas, the lexicon, BM25, coverage) decides *whether* the pack
answers: a section must hold enough of the question's information, or a name must point at it.
Once it does, both rankers decide *which* section and *which* rule:

    fused(section) = lexical score (0-100, 0 where the lexical gates left it out)
                     + DENSE_WEIGHT x 10 x z(section)

where z is how far the section's best passage stands above the pack's sections in cosine
similarity to the question, in standard deviations. A z-score, not the raw cosine, because
e5's cosines crowd into 0.75-0.90 for any text of the same language: what tells is the distance
from the pack's average, and z puts every pack and question on one scale. The 10 maps a tenth
of a standard deviation to a point of lexical score (a z of 3 against a lexical score of 60).

DENSE_WEIGHT is the one fitted parameter. `bot.py eval --fit` chooses it on the players' query
files by leaving one pack out (fit on the others, score the one left out); see the README for
the figures. Numbers, exact names and initials keep answering first: a player who typed a rule
number or a title asked for that section.

Within a section, the highlighted rule is the passage with the best fused rule score: its BM25
share of the question's best document plus the same weighted z of the passage itself.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

DENSE_WEIGHT = 0.75  # fitted
NAME_SIGNALS = frozenset({"number", "exact", "initials"})  # the player named the section
WORD_SIGNALS = frozenset({"text", "contains"})  # the question's words pointed at the section
# A section the words point at is no answer when its meaning is under half a standard deviation
# above the pack's average for the question: on the players' files every right answer stood
# above 0.8 and everything under 0.5 was wrong or a question the document cannot answer
# ("타이머 맞춰놓고 할까?"), so the words had matched by accident.
MIN_MEANING = 0.5
SHOWN = 3  # results a reply lists before "more"


@dataclass(frozen=True)
class DenseView:
    """One question's dense evidence over one pack: a z-score per section (its best passage)
    and per passage, on the same scale."""

    section_z: dict[str, float]
    doc_z: np.ndarray


def dense_view(matrix: np.ndarray, doc_sections: list[str], query: np.ndarray) -> DenseView | None:
    if not len(matrix):
        return None
    sims = matrix @ query
    best: dict[str, float] = {}
    for section, sim in zip(doc_sections, sims.tolist()):
        if sim > best.get(section, -2.0):
            best[section] = sim
    values = np.fromiter(best.values(), dtype=np.float64)
    spread = float(values.std()) or 1.0
    mean = float(values.mean())
    return DenseView({s: (v - mean) / spread for s, v in best.items()}, (sims - mean) / spread)


def fuse(
    lexical: dict[str, list],
    view: DenseView | None,
    weight: float = DENSE_WEIGHT,
) -> dict[str, list]:
    """Section -> [fused score, lexical rule, how]. Sections named by number, title or initials
    stay above the rest; the others are ranked by the fused score."""
    if view is None or weight <= 0:
        return {s: list(v) for s, v in lexical.items()}
    named = [v[0] for v in lexical.values() if v[2] in NAME_SIGNALS]
    ceiling = min(named) if named else None  # nothing fused may pass what the player named
    out: dict[str, list] = {}
    for section, z in view.section_z.items():
        entry = lexical.get(section)
        if entry and entry[2] in NAME_SIGNALS:
            out[section] = list(entry)
            continue
        score = (entry[0] if entry else 0.0) + weight * 10 * z
        if ceiling is not None:
            score = min(score, ceiling - 1)
        out[section] = [score, entry[1] if entry else None, entry[2] if entry else "dense"]
    _keep_first_choices(out, lexical, view)
    return out


def _keep_first_choices(fused: dict[str, list], lexical: dict[str, list], view: DenseView) -> None:
    """Each ranker's first choice stays among the first SHOWN results. Where the two disagree,
    one of them is right more often than the sum of their scores can tell (on the players'
    files the dense ranker alone has the answer in its first three 97 times in 100, the fusion
    92), and a reply lists three sections: so both first choices are offered, the fused order
    deciding only which comes first."""
    firsts = [max(view.section_z, key=view.section_z.__getitem__)]
    if lexical:
        firsts.append(max(lexical, key=lambda s: lexical[s][0]))
    ranked = sorted(fused, key=lambda s: -fused[s][0])
    late = [s for s in dict.fromkeys(firsts) if s in ranked[SHOWN:]]
    if not late:
        return
    staying = ranked[: SHOWN - len(late)]
    floor = fused[staying[-1]][0]
    for step, section in enumerate(late, 1):  # in the fused order, just under the ones that stay
        fused[section][0] = floor - step * 1e-6


def best_rule(
    docs: list[tuple[int, str | None]],
    view: DenseView | None,
    doc_scores: dict[int, float],
    weight: float = DENSE_WEIGHT,
) -> str | None:
    """The rule to highlight among a section's passages [(position in the pack, rule id)]: the
    best BM25 share plus the weighted z of the passage."""
    top = max(doc_scores.values(), default=0.0) or 1.0
    best, best_score = None, float("-inf")
    for position, rule in docs:
        score = doc_scores.get(position, 0.0) / top
        if view is not None:
            score += weight * float(view.doc_z[position]) / 10
        if score > best_score:
            best, best_score = rule, score
    return best
