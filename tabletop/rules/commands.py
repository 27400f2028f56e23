"""Rules commands: /rule opens the section that answers a query, /search lists the best matches."""

from __future__ import annotations

from dataclasses import dataclass

from tabletop.core import settings
from tabletop.core.commands import Context, Values, command, opt
from tabletop.core.components import SLUG, Component, Press
from tabletop.core.errors import UserError
from tabletop.core.i18n import t
from tabletop.core.render import Button, Reply, Select
from tabletop.rules import answers
from tabletop.rules.compendium import compendium_of

QUERY_MAX_CHARS = 200  # a question, not an essay: the search reads this much (search.MAX_QUERY_CHARS)
GAME = settings.GAME.option  # a pack's id or name in any language, as /settings takes it


@dataclass(frozen=True)
class Question(Values):
    query: str = opt(required=True, autocomplete="rule", max_length=QUERY_MAX_CHARS)
    game: str | None = opt(**GAME)
    private: bool | None = opt()


@command("rule", Question)
def rule(ctx: Context, values: Question):
    return answers.lookup(compendium_of(ctx), values.query, values.game or ctx.default_game())


@command("search", Question)
def search(ctx: Context, values: Question):
    reply = answers.search_reply(compendium_of(ctx), values.query, values.game or ctx.default_game())
    reply.ephemeral = bool(values.private)
    return reply


# A rule found for a message (Discord's "find the rule" on any message) is shown to the asker
# first; this button posts it for the whole table. The rule rides in the custom_id ("-": none).
POST_RULE = Component("rule.post", "post:{game}:{section}:{rule}", show="public", game=SLUG, section=SLUG, rule=r"[\w.-]{1,12}")
# A weak match lists the candidates; this menu posts the one picked for the whole table.
POST_PICK = Component("rule.postpick", "post:pick:{game}", select=True, show="public", game=SLUG)
MESSAGE_TEXT_MAX = QUERY_MAX_CHARS  # a message is read as a question of /rule's length


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
    elif isinstance(answer, Reply):  # "did you mean": the list, and a menu that posts the one picked
        menus = [
            (c, answers.RESULTS_MENU.pattern.fullmatch(c.custom_id)) for row in answer.rows for c in row if isinstance(c, Select)
        ]
        for menu, found in [(c, m) for c, m in menus if m][:1]:
            answer.rows = [*answer.rows, [Select(POST_PICK.id(game=found["game"]), t("message.post_pick"), menu.options)]]
    return answer


@POST_PICK.on_press
def _post_pick(ctx: Context, press: Press) -> answers.RuleAnswer:
    return answers.open_section(compendium_of(ctx), press.values["game"], press.chosen or "")


@POST_RULE.on_press
def _post(ctx: Context, press: Press) -> answers.RuleAnswer:
    rule = press.values["rule"]
    return answers.open_section(
        compendium_of(ctx), press.values["game"], press.values["section"] + ("" if rule == "-" else f":{rule}")
    )
