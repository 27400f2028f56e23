"""UI strings in Korean (default), English and Japanese, from one catalogue per locale.

The catalogues are flat JSON files, `locales/<locale>.json`, key -> text with `{name}`
placeholders: a format translation tools (Weblate, Crowdin, Lokalise) read and write as
"key-value JSON" with no compile step, and one a reviewer can diff. Keys starting with `cmd.`,
`opt.` and `choice.` name application commands, options and choices for Discord's Translator;
the rest are messages. Rules text is never translated here.
"""

from __future__ import annotations

import json
import re
import string
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from pathlib import Path

LOCALES = ("ko", "en", "ja")
DEFAULT_LOCALE = "ko"
CATALOGUE_DIR = Path(__file__).with_name("locales")
# Discord locales we localise into, and the language each maps to.
DISCORD_LOCALES = {"ko": "ko", "ja": "ja", "en-US": "en", "en-GB": "en"}


# The language of the request being answered: set once per interaction, console line or command
# line by the front end (`speaking`), read by every message below it, never passed around.
LOCALE: ContextVar[str] = ContextVar("locale", default=DEFAULT_LOCALE)


def current() -> str:
    """The language of the request being answered: 'ko' | 'en' | 'ja'."""
    return LOCALE.get()


@contextmanager
def speaking(locale: object | None) -> Iterator[str]:
    """Answer in this language within the block (a Discord locale like 'en-US' is fine)."""
    token = LOCALE.set(lang(locale))
    try:
        yield LOCALE.get()
    finally:
        LOCALE.reset(token)


def lang(locale: object | None) -> str:
    """'en-US', 'en-GB', Locale.japanese, None … -> 'ko' | 'en' | 'ja'."""
    value = str(getattr(locale, "value", locale) or DEFAULT_LOCALE).lower()
    return value[:2] if value[:2] in LOCALES else DEFAULT_LOCALE


@cache
def catalogue(locale: str) -> dict[str, str]:
    """One locale's strings, read once."""
    with (CATALOGUE_DIR / f"{locale}.json").open(encoding="utf-8") as f:
        data: dict[str, str] = json.load(f)
    return data


# Korean particles that depend on whether the word before ends in a consonant: `{name:을}`
# writes 을 after 선출권 and 를 after 의장 선출 (으로 also minds ㄹ: 행성으로, 결로).
_PARTICLES = {
    "을": ("을", "를"),
    "이": ("이", "가"),
    "은": ("은", "는"),
    "과": ("과", "와"),
    "으로": ("으로", "로"),
    "이에요": ("이에요", "예요"),
}
_DIGIT_FINAL = dict(zip("0123456789", "ㅇㄹ ㅁ  ㄱㄹㄹ "))  # 영 일 이 삼 사 오 육 칠 팔 구


def _final_consonant(word: str) -> str | None:
    """The last sound's final consonant ('' for a vowel), or None when it cannot be told."""
    word = re.sub(r"\s*\([^()]*\)$", "", word.strip())  # 의장 (Speaker): the particle follows 의장
    last = word.rstrip(" ]」』'\"")[-1:]
    if not last:
        return None
    if "가" <= last <= "힣":
        code = (ord(last) - 0xAC00) % 28
        return "" if code == 0 else "ㄹ" if code == 8 else "ㅇ"  # ㅇ stands for any other final
    if last.isdigit():
        return _DIGIT_FINAL.get(last, " ").strip()
    if last.isascii() and last.isalpha():
        return "ㄹ" if last.lower() in "lr" else "ㅇ" if last.lower() in "mn" else ""
    return None


class _Formatter(string.Formatter):
    def format_field(self, value: object, format_spec: str) -> str:
        if format_spec in _PARTICLES:
            word = str(value)
            final = _final_consonant(word)
            with_final, without = _PARTICLES[format_spec]
            if final is None:
                return f"{word}{with_final}({without})"
            if format_spec == "으로" and final == "ㄹ":
                return word + without
            return word + (with_final if final else without)
        return super().format_field(value, format_spec)


_FORMATTER = _Formatter()


def t(key: str, locale: object | None = None, **values: object) -> str:
    """The text for `key` in the request's language (or `locale`, for text stored in another:
    an agenda's message), Korean when a locale lacks it, filled in."""
    text = catalogue(lang(locale) if locale is not None else LOCALE.get()).get(key) or catalogue(DEFAULT_LOCALE)[key]
    return _FORMATTER.format(text, **values) if values else text


@dataclass(frozen=True)
class Sentence:
    """A message kept as its key and values and rendered when read: a fault noticed once (at
    start, or by another user's request) is told to each asker in their own language."""

    key: str
    values: tuple[tuple[str, object], ...] = ()

    def __str__(self) -> str:
        return t(self.key, **dict(self.values))


def sentence(key: str, **values: object) -> Sentence:
    return Sentence(key, tuple(values.items()))


def command_text(key: str, language: str) -> str | None:
    """An application command's, option's or choice's name or description, or None."""
    return catalogue(language).get(key) if language in LOCALES else None
