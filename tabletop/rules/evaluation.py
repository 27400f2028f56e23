"""Search quality on a query file (format of tests/eval/ti4_queries.yaml): top-1, top-3, MRR, the
share of `none` queries answered honestly (nothing, or "this topic has no entry here") and the
answerable questions left without an answer, overall and per kind, plus every miss; and the
pack a query file is for (the fits are in calibration.py)."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import yaml

from tabletop.core import text


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
    lines = _entry_lines(path)
    for index, q in enumerate(data, 1):
        where = f"{path}, line {lines[index - 1]}" if index <= len(lines) else f"{path}: entry {index}"
        if not isinstance(q, dict) or "q" not in q:
            raise ValueError(f"{where}: expected {{q:, expect:, kind:}}")
        expect = q.get("expect")
        if expect is not None and not (isinstance(expect, list) and all(isinstance(e, str | int) for e in expect)):
            raise ValueError(f"{where}: 'expect' must be a list of section ids or titles, like [79] or ['79'] (got {expect!r})")
        for field in ("kind", "game"):
            if field in q and not isinstance(q[field], str):
                raise ValueError(f"{where}: '{field}' must be one word, like question (got {q[field]!r})")
    return data


def _entry_lines(path: Path) -> list[int]:
    """The line each entry of a query file starts on, for messages that point at it."""
    try:
        node = yaml.compose(Path(path).read_text(encoding="utf-8"))
    except (yaml.YAMLError, OSError, UnicodeDecodeError):
        return []
    return [item.start_mark.line + 1 for item in getattr(node, "value", [])] if isinstance(node, yaml.SequenceNode) else []


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
            # the reply says the document has no entry for what was asked
            "honest": not results or results[0].absent is not None,
        }
        per_kind[row["kind"]].append(row)
        ok = row["honest"] if row["none"] else rank == 1
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
        "none_honest": sum(r["honest"] for r in nones) / len(nones) if nones else None,
        "unanswered": sum(r["empty"] for r in answerable),
    }


def report(result: dict) -> str:
    def fmt(m):
        f = lambda v: "  -  " if v is None else f"{v:.3f}"  # noqa: E731
        return (
            f"n={m['queries']:<4} top1={f(m['top1'])} top3={f(m['top3'])} mrr={f(m['mrr'])} "
            f"none→honest={f(m['none_honest'])} unanswered={m['unanswered']}"
        )

    lines = [f"overall   {fmt(result['overall'])}"]
    lines += [f"{kind:<9} {fmt(m)}" for kind, m in result["kinds"].items()]
    for miss in result["misses"]:
        got = miss["got"] if not miss["empty"] else "nothing"
        lines.append(f"MISS [{miss['kind']}] {miss['q']!r}: expected {miss['expect'] or 'nothing'}, got {got}")
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
    if m["none_honest"] is not None and m["none_honest"] < none_floor:
        out.append(f"'none' queries answered honestly {m['none_honest']:.3f} < {none_floor}")
    return out


# --- the players' files -------------------------------------------------------------------


def game_of_file(compendium, path: Path) -> str:
    """The pack a query file is for, from its name: new_frontiers_players.yaml is new-frontiers."""
    name = path.name.replace("_", "-")
    packs = sorted((p for p in compendium.packs if name.startswith(p + "-")), key=len, reverse=True)
    if not packs:
        raise ValueError(f"{path}: the file name does not start with a pack id ({', '.join(compendium.packs)})")
    return packs[0]
