"""End and score (rules §5): the win (deck and centre row empty; Insane: the players' cards
too), the losses (clock, empty bag, relaxed mode's last round), and the team's score."""

from __future__ import annotations

from typing import Any

from rules.core import Event, Result
from rules.fuse.setup import BOMBS
from rules.fuse.state import FuseState


def score(state: FuseState) -> int:
    """10 for a win plus 1 per full 10 seconds left (live wins), the points of the defused
    bombs, 2 per fuse card revealed."""
    points = sum(BOMBS[c].points for c in state.defused) + 2 * len(state.fuses)
    if state.outcome == "won":
        points += 10 + state.seconds_left // 10
    return points


def end_if_won(state: FuseState, events: list[Event], now: float) -> None:
    """The team wins when the deck and the centre row are empty (Insane: their cards too)."""
    if state.deck or state.centre or state.stage == "over":
        return
    if state.difficulty == "insane" and any(state.hands):
        return
    end(state, "won", "won", events, now)


def end(state: FuseState, outcome: str, reason: str, events: list[Event], now: float = 0.0) -> None:
    if outcome == "won" and state.clock_end is not None:
        state.seconds_left = max(0, int(state.clock_end - now))
    state.stage = "over"
    state.step += 1
    state.outcome = outcome
    state.reason = reason
    state.claims = {}
    state.owing = {}
    # Keep the 25 dice accounted for: whatever was rolled this round goes back to the bag.
    state.bag.extend(state.loose)
    state.loose = []
    points = score(state)
    if outcome == "won":
        events.append(Event("fuse.event.won", {"score": points}))
    else:
        events.append(Event(f"fuse.event.lost_{reason}", {"score": points}))


def result(state: FuseState) -> Result | None:
    if state.stage != "over":
        return None
    points = score(state)
    winners = tuple(range(state.seats)) if state.outcome == "won" else ()
    # The end itself was narrated by the last move's event (won / lost_*): the summary adds
    # how the score is made up, so the closing message does not say the same line twice.
    return Result(winners, {s: points for s in range(state.seats)}, _score_summary(state))


def _score_summary(state: FuseState) -> Event:
    """How the score is made up, each part with its points (rules §5), so that they add
    up: the win (10), the time left (live wins), the defused bombs, the fuse cards. At a
    win with bombs still in front of the players (the win needs only the deck and the
    centre row empty), it says they score nothing: the picture shows them."""
    bomb_points = sum(BOMBS[c].points for c in state.defused)
    args: dict[str, Any] = {
        "score": score(state),
        "bombs": len(state.defused),
        "bomb_points": bomb_points,
        "fuses": len(state.fuses),
        "fuse_points": 2 * len(state.fuses),
    }
    if state.outcome != "won":
        return Event("fuse.event.final_score_lost", args)
    key = "fuse.event.final_score"
    if state.clock_end is not None:  # live: a point per full 10 seconds left
        key += "_time"
        args.update(seconds=state.seconds_left, time_points=state.seconds_left // 10)
    left = sum(1 for hand in state.hands for _ in hand)
    if left:
        key += "_left"
        args["left"] = left
    return Event(key, args)
