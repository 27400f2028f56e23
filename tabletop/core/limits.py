"""How long an answer may take: the front ends enforce it, and whatever waits on something
outside the process (the state store) gives up before it, so that a user is told why in time
instead of getting Discord's "the application did not respond".

A front end starts each request's clock (`answer_within`); every wait below it asks
`time_left` how long it may still last, so that waits one after another (a free slot, a lock,
a statement) never add up past the request's deadline."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

# Discord drops an interaction not answered within 3 s; sending the answer takes the rest.
ANSWER_LIMIT = 2.5
# The store gives up this long before the answer limit, so that its own sentence ("busy", "not
# recorded") is what the user reads, not the generic "did not finish in time".
STORE_MARGIN = 0.3

# A command that answers after "thinking…" (the exact odds): Discord allows 15 minutes, a player at
# the table waits seconds, and a fight the solver cannot finish by then is refused.
DEFERRED_LIMIT = 20.0

_deadline: ContextVar[float | None] = ContextVar("answer_deadline", default=None)


def answer_within(seconds: float) -> None:
    """Set by a front end as a request starts (in the request's own context)."""
    _deadline.set(time.monotonic() + seconds)


def time_left(most: float) -> float:
    """How long a wait may last now: at most `most`, never past the request's deadline (0: do
    not wait at all). Without a deadline (the console, the command line), `most`."""
    deadline = _deadline.get()
    if deadline is None:
        return most
    return max(0.0, min(most, deadline - time.monotonic()))


@contextmanager
def one_request(seconds: float) -> Iterator[None]:
    """A request's clock for a front end that runs requests one after another in one context
    (the console): started here, gone when the request ends."""
    token = _deadline.set(time.monotonic() + seconds)
    try:
        yield
    finally:
        _deadline.reset(token)
