"""Discord front end, offline: command payloads, cog callbacks with fake interactions, views."""

from __future__ import annotations

import asyncio
import re

import discord
import pytest
from discord_fakes import FakeBot, FakeInteraction, FakeMessage, FakeUser, Sent, form_of, persistent_item, submit
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from said import pattern, said

from cogs import client as discord_client
from cogs.commands import slash
from cogs.components import Pager
from cogs.rules import RateLimiter, RulesCog, rule_autocomplete
from tabletop.core import commands as core
from tabletop.core.i18n import t
from tabletop.rules import answers
from tabletop.rules.answers import UserError

NAME_RE = re.compile(r"^[-_\w]{1,32}$")
DISCORD_LOCALES = {loc.value for loc in discord.Locale}


@pytest.fixture(scope="module")
def payloads():
    return discord_client.command_payloads()


def walk(options):
    for o in options or []:
        yield o
        yield from walk(o.get("options"))


def test_command_payloads_are_valid_for_discord(payloads):
    assert payloads
    for menu in (p for p in payloads if p.get("type") == 3):  # a message command: a label, no options
        assert all(1 <= len(name) <= 32 for name in [menu["name"], *menu["name_localizations"].values()])
        assert {"ko", "ja", "en-US", "en-GB"} <= set(menu["name_localizations"]) and "options" not in menu
    for cmd in (p for p in payloads if p.get("type", 1) == 1):
        for item in [cmd, *walk(cmd.get("options"))]:
            assert NAME_RE.match(item["name"]) and item["name"] == item["name"].lower(), item["name"]
            if item.get("type") not in (1, 2) or item is cmd or "description" in item:
                assert 1 <= len(item["description"]) <= 100, item["name"]
            assert len(item.get("options") or []) <= 25
            for key in ("name_localizations", "description_localizations"):
                locs = item.get(key) or {}
                assert set(locs) <= DISCORD_LOCALES, locs
                for value in locs.values():
                    if key == "name_localizations":
                        assert NAME_RE.match(value) and value == value.lower(), value
                    else:
                        assert 1 <= len(value) <= 100
            assert {"ko", "ja", "en-US", "en-GB"} <= set(item.get("name_localizations") or {}), item["name"]


def _leaf_payloads(payloads) -> dict[str, dict]:
    """Each generated command's payload by its name in the table ('agenda vote')."""
    out = {}
    for cmd in (p for p in payloads if p.get("type", 1) == 1):  # the slash commands
        subs = [o for o in cmd.get("options") or [] if o["type"] in (1, 2)]
        for sub in subs:
            out[f"{cmd['name']} {sub['name']}"] = sub
        if not subs:
            out[cmd["name"]] = cmd
    return out


OPTION_TYPES = {"str": 3, "int": 4, "bool": 5}  # Discord's option type numbers


def test_discord_commands_match_the_core_command_table(payloads):
    """The payload Discord receives says what the table declares: names, types, limits,
    choices, and every name and description in every UI language."""
    from tabletop.core.i18n import command_text

    leaves = _leaf_payloads(payloads)
    assert set(leaves) == {c.name for c in core.COMMANDS.values() if not c.console_only}
    for name, payload in leaves.items():
        cmd = core.COMMANDS[name]
        assert payload["name_localizations"]["ko"] == command_text(f"cmd.{cmd.key}", "ko"), name
        options = {o["name"]: o for o in payload.get("options") or []}
        assert sorted(options) == sorted(o.name for o in cmd.options), name
        for opt in cmd.options:
            got = options[opt.name]
            where = (name, opt.name)
            assert got["type"] == OPTION_TYPES[opt.kind], where
            assert got.get("required", False) == opt.required, where
            assert got.get("min_value") == opt.min_value and got.get("max_value") == opt.max_value, where
            assert got.get("max_length") == opt.max_length, where
            assert [c["value"] for c in got.get("choices") or []] == list(opt.choices), where
            assert bool(got.get("autocomplete")) == bool(opt.autocomplete), where
            for language, locale in (("ko", "ko"), ("ja", "ja"), ("en", "en-US")):
                assert got["name_localizations"][locale] == command_text(f"opt.{opt.name}", language), where
                described = command_text(core.description_key(cmd, opt), language)
                assert described and got["description_localizations"][locale] == described, where
    settings_payload = next(p for p in payloads if p["name"] == "settings")
    assert int(settings_payload["default_member_permissions"]) == discord.Permissions(manage_guild=True).value
    agenda_payload = next(p for p in payloads if p["name"] == "agenda")
    assert agenda_payload.get("contexts") == [0] or agenda_payload.get("dm_permission") is False


