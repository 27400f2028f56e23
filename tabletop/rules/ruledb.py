"""The rules database: built from the YAML packs with sqlite-utils, disposable, rebuilt whenever
the YAML changes (content hash). Built into a temporary file and renamed into place, so an invalid
pack never leaves a half-written or missing database behind.
"""

from __future__ import annotations

import errno
import hashlib
import logging
import os
import sqlite3
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import sqlite_utils

from tabletop.core import config, text
from tabletop.core.config import rules_db_path
from tabletop.core.errors import os_reason
from tabletop.core.i18n import t
from tabletop.rules import backfill, crossling, dense, morph, rows, tokenizing
from tabletop.rules.packs import Pack, PackError, Rule, Section, Term, load_packs

log = logging.getLogger(__name__)

# Bump when the database layout or the tokeniser changes, so old databases are rebuilt.
SCHEMA_VERSION = "10"
# The fields of a pack and of a section kept in tables of their own (rows.py makes the rest columns)
PACK_APART = ("sections", "lexicon", "cards")
SECTION_APART = ("aliases", "rules", "related")
# How the model reads a card's texts: summaries as passages, questions as questions (cards.py)
CARD_SIDES = (("summary", "passage"), ("question", "query"))
# The code that turns the YAML into the database: a change to any of it also needs a rebuild.
_HERE = Path(__file__).parent
BUILD_CODE = (
    _HERE / "ruledb.py",
    Path(text.__file__),
    _HERE / "tokenizing.py",
    _HERE / "morph.py",
    _HERE / "packs.py",
    _HERE / "cards.py",
    _HERE / "cardwords.py",
    _HERE / "rows.py",
    _HERE / "dense.py",
    _HERE / "crossling.py",
    _HERE / "backfill.py",
    crossling.READINGS,
)


def source_files(rules_dir: Path | None = None) -> list[Path]:
    """The packs' YAML files; hidden folders (an import being written) are not packs."""
    rules_dir = rules_dir or config.rules_dir()
    files = rules_dir.rglob("*.yaml")
    return sorted(p for p in files if not any(part.startswith(".") for part in p.relative_to(rules_dir).parts))


