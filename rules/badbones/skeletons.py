"""Skeleton movement on one board: phase 3, and the dragon's landing of phase 2 (D8).

A :class:`Resolver` works on one board. It never touches another board, the bag or a cemetery
directly: tokens leaving the board are collected (``out``, ``to_bag``) and delivered by the game
once every board has resolved. That is what lets a phase be resolved *again* from the start:
when the owner must choose something (D5) and has not answered yet, the resolver raises
:class:`NeedChoice`; the game records the question, and once the owner answers it replays the
board from the start of the phase with the answers given so far (the movement is deterministic,
so the replay reaches the same question and takes the answer). Nothing is committed until every
board has resolved without a question.

Order inside a board is canonical (D5: it changes no outcome in the basic game): skeletons on
the board by square, then the forest's newcomers.
"""

from __future__ import annotations

from typing import Any

from rules.badbones.board import (
    DIRS,
    EXIT_LEFT,
    EXIT_RIGHT,
    EXIT_TOP,
    Layout,
    model_name,
    square_name,
)
from rules.badbones.choices import (
    ASK,
    AUTO,
    default_repel,
    default_target,
    repel_options,
)
from rules.badbones.state import REST, Board, skel
from rules.badbones.traps import TRAPS, after_trigger, reflect


class NeedChoice(Exception):
    """The owner must answer ``question`` before this board can resolve."""

    def __init__(self, question: dict[str, Any]) -> None:
        super().__init__(question)
        self.question = question


