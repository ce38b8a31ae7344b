"""Zombies vs Vampires: race your nine pawns to the opposite corner, building walls on the way.

The engine: the common game API over the modules of this package, named as the rulebook names
things (rules doc: docs/games/zvv.md). Where each rule lives: the position and its saved form
``state.py``; the action die, the wall die, the re-roll (D5) and the pass (D4) ``rolls.py``;
moving pawns and the 2* split (D2) ``moves.py`` (the reach itself: ``board.py``); building and
removing walls ``walls.py``; the end of a turn and the bonus roll (D5) ``turns.py``; winning,
locked seats (D7) and the round limit ``winning.py``; what players type ``commands.py``.

A turn: ``roll`` the action die, then resolve the face:

- ``2`` / ``4`` / ``6``: ``move`` one pawn up to that many steps (phase ``move``);
- ``2*``: up to 2 steps split between at most two different pawns (D2, phase ``split``, then
  ``split_more`` if the first pawn took a single step: ``move`` another pawn one step or ``stop``);
- Build: the wall die is rolled at once; ``build`` a wall of that length (phase ``build``);
- ±: ``remove`` any wall, or ``roll`` the wall die and build (phase ``plusminus``).

When the roll allows nothing, the only action is ``pass`` (D4, phase ``pass``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rules.core import (
    Action,
    Command,
    CommandArgs,
    Event,
    Game,
    OptionSpec,
    Param,
    Pending,
    Piece,
    Result,
    Rng,
    RulesError,
    Turn,
)
from rules.core.game import bad_option
from rules.zvv import commands, moves, rolls, walls
from rules.zvv.actions import Build, Move, Pass, Remove, Reroll, Roll, Stop
from rules.zvv.board import OPPOSITE_CORNER, START_CORNERS, Wall, board, side_letter
from rules.zvv.moves import MOVE_PHASES
from rules.zvv.rolls import FACES
from rules.zvv.state import (
    KINDS,
    SCHEMA,
    ZvvState,
    copy_entry,
    derive,
    face_key,
    home_count,
    memo,
)
from rules.zvv.state import dump as state_dump
from rules.zvv.state import load as state_load
from rules.zvv.turns import round_in_play

REMOVE_BUTTONS = 4  # with "Roll", one row of five buttons

# When each action may be done. Roll, Reroll, Stop and Pass: their own phases decide, whatever
# the roll; Move, Build and Remove: only once the die is rolled, and not on a roll that allows
# nothing (D4, which says why instead).
ANY_TIME: dict[str, Callable[[ZvvState], None]] = {
    "roll": rolls.when_roll,
    "reroll": rolls.when_reroll,
    "stop": moves.when_stop,
    "pass": rolls.when_pass,
}
AFTER_ROLL: dict[str, Callable[[ZvvState], None]] = {
    "move": moves.when_move,
    "build": walls.when_build,
    "remove": walls.when_remove,
}
# What each action's arguments must be (only the actions that have some), and what it does.
CHECKS: dict[type[Action], Callable[[ZvvState, int, Any], None]] = {
    Move: moves.check_move,
    Build: walls.check_build,
    Remove: walls.check_remove,
}
EFFECTS: dict[type[Action], Callable[[ZvvState, int, Any, list[Event]], None]] = {
    Roll: rolls.roll,
    Reroll: rolls.reroll,
    Move: moves.move,
    Stop: moves.stop,
    Build: walls.build,
    Remove: walls.remove,
    Pass: rolls.pass_turn,
}


class ZombiesVsVampires(Game[ZvvState]):
    name = "zvv"
    min_seats = 2
    max_seats = 4
    option_specs = (
        OptionSpec("size", "int", 11, min=9, max=15),
        OptionSpec("walls", "int", 8, min=0, max=30),
        OptionSpec("two_star", "choice", "split", choices=("split", "plain")),
        OptionSpec("extra_roll", "choice", "off", choices=("off", "reroll", "bonus")),
        OptionSpec("round_limit", "int", 200, min=0, max=5000),
        # The service rolls the action die at once when rolling is a seat's only legal action.
        OptionSpec("autoroll", "bool", True),
    )
    action_types = (Roll, Move, Build, Remove, Stop, Pass, Reroll)
    commands = (
        Command("roll", button=True),
        Command(
            "move",
            (Param("pawn", autocomplete=True), Param("to", autocomplete=True)),
            steps=("pawn", "to"),
        ),
        Command(
            "build",
            (
                Param("square", autocomplete=True),
                Param("side", autocomplete=True, names="zvv.side"),
                Param("direction", required=False, autocomplete=True, names="zvv.side"),
            ),
            steps=("square", "side", "direction"),
        ),
        # ``side`` is for "remove G9 E" typed positionally (the console splits words), so the
        # wall may be named as build names it: a square and a side.
        Command(
            "remove",
            (
                Param("wall", autocomplete=True, names="zvv.side"),
                Param("side", required=False, names="zvv.side"),
            ),
            button=True,
            steps=("wall",),
        ),
        Command("stop", button=True),
        Command("pass", button=True),
        Command("reroll", button=True),
    )

    def pieces(self) -> dict[str, tuple[Piece, ...]]:
        return {"faces": tuple(Piece(f, f"zvv.face.{f}", f"zvv.face_text.{f}") for f in FACES)}

    # ----------------------------------------------------------------- set-up and options

    def check_options(self, options: Mapping[str, Any], num_seats: int) -> dict[str, Any]:
        checked = super().check_options(options, num_seats)
        if checked["size"] % 2 == 0:  # D1: odd sizes only, so the board has a centre square
            spec = next(s for s in self.option_specs if s.name == "size")
            odd = range(spec.min or 1, (spec.max or 1) + 1, 2)
            raise bad_option(self.name, spec, checked["size"], ", ".join(map(str, odd)))
        return checked

    def setup(self, num_seats: int, options: dict[str, Any], seed: int) -> ZvvState:
        b = board(options["size"])
        rng = Rng(seed)
        pawns = [sorted(b.zone_squares(START_CORNERS[s])) for s in range(num_seats)]
        first = rng.below(num_seats)  # the rules pick the first player at random
        state = ZvvState(
            schema=SCHEMA,
            size=b.size,
            seats=num_seats,
            options=dict(options),
            pawns=pawns,
            walls=[],
            supply=[options["walls"]] * 3,
            turn=first,
            turns=0,
            phase="roll",
            face="",
            wall_len=0,
            moved=-1,
            bonus_used=False,
            current=[],
            last=[],
            locked=[],
            winners=[],
            ended_by="",
            rng=rng.state,
            actions=0,
        )
        derive(state)
        return state

    # ----------------------------------------------------------------- who acts

    def automatic(self, state: ZvvState, seat: int) -> Action | None:
        if not state.options.get("autoroll", True):
            return None
        legal = self.legal_actions(state, seat)
        return legal[0] if legal == [Roll()] else None

    def pending(self, state: ZvvState) -> dict[int, Pending]:
        if state.phase == "over":
            return {}
        found = memo(state)
        if "default" not in found:
            found["default"] = self._default(state)
        args: dict[str, Any] = {"face_key": face_key(state.face)} if state.face else {}
        if state.phase in MOVE_PHASES:
            args["steps"] = moves.steps(state)
        if state.phase == "build":
            args["length"] = state.wall_len
        return {state.turn: Pending(state.phase, found["default"], args=args)}

    def _default(self, state: ZvvState) -> Action:
        """What an absent player does: roll; move greedily towards the target; remove the
        newest wall; build the wall nearest the centre; pass when nothing else is legal."""
        phase = state.phase
        if phase == "roll":
            return Roll()
        if phase == "pass":
            return Pass()
        if phase in MOVE_PHASES:
            best = moves.greedy_move(state)
            if best is not None:
                return best
            return Stop()
        if phase == "plusminus":
            if not state.walls:  # never in play (± with no wall builds at once); be safe
                return Roll()
            return Remove(board(state.size).wall_name(state.walls[-1]))
        legal = walls.legal_walls(state)
        if not legal:  # never in play (no place means phase "pass"); a hand-made position
            return Pass()
        b = board(state.size)
        centre = (state.size / 2, state.size / 2)

        def off_centre(w: Wall) -> float:
            o, line, start, length = w
            mid = start + length / 2
            r, c = (line, mid) if o == "h" else (mid, line)
            return abs(r - centre[0]) + abs(c - centre[1])

        return Build(b.wall_name(min(legal, key=off_centre)))

    def legal_actions(self, state: ZvvState, seat: int) -> list[Action]:
        if state.phase == "over" or seat != state.turn:
            return []
        found = memo(state)
        if "legal" not in found:
            found["legal"] = self._legal(state, seat)
        return list(found["legal"])

    def _legal(self, state: ZvvState, seat: int) -> list[Action]:
        phase = state.phase
        out: list[Action] = []
        if phase == "roll":
            out.append(Roll())
        elif phase in MOVE_PHASES:
            out.extend(moves.legal_moves(state, seat))
        elif phase == "plusminus":
            out.extend(walls.legal_removes(state))
            out.append(Roll())
        elif phase == "build":
            out.extend(walls.legal_builds(state))
        elif phase == "pass":
            out.append(Pass())
        if rolls.may_reroll(state):
            out.append(Reroll())
        return out

    # ----------------------------------------------------------------- applying actions

    def resolve(self, state: ZvvState, seat: int, action: Action, now: float) -> list[Event]:
        state.actions += 1
        events: list[Event] = []
        EFFECTS[type(action)](state, seat, action, events)
        return events

    # ----------------------------------------------------------------- validation

    def _check_phase(self, state: ZvvState, seat: int, kind: str) -> None:
        """Raise the error for doing an action of ``kind`` (= its command name) now, whatever
        its arguments: the game is over, not your turn, or not what your roll allows."""
        if state.phase == "over":
            raise RulesError("core.error.game_over")
        if seat != state.turn:
            raise RulesError("core.error.not_your_turn")
        if kind in ANY_TIME:
            ANY_TIME[kind](state)
        elif state.phase == "roll":
            raise RulesError("zvv.error.roll_first")
        elif kind not in AFTER_ROLL:
            raise RulesError("core.error.bad_action")
        elif state.phase == "pass":
            # Say why the roll allows nothing, not "your roll is Build: it does not build a
            # wall" (that contradicts itself).
            raise rolls.why_pass(state)
        else:
            AFTER_ROLL[kind](state)

    def check(self, state: ZvvState, seat: int, action: Action) -> None:
        """Raise the specific RulesError that makes ``action`` illegal (nothing is changed)."""
        self._check_phase(state, seat, action.kind)
        check = CHECKS.get(type(action))
        if check is not None:
            check(state, seat, action)

    # ----------------------------------------------------------------- commands

    def to_command(self, action: Action) -> tuple[str, CommandArgs] | None:
        if isinstance(action, Move):
            return "move", {"pawn": action.pawn, "to": action.to}
        if isinstance(action, Build):
            return "build", commands.build_args(action.wall)
        if isinstance(action, Remove):
            return "remove", {"wall": action.wall}
        return action.kind, {}

    def parse(self, command: str, args: CommandArgs, state: ZvvState, seat: int) -> Action:
        """The base class's ``parse`` (``read``, then ``check``); what it adds: a wall typed
        from another of its sides is refused as the wall typed ("C2 W (= B2 E)"), for the
        canonical name alone reads as someone else's wall."""
        try:
            return super().parse(command, args, state, seat)
        except RulesError as err:
            wall = err.args_map.get("wall")
            if command == "build" and isinstance(wall, str) and " " in wall:
                given = {k: str(v).strip().upper() for k, v in args.items()}
                typed = (given.get("square", ""), side_letter(given.get("side", "")))
                named = commands.build_args(wall.split(" (", 1)[0])
                if typed != (named["square"], named["side"]):
                    typed_text = " ".join(v for v in (given.get("square"), given.get("side")) if v)
                    err.args_map["wall"] = f"{wall} (= {typed_text[:12]})"
            raise

    def read(self, command: str, args: CommandArgs, state: ZvvState, seat: int) -> Action:
        """What ZvV's words need beyond the default: squares in any case, a wall by a square,
        a side and a direction, or pointed at from any of its sides (``D4 S`` is the same wall
        as ``D5 N``; ``oeste`` is West).

        The turn and the roll's phase are checked first, by ``check``'s own first step, so
        that "not your turn" beats "no such square" as it does for ``apply``."""
        given = {k: str(v).strip() for k, v in args.items() if v is not None and str(v).strip()}
        self._check_phase(state, seat, command)
        return commands.read(state, command, given)

    def suggestions(
        self, state: ZvvState, seat: int, command: str, param: str, args: CommandArgs
    ) -> list[str]:
        """Autocomplete: the pawns that can move and the squares the chosen one reaches; for
        walls, the squares, sides and directions that make a legal wall of the rolled length."""
        if seat != state.turn or state.phase == "over":
            return []
        filled = {k: str(v).strip() for k, v in args.items() if v not in (None, "") and k != param}
        found = commands.suggest(state, seat, command, param, filled)
        if found is not None:
            return found
        return super().suggestions(state, seat, command, param, args)

    def buttons(self, state: ZvvState, seat: int) -> list[tuple[str, CommandArgs]]:
        """The common buttons, and on ± one "Remove" per wall, newest first, as many as fit in
        one row beside "Roll" (± offered only "Roll", so removing meant typing a
        wall name; older walls are still a ``remove`` command with autocomplete away)."""
        out = super().buttons(state, seat)
        removes = [item for item in out if item[0] == "remove"]
        b = board(state.size)
        newest: list[tuple[str, CommandArgs]] = [
            ("remove", {"wall": b.wall_name(w)}) for w in state.walls[::-1]
        ]
        offered = [item for item in newest if item in removes][:REMOVE_BUTTONS]
        return [item for item in out if item[0] != "remove"] + offered

    # ----------------------------------------------------------------- end and result

    def is_over(self, state: ZvvState) -> bool:
        return state.phase == "over"

    def result(self, state: ZvvState) -> Result | None:
        if state.phase != "over":
            return None
        scores = {s: home_count(state, s) for s in range(state.seats)}
        # No summary: the move that ends the game already narrates the end (``summary`` is
        # appended to its events), and the service prints a result's summary after those events,
        # so a summary here printed "… wins!" twice in the channel.
        return Result(tuple(state.winners), scores, None)

    # ----------------------------------------------------------------- persistence

    def dump(self, state: ZvvState) -> dict[str, Any]:
        return state_dump(state)

    def load(self, data: dict[str, Any]) -> ZvvState:
        return state_load(data)

    # No ``copy`` of its own: the base class's ``load(dump(state))`` (~75 µs, against ~4 µs for
    # the hand copy of every field it replaced) is one copy per ``apply`` and at most
    # ``search.MOVES`` + 1 per ``hard`` decision, under 1 ms of a p99 of ~40 ms CPU
    # (``python -m bench.bench_bots zvv``); random play and the fingerprint play in place.

    # ----------------------------------------------------------------- views

    def view(self, state: ZvvState, seat: int | None) -> dict[str, Any]:
        """Everything is public in this game: the same picture for the channel and each seat
        (``you`` marks the seat asking)."""
        b = board(state.size)
        return {
            "game": self.name,
            "size": state.size,
            "seats": state.seats,
            "you": seat,
            "kinds": list(KINDS[: state.seats]),
            "start": [START_CORNERS[s] for s in range(state.seats)],
            "target": [OPPOSITE_CORNER[START_CORNERS[s]] for s in range(state.seats)],
            "pawns": [[b.names[sq] for sq in p] for p in state.pawns],
            "home": [home_count(state, s) for s in range(state.seats)],
            "walls": [b.wall_name(w) for w in state.walls],
            "wall_segments": [list(w) for w in state.walls],
            "supply": list(state.supply),
            "turn": state.turn,
            "phase": state.phase,
            "face": state.face,
            "wall_len": state.wall_len,
            "steps": moves.steps(state) if state.phase in MOVE_PHASES else 0,
            "round": round_in_play(state),
            "round_limit": state.options["round_limit"],
            "current": [copy_entry(e) for e in state.current],
            "last": [copy_entry(e) for e in state.last],
            "locked": list(state.locked),
            "winners": list(state.winners),
            "ended_by": state.ended_by,
            "options": dict(state.options),
            # Where the roll lets the seat to act go (players counted squares by
            # hand): every square one of its pawns can reach now, in a move phase; else empty.
            "reach": moves.reach_names(state),
        }

    def phase(self, state: ZvvState) -> str:
        return f"{state.turns}.{state.phase}.{state.actions}"

    def turn(self, state: ZvvState) -> Turn:
        """One message per turn: the roll, the move and the second step edit it."""
        if state.phase == "over":
            return Turn(str(state.turns))
        return Turn(str(state.turns), state.turn)

    def picture_key(self, state: ZvvState) -> str:
        # One picture per turn (after the move or the wall), not one per die roll.
        return str(state.turns)
