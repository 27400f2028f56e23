"""Running as several processes: shards chosen by SHARD_COUNT and SHARD_IDS, a health check per
shard, and a process started against a PostgreSQL store."""

from __future__ import annotations

import json
import re
import subprocess
import time
from pathlib import Path

import pytest
from run_bot import run_bot

from cogs.client import RulesBot, shard_settings
from tabletop.core.i18n import t

ROOT = Path(__file__).resolve().parents[2]


def test_shard_settings_read_the_environment():
    assert shard_settings({}) == {}
    assert shard_settings({"SHARD_COUNT": "4"}) == {"shard_count": 4}
    assert shard_settings({"SHARD_COUNT": "4", "SHARD_IDS": "2-3"}) == {"shard_count": 4, "shard_ids": [2, 3]}
    assert shard_settings({"SHARD_COUNT": "6", "SHARD_IDS": "5, 0"}) == {"shard_count": 6, "shard_ids": [0, 5]}


@pytest.mark.parametrize(
    ("env", "named"),
    [
        ({"SHARD_IDS": "0"}, "SHARD_COUNT"),
        ({"SHARD_COUNT": "zero"}, "SHARD_COUNT"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "0 to 1"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "1,1"}, "different"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "a-b"}, "SHARD_IDS"),
    ],
)
def test_shard_mistakes_are_one_sentence(env, named):
    with pytest.raises(ValueError, match=named):
        shard_settings(env)


async def test_the_bot_runs_the_shards_it_is_given():
    bot = RulesBot(shard_count=4, shard_ids=[2, 3])
    assert bot.shard_count == 4 and bot.shard_ids == [2, 3]
    await bot.close()


def test_a_bad_shard_setting_stops_the_bot_before_it_connects(cli_env):
    cli_env.update(DISCORD_TOKEN="not-a-real-token", SHARD_COUNT="2", SHARD_IDS="7")
    done = run_bot([], cli_env)
    assert done.returncode == 2
    assert "SHARD_IDS must name different shards from 0 to 1" in done.stderr and "Traceback" not in done.stderr
    assert "not-a-real-token" not in done.stdout + done.stderr


def _health(env) -> subprocess.CompletedProcess:
    return run_bot(["health"], env)


def test_health_reports_each_shard_and_the_postgresql_store(cli_env, pg_url, tmp_path, rules_db):
    beat = tmp_path / "heartbeat"
    cli_env.update(STATE_DB=pg_url, HEARTBEAT_FILE=str(beat), RULES_DB=str(rules_db))
    now = time.time()
    beat.write_text(json.dumps({"0": now - 5, "1": now - 10}))
    healthy = _health(cli_env)
    assert healthy.returncode == 0, healthy.stderr
    shard = t("health.heartbeat", shard="{shard}", age="{age}").replace("{shard}", "(\\d)").replace("{age}", "(\\d+)")
    ages = [(int(s), int(a)) for s, a in re.findall(shard, healthy.stdout)]  # in the run's language
    assert [s for s, _ in ages] == [0, 1] and 5 <= ages[0][1] <= 9 and 10 <= ages[1][1] <= 19
    assert t("health.state", where="postgresql postgresql://tabletop@/") in healthy.stdout
    beat.write_text(json.dumps({"0": now - 5, "1": now - 600}))
    stale = _health(cli_env)
    assert stale.returncode == 1 and any(s == "1" and 600 <= int(a) < 610 for s, a in re.findall(shard, stale.stderr))


def test_health_says_when_the_postgresql_server_is_down(cli_env, tmp_path):
    beat = tmp_path / "heartbeat"
    beat.write_text(json.dumps({"0": time.time()}))
    cli_env.update(STATE_DB=f"postgresql://bot:secret@/tabletop?host={tmp_path}&port=5997", HEARTBEAT_FILE=str(beat))
    down = _health(cli_env)
    assert down.returncode == 1
    assert t("state.cause.unreachable") in down.stderr and "secret" not in down.stdout + down.stderr


def test_the_compose_file_runs_two_processes_on_different_shards_of_one_postgresql():
    import yaml

    from cogs.client import shard_settings

    compose = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    services = compose["services"]
    assert services["postgres"]["image"] == "postgres:15"
    bots = {name: s for name, s in services.items() if name.startswith("bot")}
    assert len(bots) == 2
    owned: list[int] = []
    for service in bots.values():
        env = service["environment"]
        assert env["STATE_DB"].startswith("postgresql://tabletop:${POSTGRES_PASSWORD")
        assert service["depends_on"]["postgres"]["condition"] == "service_healthy"
        assert env["HEARTBEAT_FILE"].startswith("/app/state/") and "/app/state" in service["tmpfs"]
        assert service["read_only"] and env["TMPDIR"] in service["tmpfs"]  # the heavy-work processes' fork server
        owned += shard_settings({k: str(v) for k, v in env.items()})["shard_ids"]
    assert sorted(owned) == list(range(int(next(iter(bots.values()))["environment"]["SHARD_COUNT"])))
