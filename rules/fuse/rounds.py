"""A round (rules §4.1–2, D3, D11): the round's dice are drawn from the bag and rolled; every
player claims one (first claim wins) and places it, or passes; when every player is done, the
returns (``returns.py``) and then the next round."""

from __future__ import annotations

from rules.core import Event, Rng, RulesError
from rules.fuse import returns
from rules.fuse.actions import Claim
from rules.fuse.cards import EMPTY
from rules.fuse.clock import start_clock
from rules.fuse.defusing import takeable
from rules.fuse.dice import VALUE_OF, die_token, value, value_named
from rules.fuse.placing import can_place
from rules.fuse.quota import dice_per_round, players_in, quota
from rules.fuse.scoring import end
from rules.fuse.setup import hand_size
from rules.fuse.state import FuseState


def check_draw(state: FuseState) -> None:
    if state.stage != "start":
        raise RulesError("fuse.error.already_drawn")


def draw(state: FuseState, now: float, events: list[Event]) -> None:
    """The first round (later rounds are drawn at once, D10)."""
    start_clock(state, now)
    events.append(Event("fuse.event.started", {"clock_end": state.clock_end}))
    start_round(state, events)


def start_round(state: FuseState, events: list[Event]) -> None:
    state.step += 1
    if state.mode == "relaxed" and state.round >= state.round_limit:
        # the last round was played: the bomb goes off (and no "round 61 of 60" is shown)
        end(state, "lost", "rounds", events)
        return
    state.round += 1
    if not state.bag:
        end(state, "lost", "bag", events)
        return
    rng = Rng(state.rng)
    count = min(dice_per_round(players_in(state)), len(state.bag))  # what is left (D12)
    drawn = [rng.draw(state.bag) for _ in range(count)]
    for d in drawn:
        state.faces[d] = rng.randint(1, 6)
    state.rng = rng.state
    state.drawn = drawn
    state.loose = drawn[:]
    state.claims = {}
    state.used = [0] * state.seats
    state.done = [False] * state.seats
    state.taking = [False] * state.seats
    state.stage = "choose"
    # D6 (house option): a player left short of bomb cards (every centre card was level
    # 3/4 while they held one) takes a card as soon as the centre row offers one they may.
    for seat in range(state.seats if state.top_up else 0):
        if len(state.hands[seat]) < hand_size(state) and takeable(state, seat):
            state.taking[seat] = True
    events.append(
        Event(
            "fuse.event.round",
            {
                "round": state.round,
                "dice": " ".join([die_token(state, d) for d in drawn]),
            },
        )
    )
    after_choice(state, events)


def check_claim(state: FuseState, seat: int, action: Claim) -> None:
    name = str(action.die).strip().upper()
    if not name:
        raise RulesError("fuse.error.no_die_named")
    shows = VALUE_OF.get(name, EMPTY)
    free = free_die(state, shows)
    # (a free die shows the value: only without one is the round's dice looked through)
    if free == EMPTY and not any(value(state, d) == shows for d in state.drawn):
        raise RulesError("fuse.error.no_such_die", die=name[:10])
    held = state.claims.get(seat)
    if held is not None and value(state, held) == shows:
        raise RulesError("fuse.error.already_holding", die=name)
    if free == EMPTY:
        raise RulesError("fuse.error.die_taken", die=name)
    if state.used[seat] >= quota(state):
        raise RulesError("fuse.error.quota", count=quota(state))
    if not can_place(state, seat, shows):
        raise RulesError("fuse.error.no_place", die=name)


def claim(state: FuseState, seat: int, action: Claim, events: list[Event]) -> None:
    """The seat holds the die (a die it held goes back to the table)."""
    d = free_die(state, value_named(action.die))
    held = state.claims.get(seat)
    state.claims[seat] = d
    # told to the whole team (the rules: claims are open), with the die put back if one was
    # held: "takes the Y2" alone left the G5 it held looking taken twice
    said = {"seat": seat, "die": die_token(state, d)}
    if held is None:
        events.append(Event("fuse.event.claimed", said))
    else:
        events.append(Event("fuse.event.swapped", {**said, "back": die_token(state, held)}))


def free_die(state: FuseState, shows: int) -> int:
    """The first die of the round showing ``shows`` still on the table and held by nobody
    (``EMPTY``: none)."""
    held = state.claims.values()
    for d in state.drawn:
        if value(state, d) == shows and d in state.loose and d not in held:
            return d
    return EMPTY


def leave(state: FuseState, seat: int, events: list[Event]) -> None:
    """A pass: the seat is done for the round (a die it held goes back to the table)."""
    state.claims.pop(seat, None)
    state.done[seat] = True
    events.append(Event("fuse.event.passed", {"seat": seat}, to=seat))
    # the dice on the table did not change: only the end of the round may have come
    if all(state.done) and not any(state.taking):
        end_choices(state, events)


def after_choice(state: FuseState, events: list[Event]) -> None:
    """Seats that can place none of the dice left are done (D11); when all are, resolve."""
    values = {value(state, d) for d in state.loose}
    for seat in range(state.seats):
        if state.done[seat] or state.taking[seat] or seat in state.claims:
            continue
        if state.used[seat] >= quota(state) or not any(can_place(state, seat, v) for v in values):
            state.done[seat] = True
    if all(state.done) and not any(state.taking):
        end_choices(state, events)


def end_choices(state: FuseState, events: list[Event]) -> None:
    """Every player is done placing: the fuse cards revealed, then the unused dice (D5)."""
    for d in state.loose:
        state.queue.append(f"D{d}")
    state.claims = {}
    if returns.advance(state, events):
        start_round(state, events)
