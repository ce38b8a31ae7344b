"""The dice: the action die (2, 4, 6, Build, ±, 2*) starts every turn, the wall die (1, 2, 3,
1, 2, 3) gives a wall's length; the house rule's re-roll (D5, "reroll"); and the pass when a
roll allows nothing (D4), found as soon as the die shows it.

Each action's check and its effect sit together: ``Roll`` (``when_roll``, ``roll``),
``Reroll`` (``when_reroll``, ``reroll``) and ``Pass`` (``when_pass``, ``pass_turn``).
"""

from __future__ import annotations

from rules.core import Event, Rng, RulesError
from rules.zvv.actions import Pass, Reroll, Roll
from rules.zvv.moves import movable
from rules.zvv.state import ZvvState, face_args, face_key, home_count
from rules.zvv.turns import end_turn
from rules.zvv.walls import legal_walls

FACES = ("2", "4", "6", "build", "plusminus", "split")
WALL_DIE = (1, 2, 3, 1, 2, 3)
REROLL_PHASES = ("move", "split", "plusminus", "build", "pass")


def roll_action_die(state: ZvvState, events: list[Event], key: str) -> None:
    rng = Rng(state.rng)
    face = rng.choice(FACES)
    state.rng = rng.state
    state.face = face
    state.wall_len = 0
    events.append(Event(key, {"seat": state.turn, "face_key": face_key(face)}))
    if face in ("2", "4", "6") or (face == "split" and state.options["two_star"] == "plain"):
        state.phase = "move"
    elif face == "split":
        state.phase = "split"
    elif face == "build" or not state.walls:
        # Build, or ± with no wall to remove: building is the only choice left.
        roll_wall_die(state, events)
        return
    else:
        state.phase = "plusminus"
        return
    if not any(True for _ in movable(state, state.turn)):
        state.phase = "pass"
        events.append(Event("zvv.event.no_move", {"seat": state.turn}))


def roll_wall_die(state: ZvvState, events: list[Event]) -> None:
    rng = Rng(state.rng)
    state.wall_len = rng.choice(WALL_DIE)
    state.rng = rng.state
    events.append(Event("zvv.event.wall_die", {"seat": state.turn, "length": state.wall_len}))
    state.phase = "build"
    if not legal_walls(state):
        # The rules: if no legal place exists for that length, no wall is placed. An empty
        # supply is its own reason (it read as "no legal place" on an empty board).
        state.phase = "pass"
        why = "no_supply" if state.supply[state.wall_len - 1] <= 0 else "no_place"
        events.append(Event(f"zvv.event.{why}", {"seat": state.turn, "length": state.wall_len}))


# --------------------------------------------------------------------- Roll


def when_roll(state: ZvvState) -> None:
    if state.phase not in ("roll", "plusminus"):
        raise RulesError("zvv.error.already_rolled", **face_args(state))


def roll(state: ZvvState, seat: int, action: Roll, events: list[Event]) -> None:
    if state.phase == "roll":
        roll_action_die(state, events, "zvv.event.rolled")
    else:  # ±: the player chose to build
        roll_wall_die(state, events)


# --------------------------------------------------------------------- Reroll (D5)


def may_reroll(state: ZvvState) -> bool:
    """D5 house rule, "reroll" reading: once a pawn is home, once a turn you may roll the action
    die again instead of using the result."""
    return (
        state.options["extra_roll"] == "reroll"
        and state.phase in REROLL_PHASES
        and not state.bonus_used
        and home_count(state, state.turn) > 0
    )


def when_reroll(state: ZvvState) -> None:
    if not may_reroll(state):
        raise RulesError("zvv.error.no_reroll")


def reroll(state: ZvvState, seat: int, action: Reroll, events: list[Event]) -> None:
    state.bonus_used = True
    roll_action_die(state, events, "zvv.event.rerolled")


# --------------------------------------------------------------------- Pass (D4)


def when_pass(state: ZvvState) -> None:
    if state.phase != "pass":
        raise RulesError("zvv.error.cannot_pass")


def why_pass(state: ZvvState) -> RulesError:
    """Why the roll in phase ``pass`` allows nothing: no pawn moves, no wall of the rolled
    length is left in the supply, or none has a legal place."""
    if state.wall_len:
        if state.supply[state.wall_len - 1] <= 0:
            return RulesError("zvv.error.pass_no_supply", length=state.wall_len)
        return RulesError("zvv.error.pass_no_place", length=state.wall_len)
    return RulesError("zvv.error.pass_no_move", face_key=face_key(state.face))


def pass_turn(state: ZvvState, seat: int, action: Pass, events: list[Event]) -> None:
    state.current.append({"type": "pass"})
    events.append(Event("zvv.event.passed", {"seat": seat}))
    end_turn(state, events)
