"""An agenda as one message: outcomes with running tallies and the ballots, the voting order with
whose turn it is, predictions, reminders, and the result when closed. The message stays within
Discord's limits at any number of ballots, players and outcomes: past a few names an outcome
says how many more voted for it, and the full record is `/agenda show`, paged.

A secret agenda (still open) shows who has voted, not how; everything is revealed at close."""

from __future__ import annotations

from dataclasses import replace
from zoneinfo import ZoneInfo

from tabletop.agenda import windows
from tabletop.agenda.model import Agenda, Player
from tabletop.agenda.model import label as outcome_label
from tabletop.agenda.store import AgendaStore
from tabletop.core.components import NUMBER, Component
from tabletop.core.i18n import current, t
from tabletop.core.render import (
    COLOR_OK,
    COLOR_RULE,
    FIELD_VALUE_MAX,
    Button,
    Embed,
    Paged,
    Reply,
    Select,
    SelectOption,
    chunk_lines,
    escape_md,
    footer_page,
    paginate,
    truncate_label,
)
from tabletop.core.timezones import local_time, zone_label

MAX_OUTCOME_BUTTONS = 5
NAMES_PER_OUTCOME = 8  # beyond this an outcome line says how many more: 25 outcomes stay in 4096

# The agenda message's buttons (their handlers are the commands', in agenda.commands): each
# carries the agenda's id, so a press after a restart, or in another process, acts on it.
VOTE = Component("agenda.vote", "agenda:{id}:vote:{index}", id=NUMBER, index=NUMBER)
PICK = Component("agenda.pick", "agenda:{id}:pick", select=True, id=NUMBER)  # more outcomes than buttons
PLANET = Component("agenda.planet", "agenda:{id}:planet", id=NUMBER)
ABSTAIN = Component("agenda.abstain", "agenda:{id}:abstain", id=NUMBER)
PREDICT = Component("agenda.predict", "agenda:{id}:predict", id=NUMBER)
PASS = Component("agenda.pass", "agenda:{id}:pass", id=NUMBER)
PASS_LOCK = Component("agenda.passlock", "agenda:{id}:passlock", id=NUMBER)
PLAY = Component("agenda.play", "agenda:{id}:play", id=NUMBER)
BUTTONS = (VOTE, PICK, PLANET, ABSTAIN, PREDICT, PASS, PASS_LOCK, PLAY)


def agenda_embed(agenda: Agenda) -> Embed:
    loc = agenda.locale
    title = t("agenda.title", loc, id=agenda.id, name=agenda.name)
    if agenda.card_kind:
        title += f" ({t(f'agenda.kind.{agenda.card_kind}', loc)})"
    tally = agenda.tally()
    lines = [f"*{t(f'agenda.type.{agenda.outcome_type}', loc)}*"]
    if agenda.secret:
        lines[0] += f" · 🔒 {t('agenda.totals_only' if agenda.totals_only else 'agenda.secret', loc)}"
    head, lines = lines, []  # the outcomes are sections of their own (one part each in a card)
    if agenda.totals_only and not agenda.hidden:  # Hidden Agenda, closed: the totals alone
        outcomes = [
            f"**{escape_md(outcome_label(o, loc))}** — {t('agenda.votes', loc, n=tally.get(o, 0))}" for o in agenda.outcomes
        ]
    elif agenda.hidden:
        outcomes = [f"**{escape_md(outcome_label(o, loc))}**" for o in agenda.outcomes]
        voted = [escape_md(b.voter_name) for b in agenda.ballots]
        lines.append(t("agenda.voted", loc, n=len(voted)) + (f": {_some(voted, loc)}" if voted else ""))
    else:
        outcomes = []
        for outcome in agenda.outcomes:
            voters = [f"{escape_md(b.voter_name)} {b.votes}" for b in agenda.ballots if b.outcome == outcome]
            outcomes.append(
                f"**{escape_md(outcome_label(outcome, loc))}** — {t('agenda.votes', loc, n=tally.get(outcome, 0))}"
                + (f" · {_some(voters, loc)}" if voters else "")
            )
        abstained = [escape_md(b.voter_name) for b in agenda.ballots if b.outcome is None]
        if abstained:
            lines.append(f"{t('agenda.abstained', loc)}: {_some(abstained, loc)}")
    fields = []
    if agenda.players:
        nxt = agenda.next_voter() if agenda.open and not agenda.window else None
        order = []
        for p in agenda.players:
            name = escape_md(p.name)
            if agenda.speaker and p.id == agenda.speaker.id:
                name += f" ({t('agenda.speaker', loc)})"
            order.append(f"▶ **{name}**" if nxt and p.id == nxt.id else name)
        fields += _fields(t("agenda.order", loc), order, " → ")
    elif agenda.speaker:
        lines.append(f"{t('agenda.speaker', loc)}: {escape_md(agenda.speaker.name)}")
    if agenda.barred:
        lines.append(t("agenda.barred_line", loc, players=_some([escape_md(p.name) for p in agenda.barred], loc)))
    if agenda.windows:
        fields += _window_fields(agenda)
    if agenda.predictions:
        preds = [f"{escape_md(name)} → {escape_md(outcome_label(outcome, loc))}" for name, outcome in agenda.predictions.values()]
        fields += _fields(t("agenda.predictions", loc), preds, ", ")
    if agenda.open:
        lines.append("")
        lines.append(f"-# {t('agenda.reminder.tg', loc)}")
        if agenda.outcome_type == "elect-planet":
            lines.append(f"-# {t('agenda.reminder.planet', loc)}")
        if agenda.outcome_type == "elect-player":
            lines.append(f"-# {t('agenda.reminder.self', loc)}")
    if agenda.result:
        r = agenda.result
        lines.append("")
        line = f"**{t('agenda.result', loc, winner=escape_md(outcome_label(r['winner'], loc)))}**"
        if r["decided_by"] == "speaker":
            line += " " + t("agenda.nobody_voted" if not any(r["tally"].values()) else "agenda.by_speaker", loc)
        lines.append(line)
        if r.get("card"):
            lines.append(t(f"agenda.card.{r['card']}", loc))
        if r.get("predicted_right"):
            lines.append(t("agenda.predicted_right", loc, names=", ".join(escape_md(n) for n in r["predicted_right"])))
    status = t(f"agenda.status.{agenda.status}", loc)
    rest = "\n".join(lines).strip("\n")
    return Embed(
        title=truncate_label(title, 256),
        description="\n".join(head),
        sections=outcomes + ([rest] if rest else []),
        fields=fields,
        footer=f"#{agenda.id} · {status}",
        color=COLOR_RULE if agenda.open else COLOR_OK,
    )


