"""Fusing the dense and lexical evidence of one question, and deciding whether it is answered.

Both rankers propose: every section of the pack is a candidate, scored

    10 x (w_z z + w_z2 z2 + w_coverage coverage + w_bm25 bm25 + w_contained contained + w_pointed pointed
          + w_zq zq + w_zs zs + w_bm25q bm25q)

- z: how far the section's best passage stands above the pack's sections in cosine similarity
  to the question, in standard deviations (e5's cosines crowd into 0.75-0.90 for any text of a
  language: the distance from the pack's average is what tells, on one scale for every pack);
  z2: the same for the mean of its two best passages (the section as a whole);
- coverage: the share of the question's IDF-weighted words the section holds (lexicon terms
  and other-language names count through the rules' words, lexical.PackIndex.coverage);
- bm25: its BM25 relative to the best section's; contained: a name of it inside the question;
  pointed: a title nearly typed (a typo or a prefix);
- zq, zs: the z of the section's nearest search-card question (question to question) and card
  summary; bm25q: its best card question's BM25 relative to the best section's (cards.py). A pack
  without cards is ranked and decided with the models fitted before cards (the *_NO_CARDS tables).

The weights are fitted (RANK_WEIGHTS). A question that shares no word with the rules (another
language, a paraphrase) is ranked by meaning alone. Each ranker's first choice stays among the
first three, below any section the player named; the third is the fused order's best among both
rankers' first two choices. Numbers, exact names and initials answer first: a
player who typed a rule number or a title asked for that section.

Whether the pack answers at all is one calibrated decision (`confidences`): a logistic model
over the best section's z, its coverage, whether a name in the question points at it, the best
cosine in the pack, the share of the question's information the pack's words know anywhere,
the share of the question written in another script than the rules' (the words can say little
then), and, with cards, the nearest card question's cosine and the best section's zq. The best
section's margin over the next one's z was tried and
fitted to nothing.

Both models are fitted by `bot.py eval --fit` on the players' files, with one pack left out to
show that they carry over (calibration.py). Every scoring number is in the tables below, with
its reason and whether it was fitted.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

# --- the fusion -------------------------------------------------------------------------------
NAME_SIGNALS = frozenset({"number", "exact", "initials"})  # the player named the section
POINTED = frozenset({"fuzzy", "prefix"})  # a title nearly typed: evidence, not a name
SHOWN = 3  # results a reply lists before "more"

# Points of the name ladder (a name typed is the strongest evidence there is; set by hand, in
# the order a player means them: a number, a title as typed, a title after a typo repair...).
NAME_POINTS = {
    "exact": 95.0,  # the whole query is a title, alias or lexicon name (times the name's weight)
    "repaired": 90.0,  # ... once a misspelt word is repaired
    "inline number": 90.0,  # "79.1" written inside a question
    "initials": 88.0,  # ㅍㄱ, the initials of a Hangul title
    "initials prefix": 55.0,  # the start of a title's initials, plus up to 20 by how much is typed
    "fuzzy": 84.0,  # a title within the edit budget, less 8 per edit
    "prefix": 62.0,  # the start of a title, plus up to 25 by how much is typed
    "contained": 25.0,  # a title inside a longer question, up to three times by its share of it
}

# The ranking of every other section: a linear score over the evidence, its weights fitted by
# `bot.py eval --fit` (a conditional logit: the expected section against every other section of
# its pack, on the players' files, with one pack left out to check that it carries over). All
# fitted but `pointed`, set by hand: no players' question is a misspelt title alone, and a title
# nearly typed should still come before what the words merely suggest.
CARD_FEATURES = ("zq", "zs", "bm25q")
RANK_FEATURES = ("z", "z2", "coverage", "bm25", "contained", "pointed", *CARD_FEATURES)
# zq, zs: the z of the section's nearest search-card question (question to question) and summary
# (cards.py); bm25q: its best card question's BM25 (cardwords.py). A pack without cards ranks
# with the weights fitted before cards existed, which carry the meaning in z and z2 alone.
RANK_WEIGHTS = {
    "z": 0.10,
    "z2": 0.85,
    "coverage": 2.44,
    "bm25": 0.93,
    "contained": 0.35,
    "pointed": 3.0,
    "zq": 1.13,
    "zs": 0.27,
    "bm25q": 2.68,
}
RANK_WEIGHTS_NO_CARDS = {
    "z": 1.09,
    "z2": 0.71,
    "coverage": 2.81,
    "bm25": 1.95,
    "contained": 1.57,
    "pointed": 3.0,
} | dict.fromkeys(CARD_FEATURES, 0.0)
MEANING_FEATURES = ("z", "z2", "zq", "zs")  # what the model says; the rest is the words'
RANK_SCALE = 10.0  # a unit of the fitted score is ten points, the name ladder's scale
# Within a section, the rule to highlight: its BM25 share of the best document's, plus this much
# per standard deviation of its passage's z (set by hand: the words say which rule holds the
# question's terms, the meaning breaks ties between rules that hold them alike).
RULE_Z_WEIGHT = 0.075
# ... and the rule a card question names, this much per standard deviation of that question's z
# among the pack's card questions (set by hand: a player's question three deviations nearer one
# card question than the rest asks what that question asks, which outweighs a full BM25 share
# of the words: 62.5 "투표하기" holds 투표, 62.19 answers 동점).
RULE_CARD_WEIGHT = 0.3

# --- the answer decision ------------------------------------------------------------------------
ANSWER_FEATURES = ("z", "coverage", "named", "foreign", "cosine", "known", "asked", "zq")
# asked: the nearest card question's cosine, on the cosine's scale; zq: the best section's
# (both 0 in a pack without cards, which is decided by the model fitted before cards).
# Logistic coefficients, fitted (eval --fit on all the players' files, calibration.L2, on the
# rankings the fitted RANK_WEIGHTS give); ANSWER_MODEL_NO_CARDS is the fit from before cards (for a
# pack without them); the words-only set is for lexical-only search (no model, or autocomplete).
ANSWER_MODEL = {
    "intercept": -4.78,
    "z": 0.04,
    "coverage": 1.49,
    "named": 0.19,
    "foreign": 0.74,
    "cosine": 1.49,
    "known": 0.69,
    "asked": 2.70,
    "zq": 0.57,
}
ANSWER_MODEL_NO_CARDS = {
    "intercept": -2.87,
    "z": 0.62,
    "coverage": 1.83,
    "named": 0.69,
    "foreign": 0.61,
    "cosine": 2.00,
    "known": 0.53,
    "asked": 0.0,
    "zq": 0.0,
}
# A pack as `pack import` makes it (no lexicon, no cards, names in its own language only) is asked
# about in any language with no words in common: tools/fit_bare_packs.py strips the bundled packs
# so and fits on every players' question (the xling files too); with each pack left out, it
# decides better than ANSWER_MODEL_NO_CARDS on all five (0.72 against 0.67 for the Big Expansion,
# 0.80/0.75 Galaxy Trucker, 0.85/0.79 Liftoff, 0.81/0.73 New Frontiers, 0.73/0.68 TI4).
ANSWER_MODEL_BARE = {
    "intercept": -2.79,
    "z": 0.85,
    "coverage": 1.78,
    "named": 0.66,
    "foreign": 1.39,
    "cosine": 0.84,
    "known": 0.93,
    "asked": 0.0,
    "zq": 0.0,
}
ANSWER_MODEL_WORDS_ONLY = {
    "intercept": -0.99,
    "z": 0.0,
    "coverage": 1.24,
    "named": 1.51,
    "foreign": 0.36,
    "cosine": 0.0,
    "known": 1.54,
    "asked": 0.0,
    "zq": 0.0,
}
# The best cosine enters as (cosine - 0.8) / 0.1: e5's cosines sit near 0.8 and a tenth is a large
# step, so its coefficient reads on the scale of the others' (a rescaling: the fit is the same).
COSINE_CENTRE, COSINE_STEP = 0.8, 0.1
ANSWER_THRESHOLD = 0.5  # answer when an answer is likelier right than not
# Chat mode answers outright only above this; below, it offers "did you mean" with the list
# (a wrong answer in a channel costs more than one more click).
CONFIDENT = 0.75


@dataclass(frozen=True)
class WordEvidence:
    """What the question's words say, per section: its share of the question's information
    (coverage), its BM25 relative to the best section's, and the points of a name of it the
    question contains (/100); and every document's BM25, from which the rule is chosen."""

    doc_scores: dict[int, float]
    coverage: dict[str, float]
    bm25: dict[str, float]
    contained: dict[str, float]
    known: float = 0.0  # the share of the question's information the pack has anywhere
    asks: bool = False  # the question has a content word at all (not こんにちは, not a lone letter)
    card_bm25: dict[str, float] = field(default_factory=dict)  # its best card question's BM25, relative


