"""Search's tokens: a text as syllable bigrams and words, Korean particles dropped from a
question's words, Japanese split where its script changes, the words a question may skip.
The database build, the lexical ranker and the website's index all read text through these."""

from __future__ import annotations

import re

from tabletop.core.text import is_syllable, key, normalize


def _is_cjk(ch: str) -> bool:
    cp = ord(ch)
    return (
        is_syllable(ch)
        or 0x3040 <= cp <= 0x30FF  # hiragana, katakana
        or 0x3400 <= cp <= 0x9FFF  # CJK ideographs
        or 0xF900 <= cp <= 0xFAFF
    )


# Korean particles and endings that stick to nouns; a trailing one is also indexed without it.
_PARTICLES = sorted(
    "은 는 이 가 을 를 의 에 에서 으로 로 와 과 도 만 까지 부터 에게 한테 이나 나 이랑 랑 "
    "하고 처럼 보다 마다 조차 이면 으면 면 이야 야 인가 인가요 이에요 예요 입니다 해 해요 할 함 "
    "나요 니 냐 죠 지 요 어 아 해도 어도 아도 으니 는데 은데 인데 려면 으려면".split(),
    key=len,
    reverse=True,
)


def _word_runs(text: str) -> list[tuple[str, str]]:
    """Split normalised text into (kind, run) pairs: kind 'cjk' or 'word' (ASCII, digits)."""
    runs: list[tuple[str, str]] = []
    current: list[str] = []
    kind: str | None = None
    for ch in text:
        k = "cjk" if _is_cjk(ch) else ("word" if ch.isalnum() else None)
        if k != kind and current and kind:
            runs.append((kind, "".join(current)))
            current = []
        kind = k
        if k:
            current.append(ch)
    if current and kind:
        runs.append((kind, "".join(current)))
    return runs


def tokens(text: str, query: bool = False) -> tuple[list[str], list[str]]:
    """Tokens of a text as (bigrams and words, unigrams).

    Korean sticks particles to nouns and most nouns are two syllables, so a CJK run is indexed
    as its syllable bigrams; single syllables go in a separate, lower-weighted list. ASCII words
    and numbers are words. For a query, a trailing particle or ending is dropped first, so that
    "무역품으로" asks for 무역·역품 and not for the noise bigram 으로.
    """
    big: list[str] = []
    uni: list[str] = []
    for kind, run in _word_runs(normalize(text)):
        if kind == "word":
            big.append(singular(run))
            continue
        if query:
            run = strip_particle(run)
            segments = japanese_segments(run)
            if segments and any(_script(c) != "other" for c in run):
                for seg in segments:
                    if _script(seg[0]) == "hiragana" and len(seg) <= 2:
                        continue  # a particle: の, は, を, から …
                    uni.extend(seg)
                    big.extend(seg[i : i + 2] for i in range(len(seg) - 1))
                continue
        uni.extend(run)
        big.extend(run[i : i + 2] for i in range(len(run) - 1))
    return big, uni


# Question and function words that say nothing about which rule is meant.
STOPWORDS = frozenset(
    "어떻게 어떻 떻게 언제 무엇 뭐 뭘 왜 어디 누가 누구 몇 가능 가능한 가능해 있나 있어 있나요 있음 "
    "없나 되나 돼 됨 되나요 하나 하나요 수 때 경우 하면 그리고 그럼 만약 혹시 정말 규칙 룰 뭐라고 뭐라 부르다 "
    "뭐뭐 무슨 차이 "
    "what when how why where who which is are was the a an can do does did i you it of to in on "
    "for with and or if rule rules".split()
)


def singular(word: str) -> str:
    """An English plural's singular, the cheap way (votes -> vote, outcomes -> outcome), so that
    a question's plural meets the rules' singular. Short words and -ss words are left alone."""
    if len(word) > 3 and word.isascii() and word.isalpha() and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def _script(ch: str) -> str:
    cp = ord(ch)
    if 0x3040 <= cp <= 0x309F:
        return "hiragana"
    if 0x30A0 <= cp <= 0x30FF:
        return "katakana"
    if 0x3400 <= cp <= 0x9FFF or 0xF900 <= cp <= 0xFAFF:
        return "kanji"
    return "other"


