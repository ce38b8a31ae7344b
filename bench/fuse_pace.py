"""FUSE at the pace of people playing by chat, simulated with the computer players.

Each player is a ``normal`` computer player that clicks like a person on Discord: one action
per ``THINK`` seconds per player, plus ``LATENCY`` seconds for the round trip, the players
acting side by side (a simultaneous game). A seat that becomes pending (a new round, a die to
return) acts ``THINK + LATENCY`` seconds later; after acting it needs as long again for its
next action. The engine's ``now`` follows that schedule, so the live clock and the round count
see the pace a team of real people reaches. Used by ``python -m bench fuse``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from rules.core.policy import choose
from rules.fuse import FUSE

THINK = 2.0  # seconds a person takes to read the buttons and click one
LATENCY = 0.5  # seconds between the click and the bot's answer on the channel
STEP = THINK + LATENCY


COMPUTER_DELAY = 1.5  # seconds: the service's pause before a computer-played seat's move
ROUND_TIMER = 20.0  # seconds: option round_timer's default


def chat_game(
    seats: int,
    seed: int,
    options: Mapping[str, Any],
    level: str = "normal",
    step: float = STEP,
    away: int | None = None,
    autopilot_after: int = 0,
) -> tuple[str, int, float]:
    """One game at chat pace (``step`` seconds per action per player): (how it ended, rounds
    played, seconds of play). ``away``: a seat whose player never comes, played by the round
    timer (``ROUND_TIMER`` after it is asked; the rest of its round a moment later), and from
    ``autopilot_after`` rounds of that in a row (0: never) by the autopilot, at once."""
    # Its own loop, not rules.core.play.play_game: seats act as their chat-pace timers fall due.
    state = FUSE.new_game(seats, dict(options), seed)
    start = now = 1_000_000.0
    ready: dict[int, float] = {}  # seat -> when it acts next (it is pending)
    steps = 0
    missed, timed_round, autopilot = 0, -1, False  # the seat that is away

    def wait(seat: int) -> float:
        if seat != away:
            return step
        return COMPUTER_DELAY if autopilot or timed_round == state.round else ROUND_TIMER

    while not FUSE.is_over(state):
        pending = FUSE.pending(state)
        for seat in list(ready):
            if seat not in pending:
                del ready[seat]
        for seat in pending:
            ready.setdefault(seat, now + wait(seat))
        seat = min(ready, key=lambda s: (ready[s], s))
        now = ready.pop(seat)
        if state.stage == "start":
            start = now
        if seat == away and not autopilot and timed_round != state.round:
            timed_round, missed = state.round, missed + 1  # the round timer ran out
            autopilot = autopilot_after > 0 and missed >= autopilot_after
        FUSE.play(state, seat, choose(FUSE, state, seat, level), now)
        if seat in FUSE.pending(state):
            ready[seat] = now + wait(seat)
        steps += 1
        assert steps < 50_000, f"fuse: no end at chat pace (seed {seed})"
    return state.reason, state.round, now - start


def chat_row(
    seats: int,
    options: Mapping[str, Any],
    games: int,
    step: float = STEP,
    away: int | None = None,
    autopilot_after: int = 0,
) -> Counter[str]:
    """How ``games`` games (seeds 0..games-1) at chat pace end (``won``, ``clock``,
    ``rounds``, ``bag``)."""
    ends: Counter[str] = Counter()
    for seed in range(games):
        reason, _, _ = chat_game(
            seats, seed, options, step=step, away=away, autopilot_after=autopilot_after
        )
        ends[reason] += 1
    return ends