def rank_features(section: str, view: DenseView | None, words: WordEvidence, how: str | None) -> dict[str, float]:
    return {
        "z": view.section_z.get(section, 0.0) if view is not None else 0.0,
        "z2": view.section_z2.get(section, 0.0) if view is not None else 0.0,
        "coverage": words.coverage.get(section, 0.0),
        "bm25": words.bm25.get(section, 0.0),
        "contained": words.contained.get(section, 0.0),
        "pointed": float(how in POINTED),
        "zq": view.question_z.get(section, 0.0) if view is not None else 0.0,
        "zs": view.summary_z.get(section, 0.0) if view is not None else 0.0,
        "bm25q": words.card_bm25.get(section, 0.0),
    }


def has_cards(view: DenseView | None) -> bool:
    return view is not None and bool(view.question_z)


def rank_weights(view: DenseView | None) -> dict[str, float]:
    return RANK_WEIGHTS if has_cards(view) else RANK_WEIGHTS_NO_CARDS


def fuse(best: dict[str, list], view: DenseView | None, words: WordEvidence) -> dict[str, list]:
    """Section -> [score, rule, how]: the sections the player named (number, title, initials)
    first, as the name ladder scores them; every other section the words or the meaning reach
    (the whole pack when the model reads the question) by its fitted score, below them."""
    named = [v[0] for v in best.values() if v[2] in NAME_SIGNALS]
    ceiling = min(named) if named else None  # nothing fused may pass what the player named
    sections = set(best) | set(words.coverage) | set(words.contained) | set(words.card_bm25)
    sections |= set(view.section_z) if view else set()
    out: dict[str, list] = {}
    words_score: dict[str, float] = {}  # the same score without the meaning: the words' ranking
    meaning_score: dict[str, float] = {}  # the meaning's part alone: its ranking
    weights = rank_weights(view)
    for section in sorted(sections):  # sorted: ties fall the same way in every process
        entry = best.get(section)
        how = entry[2] if entry else None
        x = rank_features(section, view, words, how)
        meaning = RANK_SCALE * sum(weights[f] * x[f] for f in MEANING_FEATURES)
        if view is not None:  # (without cards the meaning's first choice is its best passage's)
            meaning_score[section] = meaning if has_cards(view) else x["z"]
        if entry and entry[2] in NAME_SIGNALS:
            out[section] = list(entry)
            continue
        score = RANK_SCALE * sum(weights[f] * x[f] for f in RANK_FEATURES)
        if ceiling is not None:
            score = min(score, ceiling - 1)
        if not how:
            how = "contains" if x["contained"] else "text" if x["coverage"] else "dense"
        out[section] = [score, entry[1] if entry else None, how]
        if x["coverage"] or x["contained"] or x["bm25"] or x["bm25q"] or how in POINTED:  # the words found it
            words_score[section] = score - meaning
    if view is not None:
        firsts = [max(sorted(meaning_score), key=meaning_score.__getitem__)]
        if words_score:
            firsts.append(max(words_score, key=words_score.__getitem__))
        _keep_first_choices(out, [s for s in firsts if out[s][2] not in NAME_SIGNALS], ceiling)
        choices = _first_two(meaning_score) + _first_two(words_score)
        _third_among_choices(out, {s for s in choices if out[s][2] not in NAME_SIGNALS})
    return out


