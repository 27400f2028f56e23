"""The rules database: built from the YAML packs with sqlite-utils, disposable, rebuilt whenever
the YAML changes (content hash). Built into a temporary file and renamed into place, so an invalid
pack never leaves a half-written or missing database behind.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import tempfile
import time
from pathlib import Path

import sqlite_utils

from tabletop.combat import units
from tabletop.paths import DATA_DIR, RULES_DIR, rules_db_path
from tabletop.rules import text
from tabletop.rules.packs import Pack, PackError, Section, load_packs

# Bump when the database layout or the tokeniser changes, so old databases are rebuilt.
SCHEMA_VERSION = "4"
DATA_FILES = ("units",)
# The code that turns the YAML into the database: a change to any of it also needs a rebuild.
_HERE = Path(__file__).parent
BUILD_CODE = (_HERE / "ruledb.py", _HERE / "text.py", _HERE / "packs.py", Path(units.__file__))


def source_files(rules_dir: Path = RULES_DIR, data_dir: Path = DATA_DIR) -> list[Path]:
    files = sorted(rules_dir.rglob("*.yaml"))
    for name in DATA_FILES:
        files += sorted((data_dir / name).glob("*.yaml"))
    return files


def content_hash(rules_dir: Path = RULES_DIR, data_dir: Path = DATA_DIR) -> str:
    """A hash of every YAML source and of the code that turns them into the database."""
    h = hashlib.sha256(SCHEMA_VERSION.encode())
    for module in BUILD_CODE:  # a new tokeniser or layout also needs a rebuild
        h.update(module.read_bytes())
    for path in source_files(rules_dir, data_dir):
        base = rules_dir if path.is_relative_to(rules_dir) else data_dir
        h.update(f"{base.name}/{path.relative_to(base).as_posix()}".encode())
        h.update(b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    return h.hexdigest()


def related_target(section: Section, name: str, by_key: dict[str, str]) -> str | None:
    """The id of the section a related topic names, if it is in the same pack."""
    target = by_key.get(text.key(name))
    return target if target != section.id else None


def pack_tag(pack_id: str) -> str:
    """A single FTS token naming the pack, so a search reads only its own pack's documents."""
    return "pack" + "".join(c for c in pack_id if c.isalnum())


def _section_keys(pack: Pack) -> dict[str, str]:
    by_key: dict[str, str] = {}
    for s in pack.sections:
        for name in (s.title, s.full_title, *s.names.values(), *s.aliases):
            by_key.setdefault(text.key(name), s.id)
    return by_key


def _doc_rows(pack: Pack):
    """Search documents: one per section (to rank sections), one per intro and rule (to point
    at the rule that answers), pre-tokenised for FTS5."""
    for s in pack.sections:
        title_big, title_uni = text.tokens(" ".join([s.title, *s.names.values(), *s.aliases]))
        parts = [(None, [s.title, s.intro])] + [(r.id, [r.heading, *r.lines()]) for r in s.rules]
        whole = ("section", None, [line for _, lines in parts for line in lines])
        for kind, rule_id, lines in [whole] + [("rule", rid, lines) for rid, lines in parts]:
            big, uni = text.tokens("\n".join(x for x in lines if x))
            yield {
                "pack": pack.id,
                "pack_tag": pack_tag(pack.id),
                "section": s.id,
                "kind": kind,
                "rule": rule_id,
                "title": " ".join(title_big + title_uni),
                "body": " ".join(big),
                "body_uni": " ".join(uni),
            }