async def test_the_bot_loads_its_extensions_with_every_presenter_and_completer():
    """discord.py runs each extension's module afresh: the registries must survive that."""
    from cogs.registry import COMPLETERS, PRESENTERS

    bot = await discord_client._offline_bot()
    assert {"agenda start", "agenda vote", "agenda close"} <= set(PRESENTERS)
    assert all(fn.__module__ == "cogs.agenda" for name, fn in PRESENTERS.items() if name.startswith("agenda"))
    assert bot.tree.get_command("agenda") is not None
    named = {o.autocomplete for c in core.COMMANDS.values() if not c.console_only for o in c.options if o.autocomplete}
    assert named and named <= set(COMPLETERS)


# --- cog callbacks ------------------------------------------------------------------------


@pytest.fixture
def bot(compendium, state):
    return FakeBot(compendium=compendium, state=state, user=FakeUser(999, "bot", bot=True))


async def test_rule_answers_with_highlight_and_pager(bot):
    inter = FakeInteraction(bot)
    await slash("rule").callback(inter, query="79.1")
    sent = inter.log[0]
    assert sent.method == "send_message" and not sent.ephemeral
    assert sent.embed.title == "79 폭격 (유닛 능력) · Bombardment"
    assert "▶ **79.1**" in sent.embed.description
    view = sent.kwargs["view"]
    assert isinstance(view, Pager)
    assert [i.custom_id for i in sent.items] == ["rule:open:ti4:75", "rule:open:ti4:86"]


async def test_rule_private_is_ephemeral(bot):
    inter = FakeInteraction(bot)
    await slash("rule").callback(inter, query="폭격", private=True)
    assert inter.log[0].ephemeral


async def test_paging_is_for_the_asker_only(bot, compendium):
    answer = answers.lookup(compendium, "62.22")
    pager = Pager(answer, author_id=1).refresh()
    next_button = next(i for i in pager.walk_children() if getattr(i, "custom_id", "") == "page:next")
    stranger = FakeInteraction(bot, user=FakeUser(2, "Bob"), data={"custom_id": "page:next"})
    assert await pager.interaction_check(stranger) is False
    assert stranger.log[0].ephemeral and said("not_yours", stranger.log[0].text)
    asker = FakeInteraction(bot, data={"custom_id": "page:prev"})
    assert await pager.interaction_check(asker) is True
    prev_button = next(i for i in pager.walk_children() if getattr(i, "custom_id", "") == "page:prev")
    await prev_button.callback(asker)
    assert asker.log[0].method == "edit_message" and pager.page == answer.start - 1
    assert next_button is not None


async def test_pager_timeout_removes_its_buttons_and_keeps_the_page(bot, compendium):
    pager = Pager(answers.lookup(compendium, "62"), author_id=1).refresh()
    pager.page = 1
    pager.message = FakeMessage(log := [])
    await pager.on_timeout()
    edit = log[0]
    assert edit.method == "message_edit" and edit.embed.title.startswith("62 정책 단계")
    assert "62.22" in edit.embed.description  # the page being read, not the first
    assert not any(str(i.custom_id).startswith("page:") for i in edit.items)
    assert [i.custom_id for i in edit.items] == [
        i.custom_id for i in Sent("x", {"view": pager}).items if not i.custom_id.startswith("page:")
    ]


async def test_related_button_opens_for_asker_in_place_and_privately_for_others(bot):
    message = FakeMessage([], interaction_user=FakeUser(1))
    asker = FakeInteraction(bot, message=message)
    await persistent_item("rule:open:ti4:86").callback(asker)
    assert asker.log[0].method == "edit_message" and asker.log[0].embed.title.startswith("86 행성 보호막")
    other = FakeInteraction(bot, user=FakeUser(5), message=message)
    await persistent_item("rule:open:ti4:86").callback(other)
    assert other.log[0].method == "send_message" and other.log[0].ephemeral


async def test_search_lists_five_with_a_menu(bot):
    inter = FakeInteraction(bot)
    await slash("search").callback(inter, query="폭격 주사위")
    sent = inter.log[0]
    assert sent.embed.description.startswith("**1.** 79 폭격")
    select = sent.items[0]
    assert select.custom_id == "rule:pick:ti4" and 1 <= len(select.item.options) <= 5


async def test_user_errors_are_answered_ephemerally(bot):
    inter = FakeInteraction(bot)
    with pytest.raises(UserError) as exc:
        await slash("rule").callback(inter, query="피자 레시피")
    await discord_client.answer_error(inter, discord.app_commands.CommandInvokeError(slash("rule"), exc.value))
    assert inter.log[0].ephemeral and said("no_result", inter.log[0].text, query="피자 레시피")


