"""The bot's Prometheus metrics (``prometheus-client``), served on ``/metrics`` by
``bot.discord.health`` when ``HEALTH_PORT`` is set (docs/operations.md, "Health and metrics").

Counted where the work happens: commands in the service's loop (one place for every command,
click and deadline), pictures around the render worker's calls. What is a state rather than a
count (games open, posts waiting, the gateway) is read when Prometheus asks, by the endpoint.
Every label has a bounded set of values (Prometheus keeps one series per value): a command's
name from the code, never a user's text.
"""

from __future__ import annotations

import functools
import re
import time
from collections.abc import Callable, Coroutine
from typing import Any, ParamSpec, Protocol, TypeVar

from prometheus_client import Counter, Gauge, Histogram

from bot.store import outage
from rules.core import game_names

COMMANDS = Counter(
    "partida_commands",
    "Commands, clicks and deadlines run by the service, by command and outcome "
    "(ok, refused, busy, unavailable, error)",
    ["command", "outcome"],
)
REFUSALS = Counter(
    "partida_refusals",
    "Commands refused, by the catalogue key of what the user was told",
    ["key"],
)
ANSWER_SECONDS = Histogram(
    "partida_answer_seconds",
    "Seconds from a command reaching the service to its reply being ready (pictures drawn), "
    "without Discord's own time",
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
RENDER_QUEUE = Gauge(
    "partida_render_queue",
    "Pictures and replays asked of the render worker and not drawn yet",
)
GAMES_OPEN = Gauge(
    "partida_games_open",
    "Games open (lobby or being played), by game and status",
    ["game", "status"],
)
POSTS_WAITING = Gauge("partida_posts_waiting", "Table posts and edits waiting to be delivered")
POSTS_OLDEST = Gauge(
    "partida_posts_oldest_waiting_seconds",
    "Age of the oldest post waiting to be delivered (0: none waiting)",
)
POSTS_FAILED = Gauge("partida_posts_failed", "Posts that could not be delivered")
TABLES_PAUSED = Gauge(
    "partida_tables_paused",
    "Channels where the bot may not post, whose tables wait for a permission",
)
GATEWAY_UP = Gauge("partida_gateway_up", "1 while every shard's gateway connection is open")
DATABASE_UP = Gauge("partida_database_up", "1 while the database answers")

_COMMAND = re.compile(r"[a-z_]{1,24}")


def command_label(command: str) -> str:
    """``command`` as the service names it (``join``, ``zvv.move``, ``lobby.start``,
    ``deadline.default``), or ``other`` for anything not from that bounded set."""
    head, dot, tail = command.partition(".")
    if not _COMMAND.fullmatch(head) or (dot and not _COMMAND.fullmatch(tail)):
        return "other"
    if dot and head not in ("lobby", "deadline") and head not in game_names():
        return "other"
    return command


def counted(command: str, outcome: str, started: float, key: str | None = None) -> None:
    """One command done: ``started`` is its ``time.perf_counter()`` at the start."""
    COMMANDS.labels(command_label(command), outcome).inc()
    if key is not None:
        REFUSALS.labels(key if _KEY.fullmatch(key) else "other").inc()
    ANSWER_SECONDS.observe(time.perf_counter() - started)


_KEY = re.compile(r"[a-z_]+(\.[a-z_0-9]+){1,4}")


class _Answer(Protocol):
    ok: bool


P = ParamSpec("P")
R = TypeVar("R", bound=_Answer)


def read(
    command: str,
) -> Callable[[Callable[P, Coroutine[Any, Any, R]]], Callable[P, Coroutine[Any, Any, R]]]:
    """Count a read-only command (those outside the service's loop): ``ok`` or ``refused`` as
    its reply says, ``unavailable`` or ``error`` as it fails."""

    def wrap(method: Callable[P, Coroutine[Any, Any, R]]) -> Callable[P, Coroutine[Any, Any, R]]:
        @functools.wraps(method)
        async def counted_method(*args: P.args, **kwargs: P.kwargs) -> R:
            started = time.perf_counter()
            try:
                reply = await method(*args, **kwargs)
            except Exception as error:
                counted(command, "unavailable" if outage.lost(error) else "error", started)
                raise
            counted(command, "ok" if reply.ok else "refused", started)
            return reply

        return counted_method

    return wrap