def _first_two(scores: dict[str, float]) -> list[str]:
    return sorted(sorted(scores), key=lambda s: -scores[s])[:2]


def _third_among_choices(fused: dict[str, list], choices: set[str]) -> None:
    """The last result shown goes to the fused order's best among the sections either ranker put
    first or second, when one of them is not shown above it: a reply's third line is where a
    ranker's near miss is worth more than the sum's third guess (on the players' files it lifts
    three questions into the first three and drops none)."""
    ranked = sorted(fused, key=lambda s: -fused[s][0])
    if len(ranked) < SHOWN or fused[ranked[SHOWN - 1]][2] in NAME_SIGNALS:
        return
    third = ranked[SHOWN - 1]
    pick = next((s for s in ranked[SHOWN - 1 :] if s in choices), third)
    if pick != third:  # trade places: the pick shown third, the section it displaces where it was
        fused[pick][0], fused[third][0] = fused[third][0], fused[pick][0]


def _keep_first_choices(fused: dict[str, list], firsts: list[str], ceiling: float | None) -> None:
    """Each ranker's first choice (the meaning's, the words') stays among the first SHOWN
    results, below any section the player named. Where the two disagree, one of them is right
    more often than one sum of their evidence can tell, and a reply lists three sections: so
    both are offered, the fused order deciding which comes first."""
    ranked = sorted(fused, key=lambda s: -fused[s][0])
    top = ranked[:SHOWN]
    named = [s for s in top if fused[s][2] in NAME_SIGNALS]
    late = [s for s in dict.fromkeys(firsts) if s in ranked[SHOWN:]][: SHOWN - len(named)]
    if not late:
        return
    shown = named + [s for s in top if s not in named][: SHOWN - len(named) - len(late)]
    floor = min(fused[s][0] for s in shown)
    if ceiling is not None:
        floor = min(floor, ceiling - 1)
    for step, section in enumerate(late, 1):  # in the fused order, just under the ones that stay
        fused[section][0] = floor - step * 1e-6
    for section in top:  # and what they displace, just under them
        if section not in shown:
            fused[section][0] = min(fused[section][0], floor - (len(late) + 1) * 1e-6)