async def test_unexpected_errors_get_an_id_not_a_traceback(bot, caplog):
    inter = FakeInteraction(bot, locale=discord.Locale.american_english)
    await discord_client.answer_error(inter, RuntimeError("boom"))
    text = inter.log[0].text.strip()
    assert inter.log[0].ephemeral and pattern("error.unexpected", "en").match(text)  # in the reader's English
    error_id = text.rsplit(" ", 1)[1]
    assert error_id in caplog.text and "boom" not in text


async def test_settings_need_manage_server(bot, state):
    inter = FakeInteraction(bot)
    with pytest.raises(UserError):
        await slash("settings").callback(inter, chat=False)
    admin = FakeInteraction(bot, permissions=discord.Permissions(manage_guild=True))
    await slash("settings").callback(admin, chat=False)
    assert admin.log[0].ephemeral and state.get_setting("42", "chat") == "off"


async def test_ui_strings_follow_the_locale(bot):
    inter = FakeInteraction(bot, locale=discord.Locale.japanese)
    await slash("rule").callback(inter, query="62.22")
    footer = inter.log[0].embed.footer.text
    assert said("page", footer, "ja") and t("matched", "ja", rule="62.22") in footer


def test_chat_queries_and_rate_limit(bot):
    cog = RulesCog(bot)
    msg = lambda content, mentions=(): type("M", (), {"content": content, "mentions": list(mentions)})()  # noqa: E731
    assert cog.chat_query(msg("?폭격")) == "폭격"
    assert cog.chat_query(msg("??")) is None and cog.chat_query(msg("그냥 대화")) is None
    assert cog.chat_query(msg("<@999> 피해 견딤 언제 써?", [FakeUser(999)])) == "피해 견딤 언제 써?"
    now = [0.0]
    limiter = RateLimiter(burst=3, window=20, clock=lambda: now[0])
    assert [limiter.check(1) for _ in range(3)] == [0, 0, 0]
    assert limiter.check(1) > 0 and limiter.check(2) == 0
    now[0] = 21
    assert limiter.check(1) == 0


async def test_chat_mode_respects_the_server_switch(bot, state):
    cog = RulesCog(bot)
    replies = []

    class Msg:
        content = "?폭격"
        mentions = []
        author = FakeUser(3)
        guild = type("G", (), {"id": 42, "preferred_locale": discord.Locale.korean})()

        async def reply(self, *args, **kwargs):
            replies.append((args, kwargs))
            return FakeMessage([])

    await cog.on_message(Msg())
    assert replies and Sent("reply", replies[0][1]).embed.title.startswith("79 폭격")
    state.set_setting("42", "chat", "off")
    await cog.on_message(Msg())
    assert len(replies) == 1


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=120))
async def test_autocomplete_returns_at_most_25_valid_choices(bot, current):
    choices = await rule_autocomplete(FakeInteraction(bot), current)
    assert len(choices) <= 25
    for c in choices:
        assert 1 <= len(c.name) <= 100 and 1 <= len(c.value) <= 100


async def test_an_answer_is_one_card_with_its_buttons_inside(bot):
    inter = FakeInteraction(bot)
    await slash("rule").callback(inter, query="79.1")
    view = inter.log[0].kwargs["view"]
    assert inter.log[0].kwargs["embeds"] == [] and inter.log[0].kwargs["content"] is None  # a card replaces them
    container = next(c for c in view.children if isinstance(c, discord.ui.Container))
    rows = [c for c in container.children if isinstance(c, discord.ui.ActionRow)]
    assert rows and all(isinstance(i, discord.ui.Item) for r in rows for i in r.children)
    assert view.total_children_count <= 40 and view.content_length() <= 4000


async def test_odds_show_their_chart_in_the_card(bot):
    inter = FakeInteraction(bot)
    await slash("odds ground").callback(inter, attacker="3 infantry", defender="2 infantry")
    sent = next(s for s in inter.log if "view" in s.kwargs)
    gallery = [i for i in sent.kwargs["view"].walk_children() if isinstance(i, discord.ui.MediaGallery)]
    assert len(gallery) == 1 and gallery[0].items[0].media.url == "attachment://" + sent.kwargs["files"][0].filename
    assert "%" in sent.embed.description or any("%" in f.value for f in sent.embed.fields)


