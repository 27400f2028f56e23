"""A console line as a command: '/agenda vote 가결 votes:4', 'as Bob: /rule 79', a bare question.
The console's own grammar over the command table; Discord parses its options itself."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager

from tabletop.core.commands import COMMANDS, Context, Option, localized_names
from tabletop.core.components import find
from tabletop.core.errors import UserError
from tabletop.core.i18n import t
from tabletop.core.limits import ANSWER_LIMIT, DEFERRED_LIMIT, one_request
from tabletop.core.text import visible
from tabletop.rules.compendium import compendium_of

QUIT = ("/quit", "/exit", "quit", "exit")  # words that end a console session
_OPTION_RE = re.compile(r"(?:^|\s)([A-Za-z][A-Za-z_]{0,31}):(?!//)")  # name:value, not a URL
MAX_ACTOR = 64  # characters of a name after 'as': a Discord display name is at most 32
_AS_RE = re.compile(rf"^as(?:\s+|\s*(?=:))([^:]{{0,{MAX_ACTOR}}}):\s*(.*)$", re.IGNORECASE | re.DOTALL)  # as NAME: …
_LONG_AS_RE = re.compile(rf"^as\s+[^:/?]{{{MAX_ACTOR + 1},}}:", re.IGNORECASE)


# Quotes players put around a value with spaces, as a shell would want: 'attacker:"2 dread, 1 carrier"'
_QUOTES = {'"': '"', "'": "'", "“": "”", "‘": "’", "「": "」"}


def _unquoted(value: str) -> str:
    """An option's value without the quotes around it (only when the whole value is quoted)."""
    close = _QUOTES.get(value[:1])
    if close and len(value) >= 2 and value.endswith(close) and close not in value[1:-1]:
        return value[1:-1].strip()
    return value


def is_quit(line: str) -> bool:
    """'/quit', 'exit', '/quit now': the console ends."""
    words = line.strip().lower().split()
    return bool(words) and words[0] in QUIT


def single_word(opt: Option) -> bool:
    """Options whose value is one word (a number, yes/no, a choice, a seed): free text after
    them on a console line belongs to the command's first option. A game's name may have
    several words (갤럭시 트러커): parse_line takes as many as name a game."""
    return opt.one_word or opt.kind in ("int", "bool") or bool(opt.choices)


@contextmanager
def acting(ctx: Context, actor: str | None) -> Iterator[None]:
    """Act as another player for one command or press ('as Alice: …'), with that player's
    rights, not the console owner's."""
    if not actor:
        yield
        return
    saved = (ctx.user_id, ctx.user_name, ctx.is_admin)
    ctx.user_id = ctx.user_name = actor.strip()
    ctx.is_admin = False
    try:
        yield
    finally:
        ctx.user_id, ctx.user_name, ctx.is_admin = saved


CHAT = "?"  # the "command" of a free-text line: chat mode, which is no command of the table


