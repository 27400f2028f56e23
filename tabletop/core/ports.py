"""What the core asks of the layers above it, as protocols: a Context carries the rules and the
state store that the front ends opened, and the core reads settings and logs rolls through
them without importing either (the rules and the store sit above the core). Each feature that
needs more of them takes the concrete type from its own layer: `compendium_of(ctx)` (rules)
and `state_of(ctx)` (store)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol


class RuleLibrary(Protocol):
    """The rules a context carries (tabletop.rules.compendium.Compendium)."""

    @property
    def packs(self) -> Mapping[str, Any]: ...


class StateBackend(Protocol):
    """The state store a context carries, as far as the core uses it: server settings and the
    log that lets a button replay a roll (tabletop.store.StateStore)."""

    @property
    def read_only(self) -> bool: ...

    def get_setting(self, guild_id: str, key: str, default: str | None = None, fallback: bool = False) -> str | None: ...

    def set_settings(self, guild_id: str, values: dict[str, str]) -> None: ...

    def log_roll(self, guild_id: str, channel_id: str, user_id: str, command: str, seed: str, summary: str) -> int: ...

    def logged_roll(self, roll_id: int) -> str | None: ...
