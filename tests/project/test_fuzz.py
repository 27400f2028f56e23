"""Every command of the table, fuzzed on both front ends: hostile option values (empty, white
space, very long text, look-alikes, full-width digits, bidirectional overrides, escapes, numbers
at and past every limit), unknown and repeated options, any order and case, as another player.

Whatever is typed, the answer is a reply within Discord's limits, never a traceback or a generic
"error id", and a refused command writes nothing to the state store. The examples Hypothesis
finds are kept in tests/project/fuzz_examples/ (committed), so every run replays them first.
"""

from __future__ import annotations

import asyncio

import discord
import pytest
from discord import app_commands
from discord_fakes import FakeBot, FakeInteraction, FakeUser
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st
from hypothesis.database import DirectoryBasedExampleDatabase
from run_bot import run_bot

from cogs.commands import slash
from cogs.errors import answer_error
from tabletop.console.app import run_command
from tabletop.console.printed import printed
from tabletop.core import commands
from tabletop.core.errors import UserError
from tabletop.core.i18n import t
from tabletop.core.payloads import check_limits
from tabletop.core.render import COLOR_ERROR

EXAMPLES = DirectoryBasedExampleDatabase(str(__import__("pathlib").Path(__file__).parent / "fuzz_examples"))
FUZZ = settings(
    max_examples=12,  # per command: about 30 commands, bounded in time on two cores
    deadline=None,
    database=EXAMPLES,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
GENERIC = t("error.unexpected", "ko", error_id="")  # "…오류 번호: " whatever the id

HOSTILE = st.one_of(
    st.just(""),
    st.just("   "),
    st.text(max_size=40),
    st.text(alphabet="폭격피해견딤보병인프드레드 ,.:0123456789", max_size=30),
    st.sampled_from(
        [
            "ｘ" * 3,
            "１２３",
            "\u202eevil\u202c",
            "\x1b[31mred",
            "a" * 10_000,
            "-1",
            "0",
            "999999999999",
            "1e9",
            "nan",
            "<@123>",
            "@everyone",
            "`code`",
            "**bold**",
            ",,,",
            "ＢＯＢ",
            "10 infantry, 2 mech",
            "2 dreadnought",
            "d10>=11",
            "79.1.1",
            ".1",
            "1" * 30,
            "postgresql://u:pw@[::1:5432/db",
            "/etc/passwd/x",
        ]
    ),
)


def _snapshot(state):
    tables = [r[0] for r in state.conn.execute("select name from sqlite_master where type = 'table'")]
    return {name: state.conn.execute(f"select count(*), max(rowid) from {name}").fetchone()[:] for name in tables}


def _check(reply, snapshot_before, state) -> None:
    for r in commands.as_replies(reply):
        assert check_limits(r) == [], printed(r)[:200]
        assert "Traceback" not in printed(r)
        assert GENERIC not in printed(r), printed(r)[:200]
        refused = any(e.color == COLOR_ERROR for e in r.embeds)
        if refused:
            assert _snapshot(state) == snapshot_before, printed(r)[:200]


CONSOLE_COMMANDS = sorted(commands.COMMANDS)


@pytest.mark.parametrize("name", CONSOLE_COMMANDS)
def test_console_never_crashes_on_any_option_values(compendium, state, name):
    cmd = commands.COMMANDS[name]
    option_names = [o.name for o in cmd.options] + ["bogus"]
    # numbers at and just past every option's limits, and its own choices misspelt
    edges = [str(v) for o in cmd.options for v in (o.min_value, o.max_value) if v is not None for v in (v - 1, v, v + 1)] + [
        c.upper() + "x" for o in cmd.options for c in o.choices
    ]
    values = st.one_of(HOSTILE, st.sampled_from(edges)) if edges else HOSTILE

    @FUZZ
    @given(
        pairs=st.lists(st.tuples(st.sampled_from(option_names), values), max_size=4),
        free=HOSTILE,
        shout=st.booleans(),
        actor=st.sampled_from(["", "as Bob: ", "as ＢＯＢ: "]),
    )
    def run(pairs, free, shout, actor):
        parts = [f"{(n.upper() if shout else n)}:{v}" for n, v in pairs]
        line = f"{actor}/{name} {free} " + " ".join(parts)
        ctx = commands.Context(compendium, state, user_id="me", user_name="me", guild_id="g", channel_id="c")
        before = _snapshot(state)
        _check(run_command(ctx, line), before, state)

    run()


def _app_commands():
    """Every command Discord has, as generated from the table."""
    for name, cmd in commands.COMMANDS.items():
        if not cmd.console_only:
            yield slash(name)


def _value(param):
    """What Discord itself lets through for a parameter: its type, within its declared limits
    and choices (Discord refuses the rest before the bot sees it)."""
    if param.choices:
        return st.sampled_from([c.value for c in param.choices])
    if param.type == discord.AppCommandOptionType.boolean:
        return st.booleans()
    if param.type == discord.AppCommandOptionType.integer:
        low = param.min_value if param.min_value is not None else -(2**31)
        high = param.max_value if param.max_value is not None else 2**31
        return st.one_of(st.sampled_from([low, high]), st.integers(low, high))
    low = param.min_value or 0
    high = param.max_value or 4000
    return st.one_of(HOSTILE, st.just("x" * high)).filter(lambda v: low <= len(v) <= high)


def _discord_commands():
    return sorted(c.extras["table"] for c in _app_commands())


@pytest.mark.parametrize("qualified", _discord_commands())
def test_discord_never_answers_with_an_error_id(compendium, state, qualified):
    bot = FakeBot(compendium=compendium, state=state, user=FakeUser(999, "bot", bot=True))
    cmd = slash(qualified)
    strategies = {name: (_value(p) if p.required else st.one_of(st.none(), _value(p))) for name, p in cmd._params.items()}

    @FUZZ
    @given(values=st.fixed_dictionaries(strategies), user=st.sampled_from([FakeUser(1, "Alice"), FakeUser(2, "ＢＯＢ")]))
    def run(values, user):
        inter = FakeInteraction(bot, user=user)
        before = _snapshot(state)

        async def invoke():
            try:
                await cmd.callback(inter, **values)
            except UserError as exc:  # what the tree's error handler is given
                await answer_error(inter, app_commands.CommandInvokeError(cmd, exc))
            except Exception as exc:  # anything else would reach people as an error id
                raise AssertionError(f"/{qualified} {values}: {type(exc).__name__}: {exc}") from exc

        asyncio.run(invoke())
        for sent in inter.log:
            text = sent.text if {"embed", "embeds", "view"} & set(sent.kwargs) or sent.kwargs.get("content") else ""
            assert GENERIC not in text and "Traceback" not in text
            content = sent.kwargs.get("content") or ""
            assert len(content) <= 2000
            for e in sent.kwargs.get("embeds") or ([sent.kwargs["embed"]] if "embed" in sent.kwargs else []):
                assert len(e) <= 6000 and len(e.description or "") <= 4096
            view = sent.kwargs.get("view")
            if isinstance(view, discord.ui.LayoutView):  # a card, as Discord counts it
                assert view.total_children_count <= 40 and view.content_length() <= 4000
            if any(e.color and e.color.value == COLOR_ERROR for e in sent.cards):
                assert _snapshot(state) == before

    run()


# --- what an operator types: environment variables, state URLs, site folders ----------------

OPERATOR = settings(FUZZ, max_examples=25)
PASSWORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!$^*()-_~", min_size=8, max_size=24)
# hosts that fail at once, offline or not: nothing listens on port 1, the rest cannot be parsed
HOSTS = ["127.0.0.1:1", "[::1:5432", "[::1]:1", "localhost:99999", "host:notaport", "", "%zz"]
TAILS = ["/db", "/db?sslmode=bogus", "/db?connect_timeout=x", "?host=/nonexistent&port=1", "/d b", "/db?password=x"]


@OPERATOR
@given(
    user=st.sampled_from(["u", "", "bot", "ｕ", "a:b"]),
    password=PASSWORD,
    host=st.sampled_from(HOSTS),
    tail=st.one_of(st.sampled_from(TAILS), st.text(max_size=20).map(lambda s: "/" + s)),
    scheme=st.sampled_from(["postgresql://", "postgres://"]),
)
def test_no_state_url_shows_its_password_anywhere(user, password, host, tail, scheme):
    import io
    import logging

    from tabletop.core import logs
    from tabletop.store import StateUnavailable, open_state

    assume(password not in tail)  # the database's own name is no secret
    url = f"{scheme}{user}:{password}@{host}{tail}"
    seen = io.StringIO()
    handler = logging.StreamHandler(seen)
    handler.setFormatter(logs.RedactingFormatter(logs.FORMAT))
    handler.addFilter(logs.ContextAndRedaction())
    logging.getLogger().addHandler(handler)
    said = []
    try:
        try:
            state = open_state(url)
        except StateUnavailable as exc:
            said += [_in(loc, exc.why.__str__) for loc in ("ko", "en", "ja")]
        else:
            said += [_in(loc, lambda: str(state.problem or "")) for loc in ("ko", "en", "ja")]
            try:
                state.set_setting("g", "chat", "off")
            except UserError as refused:
                said.append(refused.message)
            state.close()
    finally:
        logging.getLogger().removeHandler(handler)
    for text in [*said, seen.getvalue()]:
        assert password not in text and "Traceback" not in text, text


def _in(locale, render):
    from tabletop.core.i18n import speaking

    with speaking(locale):
        return render()


@FUZZ
@given(
    name=st.sampled_from(["STATE_POOL_SIZE", "LOG_LEVEL", "RULES_DB", "STATE_DB", "EMBEDDINGS_CACHE", "RULES_SITE_URL"]),
    value=HOSTILE,
)
def test_every_environment_value_is_used_or_refused_with_a_sentence(name, value):
    from tabletop.core import config

    try:
        config.load({name: value})
    except config.ConfigError as exc:
        assert name in exc.message and "Traceback" not in exc.message


@FUZZ
@given(
    where=st.one_of(
        st.text(max_size=30).map(lambda s: f"afile/{s}"),
        st.text(min_size=1, max_size=10).map(lambda s: f"out\0{s}"),
        st.just("x" * 300),
        st.sampled_from(["", "   ", "afile", "afile/x/y"]),
    )
)
@example(where="out\0\n")  # a line break in the name: still one line, the name escaped
def test_no_site_folder_ends_in_a_traceback(rules_db, tmp_path_factory, where):
    import contextlib
    import io
    import os

    import bot

    here = tmp_path_factory.mktemp("site")
    (here / "afile").write_text("x")
    out, err = io.StringIO(), io.StringIO()
    old = os.getcwd(), os.environ.get("RULES_DB")
    os.chdir(here)
    os.environ["RULES_DB"] = str(rules_db)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = bot.main(["site", where])
    finally:
        os.chdir(old[0])
        os.environ.pop("RULES_DB") if old[1] is None else os.environ.__setitem__("RULES_DB", old[1])
    assert code == 1 and "Traceback" not in err.getvalue() and "error:" not in err.getvalue(), err.getvalue()
    assert err.getvalue().strip().count("\n") == 0  # one sentence
    assert sorted(p.name for p in here.iterdir()) == ["afile"]


@pytest.mark.parametrize("password", ["my@SecretPart", "co:lon@Hidden9", "sla/sh@Slashed7", "pct%40Encoded8", "a@b@Twice55"])
def test_no_piece_of_a_password_with_at_colon_slash_or_percent_is_shown(cli_env, password):
    """A password typed unencoded runs to the last @: the driver was given 'my' as the password
    and 'SecretPart@127.0.0.1' as the host, and quoted that host in every refusal and log line."""
    import re as re_

    url = f"postgresql://alice:{password}@127.0.0.1:1/x"
    pieces = {p for p in re_.split(r"[@:/]|%40", password) if len(p) >= 4}
    out = run_bot(["health"], {**cli_env, "STATE_DB": url}, timeout=60)
    console = run_bot(["console"], {**cli_env, "STATE_DB": url}, stdin="/agenda show\n", timeout=60)
    for text in (out.stdout + out.stderr, console.stdout + console.stderr):
        assert "127.0.0.1" in text  # the refusal was shown, with the host
        for piece in pieces:
            assert piece not in text, (piece, text)


def test_a_state_url_whose_tail_names_an_unspellable_host_is_refused_in_a_sentence():
    """Found by the fuzzer above: libpq reads a host from '/@\\x80' that no resolver can spell,
    and the lookup's UnicodeError is no driver error."""
    from tabletop.store import StateUnavailable, open_state

    with pytest.raises(StateUnavailable) as exc:
        open_state("postgresql://u:00000000@127.0.0.1:1/@\x80")
    assert "00000000" not in str(exc.value.why)
