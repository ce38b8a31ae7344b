"""Who a round is dealt for and how many dice each player places (rules §4.1–2, D1, D16)."""

from __future__ import annotations

from rules.fuse.state import FuseState


def players_in(state: FuseState) -> int:
    """How many players the round is dealt for. D16 (house, Insane's end): once deck and
    centre are empty, a player whose cards are all defused is out of the rounds, so the
    round's dice and quotas are those of the players still holding bombs. Otherwise their
    unused dice, rolled again each round, would keep knocking dice off the last cards."""
    if state.deck or state.centre:
        return state.seats
    return max(1, sum(1 for hand in state.hands if hand))


def dice_per_round(seats: int) -> int:
    """As many dice as players; 4 with 2 players, 3 solo."""
    return 3 if seats == 1 else 4 if seats == 2 else seats


def quota(state: FuseState) -> int:
    """Dice a seat may place per round: 1, two each with 2 players, solo per D1 — counting
    only the players still holding bombs once deck and centre are empty (D16)."""
    seats = players_in(state)
    return 1 if seats > 2 else 2 if seats == 2 else state.solo_dice
