"""The service's per-process maps, bounded: a bot that has served a million channels and
users holds no more for them than one that has served a thousand.

- :class:`ChannelLocks`: a channel's lock exists while a command holds it or waits for it, and
  is dropped with the last one (a weak mapping: the commands' own references keep it alive).
- :class:`RecentLanguages`: the users' chosen languages, for the users read in the last minute
  (their choice is read again after that anyway); a user dropped is read from the database again.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from weakref import WeakValueDictionary

# How long a user's chosen language is trusted before it is read again: the bound on how late a
# choice made through another process shows (one made through this one shows at once).
LANGUAGE_TTL = 60.0

# At most this many users' languages are kept (about 150 bytes each), however many were read in
# the last LANGUAGE_TTL seconds: a burst past it reads the earliest again at their next command
# (one primary-key query).
LANGUAGES_KEPT = 10_000


class ChannelLocks:
    """One ``asyncio.Lock`` per channel in use: commands for a channel run one at a time in
    this process (the version column protects against other processes)."""

    def __init__(self) -> None:
        self._locks: WeakValueDictionary[int, asyncio.Lock] = WeakValueDictionary()

    def __getitem__(self, channel_id: int) -> asyncio.Lock:
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    def __len__(self) -> int:
        return len(self._locks)


class RecentLanguages:
    """User id → (their chosen language or None, when it was read): the users read in the last
    ``trusted`` seconds, at most ``kept`` of them, the earliest read dropped first.

    An entry older than ``trusted`` would be read again at the user's next command anyway, so
    it is dropped rather than kept: what this holds follows the users of the last minute, not
    every user the process has served (a bot past 10,000 users would otherwise hold 10,000)."""

    def __init__(self, kept: int = LANGUAGES_KEPT, trusted: float = LANGUAGE_TTL) -> None:
        self.kept = kept
        self.trusted = trusted
        # In the order they were read (an OrderedDict: dropping the earliest is O(1)).
        self._chosen: OrderedDict[int, tuple[str | None, float]] = OrderedDict()

    def get(self, user_id: int) -> tuple[str | None, float] | None:
        return self._chosen.get(user_id)

    def __setitem__(self, user_id: int, value: tuple[str | None, float]) -> None:
        self._chosen[user_id] = value
        self._chosen.move_to_end(user_id)  # read again: now the latest
        stale = value[1] - self.trusted
        while len(self._chosen) > self.kept or next(iter(self._chosen.values()))[1] <= stale:
            self._chosen.popitem(last=False)  # never the entry just set: it is not stale

    def __len__(self) -> int:
        return len(self._chosen)
