"""Growth: does a command cost the same on a database that has grown?

Run: ``python -m bench growth [--games N] [--quick] [--pg URL] [--samples N]``.

The database grows in steps (an empty one, a tenth, the whole) to ``--games`` finished games
(default 100,000) spread over servers of 40 users, 80 % of them played in threads, plus one
channel with 40,000 finished games and one server with 100,000 rated players at one game. The
games are real: a few of each title are played through the service once (a person on autopilot
against computer players, the clock jumping to each deadline), and their rows (the game, its
seats, its log) are copied with new ids, players, channels and times, with the rating changes
a rated game records (games with computer players do not count, so these are made up), in bulk
(``executemany`` on SQLite, ``COPY`` on PostgreSQL), not through the service.

At each step every command is timed through the service (``render=False``: the database's
share, not the pictures'), each the median of ``--samples`` runs, in the big channel and the
big server where it reads one: ``/game mine`` (of a player with thousands of seats there),
``/game history`` first page and last page (its ▶ button's: the key of the page before), the
history page 1000 asked for by number (the command's deepest: it steps over index entries),
rematch's lookup of the channel's last game, the open game of the channel's threads (the
lookup every command and autocomplete keystroke there makes, and ``/game status``),
``/game leaderboard`` first page and last page (its ▶ button's), ``/game stats`` (of a player
in the middle of the 100,000), a move, a new game. Each is printed with its ratio to the empty
database's; the target is at most 1.5× at the full size.

Then the query plan of every list (``EXPLAIN QUERY PLAN`` / ``EXPLAIN (ANALYZE, BUFFERS)``) is
printed and checked:
no scan of a whole table or index, no sort but of a page's own rows (a merge of the two
history branches, each a page long). And the bytes each finished game takes (the growth of the
database over the games added, indexes included).

``--quick``: 2,000 games, 2,000 in the channel, 5,000 players, 5 samples (a smoke run).
``--pg URL``: on PostgreSQL (a fresh database made on that server and dropped after), the
server as it is: start a durable one with
``PARTIDA_PG_DURABLE=1 tests/reliability/start_postgres.sh /tmp/partida-pg-durable``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import shutil
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine

from bench import pg
from bot.service import Actor, Place, Reply, Service, history, rematch, standings
from bot.service.fairuse import BUDGETS, Budget, FairUse, Limit
from bot.store import ratings as rated
from bot.store import repository as repo

TITLES = (("badbones", 3), ("farkle", 2), ("fuse", 2), ("zvv", 2))
TEMPLATES_A_TITLE = 3
USERS_A_SERVER = 40
GAMES_A_SERVER = 100
CHANNELS_A_SERVER = 4
THREADED = 0.8
TARGET = 1.5
# The tables a finished game keeps rows in, besides ``games`` (a new one belongs here).
GAME_TABLES = ("seats", "actions", "rated_games")

EDGE_GAMES = 12  # the big channel's newest and oldest games (the empty size's)
BIG_GUILD = 9_000_000
BIG_CHANNEL = 9_000_001
PROBE = Actor(7_000_000, "Probe")  # a player of the big server, seated in its games
START = 1_700_000_000.0


@dataclass(frozen=True)
class Size:
    name: str
    games: int  # finished games over the servers of 40
    channel: int  # finished games in the big channel
    players: int  # rated players in the big server


@dataclass
class Template:
    """A finished game's rows as the database holds them (JSON as text), to copy."""

    columns: dict[str, list[str]]
    rows: dict[str, list[tuple[Any, ...]]]
    seats: int
    began: float
    lasted: float


@dataclass
class Result:
    times: dict[str, list[float]] = field(default_factory=dict)  # command → ms at each size
    cpu: dict[str, list[float]] = field(default_factory=dict)  # the same, CPU time
    plans: dict[str, list[str]] = field(default_factory=dict)
    bad_plans: list[str] = field(default_factory=list)
    bytes_a_game: float = 0.0
    grow_seconds: float = 0.0


# ------------------------------------------------------------------ the raw stores


