"""The odds as a picture: bars of the outcome probabilities and of each side's survivor count,
and the chance that at least k of each kind of unit survive.

Drawn with matplotlib (the Agg backend: no screen) in a Korean font that koreanize-matplotlib
ships, so Korean labels render on any machine without system fonts; kanji and kana, which that
font lacks, come from a Japanese font where the system has one (tools/system-packages and the
image install IPAGothic).
"""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path

from tabletop.combat.battle import ATTACKER, DEFENDER
from tabletop.combat.odds import Odds
from tabletop.combat.outcome import NOISE, percent
from tabletop.core.i18n import t

WIDTH_PX, HEIGHT_PX, DPI = 960, 540, 96  # a 16:9 picture that Discord shows whole
COLORS = {ATTACKER: "#d9534f", DEFENDER: "#3b6ea5", "draw": "#8a8a8a"}
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
# Each glyph from the first of these that has it: Hangul from NanumGothic, kanji and kana from a
# Japanese font, the rest (digits, ≥) from matplotlib's own DejaVu Sans.
FONTS = ["NanumGothic", "IPAGothic", "Noto Sans CJK JP", "DejaVu Sans"]
# their files, added by path: matplotlib's font cache may predate the font's installation
JAPANESE_FONT_FILES = {"ipag.ttf", "NotoSansCJK-Regular.ttc"}


@cache
def _pyplot():
    """matplotlib set up once: no screen, a font with Hangul."""
    import matplotlib

    matplotlib.use("Agg")
    import koreanize_matplotlib  # noqa: F401  (registers NanumGothic as the default font)
    import matplotlib.pyplot as plt
    from matplotlib import font_manager

    for path in font_manager.findSystemFonts():
        if Path(path).name in JAPANESE_FONT_FILES:
            font_manager.fontManager.addfont(path)
    installed = {f.name for f in font_manager.fontManager.ttflist}
    matplotlib.rcParams["font.family"] = [name for name in FONTS if name in installed]

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
        for label, side, marker, chances in at_least_series(odds):
            style = "-" if side == ATTACKER else "--"
            ks = range(1, len(chances) + 1)
            below.plot(ks, [p * 100 for p in chances], style, marker=marker, color=COLORS[side], label=label)
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


def at_least_series(odds: Odds) -> list[tuple[str, str, str, list[float]]]:
    """The lines of the "at least k" panel: (label, side, marker, chances). Both sides may have
    the same kind of unit, so each label names its side; a kind that never survives is left out."""
    series = []
    for side in (ATTACKER, DEFENDER):
        kinds = [(name, chances) for name, chances in odds.at_least(side).items() if chances[0] >= NOISE]
        for i, (name, chances) in enumerate(kinds):
            marker = MARKERS[i % len(MARKERS)]  # one colour per side, a marker per kind of unit
            series.append((f"{name} ({t(f'combat.{side}')})", side, marker, chances))
    return series
