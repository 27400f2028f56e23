"""Core work off the event loop. Every command's core call runs in a small thread pool, so the
gateway's heartbeat and every other user's interaction keep moving while one is computed; the
request's context variables (language, log fields, the request id) go with it.

Heavy work (exact odds, rolled battles, the chart) takes one of a few slots, so it can never fill
the pool, and every call has a time limit inside Discord's 3-second deadline: past it, the user
is told in a sentence (the work finishes in its thread, its result unused)."""

from __future__ import annotations

import asyncio
import contextvars
import functools
import logging
import weakref
from concurrent.futures import ThreadPoolExecutor

from tabletop.core import commands as core
from tabletop.core.errors import UserError
from tabletop.core.i18n import t
from tabletop.core.limits import ANSWER_LIMIT, DEFERRED_LIMIT, STORE_MARGIN, answer_within, time_left

log = logging.getLogger(__name__)

# Threads for core calls: enough that a few slow answers (a state server far away) leave room
# for the rest; each holds at most one state connection (the PostgreSQL pool's size).
WORKERS = 8
# Heavy calls at once: with two cores, two CPU-bound solvers already fill the machine.
HEAVY_SLOTS = 2
TIME_LIMIT = ANSWER_LIMIT  # its reason is in tabletop/core/limits.py

_pool = ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="core")
_slots: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = weakref.WeakKeyDictionary()


def _heavy_slots() -> asyncio.Semaphore:
    loop = asyncio.get_running_loop()
    if loop not in _slots:
        _slots[loop] = asyncio.Semaphore(HEAVY_SLOTS)
    return _slots[loop]


async def call(fn, *args, heavy: bool = False, limit: float | None = None, **kwargs):
    """`fn(*args, **kwargs)` in the pool, with this request's context; a UserError past the
    time limit (TIME_LIMIT unless given), or while every heavy slot stays busy that long."""
    # within the request's own clock when its presenter started one (it waited for a lock first)
    wanted = TIME_LIMIT if limit is None else limit
    limit = time_left(wanted)
    if limit < wanted and limit <= STORE_MARGIN:
        raise UserError(t("state.busy"))  # the request's time went waiting: nothing was done
    loop = asyncio.get_running_loop()
    context = contextvars.copy_context()
    context.run(answer_within, limit - STORE_MARGIN)  # the store's waits end before this call's
    work = functools.partial(context.run, fn, *args, **kwargs)
    if not heavy:
        return await _limited(loop.run_in_executor(_pool, work), limit, "error.too_slow_plain")
    slots = _heavy_slots()
    try:
        await asyncio.wait_for(slots.acquire(), limit)
    except TimeoutError:
        raise UserError(t("error.busy")) from None
    future = loop.run_in_executor(_pool, work)
    future.add_done_callback(lambda _: slots.release())  # the slot is free when the work is, not before
    return await _limited(future, limit, "error.too_slow")


async def _limited(future: asyncio.Future, limit: float, said: str):
    """The work's result, or past `limit` the sentence `said` (a heavy fight: fewer units; any
    other command: try again). The work runs on; its outcome, or its error, is only logged."""
    try:
        return await asyncio.wait_for(asyncio.shield(future), limit)
    except TimeoutError:
        log.warning("a command took longer than %.1f s: answered with a refusal", limit)
        future.add_done_callback(_log_late_failure)
        raise UserError(t(said, seconds=limit)) from None


def _log_late_failure(future: asyncio.Future) -> None:
    """Retrieve what late work raised (else asyncio logs "exception was never retrieved" with a
    traceback); a user error was the user's business, anything else is worth a line."""
    if future.cancelled():
        return
    exc = future.exception()
    if exc is not None and not isinstance(exc, UserError):
        log.warning("a command answered late failed: %s: %s", type(exc).__name__, exc)


async def run(ctx: core.Context, name: str, /, **values):
    """`core.run` off the event loop: the command table's answer to one interaction, in a heavy
    slot and with the longer limit where the table declares the command heavy or deferred."""
    cmd = core.COMMANDS.get(name)
    heavy, deferred = (cmd.heavy, cmd.deferred) if cmd else (False, False)
    limit = DEFERRED_LIMIT if deferred else TIME_LIMIT
    return await call(core.run, ctx, name, heavy=heavy, limit=limit, **values)