def _window_fields(agenda: Agenda) -> list[tuple[str, str]]:
    """Each window's state: who passed (🔒 for a pass that lasts), the cards played, and who is
    still to pass in the window open now."""
    loc = agenda.locale
    current = agenda.window
    cancelled = agenda.status == "cancelled"
    # the window still open when the agenda ended (cancelled, or closed by the speaker before
    # everyone passed): cut short, neither closed by the passes nor waiting any more
    ended = not agenda.open and agenda.windows
    interrupted = windows.open_window(agenda.players, agenda.passes) if ended else None
    out = []
    for window in windows.WINDOWS:
        name = t(f"agenda.window.{window}", loc)
        passed = [escape_md(p.player_name) + (" 🔒" if p.lasting else "") for p in agenda.passes if p.window == window]
        cards = [f"{escape_md(p.player_name)}: *{escape_md(p.card)}*" for p in agenda.plays if p.window == window]
        if window == current:
            waiting = [escape_md(p.name) for p in windows.waiting(agenda.players, agenda.passes, window)]
            state = "⏳ " + t("agenda.window.waiting", loc, players=_some(waiting, loc))
        elif window == interrupted:
            state = "⏹ " + t(f"agenda.status.{agenda.status}", loc)
        elif (cancelled and not passed and not cards) or (
            interrupted and windows.WINDOWS.index(window) > windows.WINDOWS.index(interrupted)
        ):  # the agenda ended before it opened
            state = "· " + t("agenda.window.not_opened", loc)
        elif current is None or windows.WINDOWS.index(window) < windows.WINDOWS.index(current):
            state = "✅ " + t("agenda.window.closed", loc)
        else:
            state = "· " + t("agenda.window.later", loc)
        lines = [state]
        if passed and window == current:
            lines.append(t("agenda.window.passed", loc, players=_some(passed, loc)))
        lines += cards
        out += _fields(name, lines, "\n")
    return out


def _some(names: list[str], loc) -> str:
    """A few names and how many more: a message never grows with the number of voters."""
    shown = ", ".join(names[:NAMES_PER_OUTCOME])
    if len(names) > NAMES_PER_OUTCOME:
        shown += " " + t("agenda.and_more", loc, n=len(names) - NAMES_PER_OUTCOME)
    return shown


def _fields(name: str, items: list[str], sep: str) -> list[tuple[str, str]]:
    chunks = chunk_lines(items, FIELD_VALUE_MAX, sep)
    return [(name + (f" ({i + 1})" if len(chunks) > 1 else ""), c) for i, c in enumerate(chunks)]