async def test_combat_command_shows_the_log_and_roll_again_works_after_restart(bot, state):
    inter = FakeInteraction(bot)
    await slash("combat ground").callback(inter, attacker="3 infantry, 1 mech", defender="4 보병", seed="42")
    sent = inter.log[0]
    assert sent.embed.title == "지상 전투" and "시드 42" in sent.embed.footer.text
    again = [i for i in sent.items if i.custom_id.startswith("combat:again:")]
    assert len(again) == 1
    # a fresh button object, as discord.py builds it from the custom_id after a restart
    click = FakeInteraction(bot, user=FakeUser(8, "Carol"))
    await persistent_item(again[0].custom_id).callback(click)
    assert click.log[0].embed.title == "지상 전투"
    new_seed = re.search(r"시드 (\d+)", click.log[0].embed.footer.text).group(1)
    assert new_seed != "42"  # the same battle with a fresh seed


async def test_combat_bad_input_is_a_user_error(bot):
    with pytest.raises(UserError) as exc:
        await slash("combat ground").callback(FakeInteraction(bot), attacker="3 mek", defender="1 infantry")
    assert "Mech (메크)" in exc.value.message


async def test_roll_command(bot):
    inter = FakeInteraction(bot)
    await slash("roll").callback(inter, dice="5d10>=7", seed="1")
    assert "성공 1개" in inter.log[0].embed.description


# --- agenda -------------------------------------------------------------------------------------


async def test_a_secret_vote_is_acknowledged_to_the_voter_only(bot):
    from tabletop.core.payloads import NOTE

    admin = FakeInteraction(bot, user=FakeUser(1, "Alice"))
    await slash("agenda start").callback(admin, name="X", players="<@1> <@2>", secret=True)
    form = await form_of(bot, "agenda:1:vote:1", FakeUser(2, "Bob"), votes="5")
    voter = FakeInteraction(bot, user=FakeUser(2, "Bob"), message=FakeMessage([], interaction_user=FakeUser(1)))
    await submit(form, voter)
    abstainer = FakeInteraction(bot, user=FakeUser(1, "Alice"), message=FakeMessage([], interaction_user=FakeUser(1)))
    await persistent_item("agenda:1:abstain").callback(abstainer)
    for press in (voter, abstainer):
        public = [s for s in press.log if not s.ephemeral]
        assert public and all(s.note == "" for s in public), [s.note for s in public]
        assert not any(getattr(i, "id", None) == NOTE for s in public for i in s.kwargs["view"].walk_children())
        assert "5표" not in "".join(s.text for s in public)
    assert any(s.ephemeral and "5표" in s.text for s in voter.log)  # the voter alone is told


async def test_an_agenda_is_a_card_whose_parts_are_its_outcomes(bot):
    from tabletop.core.payloads import SECTION, role

    admin = FakeInteraction(bot, user=FakeUser(1, "Alice"))
    await slash("agenda start").callback(admin, name="분리 독트린", kind="law", players="<@1> <@2>", speaker="<@2>")
    view = admin.log[0].kwargs["view"]
    parts = [i.content for i in view.walk_children() if isinstance(i, discord.ui.TextDisplay) and role(i.id)[1] >= SECTION]
    assert [p.split(" — ")[0] for p in parts[:2]] == ["**가결**", "**부결**"]
    container = next(c for c in view.children if isinstance(c, discord.ui.Container))
    assert any(isinstance(i, discord.ui.ActionRow) for i in container.children)  # its buttons inside it


async def test_agenda_buttons_vote_through_a_modal_and_survive_a_restart(bot, state, tmp_path):
    from cogs.components import Form
    from tabletop.agenda.store import AgendaStore
    from tabletop.store import open_state

    admin = FakeInteraction(bot, user=FakeUser(1, "Alice"))
    await slash("agenda start").callback(admin, name="분리 독트린", kind="law", players="<@1> <@2>", speaker="<@2>")
    sent = admin.log[0]
    assert not sent.ephemeral and sent.embed.title == f"{t('agenda.title', id=1, name='분리 독트린')} ({t('agenda.kind.law')})"
    ids = [c.custom_id for c in sent.items]
    assert ids == ["agenda:1:vote:0", "agenda:1:vote:1", "agenda:1:abstain", "agenda:1:predict"]
    assert AgendaStore(state).get(1).message_id is not None

    # after a restart: a new state connection, and buttons rebuilt from their custom_id alone
    bot.state = open_state(state.path)
    agenda_message = FakeMessage([], interaction_user=FakeUser(1))
    click = FakeInteraction(bot, user=FakeUser(2, "Bob"), message=agenda_message)
    await persistent_item("agenda:1:vote:0").callback(click)
    modal = click.log[0].kwargs["modal"]
    assert isinstance(modal, Form) and "가결" in modal.title and list(modal.boxes) == ["votes"]
    modal.boxes["votes"]._value = "5"
    submitter = FakeInteraction(bot, user=FakeUser(2, "Bob"), message=agenda_message)
    await submit(modal, submitter)
    assert submitter.log[0].method == "edit_message" and "가결** — 5표" in submitter.log[0].embed.description
    assert submitter.log[1].method == "followup" and submitter.log[1].ephemeral
    assert AgendaStore(bot.state).get(1).tally()["가결"] == 5


