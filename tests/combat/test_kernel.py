"""The compiled loop of the exact odds (tabletop.combat.kernel), on fights small enough to solve
by hand."""

from pathlib import Path

import numpy as np
import pytest

from tabletop.combat import kernel
from tabletop.combat.budget import Budget
from tabletop.combat.commands import build_fight, unit_book
from tabletop.combat.sidestates import SideStates


@pytest.fixture(scope="module")
def book():
    return unit_book()


def one_unit_each(a: float, d: float):
    """Each side has one unit that hits with chance a (the attacker) or d: state 0 alive, 1 lost.
    next[s, h]: h hits on state s; on_x[row]: the hits a side takes while the other is in row."""
    nxt = np.array([[0, 1], [1, 1]], dtype=np.int64)
    on_a = np.array([[1 - d, d], [1.0, 0.0]])  # the attacker is hit by the defender
    on_d = np.array([[1 - a, a], [1.0, 0.0]])
    grid = np.zeros((2, 2))
    grid[0, 0] = 1.0
    cells = np.array([0], dtype=np.int64)  # the one live cell: both alive
    return grid, (cells, cells, nxt, nxt, on_a, cells, on_d, cells)


def test_a_duel_ends_as_the_geometric_series_says():
    a, d = 0.6, 0.3
    grid, arrays = one_unit_each(a, d)
    rounds = kernel.settle(grid, *arrays)
    go_on = (1 - a) * (1 - d)  # a round where both miss
    assert rounds == pytest.approx(1 / (1 - go_on), abs=1e-12)
    assert grid[0, 1] == pytest.approx(a * (1 - d) / (1 - go_on), abs=1e-12)  # the attacker wins
    assert grid[1, 0] == pytest.approx(d * (1 - a) / (1 - go_on), abs=1e-12)
    assert grid[1, 1] == pytest.approx(a * d / (1 - go_on), abs=1e-12)  # both lost
    assert grid[0, 0] == 0.0 and grid.sum() == pytest.approx(1.0, abs=1e-12)


def test_a_cell_where_nobody_can_hit_keeps_its_mass_and_plays_no_rounds():
    grid, arrays = one_unit_each(0.0, 0.0)
    assert kernel.settle(grid, *arrays) == 0.0
    assert grid[0, 0] == 1.0


def test_reachable_states_include_those_after_a_move_back():
    # a repair moves state 2 back to state 1, from where a hit leads to 3: a single pass in
    # order would have passed state 1 before it was reached
    nxt = np.array([[0, 0], [1, 3], [2, 1], [3, 3]], dtype=np.int64)
    seen = kernel.reachable(nxt, np.array([2], dtype=np.int64))
    assert seen.tolist() == [False, True, True, True]


def test_the_cache_goes_beside_the_state_database_when_the_code_cannot_be_written(monkeypatch, tmp_path):
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("STATE_DB", str(tmp_path / "state.db"))
    monkeypatch.setattr(kernel.os, "access", lambda path, mode: False)
    assert kernel._cache_directory() == str(tmp_path / "numba")
    monkeypatch.setattr(kernel.os, "access", lambda path, mode: True)
    assert kernel._cache_directory() is None  # numba's own place, beside the code


@pytest.mark.parametrize(
    "units",
    ["3 infantry, 2 mech", "2 dreadnought, 3 fighter, 1 war sun", "yin flagship, 2 cruiser, 3 fighter"],
)
def test_the_loss_table_takes_hits_as_the_side_model_does(book, units):
    """Every state a side can reach, and every number of hits: the compiled table and consume()
    agree (Sustain Damage first, losses in order, the Yin flagship taking the rest with it)."""
    kind, opponent = ("ground", "1 infantry") if "infantry" in units else ("space", "1 destroyer")
    fight = build_fight(kind, {"attacker": units, "defender": opponent}, book)
    model, opponent = fight.models(fight.attacker, fight.defender)
    space = SideStates(fight, "attacker", model, opponent, {model.start}, Budget())
    for i, state in enumerate(space.states):
        for hits in range(space.H + 1):
            after, _, _ = model.consume(state, hits)
            assert space.states[space.next[i, hits]] == after, (state, hits)


def test_pruning_keeps_the_states_reached_numbered_in_order():
    # state 1 is never reached from 0 or 3; the others keep their order, numbered anew
    nxt = np.array([[0, 2], [1, 1], [2, 3], [3, 3]], dtype=np.int64)
    used = np.array([0, 1, 0, 0], dtype=np.int64)
    lost = np.array([0, 0, 1, 2], dtype=np.int64)
    kept_used, kept_lost, kept_next, starts = kernel.pruned(nxt, np.array([3, 0], dtype=np.int64), used, lost)
    assert kept_lost.tolist() == [0, 1, 2] and kept_used.tolist() == [0, 0, 0]
    assert kept_next.tolist() == [[0, 1], [1, 2], [2, 2]]
    assert starts.tolist() == [2, 0]


def test_a_table_that_moves_a_state_back_is_seen():
    assert kernel.moves_forward(np.array([[0, 1], [1, 1]], dtype=np.int64))
    assert not kernel.moves_forward(np.array([[0, 1], [0, 1]], dtype=np.int64))


def test_build_compiles_the_exact_solver_ahead_so_no_player_waits(cli_env, tmp_path):
    """The first /odds after an install compiled the kernels (10-20 s): `bot.py build` (the
    Docker image runs it) leaves them compiled in numba's cache."""
    from run_bot import run_bot

    from tabletop.core.i18n import t

    cache = tmp_path / "numba"
    done = run_bot(["build"], {**cli_env, "NUMBA_CACHE_DIR": str(cache)}, timeout=300)
    assert done.returncode == 0, done.stderr
    assert t("build.kernels", seconds="").split("{")[0][:10] in done.stdout
    assert list(cache.rglob("*.nbi")) and list(cache.rglob("*.nbc"))  # index and machine code


def test_a_small_fight_in_a_fresh_process_needs_no_compiled_kernels_and_agrees_with_them():
    """odds.SMALL_FIGHT: solved pair by pair without loading numba, the same odds as the kernels'."""
    import subprocess
    import sys

    code = (
        "import sys; from tabletop.combat import odds; from tabletop.combat.commands import build_fight, unit_book; "
        "f = build_fight('space', {'attacker': '2 dreadnought, 1 cruiser', 'defender': '3 cruiser, 2 destroyer'}, unit_book()); "
        "o = odds.solve(f); print(repr(o.attacker), 'numba' in sys.modules)"
    )
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root).stdout.split()
    assert out[1] == "False"
    from tabletop.combat import odds

    fight = build_fight("space", {"attacker": "2 dreadnought, 1 cruiser", "defender": "3 cruiser, 2 destroyer"}, unit_book())
    import tabletop.combat.levels  # noqa: F401 - the kernels loaded: this process uses them

    assert abs(odds.solve(fight).attacker - float(out[0])) < 1e-12