def agenda_rows(agenda: Agenda) -> list[list]:
    if not agenda.open:
        return []
    loc, aid = agenda.locale, agenda.id
    rows: list[list] = []
    if agenda.window:  # pass or play a card in the open window; votes come after
        window = t(f"agenda.window.{agenda.window}", loc)
        row = [
            Button(t("agenda.button.pass", loc, window=window), PASS.id(id=aid), style="primary"),
            Button(t("agenda.button.passlock", loc, window=window), PASS_LOCK.id(id=aid), emoji="🔒"),
            Button(t("agenda.button.play", loc), PLAY.id(id=aid), emoji="🃏"),
        ]
        if agenda.window == "after" and not agenda.ballots:  # riders and predictions (62.22)
            row.append(Button(t("agenda.button.predict", loc), PREDICT.id(id=aid), emoji="🔮"))
        return [row]
    if len(agenda.outcomes) <= MAX_OUTCOME_BUTTONS:
        if agenda.outcomes:
            rows.append(
                [
                    Button(truncate_label(outcome_label(o), 80), VOTE.id(id=aid, index=i), style="primary")
                    for i, o in enumerate(agenda.outcomes)
                ]
            )
    else:
        rows.append(
            [
                Select(
                    PICK.id(id=aid),
                    t("agenda.select", loc),
                    [SelectOption(truncate_label(outcome_label(o), 100), str(i)) for i, o in enumerate(agenda.outcomes)],
                )
            ]
        )
    extra = []
    if agenda.outcome_type == "elect-planet":
        extra.append(Button(t("agenda.button.planet", loc), PLANET.id(id=aid), style="primary", emoji="🪐"))
    extra.append(Button(t("agenda.button.abstain", loc), ABSTAIN.id(id=aid)))
    if not agenda.ballots and not agenda.windows:  # predictions close with the first ballot (62.22)
        extra.append(Button(t("agenda.button.predict", loc), PREDICT.id(id=aid), emoji="🔮"))
    rows.append(extra)
    return rows


def agenda_reply(agenda: Agenda, content: str = "") -> Reply:
    return Reply(content=content, embeds=[agenda_embed(agenda)], rows=agenda_rows(agenda))


def audit_pages(store: AgendaStore, agenda: Agenda, zone: ZoneInfo, viewer: Player | None = None) -> Paged:
    """/agenda show: the agenda, then its whole log, paged; times in the server's zone, labelled.
    A secret agenda's log shows ballots only once it is closed; a Hidden Agenda's, to its
    speaker only (Agenda.ballots_shown_to)."""
    loc = current()  # the log is shown to whoever asks, in their language
    lines = []
    shown = agenda.ballots_shown_to(viewer)
    for e in store.log(agenda.id):
        action, detail = e["action"], e["detail"]
        if not shown and action in ("vote", "abstain"):
            action, detail = "vote", ""  # who cast a ballot, not how (an abstention too)
        said = f"{t(f'agenda.log.{action}', loc)} {escape_md(_log_detail(action, detail, loc))}".rstrip()
        lines.append(f"`{local_time(e['at'], zone)}` {escape_md(e['actor_name'])}: {said}")
    header = f"**{t('agenda.audit', loc)}** ({t('agenda.times_in', loc, zone=zone_label(zone))})"
    pages = [agenda_embed(replace(agenda, locale=str(loc)))]  # every page in the asker's language
    log_pages = paginate(["\n".join([header, *chunk]) for chunk in _chunks(lines, 20)])
    for text_, _ in log_pages:
        pages.append(Embed(title=truncate_label(t("agenda.title", loc, id=agenda.id, name=agenda.name), 256), description=text_))
    for i, page in enumerate(pages):
        page.footer = footer_page(i + 1, len(pages), page.footer)
    return Paged(pages, locale=str(loc))


def _log_detail(action: str, detail: str, loc) -> str:
    """A log line's detail with the outcome it names in the reader's language ('가결 2' is
    'For 2' in English); the log stores the outcomes as the agenda does."""
    if action == "vote" and " " in detail:
        outcome, votes = detail.rsplit(" ", 1)
        return f"{outcome_label(outcome, loc)} {votes}"
    if action in ("predict", "close") and detail:
        return outcome_label(detail, loc)
    return detail


def _chunks(items: list[str], size: int) -> list[list[str]]:
    return [items[i : i + size] for i in range(0, len(items), size)] or [[]]


def history_reply(agendas: list[Agenda]) -> Reply:
    if not agendas:
        return Reply(embeds=[Embed(description=t("agenda.history.empty"))], ephemeral=True)
    lines = []
    for a in agendas:
        status = t(f"agenda.status.{a.status}")
        result = f" → **{escape_md(outcome_label(a.result['winner']))}**" if a.result else ""
        lines.append(f"#{a.id} {escape_md(a.name)} · {status}{result}")
    return Reply(embeds=[Embed(title=t("agenda.history"), description="\n".join(lines))], ephemeral=True)
