"""Reading the service's replies and what it posts, in tests."""

from __future__ import annotations

from collections.abc import Iterable

from bot.service import Outgoing, Reply


def private(reply: Reply) -> str:
    """Everything the reply tells its sender alone (its head, then any narration)."""
    assert reply.private is not None, "the reply has a private answer"
    return str(reply.private.whole)


def messages(posted: Reply | Iterable[Outgoing]) -> list[str]:
    """Each message the channel reads, whole: a reply's public messages, or messages sent."""
    sent = posted.public if isinstance(posted, Reply) else posted
    return [str(o.message.whole) for o in sent]


def said(posted: Reply | Iterable[Outgoing]) -> str:
    """All the channel reads (``messages``), one message a line."""
    return "\n".join(messages(posted))