async def test_a_form_opened_before_a_restart_is_answered_after_it_once_by_any_process(bot, state):
    from tabletop.agenda.store import AgendaStore
    from tabletop.store import open_state

    await slash("agenda start").callback(FakeInteraction(bot), name="X", players="<@1> <@2>")
    form = await form_of(bot, "agenda:1:vote:0", FakeUser(2, "Bob"), votes="5")
    assert form.custom_id == "form:agenda:1:vote:0" and form.is_finished()  # nothing kept in memory
    restarted = FakeBot(compendium=bot.compendium, state=open_state(state.path), user=bot.user)
    submitter = FakeInteraction(restarted, user=FakeUser(2, "Bob"))
    await submit(form, submitter)
    assert submitter.log[0].method == "edit_message" and "가결** — 5표" in submitter.log[0].embed.description
    twice = FakeInteraction(bot, user=FakeUser(2, "Bob"), id=submitter.id)  # delivered to another process too
    await submit(form, twice)
    assert twice.log[0].ephemeral and said("state.repeated_request", twice.log[0].text)
    assert AgendaStore(state).get(1).tally()["가결"] == 5


async def test_agenda_strangers_and_bad_numbers_get_a_private_explanation(bot, state):
    await slash("agenda start").callback(FakeInteraction(bot), name="X", players="<@1> <@2>")
    stranger = FakeInteraction(bot, user=FakeUser(3, "Mallory"))
    await persistent_item("agenda:1:vote:1").callback(stranger)
    assert stranger.log[0].ephemeral and said("agenda.not_a_player", stranger.log[0].text)  # refused before the form
    modal = await form_of(bot, "agenda:1:vote:1", FakeUser(2, "Bob"), votes="lots")
    voter = FakeInteraction(bot, user=FakeUser(2, "Bob"))
    await submit(modal, voter)
    assert voter.log[0].ephemeral and "숫자로" in voter.log[0].text
    assert "부결" not in [
        b.outcome for b in __import__("tabletop.agenda.store", fromlist=["x"]).AgendaStore(state).get(1).ballots
    ]


async def test_agenda_slash_vote_acknowledges_privately_and_updates_the_message(bot, state):
    await slash("agenda start").callback(FakeInteraction(bot), name="X")
    inter = FakeInteraction(bot, user=FakeUser(5, "Eve"))
    await slash("agenda vote").callback(inter, outcome="부결", votes=3)
    assert inter.log[0].ephemeral and "부결에 3표" in inter.log[0].text
    edit = inter.log[1]
    assert edit.method == "channel_edit" and "부결** — 3표" in edit.embed.description


async def test_a_vote_delivered_twice_counts_once_and_says_so(bot, state):
    from tabletop.agenda.store import AgendaStore

    await slash("agenda start").callback(FakeInteraction(bot), name="X")
    card = await form_of(bot, "agenda:1:vote:0", FakeUser(5, "Eve"), votes="4")
    first = FakeInteraction(bot, user=FakeUser(5, "Eve"))
    await submit(card, first)
    again = FakeInteraction(bot, user=FakeUser(5, "Eve"), id=first.id)  # the gateway's redelivery
    await submit(card, again)
    assert again.log[0].ephemeral and said("state.repeated_request", again.log[0].text)
    votes = [e for e in AgendaStore(state).log(1) if e["action"] == "vote"]
    assert len(votes) == 1 and AgendaStore(state).get(1).tally()["가결"] == 4


async def test_concurrent_button_clicks_keep_the_message_right(bot, state):
    import asyncio

    from tabletop.agenda.store import AgendaStore

    await slash("agenda start").callback(FakeInteraction(bot), name="X")

    async def click(uid):
        modal = await form_of(bot, "agenda:1:vote:0", FakeUser(uid, f"P{uid}"), votes=str(uid))
        inter = FakeInteraction(bot, user=FakeUser(uid, f"P{uid}"))
        await submit(modal, inter)
        return inter

    inters = await asyncio.gather(*(click(uid) for uid in range(1, 9)))
    assert AgendaStore(state).get(1).tally()["가결"] == sum(range(1, 9))
    last = max(inters, key=lambda i: i.log[0].embed.description.count("P"))
    assert f"가결** — {sum(range(1, 9))}표" in last.log[0].embed.description


