"""The offline console: the bot's commands without Discord.

Lines are slash commands with name:value options in any order (`/rule query:폭격`, `/rule 79.1`);
a line without a slash is a rules question. `as NAME: /…` acts as another player. Ends at EOF
or /quit. A person at a terminal gets the terminal app (terminal.py); piped input gets plain
text (or JSON lines), one reply after another, as scripts expect.
"""

from __future__ import annotations

import json
import logging
import sys
import uuid
from typing import TextIO

from tabletop import features
from tabletop.frontend import commands
from tabletop.frontend.i18n import t
from tabletop.frontend.render import Paged, Reply, harmless
from tabletop.frontend.state import StateDB
from tabletop.rules.answers import UserError, error_reply
from tabletop.rules.compendium import Compendium

log = logging.getLogger(__name__)


def run_line(ctx: commands.Context, line: str) -> list[Reply]:
    """One console line to the replies the bot would send (a paged answer: its first page)."""
    return commands.as_replies(run_command(ctx, line))


def run_command(ctx: commands.Context, line: str) -> Reply | Paged | list[Reply]:
    """One console line to what the command returns, pages kept whole. Never raises."""
    actor, name, options = commands.parse_line(line)
    try:
        with commands.acting(ctx, actor):
            return commands.dispatch(ctx, name, options)
    except UserError as exc:
        return error_reply(exc.message)
    except Exception:  # the console must keep going, like the bot
        error_id = uuid.uuid4().hex[:8]
        log.exception("console command failed [%s]: %r", error_id, line)
        return error_reply(t("error.unexpected", ctx.locale, error_id=error_id))


def run(
    compendium: Compendium,
    state: StateDB,
    stdin: TextIO = sys.stdin,
    stdout: TextIO = sys.stdout,
    as_json: bool = False,
    locale: str = "ko",
    game: str | None = None,
    user: str = "console",
) -> int:
    features.load()
    ctx = commands.Context(compendium, state, locale=locale, user_id=user, user_name=user, game=game)
    if stdin.isatty() and stdout.isatty() and not as_json:
        from tabletop.frontend.terminal import Terminal  # only a person at a terminal needs it

        return Terminal(ctx, run_command).loop()
    for line in stdin:
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.lower() in commands.QUIT:
            break
        for reply in run_line(ctx, line):
            if as_json:
                print(json.dumps(reply.payload(), ensure_ascii=False), file=stdout)
            else:
                print(harmless(reply.text()) + "\n", file=stdout)
        stdout.flush()
    return 0
