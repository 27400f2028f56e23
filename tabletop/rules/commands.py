"""Rules commands: /rule opens the section that answers a query, /search lists the best matches."""

from __future__ import annotations

from tabletop.core.commands import Context, Option, command
from tabletop.rules import answers

QUERY = Option("query", required=True, autocomplete="rule", max_length=200)
GAME = Option("game", autocomplete="game", max_length=50)
PRIVATE = Option("private", kind="bool")


@command("rule", QUERY, GAME, PRIVATE)
def rule(ctx: Context, query: str, game: str | None = None, private: bool = False):
    return answers.lookup(ctx.compendium, query, game or ctx.default_game())


@command("search", QUERY, GAME, PRIVATE)
def search(ctx: Context, query: str, game: str | None = None, private: bool = False):
    reply = answers.search_reply(ctx.compendium, query, game or ctx.default_game())
    reply.ephemeral = private
    return reply
