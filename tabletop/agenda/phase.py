"""The agenda phase as a whole (62.2-62.4): the first agenda, then the second, then every player
readies their planets. `/agenda phase` opens the first; closing it opens the second with the
same players, speaker and windows; closing the second ends the phase with the reminder.
Cancelling an agenda of a phase ends the phase.

The step is advanced with a compare-and-set on the phase row, so two processes closing the
same agenda cannot open the second agenda twice.
"""

from __future__ import annotations

import json

from tabletop.agenda.store import Agenda, AgendaStore, Player, agenda_lock

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
) -> Agenda:
    """Open the phase's first agenda (for or against: the speaker names an election's
    candidates with /agenda start instead), then record the phase and tie the agenda to it. A
    first agenda that is refused leaves nothing behind."""
    first = store.start(
        guild_id, channel_id, starter, names[0], [], "for-against", None, speaker, players, with_windows=with_windows
    )
    with store.state.transaction(lock=agenda_lock(first.id)) as c:
        cur = c.execute(
            "insert into agenda_phases (guild_id, channel_id, players, speaker, windows, names) "
            "values (?, ?, ?, ?, ?, ?) returning id",
            (
                str(guild_id),
                str(channel_id),
                json.dumps([p.__dict__ for p in players], ensure_ascii=False),
                json.dumps(speaker.__dict__, ensure_ascii=False) if speaker else None,
                int(with_windows),
                json.dumps(names, ensure_ascii=False),
            ),
        )
        c.execute("update agendas set phase_id = ? where id = ?", (cur.fetchone()[0], first.id))
    return store.known(first.id)


def _open(store: AgendaStore, phase_id: int, step: int, guild_id, channel_id, starter: Player) -> Agenda:
    with store.state.read() as c:
        row = c.execute("select * from agenda_phases where id = ?", (phase_id,)).fetchone()
    players = [Player(**p) for p in json.loads(row["players"])]
    speaker = Player(**json.loads(row["speaker"])) if row["speaker"] else None
    name = json.loads(row["names"])[step - 1]
    return store.start(
        guild_id,
        channel_id,
        starter,
        name,
        [],
        "for-against",
        None,
        speaker,
        players,
        with_windows=bool(row["windows"]),
        phase_id=phase_id,
    )


def advance(store: AgendaStore, closed: Agenda, actor: Player) -> tuple[Agenda | None, bool]:
    """After an agenda of a phase closed: (the next agenda it opened, whether the phase is now
    over). (None, False) for an agenda outside a phase, or when another process advanced it."""
    if closed.phase_id is None:
        return None, False
    with store.state.transaction(lock=phase_lock(closed.phase_id)) as c:
        # the step the closed agenda was: the phase's agendas up to it (a repeat of the same
        # close finds the phase already past it, and moves nothing)
        step = c.execute("select count(*) from agendas where phase_id = ? and id <= ?", (closed.phase_id, closed.id)).fetchone()[
            0
        ]
        moved = c.execute(
            "update agenda_phases set step = ? where id = ? and step = ?", (step + 1, closed.phase_id, step)
        ).rowcount
    if not moved:
        return None, False
    if step >= LAST_STEP:
        return None, True
    return _open(store, closed.phase_id, step + 1, closed.guild_id, closed.channel_id, actor), False


def end(store: AgendaStore, cancelled: Agenda) -> None:
    """A cancelled agenda ends its phase: no second agenda opens by itself."""
    if cancelled.phase_id is not None:
        with store.state.transaction(lock=phase_lock(cancelled.phase_id)) as c:
            c.execute("update agenda_phases set step = ? where id = ?", (LAST_STEP + 1, cancelled.phase_id))