def evidence(
    fused: dict[str, list], view: DenseView | None, words: WordEvidence, foreign: float
) -> dict[str, dict[str, float] | None]:
    """Section -> its ranking and answer features; None for a section the player named (number,
    title, initials), which answers whatever the features say."""
    out: dict[str, dict[str, float] | None] = {}
    for section, (_, _, how) in fused.items():
        if how in NAME_SIGNALS:
            out[section] = None
            continue
        x = rank_features(section, view, words, how)
        x["named"] = float(x["contained"] > 0 or x["pointed"] > 0)
        x["foreign"] = foreign
        x["cosine"] = (view.best_cosine - COSINE_CENTRE) / COSINE_STEP if view is not None else 0.0
        x["known"] = words.known
        x["asked"] = (view.question_cosine - COSINE_CENTRE) / COSINE_STEP if view is not None and has_cards(view) else 0.0
        out[section] = x
    return out


def answer_model(view: DenseView | None, bare: bool = False) -> dict[str, float]:
    """The decision for what the search knows: the meaning with cards, without, or no meaning;
    a bare pack (no lexicon, no cards: an import) has its own."""
    if view is None:
        return ANSWER_MODEL_WORDS_ONLY
    if has_cards(view):
        return ANSWER_MODEL
    return ANSWER_MODEL_BARE if bare else ANSWER_MODEL_NO_CARDS


def probability(values: dict[str, float], model: dict[str, float]) -> float:
    logit = model["intercept"] + sum(model[f] * values[f] for f in ANSWER_FEATURES)
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, logit))))


def confidences(
    evidence: dict[str, dict[str, float] | None],
    view: DenseView | None,
    fused: dict[str, list] | None = None,
    bare: bool = False,
) -> dict[str, float]:
    """Section -> the probability that it answers the question (1 where the player named it, or
    typed its title whole with a typo: no players' question is one, so the decision never
    learnt them, and `modifer` asks for 66 as surely as `modifier` does)."""
    model = answer_model(view, bare)
    out = {s: 1.0 if values is None else probability(values, model) for s, values in evidence.items()}
    for section, (_, _, how) in (fused or {}).items():
        if how == "fuzzy":
            out[section] = 1.0
    return out


@dataclass(frozen=True)
class CardVectors:
    """A pack's search cards as the model read them (cards.py): its questions (question side)
    and summaries (passage side), each row with its section, and each question's rule."""

    questions: np.ndarray
    question_sections: list[str]
    question_rules: list[str | None]
    summaries: np.ndarray
    summary_sections: list[str]


