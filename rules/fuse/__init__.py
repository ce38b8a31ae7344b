"""FUSE (Kane Klenko, Renegade Game Studios): cooperative real-time dice, 1–5 players."""

from collections.abc import Mapping
from typing import Any

from rules.core import Presentation, Registration, register
from rules.fuse.game import Fuse, FuseState

# Narration lines the table message keeps: a 4-player round and its returns.
NARRATED = 14


def sitting(state: FuseState) -> int:
    """The game's counter a table message is posted at: live mode, the team's progress (bombs
    defused); relaxed mode, the round."""
    return len(state.defused) if state.mode == "live" else state.round


def posts_anew(state: FuseState, posted_at: int | None) -> bool:
    """Live mode: a live round lasts seconds, so its one table message is edited by every
    move, and posted anew (pinging the team) only when a new round is drawn after a bomb was
    defused (``posted_at``: the bombs defused when the message was posted): the team's
    progress, worth a new picture at the bottom of the channel. Relaxed mode, played over
    hours: each round is a message of its own, posted as the round is drawn (it pings the
    team); its claims, placements and returns edit it (:func:`pings_once`)."""
    return state.stage == "choose" and posted_at != sitting(state)


def pings_once(state: FuseState) -> bool:
    """Relaxed mode: a round's returns ask in its message, pinging only a player the round
    has not pinged yet (who then gets the message anew); live mode's players are at the
    table, and its round timer plays for one who is not."""
    return state.mode != "live"


def round_timer(options: Mapping[str, Any]) -> float | None:
    """Option ``round_timer``: the seconds a seat has in a live round before the computer
    plays for it (0: off)."""
    seconds = options.get("round_timer") or 0
    return float(seconds) if seconds > 0 else None


def against_the_game(options: Mapping[str, Any], seats: int) -> str | None:
    """Always the team against the bomb: a rating per difficulty, and per the hard variant."""
    variant = str(options.get("difficulty", "standard"))
    return f"{variant}{'-hard' if options.get('hard') else ''}"


FUSE = Fuse()
REGISTRATION = register(
    Registration(
        FUSE,
        policy="rules.fuse.policy",
        hard="rules.fuse.search",
        renderer="render.fuse",
        presentation=Presentation(
            edited=True,
            sitting=sitting,
            posts_anew=posts_anew,
            pings_once=pings_once,
            narrated=NARRATED,
            round_timer=round_timer,
            timer_said="fuse.live.timer",  # "the round timer ran out: the computer played for …"
            deadline_said="fuse.live.deadline",  # the same at the channel's deadline
        ),
        versus=against_the_game,
    )
)

__all__ = ["FUSE", "REGISTRATION", "Fuse"]
