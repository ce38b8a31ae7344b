"""Reading what an engine said: its events."""

from __future__ import annotations

from rules.core import Event


def keys(events: list[Event]) -> list[str]:
    """The events' catalogue keys, in order: what happened, as a rule's test states it."""
    return [e.key for e in events]
