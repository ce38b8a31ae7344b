"""A database outage while the bot runs: told in the log once when it begins and once when it
ends, never as a traceback per command (each command's user hears that the database is not
available, in their language, and nothing changed).

``lost(error)`` says whether an error is the database being out of reach (a server down or
restarting, a lost connection, a file the bot can no longer open or write) rather than a bug.
One :data:`database` per process: a process has one database.
"""

from __future__ import annotations

import logging
import socket
import time

from sqlalchemy import exc

log = logging.getLogger("partida.store")

# SQLite's words for a file it can no longer use (a full disk, an unmounted or read-only disk,
# a file whose owner or mode changed under the bot).
_SQLITE = ("unable to open", "readonly database", "disk i/o error", "database or disk is full")
# asyncpg's errors for a connection lost or not taken.
_ASYNCPG = (
    "ConnectionDoesNotExistError",
    "CannotConnectNowError",
    "TooManyConnectionsError",
    "AdminShutdownError",
    "CrashShutdownError",
)


def lost(error: BaseException) -> bool:
    """The database is out of reach (not a bug, not a passing write conflict)."""
    seen: set[int] = set()
    each: BaseException | None = error
    while each is not None and id(each) not in seen:
        seen.add(id(each))
        if isinstance(each, exc.DBAPIError) and each.connection_invalidated:
            return True
        if isinstance(each, ConnectionError | TimeoutError | socket.gaierror | exc.TimeoutError):
            return True  # refused, reset, no route or name; the pool's timeout
        if isinstance(each, OSError) and "connect call failed" in str(each).lower():
            return True  # asyncio's error for every address of a host refused
        if type(each).__module__.startswith("asyncpg") and type(each).__name__ in _ASYNCPG:
            return True
        if type(each).__name__ == "OperationalError" and any(
            words in str(each).lower() for words in _SQLITE
        ):
            return True
        each = getattr(each, "orig", None) or each.__cause__ or each.__context__
    return False


class Outage:
    """Whether the database is out of reach now, and since when (logged at each change)."""

    def __init__(self) -> None:
        self.since: float | None = None  # monotonic time of the first failure, None: reachable
        self.refused = 0  # commands answered "the database is not available" in this outage

    @property
    def down(self) -> bool:
        return self.since is not None

    def failed(self, error: BaseException) -> None:
        """A command or round failed for want of the database (``lost(error)``)."""
        self.refused += 1
        if self.since is None:
            self.since = time.monotonic()
            reason = str(error).splitlines()[0] if str(error) else type(error).__name__
            log.warning(
                "database unavailable (%s: %s): commands are answered 'try again later' "
                "until it is back",
                type(error).__name__,
                reason[:300],
            )

    def worked(self) -> None:
        """The database answered: the end of an outage, if there was one."""
        if self.since is None:
            return
        log.warning(
            "database available again after %.0f s (%d commands could not be served)",
            time.monotonic() - self.since,
            self.refused,
        )
        self.since = None
        self.refused = 0


database = Outage()