async def test_an_agendas_lock_is_shared_while_held_and_gone_after():
    import asyncio
    import gc

    from cogs import agenda as agenda_cog

    order: list[str] = []

    async def press(name: str) -> None:
        async with agenda_cog.lock_for(77):
            order.append(f"{name} in")
            await asyncio.sleep(0.01)
            order.append(f"{name} out")

    await asyncio.gather(press("a"), press("b"))
    assert order == ["a in", "a out", "b in", "b out"]  # one at a time: the same lock
    gc.collect()
    assert 77 not in agenda_cog._locks  # nobody holds it: not kept


async def test_autocomplete_values_open_what_they_name(bot, compendium):
    from types import SimpleNamespace

    for game, typed in (("ti4", "폭"), ("galaxy-trucker", "유성"), ("galaxy-trucker-big-expansion", "豪華")):
        inter = FakeInteraction(bot, namespace=SimpleNamespace(game=game))
        choices = await rule_autocomplete(inter, typed)
        assert choices
        first = choices[0]
        answer = answers.lookup(compendium, first.value, game)
        assert answer.section.title in first.name


async def test_closing_an_agenda_takes_the_buttons_off_its_message(bot, state):
    await slash("agenda start").callback(FakeInteraction(bot), name="X")
    await slash("agenda vote").callback(FakeInteraction(bot, user=FakeUser(5, "Eve")), outcome="가결", votes=3)
    closing = FakeInteraction(bot)
    await slash("agenda close").callback(closing)
    edit = [s for s in closing.log if s.method == "channel_edit"][-1]
    assert edit.items == []  # closed: no buttons left to press
    assert "결과: 가결" in edit.embed.description


async def test_a_secret_ballot_is_acknowledged_privately_and_hidden_on_the_message(bot, state):
    await slash("agenda start").callback(FakeInteraction(bot), name="비밀", secret=True)
    voter = FakeInteraction(bot, user=FakeUser(5, "Eve"))
    await slash("agenda vote").callback(voter, outcome="부결", votes=3)
    assert voter.log[0].ephemeral and "부결에 3표" in voter.log[0].text
    edit = voter.log[1]
    assert edit.method == "channel_edit" and "Eve" in edit.embed.description and "3표" not in edit.embed.description


# --- buttons and menus from the component registry ---------------------------------------------------


def test_every_declared_component_is_a_persistent_item():
    """All but the pager, whose ◀ ▶ the message's own view turns (a persistent item would
    answer the same press a second time)."""
    from cogs.components import DYNAMIC_ITEMS
    from tabletop.core.components import COMPONENTS

    made = {item.__discord_ui_compiled_template__.pattern: item for item in DYNAMIC_ITEMS}
    assert set(made) == {comp.pattern.pattern for comp in COMPONENTS.values() if not comp.local}
    assert any(comp.local for comp in COMPONENTS.values())


async def test_a_results_menu_opens_the_chosen_rule_after_a_restart(bot):
    click = FakeInteraction(bot, user=FakeUser(5))
    await persistent_item("rule:pick:ti4", chosen="79:79.2").callback(click)
    sent = click.log[0]
    assert sent.ephemeral and sent.embed.title.startswith("79 폭격") and "▶ **79.2**" in sent.embed.description


async def test_a_planet_election_asks_for_the_planet_and_the_votes_in_one_form(bot, state):
    from tabletop.agenda.store import AgendaStore

    await slash("agenda start").callback(FakeInteraction(bot), name="Arbiter", type="elect-planet")
    form = await form_of(bot, "agenda:1:planet", FakeUser(2, "Bob"), planet="Mecatol Rex", votes="3")
    assert list(form.boxes) == ["planet", "votes"] and len(form.title) <= 45
    submitter = FakeInteraction(bot, user=FakeUser(2, "Bob"))
    await submit(form, submitter)
    assert submitter.log[0].method == "edit_message" and AgendaStore(state).get(1).tally()["Mecatol Rex"] == 3


async def test_two_askers_at_once_each_get_their_own_language(bot):
    import asyncio

    languages = [discord.Locale.korean, discord.Locale.american_english] * 3
    asked = [FakeInteraction(bot, locale=language) for language in languages]
    await asyncio.gather(*(slash("rule").callback(i, query="62.22") for i in asked))
    footers = [i.log[0].embed.footer.text for i in asked]
    assert all(f.startswith("트와일라잇") and "쪽" in f for f in footers[::2]), footers
    assert all(f.startswith("Twilight Imperium") and "page" in f for f in footers[1::2]), footers


