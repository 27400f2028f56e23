"""Tests speak through the catalogue's keys: `said(key, text)` is true when `text` holds the message
for `key`, so a test asserts *which* message the user got, not a copy of its wording, and
rewording a message in tabletop/core/locales/*.json changes that file alone.

The message is read from the catalogue in the locale given (Korean by default, as the bot
answers) and filled in as `t()` fills it in (Korean particles included) with the values given;
a placeholder not given matches any text, so a test names only the values it knows. A space in
the message matches any run of whitespace, as a terminal wraps a long line."""

from __future__ import annotations

import re
import string

from tabletop.core.i18n import _FORMATTER, catalogue, lang


def pattern(key: str, locale: str = "ko", **values: object) -> re.Pattern[str]:
    """The message for `key` as a regular expression: its literal parts as written (a space
    as any whitespace), each placeholder the value given (formatted as `t()` formats it) or,
    when not given, any text."""
    template = catalogue(lang(locale)).get(key) or catalogue("ko")[key]
    parts = []
    for literal, name, spec, conversion in string.Formatter().parse(template):
        parts.append(r"\s+".join(re.escape(word) for word in re.split(r"\s+", literal)))
        if name is None:
            continue
        if name in values:
            value = _FORMATTER.convert_field(values[name], conversion)
            parts.append(re.escape(_FORMATTER.format_field(value, spec or "")))
        else:
            parts.append(".*?")
    return re.compile("".join(parts), re.DOTALL)


def said(key: str, text: object, locale: str = "ko", **values: object) -> bool:
    """True when `text` (a reply, an error's message, a log line: anything str() reads) holds
    the message for `key` in `locale`, with the values given and any text for the rest."""
    return pattern(key, locale, **values).search(str(text)) is not None
