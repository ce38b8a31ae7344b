"""Zombies vs Vampires: race your nine pawns to the opposite corner, building walls on the way.

A turn: ``roll`` the action die, then resolve the face (rules doc: docs/games/zvv.md):

- ``2`` / ``4`` / ``6``: ``move`` one pawn up to that many steps (phase ``move``);
- ``2*``: up to 2 steps split between at most two different pawns (D2, phase ``split``, then
  ``split_more`` if the first pawn took a single step: ``move`` another pawn one step or ``stop``);
- Build: the wall die is rolled at once; ``build`` a wall of that length (phase ``build``);
- ±: ``remove`` any wall, or ``roll`` the wall die and build (phase ``plusminus``).

When the roll allows nothing, the only action is ``pass`` (D4, phase ``pass``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
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
from rules.zvv.actions import Build, Move, Pass, Remove, Reroll, Roll, Stop
from rules.zvv.board import (
    OPPOSITE_CORNER,
    SIDES,
    START_CORNERS,
    Board,
    Wall,
    board,
    can_step,
    path_to,
    reach,
    side_letter,
)

SCHEMA = 1
PAWNS = 9
FACES = ("2", "4", "6", "build", "plusminus", "split")
WALL_DIE = (1, 2, 3, 1, 2, 3)
KINDS = ("zombie", "vampire", "zombie", "vampire")  # players 3–4 play the same sides in new colours
MOVE_PHASES = ("move", "split", "split_more")
REMOVE_BUTTONS = 4  # with "Roll", one row of five buttons
REROLL_PHASES = ("move", "split", "plusminus", "build", "pass")


@dataclass
class ZvvState:
    schema: int
    size: int
    seats: int
    options: dict[str, Any]
    pawns: list[list[int]]  # per seat, the squares of its 9 pawns (pawn order is stable)
    walls: list[Wall]  # in the order they were built
    supply: list[int]  # walls left of length 1, 2, 3
    turn: int  # the seat whose turn it is
    turns: int  # turns completed so far
    phase: str  # roll | move | split | split_more | plusminus | build | pass | over
    face: str  # the action die ("" before the roll): 2 4 6 build plusminus split
    wall_len: int  # the wall die (0 when not rolled this turn)
    moved: int  # 2*: the square the first pawn stopped on (-1 otherwise)
    bonus_used: bool  # the house extra roll (D5) was used this turn
    current: list[dict[str, Any]]  # what the turn in progress did (for the picture)
    last: list[dict[str, Any]]  # what the previous turn did
    locked: list[int]  # seats that can never finish (D7), in the order they got locked
    winners: list[int]
    ended_by: str  # "" | "win" | "limit" | "locked"
    rng: int
    actions: int  # actions applied (part of the phase token)
    # Derived from ``walls`` (rebuilt by ``load``; never dumped): the wall sides of each square
    # as a bit mask (bit d: a wall on side d) and the grid points strictly inside walls.
    wallmask: list[int] = field(default_factory=list, compare=False)
    points: set[int] = field(default_factory=set, compare=False)
    # Every unit edge (square * 4 + side) and inner point (``POINT + p``) a wall takes, for
    # checking all placements at C speed (``set.isdisjoint``).
    taken: set[int] = field(default_factory=set, compare=False)
    # Memo of the legal actions and the default for one position (see ``_memo``): pending,
    # legal_actions and autocomplete all ask for them, often several times per action.
    memo: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)


POINT = 1 << 20  # offset of inner-point ids in ``ZvvState.taken``


def _ids(b: Board, wall: Wall) -> tuple[int, ...]:
    """The ids a wall takes in ``ZvvState.taken``: one per unit edge, one per inner point."""
    edges = tuple(sq * 4 + side for sq, side in b.wall_edges(wall)[::2])
    return edges + tuple(POINT + p for p in b.wall_points(wall))


def _placements(b: Board, length: int) -> list[tuple[Wall, tuple[int, ...], Build]]:
    """Every wall of ``length`` not inside a zone, with its ids and its action (cached per
    board size: placements never change, only which are free)."""
    key = (b.size, length)
    cached = _PLACEMENTS.get(key)
    if cached is None:
        cached = [(w, _ids(b, w), Build(b.wall_name(w))) for w in b.all_walls(length)]
        _PLACEMENTS[key] = cached
    return cached


_PLACEMENTS: dict[tuple[int, int], list[tuple[Wall, tuple[int, ...], Build]]] = {}
_MOVES: dict[tuple[int, int, int], Move] = {}


def _move_action(b: Board, start: int, dest: int) -> Move:
    """One shared ``Move`` per (board, start, dest): building frozen dataclasses is most of the
    cost of listing hundreds of moves."""
    key = (b.size, start, dest)
    move = _MOVES.get(key)
    if move is None:
        move = _MOVES[key] = Move(b.names[start], b.names[dest])
    return move


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
            raise RulesError("core.error.bad_option", option="size", value=str(checked["size"]))
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
        _derive(state)
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
        memo = _memo(state)
        if "default" not in memo:
            memo["default"] = self._default(state)
        args: dict[str, Any] = {"face_key": _face_key(state.face)} if state.face else {}
        if state.phase in MOVE_PHASES:
            args["steps"] = _steps(state)
        if state.phase == "build":
            args["length"] = state.wall_len
        return {state.turn: Pending(state.phase, memo["default"], args=args)}

    def _default(self, state: ZvvState) -> Action:
        """What an absent player does: roll; move greedily towards the target; remove the
        newest wall; build the wall nearest the centre; pass when nothing else is legal."""
        phase = state.phase
        if phase == "roll":
            return Roll()
        if phase == "pass":
            return Pass()
        if phase in MOVE_PHASES:
            best = _greedy_move(state)
            if best is not None:
                return best
            return Stop()
        if phase == "plusminus":
            if not state.walls:  # never in play (± with no wall builds at once); be safe
                return Roll()
            return Remove(board(state.size).wall_name(state.walls[-1]))
        walls = _legal_walls(state)
        if not walls:  # never in play (no place means phase "pass"); a hand-made position
            return Pass()
        b = board(state.size)
        centre = (state.size / 2, state.size / 2)

        def off_centre(w: Wall) -> float:
            o, line, start, length = w
            mid = start + length / 2
            r, c = (line, mid) if o == "h" else (mid, line)
            return abs(r - centre[0]) + abs(c - centre[1])

        return Build(b.wall_name(min(walls, key=off_centre)))

    def legal_actions(self, state: ZvvState, seat: int) -> list[Action]:
        if state.phase == "over" or seat != state.turn:
            return []
        memo = _memo(state)
        if "legal" not in memo:
            memo["legal"] = self._legal(state, seat)
        return list(memo["legal"])

    def _legal(self, state: ZvvState, seat: int) -> list[Action]:
        phase = state.phase
        out: list[Action] = []
        if phase == "roll":
            out.append(Roll())
        elif phase in MOVE_PHASES:
            b = board(state.size)
            for start, parent in _reaches(state, seat):
                out.extend(_move_action(b, start, dest) for dest in parent)
            if phase == "split_more":
                out.append(Stop())
        elif phase == "plusminus":
            b = board(state.size)
            out.extend(Remove(b.wall_name(w)) for w in state.walls)
            out.append(Roll())
        elif phase == "build":
            out.extend(_legal_builds(state))
        elif phase == "pass":
            out.append(Pass())
        if _may_reroll(state):
            out.append(Reroll())
        return out

    # ----------------------------------------------------------------- applying actions

    def resolve(self, state: ZvvState, seat: int, action: Action, now: float) -> list[Event]:
        state.actions += 1
        events: list[Event] = []
        b = board(state.size)
        if isinstance(action, Roll):
            if state.phase == "roll":
                self._roll_action_die(state, events, "zvv.event.rolled")
            else:  # ±: the player chose to build
                self._roll_wall_die(state, events)
        elif isinstance(action, Reroll):
            state.bonus_used = True
            self._roll_action_die(state, events, "zvv.event.rerolled")
        elif isinstance(action, Move):
            self._move(state, seat, action, events)
        elif isinstance(action, Build):
            wall = b.parse_wall(action.wall)
            assert wall is not None  # checked by check
            _add_wall(state, wall)
            state.supply[wall[3] - 1] -= 1
            state.current.append({"type": "build", "wall": b.wall_name(wall)})
            events.append(
                Event(
                    "zvv.event.built", {"seat": seat, "wall": b.wall_name(wall), "length": wall[3]}
                )
            )
            self._end_turn(state, events)
        elif isinstance(action, Remove):
            wall = _find_wall(state, action.wall)
            assert wall is not None
            _remove_wall(state, wall)
            state.supply[wall[3] - 1] += 1
            state.current.append({"type": "remove", "wall": b.wall_name(wall)})
            events.append(
                Event(
                    "zvv.event.removed",
                    {"seat": seat, "wall": b.wall_name(wall), "length": wall[3]},
                )
            )
            self._end_turn(state, events)
        elif isinstance(action, Stop):
            events.append(Event("zvv.event.stopped", {"seat": seat}))
            self._end_turn(state, events)
        elif isinstance(action, Pass):
            state.current.append({"type": "pass"})
            events.append(Event("zvv.event.passed", {"seat": seat}))
            self._end_turn(state, events)
        return events

    def _roll_action_die(self, state: ZvvState, events: list[Event], key: str) -> None:
        rng = Rng(state.rng)
        face = rng.choice(FACES)
        state.rng = rng.state
        state.face = face
        state.wall_len = 0
        events.append(Event(key, {"seat": state.turn, "face_key": _face_key(face)}))
        if face in ("2", "4", "6") or (face == "split" and state.options["two_star"] == "plain"):
            state.phase = "move"
        elif face == "split":
            state.phase = "split"
        elif face == "build" or not state.walls:
            # Build, or ± with no wall to remove: building is the only choice left.
            self._roll_wall_die(state, events)
            return
        else:
            state.phase = "plusminus"
            return
        if not any(True for _ in _movable(state, state.turn)):
            state.phase = "pass"
            events.append(Event("zvv.event.no_move", {"seat": state.turn}))

    def _roll_wall_die(self, state: ZvvState, events: list[Event]) -> None:
        rng = Rng(state.rng)
        state.wall_len = rng.choice(WALL_DIE)
        state.rng = rng.state
        events.append(Event("zvv.event.wall_die", {"seat": state.turn, "length": state.wall_len}))
        state.phase = "build"
        if not _legal_walls(state):
            # The rules: if no legal place exists for that length, no wall is placed. An empty
            # supply is its own reason (it read as "no legal place" on an empty board).
            state.phase = "pass"
            why = "no_supply" if state.supply[state.wall_len - 1] <= 0 else "no_place"
            events.append(Event(f"zvv.event.{why}", {"seat": state.turn, "length": state.wall_len}))

    def _move(self, state: ZvvState, seat: int, action: Move, events: list[Event]) -> None:
        b = board(state.size)
        start = b.square(action.pawn)
        dest = b.square(action.to)
        assert start is not None and dest is not None
        parent = _reach_one(state, seat, start, _steps(state))
        path = path_to(parent, start, dest)
        pawns = state.pawns[seat]
        pawns[pawns.index(start)] = dest
        state.current.append({"type": "move", "seat": seat, "path": [b.names[s] for s in path]})
        events.append(
            Event(
                # "(1 steps)" read wrong: one step has its own text.
                "zvv.event.moved" if len(path) > 2 else "zvv.event.moved_one",
                {"seat": seat, "from": b.names[start], "to": b.names[dest], "steps": len(path) - 1},
            )
        )
        target = b.zone_squares(OPPOSITE_CORNER[START_CORNERS[seat]])
        if dest in target:
            home = _home_count(state, seat)
            events.append(
                Event("zvv.event.arrived", {"seat": seat, "square": b.names[dest], "home": home})
            )
            if home == PAWNS:
                state.phase = "over"
                state.ended_by = "win"
                state.winners = [seat]
                state.current.append({"type": "win", "seat": seat})
                events.append(Event("zvv.event.won", {"seat": seat}))
                state.last, state.current = state.current, []
                return
        if dest in target and self._check_locks(state, events):
            return
        if state.phase == "split" and len(path) == 2:
            # D2: one step of the 2* is left for another pawn, if any of them can take it.
            state.moved = dest
            if any(sq != dest for sq in _movable(state, seat)):
                state.phase = "split_more"
                return
        self._end_turn(state, events)

    def _check_locks(self, state: ZvvState, events: list[Event]) -> bool:
        """D7: note the seats that can no longer finish; end the game when that is everyone.

        Only a move can lock a seat (walls are never permanent), so this runs after moves."""
        for s in range(state.seats):
            if s not in state.locked and _is_locked(state, s):
                state.locked.append(s)
                events.append(Event("zvv.event.locked", {"seat": s}))
        if len(state.locked) < state.seats:
            return False
        self._finish_by_count(state, "locked", events)
        return True

    def _finish_by_count(self, state: ZvvState, why: str, events: list[Event]) -> None:
        """End without a finisher: most pawns home wins, a tie shares the win."""
        homes = [_home_count(state, s) for s in range(state.seats)]
        best = max(homes)
        state.winners = [s for s in range(state.seats) if homes[s] == best]
        state.phase = "over"
        state.ended_by = why
        if state.current:  # ended mid-turn (D7): keep this turn for the last picture
            state.last, state.current = state.current, []
        events.append(self._summary(state))

    def _summary(self, state: ZvvState) -> Event:
        if state.ended_by == "win":
            return Event("zvv.event.won", {"seat": state.winners[0]})
        best = max(_home_count(state, s) for s in range(state.seats))
        args = {"seats": list(state.winners), "home": best}
        if state.ended_by == "limit":
            return Event("zvv.event.round_limit", {"rounds": state.options["round_limit"], **args})
        return Event("zvv.event.all_locked", args)

    def _end_turn(self, state: ZvvState, events: list[Event]) -> None:
        seat = state.turn
        state.face = ""
        state.wall_len = 0
        state.moved = -1
        if (
            state.options["extra_roll"] == "bonus"
            and not state.bonus_used
            and _home_count(state, seat) > 0
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
            self._finish_by_count(state, "limit", events)
            return
        state.turn = (seat + 1) % state.seats
        state.phase = "roll"

    # ----------------------------------------------------------------- validation

    def _check_phase(self, state: ZvvState, seat: int, kind: str) -> None:
        """Raise the error for doing an action of ``kind`` (= its command name) now, whatever
        its arguments: the game is over, not your turn, or not what your roll allows."""
        if state.phase == "over":
            raise RulesError("core.error.game_over")
        if seat != state.turn:
            raise RulesError("core.error.not_your_turn")
        phase = state.phase
        face = {"face_key": _face_key(state.face)} if state.face else {}
        if kind == "roll":
            if phase not in ("roll", "plusminus"):
                raise RulesError("zvv.error.already_rolled", **face)
        elif kind == "reroll":
            if not _may_reroll(state):
                raise RulesError("zvv.error.no_reroll")
        elif kind == "stop":
            if phase != "split_more":
                raise RulesError("zvv.error.cannot_stop")
        elif kind == "pass":
            if phase != "pass":
                raise RulesError("zvv.error.cannot_pass")
        elif phase == "roll":
            raise RulesError("zvv.error.roll_first")
        elif phase == "pass" and kind in ("move", "build", "remove"):
            # Say why the roll allows nothing, not "your roll is Build: it does not build a
            # wall" (that contradicts itself).
            raise _why_pass(state)
        elif kind == "move":
            if phase not in MOVE_PHASES:
                raise RulesError("zvv.error.not_a_move", **face)
        elif kind == "build":
            if phase == "plusminus":
                raise RulesError("zvv.error.roll_wall_die")
            if phase != "build":
                raise RulesError("zvv.error.not_a_build", **face)
        elif kind == "remove":
            if phase == "build" and state.face == "plusminus":
                # ± went to building: the wall die was rolled, or the board had no wall.
                why = "chose_build" if state.walls else "nothing_to_remove"
                raise RulesError(f"zvv.error.{why}", length=state.wall_len)
            if phase != "plusminus":
                raise RulesError("zvv.error.not_a_remove", **face)
        else:
            raise RulesError("core.error.bad_action")

    def check(self, state: ZvvState, seat: int, action: Action) -> None:
        """Raise the specific RulesError that makes ``action`` illegal (nothing is changed)."""
        self._check_phase(state, seat, action.kind)
        b = board(state.size)
        if isinstance(action, Move):
            start = _square(b, action.pawn, strict=True)
            dest = _square(b, action.to, strict=True)
            owner = _owner(state, start)
            if owner is None:
                raise RulesError("zvv.error.no_pawn", square=b.names[start])
            if owner != seat:
                raise RulesError("zvv.error.not_your_pawn", square=b.names[start], owner_seat=owner)
            if start in b.zone_squares(OPPOSITE_CORNER[START_CORNERS[seat]]):
                raise RulesError("zvv.error.pawn_home", square=b.names[start])
            if state.phase == "split_more" and start == state.moved:
                raise RulesError("zvv.error.same_pawn", square=b.names[start])
            steps = _steps(state)
            if dest not in _reach_one(state, seat, start, steps):
                raise RulesError(
                    "zvv.error.out_of_reach", square=b.names[dest], pawn=b.names[start], steps=steps
                )
        elif isinstance(action, Build):
            wall = _wall_text(b, action.wall)
            self._check_wall(state, b, wall)
            if b.wall_name(wall) != action.wall:
                # Actions carry the one canonical name (``parse`` reads every other way of
                # writing a wall), so the legal actions are exactly what ``play`` accepts.
                raise RulesError("zvv.error.bad_wall", wall=str(action.wall)[:20])
        elif isinstance(action, Remove):
            found = _find_wall(state, action.wall)
            if found is None or b.wall_name(found) != action.wall:
                raise RulesError("zvv.error.no_wall", wall=_wall_text_name(b, action.wall))

    def _check_wall(self, state: ZvvState, b: Board, wall: Wall) -> None:
        name = b.wall_name(wall)
        if wall[3] != state.wall_len:
            raise RulesError("zvv.error.wall_length", wall=name, length=state.wall_len)
        if state.supply[wall[3] - 1] <= 0:
            raise RulesError("zvv.error.no_supply", length=wall[3])
        if b.in_zone(wall):
            raise RulesError("zvv.error.wall_in_zone", wall=name)
        for sq, side in b.wall_edges(wall):
            if state.wallmask[sq] >> side & 1:
                raise RulesError("zvv.error.wall_overlap", wall=name)
        if any(p in state.points for p in b.wall_points(wall)):
            raise RulesError("zvv.error.wall_cross", wall=name)

    # ----------------------------------------------------------------- commands

    def to_command(self, action: Action) -> tuple[str, CommandArgs] | None:
        if isinstance(action, Move):
            return "move", {"pawn": action.pawn, "to": action.to}
        if isinstance(action, Build):
            return "build", _build_args(action.wall)
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
                named = _build_args(wall.split(" (", 1)[0])
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
        b = board(state.size)
        if command == "move":
            if "pawn" not in given:
                raise RulesError("zvv.error.no_pawn_given")
            pawn = _square(b, given["pawn"])
            if "to" not in given:
                raise RulesError("zvv.error.no_destination", square=b.names[pawn])
            dest = _square(b, given["to"])
            return Move(b.names[pawn], b.names[dest])
        if command == "build":
            return self._build_from_args(state, given)
        if command == "remove":
            return self._remove_from_args(state, given)
        return {"roll": Roll(), "stop": Stop(), "pass": Pass(), "reroll": Reroll()}[command]

    def _build_from_args(self, state: ZvvState, given: dict[str, str]) -> Action:
        b = board(state.size)
        if "square" not in given:
            raise RulesError("zvv.error.no_wall_square")
        sq = _square(b, given["square"])
        side = side_letter(given.get("side", ""))
        if not side:
            raise RulesError("zvv.error.bad_side", side=given.get("side", "")[:20])
        direction = side_letter(given.get("direction", "")) or None
        length = state.wall_len
        if length > 1:
            wanted = ("E", "W") if side in "NS" else ("N", "S")
            if direction not in wanted:
                raise RulesError(
                    "zvv.error.bad_direction", side=side, choices=" / ".join(wanted), length=length
                )
        wall = b.wall_from(sq, side, direction, length)
        if wall is None:
            raise _off_board(b, sq, side, direction or "", length)
        return Build(b.wall_name(wall))

    def _remove_from_args(self, state: ZvvState, given: dict[str, str]) -> Action:
        """The wall named by ``wall`` (``C3-E3 N``, ``c3 oeste``…), or by ``wall`` + ``side``
        (``G9`` + ``E``): the same squares and sides ``build`` reads."""
        b = board(state.size)
        text = " ".join(v for v in (given.get("wall", ""), given.get("side", "")) if v)
        _wall_text(b, text)  # a malformed name or side says so, not "no such wall"
        wall = _find_wall(state, text)
        if wall is None:
            raise RulesError("zvv.error.no_wall", wall=_wall_text_name(b, text))
        return Remove(b.wall_name(wall))

    def suggestions(
        self, state: ZvvState, seat: int, command: str, param: str, args: CommandArgs
    ) -> list[str]:
        """Autocomplete: the pawns that can move and the squares the chosen one reaches; for
        walls, the squares, sides and directions that make a legal wall of the rolled length."""
        if seat != state.turn or state.phase == "over":
            return []
        b = board(state.size)
        filled = {k: str(v).strip() for k, v in args.items() if v not in (None, "") and k != param}
        if command == "move" and state.phase in MOVE_PHASES:
            if param == "pawn":
                return [b.names[sq] for sq in _movable(state, seat) if sq != _excluded(state)]
            if param == "to":
                start = b.square(filled.get("pawn", ""))
                if start is None or start not in _movable_set(state, seat):
                    return []
                return [b.names[sq] for sq in _goalward(state, seat, start)]
            return []
        if command == "build" and state.phase == "build":
            options = _build_options(state)
            sq = b.square(filled.get("square", ""))
            side = side_letter(filled.get("side", ""))
            if param == "square":
                return list(dict.fromkeys(b.names[s] for s, _, _ in options))
            if param == "side":
                return list(dict.fromkeys(sd for s, sd, _ in options if sq is None or s == sq))
            if param == "direction":
                return list(
                    dict.fromkeys(
                        d
                        for s, sd, d in options
                        if d and (sq is None or s == sq) and (not side or sd == side)
                    )
                )
            return []
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
        scores = {s: _home_count(state, s) for s in range(state.seats)}
        # No summary: the move that ends the game already narrates the end (``_summary`` is
        # appended to its events), and the service prints a result's summary after those events,
        # so a summary here printed "… wins!" twice in the channel.
        return Result(tuple(state.winners), scores, None)

    # ----------------------------------------------------------------- persistence

    def dump(self, state: ZvvState) -> dict[str, Any]:
        return {
            "schema": state.schema,
            "size": state.size,
            "seats": state.seats,
            "options": dict(state.options),
            "pawns": [list(p) for p in state.pawns],
            "walls": [list(w) for w in state.walls],
            "supply": list(state.supply),
            "turn": state.turn,
            "turns": state.turns,
            "phase": state.phase,
            "face": state.face,
            "wall_len": state.wall_len,
            "moved": state.moved,
            "bonus_used": state.bonus_used,
            "current": [_copy_entry(e) for e in state.current],
            "last": [_copy_entry(e) for e in state.last],
            "locked": list(state.locked),
            "winners": list(state.winners),
            "ended_by": state.ended_by,
            "rng": state.rng,
            "actions": state.actions,
        }

    def load(self, data: dict[str, Any]) -> ZvvState:
        state = ZvvState(
            schema=int(data.get("schema", SCHEMA)),
            size=int(data["size"]),
            seats=int(data["seats"]),
            options=dict(data["options"]),
            pawns=[list(p) for p in data["pawns"]],
            walls=[(str(w[0]), int(w[1]), int(w[2]), int(w[3])) for w in data["walls"]],
            supply=list(data["supply"]),
            turn=int(data["turn"]),
            turns=int(data["turns"]),
            phase=str(data["phase"]),
            face=str(data["face"]),
            wall_len=int(data["wall_len"]),
            moved=int(data["moved"]),
            bonus_used=bool(data["bonus_used"]),
            current=[_copy_entry(e) for e in data["current"]],
            last=[_copy_entry(e) for e in data["last"]],
            locked=[int(s) for s in data["locked"]],
            winners=list(data["winners"]),
            ended_by=str(data["ended_by"]),
            rng=int(data["rng"]),
            actions=int(data["actions"]),
        )
        _derive(state)
        return state

    def copy(self, state: ZvvState) -> ZvvState:
        # A hand copy: ~10× faster than the JSON round trip, and ``apply`` copies every time.
        return ZvvState(
            schema=state.schema,
            size=state.size,
            seats=state.seats,
            options=dict(state.options),
            pawns=[list(p) for p in state.pawns],
            walls=list(state.walls),
            supply=list(state.supply),
            turn=state.turn,
            turns=state.turns,
            phase=state.phase,
            face=state.face,
            wall_len=state.wall_len,
            moved=state.moved,
            bonus_used=state.bonus_used,
            current=[_copy_entry(e) for e in state.current],
            last=[_copy_entry(e) for e in state.last],
            locked=list(state.locked),
            winners=list(state.winners),
            ended_by=state.ended_by,
            rng=state.rng,
            actions=state.actions,
            wallmask=list(state.wallmask),
            points=set(state.points),
            taken=set(state.taken),
        )

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
            "home": [_home_count(state, s) for s in range(state.seats)],
            "walls": [b.wall_name(w) for w in state.walls],
            "wall_segments": [list(w) for w in state.walls],
            "supply": list(state.supply),
            "turn": state.turn,
            "phase": state.phase,
            "face": state.face,
            "wall_len": state.wall_len,
            "steps": _steps(state) if state.phase in MOVE_PHASES else 0,
            "round": _round(state),
            "round_limit": state.options["round_limit"],
            "current": [_copy_entry(e) for e in state.current],
            "last": [_copy_entry(e) for e in state.last],
            "locked": list(state.locked),
            "winners": list(state.winners),
            "ended_by": state.ended_by,
            "options": dict(state.options),
            # Where the roll lets the seat to act go (players counted squares by
            # hand): every square one of its pawns can reach now, in a move phase; else empty.
            "reach": _reach_names(state),
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


# --------------------------------------------------------------------- helpers


def _derive(state: ZvvState) -> None:
    b = board(state.size)
    state.wallmask = [0] * (b.size * b.size)
    state.points = set()
    state.taken = set()
    for wall in state.walls:
        for sq, side in b.wall_edges(wall):
            state.wallmask[sq] |= 1 << side
        state.points.update(b.wall_points(wall))
        state.taken.update(_ids(b, wall))


def _add_wall(state: ZvvState, wall: Wall) -> None:
    b = board(state.size)
    state.walls.append(wall)
    for sq, side in b.wall_edges(wall):
        state.wallmask[sq] |= 1 << side
    state.points.update(b.wall_points(wall))
    state.taken.update(_ids(b, wall))


def _remove_wall(state: ZvvState, wall: Wall) -> None:
    b = board(state.size)
    state.walls.remove(wall)
    for sq, side in b.wall_edges(wall):
        state.wallmask[sq] &= ~(1 << side)
    state.points.difference_update(b.wall_points(wall))
    state.taken.difference_update(_ids(b, wall))


def _round(state: ZvvState) -> int:
    """The round in play (1-based); the last one once the game is over."""
    played = state.turns // state.seats + 1
    if state.ended_by == "limit":  # the limit ends a game after its last turn is counted
        played -= 1
    return max(1, played)


def _copy_entry(entry: dict[str, Any]) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, list) else v for k, v in entry.items()}


def _face_key(face: str) -> str:
    return f"zvv.face.{face}"


def _steps(state: ZvvState) -> int:
    if state.phase == "split_more":
        return 1
    if state.face == "split":
        return 2
    return int(state.face) if state.face in ("2", "4", "6") else 0


def _occupied(state: ZvvState) -> bytearray:
    occ = bytearray(state.size * state.size)
    for seat, pawns in enumerate(state.pawns):
        for sq in pawns:
            occ[sq] = seat + 1
    return occ


def _target(state: ZvvState, seat: int) -> frozenset[int]:
    return board(state.size).zone_squares(OPPOSITE_CORNER[START_CORNERS[seat]])


def _home_count(state: ZvvState, seat: int) -> int:
    target = _target(state, seat)
    return sum(1 for sq in state.pawns[seat] if sq in target)


def _excluded(state: ZvvState) -> int:
    """The pawn 2* already moved (it may not take the second step too)."""
    return state.moved if state.phase == "split_more" else -1


def _movable(state: ZvvState, seat: int) -> list[int]:
    """The seat's pawns not yet home that have at least one step, in pawn order."""
    b = board(state.size)
    occ = _occupied(state)
    target = _target(state, seat)
    skip = _excluded(state)
    return [
        sq
        for sq in state.pawns[seat]
        if sq not in target and sq != skip and can_step(b, occ, state.wallmask, sq)
    ]


