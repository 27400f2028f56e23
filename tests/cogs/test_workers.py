"""Core work off the event loop: the loop keeps serving while a command computes, a call past
the time limit is a sentence, and heavy work never holds more than its slots."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest
from said import said

from cogs import workers
from tabletop.core.errors import UserError
from tabletop.core.i18n import speaking
from tabletop.core.logs import guild_var


async def test_the_loop_keeps_serving_while_a_command_computes():
    ticks = 0

    async def heartbeat():
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0.01)

    def busy():  # CPU work, as the exact odds are
        end = time.perf_counter() + 0.5
        while time.perf_counter() < end:
            pass
        return threading.current_thread().name

    beat = asyncio.create_task(heartbeat())
    name = await workers.call(busy, heavy=True)
    beat.cancel()
    assert name.startswith("core") and ticks >= 5  # inline, the loop would have ticked once


async def test_the_request_context_goes_with_the_work():
    guild_var.set("guild-77")
    assert await workers.call(guild_var.get) == "guild-77"


async def test_a_call_past_the_time_limit_is_a_sentence(monkeypatch):
    monkeypatch.setattr(workers, "TIME_LIMIT", 0.1)
    with pytest.raises(UserError) as exc:
        await workers.call(time.sleep, 0.5)
    assert said("error.too_slow_plain", exc.value.message, seconds="0.1")
    with speaking("en"), pytest.raises(UserError) as exc:
        await workers.call(time.sleep, 0.5)
    assert said("error.too_slow_plain", exc.value.message, "en", seconds="0.1")


async def test_only_a_heavy_fight_past_the_limit_is_told_to_use_fewer_units(monkeypatch, caplog):
    monkeypatch.setattr(workers, "TIME_LIMIT", 0.1)
    caplog.set_level("WARNING", logger="cogs.workers")  # whatever level an earlier test left

    def slow_then_fails():
        time.sleep(0.3)
        raise RuntimeError("the store went away")

    with pytest.raises(UserError) as plain:
        await workers.call(slow_then_fails)
    assert said("error.too_slow_plain", plain.value.message) and not said("error.too_slow", plain.value.message)
    with pytest.raises(UserError) as heavy:
        await workers.call(time.sleep, 0.3, heavy=True)
    assert said("error.too_slow", heavy.value.message)
    await asyncio.sleep(0.4)  # the late failure is retrieved and logged in one line
    assert any("answered late failed: RuntimeError" in r.getMessage() for r in caplog.records)


async def test_heavy_work_waits_for_a_slot_and_says_when_none_frees(monkeypatch):
    monkeypatch.setattr(workers, "TIME_LIMIT", 0.3)
    release = threading.Event()
    running = 0
    most = 0
    lock = threading.Lock()

    def solve():
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        release.wait(2)
        with lock:
            running -= 1

    calls = [asyncio.create_task(workers.call(solve, heavy=True)) for _ in range(4)]
    done = await asyncio.gather(*calls, return_exceptions=True)
    release.set()
    assert most == workers.HEAVY_SLOTS
    messages = [d.message for d in done if isinstance(d, UserError)]
    assert len(messages) == 4 and sum(said("error.busy", m) for m in messages) == 4 - workers.HEAVY_SLOTS


async def test_the_askers_language_goes_with_the_work_into_the_pool():
    from tabletop.core.i18n import current

    with speaking("ja"):
        assert await workers.call(current) == "ja"
    assert await workers.call(current) == "ko"
