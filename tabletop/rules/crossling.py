"""Reading Japanese kanji words in Korean, so that a question and a rulebook in the two
languages share words without a dictionary of the game.

Japanese and Korean share most of their Sino vocabulary: 爆撃 is 폭격, 議長 is 의장, 増援 is 증원,
地上戦 is 지상전. Each kanji has a Korean reading (data/kanji_readings.tsv, 27,497 kanji with the
Japanese simplified forms 戦, 撃, 増, from the `hanja` package's table: see tools/kanji_readings.py),
so a run of kanji read syllable by syllable, with the initial sound law (領土 is 영토), is more
often than not the Korean word. Search reads a question's kanji this way before matching it
against a Korean pack, and a Japanese pack's text this way when its index is built, so Korean
questions reach Japanese rules by the same words. A reading that is not the Korean word (惑星 is
혹성, where Korean rules say 행성) simply matches nothing.
"""

from __future__ import annotations

import functools
import re

from tabletop.core.paths import DATA_DIR

# Two or more kanji (with 々, the repeat mark): a single kanji is mostly a counter or a verb's
# stem (枚, 超えて) whose reading is a syllable that would match anything.
_KANJI_RUN = re.compile(r"[\u4e00-\u9fff\u3400-\u4dbf\uf900-\ufaff々]{2,}")


READINGS = DATA_DIR / "kanji_readings.tsv"


@functools.cache
def _table() -> dict[str, str]:
    """Kanji -> its Korean reading, loaded on first use (27,497 kanji, about 10 ms)."""
    table: dict[str, str] = {}
    try:
        lines = READINGS.read_text(encoding="utf-8").splitlines()
    except OSError:  # a damaged install: no readings, and search works without them
        return table
    for line in lines:
        reading, _, kanji = line.partition("\t")
        if kanji and not line.startswith("#"):  # a malformed line is skipped, not fatal
            table.update(dict.fromkeys(kanji, reading))
    return table


# The initial sound law (두음법칙): a word does not start with ㄹ, nor with ㄴ before ㅣ or a
# y-vowel (ㅑ ㅕ ㅖ ㅛ ㅠ), as Korean writes Sino words: 領 alone is 령, 領土 is 영토.
_Y_VOWELS = frozenset({2, 6, 7, 12, 17, 20})  # ㅑ ㅕ ㅖ ㅛ ㅠ ㅣ, as jungseong indexes
_RIEUL, _NIEUN, _IEUNG = 5, 2, 11  # choseong indexes


def _word_initial(syllable: str) -> str:
    code = ord(syllable) - 0xAC00
    lead, vowel, tail = code // 588, (code % 588) // 28, code % 28
    if lead == _RIEUL:
        lead = _IEUNG if vowel in _Y_VOWELS else _NIEUN
    elif lead == _NIEUN and vowel in _Y_VOWELS:
        lead = _IEUNG
    return chr(0xAC00 + lead * 588 + vowel * 28 + tail)


@functools.lru_cache(maxsize=4096)
def _read(run: str) -> str:
    """One kanji word's Korean reading ('' when the table lacks one of its kanji)."""
    table = _table()
    syllables: list[str] = []
    for ch in run:
        repeat = syllables and ch == "々"  # 々 repeats the kanji before it
        reading = syllables[-1] if repeat else table.get(ch)
        if reading is None:
            return ""
        syllables.append(reading)
    syllables[0] = _word_initial(syllables[0])
    return "".join(syllables)


def hangul_reading(text: str) -> str:
    """The Korean readings of the text's kanji words, space-separated ('' when it has none)."""
    if not _KANJI_RUN.search(text):
        return ""
    return " ".join(r for r in (_read(m.group()) for m in _KANJI_RUN.finditer(text)) if r)


def with_reading(text: str) -> str:
    """The text followed by the Korean readings of its kanji words (the text alone without any)."""
    reading = hangul_reading(text)
    return f"{text}\n{reading}" if reading else text


def _in_script(ch: str, language: str) -> bool:
    if language == "ko":
        return "\uac00" <= ch <= "\ud7a3" or "\u3131" <= ch <= "\u318e"
    if language == "ja":
        return "\u3040" <= ch <= "\u30ff" or "\u4e00" <= ch <= "\u9fff" or "\uff66" <= ch <= "\uff9f"
    return ch.isascii()


def foreign_share(text: str, language: str) -> float:
    """The share of a question's letters that are not in the script of the pack's language (0
    for a Korean question about a Korean pack, 1 for an English or Japanese one): the words can
    say little about a question the rules are not written in, and the answer decision knows it."""
    letters = [ch for ch in text if ch.isalpha()]
    if not letters:
        return 0.0
    return sum(not _in_script(ch, language) for ch in letters) / len(letters)