# --- where players are: user-installed, any message ----------------------------------------

SHARED_STATE = {"agenda"}  # a table's shared record: installed and used by a server only


def test_every_command_says_where_it_may_be_installed_and_used(payloads):
    for payload in payloads:
        shared = payload["name"] in SHARED_STATE
        assert payload["integration_types"] == ([0] if shared else [0, 1]), payload["name"]
        assert payload["contexts"] == ([0] if shared else [0, 1, 2]), payload["name"]
    menus = [p for p in payloads if p.get("type") == 3]
    assert [m["name_localizations"]["ko"] for m in menus] == [t("menu.find_rule", "ko")]
    assert menus[0]["name_localizations"]["ja"] == t("menu.find_rule", "ja")


@pytest.mark.parametrize("where", ["dm", "group", "server"])
async def test_a_user_installed_rule_answers_in_a_dm_a_group_dm_and_a_strange_server(bot, where):
    from discord_fakes import user_installed

    inter = user_installed(bot, FakeUser(8, "Mina"), where)
    await slash("rule").callback(inter, query="폭격은 언제 해?")
    assert inter.log[0].method == "send_message" and inter.log[0].embed.title.startswith("79 폭격")
    assert len([s for s in inter.log if s.method == "followup"]) <= 5  # Discord's cap for user apps


async def test_settings_in_a_dm_are_the_askers_own(bot):
    from discord_fakes import user_installed

    from tabletop.core import settings

    mine = user_installed(bot, FakeUser(8, "Mina"))
    await slash("settings").callback(mine, game="liftoff")
    assert settings.read(bot.state, "dm-8", settings.GAME) == "liftoff"  # the asker's own, stored
    asked = user_installed(bot, FakeUser(8, "Mina"))
    await slash("rule").callback(asked, query="목표")
    assert "리프트오프" in (asked.log[0].embed.footer.text or "")  # the pack Mina chose
    other = user_installed(bot, FakeUser(9, "Jun"))  # someone else's DM keeps the default game
    await slash("rule").callback(other, query="79.1")
    assert other.log[0].embed.title.startswith("79 폭격")


def test_an_agenda_asked_outside_a_server_is_told_why(compendium, state):
    ctx = core.Context(compendium, state, user_id="8", user_name="Mina", guild_id="dm-8", in_server=False)
    with pytest.raises(UserError) as exc:
        core.dispatch(ctx, "agenda start", {"name": "X"})
    assert said("error.server_only", exc.value.message)


async def test_find_the_rule_answers_a_messages_question_privately_then_posts_it(bot):
    from discord_fakes import chat_message, user_installed

    from cogs.rules import find_rule_menu

    inter = user_installed(bot, FakeUser(8, "Mina"), "group")
    await find_rule_menu().callback(inter, chat_message("PDS가 우주전투에 쏠 수 있어?"))
    first = inter.log[0]
    assert first.ephemeral and first.embed.title.startswith("89 PDS")
    post = [i.custom_id for i in first.items if i.custom_id and i.custom_id.startswith("post:")]
    assert post and post[0].startswith("post:ti4:89:")
    press = user_installed(bot, FakeUser(8, "Mina"), "group")
    await persistent_item(post[0]).callback(press)
    assert not press.log[0].ephemeral and press.log[0].embed.title.startswith("89 PDS")


async def test_find_the_rule_reads_another_bots_embed_and_refuses_an_empty_message(bot):
    from discord_fakes import chat_message

    from cogs.rules import find_rule_menu

    inter = FakeInteraction(bot)
    await find_rule_menu().callback(inter, chat_message("", [discord.Embed(title="폭격", description="언제 굴리나요?")]))
    assert inter.log[0].embed.title.startswith("79 폭격")
    from cogs.cards import layout
    from tabletop.core.render import Embed, Reply

    card = layout(Reply(embeds=[Embed(title="질문", description="행성 방어막은 폭격을 막아?")]))
    carded = FakeInteraction(bot)
    await find_rule_menu().callback(carded, chat_message("", card=card))  # a bot's card: its text displays
    assert carded.log[0].embed.title.startswith(("86 행성 보호막", "79 폭격"))
    empty = FakeInteraction(bot)
    with pytest.raises(UserError) as exc:
        await find_rule_menu().callback(empty, chat_message("   "))
    assert said("message.no_text", exc.value.message)


