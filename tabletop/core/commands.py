"""The command table: every command the bot speaks, with its options and the core function
that answers it. The Discord cogs and the offline console both dispatch through this table, so
a terminal user can do whatever a Discord user can.

The table knows no feature: each feature module declares its commands with `@command`, and
`tabletop.features` lists which feature modules are loaded.
"""

from __future__ import annotations

import json
import logging
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from tabletop.core import settings
from tabletop.core.components import NUMBER, Component, Press
from tabletop.core.errors import UserError
from tabletop.core.i18n import LOCALES, command_text, current, t
from tabletop.core.ports import RuleLibrary, StateBackend
from tabletop.core.render import Paged, Reply

log = logging.getLogger(__name__)


@dataclass
class Context:
    """Who is asking, where, and with which data. Front ends fill it in."""

    compendium: RuleLibrary  # the rules (rules.compendium.compendium_of(ctx) gives the Compendium)
    state: StateBackend  # the state store (store.state_of(ctx) gives the StateStore)
    user_id: str = "console"
    user_name: str = "console"
    guild_id: str = "console"
    channel_id: str = "console"
    is_admin: bool = True
    game: str | None = None  # an explicit choice (console /game) wins over the server default
    in_server: bool = True  # asked in a server's channel (the console stands for one); not in a DM
    resolve_user: Callable[[str], str] | None = None  # a mention's id -> display name (Discord)

    @property
    def locale(self) -> str:
        """The request's language: the front end sets it (i18n.speaking) for the whole request."""
        return current()

    def default_game(self) -> str:
        if self.game:
            return self.game
        chosen = settings.read(self.state, self.guild_id, settings.GAME, fallback=True)
        return settings.present_game(chosen, self.compendium.packs)


@dataclass(frozen=True)
class Option:
    """One option, declared once: Discord's parameter, the command line's flag and the
    console's name:value are all made from it, with these limits and these texts."""

    name: str  # also its UI name's catalogue key, opt.<name>
    kind: str = "str"  # str | int | bool
    required: bool = False
    autocomplete: str = ""  # what to complete: rule | game
    choices: tuple[str, ...] = ()  # each shown as choice.<name>.<value>
    min_value: int | None = None
    max_value: int | None = None
    max_length: int | None = None
    one_word: bool = False  # written as one word (a seed, attacker@2): console text after it is free text
    help: str = ""  # its description's catalogue key when shared; else opt.<group>.<name>.desc


_SPEC = "option"  # a values field's metadata key: the settings of its Option


def opt(**spec: Any) -> Any:
    """A command's option, declared as a field of its values class: the Option's settings but
    its name and kind, which the field's name and type give. Not given, it is None."""
    return field(default=None, metadata={_SPEC: spec})


@dataclass(frozen=True)
class Values:
    """A command's option values, typed: each command declares a subclass, one field per option
    (`opt`), which the option parser fills, handlers and stores read, and a replay rebuilds
    through the same conversion. Its Options (for every front end) are derived from it."""

    def given(self, *leaving_out: str) -> dict[str, Any]:
        """The options given, by name: what a roll's log keeps to replay the command."""
        return {f.name: v for f in fields(self) if (v := getattr(self, f.name)) is not None and f.name not in leaving_out}


@dataclass(frozen=True)
class NoValues(Values):
    """The values of a command without options."""


def options_of(values: type[Values]) -> tuple[Option, ...]:
    """A values class's Options, in its fields' order: the kind from each field's type."""
    hints = typing.get_type_hints(values)
    return tuple(Option(f.name, kind=_kind(hints[f.name]), **f.metadata[_SPEC]) for f in fields(values))


def _kind(annotation: object) -> str:
    types = typing.get_args(annotation) or (annotation,)
    return "bool" if bool in types else "int" if int in types else "str"  # bool first: a bool is an int


# The content a table plays, as an option: the combat commands' (else the server's setting) and
# /settings' (settings.CONTENT carries it).
CONTENT = settings.CONTENT.option


