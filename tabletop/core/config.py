"""The bot's settings from its environment, declared, read and checked in one place.

Every variable the product reads is one row of `VARIABLES`, with its default and why; `load()`
reads them all and turns a value that cannot be used into one sentence naming the variable and
what it takes, so no command fails later on `int("abc")`. The command line's own choices (like
`--state`) are `use()`d on top, never written back into the environment. Read per call (it is
cheap), so a test that sets a variable sees it at once.
"""

from __future__ import annotations

import logging
import os
import re
import stat
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from pathlib import Path

from tabletop.core.errors import UserError
from tabletop.core.i18n import t
from tabletop.core.paths import DATA_DIR, RULES_DIR


class ConfigError(UserError):
    """A variable holds a value the bot cannot use: the sentence names it and what it takes."""


@dataclass(frozen=True)
class Config:
    rules_dir: Path  # the rule packs (rules/ in the checkout)
    rules_db: Path
    state_db: str  # a file path or a postgresql:// URL
    state_pool_size: int
    heavy_processes: int  # 0: heavy work in the serving process's threads (core.offload)
    log_level: str  # empty: INFO, or DEBUG with --verbose
    embeddings_cache: Path
    rules_site_url: str  # empty: replies carry no link to the website
    heartbeat_file: str  # empty: beside the state file (see cogs.lifecycle)
    state_home: Path  # the console keeps its history under it (the XDG state directory)
    discord_token: str  # empty: the bot cannot connect; the console needs none
    message_content: bool  # ask Discord for message text (chat mode in every message); a privileged intent
    shard_count: str  # empty: Discord's recommended count (read by cogs.client.shard_settings)
    shard_ids: str  # empty: every shard in this process


def _path(name: str, text: str) -> Path:
    if "\0" in text:
        raise ConfigError(t("config.bad_path", name=name))
    return Path(text)