def japanese_segments(word: str) -> list[str]:
    """A Japanese word split where the script changes (借金の返済 -> 借金 | の | 返済): a cheap
    stand-in for word boundaries, since particles are hiragana between kanji and katakana."""
    if not any(_script(c) in ("hiragana", "katakana", "kanji") for c in word):
        return []
    segments, current, kind = [], "", None
    for ch in word:
        k = _script(ch)
        if k != kind and current:
            segments.append(current)
            current = ""
        kind = k
        current += ch
    if current:
        segments.append(current)
    return segments


def word_keys(text_: str) -> list[str]:
    """The keys of a text's words, for `contains_word`."""
    return [key(w) for w in normalize(text_).split()]


def contains_word(keys: list[str], phrase_key: str) -> bool:
    """True when a phrase (as a key) stands among a text's word keys as whole words: it starts a
    word and ends one, or is followed only by a particle or ending (스페이스독에서, 인프를), so that
    타이 is not read inside 타이머. Spaces inside the phrase do not matter (캐리어 / 캐 리어)."""
    return phrase_words(keys, phrase_key) is not None


def phrase_words(keys: list[str], phrase_key: str) -> tuple[int, int] | None:
    """The first and last index of the words that make up the phrase, as `contains_word` finds
    it (the last word may carry a particle), or None."""
    for start in range(len(keys)):
        joined = ""
        for end in range(start, len(keys)):
            joined += keys[end]
            if joined.startswith(phrase_key):
                rest = joined[len(phrase_key) :]
                if not rest or strip_particle(phrase_key + rest) == phrase_key or rest in ENDINGS:
                    return start, end
            if len(joined) >= len(phrase_key):
                break
    return None


def without_name(query: str, name: str) -> str | None:
    """The question with a name taken out, when the name stands in it: as whole words (a
    particle may follow: 갤럭시 트러커에서), or anywhere for a name in kana (Japanese is written
    without spaces); None when it does not."""
    name_key = key(name)
    if not name_key:
        return None
    norm = normalize(query)
    if any("\u3040" <= c <= "\u30ff" for c in name_key):
        pattern = re.compile(r"[\W_]*".join(map(re.escape, name_key)), re.IGNORECASE)
        found = pattern.search(norm)
        return norm[: found.start()] + " " + norm[found.end() :] if found else None
    words = norm.split()
    keys = [key(w) for w in words]
    span = _latin_words(keys, name) if name.isascii() else phrase_words(keys, name_key)
    return " ".join(words[: span[0]] + words[span[1] + 1 :]) if span else None


def _latin_words(keys: list[str], name: str) -> tuple[int, int] | None:
    """A name in Latin letters stands as its own words, split as it is ('lift off' is not
    Liftoff), the last one perhaps with a Korean particle (Liftoff에서)."""
    parts = [k for k in (key(w) for w in normalize(name).split()) if k]
    for start in range(len(keys) - len(parts) + 1):
        window = keys[start : start + len(parts)]
        if window[:-1] == parts[:-1] and parts[-1] in (window[-1], strip_particle(window[-1])):
            return start, start + len(parts) - 1
    return None


# What may follow a noun inside one written word besides a particle: 하다 and 되다 forms.
ENDINGS = frozenset("하다 하는 한 할 해 해서 했 했는데 하면 하고 됨 된 될 되면 돼 임 이다 인 일".split())


def strip_particle(word: str) -> str:
    """Drop one trailing Korean particle or verb ending. A one-syllable ending is only dropped
    from words of three syllables or more, so that 피해 and 플레이어 keep their last syllable
    when it is part of the noun."""
    for p in _PARTICLES_BY_LAST.get(word[-1:], ()):
        if word.endswith(p) and len(word) - len(p) >= (1 if len(p) >= 2 else 2):
            return word[: -len(p)]
    return word


PARTICLES = tuple(_PARTICLES)  # longest first: for readers of the same rule elsewhere (the site's search)
_PARTICLES_BY_LAST: dict[str, list[str]] = {}
for _p in _PARTICLES:  # longest first within each final syllable, as _PARTICLES is sorted
    _PARTICLES_BY_LAST.setdefault(_p[-1], []).append(_p)
