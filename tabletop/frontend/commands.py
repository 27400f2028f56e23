"""The command table: every command the bot speaks, with its options and the core function
that answers it. The Discord cogs and the offline console both dispatch through this table, so
a terminal user can do whatever a Discord user can.

The table knows no feature: each feature module declares its commands with `@command`, and
`tabletop.features` lists which feature modules are loaded.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from tabletop.errors import UserError
from tabletop.frontend.i18n import t
from tabletop.frontend.render import Paged, Reply
from tabletop.rules.compendium import DEFAULT_GAME, Compendium
from tabletop.store import StateStore

log = logging.getLogger(__name__)


@dataclass
class Context:
    """Who is asking, where, and with which data. Front ends fill it in."""

    compendium: Compendium
    state: StateStore
    locale: str = "ko"
    user_id: str = "console"
    user_name: str = "console"
    guild_id: str = "console"
    channel_id: str = "console"
    is_admin: bool = True
    game: str | None = None  # an explicit choice (console /game) wins over the server default
    resolve_user: Callable[[str], str] | None = None  # a mention's id -> display name (Discord)

    def default_game(self) -> str:
        if self.game:
            return self.game
        return self.state.get_setting(self.guild_id, "game", DEFAULT_GAME) or DEFAULT_GAME


@dataclass(frozen=True)
class Option:
    name: str
    kind: str = "str"  # str | int | bool
    required: bool = False
    autocomplete: str = ""  # what to complete: rule | game | agenda-outcome | unit
    choices: tuple[str, ...] = ()
    min_value: int | None = None
    max_value: int | None = None
    max_length: int | None = None
    one_word: bool = False  # written as one word (a seed, attacker@2): console text after it is free text


@dataclass
class Command:
    name: str  # "rule", or "agenda vote" for a subcommand
    handler: Callable
    options: tuple[Option, ...] = ()
    console_only: bool = False
    admin: bool = False

    @property
    def key(self) -> str:
        return self.name.replace(" ", ".")


COMMANDS: dict[str, Command] = {}


def command(name: str, *options: Option, console_only: bool = False, admin: bool = False):
    def register(fn):
        COMMANDS[name] = Command(name, fn, tuple(options), console_only, admin)
        return fn

    return register


def _bool(value: str) -> bool | None:
    v = value.strip().lower()
    if v in ("true", "yes", "on", "1", "켜기", "켬", "예", "네", "オン", "はい"):
        return True
    if v in ("false", "no", "off", "0", "끄기", "끔", "아니오", "オフ", "いいえ"):
        return False
    return None


def convert(cmd: Command, raw: dict[str, str], locale) -> dict:
    """Check and convert option values given as text; UserError names the bad option."""
    known = {o.name: o for o in cmd.options}
    values: dict = {}
    for name, value in raw.items():
        opt = known.get(name)
        if opt is None:
            raise UserError(
                t("error.unknown_option", locale, command=cmd.name, option=name[:40], options=", ".join(known) or "-")
            )
        values[name] = convert_value(opt, value, locale)
    for opt in cmd.options:
        if opt.required and (opt.name not in values or values[opt.name] in ("", None)):
            raise UserError(t("error.missing_option", locale, option=opt.name))
    return values


def convert_value(opt: Option, value, locale):
    """One option's value, checked; a UserError says in a sentence what is wrong and what fits."""
    if opt.kind == "int":
        low = opt.min_value if opt.min_value is not None else "…"
        high = opt.max_value if opt.max_value is not None else "…"
        try:
            number = int(str(value).strip())
        except ValueError:
            raise UserError(t("error.not_a_number", locale, option=opt.name, value=str(value)[:40], low=low, high=high)) from None
        if opt.min_value is not None and number < opt.min_value or opt.max_value is not None and number > opt.max_value:
            raise UserError(t("error.out_of_range", locale, option=opt.name, value=number, low=low, high=high))
        return number
    if opt.kind == "bool":
        if isinstance(value, bool):
            return value
        b = _bool(str(value))
        if b is None:
            raise UserError(t("error.not_a_bool", locale, option=opt.name, value=str(value)[:40]))
        return b
    text = str(value).strip()
    if opt.max_length and len(text) > opt.max_length:
        raise UserError(t("error.too_long", locale, option=opt.name, limit=opt.max_length, length=len(text)))
    if opt.choices and text not in opt.choices:
        raise UserError(t("error.not_a_choice", locale, option=opt.name, value=text[:40], choices=", ".join(opt.choices)))
    return text


def subcommands(group: str) -> list[str]:
    """The subcommands of a group (combat -> space, ground, …), in the order they were declared."""
    return [name.split(" ", 1)[1] for name in COMMANDS if name.startswith(f"{group} ")]


def dispatch(ctx: Context, name: str, raw_options: dict[str, str]):
    """Run a command by name with text options (the console's path)."""
    cmd = COMMANDS.get(name)
    if cmd is None:
        if not name.strip():
            raise UserError(t("error.no_command", ctx.locale))
        group = name.split(" ", 1)[0]
        subs = subcommands(group)
        if subs:
            raise UserError(t("error.which_subcommand", ctx.locale, group=group, subs=", ".join(subs)))
        raise UserError(t("error.unknown_command", ctx.locale, command=name[:40]))
    if cmd.admin and not ctx.is_admin:
        raise UserError(t("error.no_permission", ctx.locale))
    return cmd.handler(ctx, **convert(cmd, raw_options, ctx.locale))


def run(ctx: Context, command_name: str, /, **values):
    """Run a command with values a front end already parsed (None: not given)."""
    return dispatch(ctx, command_name, {k: v for k, v in values.items() if v is not None})


