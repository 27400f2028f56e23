"""cogs.cards: discord.py's card is the core's card, item for item, as Discord receives it."""

from __future__ import annotations

from cogs.cards import layout
from cogs.components import Pager, card_of
from tabletop.core.payloads import card
from tabletop.core.render import Button, Embed, Reply
from tabletop.rules import answers


def _shape(components: list[dict]) -> list:
    """Type, id and text of every component, nested, without what discord.py adds (button styles)."""
    out = []
    for c in components:
        out.append((c["type"], c.get("id"), c.get("content"), c.get("custom_id"), c.get("accent_color")))
        out += _shape(c.get("components") or [])
        out += [("media", i["media"]["url"]) for i in c.get("items") or []]
    return out


def test_the_sent_card_is_the_core_card(compendium):
    answer = answers.lookup(compendium, "79.1")
    reply = answer.reply()
    sent = Pager(answer, author_id=1).refresh()
    assert sent.has_components_v2()
    assert _shape(sent.to_components()) == _shape(card(reply))


def test_a_chart_and_a_link_survive_and_undeclared_buttons_leave_no_empty_row():
    reply = Reply(
        embeds=[Embed(title="odds", description="64%", image="attachment://odds.png")],
        rows=[[Button("web", "", url="https://example.org/79")], [Button("?", "nobody:declared:this")]],
    )
    components = layout(reply).to_components()
    shape = _shape(components)
    assert ("media", "attachment://odds.png") in shape
    rows = [c for c in components[0]["components"] if c["type"] == 1]
    assert len(rows) == 1 and rows[0]["components"][0]["url"] == "https://example.org/79"
    assert len(card_of(reply).to_components()[0]["components"]) == 4  # title, text, gallery, the link's row


async def test_a_press_on_a_card_reaches_its_handler_through_discord_py(compendium, state):
    """discord.py's own dispatch of a persistent button: it rebuilds the pressed card from the
    message (a components-v2 message), finds the button inside its container, and calls ours."""
    import asyncio
    from types import SimpleNamespace

    import discord
    from discord.components import _component_factory
    from discord.ui.view import ViewStore
    from discord_fakes import FakeBot, FakeInteraction, FakeUser

    from cogs.components import DYNAMIC_ITEMS

    bot = FakeBot(compendium=compendium, state=state, user=FakeUser(999, "bot", bot=True))
    sent = Pager(answers.lookup(compendium, "79.1"), author_id=1).refresh().to_components()
    message = SimpleNamespace(
        id=1,
        components=[_component_factory(c) for c in sent],
        flags=discord.MessageFlags(components_v2=True),
        interaction_metadata=None,
    )
    press = FakeInteraction(bot, message=message, data={"custom_id": "rule:open:ti4:75", "component_type": 2})
    store = ViewStore(state=None)  # type: ignore[arg-type]
    store.add_dynamic_items(*DYNAMIC_ITEMS)
    store.dispatch_view(2, "rule:open:ti4:75", press)
    for _ in range(200):
        if press.log:
            break
        await asyncio.sleep(0.01)
    assert press.log and press.log[0].embed.title.startswith("75 침공")