def _write(db: sqlite_utils.Database, packs: list[Pack], units: list[dict], digest: str) -> None:
    db.table("meta").insert_all(
        [
            {"key": "content_hash", "value": digest},
            {"key": "schema_version", "value": SCHEMA_VERSION},
            {"key": "built_at", "value": time.strftime("%Y-%m-%dT%H:%M:%S")},
        ],
        pk="key",
    )
    db.table("packs").insert_all(
        (
            {
                "id": p.id,
                "names": json.dumps(p.names, ensure_ascii=False),
                "language": p.language,
                "source": p.source,
                "credit": p.credit,
                "description": p.description,
                "numbering": p.numbering,
                "position": i,
            }
            for i, p in enumerate(packs)
        ),
        pk="id",
    )
    for p in packs:
        by_key = _section_keys(p)
        db.table("sections").insert_all(
            (
                {
                    "pack": p.id,
                    "id": s.id,
                    "number": s.number,
                    "title": s.title,
                    "kind": s.kind,
                    "names": json.dumps(s.names, ensure_ascii=False),
                    "intro": s.intro,
                    "editor_note": s.editor_note,
                    "file": s.file,
                    "part": s.part,
                    "title_from": s.title_from,
                }
                for s in p.sections
            ),
            pk=("pack", "id"),
        )
        db.table("rules").insert_all(
            (
                {
                    "pack": p.id,
                    "section": s.id,
                    "id": r.id,
                    "position": i,
                    "heading": r.heading,
                    "text": r.text,
                    "items": json.dumps([[it.kind, it.text] for it in r.items], ensure_ascii=False),
                    "editor_note": r.editor_note,
                }
                for s in p.sections
                for i, r in enumerate(s.rules)
            ),
            pk=("pack", "id"),
        )
        db.table("aliases").insert_all(
            ({"pack": p.id, "section": s.id, "alias": a} for s in p.sections for a in s.aliases),
        )
        db.table("related").insert_all(
            (
                {
                    "pack": p.id,
                    "section": s.id,
                    "position": i,
                    "name": name,
                    "target": related_target(s, name, by_key),
                }
                for s in p.sections
                for i, name in enumerate(s.related)
            ),
        )
        db.table("docs").insert_all(_doc_rows(p))
    db.table("units").insert_all(units, pk=("game", "id"), alter=True) if units else None
    for table, columns in (("aliases", ["pack", "section"]), ("related", ["pack", "section"])):
        if db.table(table).exists():
            db.table(table).create_index(columns)
    db.table("docs").enable_fts(["pack_tag", "title", "body", "body_uni"], tokenize="unicode61", create_triggers=False)


def load_units(data_dir: Path = DATA_DIR) -> list[dict]:
    return units.load_unit_tables(data_dir / "units")


def build(rules_dir: Path = RULES_DIR, db_path: Path | None = None, data_dir: Path = DATA_DIR) -> dict:
    """Validate every pack and write a fresh database; raise PackError and keep the old one."""
    db_path = Path(db_path or rules_db_path())
    started = time.perf_counter()
    packs = load_packs(rules_dir)
    units = load_units(data_dir)
    digest = content_hash(rules_dir, data_dir)
    db_path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=".rules-", suffix=".db", dir=db_path.parent)
    os.close(fd)
    try:
        conn = sqlite3.connect(tmp_name)
        try:
            _write(sqlite_utils.Database(conn), packs, units, digest)
            conn.commit()
        finally:
            conn.close()
        os.replace(tmp_name, db_path)
    except BaseException:
        Path(tmp_name).unlink(missing_ok=True)
        raise
    return {
        "path": str(db_path),
        "packs": {p.id: len(p.sections) for p in packs},
        "units": len(units),
        "seconds": time.perf_counter() - started,
    }


def stored_hash(db_path: Path) -> str | None:
    if not db_path.exists():
        return None
    try:
        conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
        try:
            row = conn.execute("select value from meta where key = 'content_hash'").fetchone()
        finally:
            conn.close()
    except sqlite3.Error:
        return None
    return row[0] if row else None


def ensure(rules_dir: Path = RULES_DIR, db_path: Path | None = None, data_dir: Path = DATA_DIR) -> Path:
    """Return a database path that matches the YAML, rebuilding it first if the YAML changed."""
    db_path = Path(db_path or rules_db_path())
    if stored_hash(db_path) != content_hash(rules_dir, data_dir):
        build(rules_dir, db_path, data_dir)
    return db_path


__all__ = ["build", "ensure", "content_hash", "PackError", "SCHEMA_VERSION"]