def parse_line(line: str, is_game: Callable[[str], bool] | None = None) -> tuple[str | None, str, dict[str, str]]:
    """'as NAME: /agenda vote outcome:가결 votes:4' -> ('NAME', 'agenda vote', {...}).

    Free text may stand anywhere between `name:value` options: it goes to the command's first
    option, so '/rule 79.1' and '/rule game:galaxy-trucker 14.2' both work. A one-word option
    (a number, yes/no, a choice) takes one word; a game takes as many words as name a game
    (`is_game`); any other takes the text up to the next option. Option names are read in any
    case, and a value quoted whole ('attacker:"2 dread, 1 carrier"') without its quotes; a quote
    left open (its value would swallow the next options and keep the quote), a repeated option, or a name after 'as' too long to be a player's or empty, is refused
    (UserError), never silently dropped. A line without a leading slash (or after a '?') is a
    question for chat mode (CHAT), as '?질문' is on Discord. Commands may be named in any UI
    language (/규칙 79.1).
    """
    line = line.strip()
    actor = None
    if _LONG_AS_RE.match(line):
        raise UserError(t("console.actor_too_long", limit=MAX_ACTOR))
    m = _AS_RE.match(line)
    if m:
        actor, line = m.group(1).strip(), m.group(2).strip()
        if not visible(actor):  # empty, or only invisible marks: a voter nobody could tell apart
            raise UserError(t("console.actor_empty"))
    if line.startswith("?"):
        return actor, CHAT, {"query": line[1:].strip()}
    if not line.startswith("/"):
        return actor, CHAT, {"query": line}
    words = line[1:].split(None, 2)
    local = localized_names()
    name = words[0].lower() if words else ""
    rest = line[1:][len(words[0]) :].lstrip() if words else ""
    if len(words) >= 2 and f"{name} {words[1].lower()}" in local:
        name = local[f"{name} {words[1].lower()}"]
        rest = rest[len(words[1]) :].lstrip()
    elif name in local:
        name = local[name]
    cmd = COMMANDS.get(name)
    options: dict[str, str] = {}
    if cmd and cmd.options:
        known = {o.name: o for o in cmd.options}
        # a known option in any case (GAME:); other names only as typed in lower case, so that a
        # question's 'L1Z1X:' stays text (convert() names an unknown lower-case option)
        matches = [mt for mt in _OPTION_RE.finditer(rest) if mt.group(1).lower() in known or mt.group(1).islower()]
        free = [rest[: matches[0].start()] if matches else rest]
        for i, match in enumerate(matches):
            end = matches[i + 1].start() if i + 1 < len(matches) else len(rest)
            typed = rest[match.end() : end].strip()
            value = _unquoted(typed)
            option = match.group(1).lower()
            if typed[:1] in _QUOTES and _QUOTES[typed[:1]] not in typed[1:]:  # 'attacker:"2 dread defender:…'
                raise UserError(t("console.unclosed_quote", option=option, quote=typed[:1], close=_QUOTES[typed[:1]]))
            opt = known.get(option) if value == typed else None  # quoted whole: one value, however many words
            if opt and single_word(opt) and " " in value:
                value, extra = value.split(" ", 1)
                free.append(extra)
            elif opt and opt.autocomplete == "game" and " " in value:
                parts = value.split()
                names = is_game or (lambda _: False)  # without a way to tell: one word
                taken = next((n for n in range(len(parts), 0, -1) if names(" ".join(parts[:n]))), 1)
                value = " ".join(parts[:taken])
                free.append(" ".join(parts[taken:]))
            if option in options:
                raise UserError(t("console.repeated_option", option=option))
            options[option] = value
        text = " ".join(part.strip() for part in free if part.strip())
        first = cmd.options[0].name
        if text:
            options[first] = f"{options[first]} {text}".strip() if first in options else text
    elif rest.strip():
        stray = re.match(r"(\w+):", rest.strip())
        options[stray.group(1) if stray else "_"] = rest.strip()
    return actor, name, options


def no_choice(ctx: Context, number: int, count: int) -> str:
    """What a bare number that is no button on screen gets: the choices there are, and /rule N
    only where N is a section of the game being asked about (never a rule that does not exist)."""
    is_rule = compendium_of(ctx).section_by_number(ctx.default_game(), number) is not None
    if count:
        key = "console.no_choice" if is_rule else "console.no_choice_only"
    else:
        key = "console.no_choices" if is_rule else "console.no_choices_only"
    choices = "1" if count == 1 else f"1–{count}"  # one button is "1", not "1–1"
    return t(key, ctx.locale, number=number, choices=choices)


def command_clock(name: str) -> AbstractContextManager[None]:
    """A console line's clock, as the bot's: a state wait (a lock, a server that does not answer)
    ends within it, with a sentence, instead of freezing the console. Heavy commands get the
    "thinking…" limit here even when the bot does not defer them: no Discord deadline bounds a
    rolled battle in the console, and its roll log must still be written after it."""
    cmd = COMMANDS.get(name)
    return one_request(DEFERRED_LIMIT if cmd is not None and (cmd.heavy or cmd.deferred) else ANSWER_LIMIT)


def press_clock(custom_id: str) -> AbstractContextManager[None]:
    """A numbered button's clock, as a line's (heavy buttons: the longer limit)."""
    found = find(custom_id)
    return one_request(DEFERRED_LIMIT if found is not None and found[0].heavy else ANSWER_LIMIT)
