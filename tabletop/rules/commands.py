"""Rules commands: /rule opens the section that answers a query, /search lists the best matches."""

from __future__ import annotations

from tabletop.core.commands import Context, Option, command, component
from tabletop.rules import answers

QUERY = Option("query", required=True, autocomplete="rule", max_length=200)
GAME = Option("game", autocomplete="game", max_length=50)
PRIVATE = Option("private", kind="bool")


@command("rule", QUERY, GAME, PRIVATE)
def rule(ctx: Context, query: str, game: str | None = None, private: bool = False):
    return answers.lookup(ctx.compendium, query, game or ctx.default_game(), ctx.locale)


@command("search", QUERY, GAME, PRIVATE)
def search(ctx: Context, query: str, game: str | None = None, private: bool = False):
    reply = answers.search_reply(ctx.compendium, query, game or ctx.default_game(), ctx.locale)
    reply.ephemeral = private
    return reply


@component(r"rule:open:(?P<game>[a-z0-9-]+):(?P<section>[a-z0-9-]+)")
def open_related(ctx: Context, match, value=None, ask=None):
    """A related-topic or search-result button: open that section."""
    return answers.open_section(ctx.compendium, match["game"], match["section"], ctx.locale)


@component(r"rule:(?:related|pick):(?P<game>[a-z0-9-]+)")
def open_chosen(ctx: Context, match, value=None, ask=None):
    """A related-topic or search-result menu: open the chosen section (and rule)."""
    return answers.open_section(ctx.compendium, match["game"], value or "", ctx.locale)
