"""Where things live. Database paths can be moved with RULES_DB and STATE_DB."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULES_DIR = ROOT / "rules"
DATA_DIR = ROOT / "data"


def rules_db_path() -> Path:
    return Path(os.environ.get("RULES_DB") or DATA_DIR / "rules.db")


def state_db_path() -> Path:
    return Path(os.environ.get("STATE_DB") or DATA_DIR / "state.db")
