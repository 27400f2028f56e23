"""CPU-bound work in processes of its own, so that light answers never wait for it.

A Python process has one interpreter lock. While an exact solve's Python code (or the chart's)
holds it, every other thread of the serving process waits its turn at each step of its work:
the event loop reading the gateway, a `/rule` lookup, the reply sent over HTTP, a few
milliseconds at each of the dozens of steps an answer takes. Work sent here runs in a small pool
of worker processes instead, and the serving process stays free.

The Discord bot starts the pool (`start`), one process per heavy slot; a one-shot command and
the console, which serve one user, run the work where they are (`run` without a pool). What runs
here is a module-level function of picklable values; it runs in the caller's language."""

from __future__ import annotations

import logging
import multiprocessing
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

from tabletop.core.errors import UserError
from tabletop.core.i18n import current, speaking, t

log = logging.getLogger(__name__)
T = TypeVar("T")

_pool: ProcessPoolExecutor | None = None
_settings: tuple[int, Callable[[], object] | None, tuple[str, ...]] | None = None
_restarting = threading.Lock()  # two fights that meet one dead pool start one new pool


def start(workers: int, warm: Callable[[], object] | None = None, preload: tuple[str, ...] = ()) -> None:
    """Start `workers` processes, forked from a clean server process (never from this one, with
    its threads) that imported `preload` first, so that the workers share those modules' memory
    (a solver's kernels, the chart's library); each calls `warm` before its first task."""
    global _pool, _settings
    stop()
    _settings = (workers, warm, preload)
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(list(preload))
    try:
        _pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_warmed, initargs=(warm,))
        for _ in range(workers):  # start them now, not at the first player's fight
            _pool.submit(_nothing)
    except OSError:  # no temporary folder for the fork server's socket, no process allowed: work stays here
        stop()
        raise


def stop() -> None:
    """Stop the pool (the bot's shutdown); later work runs in this process."""
    global _pool
    if _pool is not None:
        _pool.shutdown(wait=False, cancel_futures=True)
        _pool = None


def running() -> bool:
    return _pool is not None


def run(fn: Callable[..., T], *args: object) -> T:
    """`fn(*args)` in a worker process when the pool runs, else here; its UserError comes back
    as raised. A worker that died (killed, out of memory) is replaced, and the player told in
    a sentence that nothing was answered, never a traceback."""
    pool = _pool
    if pool is None:
        return fn(*args)
    try:
        return pool.submit(_in_language, current(), fn, args).result()
    except BrokenProcessPool:
        with _restarting:
            if _settings is not None and _pool is pool:
                log.error("a heavy-work process died: the pool is started again")
                try:
                    start(*_settings)
                except OSError as exc:  # cannot start again: later fights are computed here
                    log.warning("heavy work stays in this process (%s: %s)", type(exc).__name__, exc)
        raise UserError(t("error.heavy_lost")) from None


def _warmed(warm: Callable[[], object] | None) -> None:
    if warm is not None:
        warm()


def _nothing() -> None:
    """A first task for each worker, so that it starts (and warms) at once."""


def _in_language(language: str, fn: Callable[..., T], args: tuple) -> T:
    with speaking(language):
        return fn(*args)
