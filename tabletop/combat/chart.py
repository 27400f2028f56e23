"""The odds as a picture: bars of the outcome probabilities and of each side's survivor count,
and the chance that at least k of each kind of unit survive.

Drawn with matplotlib (the Agg backend: no screen) in a Korean font that koreanize-matplotlib
ships, so Korean labels render on any machine without system fonts.
"""

from __future__ import annotations

import io
from functools import cache

from tabletop.combat.battle import ATTACKER, DEFENDER
from tabletop.combat.odds import Odds
from tabletop.combat.outcome import percent
from tabletop.core.i18n import t

WIDTH_PX, HEIGHT_PX, DPI = 960, 540, 96  # a 16:9 picture that Discord shows whole
COLORS = {ATTACKER: "#d9534f", DEFENDER: "#3b6ea5", "draw": "#8a8a8a"}
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")


@cache
def _pyplot():
    """matplotlib set up once: no screen, a font with Hangul."""
    import matplotlib

    matplotlib.use("Agg")
    import koreanize_matplotlib  # noqa: F401  (registers NanumGothic as the default font)
    import matplotlib.pyplot as plt

    return plt


def odds_chart(odds: Odds, title: str) -> bytes:
    """A PNG of WIDTH_PX x HEIGHT_PX: outcomes on the left; on the right each side's survivor
    count and, below, the chance that at least k of each kind of unit survive."""
    plt = _pyplot()
    from matplotlib.ticker import MaxNLocator

    fig = plt.figure(figsize=(WIDTH_PX / DPI, HEIGHT_PX / DPI), dpi=DPI)
    grid = fig.add_gridspec(2, 2, width_ratios=[1, 2])
    left, right, below = fig.add_subplot(grid[:, 0]), fig.add_subplot(grid[0, 1]), fig.add_subplot(grid[1, 1])
    try:
        labels = [t("combat.attacker"), t("combat.defender"), t("odds.draw")]
        values = [odds.attacker, odds.defender, odds.draw]
        bars = left.bar(labels, [v * 100 for v in values], color=[COLORS[ATTACKER], COLORS[DEFENDER], COLORS["draw"]])
        for bar, v in zip(bars, values):
            left.annotate(percent(v), (bar.get_x() + bar.get_width() / 2, bar.get_height()), ha="center", va="bottom")
        left.set_ylim(0, 110)
        left.set_ylabel("%")
        left.set_title(t("odds.outcomes"))
        width = 0.4
        for offset, side in ((-width / 2, ATTACKER), (width / 2, DEFENDER)):
            counts = odds.survivor_counts(side)
            right.bar(
                [n + offset for n in counts],
                [p * 100 for p in counts.values()],
                width,
                label=t(f"combat.{side}"),
                color=COLORS[side],
            )
        right.set_xlabel(t("odds.units_left"))
        right.set_ylabel("%")
        right.set_title(t("odds.survivors"))
        right.legend()
        for side, style in ((ATTACKER, "-"), (DEFENDER, "--")):
            for i, (name, chances) in enumerate(odds.at_least(side).items()):
                marker = MARKERS[i % len(MARKERS)]  # one colour per side, a marker per kind of unit
                ks = range(1, len(chances) + 1)
                below.plot(ks, [p * 100 for p in chances], style, marker=marker, color=COLORS[side], label=name)
        below.xaxis.set_major_locator(MaxNLocator(integer=True))
        below.set_xlabel("k")
        below.set_ylabel("%")
        below.set_ylim(0, 105)
        below.set_title(t("odds.at_least"))
        if below.lines:
            below.legend(fontsize="x-small", ncol=2)
        fig.suptitle(title)
        fig.tight_layout()
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=DPI)
        return buffer.getvalue()
    finally:
        plt.close(fig)