@dataclass
class Command:
    name: str  # "rule", or "agenda vote" for a subcommand
    handler: Callable
    values: type[Values] = NoValues
    options: tuple[Option, ...] = ()  # derived from `values`
    console_only: bool = False
    admin: bool = False  # server managers only (Discord: Manage Server)
    guild_only: bool = False  # needs a server's channel (agendas, server settings)
    heavy: bool = False  # CPU-bound work: front ends run it in one of a few slots
    deferred: bool = False  # may take seconds: Discord shows "thinking…" first
    private: bool = False  # the answer is shown to the asker only

    @property
    def key(self) -> str:
        return self.name.replace(" ", ".")

    @property
    def group(self) -> str:
        return self.name.split()[0]


COMMANDS: dict[str, Command] = {}


def command(name: str, values: type[Values] = NoValues, **flags: bool):
    """Declare a command: its values class (its options), and flags of Command (admin, heavy,
    deferred, …). Its handler takes (ctx, values)."""

    def register(fn):
        COMMANDS[name] = Command(name, fn, values, options_of(values), **flags)
        return fn

    return register


def localized_names() -> dict[str, str]:
    """The commands' names in every language Discord shows them in (/규칙 is /rule), a group's
    and its subcommand's each in any of them (/확률 지상전, /확률 ground, /odds 지상전), and a
    group alone (/확률 lists its subcommands as /odds does)."""

    def spellings(key: str, english: str) -> set[str]:
        return {english.lower()} | {(command_text(key, language) or english).lower() for language in LOCALES}

    out: dict[str, str] = {}
    for name in COMMANDS:
        parts = name.split()
        groups = spellings("cmd." + parts[0], parts[0])
        if len(parts) == 1:
            out.update(dict.fromkeys(groups, name))
            continue
        for group in groups:
            out.setdefault(group, parts[0])
            for sub in spellings("cmd." + ".".join(parts), parts[1]):
                out[f"{group} {sub}"] = name
    return out


def description_key(cmd: Command, opt: Option) -> str:
    """The catalogue key of an option's description."""
    return opt.help or f"opt.{cmd.group}.{opt.name}.desc"


def _bool(value: str) -> bool | None:
    v = value.strip().lower()
    if v in ("true", "yes", "on", "1", "켜기", "켬", "예", "네", "オン", "はい"):
        return True
    if v in ("false", "no", "off", "0", "끄기", "끔", "아니오", "オフ", "いいえ"):
        return False
    return None


def shown_name(opt: Option) -> str:
    """An option as a message names it: as the asker's language shows it on Discord, with the
    name the console and the command line take (공격자_조정(attacker_mod))."""
    local = command_text(f"opt.{opt.name}", current())
    return f"{local}({opt.name})" if local and local != opt.name else opt.name


def convert(cmd: Command, raw: Mapping[str, object]) -> dict:
    """Check and convert option values given as text; UserError names the bad option."""
    known = {o.name: o for o in cmd.options}
    values: dict = {}
    for name, value in raw.items():
        opt = known.get(name)
        if opt is None:
            raise UserError(t("error.unknown_option", command=cmd.name, option=name[:40], options=", ".join(known) or "-"))
        values[name] = convert_value(opt, value)
    for opt in cmd.options:
        if opt.required and (opt.name not in values or values[opt.name] in ("", None)):
            raise UserError(t("error.missing_option", option=shown_name(opt)))
    return values


def convert_value(opt: Option, value):
    """One option's value, checked; a UserError says in a sentence what is wrong and what fits."""
    if opt.kind == "int":
        low = opt.min_value if opt.min_value is not None else "…"
        high = opt.max_value if opt.max_value is not None else "…"
        try:
            number = int(str(value).strip())
        except ValueError:
            raise UserError(t("error.not_a_number", option=shown_name(opt), value=str(value)[:40], low=low, high=high)) from None
        if opt.min_value is not None and number < opt.min_value or opt.max_value is not None and number > opt.max_value:
            raise UserError(t("error.out_of_range", option=shown_name(opt), value=number, low=low, high=high))
        return number
    if opt.kind == "bool":
        if isinstance(value, bool):
            return value
        b = _bool(str(value))
        if b is None:
            raise UserError(t("error.not_a_bool", option=shown_name(opt), value=str(value)[:40]))
        return b
    text = str(value).strip()
    if opt.max_length and len(text) > opt.max_length:
        raise UserError(t("error.too_long", option=shown_name(opt), limit=opt.max_length, length=len(text)))
    if opt.choices and text not in opt.choices:
        raise UserError(t("error.not_a_choice", option=shown_name(opt), value=text[:40], choices=", ".join(opt.choices)))
    return text


