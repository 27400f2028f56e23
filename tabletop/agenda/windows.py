"""The "when" and "after" windows of an agenda, as online tables run them: after the agenda is
revealed every listed player either plays a card that says "when an agenda is revealed" or
passes; then the same for "after an agenda is revealed" (riders and predictions go here,
62.22); then the vote. Playing a card reopens the window for those who had passed, except a
lasting pass ("no whens for this agenda, whatever is played").

The open window is not stored: it follows from the passes, so two processes recording passes
at once cannot leave it out of step with them.
"""

from __future__ import annotations

from dataclasses import dataclass

from tabletop.store import now_text

WINDOWS = ("when", "after")
MAX_CARD = 100  # a card's name as typed: the longest official agenda-phase card name is ~40


@dataclass(frozen=True)
class Pass:
    window: str
    player_id: str
    player_name: str
    lasting: bool


@dataclass(frozen=True)
class Play:
    window: str
    player_name: str
    card: str


def open_window(players, passes: list[Pass]) -> str | None:
    """'when' or 'after' while some listed player has not passed in it, else None (voting)."""
    for window in WINDOWS:
        passed = {p.player_id for p in passes if p.window == window}
        if any(player.id not in passed for player in players):
            return window
    return None


def waiting(players, passes: list[Pass], window: str) -> list:
    """The players who have not passed in the window yet, in seating order."""
    passed = {p.player_id for p in passes if p.window == window}
    return [player for player in players if player.id not in passed]


def record_pass(c, agenda_id: int, window: str, player, lasting: bool) -> None:
    c.execute(
        "insert into agenda_passes (agenda_id, stage, player_id, player_name, lasting, at) values (?, ?, ?, ?, ?, ?) "
        "on conflict (agenda_id, stage, player_id) do update set lasting = "
        "case when excluded.lasting > agenda_passes.lasting then excluded.lasting else agenda_passes.lasting end",
        (agenda_id, window, player.id, player.name, int(lasting), now_text()),
    )


def record_play(c, agenda_id: int, window: str, player, card: str) -> None:
    """The card is shown in the message; everyone who passed without a lasting pass may now
    answer it, so their passes in this window are taken back."""
    c.execute(
        "insert into agenda_plays (agenda_id, stage, player_id, player_name, card) values (?, ?, ?, ?, ?)",
        (agenda_id, window, player.id, player.name, card),
    )
    c.execute("delete from agenda_passes where agenda_id = ? and stage = ? and lasting = 0", (agenda_id, window))


def load(c, agenda_id: int) -> tuple[list[Pass], list[Play]]:
    passes = [
        Pass(w, pid, name, bool(lasting))
        for w, pid, name, lasting in c.execute(
            "select stage, player_id, player_name, lasting from agenda_passes where agenda_id = ? order by at, player_id",
            (agenda_id,),
        )
    ]
    plays = [
        Play(w, name, card)
        for w, name, card in c.execute(
            "select stage, player_name, card from agenda_plays where agenda_id = ? order by id", (agenda_id,)
        )
    ]
    return passes, plays
