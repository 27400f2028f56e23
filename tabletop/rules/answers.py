"""Rules answers: a section as pages with the matched rule highlighted, search result lists and
chat-mode replies. Every front end (Discord, console, `bot.py render`) shows these same pages.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from tabletop.core import settings
from tabletop.core import text as rules_text
from tabletop.core.components import SLUG, Component, Press
from tabletop.core.errors import UserError
from tabletop.core.i18n import current, t
from tabletop.core.render import (
    COLOR_ERROR,
    COLOR_HIGHLIGHT,
    COLOR_RULE,
    FIELD_VALUE_MAX,
    SELECT_DESCRIPTION_MAX,
    SELECT_LABEL_MAX,
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
from tabletop.core.text import ROMAN
from tabletop.rules import links, tokenizing
from tabletop.rules.compendium import DEFAULT_GAME, Compendium, RelatedTopic, compendium_of
from tabletop.rules.packs import Rule, Section, in_language
from tabletop.rules.search import MAX_QUERY_CHARS, Found, MissingTopic, Result

if TYPE_CHECKING:
    from tabletop.core.commands import Context

MAX_RELATED_BUTTONS = 5

# Buttons and menus that open a section (a related topic, a search result, a roll's rules): the
# asker's message turns to it, anyone else gets it privately. A menu's value is "79" or "79:79.1".
OPEN_SECTION = Component("rule.open", "rule:open:{game}:{section}", show="in_place", game=SLUG, section=SLUG)
RELATED_MENU = Component("rule.related", "rule:related:{game}", select=True, show="in_place", game=SLUG)
RESULTS_MENU = Component("rule.pick", "rule:pick:{game}", select=True, show="in_place", game=SLUG)


def error_reply(message: str) -> Reply:
    return Reply(embeds=[Embed(description=message, color=COLOR_ERROR)], ephemeral=True)


def check_query(query: str | None) -> str:
    query = (query or "").strip()
    if not query:
        raise UserError(t("empty_query"))
    if len(query) > MAX_QUERY_CHARS:
        raise UserError(t("query_too_long", length=len(query), limit=MAX_QUERY_CHARS))
    if rules_text.undecodable(query):
        raise UserError(t("input.not_utf8"))
    return query


def rules_warning(compendium: Compendium) -> str:
    """For the admin, in their language: why answers may come from an older database (or none);
    empty when the database matches the rule packs."""
    status = compendium.status
    if not status.kind:
        return ""
    if status.path is None:
        head = t("rules.missing.invalid")
    else:
        head = t(f"rules.stale.{status.kind}")
    return "\n".join([head, *(f"  {m}" for m in status.problems[:20])])


def check_game(compendium: Compendium, game: str | None) -> str:
    if not compendium.packs:  # the rules could not be loaded at all (the admin is told why)
        raise UserError(t("rules.unavailable"))
    # given empty is a mistake, not the default
    wanted = settings.present_game(DEFAULT_GAME, compendium.packs) if game is None else game.strip()
    games = ", ".join(f"{p.id} ({p.name()})" for p in compendium.packs.values())
    if not wanted:
        raise UserError(t("empty_game", games=games))
    key = rules_text.key(wanted)
    names = {
        pack.id: {rules_text.key(pack.id), *(rules_text.key(n) for n in pack.names.values())}
        for pack in compendium.packs.values()
    }
    exact = [pid for pid, keys in names.items() if key in keys]  # an id or a name in any language
    starts = [pid for pid, keys in names.items() if key and any(k.startswith(key) for k in keys)]
    if exact or len(starts) == 1:  # or the start of one game's name only: 'twilight', '리프트'
        return (exact or starts)[0]
    if len(starts) > 1:  # '갤럭시': the games it could mean
        could = ", ".join(f"{pid} ({compendium.packs[pid].name()})" for pid in starts)
        raise UserError(t("ambiguous_game", game=wanted[:50], games=could))
    raise UserError(t("unknown_game", game=wanted[:50], games=games))


# --- a section as pages ------------------------------------------------------------------


def section_heading(section: Section) -> str:
    """'79 폭격 (유닛 능력) · Bombardment'; '3 우주선 만들기 · Building the Ship' elsewhere."""
    parts = [f"{section.number} {section.full_title}"]
    ko = section.names.get("ko")
    if ko and ko != section.title:  # a Japanese section, named for Korean readers too
        parts.append(ko)
    if section.name_en and section.name_en not in (section.title, section.full_title):  # not "89 PDS · PDS"
        parts.append(section.name_en)
    return " · ".join(parts)


def rule_block(rule: Rule, highlighted: bool) -> str:
    lines: list[str] = []
    if rule.heading:
        lines.append(f"**{rule.id} {escape_md(rule.heading)}**")
        if rule.text:
            lines.append(escape_md(rule.text))
    elif rule.text:
        lines.append(f"**{rule.id}** {escape_md(rule.text)}")
    if not rule.heading and not rule.text:
        lines.append(f"**{rule.id}**")
    step = 0
    for item in rule.items:
        if item.kind == "row":
            lines.append(" │ ".join(escape_md(c) for c in item.cells))
        elif item.kind == "bullet":
            lines.append(f"• {escape_md(item.text)}")
        elif item.kind == "step":
            lines.append(f"{ROMAN[step] if step < len(ROMAN) else step + 1}. {escape_md(item.text)}")
            step += 1
        else:
            lines.append(escape_md(item.text))
    if rule.editor_note:
        lines.append(f"*{t('editor_note')}: {escape_md(in_language(rule.editor_note))}*")
    if highlighted:
        lines[0] = "▶ " + lines[0]
        lines = ["> " + line for line in lines]
    return "\n".join(lines)


@dataclass
class RuleAnswer(Paged):
    """A section rendered as pages; `start` is the page holding the matched rule."""

    section: Section | None = None
    rule: str | None = None
    related: tuple[RelatedTopic, ...] = ()


def related_rows(section: Section, related: tuple[RelatedTopic, ...]) -> list[list]:
    linked: dict[str, RelatedTopic] = {}
    for topic in related:
        if topic.target:
            linked.setdefault(topic.target, topic)
    if not linked:
        return []
    if len(linked) <= MAX_RELATED_BUTTONS:
        return [
            [
                Button(truncate_label(topic.name, 80), OPEN_SECTION.id(game=section.pack, section=target), style="primary")
                for target, topic in linked.items()
            ]
        ]
    options = [SelectOption(truncate_label(topic.name, SELECT_LABEL_MAX), target) for target, topic in list(linked.items())[:25]]
    return [[Select(RELATED_MENU.id(game=section.pack), t("related.select"), options)]]


def section_answer(compendium: Compendium, section: Section, rule_id: str | None) -> RuleAnswer:
    blocks: list[str] = []
    highlight_block = None
    pack = compendium.packs[section.pack]
    summary = compendium.summary(section, current()) if current() != pack.language else ""
    if summary:  # a reader of another language first reads what the section rules, as ours
        blocks.append(f"*{t('card.summary')}: {escape_md(summary)}*")
    if section.part:
        blocks.append(f"__{escape_md(section.part)}__")
    if section.intro:
        blocks.append(escape_md(section.intro))
    for rule in section.rules:
        if rule.id == rule_id:
            highlight_block = len(blocks)
        blocks.append(rule_block(rule, rule.id == rule_id))
    if section.editor_note:
        blocks.append(f"*{t('editor_note')}: {escape_md(in_language(section.editor_note))}*")
    related = compendium.related(section)
    related_fields = []
    if related:
        names = [
            (
                f"{escape_md(r.name)} (→{compendium.known_section(section.pack, r.target).number})"
                if r.target
                else f"{escape_md(r.name)} {t('related.missing')}"
            )
            for r in related
        ]
        chunks = chunk_lines(names, FIELD_VALUE_MAX)
        related_fields = [(t("related") + (f" ({i + 1})" if len(chunks) > 1 else ""), chunk) for i, chunk in enumerate(chunks)]
    raw_pages = paginate(blocks)
    embeds: list[Embed] = []
    start: int | None = None  # the first page the matched rule is on (a long rule spans several)
    title = section_heading(section)
    for i, (text, members) in enumerate(raw_pages):
        if highlight_block is not None and highlight_block in members and start is None:
            start = i
        prefix = pack.name()
        if rule_id:
            prefix = f"{prefix} · {t('matched', rule=rule_id)}"
        embeds.append(
            Embed(
                title=title,
                description=text,
                fields=list(related_fields),
                footer=footer_page(i + 1, len(raw_pages), prefix),
                color=COLOR_HIGHLIGHT if highlight_block in members else COLOR_RULE,
            )
        )
    rows = related_rows(section, related)
    url = links.site_url(section.pack, section.id, rule_id)
    if url:  # the same rule on the rules website, at its anchor
        rows.append([Button(t("site.open"), "", url=url)])
    return RuleAnswer(embeds, start or 0, rows, section=section, rule=rule_id, related=related)


def missing_answer(compendium: Compendium, topic: MissingTopic) -> RuleAnswer:
    """The honest answer for a rules topic the document has no section for: its name, its
    English name, and the sections that mention it, one click away."""
    pack = compendium.packs[topic.pack]
    name = f"{topic.name} ({topic.english})" if topic.english else topic.name
    lines = [t("missing.topic", topic=escape_md(name), document=escape_md(pack.document_name()))]
    sections = [compendium.known_section(topic.pack, sid) for sid in topic.mentions]
    if sections:
        lines.append(t("missing.mentions"))
        lines += [f"• {escape_md(section_heading(s))}" for s in sections]
    page = Embed(title=truncate_label(name, 256), description="\n".join(lines), color=COLOR_RULE)
    buttons = [
        Button(truncate_label(section_heading(s), 80), OPEN_SECTION.id(game=topic.pack, section=s.id))
        for s in sections[:MAX_RELATED_BUTTONS]
    ]
    return RuleAnswer(pages=[page], rows=[buttons] if buttons else [])


def nothing_answers(compendium: Compendium, found: Found, query: str, game: str) -> RuleAnswer:
    """No result: a rule number the document does not have is said with the pack's range (it
    never opens another rule); a topic the document lacks gets the honest answer; otherwise
    "no rule found" (UserError)."""
    if found.absent_number:
        first, last = found.absent_number
        name = compendium.packs[game].name()
        raise UserError(t("no_such_rule", number=found.number or query.strip(), game=name, first=first, last=last))
    if found.missing:
        return missing_answer(compendium, found.missing[0])
    raise UserError(nothing_found(compendium, query, game))


def lookup(compendium: Compendium, query: str, game: str = DEFAULT_GAME) -> RuleAnswer:
    """/rule: the best section for a query, opened at the matched rule; for a topic the document
    lacks, the honest answer that says so; UserError when nothing fits."""
    query = check_query(query)
    game = check_game(compendium, game)
    found = compendium.search.find(query, game, limit=1)
    if not found.results:
        return nothing_answers(compendium, found, query, game)
    best = found.results[0]
    answer = section_answer(compendium, compendium.known_section(game, best.section), best.rule)
    answer.note = "\n".join(x for x in (absent_note(best), waiting_note(compendium, game)) if x)
    return answer


def waiting_note(compendium: Compendium, game: str) -> str:
    """A pack whose meaning search is not ready yet (backfill.py) says that its words alone
    answered; "" otherwise, and without a model (the words alone answer then anyway)."""
    count = compendium.waiting.get(game, 0)
    if not count or not compendium.search.dense_available:
        return ""
    return t("rules.waiting.note", count=count)


def nothing_found(compendium: Compendium, query: str, game: str) -> str:
    """ "No rule found", with a rule number of this very pack as the example of what to type."""
    pack = compendium.pack(game)
    ids = [r.id for s in pack.sections for r in s.rules] if pack else []
    found = t("no_result", query=query, example=ids[len(ids) // 2] if ids else "1.1")
    return " ".join(x for x in (found, waiting_note(compendium, game)) if x)


def open_section(compendium: Compendium, game: str, value: str) -> RuleAnswer:
    """Open a section from a button or select value: "79" or "79:79.1"."""
    section_id, _, rule_id = value.partition(":")
    section = compendium.section(game, section_id)
    if section is None:
        raise UserError(nothing_found(compendium, value[:50], game))
    return section_answer(compendium, section, rule_id or None)


@OPEN_SECTION.on_press
def _open_button(ctx: Context, press: Press) -> RuleAnswer:
    return open_section(compendium_of(ctx), press.values["game"], press.values["section"])


@RELATED_MENU.on_press
@RESULTS_MENU.on_press
def _open_chosen(ctx: Context, press: Press) -> RuleAnswer:
    return open_section(compendium_of(ctx), press.values["game"], press.chosen or "")


# --- result lists --------------------------------------------------------------------------


def snippet(section: Section, rule_id: str | None, width: int = 90) -> str:
    rule = section.rule(rule_id) if rule_id else None
    source = (rule.text or rule.heading) if rule else (section.intro or (section.rules[0].text if section.rules else ""))
    line = " ".join(source.split())
    return line if len(line) <= width else line[: width - 1] + "…"


def result_label(compendium: Compendium, r: Result) -> str:
    section = compendium.known_section(r.pack, r.section)
    head = section_heading(section)
    return f"{head} — {r.rule}" if r.rule else head


def results_reply(compendium: Compendium, query: str, results: list[Result], title_key="search.title") -> Reply:
    lines = []
    options = []
    for i, r in enumerate(results, 1):
        section = compendium.known_section(r.pack, r.section)
        label = result_label(compendium, r)
        lines.append(f"**{i}.** {escape_md(label)}\n{escape_md(snippet(section, r.rule))}")
        options.append(
            SelectOption(
                truncate_label(label, SELECT_LABEL_MAX),
                f"{r.section}:{r.rule}" if r.rule else r.section,
                truncate_label(snippet(section, r.rule), SELECT_DESCRIPTION_MAX),
            )
        )
    game = results[0].pack
    embed = Embed(
        title=truncate_label(t(title_key, query=query), 256),
        description="\n".join(lines),
        footer=compendium.packs[game].name(),
    )
    rows = [[Select(RESULTS_MENU.id(game=game), t("search.select"), options)]] if options else []
    return Reply(embeds=[embed], rows=rows)


def search_reply(compendium: Compendium, query: str, game: str = DEFAULT_GAME, limit: int = 5) -> Reply:
    """/search: the top matches with a one-line snippet each and a menu to open one."""
    query = check_query(query)
    game = check_game(compendium, game)
    found = compendium.search.find(query, game, limit=limit)
    if not found.results:
        return nothing_answers(compendium, found, query, game).reply()
    return results_reply(compendium, query, found.results)


def games_named_in(compendium: Compendium, query: str) -> list[str]:
    """The packs whose own name (id, or a name in any language) stands in the question as whole
    words, longest name first: '리프트오프 점수' names Liftoff, '리프트' does not, and '갤럭시
    트러커에서' names Galaxy Trucker (a particle may follow the last word). Japanese, written
    without spaces, names a game by containment."""
    found: dict[str, int] = {}
    for pack in compendium.packs.values():
        for name in pack.own_names():
            if tokenizing.without_name(query, name) is not None:
                found[pack.id] = max(found.get(pack.id, 0), len(rules_text.key(name)))
    return sorted(found, key=lambda pid: -found[pid])


def _find_without_game_name(compendium: Compendium, query: str, game: str) -> Found:
    """Chat mode's search: a question that names its game ('리프트오프 점수', '뉴 프런티어 정착')
    is asked without the name, which chose the game and would otherwise draw the answer to the
    section titled with it (the game's introduction). The whole question is asked too when the
    rest is answered with no confidence: it wins when it is (`リフトオフは何人で遊べる?` asks
    about the game itself)."""
    names = compendium.packs[game].own_names()
    rest = next((r for r in (tokenizing.without_name(query, n) for n in names) if r), None)
    if rest is None or not rules_text.key(rest):
        return compendium.search.find(query, game, limit=3)
    found = compendium.search.find(rest, game, limit=3)
    if (found.results and found.results[0].confident) or found.absent_number:  # '리프트오프 99': the range
        return found
    whole = compendium.search.find(query, game, limit=3)
    return whole if (whole.results and whole.results[0].confident) or not found.results else found


def absent_note(result: Result) -> str:
    """Above an answer from a section that mentions a topic the document has no entry for."""
    topic = result.absent
    if topic is None:
        return ""
    name = f"{topic.name} ({topic.english})" if topic.english else topic.name
    return t("absent.note", topic=name)


def chat_answer(compendium: Compendium, query: str, game: str = DEFAULT_GAME) -> RuleAnswer | Reply:
    """Chat mode (?질문): the answer when the match is clear, "did you mean" when it is weak.
    It stays in the server's game unless the question names another game by its own name."""
    query = check_query(query)
    game = check_game(compendium, game)
    note = ""
    named = games_named_in(compendium, query)
    if named and game not in named:
        game, note = named[0], t("chat.other_game", game=compendium.packs[named[0]].name())
    found = _find_without_game_name(compendium, query, game)
    if not found.results:
        return nothing_answers(compendium, found, query, game)
    results = found.results
    if results[0].confident:
        answer = section_answer(compendium, compendium.known_section(game, results[0].section), results[0].rule)
        answer.note = "\n".join(x for x in (note, absent_note(results[0])) if x)
        return answer
    reply = results_reply(compendium, query, results, title_key="search.title")
    reply.content = "\n".join(x for x in (note, t("did_you_mean")) if x)
    return reply


__all__ = [
    "UserError",
    "check_query",
    "t",
    "RuleAnswer",
    "lookup",
    "open_section",
    "search_reply",
    "chat_answer",
    "section_answer",
    "missing_answer",
    "error_reply",
    "COLOR_ERROR",
]