def _movable_set(state: ZvvState, seat: int) -> set[int]:
    return set(_movable(state, seat))


def _reaches(state: ZvvState, seat: int) -> list[tuple[int, dict[int, int]]]:
    """For each of the seat's pawns that may move now: (its square, reach parents)."""
    memo = _memo(state)
    key = f"reaches{seat}"
    if key not in memo:
        memo[key] = _compute_reaches(state, seat)
    cached: list[tuple[int, dict[int, int]]] = memo[key]
    return cached


def _compute_reaches(state: ZvvState, seat: int) -> list[tuple[int, dict[int, int]]]:
    b = board(state.size)
    occ = _occupied(state)
    target = _target(state, seat)
    steps = _steps(state)
    skip = _excluded(state)
    out = []
    for sq in state.pawns[seat]:
        if sq in target or sq == skip:
            continue
        parent = reach(b, occ, state.wallmask, sq, steps, target)
        if parent:
            out.append((sq, parent))
    return out


def _reach_one(state: ZvvState, seat: int, start: int, steps: int) -> dict[int, int]:
    memo = _memo(state)
    if f"reaches{seat}" in memo and steps == _steps(state):
        for sq, parent in memo[f"reaches{seat}"]:
            if sq == start:
                found: dict[int, int] = parent
                return found
    b = board(state.size)
    return reach(b, _occupied(state), state.wallmask, start, steps, _target(state, seat))


