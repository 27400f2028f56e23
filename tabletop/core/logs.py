"""One log format for the bot: time, level, logger, guild, command, error id, message.

Guild, command and error id come from context variables that the Discord layer sets for the
interaction being handled, so every line logged while handling it carries them. LOG_LEVEL sets
the level (default INFO). Secrets never reach a log line: the bot token's value, and anything
shaped like a Discord token, is replaced by "[token]" in every record, arguments and tracebacks
included.
"""

from __future__ import annotations

import contextvars
import logging
import re
import sys

from tabletop.core.config import setting

FORMAT = "%(asctime)s %(levelname)s %(name)s guild=%(guild)s command=%(command)s error=%(error_id)s: %(message)s"
# Discord bot tokens: base64 user id, a dot, a timestamp, a dot, an HMAC
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{23,28}\.[A-Za-z0-9_-]{6,7}\.[A-Za-z0-9_-]{27,}")

guild_var: contextvars.ContextVar[str] = contextvars.ContextVar("guild", default="-")
command_var: contextvars.ContextVar[str] = contextvars.ContextVar("command", default="-")
error_var: contextvars.ContextVar[str] = contextvars.ContextVar("error_id", default="-")

_secrets: set[str] = set()


def add_secret(value: str | None) -> None:
    """A value that must never be logged (the token, a database password), whatever its shape;
    shorter ones are too likely to be ordinary words to replace."""
    if value and len(value) >= 8:
        _secrets.add(value)


def redact(text: str) -> str:
    """Every secret out of `text`: a token by its shape first, then the secrets longest first, so
    that a shorter secret inside a longer one (a password made of a token's digits) cannot cut
    it into pieces that no longer match and stay shown."""
    text = TOKEN_SHAPE.sub("[token]", text)
    for secret in sorted(_secrets, key=len, reverse=True):
        text = text.replace(secret, "[token]")
    return text


class ContextAndRedaction(logging.Filter):
    """Adds the interaction's guild, command and error id; takes secrets out of the message."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.guild = guild_var.get()
        record.command = command_var.get()
        record.error_id = getattr(record, "error_id", None) or error_var.get()
        record.msg = redact(record.getMessage())
        record.args = ()
        return True


class RedactingFormatter(logging.Formatter):
    """Redacts the formatted line as well: tracebacks are formatted after the filter runs."""

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record))


def setup(verbose: bool = False, stream=None, quiet: str = "INFO") -> None:
    """Configure the root logger once: the format, the level from LOG_LEVEL (else `quiet`: the
    console, which says its faults as sentences, shows the log's errors only), redaction."""
    level_name = str(setting("log_level")) or ("DEBUG" if verbose else quiet)
    level = logging.getLevelNamesMapping()[level_name]
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(RedactingFormatter(FORMAT))
    handler.addFilter(ContextAndRedaction())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    # the pool retries a lost server every second or so, each time with libpq's multi-line
    # message; the state store logs the same fault itself, once per outage, in one line
    logging.getLogger("psycopg.pool").setLevel(max(level, logging.ERROR))
