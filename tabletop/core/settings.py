"""A server's settings, typed, each with its default declared once here.

The state store keeps them as text per guild; these declarations turn that text into the
setting's type and back, so callers read `settings.read(state, guild, CHAT)` -> True and never
spell a default or an "on"/"off" again."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from tabletop.core.ports import StateBackend

T = TypeVar("T")


@dataclass(frozen=True)
class Setting(Generic[T]):
    key: str  # also its /settings option's name
    default: T
    load: Callable[[str], T]
    dump: Callable[[T], str]
    option: dict[str, Any] = field(default_factory=dict)  # its /settings option: limits, choices


def _switch(key: str, default: bool) -> Setting[bool]:
    return Setting(key, default, lambda text: text == "on", lambda value: "on" if value else "off")


def _text(key: str, default: str, **option: Any) -> Setting[str]:
    return Setting(key, default, str, str, option)


# Chat mode (?질문, a mention): on unless an admin turns it off; a bot that ignores ? surprises.
CHAT = _switch("chat", True)
# The game answered first, in chat and when /rule names none: the bot is built for TI4 tables.
GAME = _text("game", "ti4", autocomplete="game", max_length=50)  # a pack's id or name in any language
DEFAULT_GAME = GAME.default  # the pack a request reads when nothing names one


def present_game(chosen: str, packs) -> str:
    """The game a request reads when nothing it typed names one: the server's choice, unless
    that pack is not installed (a rules folder of imported packs only, a pack since removed),
    then TI4, else the first pack there is."""
    if not packs or chosen in packs:
        return chosen
    return DEFAULT_GAME if DEFAULT_GAME in packs else next(iter(packs))


# Times are shown in the server's zone: the tables this bot is for play in Korea.
TIMEZONE = _text("timezone", "Asia/Seoul", max_length=64)  # the longest IANA zone names are about 30
# The content a table plays, for combat (units whose reprint differs): Prophecy of Kings with the
# Codices, or Thunder's Edge. The first until a table says otherwise: most units are the same in
# both, and Prophecy of Kings is what every table has.
CONTENTS = ("pok", "te")
CONTENT = _text("content", CONTENTS[0], choices=CONTENTS, help="opt.combat.content.desc")
# Agendas open with when/after windows only where a table asks for them (slower to play).
AGENDA_WINDOWS = _switch("agenda_windows", False)


def read(state: StateBackend, guild_id: str, setting: Setting[T], fallback: bool = False) -> T:
    """The server's value, or the default when none is stored; `fallback`: also when the store
    cannot answer now (for what only shapes a rules answer: the game, the time zone shown)."""
    stored = state.get_setting(guild_id, setting.key, None, fallback=fallback)
    return setting.default if stored in (None, "") else setting.load(stored)


def write(state: StateBackend, guild_id: str, *changes: tuple[Setting[Any], Any]) -> None:
    """Write (setting, value) pairs in one transaction: a fault leaves every setting as it was."""
    state.set_settings(guild_id, {setting.key: setting.dump(value) for setting, value in changes})