def _greedy_move(state: ZvvState) -> Move | None:
    """An AFK player's move: a pawn arrives if it can (on the deepest square, so the zone fills
    from the back and no square gets shut in), else the move that most shortens a pawn's walk to
    a free square of its target zone. In the 2* second step, ``None`` when no step helps (the
    default then stops)."""
    seat = state.turn
    b = board(state.size)
    corner = OPPOSITE_CORNER[START_CORNERS[seat]]
    target = _target(state, seat)
    dist = _walk_distances(state, seat)
    best: tuple[int, int, int] | None = None
    best_move: Move | None = None
    for start, parent in _reaches(state, seat):
        before = dist[start]
        for dest in parent:
            if dest in target:
                score = (1, -b.distance_to_corner(dest, corner), 0)
            else:
                score = (0, before - dist[dest], before)
            if best is None or score > best:
                best, best_move = score, Move(b.names[start], b.names[dest])
    if state.phase == "split_more" and (best is None or best[:2] <= (0, 0)):
        return None
    return best_move


def _goalward(state: ZvvState, seat: int, start: int) -> list[int]:
    """Every square the pawn on ``start`` reaches, the most useful first: home squares (the
    deepest first, as the zone fills from the back), then the fewest steps left to a free home
    square, then the farthest move. All of them: the service filters what the player typed
    before it keeps 25 (the nearest 25 hid the far squares players wanted)."""
    b = board(state.size)
    corner = OPPOSITE_CORNER[START_CORNERS[seat]]
    target = _target(state, seat)
    dist = _walk_distances(state, seat)
    parent = _reach_one(state, seat, start, _steps(state))

    def usefulness(sq: int) -> tuple[int, int, int, int]:
        if sq in target:
            return (0, b.distance_to_corner(sq, corner), 0, sq)
        return (1, dist[sq], -len(path_to(parent, start, sq)), sq)

    return sorted(parent, key=usefulness)


