"""The agenda phase (glossary 62-63) as the bot runs it: one open agenda per channel (a second
start there is refused, naming the open one), ballots committed to the state database before
they are acknowledged, and a result by the rules (checked as values in rules.py; this module is
their storage).

- a player's votes all go to one outcome (62.7); zero votes or Abstain is abstaining (62.14);
- the voting order starts left of the speaker and ends with the speaker (62.2 ii) - shown, not
  enforced;
- predictions only after the reveal and before the first ballot (62.22); with the when and
  after windows on (windows.py), only in the after window, and no vote before both close;
- most votes wins; a tie, or nobody voting, is the speaker's choice among the tied outcomes
  (all of them when nobody voted) (62.19);
- a law that passes or elects stays in play (62.20, 63.3); a law that fails and a directive are
  discarded (62.21, 63.6, 63.8).
"""

from __future__ import annotations

import json
from typing import Any

from tabletop.agenda import rules, windows
from tabletop.agenda import schema as _schema  # noqa: F401 - registers the agenda's tables
from tabletop.agenda.model import (
    MAX_OUTCOMES,
    MAX_VOTES,
    Agenda,
    Ballot,
    Player,
    clean,
)
from tabletop.core.errors import UserError
from tabletop.core.i18n import t
from tabletop.store import StateStore, now_text


def agenda_lock(agenda_id: int) -> str:
    """The name every change to one agenda locks, in every process."""
    return f"agenda:{agenda_id}"


def channel_lock(guild_id: str, channel_id: str) -> str:
    """The name an agenda's start locks: one open agenda per channel."""
    return f"channel:{guild_id}:{channel_id}"


