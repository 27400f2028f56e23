"""The words of a pack's search-card questions, a field of their own for the lexical ranker.

A card question is written the way players ask, in three languages (cards.py): a question that
shares its words ("can I retreat after round 2?") finds the section even when the rules' own
text, in the pack's language, shares none. Scored with BM25 like the rules' documents, but in an
index of its own, so that the rules' statistics (their IDF, their coverage of the question) stay
what they were; each section takes its best question's score.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

from tabletop.rules.lexical import BM25_B, BM25_K1


@dataclass(frozen=True)
class CardQuestionWords:
    section: str
    rule: str | None
    fields: dict[str, Counter]  # "L" lemmas, "B" bigrams and words, "U" unigrams, as for a rule


class CardWords:
    def __init__(self, questions: list[CardQuestionWords]):
        self.questions = questions
        self.lengths = [{f: sum(c.values()) for f, c in q.fields.items()} for q in questions]
        self.avg_len = (
            {f: (sum(n.get(f, 0) for n in self.lengths) / len(questions)) or 1.0 for f in ("L", "B", "U")} if questions else {}
        )
        self.df: Counter = Counter(f"{f}:{t}" for q in questions for f, c in q.fields.items() for t in c)
        self.postings: dict[str, list[tuple[int, int]]] = {}
        for i, q in enumerate(questions):
            for f, c in q.fields.items():
                for t, tf in c.items():
                    self.postings.setdefault(f"{f}:{t}", []).append((i, tf))

    def idf(self, token: str) -> float:
        n, df = len(self.questions), self.df.get(token, 0)
        return math.log(1 + (n - df + 0.5) / (df + 0.5))

    def sections(self, query: dict[str, float]) -> dict[str, tuple[float, str | None]]:
        """Section -> its best card question's BM25 for the weighted query tokens, relative to
        the best section's (1.0), and the rule that question names."""
        scores: dict[int, float] = {}
        for token, weight in query.items():
            idf, avg = self.idf(token), self.avg_len.get(token[0], 1.0)
            for i, tf in self.postings.get(token, ()):
                length = self.lengths[i].get(token[0], 0)
                norm = tf * (BM25_K1 + 1) / (tf + BM25_K1 * (1 - BM25_B + BM25_B * length / avg))
                scores[i] = scores.get(i, 0.0) + weight * idf * norm
        best: dict[str, tuple[float, str | None]] = {}
        for i, score in scores.items():
            q = self.questions[i]
            if score > best.get(q.section, (0.0, None))[0]:
                best[q.section] = (score, q.rule)
        top = max((v[0] for v in best.values()), default=0.0) or 1.0
        return {s: (v / top, rule) for s, (v, rule) in best.items()}