def _reach_names(state: ZvvState) -> list[str]:
    if state.phase not in MOVE_PHASES:
        return []
    b = board(state.size)
    squares = {sq for _, parent in _reaches(state, state.turn) for sq in parent}
    return [b.names[sq] for sq in sorted(squares)]


def _walk_distances(state: ZvvState, seat: int) -> list[int]:
    """Steps from every square to the nearest free square of the seat's target zone, going
    round walls (pawns ignored: they move)."""
    b = board(state.size)
    target = _target(state, seat)
    far = 4 * state.size * state.size
    dist = [far] * (state.size * state.size)
    home = set(state.pawns[seat])
    frontier = [sq for sq in target if sq not in home]
    for sq in frontier:
        dist[sq] = 0
    walls = state.wallmask
    while frontier:
        nxt = []
        for sq in frontier:
            for d in range(4):
                n1 = b.neighbour[d][sq]
                if n1 >= 0 and not walls[sq] >> d & 1 and dist[n1] > dist[sq] + 1:
                    dist[n1] = dist[sq] + 1
                    nxt.append(n1)
        frontier = nxt
    return dist


def _free_placements(state: ZvvState) -> list[tuple[Wall, tuple[int, ...], Build]]:
    if state.wall_len < 1 or state.supply[state.wall_len - 1] <= 0:
        return []
    taken = state.taken
    return [p for p in _placements(board(state.size), state.wall_len) if taken.isdisjoint(p[1])]


