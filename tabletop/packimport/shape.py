"""Where a document's sections start, chosen from its shape: every heading level it has is a
candidate cut (at each, a body that is mostly "Term: text" paragraphs is a glossary whose
terms start sections of their own), scored by the sections it would make, and the best one is
taken. A section is
what a reader opens: a title followed by its text, a few paragraphs to a few pages long, about
as long as the others. A rulebook whose `#` headings are a handful of parts is cut at its `##`
topics; one whose chapters hold many two-line sub-headings is cut at its chapters."""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from tabletop.packimport.outline import Block, lead_term, width

# Lead-in paragraphs ("Term: text") this many or more, making up at least half of a body's
# paragraphs, may be a glossary of their own sections: two could be a pair of conditions.
LEAD_IN_RUN = 3
# A section a reader opens holds at least this many columns of text (two or three sentences), and
# at most this many (a page or two of a rulebook); smaller or larger ones score less, in proportion.
TOPIC_WIDTH = (300, 4000)

Group = tuple[list[Block], list[Block]]  # (the headings that open a section, its body)


@dataclass(frozen=True)
class Cut:
    level: int  # sections start at headings of this level or outer
    groups: list[Group]
    score: float

    @property
    def sections(self) -> int:
        return sum(1 for heads, body in self.groups if heads or body)


def group(blocks: list[Block], level: int) -> list[Group]:
    """The blocks cut at every heading of `level` or outer; headings one after another open the
    same section (a part's heading and its first topic's)."""
    groups: list[Group] = []
    heads: list[Block] = []
    body: list[Block] = []
    for block in blocks:
        if block.kind == "heading" and block.level <= level:
            if body or not groups and not heads:
                groups.append((heads, body))
                heads, body = [], []
            heads.append(block)
        else:
            body.append(block)
    groups.append((heads, body))
    return groups


def lead_ins(heads: list[Block], body: list[Block], level: int) -> list[Group]:
    """A body that is mostly lead-in paragraphs ("행성: …", "유성군: …"), at least LEAD_IN_RUN
    of them, is a glossary: each lead-in starts a section of its own, titled by its term."""
    paragraphs = [b for b in body if b.kind == "para"]
    leads = [b for b in paragraphs if lead_term(b)]
    if len(leads) < LEAD_IN_RUN or 2 * len(leads) < len(paragraphs):
        return [(heads, body)]
    out: list[Group] = []
    first = body.index(leads[0])
    if first:
        out.append((heads, body[:first]))
        heads = []
    for block in body[first:]:
        if block in leads:
            head = Block("heading", block.text, block.line, level, "lead-in", lines=block.lines, term=lead_term(block))
            out.append(([*heads, head], []))
            heads = []
        else:
            out[-1][1].append(block)
    return out


def score(groups: list[Group]) -> float:
    """How well these sections read as the topics a reader opens (0-1): their typical size
    within TOPIC_WIDTH, bodies that start with text rather than another heading, and sizes
    alike. One section alone (the whole document, under a lone title) scores nothing."""
    opened = [(heads, body) for heads, body in groups if heads]
    if len(opened) < 2:
        return 0.0
    sizes = [_width(heads, body) for heads, body in opened]
    typical = statistics.median(sizes)
    fit = min(1.0, typical / TOPIC_WIDTH[0]) * min(1.0, TOPIC_WIDTH[1] / max(typical, 1))
    texts = sum(1 for heads, body in opened if heads[-1].how == "lead-in" or (body and body[0].kind != "heading"))
    alike = 1 / (1 + statistics.pstdev(sizes) / max(statistics.fmean(sizes), 1))
    return fit * (0.5 + 0.5 * texts / len(opened)) * (0.5 + 0.5 * alike)


def _width(heads: list[Block], body: list[Block]) -> int:
    """A section's text in columns (a Korean or Japanese character counts two, as it holds
    about as much as two Latin letters)."""
    own = width(heads[-1].text) if heads and heads[-1].how == "lead-in" else 0
    return own + sum(width(b.text) for b in body if b.kind != "heading") or 1


def candidates(blocks: list[Block], printed: bool) -> list[Cut]:
    """Every cut the document's shape allows, best first. A document that prints its own
    numbers is cut at them alone, its lead-ins kept as its rules' text."""
    levels = sorted({b.level for b in blocks if b.kind == "heading"}) or [1]
    if printed:
        return [Cut(levels[0], group(blocks, levels[0]), 1.0)]
    cuts = []
    for level in levels:
        groups = at_level(blocks, level)
        cuts.append(Cut(level, groups, score(groups)))
    return sorted(cuts, key=lambda c: (-round(c.score, 6), c.level))  # a tie: the outer cut


def at_level(blocks: list[Block], level: int) -> list[Group]:
    """The sections of a cut at `level`, glossaries split at their terms."""
    return [part for heads, body in group(blocks, level) for part in lead_ins(heads, body, level)]


def choose(blocks: list[Block], printed: bool, level: int | None = None) -> tuple[Cut, Cut | None]:
    """The cut taken (the best, or the best at the `level` asked for) and the runner-up."""
    found = candidates(blocks, printed)
    if level is not None:
        at = [c for c in found if c.level == level]
        if not at:  # no heading of that level: the cut at the next outer one there is
            groups = at_level(blocks, level) if not printed else group(blocks, level)
            return Cut(level, groups, score(groups)), found[0]
        return at[0], next((c for c in found if c is not at[0]), None)
    return found[0], found[1] if len(found) > 1 else None