class Raw:
    """The database through its own driver, for the bulk copies (no SQLAlchemy, no service)."""

    async def rows(
        self, table: str, game_ids: list[int]
    ) -> tuple[list[str], list[tuple[Any, ...]]]:
        raise NotImplementedError

    async def insert(self, table: str, columns: list[str], rows: list[tuple[Any, ...]]) -> None:
        raise NotImplementedError

    async def finish(self) -> None:
        """After a step's copies: what the server needs to plan well (none for SQLite)."""

    async def size(self) -> int:
        raise NotImplementedError

    async def next_id(self) -> int:
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError


class RawSQLite(Raw):
    def __init__(self, path: Path) -> None:
        self.connection = sqlite3.connect(path)
        self.connection.execute("PRAGMA synchronous=OFF")  # growing is set-up, not measured

    async def rows(
        self, table: str, game_ids: list[int]
    ) -> tuple[list[str], list[tuple[Any, ...]]]:
        marks = ",".join("?" * len(game_ids))
        key = "id" if table == "games" else "game_id"
        cursor = self.connection.execute(
            f"SELECT * FROM {table} WHERE {key} IN ({marks})", game_ids
        )
        return [d[0] for d in cursor.description], cursor.fetchall()

    async def insert(self, table: str, columns: list[str], rows: list[tuple[Any, ...]]) -> None:
        marks = ",".join("?" * len(columns))
        self.connection.executemany(
            f"INSERT INTO {table} ({','.join(columns)}) VALUES ({marks})", rows
        )
        self.connection.commit()

    async def size(self) -> int:
        self.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        pages = self.connection.execute("PRAGMA page_count").fetchone()[0]
        free = self.connection.execute("PRAGMA freelist_count").fetchone()[0]
        page = self.connection.execute("PRAGMA page_size").fetchone()[0]
        return int((pages - free) * page)

    async def next_id(self) -> int:
        return int(
            self.connection.execute("SELECT coalesce(max(id), 0) + 1 FROM games").fetchone()[0]
        )

    async def close(self) -> None:
        self.connection.close()


class RawPostgres(Raw):
    def __init__(self, connection: Any) -> None:
        self.connection = connection

    @classmethod
    async def open(cls, url: str) -> RawPostgres:
        import asyncpg

        return cls(await asyncpg.connect(pg.dsn(url)))

    async def rows(
        self, table: str, game_ids: list[int]
    ) -> tuple[list[str], list[tuple[Any, ...]]]:
        key = "id" if table == "games" else "game_id"
        found = await self.connection.fetch(
            f"SELECT * FROM {table} WHERE {key} = ANY($1::bigint[])", game_ids
        )
        columns = list(found[0].keys()) if found else []
        return columns, [tuple(r.values()) for r in found]

    async def insert(self, table: str, columns: list[str], rows: list[tuple[Any, ...]]) -> None:
        await self.connection.copy_records_to_table(table, records=rows, columns=columns)

    async def finish(self) -> None:
        await self.connection.execute(
            "SELECT setval(pg_get_serial_sequence('games', 'id'), (SELECT max(id) FROM games))"
        )
        # What autovacuum does on a live server after a large change: statistics, and the
        # visibility map that lets an index-only scan skip the table.
        await self.connection.execute("VACUUM ANALYZE")
        # The copies' pages written out now: on a durable server a checkpoint flushing the
        # growth's gigabytes would otherwise run while the commands are timed.
        await self.connection.execute("CHECKPOINT")

    async def size(self) -> int:
        tables = ("games", *GAME_TABLES)
        total = 0
        for table in tables:
            total += await self.connection.fetchval("SELECT pg_total_relation_size($1)", table)
        return int(total)

    async def next_id(self) -> int:
        return int(await self.connection.fetchval("SELECT coalesce(max(id), 0) + 1 FROM games"))

    async def close(self) -> None:
        await self.connection.close()


# ------------------------------------------------------------------ real games, copied


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


