"""Text normalisation for Korean, Japanese and English: names, rules text and typed input all go
through these few functions so that "피해견딤", "피해 견딤" and "ＰＤＳ" compare equal everywhere
(search's tokenising is the rules' own: tabletop/rules/tokenizing.py).
"""

from __future__ import annotations

import re
import unicodedata

# Steps are numbered i., ii., iii. … as the TI4 glossary numbers them: every view (answers, the
# website, the fidelity check, the importer) writes and reads them from this one list.
ROMAN = ("i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii", "xiii", "xiv", "xv")

_HANGUL_FIRST, _HANGUL_LAST = 0xAC00, 0xD7A3
_CHOSEONG = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ"
_JUNGSEONG = "ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ"
_JONGSEONG = ["", *"ㄱㄲㄳㄴㄵㄶㄷㄹㄺㄻㄼㄽㄾㄿㅀㅁㅂㅄㅅㅆㅇㅈㅊㅋㅌㅍㅎ"]

# NFKC turns compatibility jamo (ㄱ, U+3131) into conjoining jamo (U+1100). Where such a jamo is
# left standing alone, map it back so that "ㅍㄱ" stays the initial-consonant query it was.
_CONJOINING_TO_COMPAT: dict[str, str] = {}
for _cp in range(0x3131, 0x318F):
    _decomposed = unicodedata.normalize("NFKC", chr(_cp))
    if len(_decomposed) == 1 and _decomposed != chr(_cp):
        _CONJOINING_TO_COMPAT.setdefault(_decomposed, chr(_cp))

_CONJOINING_RE = re.compile("[\u1100-\u11ff]")
_SPACE_RE = re.compile(r"\s+")
_KEY_DROP_RE = re.compile(r"[\W_]+", re.UNICODE)
# Control characters, zero-width marks and bidirectional overrides and isolates: typed into a
# name, a unit list or a dice expression they would reorder or hide the text around them; shown
# on a terminal they could recolour or reorder it. One list; a tab and a line break are kept
# where text is laid out in lines (render.harmless).
UNSAFE_CHARS = "\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff"
_CONTROL_RE = re.compile(f"[\t\n{UNSAFE_CHARS}]")


def without_controls(text: str) -> str:
    """The text with each control, zero-width or bidirectional mark made a space."""
    return _CONTROL_RE.sub(" ", text)


def normalize(text: str) -> str:
    """NFKC (full-width to half-width, composed Hangul), lower case, single spaces."""
    text = _CONTROL_RE.sub(" ", text)
    text = unicodedata.normalize("NFKC", text)
    if _CONJOINING_RE.search(text):
        text = "".join(_CONJOINING_TO_COMPAT.get(ch, ch) for ch in text)
    return _SPACE_RE.sub(" ", text).strip().lower()


def key(text: str) -> str:
    """A comparison key: normalised, with spaces and punctuation removed."""
    return _KEY_DROP_RE.sub("", normalize(text))


def is_syllable(ch: str) -> bool:
    return _HANGUL_FIRST <= ord(ch) <= _HANGUL_LAST


def decompose(text: str) -> str:
    """Hangul syllables into compatibility jamo ("폭격" -> "ㅍㅗㄱㄱㅕㄱ"); other characters kept."""
    out = []
    for ch in text:
        if is_syllable(ch):
            offset = ord(ch) - _HANGUL_FIRST
            out.append(_CHOSEONG[offset // 588])
            out.append(_JUNGSEONG[(offset % 588) // 28])
            out.append(_JONGSEONG[offset % 28])
        else:
            out.append(ch)
    return "".join(out)


def initials(text: str) -> str:
    """Initial consonants of each syllable ("행성 보호막" -> "ㅎㅅㅂㅎㅁ"); spaces dropped."""
    out = []
    for ch in key(text):
        if is_syllable(ch):
            out.append(_CHOSEONG[(ord(ch) - _HANGUL_FIRST) // 588])
        else:
            out.append(ch)
    return "".join(out)


def is_initials_query(text: str) -> bool:
    """True when the text is made only of initial consonants (and spaces): "ㅎㅅ ㅂㅎㅁ"."""
    k = key(text)
    return bool(k) and all(ch in _CHOSEONG for ch in k)


# Characters that draw nothing though Unicode counts them as letters or marks: the Hangul fillers,
# the braille blank, the combining grapheme joiner.
_BLANK_LETTERS = frozenset("\u3164\u115f\u1160\uffa0\u2800\u034f")


def visible(name: str) -> bool:
    """Whether a name shows anything: not only spaces, controls, zero-width or bidirectional
    marks, combining marks or blank letters (two such names could not be told apart)."""
    categories = (unicodedata.category(ch) for ch in name if ch not in _BLANK_LETTERS)
    return any(c[0] not in "CZ" and c not in ("Mn", "Me") for c in categories)


_SURROGATE_RE = re.compile("[\ud800-\udfff]")


def undecodable(text: str) -> bool:
    """Whether text read from a terminal, a pipe or the command line held bytes that are not
    UTF-8 (Python keeps each as a lone surrogate): a file saved in CP949 or Shift JIS, a
    terminal set to another encoding. Such text is refused whole, never guessed at."""
    return bool(_SURROGATE_RE.search(text))


def printable(value: object) -> str:
    """A value shown inside a sentence (a path, a name typed): control characters as escapes
    (\\n, \\x00), so the message stays the one line it is."""
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in str(value))
