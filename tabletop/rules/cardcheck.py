"""Checking a pack's search cards with the model (`bot.py pack cards ID --check`).

A card question is a good one when the model, comparing it with every rule passage of the pack,
every card summary and every other card question, puts its own section among its first three:
otherwise it would pull players' questions to the wrong section. The question's own point is
left out in every language (its translations would find it trivially). The vectors are the
ones the rules database holds, so the check embeds nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from tabletop.rules import cards, dense

FIRST = 3  # a reply shows three sections: a card question must reach its own among them
ENOUGH = 0.9  # the share of a pack's card questions that must: tests/rules/test_search_cards.py


@dataclass
class Miss:
    section: str
    point: int
    language: str
    text: str
    rank: int
    preferred: list[str]  # the sections the model put first


@dataclass
class Report:
    pack: str
    gaps: dict[str, list[tuple[str, dict]]] = field(default_factory=dict)  # section -> what its card lacks (keys)
    misses: list[Miss] = field(default_factory=list)
    asked: int = 0  # card questions checked

    @property
    def share(self) -> float:
        return 1 - len(self.misses) / self.asked if self.asked else 1.0

    @property
    def clean(self) -> bool:
        return not any(self.gaps.values()) and self.share >= ENOUGH


def check(compendium, game: str, pack) -> Report:
    """What the pack's cards lack (from the YAML) and which card questions the model sends
    elsewhere (from the rules database's vectors)."""
    report = Report(game, {s.id: cards.gaps(s, pack.cards.get(s.id), pack.language) for s in pack.sections})
    conn = compendium.conn
    docs = conn.execute("select section, vector from docs where pack = ? and vector is not null", (game,)).fetchall()
    rows = conn.execute(
        "select section, point, language, text, vector from cards where pack = ? and vector is not null order by rowid",
        (game,),
    ).fetchall()
    if not rows or not docs:
        return report
    owners = [d[0] for d in docs] + [r[0] for r in rows]
    matrix = np.vstack([dense.from_blobs([d[1] for d in docs]), dense.from_blobs([r[4] for r in rows])])
    points = [None] * len(docs) + [(r[0], r[1]) for r in rows]
    for i, (section, point, language, text, _) in enumerate(rows):
        if point is None:
            continue
        sims = matrix @ matrix[len(docs) + i]
        best: dict[str, float] = {}
        for owner, where, sim in zip(owners, points, sims.tolist()):
            if where != (section, point) and sim > best.get(owner, -2.0):
                best[owner] = sim
        ranking = sorted(best, key=lambda s: -best[s])
        report.asked += 1
        rank = ranking.index(section) + 1 if section in ranking else len(ranking) + 1
        if rank > FIRST:
            report.misses.append(Miss(section, point, language, text, rank, ranking[:FIRST]))
    return report
