"""Rules commands: /rule opens the section that answers a query, /search lists the best matches."""

from __future__ import annotations

from tabletop.core.commands import Context, Option, command
from tabletop.core.components import SLUG, Component, Press
from tabletop.core.errors import UserError
from tabletop.core.i18n import t
from tabletop.core.render import Button, Reply
from tabletop.rules import answers
from tabletop.rules.compendium import compendium_of

QUERY = Option("query", required=True, autocomplete="rule", max_length=200)
GAME = Option("game", autocomplete="game", max_length=50)
PRIVATE = Option("private", kind="bool")


@command("rule", QUERY, GAME, PRIVATE)
def rule(ctx: Context, query: str, game: str | None = None, private: bool = False):
    return answers.lookup(compendium_of(ctx), query, game or ctx.default_game())


@command("search", QUERY, GAME, PRIVATE)
def search(ctx: Context, query: str, game: str | None = None, private: bool = False):
    reply = answers.search_reply(compendium_of(ctx), query, game or ctx.default_game())
    reply.ephemeral = private
    return reply


# A rule found for a message (Discord's "find the rule" on any message) is shown to the asker
# first; this button posts it for the whole table. The rule rides in the custom_id ("-": none).
POST_RULE = Component("rule.post", "post:{game}:{section}:{rule}", show="public", game=SLUG, section=SLUG, rule=r"[\w.-]{1,12}")
MESSAGE_TEXT_MAX = QUERY.max_length or 200  # a message is read as a question of /rule's length


def for_message(ctx: Context, text: str) -> answers.RuleAnswer | Reply:
    """The rule a message asks about, as chat mode would answer it (in the server's, or the
    asker's, game), with a button that posts it publicly; a weak match lists the candidates."""
    question = " ".join(text.split())[:MESSAGE_TEXT_MAX]
    if not question:
        raise UserError(t("message.no_text"))
    answer = answers.chat_answer(compendium_of(ctx), question, ctx.default_game())
    if isinstance(answer, answers.RuleAnswer) and answer.section is not None:
        values = {"game": answer.section.pack, "section": answer.section.id, "rule": answer.rule or "-"}
        if POST_RULE.pattern.fullmatch(POST_RULE.template.format(**values)):  # ids too long for a custom_id: no button
            answer.rows = [*answer.rows, [Button(t("message.post"), POST_RULE.id(**values), emoji="📢")]]
    return answer


@POST_RULE.on_press
def _post(ctx: Context, press: Press) -> answers.RuleAnswer:
    rule = press.values["rule"]
    return answers.open_section(
        compendium_of(ctx), press.values["game"], press.values["section"] + ("" if rule == "-" else f":{rule}")
    )
