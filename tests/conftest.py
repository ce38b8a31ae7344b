"""Shared fixtures: a service over a real database (a SQLite file, and PostgreSQL when
``PARTIDA_TEST_PG_URL`` is set), with a clock the test controls."""

from __future__ import annotations

import io
import logging
import os
import random
from collections.abc import AsyncIterator, Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from bot.console import Console, ConsoleClock
from bot.service import Actor, Place, Service
from tests.reliability import pg
from tests.support.migrated import copy_migrated, migrated_template
from tests.support.registered import kept_games, playing, registered
from tests.support.tiny import TEXTS, TINY, Tiny

# Tests draw in a thread, where they can replace a renderer; tests/test_drawing.py checks the
# worker process itself.
os.environ.setdefault("RENDER_WORKERS", "0")


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (pyproject.toml): three workers per core. Most Discord and process tests
    spend their time waiting, not computing (Discord's 3 s window, discord.py's retries, the
    sender's pace, a child process starting), so while one worker waits the others compute:
    the suite waits longer in all than it computes (docs/testing.md, "How long"), and with two
    workers a core the waiting, not the cores, set its length. Every test keeps its own
    files, ports and databases, so workers share nothing. ``PYTEST_XDIST_AUTO_NUM_WORKERS``
    overrides it, as in pytest-xdist."""
    if chosen := os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return int(chosen)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return 3 * (cores or 1)


class Clock:
    """A settable clock: ``clock.now += 3600`` is an hour later."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture(autouse=True)
def _logging_as_it_was() -> Iterator[None]:
    """A test that runs ``partida …`` in-process sets up the bot's logging on a stream pytest
    closes after it: later tests would log into a closed stream. Put the handlers back."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)


@pytest.fixture(autouse=True)
def _test_game_played(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test parametrized with a test game's name (``generic_games()``: Pig, Nim) has that game
    registered, with its texts, for its whole run (fixtures included) and taken out after it."""
    params = getattr(getattr(request.node, "callspec", None), "params", {})
    kept = kept_games()
    names = [v for v in params.values() if isinstance(v, str) and v in kept]
    with ExitStack() as stack:
        for name in names:
            stack.enter_context(playing(name))
        yield


@pytest.fixture(autouse=True)
def _seeded_deals(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every game a test opens through the service (``/game new``, a rematch) is dealt from a
    sequence of seeds of that test's own, drawn from its name, where the bot draws
    ``secrets.randbits``: a claim about a whole game holds on the same games in every run, on
    every machine. (Unseeded, a clicks-only ZvV game once made 5 moves by menus where the test
    asked for more than 5, on CI only.) ``PARTIDA_TEST_DEALS=N`` deals every test another
    sequence, to look for claims that hold for some deals only; a test that describes one
    deal patches ``bot.service.lobby.secrets.randbits`` itself. A bot in a child process
    deals at random."""
    deals = random.Random(f"{request.node.nodeid}:{os.environ.get('PARTIDA_TEST_DEALS', '')}")
    monkeypatch.setattr("bot.service.lobby.secrets.randbits", deals.getrandbits)


@pytest.fixture
def clock() -> Clock:
    return Clock()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A test marked ``any_database`` proves what the database cannot change (a rule played
    through the service, who may do what, what the table shows): it runs on SQLite only. The
    tests of what the database does (storage, queries, migrations, crashes, two processes)
    run on both; so does every test not marked (docs/testing.md, "Both databases")."""
    either = [
        item
        for item in items
        if item.get_closest_marker("any_database")
        and getattr(getattr(item, "callspec", None), "params", {}).get("database_url")
        == "postgresql"
    ]
    if either:
        config.hook.pytest_deselected(items=either)
        dropped = set(either)
        items[:] = [item for item in items if item not in dropped]


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database: a SQLite file, or a fresh PostgreSQL database (skipped without
    ``PARTIDA_TEST_PG_URL``). Every test that uses it (or ``service``) runs on both, unless
    marked ``any_database``."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'partida.db'}"
        return
    url = pg.create_database()
    try:
        yield url
    finally:
        pg.drop_database(url)


@pytest.fixture
def tiny() -> Iterator[Tiny]:
    """The tiny test game (tests/support/tiny.py), registered for this test only."""
    with registered(TINY, TEXTS) as game:
        yield game


@pytest.fixture(scope="session")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file at the newest revision, made once per worker; tests get copies
    (tests/support/migrated.py)."""
    return migrated_template(tmp_path_factory.mktemp("migrated"))


@pytest.fixture(scope="session")
def migrated_pg() -> Iterator[str]:
    """A PostgreSQL database at the newest revision, made once per worker, that the ``service``
    fixture's PostgreSQL databases are copies of."""
    url = pg.migrated_template()
    yield url
    pg.drop_database(url)


@pytest.fixture
async def service(
    request: pytest.FixtureRequest, database_url: str, clock: Clock, tiny: Tiny, migrated: Path
) -> AsyncIterator[Service]:
    # The database starts at the newest revision, as a copy (tests/support/migrated.py);
    # Service.open still upgrades it (finding it at head) and probes it, as at every start.
    path = make_url(database_url).database
    if database_url.startswith("sqlite") and path and not Path(path).exists():
        copy_migrated(migrated, Path(path))
    elif database_url.startswith("postgresql"):
        pg.refill(database_url, request.getfixturevalue("migrated_pg"))
    svc = await Service.open(database_url, clock=clock, render=False)
    yield svc
    await svc.close()


@pytest.fixture
async def console(tmp_path: Path, migrated: Path) -> AsyncIterator[tuple[Console, io.StringIO]]:
    """The console on a fresh SQLite file, and what it prints."""
    clock = ConsoleClock()
    service = await Service.open(
        copy_migrated(migrated, tmp_path / "c.db"), clock=clock, render=False, computer_delay=0.0
    )
    out = io.StringIO()
    try:
        yield Console(service, clock, tmp_path / "img", out), out
    finally:
        await service.close()


ALICE = Actor(1, "Alice")
BOB = Actor(2, "Bob")
CAROL = Actor(3, "Carol", locale="es-ES")
MOD = Actor(9, "Mod", can_manage=True)
HERE = Place(100, 10)