@dataclass(frozen=True)
class DenseView:
    """One question's dense evidence over one pack: a z-score per section (its best passage)
    and per passage, on the same scale; the best cosine; a z per section of its two best; and,
    where the pack has cards, the z of each section's nearest card question and summary, the
    best card question's cosine and, per section, the rule its nearest card question names."""

    section_z: dict[str, float]
    doc_z: np.ndarray
    best_cosine: float = 0.0  # the best passage's cosine: how close the pack comes at all
    section_z2: dict[str, float] = field(default_factory=dict)  # z of its two best passages' mean
    question_z: dict[str, float] = field(default_factory=dict)
    summary_z: dict[str, float] = field(default_factory=dict)
    question_cosine: float = 0.0  # 0: the pack has no card questions
    question_rule: dict[str, str | None] = field(default_factory=dict)


def _z_by_section(sections: list[str], sims: list[float]) -> tuple[dict[str, float], dict[str, float]]:
    """Each section's best similarity, and its distance from the sections' mean in deviations."""
    best: dict[str, float] = {}
    for section, sim in zip(sections, sims):
        if sim > best.get(section, -2.0):
            best[section] = sim
    values = np.fromiter(best.values(), dtype=np.float64)
    spread, mean = (float(values.std()) or 1.0, float(values.mean())) if len(values) else (1.0, 0.0)
    return best, {s: (v - mean) / spread for s, v in best.items()}


def dense_view(
    matrix: np.ndarray, doc_sections: list[str], query: np.ndarray, cards: CardVectors | None = None
) -> DenseView | None:
    if not len(matrix):
        return None
    sims = matrix @ query
    by_section: dict[str, list[float]] = {}
    for section, sim in zip(doc_sections, sims.tolist()):
        by_section.setdefault(section, []).append(sim)
    best = {s: max(v) for s, v in by_section.items()}
    values = np.fromiter(best.values(), dtype=np.float64)
    spread = float(values.std()) or 1.0
    mean = float(values.mean())
    # the section as a whole: the mean of its two best passages, on its own z scale
    pair = {s: float(np.mean(sorted(v)[-2:])) for s, v in by_section.items()}
    pvalues = np.fromiter(pair.values(), dtype=np.float64)
    pspread, pmean = float(pvalues.std()) or 1.0, float(pvalues.mean())
    view = DenseView(
        {s: (v - mean) / spread for s, v in best.items()},
        (sims - mean) / spread,
        float(values.max()),
        {s: (v - pmean) / pspread for s, v in pair.items()},
    )
    if cards is None or not len(cards.questions):
        return view
    asked = (cards.questions @ query).tolist()
    nearest, question_z = _z_by_section(cards.question_sections, asked)
    _, summary_z = _z_by_section(cards.summary_sections, (cards.summaries @ query).tolist()) if len(cards.summaries) else ({}, {})
    rule: dict[str, str | None] = {}
    for section, sim, r in zip(cards.question_sections, asked, cards.question_rules):
        if sim >= nearest[section] and section not in rule:
            rule[section] = r
    return replace(view, question_z=question_z, summary_z=summary_z, question_cosine=max(asked), question_rule=rule)


def best_rule(
    docs: list[tuple[int, str | None]],
    view: DenseView | None,
    doc_scores: dict[int, float],
    asked: tuple[str | None, float] | None = None,
) -> str | None:
    """The rule to highlight among a section's passages [(position in the pack, rule id)]: the
    best BM25 share plus RULE_Z_WEIGHT times the z of the passage; `asked`, the rule named by the
    section's nearest card question and that question's z, adds RULE_CARD_WEIGHT times that z
    to its rule (a card question asked the way the player asks names the rule that answers it)."""
    top = max(doc_scores.values(), default=0.0) or 1.0
    best, best_score = None, float("-inf")
    for position, rule in docs:
        score = doc_scores.get(position, 0.0) / top
        if view is not None:
            score += RULE_Z_WEIGHT * float(view.doc_z[position])
        if asked is not None and asked[0] is not None and rule == asked[0]:
            score += RULE_CARD_WEIGHT * max(0.0, asked[1])
        if score > best_score:
            best, best_score = rule, score
    return best
