"""The console as a terminal app (when a person types at it): line editing, history kept between
sessions and completion (prompt_toolkit); answers rendered with headings, the highlighted rule
and colours (rich); buttons and menus shown as numbered choices that typing the number presses,
paging included. Piped sessions never come here: console.py keeps them plain, as scripts expect.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable
from pathlib import Path

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import Completer, Completion
from prompt_toolkit.history import FileHistory, History, InMemoryHistory
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.keys import Keys
from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from tabletop.console import lines
from tabletop.console.files import save
from tabletop.console.printed import Choice, choices
from tabletop.core import commands
from tabletop.core import text as rules_text
from tabletop.core.components import press_asking
from tabletop.core.config import setting
from tabletop.core.errors import UserError, unexpected
from tabletop.core.i18n import t
from tabletop.core.render import Paged, Reply, harmless, page_step
from tabletop.rules.answers import error_reply
from tabletop.rules.compendium import compendium_of

log = logging.getLogger(__name__)

_NUMBER = re.compile(r"^(?:as\s+(?P<actor>[^:]{1,64}):\s*)?(?P<n>\d{1,3})$", re.IGNORECASE)


def history_path() -> Path:
    """Where the console keeps its history between sessions (XDG state directory)."""
    return Path(str(setting("state_home"))) / "ti4-rules-bot" / "console_history"


def open_history() -> History:
    path = history_path()
    if not path.is_absolute():  # no home to keep it in ("~" unexpanded): this session only
        return InMemoryHistory()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch(exist_ok=True)
        return FileHistory(str(path))
    except OSError:  # a read-only home: history for this session only
        return InMemoryHistory()


# --- rendering ----------------------------------------------------------------------------------

_INLINE = re.compile(r"\\([*_~`|\\>#-])|\*\*(.+?)\*\*|__(.+?)__|\*(.+?)\*|(?<!\w)_(.+?)_(?!\w)|`(.+?)`|~~(.+?)~~")


def markdown(line: str, base: str = "") -> Text:
    """One line of Discord markdown as styled text: **bold**, *italic*, __underline__, `code`."""
    out = Text(style=base)
    pos = 0
    for m in _INLINE.finditer(line):
        out.append(harmless(line[pos : m.start()]))
        escaped, bold, under, italic, italic2, code, strike = m.groups()
        if escaped is not None:
            out.append(escaped)
        elif bold is not None:
            out.append_text(markdown(bold, "bold"))
        elif under is not None:
            out.append_text(markdown(under, "underline"))
        elif italic is not None or italic2 is not None:
            out.append_text(markdown(italic or italic2, "italic"))
        elif code is not None:
            out.append(harmless(code), style="cyan")
        elif strike is not None:
            out.append(harmless(strike), style="strike")
        pos = m.end()
    out.append(harmless(line[pos:]))
    return out


def block(description: str) -> list[Text]:
    """A description: '> ' lines are the highlighted rule, '-# ' lines are small print."""
    lines = []
    for line in description.split("\n"):
        if line.startswith("> ") or line == ">":
            lines.append(Text("┃ ", style="bold yellow") + markdown(line[2:], "bold yellow"))
        elif line.startswith("-# "):
            lines.append(markdown(line[3:], "dim"))
        else:
            lines.append(markdown(line))
    return lines


def render(console: Console, reply: Reply, numbered: list[Choice]) -> None:
    if reply.content:
        for line in block(reply.content):
            console.print(line)
    for embed in reply.embeds:
        if embed.title:
            console.print(Text(harmless(embed.title), style="bold cyan"))
        for text in (embed.description, *embed.sections):
            for line in block(text) if text else []:
                console.print(line)
        if embed.fields:  # name and value side by side, as Discord shows inline fields
            table = Table(show_header=False, box=box.SIMPLE_HEAD, padding=(0, 1), show_edge=False)
            table.add_column(style="bold", no_wrap=True)
            table.add_column(overflow="fold")  # "ellipsis" would drop a wide character at the edge
            for name, value in embed.fields:
                table.add_row(Text(harmless(name), style="bold"), Text("\n").join(block(value)))
            console.print(table)
        if embed.footer:
            console.print(Text(harmless(embed.footer), style="dim"))
    for f in reply.files:
        console.print(Text(f"📎 {save(f)}", style="dim"))
    if numbered:
        parts = Text()
        for i, choice in enumerate(numbered, 1):
            parts.append(f"[{i}] ", style="bold magenta")
            parts.append(harmless(choice.label) + "  ")
        console.print(parts)
    console.print()


# --- completion ---------------------------------------------------------------------------------


class ConsoleCompleter(Completer):
    """Commands, their options, game names, and rule names (for /rule and /search)."""

    def __init__(self, ctx: commands.Context):
        self.ctx = ctx

    def get_completions(self, document, complete_event) -> Iterable[Completion]:
        line = document.text_before_cursor
        m = re.match(r"^as\s+[^:]{1,64}:\s*", line, re.IGNORECASE)
        if m:
            line = line[m.end() :]
        if not line.startswith("/"):
            return
        if " " not in line:
            seen = set()
            for name in [*commands.COMMANDS, "quit"]:
                first = name.split(" ")[0]
                if first.startswith(line[1:].lower()) and first not in seen:
                    seen.add(first)
                    yield Completion("/" + first, start_position=-len(line))
            return
        name, cmd = self._command(line)
        word = line.rsplit(" ", 1)[-1]
        if cmd is None:
            group = line[1:].split(" ", 1)[0].lower()
            for sub in commands.subcommands(group):
                if sub.startswith(word.lower()):
                    yield Completion(sub, start_position=-len(word))
            return
        if ":" in word:
            option, _, prefix = word.partition(":")
            for value in self._values(cmd, option, prefix):
                yield Completion(f"{option}:{value}", start_position=-len(word))
            return
        used = set(re.findall(r"(\w+):", line))
        for opt in cmd.options:
            if opt.name.startswith(word) and opt.name not in used:
                yield Completion(f"{opt.name}:", start_position=-len(word))
        if cmd.options and cmd.options[0].autocomplete == "rule" and word:
            for value in self._rule_names(word):
                yield Completion(value, start_position=-len(word))
        if name == "game":
            for value in self._games(word):
                yield Completion(value, start_position=-len(word))

    @staticmethod
    def _command(line: str):
        words = line[1:].split()
        if len(words) >= 2 and f"{words[0].lower()} {words[1].lower()}" in commands.COMMANDS:
            name = f"{words[0].lower()} {words[1].lower()}"
        else:
            name = words[0].lower() if words else ""
        return name, commands.COMMANDS.get(name)

    def _values(self, cmd, option: str, prefix: str) -> list[str]:
        opt = next((o for o in cmd.options if o.name == option), None)
        if opt is None:
            return []
        if opt.choices:
            return [c for c in opt.choices if c.startswith(prefix)]
        if opt.kind == "bool":
            return [v for v in ("true", "false") if v.startswith(prefix)]
        if opt.autocomplete == "game":
            return self._games(prefix)
        if opt.autocomplete == "rule":
            return self._rule_names(prefix)
        return []

    def _games(self, prefix: str) -> list[str]:
        key = rules_text.key(prefix)
        return [p.id for p in self.ctx.compendium.packs.values() if p.id.startswith(prefix) or not key]

    def _rule_names(self, prefix: str) -> list[str]:
        game = self.ctx.default_game()
        if game not in self.ctx.compendium.packs:
            return []
        out = []
        for result in compendium_of(self.ctx).search.suggest(prefix, game, limit=12):
            section = compendium_of(self.ctx).section(game, result.section)
            if section is not None:
                out.append(result.rule or section.title)
        return list(dict.fromkeys(out))


# --- the app ------------------------------------------------------------------------------------


def typed_escapes() -> KeyBindings:
    """Esc followed by '[31m' reads to prompt_toolkit as a mouse report it cannot parse (and it
    would print its own traceback). The mouse is not used here: what was typed after Esc is
    kept as text, as typed."""
    bindings = KeyBindings()

    @bindings.add(Keys.Vt100MouseEvent)
    def _(event) -> None:
        event.current_buffer.insert_text(event.data.lstrip("\x1b"))

    return bindings


class Terminal:
    """One interactive session: what is on screen now (its pages and its numbered choices)."""

    def __init__(
        self, ctx: commands.Context, run_command: Callable[[commands.Context, str], object], console: Console | None = None
    ):
        self.ctx = ctx
        self.run_command = run_command
        self.console = console or Console(highlight=False)
        self.session: PromptSession = PromptSession(
            history=open_history(),
            completer=ConsoleCompleter(ctx),
            complete_while_typing=False,
            key_bindings=typed_escapes(),
        )
        self.paged: Paged | None = None
        self.page = 0
        self.numbered: list[Choice] = []

    def ask(self, prompt: str) -> str | None:
        try:
            return self.session.prompt(f"{prompt}: ")
        except (EOFError, KeyboardInterrupt):
            return None

    def show(self, result) -> None:
        if isinstance(result, Paged):
            self.paged, self.page = result, result.start
            self._show_page()
            return
        replies = commands.as_replies(result)  # a reply and the messages that follow it
        self.paged = None
        for reply in replies:
            self.numbered = choices(reply)
            render(self.console, reply, self.numbered)

    def _show_page(self) -> None:
        assert self.paged is not None
        reply = self.paged.reply(self.page)
        self.numbered = choices(reply)
        render(self.console, reply, self.numbered)

    def press(self, number: int, actor: str | None) -> None:
        choice = self.numbered[number - 1]
        step = page_step(choice.custom_id)
        if step and self.paged is not None:
            self.page = max(0, min(self.page + step, len(self.paged.pages) - 1))
            self._show_page()
            return
        with lines.acting(self.ctx, actor):
            result = press_asking(self.ctx, choice.custom_id, choice.value, self.ask, lambda: lines.press_clock(choice.custom_id))
        self.show(result)

    def handle(self, line: str) -> None:
        number = _NUMBER.match(line)
        if number and not 1 <= int(number["n"]) <= len(self.numbered):
            # A bare number here is a choice, never a rule: 3 typed after a two-button answer
            # must not open section 3. A rule by number is asked for with /rule.
            message = lines.no_choice(self.ctx, int(number["n"]), len(self.numbered))
            render(self.console, error_reply(message), [])
            return
        if number:
            try:
                self.press(int(number["n"]), number["actor"])
            except UserError as exc:
                render(self.console, error_reply(exc.message), [])
            except Exception as exc:  # like a command: logged with an id, the session goes on
                render(self.console, error_reply(unexpected(exc, f"console button {line[:80]!r}")), [])
            return
        self.show(self.run_command(self.ctx, line))

    def loop(self) -> int:
        self.console.print(Text(t("console.welcome", self.ctx.locale), style="bold"))
        while True:
            try:
                line = self.session.prompt("> ")
            except KeyboardInterrupt:
                continue
            except EOFError:
                return 0
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if lines.is_quit(line):
                return 0
            self.handle(line)
