"""Fair use: how often a user, and a server, may ask for what costs the bot the most.

A replay draws a whole game (seconds of a worker's CPU); a board draws a picture; a history
or leaderboard page reads a channel's or a server's games. Each has a budget per user and per
server over a sliding window (:data:`BUDGETS`): a command over either is refused with "try
again in N s" and changes nothing. A replay counts once drawn (a mistyped number costs nothing). On top of that a server draws one replay at a time
(:class:`Replays`): a second request meanwhile, or the same finished game again soon after, is
answered with the replay already being posted or posted. docs/admin.md says what an admin sees.

The clock is the service's (tests pass one they move by hand). Memory stays bounded: a key
whose window has passed is dropped.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

REPLAY = "replay"  # /game replay, and a history entry's Replay button
LOOK = "look"  # /game board, history and leaderboard pages


@dataclass(frozen=True)
class Limit:
    """At most ``uses`` in any ``seconds``."""

    uses: int
    seconds: float


@dataclass(frozen=True)
class Budget:
    user: Limit
    server: Limit


BUDGETS: dict[str, Budget] = {
    # A replay is 1–5 s of drawing: a user a few a minute, a server a dozen.
    REPLAY: Budget(user=Limit(3, 60.0), server=Limit(12, 60.0)),
    # A board or a page costs ~20 ms: plenty for a player checking their board each turn,
    # not for a script.
    LOOK: Budget(user=Limit(10, 20.0), server=Limit(120, 20.0)),
}


class Window:
    """When each key last used something, over a sliding window of ``limit.seconds``."""

    def __init__(self, limit: Limit) -> None:
        self.limit = limit
        self._uses: dict[int, deque[float]] = {}

    def wait(self, key: int, now: float) -> float:
        """Seconds until ``key`` may use it again (0: now)."""
        uses = self._uses.get(key)
        if uses is None:
            return 0.0
        while uses and uses[0] <= now - self.limit.seconds:
            uses.popleft()
        if not uses:
            del self._uses[key]
            return 0.0
        if len(uses) < self.limit.uses:
            return 0.0
        return uses[0] + self.limit.seconds - now

    def use(self, key: int, now: float) -> None:
        self._uses.setdefault(key, deque()).append(now)

    def sweep(self, now: float) -> None:
        """Forget every key whose uses have all passed out of the window."""
        for key in [k for k, uses in self._uses.items() if uses[-1] <= now - self.limit.seconds]:
            del self._uses[key]

    def __len__(self) -> int:
        return len(self._uses)


class FairUse:
    """The budgets of one process (one bot process serves a server's commands)."""

    SWEEP_EVERY = 1000  # checks between two sweeps of forgotten keys

    def __init__(
        self, clock: Callable[[], float], budgets: dict[str, Budget] | None = None
    ) -> None:
        self.clock = clock
        self.budgets = {**BUDGETS, **(budgets or {})}  # a kind not given keeps its default
        self._users = {kind: Window(b.user) for kind, b in self.budgets.items()}
        self._servers = {kind: Window(b.server) for kind, b in self.budgets.items()}
        self._checks = 0

    def take(self, kind: str, user_id: int, guild_id: int | None) -> int:
        """Count a use of ``kind`` by ``user_id`` in ``guild_id`` and return 0, or, when the
        user or the server is over its budget, count nothing and return the whole seconds to
        wait (at least 1)."""
        wait = self.wait(kind, user_id, guild_id)
        if not wait:
            self.use(kind, user_id, guild_id)
        return wait

    def wait(self, kind: str, user_id: int, guild_id: int | None) -> int:
        """The whole seconds until ``user_id`` may use ``kind`` in ``guild_id`` (0: now)."""
        now = self.clock()
        self._checks += 1
        if self._checks % self.SWEEP_EVERY == 0:
            for window in (*self._users.values(), *self._servers.values()):
                window.sweep(now)
        wait = self._users[kind].wait(user_id, now)
        if guild_id is not None:
            wait = max(wait, self._servers[kind].wait(guild_id, now))
        return max(1, math.ceil(wait)) if wait > 0 else 0

    def use(self, kind: str, user_id: int, guild_id: int | None) -> None:
        """Count a use (after the fact: a replay counts once it is drawn)."""
        now = self.clock()
        self._users[kind].use(user_id, now)
        if guild_id is not None:
            self._servers[kind].use(guild_id, now)

    def keys(self) -> int:
        """How many users and servers are remembered (bounded by those active lately)."""
        return sum(len(w) for w in (*self._users.values(), *self._servers.values()))


@dataclass
class Replaying:
    """A replay being drawn for a server, or posted lately."""

    game_id: int
    channel_id: int
    at: float


class Replays:
    """One replay drawn at a time per server, and the replays posted lately (a repeated
    request is answered with the one already posted)."""

    # How long a posted replay answers a request for the same game instead of a new one.
    REPOSTED = 600.0

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self._drawing: dict[int, Replaying] = {}
        self._posted: dict[tuple[int, int], Replaying] = {}

    def drawing(self, guild_id: int) -> Replaying | None:
        """The replay this server is drawing now, if any."""
        return self._drawing.get(guild_id)

    def posted(self, guild_id: int, game_id: int) -> Replaying | None:
        """The replay of ``game_id`` this server was posted within ``REPOSTED`` seconds."""
        now = self.clock()
        for key in [k for k, r in self._posted.items() if r.at <= now - self.REPOSTED]:
            del self._posted[key]
        return self._posted.get((guild_id, game_id))

    def start(self, guild_id: int, game_id: int, channel_id: int) -> None:
        self._drawing[guild_id] = Replaying(game_id, channel_id, self.clock())

    def finish(self, guild_id: int, posted: bool) -> None:
        """The server's replay is drawn (``posted``: and its message goes out, of a game that
        has ended, so that a request for it soon after is answered with this one)."""
        replay = self._drawing.pop(guild_id, None)
        if replay is not None and posted:
            replay.at = self.clock()
            self._posted[(guild_id, replay.game_id)] = replay
