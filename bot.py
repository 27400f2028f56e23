#!/usr/bin/env python3
"""TI4 rules bot: entry point and command line.

python bot.py                 start the Discord bot (DISCORD_TOKEN), same as `run`
python bot.py console         offline console speaking the bot's commands
python bot.py rule 79.1       print a rules section, the matched rule marked
python bot.py search 폭격     ranked search results (--json, - for stdin)
python bot.py build           rebuild the rules database from rules/*.yaml
python bot.py eval FILE       search quality on a query file
python bot.py render QUERY    the exact Discord payloads for /rule QUERY
python bot.py commands        the application-command payloads the bot would sync
python bot.py sync            sync application commands with Discord
python bot.py combat …        combat dice (ground, bombard, invade); `roll` for plain dice
python bot.py pack import F   cut a rulebook (text, Markdown, .docx) into a rule pack
"""

from __future__ import annotations

import sys

from tabletop.core.i18n import t  # the standard library only: it can say what is missing

try:
    from tabletop.cli.main import main
except ModuleNotFoundError as missing:  # another Python than the project's, or no setup yet
    sys.exit(t("setup.missing_module", module=missing.name, python=sys.executable))

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(main())
