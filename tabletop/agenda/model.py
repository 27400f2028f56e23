"""What an agenda is, as the store keeps it and every front end shows it: its players, ballots
and outcomes, the limits on what is typed, and how typed people and outcomes are read."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tabletop.agenda import windows
from tabletop.agenda.windows import Pass, Play
from tabletop.core import text
from tabletop.core.errors import UserError
from tabletop.core.i18n import t

TYPES = ("for-against", "elect-player", "elect-planet", "elect-other")
KINDS = ("law", "directive")
FOR, AGAINST = "가결", "부결"  # as stored: the names of a for/against agenda's two outcomes


def label(outcome: str | None, locale: str | None = None) -> str:
    """An outcome as a reader sees it: For and Against in the reader's language, any other
    outcome (a planet, a player, a name on the list) as it was given."""
    if outcome == FOR:
        return t("agenda.outcome.for", locale)
    if outcome == AGAINST:
        return t("agenda.outcome.against", locale)
    return outcome or ""


MAX_OUTCOMES = 25
MAX_PLAYERS = 8
MAX_VOTES = 999
MAX_NAME = 80
_MENTION_RE = re.compile(r"<@!?(\d+)>")


def clean(value: str) -> str:
    """A name, outcome or card as typed, made safe to show anywhere (text.without_controls)."""
    return " ".join(text.without_controls(value).split())


@dataclass(frozen=True)
class Player:
    id: str
    name: str

    def matches(self, user_id: str, name: str) -> bool:
        return self.id == str(user_id) or text.key(self.name) == text.key(name)


@dataclass
class Ballot:
    voter_id: str
    voter_name: str
    outcome: str | None  # None: abstained
    votes: int


@dataclass
class Agenda:
    id: int
    guild_id: str
    channel_id: str
    name: str
    outcome_type: str
    card_kind: str | None
    outcomes: list[str]
    speaker: Player | None
    players: list[Player]  # in voting order (left of the speaker first, the speaker last)
    starter: Player
    status: str
    message_id: str | None = None
    locale: str = "ko"
    ballots: list[Ballot] = field(default_factory=list)
    predictions: dict[str, tuple[str, str]] = field(default_factory=dict)  # player id -> (name, outcome)
    result: dict | None = None
    secret: bool = False  # ballots hidden from everyone but their voter until the agenda closes
    windows: bool = False  # the when and after windows come before the vote
    passes: list[Pass] = field(default_factory=list)
    plays: list[Play] = field(default_factory=list)
    phase_id: int | None = None  # the agenda phase (/agenda phase) it belongs to
    # Stellar Atomics (Thunder's Edge galactic event): listed players without their token on its
    # card, who cannot vote or play action cards during the agenda phase
    barred: list[Player] = field(default_factory=list)
    # Hidden Agenda (Thunder's Edge galactic event): secret ballots of which only the totals are
    # ever shown; who voted how, only to the speaker, who reveals it when an outcome needs it
    totals_only: bool = False

    @property
    def window(self) -> str | None:
        """The window still open ('when', 'after'), or None: voting (or no windows at all)."""
        return windows.open_window(self.players, self.passes) if self.windows and self.open else None

    @property
    def label(self) -> str:
        """How acknowledgements name it: "#3 분리 독트린"."""
        return f"#{self.id} {self.name}"

    def ballots_shown_to(self, viewer: Player | None) -> bool:
        """Whether this viewer may read who voted how (in /agenda show's log)."""
        if self.totals_only:  # the speaker alone: by their account when one was mentioned, not a nickname
            speaker = self.speaker
            if viewer is None or speaker is None:
                return False
            return speaker.matches(viewer.id, viewer.name) if speaker.id.startswith("name:") else speaker.id == str(viewer.id)
        return not self.hidden

    @property
    def hidden(self) -> bool:
        """Whether ballots are to be shown as "voted" only: a secret agenda until it closes (a
        cancelled one never reveals them, or cancelling would unmask every ballot)."""
        return self.secret and self.status != "closed"

    def tally(self) -> dict[str, int]:
        totals = {o: 0 for o in self.outcomes}
        for b in self.ballots:
            if b.outcome is not None:
                totals[b.outcome] = totals.get(b.outcome, 0) + b.votes
        return totals

    def leaders(self) -> list[str]:
        totals = self.tally()
        cast = sum(totals.values())
        if cast == 0:
            return list(self.outcomes)  # nobody voted: the speaker chooses among all (62.19)
        top = max(totals.values())
        return [o for o, v in totals.items() if v == top]

    def ballot_of(self, voter_id: str) -> Ballot | None:
        return next((b for b in self.ballots if b.voter_id == str(voter_id)), None)

    def next_voter(self) -> Player | None:
        """Whose turn it is: the first player in order without a ballot who may vote (a player
        without a Stellar Atomics token is passed over)."""
        done = {b.voter_id for b in self.ballots} | {text.key(b.voter_name) for b in self.ballots}
        done |= {b.id for b in self.barred} | {text.key(b.name) for b in self.barred}
        for p in self.players:
            if p.id not in done and text.key(p.name) not in done:
                return p
        return None

    @property
    def open(self) -> bool:
        return self.status == "open"


def voting_order(players: list[Player], speaker: Player | None) -> list[Player]:
    """Players listed clockwise from any seat: start left of the speaker, end with the speaker."""
    if speaker is None:
        return players
    for i, p in enumerate(players):
        if p.id == speaker.id or text.key(p.name) == text.key(speaker.name):
            return players[i + 1 :] + players[: i + 1]
    return players


def parse_people(spec: str | None, resolve=None) -> list[Player]:
    """'<@1> <@2>' or 'Alice, Bob, 철수' -> players. `resolve` maps a mention id to a name."""
    spec = (spec or "").strip()
    if not spec:
        return []
    people: list[Player] = []
    mentions = _MENTION_RE.findall(spec)
    rest = _MENTION_RE.sub(",", spec)
    for uid in mentions:
        people.append(Player(uid, resolve(uid) if resolve else uid))
    for name in re.split(r"[,，、\n]|\s{2,}", rest):
        name = name.strip()
        if name:
            people.append(Player(f"name:{text.key(name)}", name[:MAX_NAME]))
    if len(people) > MAX_PLAYERS:
        raise UserError(t("agenda.too_many_players", limit=MAX_PLAYERS))
    keys = [p.id for p in people]
    if len(set(keys)) != len(keys):
        raise UserError(t("agenda.duplicate_player"))
    return people


def split_outcomes(spec: str | None) -> list[str]:
    return [o.strip() for o in re.split(r"[,，、\n|/]", spec or "") if o.strip()]
