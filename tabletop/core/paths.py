"""Where things live in the checkout. The databases can be moved: see core.config."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULES_DIR = ROOT / "rules"
DATA_DIR = ROOT / "data"