async def play_templates(
    service: Service, clock: Clock, raw: Raw, titles: tuple[tuple[str, int], ...], each: int
) -> list[Template]:
    """A few finished games of each title, played through the service: a person on autopilot
    (after one missed deadline) and computer players; the clock jumps to each deadline."""
    host = Actor(1, "Host")
    played: list[tuple[int, int]] = []
    channel = 100
    for title, seats in titles:
        for _ in range(each):
            channel += 1
            place = Place(channel, 1)
            assert (await service.new_game(host, place, title)).ok
            for _ in range(seats - 1):
                assert (await service.add_bot(host, place, "easy")).ok
            assert (await service.settings(host, place, misses=1)).ok
            assert (await service.start(host, place)).ok
            for _ in range(20_000):
                due = await service.next_deadline()
                if due is None:
                    break
                clock.now = max(clock.now + 0.001, due)
                await service.run_deadlines()
            async with service.sessions() as session:
                (row,) = await repo.finished_games(session, channel, 1)
            played.append((row.id, seats))
    templates = []
    for game_id, seats in played:
        columns: dict[str, list[str]] = {}
        rows: dict[str, list[tuple[Any, ...]]] = {}
        for table in ("games", *GAME_TABLES):
            columns[table], rows[table] = await raw.rows(table, [game_id])
        game = dict(zip(columns["games"], rows["games"][0], strict=True))
        began, ended = float(game["created_at"]), float(game["updated_at"])
        templates.append(Template(columns, rows, seats, began, ended - began))
    return templates