class Resolver:
    """Resolves one board's phase (see the module docstring)."""

    def __init__(
        self,
        board: Board,
        seat: int,
        seats: int,
        layout: Layout,
        scores: list[int],
        answers: list[str],
    ) -> None:
        self.board = board
        self.seat = seat
        self.seats = seats
        self.layout = layout
        self.scores = scores  # everyone's points when the phase began (the target default)
        self.answers = answers
        self.cursor = 0
        self.out: list[tuple[int, int]] = []  # (cemetery seat, model)
        self.to_bag: list[int] = []
        self.triggered: set[int] = set()
        self.catapult_targets: dict[int, int] = {}
        # narration counters
        self.killed = 0
        self.floors_lost = 0
        self.houses_lost = 0
        self.lost = 0
        self.sent: dict[tuple[int, str], int] = {}
        self.changes: list[tuple[int, str, str]] = []  # (square, trap kind, what happened)
        self.treasures = [sq for sq, t in board.traps.items() if t[0] == "treasure"]

    # ----------------------------------------------------------------- owner choices (D5)

    def _choose(self, choice: str, options: list[str], auto: str, info: dict[str, Any]) -> str:
        pref = self.board.prefs.get(choice, ASK)
        if len(options) == 1:
            return options[0]
        if pref == AUTO:
            return auto
        if pref != ASK:
            return pref if pref in options else auto
        if self.cursor < len(self.answers):
            answer = self.answers[self.cursor]
            self.cursor += 1
            return answer if answer in options else auto
        raise NeedChoice(
            {"choice": choice, "index": self.cursor, "options": options, "default": auto, **info}
        )

    def _target(self, choice: str, square: int, model: int) -> int:
        if self.seats == 1:
            return self.seat
        opponents = [(self.seat + k) % self.seats for k in range(1, self.seats)]
        auto = default_target(self.seat, self.seats, self.scores)
        answer = self._choose(
            choice,
            [str(s + 1) for s in opponents],
            str(auto + 1),
            {
                "square": square_name(square) if square >= 0 else "",
                "model": model_name(model),
                "seats": opponents,
            },
        )
        return int(answer) - 1

    def _repel(self, square: int, model: int, facing: int) -> int:
        options = repel_options(self.layout, square)
        auto = default_repel(self.board, self.layout, square)
        answer = self._choose(
            "dragon",
            [DIRS[d] for d in options],
            DIRS[auto],
            {"square": square_name(square), "model": model_name(model), "facing": DIRS[facing]},
        )
        return DIRS.index(answer)

    # ----------------------------------------------------------------- one skeleton's move

    def move(
        self,
        model: int,
        target: int,
        d: int,
        visited: list[int] | None = None,
        rested: bool = False,
    ) -> None:
        """Move a skeleton of ``model`` facing ``d`` into ``target`` and apply everything that
        happens there, until it stops somewhere or leaves the board."""
        board = self.board
        layout = self.layout
        step = layout.step
        while True:
            if target < 0:
                self._leave(target, model)
                return
            if layout.is_tower[target]:
                # Even a hero standing on the tower does not protect it.
                if board.floors > 0:
                    board.floors -= 1
                    self.floors_lost += 1
                self.to_bag.append(model)
                return
            if target == board.hero:
                # The hero kills it; it neither triggers nor steals what lies under him.
                self.killed += 1
                self.to_bag.append(model)
                return
            trap = board.traps.get(target)
            if trap is not None:
                if visited is None:
                    visited = []
                elif target in visited:
                    # D6: entering the same trap twice in one move: lost in the maze.
                    self.lost += 1
                    self.to_bag.append(model)
                    return
                visited.append(target)
                kind = trap[0]
                if kind == "wall":
                    self.triggered.add(target)
                    d = reflect(d, trap[2])
                    target = step[target][d]
                    continue
                if kind == "catapult":
                    self.triggered.add(target)
                    if target not in self.catapult_targets:
                        # D10: one opponent for everything this catapult throws this phase.
                        self.catapult_targets[target] = self._target("catapult", target, model)
                    self._send(self.catapult_targets[target], model, "catapult")
                    return
                if kind == "dragon":
                    self.triggered.add(target)
                    d = self._repel(target, model, d)
                    target = step[target][d]
                    continue
                # The treasure (a tile one stands on): its art covers the printed arrow.
                if TRAPS[kind].shows_arrow:
                    d = self._arrow(target, d)
            else:
                d = self._arrow(target, d)
            self._land(target, model, d, rested)
            return

    def _arrow(self, square: int, d: int) -> int:
        """A printed arrow turns a skeleton entering across it (perpendicular) to face it."""
        arrow = self.layout.arrow[square]
        if arrow >= 0 and (arrow - d) & 1:
            return arrow
        return d

    def _land(self, square: int, model: int, d: int, rested: bool) -> None:
        # The treasure's allure outweighs arrows and every other effect.
        if self.treasures:
            steps = self.layout.step[square]
            for td in range(4):
                if steps[td] in self.treasures:
                    d = td
                    break
        self.board.skeletons.append(skel(square, model, d, rested))

    def _leave(self, exit_: int, model: int) -> None:
        if exit_ == EXIT_LEFT:
            self._send((self.seat - 1) % self.seats, model, "left")
        elif exit_ == EXIT_RIGHT:
            self._send((self.seat + 1) % self.seats, model, "right")
        elif exit_ == EXIT_TOP:
            self._send(self._target("top", -1, model), model, "top")
        else:  # the village: one house burns, the skeleton returns to the bag
            if self.board.houses > 0:
                self.board.houses -= 1
                self.houses_lost += 1
            self.to_bag.append(model)

    def _send(self, seat: int, model: int, way: str) -> None:
        self.out.append((seat, model))
        self.sent[(seat, way)] = self.sent.get((seat, way), 0) + 1

    # ----------------------------------------------------------------- phases

    def skeleton_phase(self) -> None:
        """Phase 3: every skeleton not yet moved this round advances, then the forest's."""
        board = self.board
        step = self.layout.step
        movers = sorted(c for c in board.skeletons if not c & REST)
        board.skeletons = [c for c in board.skeletons if c & REST]
        for code in movers:
            square, model, facing = code >> 12, (code >> 2) & 15, code & 3
            self.move(model, step[square][facing], facing)
        forest = sorted(board.forest)
        board.forest = []
        for model in forest:
            square, d = self.layout.entries[model]
            self.move(model, square, d)
        board.skeletons = [c & ~REST for c in board.skeletons]
        self.after_phase()
        self._steal_treasures()

    def place(self, kind: str, square: int, orientation: str) -> None:
        """Phase 2: put a tile from the supply on the board (already validated)."""
        board = self.board
        board.supply.remove(kind)
        here = board.on(square)
        if here and TRAPS[kind].lands_on_skeletons:
            # D8: the dragon lands on skeletons, is damaged at once, and they flee (D7); they
            # count as moved this round.
            board.traps[square] = (kind, 1, orientation)
            board.skeletons = [c for c in board.skeletons if c >> 12 != square]
            for code in sorted(here):
                model, facing = (code >> 2) & 15, code & 3
                d = self._repel(square, model, facing)
                self.move(model, self.layout.step[square][d], d, [square], rested=True)
            self.landed = len(here)
        else:
            board.traps[square] = (kind, 0, orientation)
        if kind == "treasure":
            self.treasures.append(square)
            # Every skeleton orthogonally adjacent turns toward the treasure at once.
            step = self.layout.step
            turned = []
            for c in board.skeletons:
                sq = c >> 12
                for td in range(4):
                    if step[sq][td] == square:
                        c = (c & ~3) | td
                        break
                turned.append(c)
            board.skeletons = turned
        self.after_phase()

    landed = 0

    def retrieve(self, square: int) -> None:
        kind = self.board.traps.pop(square)[0]
        self.board.supply.append(kind)

    def after_phase(self) -> None:
        """D9: triggered traps change side (or are destroyed) once the phase is over."""
        for square in sorted(self.triggered):
            trap = self.board.traps[square]
            after = after_trigger(trap)
            if after is None:
                del self.board.traps[square]
                self.changes.append((square, trap[0], "destroyed"))
            elif after != trap:
                self.board.traps[square] = after
                self.changes.append((square, trap[0], "damaged"))
        self.triggered = set()

    def _steal_treasures(self) -> None:
        board = self.board
        for square in self.treasures:
            if board.traps.get(square, ("",))[0] != "treasure" or board.hero == square:
                continue
            if any(c >> 12 == square for c in board.skeletons):
                # Stolen: removed from the game; the thieves stay without being turned.
                del board.traps[square]
                self.changes.append((square, "treasure", "stolen"))
