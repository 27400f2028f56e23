"""Command-line parsers made from the command table: each option of a command becomes a flag
(`attacker_mod` -> `--attacker-mod`) with its English description as help, and its values are
checked by the table itself (`convert`), so limits and choices are never written twice.

A command whose first option is its only required one takes that option as a positional
argument too (`bot.py roll 5d10>=7`, like `/roll dice:5d10>=7`); free text (a query) may be
several words, as a shell splits it (`bot.py rule 피해 견딤`)."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import contextmanager

from tabletop.core.commands import Command, Option, Values, convert, description_key
from tabletop.core.i18n import LOCALES, command_text, t

# argparse's messages to the person who typed the command, by their catalogue keys: the parser
# says them in the run's language (the rest, help and usage, is the shell's English).
ARGPARSE_MESSAGES = {
    "%(prog)s: error: %(message)s\n": "cli.error",
    "argument %(argument_name)s: %(message)s": "cli.argument",
    "the following arguments are required: %s": "cli.required",
    "unrecognized arguments: %s": "cli.unrecognized",
    "invalid choice: %(value)r (choose from %(choices)s)": "cli.invalid_choice",
    "invalid %(type)s value: %(value)r": "cli.invalid_value",
    "expected one argument": "cli.expected_one",
    "expected at least one argument": "cli.expected_some",
    "ambiguous option: %(option)s could match %(matches)s": "cli.ambiguous",
    "ignored explicit argument %r": "cli.ignored_value",
}


def _argparse_text(message: str) -> str:
    key = ARGPARSE_MESSAGES.get(message)
    return t(key) if key else message


@contextmanager
def localized_parsing() -> Iterator[None]:
    """argparse's messages in the run's language while a command line is parsed (it reads them
    through gettext, as its module-level `_`)."""
    saved = argparse._  # type: ignore[attr-defined]
    argparse._ = _argparse_text  # type: ignore[attr-defined]
    try:
        yield
    finally:
        argparse._ = saved  # type: ignore[attr-defined]


def requested_locale(argv: list[str]) -> str:
    """The --locale a command line asks for, read before it is parsed (its errors are said in
    it); Korean without one."""
    for i, arg in enumerate(argv):
        flag, equals, given = arg.partition("=")
        if not (len(flag) >= 4 and "--locale".startswith(flag)):  # argparse takes --loc for --locale too
            continue
        value = given if equals else argv[i + 1] if i + 1 < len(argv) else None
        if value in LOCALES:
            return value
    return "ko"


class Once(argparse.Action):
    """A flag given twice is refused, as the console refuses an option given twice: the shell
    would otherwise keep the last value and drop the first without a word."""

    def __call__(self, parser, namespace, values, option_string=None):
        given = namespace.__dict__.setdefault("_given", set())  # a default is not "given"
        if self.dest in given:
            parser.error(t("cli.given_twice", option=option_string))
        given.add(self.dest)
        setattr(namespace, self.dest, values)


class Parser(argparse.ArgumentParser):
    """Every flag that takes a value is given once (Once), the hand-written ones as much as the
    table's; subcommands' parsers are made of this class too."""

    def add_argument(self, *args, **kwargs):
        if args and str(args[0]).startswith("-") and "action" not in kwargs:
            kwargs["action"] = Once
        return super().add_argument(*args, **kwargs)


def flag(opt: Option) -> str:
    return "--" + opt.name.replace("_", "-")


def positional(cmd: Command) -> Option | None:
    required = [o for o in cmd.options if o.required]
    return cmd.options[0] if cmd.options and required == [cmd.options[0]] else None


def add_command(sub, cmd: Command, name: str, skip: tuple[str, ...] = (), **help_extra: str) -> argparse.ArgumentParser:
    """A subparser for `cmd`: its options (but `skip`, which mean nothing in a shell: a private
    answer), plus --locale for the language of the answer."""
    parser = sub.add_parser(name, help=help_extra.get("help") or command_text(f"cmd.{cmd.key}.desc", "en"))
    first = positional(cmd)
    for opt in cmd.options:
        if opt.name in skip:
            continue
        text = command_text(description_key(cmd, opt), "en")
        if opt is first:
            words = opt.kind == "str" and not opt.one_word
            parser.add_argument(opt.name, nargs="+" if words else None, help=text)
        elif opt.kind == "bool":
            parser.add_argument(flag(opt), dest=opt.name, action="store_true", default=None, help=text)
        else:
            parser.add_argument(
                flag(opt), dest=opt.name, required=opt.required, choices=opt.choices or None, action=Once, help=text
            )
    parser.add_argument("--locale", default="ko", choices=LOCALES, help="the language of the reply's own words")
    parser.set_defaults(table_command=cmd.name)
    return parser


def values(cmd: Command, args: argparse.Namespace) -> Values:
    """The command's values from the options given, checked and converted by the table
    (UserError names a bad one)."""
    given = {o.name: getattr(args, o.name) for o in cmd.options if getattr(args, o.name, None) is not None}
    given = {k: " ".join(v) if isinstance(v, list) else v for k, v in given.items()}  # words as typed
    return cmd.values(**convert(cmd, given))
