"""Heavy work in processes of its own: it runs elsewhere when the pool runs and here when not,
in the asker's language, a player's mistake comes back as raised, and a worker that dies is
replaced with one sentence to the player."""

from __future__ import annotations

import os

import pytest
from said import said

from tabletop import features
from tabletop.combat import commands as combat
from tabletop.core import offload
from tabletop.core.errors import UserError
from tabletop.core.i18n import speaking, t


@pytest.fixture
def pool():
    offload.start(1)
    yield
    offload.stop()


def test_without_a_pool_the_work_runs_here():
    assert not offload.running()
    assert offload.run(os.getpid) == os.getpid()


def test_with_a_pool_the_work_runs_in_another_process_in_the_askers_language(pool):
    assert offload.run(os.getpid) != os.getpid()
    with speaking("en"):
        assert offload.run(t, "error.heavy_lost") == t("error.heavy_lost", "en") != t("error.heavy_lost", "ko")


def test_the_same_odds_elsewhere_as_here(pool):
    features.load()
    values = combat.SpaceFight(attacker="2 dreadnought, 4 fighter", defender="3 cruiser, 2 destroyer")
    there, chart = offload.run(combat.exact_odds, "space", values)
    offload.stop()
    here, _ = combat.exact_odds("space", values)
    assert there.as_dict() == here.as_dict() and chart.startswith(b"\x89PNG")


def test_a_players_mistake_comes_back_as_raised(pool):
    features.load()
    with pytest.raises(UserError) as exc:
        offload.run(combat.exact_odds, "space", combat.SpaceFight(attacker="2 frobnicator", defender="1 cruiser"))
    assert "frobnicator" in exc.value.message


def test_a_worker_that_dies_is_replaced_and_the_player_told(pool):
    with pytest.raises(UserError) as exc:
        offload.run(os._exit, 1)
    assert said("error.heavy_lost", exc.value.message)
    assert offload.run(os.getpid) != os.getpid()  # the next fight is answered


def test_a_pool_that_cannot_start_leaves_the_work_here(monkeypatch):
    """A read-only container with no temporary folder: start says why, and fights still run."""

    def refused(*args, **kwargs):
        raise OSError("No usable temporary directory found")

    monkeypatch.setattr(offload, "ProcessPoolExecutor", refused)
    with pytest.raises(OSError):
        offload.start(2)
    assert not offload.running() and offload.run(os.getpid) == os.getpid()
