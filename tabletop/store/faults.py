"""Why the store failed, as a cause the user can act on, in their language.

The drivers (libpq, SQLite) and the OS explain a failure in English, sometimes with the whole
connection URL in it. Users are told the cause from a short list instead, rendered in the
asker's language; the driver's own words, with any password hidden, go to the log only.
"""

from __future__ import annotations

import logging
import re
import sqlite3
from urllib.parse import quote, unquote

from tabletop.core.i18n import Sentence, sentence

log = logging.getLogger(__name__)

# The causes a user or an admin can act on, each recognised by what the driver says (libpq and
# SQLite write English whatever the locale). Checked in order: the first that matches names it.
_CAUSES = (
    # a server shutting down, starting or recovering answers connects with this, and cuts the
    # sessions it had (a restart: neither the address nor the network is wrong)
    (
        "restarting",
        r"the database system is (?:shutting down|starting up|in recovery mode|not accepting connections)"
        r"|terminating connection due to administrator command|cannot connect now",
    ),
    ("auth", r"password authentication failed|no password supplied|role \"[^\"]*\" does not exist|authentication failed"),
    ("no_database", r"database \"[^\"]*\" does not exist"),
    ("not_allowed", r"pg_hba\.conf"),
    # a connection cut (an SSL one too: "SSL SYSCALL error: EOF detected") is no SSL setting
    (
        "lost",
        r"server closed the connection|consuming input failed|connection is lost|terminating connection"
        r"|SSL SYSCALL error|SSL connection has been closed unexpectedly",
    ),
    ("ssl", r"\bSSL\b"),
    (
        "unreachable",
        r"Connection refused|could not translate host name|Name or service not known|No route to host"
        r"|Network is unreachable|No such file or directory|could not connect",
    ),
    ("timeout", r"timeout expired|timed out|couldn't get a connection after"),
    ("disk_full", r"database or disk is full|No space left on device"),
    ("busy", r"database is locked|database table is locked"),
    ("read_only", r"readonly database|Read-only file system"),
    ("io", r"disk I/O error"),
    ("damaged", r"file is not a database|database disk image is malformed"),
    ("cannot_open", r"unable to open database file"),
)
_MATCHERS = tuple((key, re.compile(pattern, re.IGNORECASE)) for key, pattern in _CAUSES)


class NotAFile(OSError):
    """The path names something that is not a regular file (/dev/null)."""


class ParentIsAFile(OSError):
    """A folder on the way to the path is a file."""


_OS_CAUSES: tuple[tuple[type[BaseException], str], ...] = (
    (IsADirectoryError, "is_directory"),
    (NotAFile, "not_a_file"),
    (ParentIsAFile, "parent_is_file"),
    (PermissionError, "permission"),
)


def cause_of(exc: BaseException) -> str:
    """The cause's name ('auth', 'disk_full', …), or 'other' when the message says none."""
    for kind, key in _OS_CAUSES:
        if isinstance(exc, kind):
            return key
    text = str(exc)
    for key, pattern in _MATCHERS:
        if pattern.search(text):
            return key
    return "other"


def cause(exc: BaseException) -> Sentence:
    """The cause as a sentence for users (`logged` gives admins the driver's words)."""
    return sentence(f"state.cause.{cause_of(exc)}")


def logged(exc: BaseException, where: str) -> None:
    """The driver's own words, first line, passwords hidden: for the admin, in the log."""
    log.warning("state store %s: %s: %s", where, type(exc).__name__, hide_passwords(first_line(exc)))


def is_damaged(exc: BaseException) -> bool:
    return isinstance(exc, sqlite3.DatabaseError) and cause_of(exc) == "damaged"


def first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


# A URL's user:password@ and a conninfo's password=…, wherever they appear in a text. The mask
# is no markdown (*** would turn bold in a chat and vanish).
# A password may itself hold @, : or / (typed unencoded): it runs to the last @ before the query.
_URL_PASSWORD = re.compile(r"(://[^:/@?\s]*):[^\s?]*@")
_KEYWORD_PASSWORD = re.compile(r"(password\s*=\s*)('[^']*'|[^&\s]*)", re.IGNORECASE)
MASK = "•••"


def passwords_in(url: str) -> set[str]:
    """The password a URL or conninfo carries, as written and percent-decoded."""
    found = {m.group(0).split(":", 1)[1][:-1] for m in re.finditer(r"(?<=://)[^:/@?\s]*:[^\s?]*@", url)}
    found |= {m.group(2).strip("'") for m in _KEYWORD_PASSWORD.finditer(url)}
    return {form for secret in found if secret for form in (secret, unquote(secret))}


def unambiguous(url: str) -> str:
    """A postgresql:// URL whose user and password are percent-encoded, the password running to
    the last @ before the query: a driver reading 'alice:my@Secret@host' would take 'my' for the
    password and 'Secret@host' for the host, and quote that host in its errors."""
    scheme, sep, rest = url.partition("://")
    before_query, _, query = rest.partition("?")
    at = before_query.rfind("@")
    if not sep or at < 0:
        return url
    user, colon, password = before_query[:at].partition(":")
    userinfo = quote(unquote(user), safe="") + (":" + quote(unquote(password), safe="") if colon else "")
    return f"{scheme}://{userinfo}@{before_query[at + 1 :]}" + (f"?{query}" if query else "")


def hide_passwords(text: str) -> str:
    """The text with every password in a URL or a conninfo replaced by the mask."""
    text = _URL_PASSWORD.sub(rf"\1:{MASK}@", text)
    return _KEYWORD_PASSWORD.sub(rf"\1{MASK}", text)