class Grower:
    """Copies of the templates, in bulk, with new ids, players, channels and times."""

    def __init__(self, raw: Raw, templates: list[Template], first_id: int) -> None:
        self.raw = raw
        self.templates = templates
        self.next_id = first_id
        self.servers = 0  # servers of 40 made so far
        self.server_total = 0  # games over them
        self.server_games = 0  # games in the current one
        self.channel_games = 0  # in the big channel
        self.players = 0  # rated in the big server
        self.at = START + 10 * 86400.0  # each copy ends a minute after the one before
        self.draw = random.Random(1)
        self.pending: dict[str, list[tuple[Any, ...]]] = {t: [] for t in ("games", *GAME_TABLES)}

    def _copy(
        self,
        channel: int,
        parent: int | None,
        guild: int,
        users: list[int],
        ended: float | None = None,
    ) -> None:
        """One copy, ended a minute after the one before (or at ``ended``)."""
        template = self.templates[self.next_id % len(self.templates)]
        game_id = self.next_id
        self.next_id += 1
        if ended is None:
            self.at += 60.0
            ended = self.at
        shift = ended - template.lasted - template.began
        seated = self.draw.sample(users, template.seats)
        for table, rows in template.rows.items():
            columns = template.columns[table]
            if table == "rated_games":
                continue  # (below)
            for row in rows:
                values = dict(zip(columns, row, strict=True))
                if table == "games":
                    values.update(
                        id=game_id,
                        channel_id=channel,
                        open_channel_id=None,
                        parent_channel_id=parent,
                        guild_id=guild,
                        host_id=seated[0],
                        created_at=values["created_at"] + shift,
                        updated_at=values["updated_at"] + shift,
                        phase_started_at=values["phase_started_at"] + shift,
                    )
                else:
                    values["game_id"] = game_id
                if table == "seats":
                    user = seated[values["seat"] % len(seated)]
                    values.update(user_id=user, display_name=f"P{user}", computer=None)
                    values.update(autopilot=_false(values["autopilot"]))
                elif table == "actions":
                    values["at"] = values["at"] + shift
                self.pending[table].append(tuple(values[c] for c in columns))
        # How each seat's rating moved, as a rated game records it (the templates, played by
        # computer players, did not count).
        changes = {
            str(seat): {
                "player": f"u:{user}",
                "before": [25.0, 8.3],
                "after": [25.0 + self.draw.uniform(-3, 3), 7.9],
            }
            for seat, user in enumerate(seated)
        }
        self.pending["rated_games"].append((game_id, json.dumps(changes), ended))

    async def _flush(self) -> None:
        for table in ("games", *GAME_TABLES):
            rows = self.pending[table]
            if rows:
                columns = (
                    RATED_COLUMNS if table == "rated_games" else self.templates[0].columns[table]
                )
                await self.raw.insert(table, columns, rows)
            self.pending[table] = []

    async def grow_servers(self, games: int) -> None:
        """Finished games over servers of 40 users, 4 channels each, 80 % in threads."""
        for _ in range(games - self.server_total):
            self.server_total += 1
            if self.servers == 0 or self.server_games >= GAMES_A_SERVER:
                self.servers += 1
                self.server_games = 0
                await self._rate_server(self.servers)
            self.server_games += 1
            server = self.servers
            guild = 10_000 + server
            users = [1_000_000 + server * USERS_A_SERVER + k for k in range(USERS_A_SERVER)]
            channel = 2_000_000 + server * CHANNELS_A_SERVER + self.draw.randrange(4)
            if self.draw.random() < THREADED:
                self._copy(50_000_000 + self.next_id, channel, guild, users)
            else:
                self._copy(channel, None, guild, users)
            if len(self.pending["games"]) >= 2000:
                await self._flush()
        await self._flush()

    async def grow_channel(self, games: int) -> None:
        """Finished games in the big channel, 80 % in threads, among 40 players (the probe
        player one of them: thousands of seats ever taken)."""
        users = [PROBE.user_id] + [8_000_000 + k for k in range(USERS_A_SERVER - 1)]
        if self.channel_games == 0:
            # The channel's newest and oldest games, the same at every size (the history's
            # first and last pages show the same games: the sizes compare like with like);
            # the games grown later fall between them.
            for n in range(EDGE_GAMES):
                newest = n % 2 == 0
                ended = START + (1e8 if newest else 86400.0) + n * 60.0
                thread = 50_000_000 + self.next_id if n % 5 else None
                self._copy(
                    thread or BIG_CHANNEL, BIG_CHANNEL if thread else None, BIG_GUILD, users, ended
                )
            self.channel_games = EDGE_GAMES
        for _ in range(games - self.channel_games):
            if self.draw.random() < THREADED:
                self._copy(50_000_000 + self.next_id, BIG_CHANNEL, BIG_GUILD, users)
            else:
                self._copy(BIG_CHANNEL, None, BIG_GUILD, users)
            if len(self.pending["games"]) >= 2000:
                await self._flush()
        self.channel_games = max(self.channel_games, games)
        await self._flush()

    async def grow_players(self, players: int) -> None:
        """Rated players at Dragon Farkle in the big server (the probe player in the middle)."""
        rows = []
        for n in range(self.players, players):
            mu = self.draw.gauss(25.0, 4.0)
            sigma = self.draw.uniform(1.0, 8.3)
            rows.append(
                (BIG_GUILD, "farkle", f"u:{9_100_000 + n}", f"R{n}", mu, sigma, 3, 1, None, self.at)
            )
        if self.players == 0:  # the probe player, at an ordinary rating
            rows.append(
                (
                    BIG_GUILD,
                    "farkle",
                    f"u:{PROBE.user_id}",
                    PROBE.display_name,
                    25.0,
                    5.0,
                    9,
                    4,
                    None,
                    self.at,
                )
            )
        self.players = max(self.players, players)
        await self.raw.insert("ratings", list(RATING_COLUMNS), rows)

    async def _rate_server(self, server: int) -> None:
        rows = []
        for k in range(USERS_A_SERVER):
            user = 1_000_000 + server * USERS_A_SERVER + k
            for title, _ in TITLES:
                mu, sigma = self.draw.gauss(25.0, 3.0), self.draw.uniform(2.0, 8.0)
                rows.append(
                    (
                        10_000 + server,
                        title,
                        f"u:{user}",
                        f"P{user}",
                        mu,
                        sigma,
                        5,
                        2,
                        None,
                        self.at,
                    )
                )
        await self.raw.insert("ratings", list(RATING_COLUMNS), rows)


RATED_COLUMNS = ["game_id", "changes", "rated_at"]
RATING_COLUMNS = (
    "guild_id", "kind", "player", "name", "mu", "sigma", "games", "wins", "best_score", "updated_at"
)  # fmt: skip


def _false(value: Any) -> Any:
    """False as the column already holds booleans (0 on SQLite, False on PostgreSQL)."""
    return type(value)(0) if isinstance(value, int) else False


# ------------------------------------------------------------------ the commands, timed


