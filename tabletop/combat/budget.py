"""How much work one exact solve may do: past it the fight is refused with a sentence rather
than left to hang (the solver and the side-state search both count against it)."""

from __future__ import annotations

import time

from tabletop.core.errors import UserError
from tabletop.core.i18n import t

MAX_STATES = 60_000  # joint states; past this the battle is refused rather than left to hang
TIME_BUDGET = 1.0  # seconds: a battle that takes longer is refused with a message


class Budget:
    def __init__(self) -> None:
        self.deadline = time.perf_counter() + TIME_BUDGET
        # the fights that follow a card played, each solved once a solve (odds.Cards): many
        # rounds of many fights lead to the same sides with the same cards left
        self.followed: dict[tuple, object] = {}
        self.compiled = True  # whether the vectorised solver's compiled kernels may be used (odds.SMALL_FIGHT)

    def check(self, states: int = 0) -> None:
        if states > MAX_STATES or time.perf_counter() > self.deadline:
            raise UserError(t("odds.too_big", seconds=f"{TIME_BUDGET:g}"))