def _legal_walls(state: ZvvState) -> list[Wall]:
    """Every wall of the rolled length that may be built now."""
    return [p[0] for p in _free_placements(state)]


def _legal_builds(state: ZvvState) -> list[Build]:
    return [p[2] for p in _free_placements(state)]


def _memo(state: ZvvState) -> dict[str, Any]:
    """The state's memo, emptied when the position changed since it was filled.

    The key is the whole position that legal actions depend on, not a counter, so that code
    which edits a state by hand (tests, the notation helper) never reads a stale memo."""
    key = (
        state.phase,
        state.face,
        state.wall_len,
        state.turn,
        state.moved,
        state.bonus_used,
        tuple(map(tuple, state.pawns)),
        tuple(state.walls),
        tuple(state.supply),
        state.options.get("extra_roll"),
    )
    memo = state.memo
    if memo.get("key") != key:
        memo.clear()
        memo["key"] = key
    return memo


def _build_options(state: ZvvState) -> list[tuple[int, str, str]]:
    """Every (square, side, direction) that names a legal wall now: the same wall can be named
    from either side and from either end, and autocomplete should accept them all."""
    b = board(state.size)
    n = b.size
    out: list[tuple[int, str, str]] = []
    for wall in _legal_walls(state):
        orient, line, start, length = wall
        ends = (start, start + length - 1)
        if orient == "h":
            for side, row in (("N", line), ("S", line - 1)):
                out.append((row * n + ends[0], side, "E" if length > 1 else ""))
                if length > 1:
                    out.append((row * n + ends[1], side, "W"))
        else:
            for side, col in (("W", line), ("E", line - 1)):
                out.append((ends[0] * n + col, side, "S" if length > 1 else ""))
                if length > 1:
                    out.append((ends[1] * n + col, side, "N"))
    out.sort(key=lambda o: (o[0], SIDES.index(o[1])))
    return out