def content_hash(rules_dir: Path | None = None) -> str:
    """A hash of every YAML source and of the code that turns them into the database."""
    rules_dir = rules_dir or config.rules_dir()
    h = hashlib.sha256(f"{SCHEMA_VERSION}\0{dense.MODEL_ID}".encode())
    for module in BUILD_CODE:  # a new tokeniser or layout also needs a rebuild
        h.update(module.read_bytes() if module.exists() else b"")  # a damaged install still builds
    for path in source_files(rules_dir):
        h.update(f"{rules_dir.name}/{path.relative_to(rules_dir).as_posix()}".encode())
        h.update(b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    return h.hexdigest()


def related_target(section: Section, name: str, by_key: dict[str, str]) -> str | None:
    """The id of the section a related topic names, if it is in the same pack."""
    target = by_key.get(text.key(name))
    return target if target != section.id else None


def _section_keys(pack: Pack) -> dict[str, str]:
    by_key: dict[str, str] = {}
    for s in pack.sections:
        for name in (s.title, s.full_title, *s.names.values(), *s.aliases):
            by_key.setdefault(text.key(name), s.id)
    return by_key


def passage_heading(section: Section) -> str:
    """A section's names in every language the pack gives ("폭격 (유닛 능력) · Bombardment · 爆撃"):
    the embedding model then meets a question's words in its own language before the rule's."""
    others = [n for n in section.names.values() if n and n not in (section.title, section.full_title)]
    return " · ".join([section.full_title, *dict.fromkeys(others)])


def _parts(pack: Pack) -> list[tuple[Section, str | None, str, str]]:
    """(section, rule id or None for the intro, the text searched, the passage the embedding
    model reads) for each search document: a section's intro and each of its rules."""
    out = []
    for s in pack.sections:
        heading = passage_heading(s)
        parts = [(None, [s.title, s.intro])] + [(r.id, [r.heading, *r.lines()]) for r in s.rules]
        for rule_id, lines in parts:
            body = "\n".join(x for x in lines if x)
            passage = dense.passage_text(heading, "\n".join(x for x in lines[1:] if x) if rule_id is None else body)
            out.append((s, rule_id, body, passage))
    return out


def passages(rules_dir: Path | None = None) -> list[str]:
    """Every passage the embedding model reads, in every pack (tools/ship_vectors.py ships them)."""
    rules_dir = rules_dir or config.rules_dir()
    return [passage for pack in load_packs(rules_dir) for *_, passage in _parts(pack)]


def card_texts(rules_dir: Path | None = None) -> tuple[list[str], list[str]]:
    """Every card summary (read as a passage) and card question (read as a question) in every
    pack (tools/ship_vectors.py ships their vectors too)."""
    rules_dir = rules_dir or config.rules_dir()
    rows_ = [r for pack in load_packs(rules_dir) for r in _card_rows(pack)]
    return [r["text"] for r in rows_ if r["kind"] == "summary"], [r["text"] for r in rows_ if r["kind"] == "question"]


def _card_rows(pack: Pack, analyzer: morph.Analyzer | None = None) -> list[dict]:
    """The pack's search cards, a row per sentence (cards.py); with an analyser, each question
    with its words as the lexical ranker reads them (cardwords.py)."""
    out = []
    for sid, card in pack.cards.items():
        for kind, point, rule, language, text_ in card.texts():
            row = {"pack": pack.id, "section": sid, "point": point, "rule": rule, "kind": kind, "language": language}
            row |= {"text": text_, **(_analysed(text_, analyzer) if analyzer and kind == "question" else {})}
            out.append(row)
    return out


def _analysed(body: str, analyzer: morph.Analyzer) -> dict[str, str]:
    """A text's lemmas, bigrams and unigrams, as every search document is analysed."""
    indexed = crossling.with_reading(body)  # a Japanese text's kanji words, read in Korean too
    big, uni = tokenizing.tokens(indexed)
    return {"lemmas": " ".join(analyzer.lemmas(indexed)), "bigrams": " ".join(big), "unigrams": " ".join(uni)}


def _embedded_cards(rows_: list[dict], later: bool) -> list[dict]:
    """Card rows with their vectors: summaries read as passages, questions as questions (the
    player's question meets them question to question); `later`: only those already known."""
    for kind, side in CARD_SIDES:
        chosen = [r for r in rows_ if r["kind"] == kind]
        vectors = _vectors([r["text"] for r in chosen], side, later)
        for row, vector in zip(chosen, vectors):
            row["vector"] = dense.to_blob(vector) if vector is not None else None
    return rows_


def _vectors(texts: list[str], side: str, later: bool) -> list:
    """Each text's vector, or None: not known yet (`later`: backfill.py embeds it), or no model."""
    if later:
        known = dense.known(texts, side)
        return [known.get(i) for i in range(len(texts))]
    vectors = dense.embed_passages(texts, side=side)
    return [None] * len(texts) if vectors is None else list(vectors)


def _doc_rows(pack: Pack, analyzer: morph.Analyzer) -> list[dict]:
    """Search documents, analysed once here, each with its lemmas, bigrams and unigrams, and the
    passage the embedding model reads."""
    return [
        {"pack": pack.id, "section": s.id, "rule": rule_id, **_analysed(body, analyzer), "passage": passage}
        for s, rule_id, body, passage in _parts(pack)
    ]


def _embedded(rows: list[dict], later: bool) -> list[dict]:
    """The rows with their passages' vectors; a row without one (embedded later, or no model)
    keeps its passage for backfill.py, which embeds it when the model can."""
    for row, vector in zip(rows, _vectors([r["passage"] for r in rows], "passage", later)):
        row["vector"] = dense.to_blob(vector) if vector is not None else None
        if vector is not None:
            row["passage"] = None
    return rows


def user_terms(packs: list[Pack]) -> set[str]:
    """The packs' own Korean terms for the analyser's user dictionary: titles, names, aliases,
    sub-headings and every lexicon form written as a noun (verbs it already knows)."""
    terms: set[str] = set()
    for p in packs:
        for s in p.sections:
            terms |= {s.title, *s.aliases, *(r.heading for r in s.rules if r.heading)}
        for term in p.lexicon:
            terms |= {f for f in term.forms if not f.endswith("다")}
    return {t for t in terms if 2 <= len(t) <= 20}


def _write(db: sqlite_utils.Database, packs: list[Pack], digest: str, analyzer: morph.Analyzer) -> None:
    """Every table of a new rules database: what it was built from, then each pack."""
    db.table("meta").insert_all(
        [
            {"key": "content_hash", "value": digest},
            {"key": "schema_version", "value": SCHEMA_VERSION},
            {"key": "built_at", "value": time.strftime("%Y-%m-%dT%H:%M:%S")},
        ],
        pk="key",
    )
    db.table("packs").insert_all((rows.row(p, PACK_APART, position=i) for i, p in enumerate(packs)), pk="id")
    _create_optional_tables(db)
    for p in packs:
        _write_sections(db, p)
        docs, card_rows = _doc_rows(p, analyzer), _card_rows(p, analyzer)
        later = backfill.too_many(
            [([r["passage"] for r in docs], "passage")]
            + [([r["text"] for r in card_rows if r["kind"] == kind], side) for kind, side in CARD_SIDES]
        )
        db.table("docs").insert_all(_embedded(docs, later), columns={"vector": bytes, "passage": str})
        db.table("cards").insert_all(_embedded_cards(card_rows, later), columns={"vector": bytes})
        _write_lexicon(db, p)
    for table, columns in (("aliases", ["pack", "section"]), ("related", ["pack", "section"])):
        if db.table(table).exists():
            db.table(table).create_index(columns)


def _create_optional_tables(db: sqlite_utils.Database) -> None:
    """The tables a pack may leave empty (an imported pack has no aliases, related topics or
    lexicon, maybe no numbered rules): created empty, so that readers find them all."""
    db.table("rules").create(rows.columns(Rule, pack=str, section=str, position=int), pk=("pack", "id"))
    db.table("aliases").create({"pack": str, "section": str, "alias": str})
    db.table("related").create({"pack": str, "section": str, "position": int, "name": str, "target": str})
    db.table("lexicon").create(rows.columns(Term, pack=str, position=int), pk=("pack", "position"))
    db.table("cards").create(
        {
            "pack": str,
            "section": str,
            "point": int,
            "rule": str,
            "kind": str,
            "language": str,
            "text": str,
            "lemmas": str,
            "bigrams": str,
            "unigrams": str,
            "vector": bytes,
        }
    )


def _write_sections(db: sqlite_utils.Database, p: Pack) -> None:
    """A pack's sections, their rules, aliases and related topics."""
    by_key = _section_keys(p)
    db.table("sections").insert_all((rows.row(s, SECTION_APART) for s in p.sections), pk=("pack", "id"))
    db.table("rules").insert_all(
        (rows.row(r, pack=p.id, section=s.id, position=i) for s in p.sections for i, r in enumerate(s.rules)),
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


def _write_lexicon(db: sqlite_utils.Database, p: Pack) -> None:
    """A pack's lexicon: its players' words for its terms."""
    db.table("lexicon").insert_all((rows.row(t, pack=p.id, position=i) for i, t in enumerate(p.lexicon)), pk=("pack", "position"))


def build(rules_dir: Path | None = None, db_path: Path | None = None) -> dict:
    """Validate every pack and write a fresh database; raise PackError and keep the old one."""
    rules_dir = rules_dir or config.rules_dir()
    db_path = Path(db_path or rules_db_path())
    if not _replaceable(db_path):  # another program's file (the state database): never renamed over
        raise OSError(errno.EEXIST, t("rules.not_ours"), str(db_path))
    started = time.perf_counter()
    packs = load_packs(rules_dir)
    digest = content_hash(rules_dir)
    db_path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=".rules-", suffix=".db", dir=db_path.parent)
    os.close(fd)
    try:
        userdic = morph.compile_user_dictionary(user_terms(packs), Path(tmp_name).with_suffix(".userdic"))
        analyzer = morph.Analyzer(userdic)
        conn = sqlite3.connect(tmp_name)
        try:
            _write(sqlite_utils.Database(conn), packs, digest, analyzer)
            conn.commit()
        finally:
            conn.close()
        os.chmod(tmp_name, 0o644)  # readable by any uid (a container may run as another user)
        for target in (db_path, user_dictionary_path(db_path)):  # never rename over a device or a fifo
            if target.exists() and not target.is_file():
                raise IsADirectoryError(errno.EISDIR if target.is_dir() else errno.EINVAL, "not a regular file", str(target))
        if userdic:
            os.replace(userdic, user_dictionary_path(db_path))
        os.replace(tmp_name, db_path)
    except BaseException:
        Path(tmp_name).unlink(missing_ok=True)
        Path(tmp_name).with_suffix(".userdic").unlink(missing_ok=True)
        raise
    return {
        "path": str(db_path),
        "packs": {p.id: len(p.sections) for p in packs},
        "seconds": time.perf_counter() - started,
    }


def _replaceable(db_path: Path) -> bool:
    """Whether a build may put a new rules database where `db_path` is: nothing there, an empty
    file, or a rules database (any version: it has our `meta` table)."""
    if not db_path.is_file() or db_path.stat().st_size == 0:
        return True
    try:
        conn = sqlite3.connect(f"file:{db_path}?mode=ro&immutable=1", uri=True)  # touches no -wal or -shm
        try:
            return conn.execute("select 1 from sqlite_master where type = 'table' and name = 'meta'").fetchone() is not None
        finally:
            conn.close()
    except sqlite3.Error:  # not SQLite at all (a text file), or damaged past reading: not ours to replace
        return False


def user_dictionary_path(db_path: Path) -> Path:
    """The analyser's user dictionary, built with and kept beside the rules database."""
    return Path(db_path).with_suffix(".userdic")


def stored_hash(db_path: Path) -> str | None:
    if not db_path.exists():
        return None
    try:
        conn = sqlite3.connect(f"file:{db_path}?mode=ro&immutable=1", uri=True)  # a read, nothing beside it touched
        try:
            row = conn.execute("select value from meta where key = 'content_hash'").fetchone()
        finally:
            conn.close()
    except sqlite3.Error:
        return None
    return row[0] if row else None


def ensure(rules_dir: Path | None = None, db_path: Path | None = None) -> Path:
    """Return a database path that matches the YAML, rebuilding it first if the YAML changed."""
    rules_dir = rules_dir or config.rules_dir()
    db_path = Path(db_path or rules_db_path())
    if stored_hash(db_path) != content_hash(rules_dir):
        build(rules_dir, db_path)
    return db_path


@dataclass(frozen=True)
class Status:
    """The database to answer from, and why it may not match the YAML (for the admin)."""

    path: Path | None  # None: no usable database at all
    problems: tuple[str, ...] = ()  # validation messages, or why the database could not be written
    kind: str = ""  # "" | "invalid" (the packs have problems) | "unwritable" (cannot rebuild)


def packs_valid(rules_dir: Path | None = None) -> bool:
    """Whether the packs load (the build would start): read before saying a build is under way."""
    rules_dir = rules_dir or config.rules_dir()
    try:
        load_packs(rules_dir)
    except (PackError, OSError):
        return False
    return True


def ensure_served(rules_dir: Path | None = None, db_path: Path | None = None) -> Status:
    """Like ensure, for a running bot: when the packs changed but cannot be built (invalid, or a
    read-only filesystem), keep answering from the database that is there, and say why."""
    rules_dir = rules_dir or config.rules_dir()
    db_path = Path(db_path or rules_db_path())
    stored = stored_hash(db_path)
    try:
        if stored == content_hash(rules_dir):
            return Status(db_path)
        build(rules_dir, db_path)
        return Status(db_path)
    except PackError as exc:
        problems, kind = tuple(exc.messages), "invalid"
    except OSError as exc:  # a read-only image, another user's files
        problems, kind = (f"RULES_DB={db_path}: {os_reason(exc)}",), "unwritable"
    log.warning("rules database not rebuilt (%s): %s", kind, "; ".join(problems[:5]))
    return Status(db_path if stored is not None else None, problems, kind)


__all__ = ["build", "ensure", "content_hash", "PackError", "SCHEMA_VERSION"]