async def _paired(
    calls: tuple[Callable[[], Awaitable[Any]], Callable[[], Awaitable[Any]]], samples: int
) -> list[tuple[float, float]]:
    """The median wall time and CPU time, in ms, of a call on the empty database and on the
    grown one, their runs taken in turns (so that other work on the machine weighs on both
    alike). The CPU time (this process's threads, SQLite's included) is what the database's
    growth would add to, and is not swayed by other work nor by the disk's syncs."""
    for call in calls * 2:  # warm caches and statements
        reply = await call()
        if isinstance(reply, Reply) and not reply.ok:
            raise RuntimeError(f"a timed command was refused: {reply.private}")
    wall: tuple[list[float], list[float]] = ([], [])
    cpu: tuple[list[float], list[float]] = ([], [])
    for n in range(samples):
        for which in (0, 1) if n % 2 else (1, 0):
            started, used = time.perf_counter(), time.process_time()
            await calls[which]()
            wall[which].append((time.perf_counter() - started) * 1000)
            cpu[which].append((time.process_time() - used) * 1000)
    return [(statistics.median(wall[w]), statistics.median(cpu[w])) for w in (0, 1)]


async def commands(
    service: Service, moves: list[tuple[Place, str, str, dict[str, Any]]]
) -> dict[str, Callable[[], Awaitable[Any]]]:
    """Each measured command, as a call (the pages' keys looked up first, untimed)."""
    # The bench asks for pages far faster than fair use lets a person (bot.service.fairuse):
    # without a budget, or what is timed is the refusal.
    unlimited = Budget(user=Limit(1 << 30, 1.0), server=Limit(1 << 30, 1.0))
    service.fair_use = FairUse(service.clock, dict.fromkeys(BUDGETS, unlimited))
    here = Place(BIG_CHANNEL, BIG_GUILD)
    async with service.sessions() as session:
        total = await repo.count_finished_games(session, BIG_CHANNEL)
        last = max(1, -(-total // history.PAGE))
        before_last = await repo.finished_games(
            session, BIG_CHANNEL, 1, offset=(last - 1) * history.PAGE - 1
        )
        players = await rated.count_listed(session, BIG_GUILD, "farkle")
        board_last = max(1, -(-players // standings.PAGE))
        edge = await rated.leaderboard(
            session, BIG_GUILD, "farkle", 1, offset=(board_last - 1) * standings.PAGE - 1
        )
    after = before_last[0].id if before_last else None
    edge_player = edge[0].player if edge else None
    fresh = iter(range(60_000_000, 70_000_000))

    async def rematch_lookup() -> Any:
        async with service.sessions() as session:
            return await rematch.source(session, here, None)

    async def open_lookup() -> Any:
        async with service.sessions() as session:
            return await repo.open_games_in_threads(session, BIG_CHANNEL)

    async def move() -> Any:
        place, game, command, args = moves.pop()  # a table waiting for its first move
        return await service.act(Actor(1, "P0"), place, game, command, args)

    async def new_game() -> Any:
        place = Place(next(fresh), BIG_GUILD)
        reply = await service.new_game(PROBE, place, "farkle")
        await service.cancel(PROBE, place)
        return reply

    return {
        "/game mine": lambda: service.mine(PROBE, here),
        "history, first page": lambda: service.history(PROBE, here),
        "history, last page (▶)": lambda: service.history(PROBE, here, last, after=after),
        "history page:1000 (by number)": lambda: service.history(PROBE, here, 1000),
        "rematch's last game": rematch_lookup,
        "open game in threads": open_lookup,
        "/game status (channel of threads)": lambda: service.status(PROBE, here),
        "leaderboard, first page": lambda: service.leaderboard(PROBE, here, "farkle"),
        "leaderboard, last page (▶)": lambda: service.leaderboard(
            PROBE, here, "farkle", board_last, after=edge_player
        ),
        "/game stats": lambda: service.stats(PROBE, here),
        "a move": move,
        "a new game (and cancel)": new_game,
    }


# The lists whose plans are checked: what each runs.
LISTS = (
    "/game mine",
    "history, first page",
    "history, last page (▶)",
    "history page:1000 (by number)",
    "rematch's last game",
    "open game in threads",
    "leaderboard, first page",
    "leaderboard, last page (▶)",
    "/game stats",
)
_SCAN = re.compile(
    r"^SCAN (games|seats|actions|ratings|rated_games)\b|Seq Scan on (games|seats|actions|ratings|rated_games)\b"
)


async def plans(
    service: Service, calls: dict[str, Callable[[], Awaitable[Any]]], result: Result
) -> None:
    """Every statement each list runs, explained by the database, printed and checked."""
    engine: AsyncEngine = service.engine
    seen: list[tuple[str, Any]] = []

    def note(
        _conn: Any, _cursor: Any, statement: str, parameters: Any, _context: Any, _many: bool
    ) -> None:
        if statement.lstrip().upper().startswith("SELECT"):
            seen.append((statement, parameters))

    sqlite = engine.dialect.name == "sqlite"
    for name in LISTS:
        seen.clear()
        event.listen(engine.sync_engine, "before_cursor_execute", note)
        try:
            await calls[name]()
        finally:
            event.remove(engine.sync_engine, "before_cursor_execute", note)
        lines: list[str] = []
        for statement, parameters in list(seen):
            if "FROM players" in statement:
                continue  # the reader's chosen language: a primary key
            async with engine.connect() as connection:
                # (PostgreSQL's with what each step took and read: a SELECT, run once more.)
                prefix = "EXPLAIN QUERY PLAN " if sqlite else "EXPLAIN (ANALYZE, BUFFERS) "
                found = await connection.exec_driver_sql(prefix + statement, parameters)
                plan = [_plan_line(tuple(row), sqlite) for row in found]
            lines.append(" ".join(statement.split())[:160])
            lines += ["    " + p for p in plan]
            result.bad_plans += [f"{name}: {p.strip()}" for p in _bad(plan, sqlite)]
        result.plans[name] = lines


def _plan_line(row: tuple[Any, ...], sqlite: bool) -> str:
    """SQLite's (id, parent, -, detail) as "id parent detail"; PostgreSQL's line as it is."""
    return f"{row[0]} {row[1]} {row[3]}" if sqlite else str(row[0])


# What a sort may be fed by: rows found by a primary key (a page's games by id, their seats, a
# player's ratings row) or one player's ratings (one a game title); anything else read from
# ``games`` or ``ratings`` is a list that grows, and must arrive in order or cut by a LIMIT.
_BOUNDED = re.compile(r"INTEGER PRIMARY KEY|games_pkey|ix_ratings_guild_player")
_LISTED = re.compile(r"\b(SEARCH|Scan.* on) (games|ratings)\b|using \w+ on (games|ratings)\b")


# A sort PostgreSQL expects to be of this many rows at most is of a page's rows (the open games
# of a channel's threads, say), not of a list.
FEW = 100


def _bad(plan: list[str], sqlite: bool) -> list[str]:
    """A scan of a whole table or index, or a sort of rows read from a list (``games``,
    ``ratings``) that no LIMIT cut first (a merge of two branches each cut to a page is fine)."""
    bad = []
    if sqlite:
        parsed = [line.split(" ", 2) for line in plan]
        for _node, parent, detail in parsed:
            if _SCAN.search(detail):
                bad.append(detail)
            if "TEMP B-TREE" in detail:
                fed = [d for _, p, d in parsed if p == parent and "SEARCH" in d]
                if any(_LISTED.search(d) and not _BOUNDED.search(d) for d in fed):
                    bad.append(detail)
        return bad
    for n, line in enumerate(plan):
        bare = line.strip().lstrip("-> ").strip()
        if _SCAN.search(bare):
            bad.append(bare)
        if bare.startswith(("Sort ", "Incremental Sort ")):
            depth = len(line) - len(line.lstrip())
            below = []
            for deeper in plan[n + 1 :]:
                if len(deeper) - len(deeper.lstrip()) <= depth and deeper.strip():
                    break
                below.append(deeper)
            listed = any(_LISTED.search(d) and not _BOUNDED.search(d) for d in below)
            rows = re.search(r"rows=(\d+)", bare)
            few = rows is not None and int(rows.group(1)) <= FEW  # the planner's estimate
            if listed and not few and not any("Limit" in d for d in below):
                bad.append(bare)
    return bad


# ------------------------------------------------------------------ the run


async def _moves(service: Service, count: int) -> list[tuple[Place, str, str, dict[str, Any]]]:
    """Active Bad Bones tables, each waiting for a first move that does not end the phase."""
    from bench.bench_service import _first_action, _populate
    from rules.core import get_game

    game = get_game("badbones")
    await _populate(service, game, 2, count, first_channel=80_000_000)
    state = game.new_game(2, game.check_options({}, 2), 1)
    command, args = _first_action(game, state, 0)
    return [(Place(80_000_000 + i, 1), "badbones", command, args) for i in range(count)]


async def run(
    sizes: list[Size],
    samples: int,
    url: str | None = None,
    out: Callable[[str], None] = print,
    titles: tuple[tuple[str, int], ...] = TITLES,
    each: int = TEMPLATES_A_TITLE,
) -> Result:
    """Grow a database through ``sizes`` and time the commands at each against a copy of it
    at the first size (the empty one), in turns; print as it goes. ``titles`` and ``each``:
    the real games played to be copied."""
    result = Result()
    folder = Path(tempfile.mkdtemp(prefix="partida-growth-"))
    made: list[str] = []
    base_url = None
    if url is None:
        url = f"sqlite+aiosqlite:///{folder}/growth.db"
    else:
        url, _ = await pg.database(url)
        made.append(url)
    path = None if made else folder / "growth.db"
    clock = Clock()
    service = await Service.open(url, clock=clock, render=False, computer_delay=1.0)
    opened = [service]
    raw: Raw = RawSQLite(path) if path is not None else await RawPostgres.open(url)
    try:
        started = time.perf_counter()
        templates = await play_templates(service, clock, raw, titles, each)
        out(f"played {len(templates)} real games to copy in {time.perf_counter() - started:.1f} s")
        moves = await _moves(service, 3 * samples + 10)
        await _open_probe_games(service, clock)
        grower = Grower(raw, templates, await raw.next_id())
        await service.close()
        sized: list[tuple[Size, int, int]] = []
        base: Service | None = None
        base_moves = list(moves)
        for size in sizes:
            started = time.perf_counter()
            grower.next_id = max(grower.next_id, await raw.next_id())  # the service's games
            before, games_before = await raw.size(), grower.next_id
            await grower.grow_servers(size.games)
            await grower.grow_channel(size.channel)
            await raw.finish()
            after, games_after = await raw.size(), grower.next_id
            sized.append((size, after - before, games_after - games_before))
            await grower.grow_players(size.players)
            await raw.finish()
            result.grow_seconds += time.perf_counter() - started
            os.sync()  # the copies on disk now, not while the commands are timed
            out(f"{size.name}: grown in {time.perf_counter() - started:.1f} s")
            if base_url is None:  # the empty database, kept as it is to time against
                raw, base_url = await _copy(raw, url, folder)
                grower.raw = raw
                if made:
                    made.append(base_url)
                base = await Service.open(base_url, clock=clock, render=False, migrate=False)
                opened.append(base)
                continue  # (the grown database is timed from the next size on)
            assert base is not None
            service = await Service.open(url, clock=clock, render=False, migrate=False)
            opened.append(service)
            calls = await commands(service, moves)
            empty = await commands(base, base_moves)
            for name, call in calls.items():
                (base_wall, base_cpu), (wall, cpu) = await _paired((empty[name], call), samples)
                for figures, empty_value, value in (
                    (result.times, base_wall, wall),
                    (result.cpu, base_cpu, cpu),
                ):
                    # [the empty database, as timed beside the last size; each size]
                    times = figures.setdefault(name, [0.0])
                    times[0] = empty_value
                    times.append(value)
            if size is sizes[-1]:
                await plans(service, calls, result)
            await service.close()
        grown = [(b, g) for _, b, g in sized if g >= 100]  # (a few games: pages, not games)
        if grown:
            result.bytes_a_game = sum(b for b, _ in grown) / sum(g for _, g in grown)
    finally:
        await raw.close()
        for opened_service in opened:
            await opened_service.close()
        for database in made:
            await _drop_pg(database)
        shutil.rmtree(folder, ignore_errors=True)  # (SQLite's: gigabytes at the full size)
    _report(sizes, result, out)
    return result


async def _copy(raw: Raw, url: str, folder: Path) -> tuple[Raw, str]:
    """A copy of the database as it is: SQLite's backup, or PostgreSQL's ``CREATE DATABASE …
    TEMPLATE`` (which wants no one connected to the original: ``raw`` is opened again)."""
    if isinstance(raw, RawSQLite):
        copy = folder / "empty.db"
        target = sqlite3.connect(copy)
        raw.connection.backup(target)
        target.close()
        return raw, f"sqlite+aiosqlite:///{copy}"
    await raw.close()
    import asyncpg

    name = f"{make_url(url).database}_empty"
    server = make_url(url).set(database="postgres").render_as_string(hide_password=False)
    connection = await asyncpg.connect(pg.dsn(server))
    try:
        await connection.execute(f'CREATE DATABASE "{name}" TEMPLATE "{make_url(url).database}"')
    finally:
        await connection.close()
    copied = make_url(url).set(database=name).render_as_string(hide_password=False)
    return await RawPostgres.open(url), copied


async def _open_probe_games(service: Service, clock: Clock) -> None:
    """The probe player's open games: one in a thread of the big channel (the channel's open
    game, found through its threads), one in another channel of the big server."""
    for channel, thread in ((BIG_CHANNEL, 90_000_001), (BIG_CHANNEL + 1, None)):
        place = Place(channel, BIG_GUILD)
        assert (await service.new_game(PROBE, place, "farkle")).ok
        assert (await service.add_bot(PROBE, place, "easy")).ok
        if thread is not None:
            async with service.sessions() as session:
                row = await repo.open_game(session, channel)
            assert row is not None
            await service.moved(row.id, channel, thread)


async def _drop_pg(url: str) -> None:
    server = make_url(url).set(database="postgres").render_as_string(hide_password=False)
    await pg.drop(pg.dsn(server), url)


def _report(sizes: list[Size], result: Result, out: Callable[[str], None]) -> None:
    out("")
    out(
        "sizes: "
        + "; ".join(
            f"{s.name}: {s.games:,} games, {s.channel:,} in the channel, {s.players:,} players"
            for s in sizes
        )
    )
    for title, figures in (("wall time", result.times), ("CPU time of the bot", result.cpu)):
        out("")
        out(
            f"{title + ', median':36}"
            + "".join(f"{s.name:>12}" for s in sizes)
            + f"{'ratio':>8}  target ≤ {TARGET}×"
        )
        for name, times in figures.items():
            # (the empty database's figures: timed in turns with the last size's)
            ratio = times[-1] / times[0] if times[0] > 0 else float("inf")
            verdict = "ok" if ratio <= TARGET else "OVER"
            line = "".join(f"{t:>10.2f}ms" for t in times)
            out(f"{name:36}{line}{ratio:>7.2f}×  {verdict}")
    out("")
    out(f"bytes per finished game (indexes included): {result.bytes_a_game:,.0f}")
    out(f"growing took {result.grow_seconds:.1f} s")
    out("")
    out("query plans at the full size:")
    for name, lines in result.plans.items():
        out(f"  {name}:")
        for line in lines:
            out(f"    {line}")
    if result.bad_plans:
        out("PLANS THAT SCAN OR SORT A WHOLE CHANNEL OR SERVER:")
        for line in result.bad_plans:
            out(f"  {line}")
    else:
        out("no plan scans a table or sorts more than a page")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench growth")
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--channel", type=int, default=40_000)
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--samples", type=int, default=25)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--pg", metavar="URL", default=os.environ.get("BENCH_PG_URL"))
    args = parser.parse_args(argv or [])
    if args.quick:
        args.games, args.channel, args.players, args.samples = 2_000, 2_000, 5_000, 5
    sizes = [
        Size("empty", 0, EDGE_GAMES, 30),
        Size("tenth", args.games // 10, args.channel // 10, args.players // 10),
        Size("full", args.games, args.channel, args.players),
    ]
    if args.pg:
        url, label = asyncio.run(pg.checked(args.pg))
        print(f"database: PostgreSQL ({label})")
        if url is None:
            return
    else:
        print("database: SQLite")
    asyncio.run(run(sizes, args.samples, args.pg))
