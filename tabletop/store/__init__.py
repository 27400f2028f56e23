"""Live state (server settings, agenda votes, roll logs) behind one interface, with two
backends: an embedded SQLite file (the default, one machine) and PostgreSQL (STATE_DB set to a
postgresql:// URL, for several processes or machines). Separate from the disposable rules
database: no rebuild touches it. The interface and its waits (base), the faults named for users
(faults), the schema's migrations (schema) and the two backends (sqlite, postgres). It imports the
core, never a feature, a front end nor discord."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, cast

from tabletop.core.config import state_db
from tabletop.core.i18n import Sentence, sentence
from tabletop.store.base import StateStore, StateUnavailable, begin_request, now_text
from tabletop.store.sqlite import SqliteState

if TYPE_CHECKING:
    from tabletop.core.commands import Context


def state_target() -> str:
    """Where the state lives: STATE_DB (a file path or a postgresql:// URL), else data/state.db."""
    return state_db()


def is_postgresql(target: str) -> bool:
    """Whether a STATE_DB value names a PostgreSQL server rather than a file."""
    return target.startswith(("postgresql:", "postgres:"))


def open_state(target: Path | str | None = None) -> StateStore:
    """The store `target` names (default: `state_target()`)."""
    where = str(target) if target is not None else state_target()
    if is_postgresql(where):
        from tabletop.store import postgres  # psycopg is loaded only by those who use it

        if not postgres.is_url(where):
            raise StateUnavailable(sentence("state.bad_url", url=postgres.shown(where)))
        return postgres.PostgresState(where)
    return SqliteState(where)


def stand_in(why: Sentence) -> StateStore:
    """A store that refuses every write saying `why` (the real one could not be opened)."""
    return SqliteState.unavailable(why)


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


def state_of(ctx: Context) -> StateStore:
    """A context's store as the StateStore the front end opened (the core knows it only as a
    core.ports.StateBackend: the store sits above it)."""
    return cast(StateStore, ctx.state)
