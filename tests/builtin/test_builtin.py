"""The commands every front end has: /settings (all values checked before any is written), and the
console's /help."""

from __future__ import annotations

import pytest

from tabletop.core import settings
from tabletop.core.commands import Context, dispatch
from tabletop.core.errors import UserError
from tabletop.core.i18n import t


@pytest.fixture
def ctx(compendium, state) -> Context:
    return Context(compendium, state, guild_id="g1")


def test_settings_without_options_show_each_switch_in_words(ctx):
    shown = dispatch(ctx, "settings", {}).embeds[0].description
    assert t("settings.is_off") in shown or t("settings.is_on") in shown
    assert "on" not in shown.split() and "off" not in shown.split()


@pytest.mark.parametrize("bad", [{"timezone": "Mars/Olympus"}, {"game": "chess"}])
def test_a_bad_value_changes_no_setting(ctx, state, bad):
    switches = (settings.CHAT, settings.AGENDA_WINDOWS)
    before = [settings.read(state, "g1", s) for s in switches]
    with pytest.raises(UserError):
        dispatch(ctx, "settings", {"chat": str(not before[0]), "agenda_windows": str(not before[1]), **bad})
    assert [settings.read(state, "g1", s) for s in switches] == before


def test_settings_are_for_server_managers(ctx):
    ctx.is_admin = False
    with pytest.raises(UserError):
        dispatch(ctx, "settings", {"chat": "false"})


def test_help_fits_messages_and_loses_no_line(ctx):
    from tabletop.core.commands import COMMANDS, as_replies
    from tabletop.core.payloads import check_limits

    replies = as_replies(dispatch(ctx, "help", {}))
    assert all(check_limits(r) == [] for r in replies)
    shown = "\n".join(r.content for r in replies)
    assert all(f"/{name}" in shown for name in COMMANDS) and t("help.units") in shown


def test_help_for_one_command_lists_it_and_its_subcommands_only(ctx):
    text = dispatch(ctx, "help", {"command": "agenda"}).content
    lines = [line for line in text.splitlines() if line.startswith("/")]
    assert lines and all(line.startswith("/agenda ") for line in lines)
    assert any(line.startswith("/agenda vote outcome:… votes:…") for line in lines)
    with pytest.raises(UserError):
        dispatch(ctx, "help", {"command": "nosuch"})


@pytest.mark.parametrize("locale", ["ko", "en", "ja"])
def test_help_for_a_command_says_what_it_and_each_option_are_for(ctx, locale):
    from tabletop.core.commands import COMMANDS, as_replies, description_key
    from tabletop.core.i18n import speaking

    with speaking(locale):
        for name, cmd in COMMANDS.items():
            shown = "\n".join(r.content for r in as_replies(dispatch(ctx, "help", {"command": name})))
            assert t(f"cmd.{cmd.key}.desc") in shown, name
            assert all(f"{o.name}: {t(description_key(cmd, o))}" in shown for o in cmd.options), name


def test_the_content_a_server_plays_decides_which_printing_a_unit_name_means(ctx, state):
    """At a Thunder's Edge table `naalu mech` is its reprint (no bonus), and the reply says so; a
    command's own content wins over the setting; a roll replayed after the setting changed reads
    the units it was rolled with."""
    import json

    from tabletop.core.components import press

    fight = {"attacker": "2 naalu mech", "defender": "3 infantry", "seed": "5"}
    before = dispatch(ctx, "combat ground", fight).replies()[-1]
    assert "날루 집단 메크" in before.embeds[-1].description and "TE" not in before.embeds[-1].description
    assert "예언의 왕 + 코덱스" in before.embeds[-1].footer
    assert "썬더스 엣지" in dispatch(ctx, "settings", {"content": "te"}).embeds[0].description
    assert settings.read(state, "g1", settings.CONTENT) == "te"
    after = dispatch(ctx, "combat ground", fight).replies()[-1]
    assert "이코노클라스트 TE" in after.embeds[-1].description and "썬더스 엣지" in after.embeds[-1].footer
    asked = dispatch(ctx, "combat ground", {**fight, "content": "pok"}).replies()[-1]
    assert "TE" not in asked.embeds[-1].description
    again = next(b for b in after.rows[-1] if b.custom_id.startswith("combat:again:"))
    dispatch(ctx, "settings", {"content": "pok"})
    replayed = press(ctx, again.custom_id).replies()[-1]
    assert "이코노클라스트 TE" in replayed.embeds[-1].description
    logged = json.loads(state.logged_roll(int(again.custom_id.rsplit(":", 1)[1])))
    assert logged["options"]["content"] == "te"
    with pytest.raises(UserError):
        dispatch(ctx, "settings", {"content": "codex"})


def test_every_settings_option_is_a_setting_with_the_option_it_carries():
    """/settings' options are the settings themselves: each field named as its setting, with its
    limits and choices, and each changed by the command."""
    from dataclasses import fields

    from tabletop.builtin.commands import CHANGEABLE, Settings
    from tabletop.core.commands import COMMANDS

    changed = {c.setting.key: c.setting for c in CHANGEABLE}
    assert [f.name for f in fields(Settings)] == [o.name for o in COMMANDS["settings"].options]
    assert set(changed) == {f.name for f in fields(Settings)}
    for option in COMMANDS["settings"].options:
        spec = changed[option.name].option
        assert all(getattr(option, key) == value for key, value in spec.items())


def test_changed_settings_are_said_and_stored(ctx, state):
    reply = dispatch(ctx, "settings", {"timezone": "Europe/Paris", "chat": "off", "content": "te"})
    said = reply.embeds[0].description
    assert "Europe/Paris" in said and said.count("\n") == 2
    assert settings.read(state, ctx.guild_id, settings.TIMEZONE) == "Europe/Paris"
    assert settings.read(state, ctx.guild_id, settings.CHAT) is False
    assert settings.read(state, ctx.guild_id, settings.CONTENT) == "te"
