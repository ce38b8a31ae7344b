"""The live clock (D2, D10): it starts with the first ``draw`` and, once run out, the bomb goes
off. Its length is the mode's (``modes.CLOCK_SECONDS``); relaxed games have none."""

from __future__ import annotations

from rules.fuse.modes import CLOCK_SECONDS
from rules.fuse.state import FuseState


def ran_out(state: FuseState, now: float) -> bool:
    """The live clock has run out: the bomb went off."""
    return state.clock_end is not None and now >= state.clock_end


def start_clock(state: FuseState, now: float) -> None:
    """D10: the live clock starts with the first ``draw``, letting players read their cards."""
    if state.mode == "live":
        state.clock_end = now + CLOCK_SECONDS
