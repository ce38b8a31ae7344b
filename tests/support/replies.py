"""Reading the service's replies in tests."""

from __future__ import annotations

from bot.service import Reply


def private(reply: Reply) -> str:
    """Everything the reply tells its sender alone (its head, then any narration)."""
    assert reply.private is not None, "the reply has a private answer"
    return str(reply.private.whole)