def subcommands(group: str) -> list[str]:
    """The subcommands of a group (combat -> space, ground, …), in the order they were declared."""
    return [name.split(" ", 1)[1] for name in COMMANDS if name.startswith(f"{group} ")]


def dispatch(ctx: Context, name: str, raw_options: dict[str, str]):
    """Run a command by name with text options (the console's path)."""
    cmd = COMMANDS.get(name)
    if cmd is None:
        if not name.strip():
            raise UserError(t("error.no_command"))
        group = name.split(" ", 1)[0]
        subs = subcommands(group)
        typed = (raw_options.get("_") or "").split(maxsplit=1)[:1]  # a word after the group: no subcommand of it
        if subs and typed:
            raise UserError(t("error.unknown_subcommand", group=group, word=typed[0][:40], subs=", ".join(subs)))
        if subs:
            raise UserError(t("error.which_subcommand", group=group, subs=", ".join(subs)))
        raise UserError(t("error.unknown_command", command=name[:40]))
    if cmd.guild_only and not ctx.in_server:
        raise UserError(t("error.server_only"))
    if cmd.admin and not ctx.is_admin:
        raise UserError(t("error.no_permission"))
    return cmd.handler(ctx, cmd.values(**convert(cmd, raw_options)))


def run(ctx: Context, command_name: str, /, **values):
    """Run a command with values a front end already parsed (None: not given)."""
    return dispatch(ctx, command_name, {k: v for k, v in values.items() if v is not None})


def log_roll(ctx: Context, name: str, options: dict, seed: int | None, summary: str) -> int | None:
    """Write a dice command to the state database; returns its id, which the "roll again" button
        carries to replay the command (same options, a fresh seed) through this table; odds, which roll
    nothing, are logged with no seed so that their buttons work after a restart too. With a
        read-only or unreachable state store the dice still roll, without the log and its button (None)."""
    if ctx.state.read_only:
        return None
    spec = json.dumps({"command": name, "options": options}, ensure_ascii=False)
    try:
        roll_id = ctx.state.log_roll(ctx.guild_id, ctx.channel_id, ctx.user_id, spec, "" if seed is None else str(seed), summary)
    except UserError as exc:  # a state server that is down: the dice still roll, unlogged
        log.warning("roll not logged: %s", exc.message)
        return None
    return roll_id


# Its prefix predates /roll and /gt: buttons already posted on Discord carry it and keep working.
ROLL_AGAIN = Component("roll.again", "combat:again:{id}", heavy=True, id=NUMBER)


def again_id(roll_id: int | None) -> str | None:
    """The "roll again" button's custom_id for a logged roll (None: it was not logged)."""
    return ROLL_AGAIN.id(id=roll_id) if roll_id is not None else None


def logged_command(ctx: Context, roll_id: int) -> tuple[str, dict]:
    """The command and options of a logged roll; a UserError when there is no such roll."""
    spec = ctx.state.logged_roll(roll_id)
    if spec is None:
        raise UserError(t("dice.unknown_roll"))
    data = json.loads(spec)
    return data["command"], data["options"]


@ROLL_AGAIN.on_press
def roll_again(ctx: Context, press: Press):
    """Replay a logged roll or battle through this table with a fresh seed (none is passed),
    checked as if typed: a roll logged by an older version (a command or an option since renamed,
    a limit since lowered) is refused with a sentence, never run unchecked."""
    name, options = logged_command(ctx, int(press.values["id"]))
    return dispatch(ctx, name, options)


def as_replies(result) -> list[Reply]:
    if isinstance(result, Paged):
        return [result.reply()]
    if isinstance(result, Reply):
        return [result, *result.follow_ups]
    return list(result)