async def test_autocomplete_never_waits_on_the_embedding_model(bot, compendium, monkeypatch):
    import threading

    held = threading.Event()

    def stuck(text):  # a model that never answers while the test runs
        held.wait(5)
        raise AssertionError("autocomplete asked the embedding model")

    monkeypatch.setattr(compendium.search.embedder, "query", stuck)
    compendium.search._embed.cache_clear()
    monkeypatch.setattr(compendium.search, "_embed", stuck)
    try:
        choices = await asyncio.wait_for(rule_autocomplete(FakeInteraction(bot), "폭격 주사위는 언제"), 2.0)
    finally:
        held.set()
    assert choices  # from the names and the words alone


async def test_find_the_rule_lists_a_weak_match_with_a_menu_that_posts_the_pick(bot, monkeypatch):
    """The "did you mean" list had no way to post: its menu's pick is posted for everyone."""
    from discord_fakes import chat_message, user_installed

    from cogs.rules import find_rule_menu
    from tabletop.rules import answers

    def weak(compendium, query, game):  # a list of candidates, as a weak match answers
        return answers.results_reply(compendium, query, compendium.search.search("폭격 주사위", game, limit=3), "did_you_mean")

    monkeypatch.setattr(answers, "chat_answer", weak)
    inter = user_installed(bot, FakeUser(8, "Mina"), "group")
    await find_rule_menu().callback(inter, chat_message("폭격할 때 뭐 굴려?"))
    first = inter.log[0]
    assert first.ephemeral
    menus = [i.custom_id for i in first.items if i.custom_id and i.custom_id.startswith("post:pick:")]
    assert menus == ["post:pick:ti4"]
    press = user_installed(bot, FakeUser(8, "Mina"), "group")
    await persistent_item("post:pick:ti4", chosen="79:79.2").callback(press)
    assert not press.log[0].ephemeral and press.log[0].embed.title.startswith("79 폭격")


async def test_a_vote_queued_behind_the_agendas_lock_is_refused_in_time_not_answered_late(bot, state):
    """The per-agenda lock had no deadline, and the answer's clock started after it: votes
    queued behind a stalled one were answered after Discord's 3 s, some of them recorded."""
    import asyncio
    import time

    from cogs.registry import PRESENTERS
    from cogs.ui import context
    from tabletop.agenda.store import AgendaStore
    from tabletop.core.i18n import t

    await slash("agenda start").callback(FakeInteraction(bot), name="X")
    inter = FakeInteraction(bot, user=FakeUser(5, "Eve"))
    # the lock the presenter that answers a vote takes (the bot's extension loading may have made a
    # second copy of cogs.agenda: its own locks)
    presenter_module = PRESENTERS["agenda vote"].__globals__
    lock = await presenter_module["current_lock"](context(inter))
    await lock.acquire()  # another press of this agenda, stalled
    try:
        started = time.monotonic()
        with pytest.raises(UserError) as refused:  # the tree's error handler says it, in time
            await asyncio.wait_for(slash("agenda vote").callback(inter, outcome="부결", votes=3), 10)
        waited = time.monotonic() - started
    finally:
        lock.release()
    assert waited < 2.5 and refused.value.message == t("state.busy") and not inter.log
    ctx = context(inter)
    agenda = AgendaStore(state).current(ctx.guild_id, ctx.channel_id)
    assert agenda is not None and not [e for e in AgendaStore(state).log(agenda.id) if e["action"] == "vote"]


async def test_discord_replies_and_logs_hold_no_piece_of_a_password_with_an_at(compendium, caplog):
    """On Discord too (the console and health are tested in test_fuzz): a password typed with
    '@' unencoded showed its second part in every refusal and log line."""
    from cogs.errors import answer_error
    from tabletop.store import StateUnavailable, open_state

    caplog.set_level("DEBUG")
    url = "postgresql://alice:my@SecretPart@127.0.0.1:1/x"
    try:
        state = open_state(url)
    except StateUnavailable as exc:  # refused at once: its sentence is what a user reads
        told = [exc.message]
    else:
        bot = FakeBot(compendium=compendium, state=state, user=FakeUser(999, "bot", bot=True))
        inter = FakeInteraction(bot)
        try:
            await slash("agenda start").callback(inter, name="X")
        except Exception as exc:  # the tree's handler answers it, as on Discord
            await answer_error(inter, exc)
        told = [sent.text for sent in inter.log]
        state.close()
    assert told and all("SecretPart" not in text for text in told)
    assert "SecretPart" not in caplog.text
