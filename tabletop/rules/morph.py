"""Korean morphology for search: content lemmas of a text, so that 나눠서, 나누고 and 나누면 all
index and query as 나누다, and 죽으면 as 죽다.

The analyser is MeCab with mecab-ko-dic (python-mecab-ko, dictionary bundled on PyPI): it loads
in a few hundredths of a second and a few tens of MB, within the console's budgets. The packs'
own terms (행성 보호막, 우주포, 피해 견딤, …) go into a user dictionary compiled next to the
rules database, so that they stay whole instead of being split into ordinary words.
If the analyser cannot be loaded, `lemmas` returns nothing and search falls back to bigrams.
"""

from __future__ import annotations

import csv
import functools
import logging
import re
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

from tabletop.core import text
from tabletop.rules import tokenizing

log = logging.getLogger(__name__)

# Parts of speech that carry a rule's meaning: nouns, roots, foreign words and numbers keep their
# surface; verbs and adjectives become their dictionary form (stem + 다).
NOUN_TAGS = frozenset({"NNG", "NNP", "XR", "SL", "SH", "SN", "UNKNOWN"})
# An auxiliary verb after a verb (엎어놓다's 놓다, 쌓아두다's 두다: VX) marks aspect, not what is
# done, and is no lemma; a VX elsewhere is the analyser's guess at a main verb and is kept.
VERB_TAGS = frozenset({"VV", "VA", "VX"})
# Verbs too common to tell rules apart (하다, 되다, 있다, …): the bigram and noun signals carry
# these questions; as lemmas they would match nearly every rule.
LIGHT_VERBS = frozenset("하다 되다 있다 없다 이다 아니다 같다 보다 주다 가다 오다 말다 지다".split())


_FORMAL_ENDING = re.compile(r"([가-힣])(습)?니다(?![가-힣])")
_FINAL_BIEUP = 17  # the final consonant ㅂ's index among Hangul finals: 굴립 = 굴리 + ㅂ


def plain_ending(sentence: str) -> str:
    """The rulebook's formal statement ending as the dictionary form: 굴립니다 -> 굴리다,
    받습니다 -> 받다, 이동합니다 -> 이동하다. The analyser reads the dictionary form reliably but
    misreads some formal forms as nouns (굴립니다 -> 굴립/NNG), and players write casually, so
    the rules' verbs would not meet the players' verbs."""

    def plain(m: re.Match) -> str:
        syllable, formal = m.group(1), m.group(2)
        if formal:  # 받습니다: the stem is the syllable before 습
            return syllable + "다"
        final = (ord(syllable) - 0xAC00) % 28
        return (chr(ord(syllable) - final) if final == _FINAL_BIEUP else syllable) + "다"

    return _FORMAL_ENDING.sub(plain, sentence)


class Analyzer:
    """Content lemmas of Korean text. One instance per process: MeCab is not free to create."""

    def __init__(self, user_dictionary: Path | None = None):
        self._mecab = None
        try:
            import mecab

            paths = [str(user_dictionary)] if user_dictionary and user_dictionary.exists() else None
            self._mecab = mecab.MeCab(user_dictionary_path=paths)
        except Exception:  # no analyser: search still works on bigrams
            log.warning("Korean morphological analyser unavailable; searching on bigrams only", exc_info=True)

    @property
    def available(self) -> bool:
        return self._mecab is not None

    def morphemes(self, sentence: str) -> list[tuple[str, str]]:
        """(surface or dictionary form, first tag) for each morpheme. Cached: questions repeat
        their words, and the front ends ask the same words again and again."""
        if self._mecab is None or not sentence.strip():
            return []
        return list(self._parse(sentence))

    @functools.lru_cache(maxsize=8192)  # noqa: B019 -- one analyser per process, kept for its life
    def _parse(self, sentence: str) -> tuple[tuple[str, str], ...]:
        if self._mecab is None:
            return ()
        out = []
        for m in self._mecab.parse(plain_ending(sentence)):
            pos = m.feature.pos or ""
            first = pos.split("+")[0]
            if first in VERB_TAGS:
                stem = m.surface
                if m.feature.expression:  # 나눠서 = 나누/VV + 어서/EC: the stem is the first part
                    stem = m.feature.expression.split("/")[0]
                out.append((stem + "다", first))
            else:
                out.append((m.surface, first))
        return tuple(out)

    def lemmas(self, sentence: str) -> list[str]:
        """Content lemmas in order: nouns and roots as written, verbs as 터지다, 먹다."""
        out = []
        after_verb = False  # the last morpheme was a verb, or a verb and its connecting ending
        for form, tag in self.morphemes(text.normalize(sentence)):
            if tag in NOUN_TAGS:
                key = tokenizing.singular(text.key(form))
                if key:
                    out.append(key)
            elif tag in VERB_TAGS and form not in LIGHT_VERBS and not (tag == "VX" and after_verb):
                out.append(form)
            after_verb = tag in VERB_TAGS or (after_verb and tag == "EC")
        return out

    def is_known_word(self, word: str) -> bool:
        """False when the dictionary cannot read the word: a part it does not know, a guessed
        proper noun, or one-syllable noun fragments (폭걱 -> 폭 + ?, 조정갑 -> 조정 + 갑). Such a
        word is a typo to repair; a word it reads (세게, 어디다, 두는) is left alone."""
        parsed = self.morphemes(word)

        def fragment(form: str, tag: str) -> bool:
            return tag in ("UNKNOWN", "NNP") or (tag == "NNG" and len(form) == 1 and len(parsed) > 1)

        return not any(fragment(form, tag) for form, tag in parsed)


def compile_user_dictionary(terms: Iterable[str], target: Path) -> Path | None:
    """Compile the packs' Korean terms into a MeCab user dictionary at `target` (its costs and
    context ids are assigned by the bundled model). Returns None if it could not be built."""
    rows = sorted({t.strip() for t in terms if t and any(text.is_syllable(c) for c in t) and "," not in t})
    source = target.with_suffix(".csv")
    target.parent.mkdir(parents=True, exist_ok=True)
    with source.open("w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f)
        for term in rows:
            last = term.replace(" ", "")[-1]
            has_final = "T" if text.is_syllable(last) and (ord(last) - 0xAC00) % 28 else "F"
            writer.writerow([term, "", "", "", "NNP", "*", has_final, term.replace(" ", ""), "*", "*", "*", "*"])
    try:
        done = subprocess.run(
            [sys.executable, "-m", "mecab", "dict-index", "-f", "utf-8", "-t", "utf-8", "-u", str(target), str(source)],
            capture_output=True,
            timeout=120,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        log.warning("could not compile the user dictionary", exc_info=True)
        return None
    finally:
        source.unlink(missing_ok=True)
    if done.returncode != 0 or not target.exists():
        log.warning("could not compile the user dictionary: %s", done.stderr.decode("utf-8", "replace")[-500:])
        return None
    target.chmod(0o644)
    return target