class AgendaStore:
    """Agendas in the state database. Every change is one committed transaction."""

    def __init__(self, state: StateStore):
        self.state = state

    # --- reading -------------------------------------------------------------------------

    def loaded(self, c, agenda_id: int) -> Agenda:
        """The agenda a transaction is writing, as it will be committed: a reply built from it
        needs no read after the commit, which could fail and tell a recorded vote it was not."""
        agenda = self._load(c, agenda_id)
        if agenda is None:
            raise LookupError(f"no agenda {agenda_id}")
        return agenda

    def get(self, agenda_id: int) -> Agenda | None:
        with self.state.read() as c:
            return self._load(c, agenda_id)

    def _load(self, c, agenda_id: int) -> Agenda | None:
        """The agenda as `c` sees it (a read, or a transaction that holds its lock)."""
        row = c.execute("select * from agendas where id = ?", (agenda_id,)).fetchone()
        if row is None:
            return None
        ballots = c.execute(
            "select voter_id, voter_name, outcome, votes from ballots where agenda_id = ? order by cast_at, voter_id",
            (agenda_id,),
        ).fetchall()
        predictions = c.execute(
            "select player_id, player_name, outcome from predictions where agenda_id = ? order by made_at, player_id",
            (agenda_id,),
        ).fetchall()
        passes, plays = windows.load(c, agenda_id)
        outcomes = c.execute("select name from agenda_outcomes where agenda_id = ? order by position", (agenda_id,)).fetchall()
        speaker = json.loads(row["speaker"]) if row["speaker"] else None
        return Agenda(
            id=row["id"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            name=row["name"],
            outcome_type=row["outcome_type"],
            card_kind=row["card_kind"],
            outcomes=[r[0] for r in outcomes],
            speaker=Player(**speaker) if speaker else None,
            players=[Player(**p) for p in json.loads(row["players"])],
            starter=Player(row["starter_id"], row["starter_name"]),
            status=row["status"],
            message_id=row["message_id"],
            locale=row["locale"],
            ballots=[Ballot(*b) for b in ballots],
            predictions={p[0]: (p[1], p[2]) for p in predictions},
            result=json.loads(row["result"]) if row["result"] else None,
            secret=bool(row["secret"]),
            windows=bool(row["windows"]),
            passes=passes,
            plays=plays,
            phase_id=row["phase_id"],
            barred=[Player(**p) for p in json.loads(row["barred"])],
            totals_only=bool(row["totals_only"]),
        )

    def current(self, guild_id: str, channel_id: str) -> Agenda | None:
        with self.state.read() as c:
            row = c.execute(
                "select id from agendas where guild_id = ? and channel_id = ? and status = 'open' order by id desc limit 1",
                (str(guild_id), str(channel_id)),
            ).fetchone()
        return self.get(row[0]) if row else None

    def history(self, guild_id: str, channel_id: str, limit: int = 10) -> list[Agenda]:
        with self.state.read() as c:
            ids = [
                r[0]
                for r in c.execute(
                    "select id from agendas where guild_id = ? and channel_id = ? order by id desc limit ?",
                    (str(guild_id), str(channel_id), limit),
                )
            ]
        return [a for a in (self.get(i) for i in ids) if a]

    def log(self, agenda_id: int) -> list[dict]:
        with self.state.read() as c:
            rows = c.execute(
                "select actor_name, action, detail, at from agenda_log where agenda_id = ? order by id", (agenda_id,)
            ).fetchall()
        return [dict(r) for r in rows]

    # --- changing ------------------------------------------------------------------------

    def start(self, *args: Any, **kwargs: Any) -> Agenda:
        """Open a new agenda: its values as `rules.checked` takes them (and checks them, with a
        sentence for the first that is wrong), declared there once."""
        new = rules.checked(*args, **kwargs)
        with self.state.transaction(lock=channel_lock(new.guild_id, new.channel_id)) as c:
            agenda_id = self.insert(c, new)
            after = self.loaded(c, agenda_id)  # read before the commit: nothing after it can fail
        return after

    def insert(self, c, new: Agenda, phase_id: int | None = None) -> int:
        """Open a checked agenda within the caller's transaction, which holds its channel's lock:
        one open agenda per channel, so that every ballot knows where it goes."""
        open_here = c.execute(
            "select id, name from agendas where guild_id = ? and channel_id = ? and status = 'open' order by id limit 1",
            (new.guild_id, new.channel_id),
        ).fetchone()
        if open_here:
            raise UserError(t("agenda.already_open", id=open_here[0], name=open_here[1]))
        speaker = new.speaker
        agenda_id = c.execute(
            "insert into agendas (guild_id, channel_id, name, outcome_type, card_kind, outcomes, speaker, speaker_id, "
            "players, starter_id, starter_name, locale, secret, windows, phase_id, barred, totals_only) "
            "values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning id",
            (
                new.guild_id,
                new.channel_id,
                new.name,
                new.outcome_type,
                new.card_kind,
                json.dumps(new.outcomes, ensure_ascii=False),
                json.dumps(speaker.__dict__, ensure_ascii=False) if speaker else None,
                speaker.id if speaker else None,
                json.dumps([p.__dict__ for p in new.players], ensure_ascii=False),
                new.starter.id,
                new.starter.name,
                new.locale,
                int(new.secret),
                int(new.windows),
                phase_id,
                json.dumps([p.__dict__ for p in new.barred], ensure_ascii=False),
                int(new.totals_only),
            ),
        ).fetchone()[0]
        for position, outcome in enumerate(new.outcomes):
            c.execute("insert into agenda_outcomes (agenda_id, position, name) values (?, ?, ?)", (agenda_id, position, outcome))
        self._log(c, agenda_id, new.starter, "start", new.name)
        return agenda_id

    def set_message(self, agenda_id: int, message_id: str) -> None:
        with self.state.transaction(lock=agenda_lock(agenda_id)) as c:
            c.execute("update agendas set message_id = ? where id = ?", (str(message_id), agenda_id))

    def _open(self, agenda_id: int) -> Agenda:
        agenda = self.get(agenda_id)
        if agenda is None:
            raise UserError(t("agenda.not_found"))
        if not agenda.open:
            raise UserError(t("agenda.closed", name=agenda.name))
        return agenda

    def vote(self, agenda_id: int, user: Player, outcome: str | None, votes: int) -> Agenda:
        """Record (or change) a ballot; 0 votes is abstaining (62.14). Committed before return."""
        if not isinstance(votes, int) or isinstance(votes, bool) or not 0 <= votes <= MAX_VOTES:
            raise UserError(t("agenda.bad_votes", limit=MAX_VOTES))
        agenda = self._open(agenda_id)
        voter = rules.acting(agenda, user) if votes > 0 else rules.voter(agenda, user)  # anyone may abstain
        chosen = rules.resolve_outcome(agenda, outcome) if votes > 0 else None
        with self.state.transaction(lock=agenda_lock(agenda_id)) as c:
            if c.execute("select status from agendas where id = ?", (agenda_id,)).fetchone()[0] != "open":
                raise UserError(t("agenda.closed", name=agenda.name))
            self._windows_closed(c, agenda)
            # a planet named for the first time is a new outcome row, numbered after the rows
            # committed now (the agenda's lock keeps that count still until this commits)
            committed = [r[0] for r in c.execute("select name from agenda_outcomes where agenda_id = ?", (agenda_id,))]
            if chosen is not None and chosen not in committed:
                if len(committed) + 1 > MAX_OUTCOMES:
                    raise UserError(t("agenda.too_many_outcomes", count=len(committed) + 1, limit=MAX_OUTCOMES))
                c.execute(
                    "insert into agenda_outcomes (agenda_id, position, name) values (?, ?, ?)",
                    (agenda_id, len(committed), chosen),
                )
            c.execute(
                "insert into ballots (agenda_id, voter_id, voter_name, outcome, votes, cast_at) values (?, ?, ?, ?, ?, ?) "
                "on conflict (agenda_id, voter_id) do update set outcome = excluded.outcome, votes = excluded.votes, "
                "voter_name = excluded.voter_name, cast_at = excluded.cast_at",
                (agenda_id, voter.id, voter.name, chosen, votes if chosen else 0, now_text()),
            )
            self._log(c, agenda_id, voter, "vote" if chosen else "abstain", f"{chosen} {votes}" if chosen else "")
            after = self.loaded(c, agenda_id)  # read before the commit: nothing after it can fail
        return after

    def abstain(self, agenda_id: int, user: Player) -> Agenda:
        return self.vote(agenda_id, user, None, 0)

    def _windows_closed(self, c, agenda: Agenda) -> None:
        """Refuse a ballot while a window is open, naming it and who has not passed (read in
        the ballot's own transaction, so a pass taken back by a card played meanwhile counts)."""
        if not agenda.windows:
            return
        passes, _ = windows.load(c, agenda.id)
        window = windows.open_window(agenda.players, passes)
        if window:
            names = ", ".join(p.name for p in windows.waiting(agenda.players, passes, window))
            raise UserError(t("agenda.window_open", window=t(f"agenda.window.{window}"), players=names))

    def pass_window(self, agenda_id: int, user: Player, window: str, lasting: bool = False) -> Agenda:
        """A listed player passes in the open window (for the rest of the agenda with `lasting`)."""
        agenda, player = self._in_window(agenda_id, user, window)
        with self.state.transaction(lock=agenda_lock(agenda_id)) as c:
            self._check_window(c, agenda, window)
            windows.record_pass(c, agenda_id, window, player, lasting)
            self._log(c, agenda_id, player, "pass", f"{window}{' lasting' if lasting else ''}")
            after = self.loaded(c, agenda_id)  # read before the commit: nothing after it can fail
        return after

    def play_card(self, agenda_id: int, user: Player, window: str, card: str) -> Agenda:
        """A listed player plays a card in the open window: shown, and the window reopens."""
        card = clean(card or "")
        if not card:
            raise UserError(t("agenda.empty_card"))
        if len(card) > windows.MAX_CARD:
            raise UserError(t("agenda.card_too_long", limit=windows.MAX_CARD))
        agenda, player = self._in_window(agenda_id, user, window)
        rules.acting(agenda, player)  # an action card: not without a Stellar Atomics token
        with self.state.transaction(lock=agenda_lock(agenda_id)) as c:
            self._check_window(c, agenda, window)
            windows.record_play(c, agenda_id, window, player, card)
            self._log(c, agenda_id, player, "play", f"{window} {card}")
            after = self.loaded(c, agenda_id)  # read before the commit: nothing after it can fail
        return after

    def _in_window(self, agenda_id: int, user: Player, window: str) -> tuple[Agenda, Player]:
        if window not in windows.WINDOWS:
            raise UserError(t("agenda.bad_window", windows=" | ".join(windows.WINDOWS)))
        agenda = self._open(agenda_id)
        if not agenda.windows:
            raise UserError(t("agenda.no_windows", agenda=agenda.label))
        return agenda, rules.voter(agenda, user)

    def _check_window(self, c, agenda: Agenda, window: str) -> None:
        if c.execute("select status from agendas where id = ?", (agenda.id,)).fetchone()[0] != "open":
            raise UserError(t("agenda.closed", name=agenda.name))
        passes, _ = windows.load(c, agenda.id)
        current = windows.open_window(agenda.players, passes)
        if current != window:
            key = (
                "agenda.window_closed"
                if current is None or windows.WINDOWS.index(window) < windows.WINDOWS.index(current)
                else "agenda.window_not_yet"
            )
            raise UserError(
                t(
                    key,
                    window=t(f"agenda.window.{window}"),
                    current=t(f"agenda.window.{current or 'vote'}"),
                )
            )

    def predict(self, agenda_id: int, user: Player, outcome: str) -> Agenda:
        """62.22: after the reveal, before votes are cast: refused once a ballot exists, and
        with the windows on, only in the after window."""
        agenda = self._open(agenda_id)
        player = rules.acting(agenda, user)  # a prediction is a rider's: an action card
        chosen = rules.resolve_outcome(agenda, outcome)
        with self.state.transaction(lock=agenda_lock(agenda_id)) as c:
            if agenda.windows:
                passes, _ = windows.load(c, agenda_id)
                if windows.open_window(agenda.players, passes) != "after":
                    raise UserError(t("agenda.predict_in_after"))
            if c.execute("select count(*) from ballots where agenda_id = ?", (agenda_id,)).fetchone()[0]:
                raise UserError(t("agenda.predict_too_late"))
            c.execute(
                "insert into predictions (agenda_id, player_id, player_name, outcome) values (?, ?, ?, ?) "
                "on conflict (agenda_id, player_id) do update set outcome = excluded.outcome",
                (agenda_id, player.id, player.name, chosen),
            )
            self._log(c, agenda_id, player, "predict", chosen)
            after = self.loaded(c, agenda_id)  # read before the commit: nothing after it can fail
        return after

    def close(self, agenda_id: int, user: Player, is_admin: bool, choice: str | None = None) -> Agenda:
        """Resolve by the ballots as committed: read under the agenda's lock, so a ballot
        another process records meanwhile is either counted or refused as too late."""
        with self.state.transaction(lock=agenda_lock(agenda_id)) as c:
            agenda = self._load(c, agenda_id)
            if agenda is None:
                raise UserError(t("agenda.not_found"))
            if not agenda.open:
                raise UserError(t("agenda.closed", name=agenda.name))
            if not rules.can_manage(agenda, user, is_admin):
                raise UserError(t("agenda.no_permission", speaker=agenda.speaker.name if agenda.speaker else agenda.starter.name))
            result = rules.resolution(agenda, user, choice)
            c.execute(
                "update agendas set status = 'closed', result = ?, closed_at = ? where id = ? and status = 'open'",
                (json.dumps(result, ensure_ascii=False), now_text(), agenda_id),
            )
            self._log(c, agenda_id, user, "close", result["winner"])
            after = self.loaded(c, agenda_id)  # read before the commit: nothing after it can fail
        return after

    def cancel(self, agenda_id: int, user: Player, is_admin: bool) -> Agenda:
        agenda = self._open(agenda_id)
        if not rules.can_manage(agenda, user, is_admin):
            raise UserError(t("agenda.no_permission", speaker=agenda.speaker.name if agenda.speaker else agenda.starter.name))
        with self.state.transaction(lock=agenda_lock(agenda_id)) as c:
            c.execute(
                "update agendas set status = 'cancelled', closed_at = ? where id = ?",
                (now_text(), agenda_id),
            )
            self._log(c, agenda_id, user, "cancel", "")
            after = self.loaded(c, agenda_id)  # read before the commit: nothing after it can fail
        return after

    @staticmethod
    def _log(c, agenda_id: int, actor: Player, action: str, detail: str) -> None:
        c.execute(
            "insert into agenda_log (agenda_id, actor_id, actor_name, action, detail) values (?, ?, ?, ?, ?)",
            (agenda_id, actor.id, actor.name, action, detail),
        )
