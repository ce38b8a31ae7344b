"""Winning and the end of the game: the first seat with all nine pawns home wins at once; D7
ends a game nobody can finish; the round limit ends a long one (both: most pawns home wins)."""

from __future__ import annotations

from rules.core import Event
from rules.zvv.board import board
from rules.zvv.state import PAWNS, ZvvState, home_count, target_zone


def arrived(state: ZvvState, seat: int, square: str, events: list[Event]) -> bool:
    """A pawn of ``seat`` just arrived on ``square``: say so, and end the game if it was the
    ninth (the rules: the game ends at once). Whether the game ended."""
    home = home_count(state, seat)
    events.append(Event("zvv.event.arrived", {"seat": seat, "square": square, "home": home}))
    if home < PAWNS:
        return False
    state.phase = "over"
    state.ended_by = "win"
    state.winners = [seat]
    state.current.append({"type": "win", "seat": seat})
    events.append(Event("zvv.event.won", {"seat": seat}))
    state.last, state.current = state.current, []
    return True


def check_locks(state: ZvvState, events: list[Event]) -> bool:
    """D7: note the seats that can no longer finish; end the game when that is everyone.

    Only a move can lock a seat (walls are never permanent), so this runs after moves."""
    for s in range(state.seats):
        if s not in state.locked and is_locked(state, s):
            state.locked.append(s)
            events.append(Event("zvv.event.locked", {"seat": s}))
    if len(state.locked) < state.seats:
        return False
    finish_by_count(state, "locked", events)
    return True


def finish_by_count(state: ZvvState, why: str, events: list[Event]) -> None:
    """End without a finisher: most pawns home wins, a tie shares the win."""
    homes = [home_count(state, s) for s in range(state.seats)]
    best = max(homes)
    state.winners = [s for s in range(state.seats) if homes[s] == best]
    state.phase = "over"
    state.ended_by = why
    if state.current:  # ended mid-turn (D7): keep this turn for the last picture
        state.last, state.current = state.current, []
    events.append(summary(state))


def summary(state: ZvvState) -> Event:
    if state.ended_by == "win":
        return Event("zvv.event.won", {"seat": state.winners[0]})
    best = max(home_count(state, s) for s in range(state.seats))
    args = {"seats": list(state.winners), "home": best}
    if state.ended_by == "limit":
        return Event("zvv.event.round_limit", {"rounds": state.options["round_limit"], **args})
    return Event("zvv.event.all_locked", args)


def is_locked(state: ZvvState, seat: int) -> bool:
    """Whether ``seat`` can never get all its pawns home (D7).

    Judged optimistically, on the only things that never change again: the pawns already home
    (every seat's). Walls can always be removed and pawns on the way can always leave, so they
    are ignored, and a jump may go over any square. The seat is locked when a free square of its
    target zone cannot be reached by any of its pawns on the way (the corner square walled in by
    its own home pawns), or one of those pawns can reach no free target square. Being
    optimistic, it never locks a seat that could still finish; deeper deadlocks are left to the
    round limit.

    A pawn on the way whose every step and jump lands on the board's edge or on such fixed
    pawns is fixed too (it can never move again); found repeatedly, as each one found may fix
    another. The seat is locked if one of its own pawns is fixed that way, or another seat's
    pawn is fixed on a square of its target zone.
    """
    b = board(state.size)
    neighbour = b.neighbour
    fixed = bytearray(state.size * state.size)
    loose: list[int] = []
    for s, pawns in enumerate(state.pawns):
        home_zone = target_zone(state, s)
        for sq in pawns:
            if sq in home_zone:
                fixed[sq] = 1
            else:
                loose.append(sq)

    def stuck(sq: int) -> bool:
        for d in range(4):
            x = neighbour[d][sq]
            if x < 0:
                continue
            if not fixed[x]:
                return False
            y = neighbour[d][x]
            if y >= 0 and not fixed[y]:
                return False
        return True

    changed = True
    while changed:
        changed = False
        for sq in loose:
            if not fixed[sq] and stuck(sq):
                fixed[sq] = 1
                changed = True
    target = target_zone(state, seat)
    mine = set(state.pawns[seat])
    if any(fixed[sq] and sq not in target for sq in mine):
        return True  # one of its pawns can never move again
    if any(fixed[sq] and sq not in mine for sq in target):
        return True  # someone else's pawn sits for good on a square it needs
    free = {sq for sq in target if not fixed[sq]}
    seen_all: set[int] = set()
    for pawn in state.pawns[seat]:
        if fixed[pawn]:
            continue
        seen = {pawn}
        todo = [pawn]
        while todo:
            sq = todo.pop()
            inside = sq in target
            for d in range(4):
                x = neighbour[d][sq]
                if x < 0:
                    continue
                if not fixed[x] and x not in seen and (not inside or x in target):
                    seen.add(x)
                    todo.append(x)
                y = neighbour[d][x]
                if y >= 0 and not fixed[y] and y not in seen and (not inside or y in target):
                    seen.add(y)
                    todo.append(y)
        if not seen & free:
            return True
        seen_all |= seen
    return not free <= seen_all
