"""What a channel shows, from a service's public messages alone (no adapter): each message as
it stands after its edits, as a reader scrolling the channel sees it."""

from __future__ import annotations

from collections.abc import Iterable

from bot.service import Outgoing


def standing(outgoing: Iterable[Outgoing]) -> list[str]:
    """The channel's messages in the order they were posted, each with its latest words: an
    edit replaces the message of its slot (a turn's message, a phase's readiness) rather than
    adding one, so a line the narration of a turn repeats in each edit is counted once."""
    shown: dict[object, str] = {}
    for number, o in enumerate(outgoing):
        if o.archive:
            continue
        key: object = o.slot if o.slot is not None else number
        if o.edit and o.slot in shown:
            shown[o.slot] = str(o.message.whole)
            continue
        if key in shown:  # a slot posted again (a lost message): a new message
            shown[(key, number)] = shown.pop(key)
        shown[key] = str(o.message.whole)
    return list(shown.values())
