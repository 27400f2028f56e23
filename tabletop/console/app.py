"""The offline console: the bot's commands without Discord.

Lines are slash commands with name:value options in any order (`/rule query:폭격`, `/rule 79.1`);
a line without a slash is a rules question. `as NAME: /…` acts as another player. Ends at EOF
or /quit. A person at a terminal gets the terminal app (terminal.py); piped input gets plain
text (or JSON lines), one reply after another, as scripts expect.
"""

from __future__ import annotations

import json
import logging
import re
import subprocess
import sys
import threading
from typing import TextIO

from tabletop import features
from tabletop.console import files, lines
from tabletop.console.printed import Choice, choices, printed
from tabletop.core import commands, text
from tabletop.core.components import press_asking
from tabletop.core.errors import unexpected
from tabletop.core.i18n import t
from tabletop.core.paths import ROOT
from tabletop.core.payloads import card_payload
from tabletop.core.render import Button, Paged, Reply, harmless, page_step
from tabletop.rules.answers import UserError, chat_answer, check_game, check_query, error_reply
from tabletop.rules.compendium import Compendium, compendium_of
from tabletop.store import StateStore

log = logging.getLogger(__name__)


def run_line(ctx: commands.Context, line: str) -> list[Reply]:
    """One console line to the replies the bot would send (a paged answer: its first page)."""
    return commands.as_replies(run_command(ctx, line))


def run_command(ctx: commands.Context, line: str) -> Reply | Paged | list[Reply]:
    """One console line to what the command returns, pages kept whole. Never raises."""
    try:
        return _answer(ctx, line)
    finally:  # after the first answer, not before: compiling holds the interpreter a while
        _compile_ahead_once()


_compiling: list[threading.Thread] = []
# compile_ahead in a process of its own: it fills the compiled kernels' cache on disk (after an
# install, 5-20 s on two cores) without keeping them in the console's memory (about 100 MB), which
# loads them from that cache only when a fight needs them (odds.SMALL_FIGHT: a small one never does)
_COMPILE_AHEAD = "from tabletop.combat.odds import compile_ahead; compile_ahead()"


def _compile_ahead_once() -> None:
    """The exact odds' kernels compile (after an install) in the background while the player
    reads the first answer, so that a first /odds does not wait for a compiler."""
    if not _compiling:
        _compiling.append(threading.Thread(target=_compile_elsewhere, name="compile-ahead", daemon=True))
        _compiling[0].start()


def _compile_elsewhere() -> None:
    try:
        subprocess.run([sys.executable, "-c", _COMPILE_AHEAD], cwd=ROOT, capture_output=True, check=False, timeout=300)
    except (OSError, subprocess.SubprocessError) as exc:  # no process to spare: the first large /odds compiles
        log.info("compiling ahead did not run: %s", exc)


def _answer(ctx: commands.Context, line: str) -> Reply | Paged | list[Reply]:
    try:
        if text.undecodable(line):
            raise UserError(t("input.not_utf8"))
        actor, name, options = lines.parse_line(line, lambda value: _is_game(ctx, value))
        with lines.acting(ctx, actor), lines.command_clock(name):
            if name == lines.CHAT:  # a question without a slash: chat mode, as '?질문' on Discord
                return chat_answer(compendium_of(ctx), check_query(options["query"]), ctx.default_game())
            return commands.dispatch(ctx, name, options)
    except UserError as exc:
        return error_reply(exc.message)
    except Exception as exc:  # the console must keep going, like the bot
        return error_reply(unexpected(exc, f"console command {line[:80]!r}"))


def _is_game(ctx: commands.Context, value: str) -> bool:
    try:
        check_game(compendium_of(ctx), value)
    except UserError:
        return False
    return True


def run(
    compendium: Compendium,
    state: StateStore,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    as_json: bool = False,
    game: str | None = None,
    user: str = "console",
) -> int:
    """Answer lines from `stdin` (default: the process's, as it is when called) on `stdout`."""
    stdin, stdout = stdin or sys.stdin, stdout or sys.stdout
    features.load()
    ctx = commands.Context(compendium, state, user_id=user, user_name=user, game=game)
    if stdin.isatty() and stdout.isatty() and not as_json:
        from tabletop.console.terminal import Terminal  # only a person at a terminal needs it

        return Terminal(ctx, run_command).loop()
    return Piped(ctx, stdin, stdout, as_json).loop()


_NUMBER = re.compile(r"^(?:as\s+(?P<actor>[^:]{1,64}):\s*)?(?P<n>\d{1,3})$", re.IGNORECASE)


class Piped:
    """Plain text for scripts: every page of an answer, and its buttons numbered ([1] 침공) so
    that a following line with the number (or `as NAME: 2`) presses one; a question a button
    asks (how many votes) is answered by the next line. --json prints payloads, unnumbered."""

    def __init__(self, ctx: commands.Context, stdin: TextIO, stdout: TextIO, as_json: bool):
        self.ctx, self.stdout, self.as_json = ctx, stdout, as_json
        self.lines = (line.strip() for line in stdin)
        self.numbered: list[Choice] = []

    def ask(self, prompt: str) -> str | None:
        print(f"{prompt}:", file=self.stdout)
        return next(self.lines, None)

    def loop(self) -> int:
        for line in self.lines:
            if not line or line.startswith("#"):
                continue
            if lines.is_quit(line):
                break
            number = None if self.as_json else _NUMBER.match(line)
            self.show(self.press(number) if number else run_command(self.ctx, line))
            self.stdout.flush()
        return 0

    def press(self, number: re.Match):
        n = int(number["n"])
        if not 1 <= n <= len(self.numbered):  # a bare number is a choice, never a rule
            return error_reply(lines.no_choice(self.ctx, n, len(self.numbered)))
        choice = self.numbered[n - 1]
        try:
            with lines.acting(self.ctx, number["actor"]):
                return press_asking(
                    self.ctx, choice.custom_id, choice.value, self.ask, lambda: lines.press_clock(choice.custom_id)
                )
        except UserError as exc:
            return error_reply(exc.message)
        except Exception as exc:  # like a command: logged with an id, the session goes on
            return error_reply(unexpected(exc, "console button"))

    def show(self, result) -> None:
        if self.as_json:
            for reply in commands.as_replies(result):
                print(json.dumps(card_payload(reply), ensure_ascii=False), file=self.stdout)
            return
        if isinstance(result, Paged):  # every page: a script cannot turn one
            replies = [result.reply(i) for i in range(len(result.pages))]
            for reply in replies:
                reply.rows = [[c for c in row if not page_step(getattr(c, "custom_id", ""))] for row in reply.rows]
        else:
            replies = commands.as_replies(result)
        # An answer only the asker sees, with no buttons of its own (a refusal), leaves the
        # choices on screen, as Discord leaves the message whose button was refused.
        aside = all(r.ephemeral and not r.rows for r in replies)
        if not aside:
            self.numbered = []
        for i, reply in enumerate(replies):
            last = i == len(replies) - 1
            text = printed(reply, rows=not last, files=False)  # the last reply's buttons are numbered below
            text += "".join(f"\n📎 {files.save(f)}" for f in reply.files)  # the chart, where it can be opened
            if last and not aside:
                self.numbered = choices(reply)
                links = [f"[{c.label}: {c.url}]" for row in reply.rows for c in row if isinstance(c, Button) and c.url]
                text += "".join("\n" + x for x in links)
                if self.numbered:
                    text += "\n" + " ".join(f"[{n}] {c.label}" for n, c in enumerate(self.numbered, 1))
            print(harmless(text) + "\n", file=self.stdout)