def _build_args(name: str) -> CommandArgs:
    """``C3-E3 N`` → square C3, side N, direction E (length 1: no direction)."""
    squares, side = name.rsplit(" ", 1)
    first, _, last = squares.partition("-")
    args: CommandArgs = {"square": first, "side": side}
    if last:
        args["direction"] = "E" if side in "NS" else "S"
    return args


def _square(b: Board, text: str, strict: bool = False) -> int:
    """The square named ``text``; ``strict``: only its canonical name (in actions)."""
    sq = b.square(str(text))
    if sq is None or (strict and b.names[sq] != text):
        raise RulesError("zvv.error.bad_square", square=str(text)[:20], last=b.names[-1])
    return sq


def _off_board(b: Board, sq: int, side: str, direction: str, length: int) -> RulesError:
    """Why the wall typed as square, side and direction is not on the board: it lies along the
    board's edge (a side of an edge square facing out), or it runs past the last square."""
    r, c = divmod(sq, b.size)
    last = b.size - 1
    args: dict[str, Any] = {"square": b.names[sq], "side_key": f"zvv.side.{side}"}
    if (side, r) in (("N", 0), ("S", last)) or (side, c) in (("W", 0), ("E", last)):
        return RulesError("zvv.error.wall_on_edge", **args)
    return RulesError(
        "zvv.error.wall_runs_off", length=length, direction_key=f"zvv.side.{direction}", **args
    )


