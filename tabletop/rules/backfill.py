"""A big pack's vectors, embedded after its build, while the words answer.

The model reads about 16 passages a second on two cores: an imported 2 MB rulebook (some 6,000
passages) takes six minutes. Every command rebuilds the rules database when a pack changed, so a
build that embedded them all would hold up every pack's answers that long. The build therefore
embeds a pack's new texts only when they are few (INLINE_PASSAGES); a bigger pack is written with
the vectors already known (shipped, or cached from an earlier embedding) and its other texts kept
beside them, to be embedded here. Until a pack has every vector it is searched by its words
(search.py uses a pack's vectors only when it has them all) and its answers say so; the bot and
the console fill them in the background, `bot.py build` at once. Each chunk goes to the
embedding cache before the database, so a run cut short (or a rebuild meanwhile) loses nothing
of what was done.
"""

from __future__ import annotations

import fcntl
import logging
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path

from tabletop.rules import dense

log = logging.getLogger(__name__)

# New texts a pack may have for the build to embed them itself: about six seconds at 60 ms a
# passage on two cores (an edited rule, a card, a small import); more wait for the background.
INLINE_PASSAGES = 100
# Texts embedded and written per transaction: a reader waits at most for one commit of these.
CHUNK = 32
# What each table keeps to embed later, and as which side of the model (cards.py: a card's
# questions are read as questions, its summaries as passages).
_TODO = (
    ("docs", "passage", "select rowid, passage from docs where vector is null and passage is not null order by rowid"),
    ("cards", "passage", "select rowid, text from cards where vector is null and kind = 'summary' order by rowid"),
    ("cards", "query", "select rowid, text from cards where vector is null and kind = 'question' order by rowid"),
)


def too_many(texts_by_side: list[tuple[list[str], str]]) -> bool:
    """Whether a pack's texts not embedded yet are more than the build embeds itself."""
    missing = sum(len(texts) - len(dense.known(texts, side)) for texts, side in texts_by_side)
    return missing > INLINE_PASSAGES


def waiting(conn: sqlite3.Connection) -> dict[str, int]:
    """Pack -> how many of its texts wait to be embedded (none: the pack is complete)."""
    out: dict[str, int] = {}
    columns = {row[1] for row in conn.execute("pragma table_info(docs)")}
    if "passage" not in columns:
        return out
    for pack, count in conn.execute("select pack, count(*) from docs where vector is null and passage is not null group by pack"):
        out[pack] = count
    return out


def fill(db_path: Path, progress: Callable[[int, int], None] | None = None, stop: threading.Event | None = None) -> int:
    """Embed every text the database keeps for later and write the vectors in; returns how many
    were written (0 when another process is at it, or the model cannot be loaded). `stop` set
    ends it after the chunk at hand (the bot or the console closing)."""
    lock_path = db_path.with_name(db_path.name + ".embedding")
    try:
        handle = open(lock_path, "a")  # noqa: SIM115 (held for the whole run below)
    except OSError as exc:
        log.info("embedding later not possible (%s): %s", lock_path, exc)
        return 0
    with handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:  # another process of this deployment is filling the same file
            return 0
        conn = sqlite3.connect(db_path, timeout=30)
        try:
            return _fill(conn, progress, stop or threading.Event())
        except sqlite3.Error as exc:  # a database replaced or removed meanwhile: the cache kept the work
            log.info("embedding later stopped (%s): %s", db_path, exc)
            return 0
        finally:
            conn.close()


def _fill(conn: sqlite3.Connection, progress: Callable[[int, int], None] | None, stop: threading.Event) -> int:
    if "passage" not in {row[1] for row in conn.execute("pragma table_info(docs)")}:
        return 0
    todo = [(table, side, conn.execute(query).fetchall()) for table, side, query in _TODO]
    total = sum(len(rows) for *_, rows in todo)
    done = 0
    for table, side, rows in todo:
        for start in range(0, len(rows), CHUNK):
            if stop.is_set():
                return done
            chunk = rows[start : start + CHUNK]
            vectors = dense.embed_passages([text for _, text in chunk], side=side)
            if vectors is None:  # no model: the words keep answering, as without one
                return done
            done_now = [(dense.to_blob(v), rowid) for (rowid, _), v in zip(chunk, vectors)]
            if table == "docs":
                conn.executemany("update docs set vector = ?, passage = null where rowid = ?", done_now)
            else:
                conn.executemany("update cards set vector = ? where rowid = ?", done_now)
            conn.commit()
            done += len(chunk)
            if progress is not None:
                progress(done, total)
    return done
