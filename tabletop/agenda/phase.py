"""The agenda phase as a whole (62.2-62.4): the first agenda, then the second, then every player
readies their planets. `/agenda phase` opens the first; closing it opens the second with the
same players, speaker and windows; closing the second ends the phase with the reminder.
Cancelling an agenda of a phase ends the phase.

The step is advanced with a compare-and-set on the phase row, so two processes closing the
same agenda cannot open the second agenda twice.
"""

from __future__ import annotations

import json

from tabletop.agenda import rules
from tabletop.agenda.model import Agenda, Player
from tabletop.agenda.store import AgendaStore, channel_lock

LAST_STEP = 2  # two agendas per phase (62.2, 62.3)


def phase_lock(phase_id: int) -> str:
    """The name every change to one phase's step locks, in every process."""
    return f"phase:{phase_id}"


def start(
    store: AgendaStore,
    guild_id: str,
    channel_id: str,
    starter: Player,
    players: list[Player],
    speaker: Player | None,
    with_windows: bool,
    names: list[str],
    barred: list[Player] | None = None,
    totals_only: bool = False,
) -> Agenda:
    """Open the phase's first agenda (for or against: the speaker names an election's
    candidates with /agenda start instead) and record the phase, in one transaction: a first
    agenda that is refused, or a fault, leaves nothing behind."""
    first = rules.checked(
        guild_id,
        channel_id,
        starter,
        names[0],
        [],
        speaker=speaker,
        players=players,
        with_windows=with_windows,
        barred=barred,
        totals_only=totals_only,
    )
    with store.state.transaction(lock=channel_lock(guild_id, channel_id)) as c:
        phase_id = c.execute(
            "insert into agenda_phases (guild_id, channel_id, players, speaker, windows, names, barred, totals_only) "
            "values (?, ?, ?, ?, ?, ?, ?, ?) returning id",
            (
                str(guild_id),
                str(channel_id),
                json.dumps([p.__dict__ for p in players], ensure_ascii=False),
                json.dumps(speaker.__dict__, ensure_ascii=False) if speaker else None,
                int(with_windows),
                json.dumps(names, ensure_ascii=False),
                json.dumps([p.__dict__ for p in first.barred], ensure_ascii=False),
                int(first.totals_only),
            ),
        ).fetchone()[0]
        agenda_id = store.insert(c, first, phase_id)
        started = store.loaded(c, agenda_id)  # read before the commit: nothing after it can fail
    return started


def advance(store: AgendaStore, closed: Agenda, actor: Player) -> tuple[Agenda | None, bool]:
    """After an agenda of a phase closed: (the next agenda it opened, whether the phase is now
    over). (None, False) for an agenda outside a phase, or when another process advanced it.
    The step moves and the next agenda opens in one transaction: never one without the other."""
    if closed.phase_id is None:
        return None, False
    locks = (phase_lock(closed.phase_id), channel_lock(closed.guild_id, closed.channel_id))
    with store.state.transaction(lock=locks) as c:
        # the step the closed agenda was: the phase's agendas up to it (a repeat of the same
        # close finds the phase already past it, and moves nothing)
        step = c.execute("select count(*) from agendas where phase_id = ? and id <= ?", (closed.phase_id, closed.id)).fetchone()[
            0
        ]
        moved = c.execute(
            "update agenda_phases set step = ? where id = ? and step = ?", (step + 1, closed.phase_id, step)
        ).rowcount
        if not moved or step >= LAST_STEP:
            return None, bool(moved)
        row = c.execute("select * from agenda_phases where id = ?", (closed.phase_id,)).fetchone()
        players = [Player(**p) for p in json.loads(row["players"])]
        speaker = Player(**json.loads(row["speaker"])) if row["speaker"] else None
        name = json.loads(row["names"])[step]
        windows = bool(row["windows"])
        barred = [Player(**p) for p in json.loads(row["barred"])]
        following = rules.checked(
            closed.guild_id,
            closed.channel_id,
            actor,
            name,
            [],
            speaker=speaker,
            players=players,
            with_windows=windows,
            barred=barred,
            totals_only=bool(row["totals_only"]),
        )
        agenda_id = store.insert(c, following, closed.phase_id)
        opened = store.loaded(c, agenda_id)
    return opened, False


def end(store: AgendaStore, cancelled: Agenda) -> None:
    """A cancelled agenda ends its phase: no second agenda opens by itself."""
    if cancelled.phase_id is not None:
        with store.state.transaction(lock=phase_lock(cancelled.phase_id)) as c:
            c.execute("update agenda_phases set step = ? where id = ?", (LAST_STEP + 1, cancelled.phase_id))