def _owner(state: ZvvState, sq: int) -> int | None:
    for seat, pawns in enumerate(state.pawns):
        if sq in pawns:
            return seat
    return None


def _wall_text(b: Board, text: str) -> Wall:
    """Read a wall name for building: malformed is ``bad_wall``, outside the inner lines is
    ``wall_off_board``."""
    from rules.zvv.board import _WALL_RE

    match = _WALL_RE.match(str(text))
    if not match:
        raise RulesError("zvv.error.bad_wall", wall=str(text)[:20])
    if not side_letter(match.group(5)):
        raise RulesError("zvv.error.bad_side", side=match.group(5)[:20])
    wall = b.parse_wall(str(text))
    if wall is None:
        raise RulesError("zvv.error.wall_off_board", wall=str(text)[:20].upper())
    return wall


def _wall_text_name(b: Board, text: str) -> str:
    wall = b.parse_wall(str(text))
    return b.wall_name(wall) if wall else str(text)[:20].upper()


def _find_wall(state: ZvvState, text: str) -> Wall | None:
    """The wall on the board named by ``text``: its exact name, or any one unit edge of it
    (``D3 N`` picks the wall ``C3-E3 N``), from either side."""
    b = board(state.size)
    wall = b.parse_wall(str(text))
    if wall is None:
        return None
    if wall in state.walls:
        return wall
    if wall[3] == 1:
        orient, line, start, _ = wall
        for w in state.walls:
            if w[0] == orient and w[1] == line and w[2] <= start < w[2] + w[3]:
                return w
    return None


def _why_pass(state: ZvvState) -> RulesError:
    """Why the roll in phase ``pass`` allows nothing: no pawn moves, no wall of the rolled
    length is left in the supply, or none has a legal place."""
    if state.wall_len:
        if state.supply[state.wall_len - 1] <= 0:
            return RulesError("zvv.error.pass_no_supply", length=state.wall_len)
        return RulesError("zvv.error.pass_no_place", length=state.wall_len)
    return RulesError("zvv.error.pass_no_move", face_key=_face_key(state.face))


def _may_reroll(state: ZvvState) -> bool:
    """D5 house rule, "reroll" reading: once a pawn is home, once a turn you may roll the action
    die again instead of using the result."""
    return (
        state.options["extra_roll"] == "reroll"
        and state.phase in REROLL_PHASES
        and not state.bonus_used
        and _home_count(state, state.turn) > 0
    )


def _is_locked(state: ZvvState, seat: int) -> bool:
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
        home_zone = _target(state, s)
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
    target = _target(state, seat)
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