def log_roll(ctx: Context, name: str, options: dict, seed: int, summary: str) -> str | None:
    """Write a dice command to the state database; returns its "roll again" button's custom_id.
    The button replays the command (same options, a fresh seed) through this table. With a
    read-only or unreachable state store the dice still roll, without the log and its button (None)."""
    if ctx.state.read_only:
        return None
    spec = json.dumps({"command": name, "options": options}, ensure_ascii=False)
    try:
        roll_id = ctx.state.log_roll(ctx.guild_id, ctx.channel_id, ctx.user_id, spec, str(seed), summary)
    except UserError as exc:  # a state server that is down: the dice still roll, unlogged
        log.warning("roll not logged: %s", exc.message)
        return None
    return f"combat:again:{roll_id}"


def as_replies(result) -> list[Reply]:
    if isinstance(result, Paged):
        return [result.reply()]
    if isinstance(result, Reply):
        return [result, *result.follow_ups]
    return list(result)


# --- console line parsing ---------------------------------------------------------------------

QUIT = ("/quit", "/exit", "quit", "exit")  # words that end a console session
_OPTION_RE = re.compile(r"(?:^|\s)([A-Za-z][A-Za-z_]{0,31}):(?!//)")  # name:value, not a URL
MAX_ACTOR = 64  # characters of a name after 'as': a Discord display name is at most 32
_AS_RE = re.compile(rf"^as\s+([^:]{{1,{MAX_ACTOR}}}):\s*(.*)$", re.IGNORECASE | re.DOTALL)
_LONG_AS_RE = re.compile(rf"^as\s+[^:/?]{{{MAX_ACTOR + 1},}}:", re.IGNORECASE)


def is_quit(line: str) -> bool:
    """'/quit', 'exit', '/quit now': the console ends."""
    words = line.strip().lower().split()
    return bool(words) and words[0] in QUIT


def single_word(opt: Option) -> bool:
    """Options whose value is one word (a number, yes/no, a choice, a seed): free text after
    them on a console line belongs to the command's first option. A game's name may have
    several words (갤럭시 트러커): parse_line takes as many as name a game."""
    return opt.one_word or opt.kind in ("int", "bool") or bool(opt.choices)


def localized_names() -> dict[str, str]:
    """The commands' names in every language Discord shows them in (/규칙 is /rule)."""
    from tabletop.frontend.i18n import LOCALES, command_text

    out: dict[str, str] = {}
    for name in COMMANDS:
        parts = name.split()
        for language in LOCALES:
            local = [command_text("cmd." + ".".join(parts[: i + 1]), language) or parts[i] for i in range(len(parts))]
            out.setdefault(" ".join(w.lower() for w in local), name)
    return out


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


def parse_line(line: str, locale="ko", is_game: Callable[[str], bool] | None = None) -> tuple[str | None, str, dict[str, str]]:
    """'as NAME: /agenda vote outcome:가결 votes:4' -> ('NAME', 'agenda vote', {...}).

    Free text may stand anywhere between `name:value` options: it goes to the command's first
    option, so '/rule 79.1' and '/rule game:galaxy-trucker 14.2' both work. A one-word option
    (a number, yes/no, a choice) takes one word; a game takes as many words as name a game
    (`is_game`); any other takes the text up to the next option. Option names are read in any
    case; a repeated option, or a name after 'as' too long to be a player's, is refused
    (UserError), never silently dropped. A line without a leading slash is a /rule query, like
    chat mode's '?'. Commands may be named in any UI language (/규칙 79.1).
    """
    line = line.strip()
    actor = None
    if _LONG_AS_RE.match(line):
        raise UserError(t("console.actor_too_long", locale, limit=MAX_ACTOR))
    m = _AS_RE.match(line)
    if m:
        actor, line = m.group(1).strip(), m.group(2).strip()
    if line.startswith("?"):
        return actor, "rule", {"query": line[1:].strip()}
    if not line.startswith("/"):
        return actor, "rule", {"query": line}
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
            value = rest[match.end() : end].strip()
            option = match.group(1).lower()
            opt = known.get(option)
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
                raise UserError(t("console.repeated_option", locale, option=option))
            options[option] = value
        text = " ".join(part.strip() for part in free if part.strip())
        first = cmd.options[0].name
        if text:
            options[first] = f"{options[first]} {text}".strip() if first in options else text
    elif rest.strip():
        stray = re.match(r"(\w+):", rest.strip())
        options[stray.group(1) if stray else "_"] = rest.strip()
    return actor, name, options


# --- buttons and menus, for front ends that cannot press them natively (the console) ---------------

ComponentHandler = Callable[..., object]
COMPONENTS: list[tuple[re.Pattern, ComponentHandler]] = []


def component(pattern: str):
    """Declare what pressing a button (or choosing a menu option) with this custom_id does:
    handler(ctx, match, value, ask) where value is the chosen option of a menu, and ask(prompt)
    asks the person for more (a number of votes) and returns their answer or None."""

    def register(fn: ComponentHandler) -> ComponentHandler:
        COMPONENTS.append((re.compile(pattern), fn))
        return fn

    return register


def press(ctx: Context, custom_id: str, value: str | None = None, ask: Callable[[str], str | None] = lambda _: None):
    """Run what a button or a menu option does, by its custom_id."""
    for pattern, handler in COMPONENTS:
        m = pattern.fullmatch(custom_id)
        if m:
            return handler(ctx, m, value, ask)
    raise UserError(t("error.unknown_button", ctx.locale))
