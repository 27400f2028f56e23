"""Search quality on a query file (format of tests/data/ti4_queries.yaml): top-1, top-3, MRR and
the share of `none` queries answered with nothing, overall and per kind, plus every miss."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import yaml

from tabletop.rules import text


def load_queries(path: Path) -> list[dict]:
    """A query file; ValueError naming the file (and the line) when it cannot be used."""
    try:
        with Path(path).open(encoding="utf-8") as f:
            data = yaml.safe_load(f) or []
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f", line {mark.line + 1}" if mark else ""
        raise ValueError(f"{path}{where}: not valid YAML ({getattr(exc, 'problem', None) or exc})") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path}: cannot be read ({exc})") from None
    if not isinstance(data, list):
        raise ValueError(f"{path}: expected a list of {{q:, expect:, kind:}} entries")
    for index, q in enumerate(data, 1):
        if not isinstance(q, dict) or "q" not in q:
            raise ValueError(f"{path}: entry {index}: expected {{q:, expect:, kind:}}")
    return data


def section_id(compendium, game: str, expected: str) -> str:
    """A query file names a section by id (79, open-space), by its title (우주 먼지) or by a
    sub-heading inside it (타일 선택과 공개, in 우주선 만들기)."""
    if compendium.section(game, expected):
        return expected
    key = text.key(expected)
    pack = compendium.packs.get(game)
    for s in pack.sections if pack else ():
        if key in (text.key(s.title), text.key(s.full_title)):
            return s.id
    for s in pack.sections if pack else ():
        if any(key == text.key(r.heading) for r in s.rules if r.heading):
            return s.id
    return expected


def evaluate(compendium, queries: list[dict], game: str = "ti4") -> dict:
    per_kind: dict[str, list[dict]] = defaultdict(list)
    misses = []
    for q in queries:
        target = q.get("game", game)
        expect = {section_id(compendium, target, str(e)) for e in q.get("expect") or []}
        results = compendium.search.search(str(q["q"]), target, limit=10)
        ranked = [r.section for r in results]
        rank = next((i + 1 for i, sid in enumerate(ranked) if sid in expect), None)
        row = {
            "q": q["q"],
            "kind": q.get("kind", "other"),
            "expect": sorted(expect),
            "got": ranked[:3],
            "none": not expect,
            "rank": rank,
            "empty": not results,
        }
        per_kind[row["kind"]].append(row)
        ok = row["empty"] if row["none"] else rank == 1
        if not ok:
            misses.append(row)
    rows = [r for rs in per_kind.values() for r in rs]
    return {"overall": _metrics(rows), "kinds": {k: _metrics(v) for k, v in sorted(per_kind.items())}, "misses": misses}


def _metrics(rows: list[dict]) -> dict:
    answerable = [r for r in rows if not r["none"]]
    nones = [r for r in rows if r["none"]]
    n = len(answerable)
    return {
        "queries": len(rows),
        "top1": sum(r["rank"] == 1 for r in answerable) / n if n else None,
        "top3": sum(r["rank"] is not None and r["rank"] <= 3 for r in answerable) / n if n else None,
        "mrr": sum(1 / r["rank"] for r in answerable if r["rank"]) / n if n else None,
        "none_empty": sum(r["empty"] for r in nones) / len(nones) if nones else None,
    }


def report(result: dict) -> str:
    def fmt(m):
        f = lambda v: "  -  " if v is None else f"{v:.3f}"  # noqa: E731
        return f"n={m['queries']:<4} top1={f(m['top1'])} top3={f(m['top3'])} mrr={f(m['mrr'])} none→empty={f(m['none_empty'])}"

    lines = [f"overall   {fmt(result['overall'])}"]
    lines += [f"{kind:<9} {fmt(m)}" for kind, m in result["kinds"].items()]
    for miss in result["misses"]:
        lines.append(f"MISS [{miss['kind']}] {miss['q']!r}: expected {miss['expect'] or 'nothing'}, got {miss['got']}")
    return "\n".join(lines)


def failures(result: dict, top1: float, top3: float, none_floor: float = 1.0) -> list[str]:
    """What keeps the result under the floors (empty when it meets them). By default every
    `none` query must return nothing."""
    m = result["overall"]
    out = []
    if m["top1"] is not None and m["top1"] < top1:
        out.append(f"top-1 {m['top1']:.3f} < {top1}")
    if m["top3"] is not None and m["top3"] < top3:
        out.append(f"top-3 {m['top3']:.3f} < {top3}")
    if m["none_empty"] is not None and m["none_empty"] < none_floor:
        out.append(f"'none' queries answered with nothing {m['none_empty']:.3f} < {none_floor}")
    return out
