"""UI strings in Korean (default), English and Japanese, from one catalogue per locale.

The catalogues are flat JSON files, `locales/<locale>.json`, key -> text with `{name}`
placeholders: a format translation tools (Weblate, Crowdin, Lokalise) read and write as
"key-value JSON" with no compile step, and one a reviewer can diff. Keys starting with `cmd.`,
`opt.` and `choice.` name application commands, options and choices for Discord's Translator;
the rest are messages. Rules text is never translated here.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

LOCALES = ("ko", "en", "ja")
DEFAULT_LOCALE = "ko"
CATALOGUE_DIR = Path(__file__).with_name("locales")
# Discord locales we localise into, and the language each maps to.
DISCORD_LOCALES = {"ko": "ko", "ja": "ja", "en-US": "en", "en-GB": "en"}


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


def t(key: str, locale: object | None = DEFAULT_LOCALE, **values: object) -> str:
    """The text for `key` in the user's language (Korean when a locale lacks it), filled in."""
    text = catalogue(lang(locale)).get(key) or catalogue(DEFAULT_LOCALE)[key]
    return text.format(**values) if values else text


def command_text(key: str, language: str) -> str | None:
    """An application command's, option's or choice's name or description, or None."""
    return catalogue(language).get(key) if language in LOCALES else None
