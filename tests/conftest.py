"""Shared fixtures: a rules database built once per test session in a temporary folder, a
fresh state database per test, and the rules website built once, served on localhost, with
Debian's Chromium to read it. Tests never touch data/."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# Passage vectors are cached per test session, outside data/: the bundled packs' vectors are
# shipped (data/passage_vectors.sqlite3), and what a test embeds anew is reused by every later
# build in the session (and its subprocesses).
os.environ.setdefault("EMBEDDINGS_CACHE", str(Path(tempfile.mkdtemp(prefix="embeddings-")) / "embeddings.db"))

from tabletop import features  # noqa: E402
from tabletop.rules import ruledb  # noqa: E402
from tabletop.rules.compendium import Compendium  # noqa: E402
from tabletop.site import build  # noqa: E402
from tabletop.store import StateStore, open_state  # noqa: E402

features.load()  # every feature's commands in the table, as the front ends have them

SEEDS = ROOT / "tests" / "seeds"
EVAL = ROOT / "tests" / "eval"


@pytest.fixture(scope="session")
def rules_db(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("rules") / "rules.db"
    ruledb.build(db_path=path)
    return path


@pytest.fixture(scope="session")
def compendium(rules_db) -> Compendium:
    return Compendium(rules_db)


@pytest.fixture
def state(tmp_path) -> StateStore:
    db = open_state(tmp_path / "state.db")
    yield db
    db.close()


@pytest.fixture
def cli_env(tmp_path, rules_db):
    """Environment for running bot.py in a subprocess without touching data/."""
    env = dict(os.environ)
    env["RULES_DB"] = str(tmp_path / "rules.db")
    env["STATE_DB"] = str(tmp_path / "state.db")
    env.pop("DISCORD_TOKEN", None)
    env["PYTHONIOENCODING"] = "utf-8"
    return env


@pytest.fixture(scope="session")
def pg_server():
    """One throwaway PostgreSQL server for the session (never skipped: CI installs it)."""
    from postgres_server import Server, stop_with_the_run

    server = Server().start()
    stop_with_the_run(server)
    yield server
    server.stop()


@pytest.fixture
def pg_url(pg_server) -> str:
    """A fresh, empty database on the session's server."""
    return pg_server.new_database()


@pytest.fixture(params=["sqlite", "postgresql"])
def state_target(request, tmp_path) -> str:
    """Where a test's state lives, once for each backend."""
    if request.param == "sqlite":
        return str(tmp_path / "state.db")
    return request.getfixturevalue("pg_url")


@pytest.fixture(autouse=True)
def _close_postgresql_pools(monkeypatch):
    """Every PostgreSQL store a test opens is closed after it: a pool left to the garbage
    collector may be collected on its own worker thread, which psycopg_pool cannot join."""
    from tabletop.store import postgres

    opened: list = []
    original = postgres.PostgresState.__init__

    def tracked(self, *args, **kwargs):
        opened.append(self)
        original(self, *args, **kwargs)

    monkeypatch.setattr(postgres.PostgresState, "__init__", tracked)
    yield
    for state in opened:
        if hasattr(state, "pool"):
            state.pool.close()


# --- the fast loop ------------------------------------------------------------------------------

# What `pytest -m "not slow"` leaves out: a test that needs a PostgreSQL server or Chromium, or runs
# bot.py in a process of its own (cli_env, pty_env: a Python start-up and a rules load, about 3 s
# each), found by its fixtures so that a new one is marked without anyone remembering to, and the
# few tests marked `slow` by hand because they run long. CI runs them all.
SLOW_FIXTURES = frozenset({"pg_server", "pg_url", "browser", "served", "cli_env", "pty_env"})


def pytest_collection_modifyitems(items):
    for item in items:
        chosen = getattr(item, "callspec", None)
        on_postgresql = chosen is not None and chosen.params.get("state_target") == "postgresql"
        if on_postgresql or SLOW_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)


# --- the rules website, in a real browser ------------------------------------------------------

CHROMIUM_FLAGS = [
    "--no-sandbox",  # CI runs as root
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",  # this machine's closed network refuses them anyway
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def site(compendium, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site")
    build.build(compendium, out)
    return out


@pytest.fixture(scope="session")
def served(site):
    server = build.serve(site, port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium (.ci/run installs it), driven by Playwright: never skipped. Per module:
    Playwright's synchronous API holds an event loop while it runs, which the asynchronous
    tests of later modules must not find running."""
    from playwright.sync_api import sync_playwright

    executable = shutil.which("chromium") or shutil.which("chromium-browser")
    assert executable, "Chromium is not installed: apt-get install chromium fonts-nanum"
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_FLAGS)
        yield chromium
        chromium.close()
