"""The environment is read in one place: a value the bot cannot use is one sentence naming
the variable, before anything runs; the command line's own choices never change the
environment."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from run_bot import run_bot

import bot
from tabletop.core import config
from tabletop.core.i18n import LOCALES, speaking, t
from tabletop.rules.packs import PackError, load_packs


@pytest.mark.parametrize(
    "name, value",
    [
        ("STATE_POOL_SIZE", "abc"),
        ("STATE_POOL_SIZE", "0"),
        ("STATE_POOL_SIZE", "-3"),
        ("STATE_POOL_SIZE", "²"),
        ("LOG_LEVEL", "bogus"),
        ("RULES_SITE_URL", "example.org"),  # a link button without http(s) would make Discord refuse every reply
        ("RULES_SITE_URL", "ftp://example.org"),
        ("RULES_SITE_URL", "https://rules example.org"),
        ("RULES_SITE_URL", "https://example.com/site?x=1"),  # links would be …?x=1/ti4/79.html
        ("RULES_SITE_URL", "https://example.com/site#top"),
        ("SHARD_COUNT", "x"),  # checked before any command, as every variable is
        ("SHARD_COUNT", "0"),
    ],
)
def test_a_value_the_bot_cannot_use_is_a_sentence_naming_the_variable(name, value):
    for locale in LOCALES:
        with speaking(locale), pytest.raises(config.ConfigError) as refused:
            config.load({name: value})
        assert name in refused.value.message and value in refused.value.message


def test_unset_and_empty_variables_take_their_defaults():
    settings = config.load({"STATE_POOL_SIZE": "", "LOG_LEVEL": ""})
    assert settings.state_pool_size == 8 and settings.log_level == "" and settings.rules_db.name == "rules.db"
    assert config.load({"LOG_LEVEL": "warning", "STATE_POOL_SIZE": " 12 "}).state_pool_size == 12
    assert config.load({"RULES_SITE_URL": " https://rules.example.org/ "}).rules_site_url == "https://rules.example.org"
    assert config.load({"RULES_SITE_URL": "HTTPS://Rules.example.org/ti4"}).rules_site_url == "HTTPS://Rules.example.org/ti4"


@pytest.mark.parametrize("command", [["console"], ["health"], ["run"]])
def test_a_bad_variable_stops_every_command_with_its_sentence(cli_env, command):
    out = run_bot(command, {**cli_env, "STATE_POOL_SIZE": "abc", "DISCORD_TOKEN": "x" * 60}, stdin="/rule 79.1\n")
    assert out.returncode == 2, out.stderr
    assert "STATE_POOL_SIZE" in out.stderr and "invalid literal" not in out.stdout + out.stderr
    assert "Traceback" not in out.stderr


def test_the_state_option_is_used_without_writing_the_environment(tmp_path, monkeypatch, rules_db):
    monkeypatch.delenv("STATE_DB", raising=False)
    monkeypatch.setenv("RULES_DB", str(rules_db))
    monkeypatch.setattr("sys.stdin", io.StringIO("/rule 79.1\n"))
    chosen = tmp_path / "chosen.db"
    assert bot.main(["console", "--state", str(chosen), "--json"]) == 0
    assert "STATE_DB" not in os.environ and chosen.exists()
    config.forget_choices()
    assert config.state_db() != str(chosen)


def test_a_dotenv_files_log_level_counts_for_the_commands_that_read_it(monkeypatch):
    import logging

    seen, before = {}, logging.getLogger().level
    monkeypatch.delenv("LOG_LEVEL", raising=False)
    from tabletop.cli import main as command_line

    monkeypatch.setattr(command_line, "_load_dotenv", lambda: monkeypatch.setenv("LOG_LEVEL", "DEBUG"))  # what a .env says
    monkeypatch.setattr(command_line, "cmd_run", lambda args: seen.setdefault("level", logging.getLogger().level) and 0)
    assert bot.main(["run"]) == 0 and seen["level"] == logging.DEBUG
    logging.getLogger().setLevel(before)


def test_a_process_with_no_home_still_reads_its_configuration(monkeypatch):
    """An unknown uid in a container has no HOME and no passwd entry: only the console's history
    needs a home, so nothing else may stop on it."""
    import pwd

    def nobody(uid):
        raise KeyError(uid)

    monkeypatch.delenv("HOME", raising=False)
    monkeypatch.delenv("XDG_STATE_HOME", raising=False)
    monkeypatch.setattr(pwd, "getpwuid", nobody)
    assert config.load().state_pool_size == 8


def _not_files(tmp_path: Path) -> dict[str, str]:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    (tmp_path / "folder").mkdir()
    (tmp_path / "plain").write_text("x", encoding="utf-8")
    return {
        "device": "/dev/null",
        "fifo": str(fifo),
        "folder": str(tmp_path / "folder"),
        "under a file": str(tmp_path / "plain" / "rules.db"),
    }


@pytest.mark.parametrize("name", ["RULES_DB", "EMBEDDINGS_CACHE"])
def test_a_database_path_that_is_no_regular_file_is_refused_naming_the_variable(tmp_path, name):
    for kind, path in _not_files(tmp_path).items():
        for locale in LOCALES:
            with speaking(locale), pytest.raises(config.ConfigError) as refused:
                config.load({name: path})
            assert name in refused.value.message and path in refused.value.message, kind


@pytest.mark.parametrize("kind", ["device", "fifo"])
def test_the_rules_database_never_replaces_a_device_or_a_fifo(cli_env, tmp_path, kind):
    path = _not_files(tmp_path)[kind]
    before = os.stat(path)
    done = run_bot(["rule", "79.1"], {**cli_env, "RULES_DB": path}, timeout=60)
    after = os.stat(path)
    assert done.returncode == 2 and "RULES_DB" in done.stderr and "Traceback" not in done.stderr
    assert (after.st_mode, after.st_ino, after.st_rdev) == (before.st_mode, before.st_ino, before.st_rdev)
    assert not Path(path + ".userdic").exists() and not list(Path(path).parent.glob(".rules-*"))


def test_a_rules_folder_that_is_not_one_is_blamed_on_rules_dir(tmp_path):
    with pytest.raises(config.ConfigError) as refused:
        config.load({"RULES_DIR": "/etc/passwd"})
    assert refused.value.message == t("config.not_a_folder", name="RULES_DIR", path="/etc/passwd")
    missing = tmp_path / "nonexistent" / "rules"  # pack import may make it: said when the packs are read
    with pytest.raises(PackError) as unread:
        load_packs(missing)
    assert unread.value.messages == [t("config.no_folder", name="RULES_DIR", path=str(missing))]


@pytest.mark.parametrize(
    "value, key",
    [
        ("https://exa mple.com/", "config.url_space"),
        ("https://example.com/?x=1", "config.url_query"),
        ("example.com", "config.bad_url"),
    ],
)
def test_a_site_address_is_refused_for_what_is_wrong_with_it(value, key):
    with pytest.raises(config.ConfigError) as refused:
        config.load({"RULES_SITE_URL": value})
    assert refused.value.message == t(key, name="RULES_SITE_URL", value=value)
