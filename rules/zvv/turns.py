"""Turn order: the end of a turn, the house rule's bonus roll (D5, "bonus") and the round limit.

The first player is drawn at random in ``setup``; then the seats play in order."""

from __future__ import annotations

from rules.core import Event
from rules.zvv.state import ZvvState, home_count
from rules.zvv.winning import finish_by_count


def end_turn(state: ZvvState, events: list[Event]) -> None:
    seat = state.turn
    state.face = ""
    state.wall_len = 0
    state.moved = -1
    if (
        state.options["extra_roll"] == "bonus"
        and not state.bonus_used
        and home_count(state, seat) > 0
    ):
        # D5 house rule, "bonus" reading: once a pawn is home, one more roll each turn.
        state.bonus_used = True
        state.phase = "roll"
        events.append(Event("zvv.event.bonus", {"seat": seat}))
        return
    state.turns += 1
    state.bonus_used = False
    state.last, state.current = state.current, []
    limit = state.options["round_limit"]
    if limit and state.turns >= limit * state.seats:
        finish_by_count(state, "limit", events)
        return
    state.turn = (seat + 1) % state.seats
    state.phase = "roll"


def round_in_play(state: ZvvState) -> int:
    """The round in play (1-based); the last one once the game is over."""
    played = state.turns // state.seats + 1
    if state.ended_by == "limit":  # the limit ends a game after its last turn is counted
        played -= 1
    return max(1, played)