def _kind(path: Path) -> str:
    """'missing', 'file', 'folder', 'other' (a device, a fifo) or 'hidden' (a parent we may not
    search: whoever reads it says so then)."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return "missing"
    except NotADirectoryError:
        return "other"  # a parent is a file: the caller names it
    except OSError:
        return "hidden"
    return "file" if stat.S_ISREG(mode) else "folder" if stat.S_ISDIR(mode) else "other"


def _file(name: str, text: str) -> Path:
    """A file the bot writes and renames into place (the rules database, the vector cache): it
    must be a regular file or not yet exist, in a folder (a rename over /dev/null replaced the
    device, and a fifo hung the first read)."""
    path = _path(name, text)
    kind = _kind(path)
    if kind in ("folder", "other"):
        parent = next((p for p in path.parents if _kind(p) not in ("missing", "other")), None)
        if kind == "other" and parent is not None and _kind(parent) == "file":
            raise ConfigError(t("config.parent_not_folder", name=name, path=text[:200], parent=str(parent)[:200]))
        raise ConfigError(t("config.not_a_file", name=name, path=text[:200]))
    return path


def _folder(name: str, text: str) -> Path:
    """A folder the bot reads (the rule packs): a file there is refused; a folder not yet made
    is said when the packs are read (`pack import` makes it)."""
    path = _path(name, text)
    if _kind(path) in ("file", "other"):
        raise ConfigError(t("config.not_a_folder", name=name, path=text[:200]))
    return path


def _count(low: int, high: int) -> Callable[[str, str], int]:
    def read(name: str, text: str) -> int:
        if not re.fullmatch(r"[0-9]+", text.strip()) or not low <= int(text) <= high:  # not "²" or "٣"
            raise ConfigError(t("config.bad_count", name=name, value=text[:20], low=low, high=high))
        return int(text)

    return read


def _optional(read: Callable[[str, str], object]) -> Callable[[str, str], str]:
    """A variable that may be left empty, else must read as `read` takes it: kept as text."""

    def check(name: str, text: str) -> str:
        if text.strip():
            read(name, text.strip())
        return text.strip()

    return check


def _level(name: str, text: str) -> str:
    level = text.strip().upper()
    if level and level not in logging.getLevelNamesMapping():
        raise ConfigError(t("config.bad_level", name=name, value=text[:20]))
    return level


def _text(name: str, text: str) -> str:
    return text.strip()


def _switch(name: str, text: str) -> bool:
    value = text.strip().lower()
    if value not in ("on", "off", "true", "false", "1", "0", "yes", "no"):
        raise ConfigError(t("config.bad_switch", name=name, value=text[:20]))
    return value in ("on", "true", "1", "yes")


def _site_url(name: str, text: str) -> str:
    """The website's address, links are made from it: Discord refuses a link button whose URL is
    not http(s), and with it the whole reply."""
    url = text.strip().rstrip("/")
    if not url:
        return url
    if re.search(r"\s", url):  # said as it is: it does start with http(s)://
        raise ConfigError(t("config.url_space", name=name, value=text[:60]))
    if not re.fullmatch(r"https?://[^/]+\S*", url, re.IGNORECASE):
        raise ConfigError(t("config.bad_url", name=name, value=text[:60]))
    if "?" in url or "#" in url:  # a page's path and anchor are added after it
        raise ConfigError(t("config.url_query", name=name, value=text[:60]))
    return url


# (field, variable, default, reader). A default is text, as the variable would hold it.
VARIABLES: tuple[tuple[str, str, Callable[[], str], Callable[[str, str], object]], ...] = (
    # the rule packs; a folder outside the checkout (a volume) keeps imported packs across images
    ("rules_dir", "RULES_DIR", lambda: str(RULES_DIR), _folder),
    ("rules_db", "RULES_DB", lambda: str(DATA_DIR / "rules.db"), _file),
    ("state_db", "STATE_DB", lambda: str(DATA_DIR / "state.db"), _text),
    # one connection per worker thread; a dozen processes at 8 stay under PostgreSQL's default
    # max_connections (100); past 64 one process would starve the others
    ("state_pool_size", "STATE_POOL_SIZE", lambda: "8", _count(1, 64)),
    # the bot's exact odds and rolled battles run in this many processes of their own, one per
    # heavy slot on two cores (two and their server: about 190 MB proportional set size, measured
    # after a fight and its chart); 0 keeps them in the bot's own process
    ("heavy_processes", "HEAVY_PROCESSES", lambda: "2", _count(0, 16)),
    ("log_level", "LOG_LEVEL", lambda: "", _level),
    ("embeddings_cache", "EMBEDDINGS_CACHE", lambda: str(DATA_DIR / "embeddings.db"), _file),
    ("rules_site_url", "RULES_SITE_URL", lambda: "", _site_url),
    ("heartbeat_file", "HEARTBEAT_FILE", lambda: "", _text),
    # ~ left as written when the process has no home (an unknown uid in a container): only the
    # console's history goes there, and it falls back to memory when it cannot
    ("state_home", "XDG_STATE_HOME", lambda: os.path.join(os.path.expanduser("~"), ".local", "state"), _path),
    ("discord_token", "DISCORD_TOKEN", lambda: "", _text),
    # on by default: chat mode (?질문) reads every message; a bot past 100 servers needs Discord's
    # approval for it, and without it chat mode still answers mentions and DMs
    ("message_content", "MESSAGE_CONTENT", lambda: "on", _switch),
    ("shard_count", "SHARD_COUNT", lambda: "", _optional(_count(1, 100_000))),  # checked with SHARD_IDS by the client
    ("shard_ids", "SHARD_IDS", lambda: "", _text),
)

_chosen: dict[str, object] = {}


def use(**values: object) -> None:
    """The command line's choices (`--state`), over the environment, for the rest of the run."""
    names = {f.name for f in fields(Config)}
    unknown = set(values) - names
    if unknown:
        raise TypeError(f"no such setting: {', '.join(sorted(unknown))}")
    _chosen.update(values)


def library_defaults(values: Mapping[str, str]) -> None:
    """Our defaults for variables a library reads itself when it loads (OpenMP's), each unless
    the operator set it: call before the library is imported."""
    for name, value in values.items():
        os.environ.setdefault(name, value)


def forget_choices() -> None:
    """Back to the environment alone (between tests)."""
    _chosen.clear()


def load(env: Mapping[str, str] | None = None) -> Config:
    """Every setting, from `env` (default: the process's environment); ConfigError on the first
    value that cannot be used. The command line checks them all before it does anything."""
    return Config(**{row[0]: setting(row[0], env) for row in VARIABLES})  # type: ignore[arg-type]


def setting(field: str, env: Mapping[str, str] | None = None) -> object:
    """One setting, checked alone: a module that needs one variable is not stopped by another."""
    if field in _chosen:
        return _chosen[field]
    env = os.environ if env is None else env
    for name_of_field, name, default, read in VARIABLES:
        if name_of_field == field:
            return read(name, env.get(name) or default())
    raise KeyError(field)


def rules_dir() -> Path:
    return Path(str(setting("rules_dir")))


def rules_db_path() -> Path:
    return Path(str(setting("rules_db")))


def state_db_path() -> Path:
    """The state file (when STATE_DB names a file rather than a server)."""
    return Path(str(setting("state_db")))


def pool_size() -> int:
    return int(str(setting("state_pool_size")))


def heavy_processes() -> int:
    return int(str(setting("heavy_processes")))


def state_db() -> str:
    """STATE_DB: a file path or a postgresql:// URL."""
    return str(setting("state_db"))
