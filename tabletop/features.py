"""The one list of loaded features. Each module declares its commands in the command table when
imported; front ends call `load()` once before dispatching. Like a bot's extension list, this is
the only place that names them, so the table itself depends on no feature."""

from __future__ import annotations

import importlib

FEATURES = (
    "tabletop.rules.commands",
    "tabletop.agenda.commands",
    "tabletop.combat.commands",
    "tabletop.galaxy_trucker.commands",
    "tabletop.builtin.commands",
)


def load() -> None:
    """Import every feature module (idempotent: Python imports each module once)."""
    for name in FEATURES:
        importlib.import_module(name)
