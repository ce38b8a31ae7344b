"""Events: what happened while an action was applied, for narration.

An event is a message key plus arguments (translated later, in the reader's language). ``to``
is ``None`` for an event everyone may read, or the one seat allowed to read it (a drawn card,
a private confirmation). The public narration filters on it, so hidden information never
reaches the channel through an event.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


# Not frozen: a frozen dataclass sets each field through ``object.__setattr__``, and engines
# make a few events per action (random games make millions): plain slots cost half as much.
# Treat events as values all the same: nothing changes an event once made.
@dataclass(slots=True)
class Event:
    key: str
    args: dict[str, Any] = field(default_factory=dict)
    to: int | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"key": self.key, "args": dict(self.args)}
        if self.to is not None:
            data["to"] = self.to
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Event:
        return cls(key=data["key"], args=dict(data.get("args", {})), to=data.get("to"))


def public(events: list[Event]) -> list[Event]:
    """The events the whole channel may read."""
    return [e for e in events if e.to is None]


def visible_to(events: list[Event], seat: int | None) -> list[Event]:
    """The events one seat may read (``seat=None``: the public ones)."""
    return [e for e in events if e.to is None or e.to == seat]
