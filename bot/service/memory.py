"""The service's per-process maps, bounded: a bot that has served a million channels and
users holds no more for them than one that has served a thousand.

- :class:`ChannelLocks`: a channel's lock exists while a command holds it or waits for it, and
  is dropped with the last one (a weak mapping: the commands' own references keep it alive).
- :class:`RecentLanguages`: the users' chosen languages, the most recently used ones only
  (least recently used dropped first); a user dropped is read from the database again.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from weakref import WeakValueDictionary

# Users whose chosen language is kept: about 100 bytes each. Past it, the least recently seen
# is read again at their next command (one primary-key query).
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
    """User id → (their chosen language or None, when it was read), at most ``kept`` users."""

    def __init__(self, kept: int = LANGUAGES_KEPT) -> None:
        self.kept = kept
        self._chosen: OrderedDict[int, tuple[str | None, float]] = OrderedDict()

    def get(self, user_id: int) -> tuple[str | None, float] | None:
        found = self._chosen.get(user_id)
        if found is not None:
            self._chosen.move_to_end(user_id)
        return found

    def __setitem__(self, user_id: int, value: tuple[str | None, float]) -> None:
        self._chosen[user_id] = value
        self._chosen.move_to_end(user_id)
        while len(self._chosen) > self.kept:
            self._chosen.popitem(last=False)

    def __len__(self) -> int:
        return len(self._chosen)
