"""Shared helpers for the Bad Bones tests: positions from text, phases played through the API."""

from __future__ import annotations

from collections import Counter
from typing import Any

from rules.badbones import GAME
from rules.badbones.actions import Nothing
from rules.badbones.board import parse_name, square_name
from rules.badbones.position import game_from_text
from rules.badbones.state import TOTAL_TOKENS, TRAP, BadBonesState, Token
from rules.core import Action, Event
from tests.support.events import keys as keys  # (where the game's tests import it)


def position(*boards: str, **kwargs: Any) -> BadBonesState:
    return game_from_text(*boards, **kwargs)


def trap_phase(
    state: BadBonesState, actions: dict[int, Action] | None = None
) -> tuple[BadBonesState, list[Event]]:
    """Everyone submits phase 2 (``Nothing`` unless given): phase 2 resolves, then 3 (and 4)."""
    assert state.stage == TRAP
    actions = actions or {}
    events: list[Event] = []
    for seat in range(state.seats):
        state, new = GAME.apply(state, seat, actions.get(seat, Nothing()))
        events += new
    return state, events


def skeletons_on(state: BadBonesState, seat: int, square: str) -> list[str]:
    """Facings of the skeletons on ``square`` (sorted), e.g. ``["S", "W"]``."""
    sq = parse_name(square)
    return sorted("NESW"[s.facing] for s in state.boards[seat].on(sq))


def where(state: BadBonesState, seat: int) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for s in state.boards[seat].skeletons:
        out.setdefault(square_name(s.square), []).append("NESW"[s.facing])
    return {k: sorted(v) for k, v in sorted(out.items())}


def token_counts(state: BadBonesState) -> Counter[Token]:
    counts: Counter[Token] = Counter()
    for m, n in enumerate(state.bag):
        counts[Token(m)] += n
    for board in state.boards:
        counts.update(board.tokens())
    assert sum(counts.values()) == TOTAL_TOKENS
    return counts
