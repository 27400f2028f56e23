"""Live state (server settings, agenda votes, roll logs) behind one interface, with two
backends: an embedded SQLite file (the default, one machine) and PostgreSQL (STATE_DB set to a
postgresql:// URL, for several processes or machines). Separate from the disposable rules
database: no rebuild touches it."""

from __future__ import annotations

import os
from pathlib import Path

from tabletop.core.i18n import t
from tabletop.core.paths import state_db_path
from tabletop.store.base import StateStore, StateUnavailable, begin_request, now_text
from tabletop.store.sqlite import SqliteState


def state_target() -> str:
    """Where the state lives: STATE_DB (a file path or a postgresql:// URL), else data/state.db."""
    return os.environ.get("STATE_DB") or str(state_db_path())


def is_postgresql(target: str) -> bool:
    """Whether a STATE_DB value names a PostgreSQL server rather than a file."""
    return target.startswith(("postgresql:", "postgres:"))


def open_state(target: Path | str | None = None) -> StateStore:
    """The store `target` names (default: `state_target()`)."""
    where = str(target) if target is not None else state_target()
    if is_postgresql(where):
        from tabletop.store import postgres  # psycopg is loaded only by those who use it

        if not postgres.is_url(where):
            raise StateUnavailable(t("state.bad_url", url=postgres.shown(where), reason="postgresql://…"))
        return postgres.PostgresState(where)
    return SqliteState(where)


def stand_in(message: str) -> StateStore:
    """A store that refuses every write with `message` (the real one could not be opened)."""
    return SqliteState.unavailable(message)


__all__ = [
    "StateStore",
    "StateUnavailable",
    "begin_request",
    "is_postgresql",
    "now_text",
    "open_state",
    "stand_in",
    "state_target",
]
