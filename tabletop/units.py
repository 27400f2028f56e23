"""Unit statistics for the dice and combat resolvers, from data/units/<game>.yaml."""
from __future__ import annotations

import json
from pathlib import Path

import yaml


def load_unit_tables(folder: Path) -> list[dict]:
    """Rows for the rules database's units table (one per unit, stats as JSON)."""
    rows = []
    for path in sorted(folder.glob("*.yaml")):
        with path.open(encoding="utf-8") as f:
            data = yaml.safe_load(f) or {}
        for unit in data.get("units", []):
            rows.append({"game": data["game"], "id": unit["id"], "data": json.dumps(unit, ensure_ascii=False)})
    return rows
