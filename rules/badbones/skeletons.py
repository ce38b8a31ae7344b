"""Skeleton movement on one board: phase 3, and the landings of phase 2 (D8, the bomb).

A :class:`Resolver` works on one board. It never touches another board, the bag or a cemetery
directly: tokens leaving the board are collected (``out``, ``to_bag``, ``removed``) and delivered
by the game once every board has resolved. That is what lets a phase be resolved *again* from
the start: when the owner must choose something (D5) and has not answered yet, the resolver
raises :class:`NeedChoice`; the game records the question, and once the owner answers it replays
the board from the start of the phase with the answers given so far (the movement is
deterministic, so the replay reaches the same question and takes the answer). Nothing is
committed until every board has resolved without a question.

Order inside a board is canonical (D5: it changes no outcome): skeletons on the board by square,
then the forest's newcomers. Skeletons move as *units*: one token, or (skeleton chiefs) a chief
instructor with everything that stood on its square, all facing its way; every effect applies to
the unit as a whole. Those still to move (``unmoved``) stand on the board too: a weapon
triggered during the phase (D20, :mod:`rules.badbones.weapons`) acts on them as well.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from rules.badbones import weapons
from rules.badbones.board import (
    DIRS,
    EXIT_LEFT,
    EXIT_RIGHT,
    EXIT_TOP,
    RUIN_ARROW,
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
from rules.badbones.hero import WEAPON_KILLS
from rules.badbones.state import (
    BadBonesState,
    Board,
    Skeleton,
    Token,
    skeleton_order,
    token_order,
)
from rules.badbones.traps import TRAPS, WHITE, Trap, after_trigger, reflect
from rules.core import Event

AUTO_MARK = "~"  # a recorded decision "always decide for me" took: ``dragon~=N``
FOREST_ORIGIN = -1  # a move that started in a forest
NO_ORIGIN = -2  # a move with no square to stay on (fleeing a landing dragon)


def way_on(
    layout: Layout,
    ruins: Collection[int],
    treasures: Collection[int],
    square: int,
    facing: int,
    arrow: bool = True,
) -> int:
    """The way a skeleton goes on from ``square``, where its move ended, having walked in
    facing ``facing``. Next to a treasure it turns toward it: the treasure's allure outweighs
    the arrows and every other effect (rulebook). Otherwise the square's arrow turns one that
    walked in across it to face the arrow; one walking along it or against it keeps its way
    (rules file, section 1). The arrow is the printed one, or on a tower's ruins the ruins'
    arrow, north (section 5: the cooperative side prints no other, so the two never share a
    square); ``arrow`` is false where a tile one stands on hides it. The engine's walk and
    ``hard``'s look ahead (``heading``, ``rules/badbones/search.py``) both turn skeletons here."""
    steps = layout.step[square]
    for lure in range(4):
        if steps[lure] in treasures:
            return lure
    if not arrow:
        return facing
    way = layout.arrow[square]
    if way < 0 and square in ruins:
        way = RUIN_ARROW
    if way >= 0 and (way - facing) & 1:
        return way
    return facing


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
        round_: int = 1,
        coop: bool = False,
    ) -> None:
        self.board = board
        self.seat = seat
        self.seats = seats
        self.layout = layout
        self.scores = scores  # everyone's points when the phase began (the target default)
        self.answers = answers
        self.round = round_
        self.coop = coop
        self.max_floors = 1 if seats == 1 else 4
        self.max_houses = 1 if seats == 1 else 5
        self.cursor = 0
        self.out: list[tuple[int, Token]] = []  # (cemetery seat, token)
        self.to_bag: list[Token] = []
        self.removed: list[Token] = []  # tokens out of the game (a killed emperor)
        self.hearses: list[int] = []  # seats whose supply receives a hearse (-1: destroyed)
        self.capital = 0  # cooperative: change to the capital's houses
        self.emperor = False  # the emperor reached a tower or the village: this board lost
        self.triggered: set[int] = set()
        self.sabotaged: set[int] = set()
        self.saboteurs: set[int] = set()  # chief ids of saboteurs that triggered a trap
        self.catapult_targets: dict[int, int] = {}
        # Every decision of this phase in order (``kind=value``), and those "always decide for
        # me" took (kind, value, the question it answered), for the channel.
        self.decisions: list[str] = []
        self.decided: list[tuple[str, str, dict[str, Any]]] = []
        # narration counters
        self.killed = 0
        self.hero_kills: list[Token] = []  # what the hero killed this phase that went to the bag
        # Skeletons that move together (one square, one direction: a stack; or the newcomers of
        # one entry) reach the hero at once: kills are counted per group (weapons, D20).
        self.group: tuple[int, int] = (-9, 0)
        self.group_kills: dict[tuple[int, int], int] = {}
        self.group_bagged: dict[tuple[int, int], list[Token]] = {}
        self.armed: set[tuple[int, int]] = set()  # groups that triggered the weapon
        self.weapon_events: list[Event] = []  # what the weapon did this phase, for the channel
        self.floors_lost = 0
        self.floors_rebuilt = 0
        self.houses_lost = 0
        self.houses_rebuilt = 0
        self.lost = 0
        self.blown = 0
        self.held = 0
        self.hero_died = False
        self.sent: dict[tuple[int, str], int] = {}
        self.changes: list[tuple[int, str, str]] = []  # (square, trap kind, what happened)
        self.treasures = [sq for sq, t in board.traps.items() if t.kind == "treasure"]
        # Where everything stands while a question waits (``moment``): what has not moved yet,
        # and the unit in mid-move (square, tokens, facing) on the trap that asks.
        self.unmoved: list[Skeleton] = []  # phase 3: still to move, in D5's order
        self.unmoved_forest: list[Token] = []
        self.moving: tuple[int, list[Token], int] | None = None

    # ----------------------------------------------------------------- owner choices (D5)

    def _choose(self, choice: str, options: list[str], auto: str, info: dict[str, Any]) -> str:
        """The owner's decision (D5). A decision given for this very moment comes first: an
        answer (tagged with its kind, ``kind=value``), or a decision recorded when the owner
        changed a preference in the middle of the phase (:func:`decisions`), so the decisions
        made so far stand and the new preference applies from now on. Then the preference:
        ``auto`` ("always decide for me") takes the default and says so, a seat or direction is
        used where it fits; ``ask`` stops the board with a question."""
        if len(options) == 1:
            return options[0]
        pref = self.board.prefs.get(choice, ASK)
        if self.cursor < len(self.answers):
            kind, tagged, value = self.answers[self.cursor].rpartition("=")
            # An untagged answer (a game saved before answers had kinds) only ever answered a
            # question, as it did then. ``kind~``: what "always decide for me" chose.
            if kind.rstrip(AUTO_MARK) == choice or (not tagged and pref == ASK):
                self.cursor += 1
                self.decisions.append(f"{kind or choice}={value}")
                if kind.endswith(AUTO_MARK):
                    self.decided.append((choice, value, info))
                return value
        if pref == AUTO:
            self.decisions.append(f"{choice}{AUTO_MARK}={auto}")
            self.decided.append((choice, auto, info))
            return auto
        if pref != ASK:
            # A standing preference was set before this question existed: it may not fit.
            value = pref if pref in options else auto
            self.decisions.append(f"{choice}={value}")
            return value
        raise NeedChoice(
            {"choice": choice, "index": self.cursor, "options": options, "default": auto, **info}
        )

    def _target(self, choice: str, square: int, token: Token, **info: Any) -> int:
        """Which opponent receives what leaves the board (``choice``: top, catapult, hearse).
        The question names the skeleton: its model and chief kind, the trap's square (the
        square it leaves from, for an exit) and ``info`` (where it came from, how many)."""
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
                "model": model_name(token.model),
                "chief": token.kind,
                "seats": opponents,
                **info,
            },
        )
        return int(answer) - 1

    def _repel(self, square: int, token: Token, facing: int, came_from: int) -> int:
        """Which way the skeleton ``token`` flees the dragon on ``square``. The question says
        which skeleton it is: its model and chief kind, the square it came from (``came_from``:
        a square, ``FOREST_ORIGIN``, or ``NO_ORIGIN`` when the dragon landed on it) and the
        way it faced."""
        options = repel_options(self.layout, square)
        auto = default_repel(self.board, self.layout, square)
        answer = self._choose(
            "dragon",
            [DIRS[d] for d in options],
            DIRS[auto],
            {
                "square": square_name(square),
                "model": model_name(token.model),
                "chief": token.kind,
                "facing": DIRS[facing],
                **_whence(came_from),
            },
        )
        return DIRS.index(answer)

    # ----------------------------------------------------------------- helpers

    def standing_tower(self, square: int) -> bool:
        return self.layout.is_tower[square] and square not in self.board.ruins

    def _saboteur(self, unit: list[Token], square: int) -> None:
        for token in unit:
            if token.kind == "saboteur":
                self.sabotaged.add(square)
                self.saboteurs.add(token.chief)

    def _bag(self, token: Token) -> None:
        self.to_bag.append(token)

    # ----------------------------------------------------------------- one unit's move

    def move(
        self,
        unit: list[Token],
        target: int,
        d: int,
        origin: int = FOREST_ORIGIN,
        origin_facing: int = 0,
        visited: list[int] | None = None,
        rested: bool = False,
    ) -> None:
        """Move a unit (tokens, leader first) facing ``d`` into ``target`` and apply everything
        that happens there, until it stops somewhere or leaves the board. ``origin`` is the
        square the move began on and ``origin_facing`` the facing it had there (a barricade
        sends it back)."""
        board = self.board
        step = self.layout.step
        thrown = False
        # The square the unit steps into ``target`` from (a dragon's question names it); fleeing
        # a landing dragon, the dragon's own square (the first one visited).
        came_from = visited[0] if origin == NO_ORIGIN and visited else origin
        while unit:
            self.moving = (target, unit, d)
            if target < 0:
                self._leave(target, unit, came_from)
                return
            if self.standing_tower(target):
                unit = self._tower(target, unit)
                if not unit:
                    return
                continue  # cooperative: the rest walk on into the ruins
            trap = board.traps.get(target)
            if trap is not None and trap.kind == "barricade":
                # The skeletons never enter it: a hero on it does not stop the trigger.
                self.triggered.add(target)
                self._saboteur(unit, target)
                if thrown or origin == NO_ORIGIN:
                    # Thrown by a spring onto the spikes (or no square to stay on): eliminated.
                    self.blown += len(unit)
                    for token in unit:
                        self._bag(token)
                elif origin == FOREST_ORIGIN:
                    self.held += len(unit)
                    board.forest.extend(unit)
                else:
                    self.held += len(unit)
                    for token in unit:
                        board.skeletons.append(Skeleton(origin, token, origin_facing, rested=True))
                return
            if target == board.hero:
                self._hero_kills(unit)
                return
            thrown = False
            if trap is not None:
                if visited is None:
                    visited = []
                elif target in visited:
                    # D6: entering the same trap twice in one move: lost in the maze.
                    self.lost += len(unit)
                    for token in unit:
                        self._bag(token)
                    return
                visited.append(target)
                kind, side = trap.kind, trap.side
                if kind == "bomb" and side == 1:
                    self._land(target, unit, d, rested)  # a plain square with a hole
                    return
                if kind not in ("treasure", "labyrinth"):
                    self._saboteur(unit, target)
                if kind == "wall":
                    self.triggered.add(target)
                    d = reflect(d, trap.orientation)
                    came_from, target = target, step[target][d]
                    continue
                if kind == "catapult":
                    self.triggered.add(target)
                    if target not in self.catapult_targets:
                        # D10: one opponent for everything this catapult throws this phase.
                        self.catapult_targets[target] = self._target(
                            "catapult", target, unit[0], **_whence(came_from, len(unit))
                        )
                    for token in unit:
                        self._send(self.catapult_targets[target], token, "catapult")
                    return
                if kind == "dragon":
                    self.triggered.add(target)
                    d = self._repel(target, unit[0], d, came_from)
                    came_from, target = target, step[target][d]
                    continue
                if kind == "bomb":
                    self.triggered.add(target)
                    self.blown += len(unit)
                    for token in unit:
                        self._bag(token)
                    return
                if kind == "hearse":
                    to = self._target("hearse", target, unit[0], **_whence(came_from, len(unit)))
                    for token in unit:
                        self._send(to, token, "hearse")
                    del board.traps[target]
                    sabotaged = target in self.sabotaged
                    self.sabotaged.discard(target)
                    self.hearses.append(-1 if sabotaged else to)
                    self.changes.append((target, "hearse", "sabotaged" if sabotaged else "passed"))
                    return
                if kind == "portal":
                    self.triggered.add(target)
                    board.forest.extend(unit)
                    self.held += len(unit)
                    return
                if kind == "spring":
                    self.triggered.add(target)
                    over = step[target][d]
                    came_from, target = over, over if over < 0 else step[over][d]
                    thrown = True
                    continue
                if kind == "labyrinth":
                    self._saboteur(unit, target)
            # The treasure and the labyrinth are tiles one stands on: they hide the arrow.
            self._land(target, unit, d, rested, trap is None or TRAPS[trap.kind].shows_arrow)
            return

    def _tower(self, square: int, unit: list[Token]) -> list[Token]:
        """A unit enters a standing tower: what is left of it walks on (cooperative)."""
        board = self.board
        if self.coop:
            # Each tower stops a single skeleton: a follower before the leader (the unit stays
            # led), a plain one before a chief.
            stopped = unit[-1]
            rest = unit[:-1]
            kind = stopped.kind
            if kind == "emperor":
                self.emperor = True
                board.lost = True
            if kind != "nice":  # a nice chief finds nothing to rebuild on a standing tower
                board.ruins.append(square)
                board.floors -= 1
                self.floors_lost += 1
            self._spent(stopped)
            return rest
        for token in unit:
            kind = token.kind
            if kind == "emperor":
                self.emperor = True
                board.lost = True
            elif kind == "nice":
                if board.floors < self.max_floors:
                    board.floors += 1
                    self.floors_rebuilt += 1
            else:
                # Even a hero standing on the tower does not protect it.
                hit = min(board.floors, 2 if kind == "artificer" else 1)
                board.floors -= hit
                self.floors_lost += hit
            self._spent(token)
        return []

    def _spent(self, token: Token) -> None:
        """A skeleton that hit a tower or the village: the spectral chief comes back."""
        if token.kind == "spectral":
            self._send(self.seat, token, "spectral")
        else:
            self._bag(token)

    def _hero_kills(self, unit: list[Token]) -> None:
        """The hero destroys a unit; it neither triggers nor steals what lies under him."""
        self.killed += len(unit)
        n = self.group_kills.get(self.group, 0) + len(unit)
        self.group_kills[self.group] = n
        before = len(self.hero_kills)
        self.kill(unit)
        self.group_bagged.setdefault(self.group, []).extend(self.hero_kills[before:])

    def hero_enters(self, square: int) -> int:
        """The hero steps onto ``square`` (phase 1, or the two-handed sword) and destroys every
        skeleton there, moved or still to move: returns how many. These kills belong to no
        group (a weapon never chains)."""
        board = self.board
        board.hero = square
        here = [s for s in [*board.skeletons, *self.unmoved] if s.square == square]
        board.skeletons = [s for s in board.skeletons if s.square != square]
        self.unmoved = [s for s in self.unmoved if s.square != square]
        self.killed += len(here)
        self.kill([s.token for s in here])
        return len(here)

    def _weapon(self) -> None:
        """D20: the weapon triggers as soon as the group that just moved has made its third (or
        later) kill, and is chosen and applied now, before the rest of the board moves."""
        board = self.board
        group = self.group
        if not board.weapon or board.hero < 0 or group in self.armed:
            return
        kills = self.group_kills.get(group, 0)
        if kills < WEAPON_KILLS:
            return
        self.armed.add(group)
        legal = weapons.uses_on(board, self.layout, self.seats, self.seat, self.unmoved)
        if not legal:
            return  # nothing to act on at this moment: nothing to ask
        self.moving = None  # the picture of the question: the unit that struck is gone
        choice = self._choose(
            "weapon",
            [*(weapons.answer(t, to) for t, to in legal), weapons.SKIP],
            weapons.SKIP,
            {"weapon": board.weapon, "square": square_name(board.hero), "kills": kills},
        )
        if choice == weapons.SKIP:
            self.weapon_events.append(Event("badbones.event.weapon_skipped", {"seat": self.seat}))
            return
        target, to = weapons.from_answer(choice)
        weapons.strike(self, target, to, list(self.group_bagged.get(group, [])))
        self.weapon_events.append(weapons.used(self.seat, board.weapon, target, to))

    def kill(self, unit: list[Token]) -> None:
        """Tokens the hero destroyed (also a weapon's hero moves): spectral chiefs to the
        owner's cemetery, the emperor out of the game with the hero, the rest to the bag."""
        for token in unit:
            kind = token.kind
            if kind == "spectral":
                self._send(self.seat, token, "spectral")
            elif kind == "emperor":
                self.removed.append(token)
                self.board.hero = -1
                self.hero_died = True
            else:
                self._bag(token)
                self.hero_kills.append(token)

    def _land(
        self, square: int, unit: list[Token], d: int, rested: bool, arrow: bool = True
    ) -> None:
        """The unit stops on ``square`` and faces the way it goes on (``way_on``; ``arrow``:
        the square's arrow is not hidden under a tile)."""
        d = way_on(self.layout, self.board.ruins, self.treasures, square, d, arrow)
        self.board.skeletons.extend(Skeleton(square, token, d, rested) for token in unit)

    def _leave(self, exit_: int, unit: list[Token], came_from: int) -> None:
        if exit_ == EXIT_LEFT:
            for token in unit:
                self._send((self.seat - 1) % self.seats, token, "left")
        elif exit_ == EXIT_RIGHT:
            for token in unit:
                self._send((self.seat + 1) % self.seats, token, "right")
        elif exit_ == EXIT_TOP:
            # Named by the square it leaves from (a second one is not a repeat).
            to = self._target("top", came_from, unit[0], count=len(unit))
            for token in unit:
                self._send(to, token, "top")
        else:  # the village (the capital in the cooperative game)
            for token in unit:
                self._village(token)

    def _village(self, token: Token) -> None:
        kind = token.kind
        board = self.board
        if kind == "emperor":
            self.emperor = True
            board.lost = True
        elif self.coop:
            self.capital += 1 if kind == "nice" else -2 if kind == "artificer" else -1
        elif kind == "nice":
            if board.houses < self.max_houses:
                board.houses += 1
                self.houses_rebuilt += 1
        else:
            burnt = min(board.houses, 2 if kind == "artificer" else 1)
            board.houses -= burnt
            self.houses_lost += burnt
        self._spent(token)

    def _send(self, seat: int, token: Token, way: str) -> None:
        self.out.append((seat, token))
        self.sent[(seat, way)] = self.sent.get((seat, way), 0) + 1

    # ----------------------------------------------------------------- phases

    def skeleton_phase(self) -> None:
        """Phase 3: every skeleton not yet moved this round advances, then the forest's. A unit
        moves at a time, the next one taken from what is still to move (a weapon may have
        changed it, D20)."""
        board = self.board
        step = self.layout.step
        self.unmoved = sorted(
            (s for s in board.skeletons if not (s.rested or s.frozen)), key=skeleton_order
        )
        # What stays this phase (moved already this round, or frozen) is marked rested: it
        # wakes at the end of the phase. One the ice wand freezes later, after it has moved,
        # is not rested and stays frozen through the next phase.
        board.skeletons = [
            Skeleton(s.square, s.token, s.facing, True, s.frozen)
            for s in board.skeletons
            if s.rested or s.frozen
        ]
        forest = sorted(board.forest, key=token_order)
        board.forest = []
        # Before moving, every skeleton shows the round's colour: white in odd rounds.
        colour_now = WHITE if self.round % 2 else "black"
        self.unmoved_forest = list(forest)
        while self.unmoved:
            square = self.unmoved[0].square
            here = [s for s in self.unmoved if s.square == square]
            self.moving = None
            trap = board.traps.get(square)
            if trap is not None and trap.kind == "labyrinth" and trap.orientation != colour_now:
                # Lost in the labyrinth: they flip over in place.
                self.unmoved = [s for s in self.unmoved if s.square != square]
                board.skeletons.extend(Skeleton(s.square, s.token, s.facing, True) for s in here)
                self._saboteur([s.token for s in here], square)
                continue
            unit, facing = self._units(square, here)[0]
            for s in unit:
                self.unmoved.remove(s)
            self.group = (square, facing)
            self.move([s.token for s in unit], step[square][facing], facing, square, facing)
            self._weapon()
        for k, token in enumerate(forest):
            self.unmoved_forest = forest[k + 1 :]
            entry, d = self.layout.entries[token.model]
            self.group = (-1 - entry, d)
            self.move([token], entry, d)
            self._weapon()
        self.unmoved_forest = []
        board.skeletons = [
            Skeleton(s.square, s.token, s.facing) if s.rested else s for s in board.skeletons
        ]
        self.after_phase()
        self._steal_treasures()

    def _units(self, square: int, here: list[Skeleton]) -> list[tuple[list[Skeleton], int]]:
        """The skeletons of one square as units (leader first) and the way each moves: a chief
        instructor leads them all."""
        leaders = [s for s in here if s.token.kind == "instructor"]
        if not leaders:
            return [([s], s.facing) for s in here]
        facings = sorted({s.facing for s in leaders})
        leader = leaders[0]
        if len(facings) > 1:
            # Two instructors on one square: the owner picks which leads (D5).
            answer = self._choose(
                "instructor",
                [DIRS[f] for f in facings],
                DIRS[facings[0]],
                {"square": square_name(square)},
            )
            leader = next(s for s in leaders if DIRS[s.facing] == answer)
        rest = list(here)
        rest.remove(leader)
        return [([leader, *rest], leader.facing)]

    def place(self, kind: str, square: int, orientation: str) -> None:
        """Phase 2: put a tile from the supply on the board (already validated; the supply
        is the game's business)."""
        board = self.board
        here = board.on(square)
        if here and TRAPS[kind].lands_on_skeletons:
            board.skeletons = [s for s in board.skeletons if s.square != square]
            tokens = [s.token for s in here]
            if kind == "bomb":
                # The bomb placed on skeletons goes off at once: the blast area stays.
                board.traps[square] = Trap(kind, 1, orientation)
                self.blown += len(here)
                self._saboteur(tokens, square)
                for token in tokens:
                    self._bag(token)
                self.sabotaged.discard(square)
                self.after_phase()
                return
            # D8: the dragon lands on skeletons, is damaged at once, and they flee (D7); they
            # count as moved this round.
            board.traps[square] = Trap(kind, 1, orientation)
            self._saboteur(tokens, square)
            self.unmoved = sorted(here, key=skeleton_order)
            units = [
                ([s.token for s in unit], facing)
                for unit, facing in self._units(square, self.unmoved)
            ]
            for k, (unit, facing) in enumerate(units):
                self.unmoved, self.moving = (
                    _standing(square, units[k + 1 :]),
                    (square, unit, facing),
                )
                d = self._repel(square, unit[0], facing, NO_ORIGIN)
                target = self.layout.step[square][d]
                self.move(unit, target, d, NO_ORIGIN, visited=[square], rested=True)
            self.landed = len(here)
        else:
            board.traps[square] = Trap(kind, 0, orientation)
        if kind == "treasure":
            self.treasures.append(square)
            # Every skeleton orthogonally adjacent turns toward the treasure at once.
            step = self.layout.step
            turned = []
            for s in board.skeletons:
                for td in range(4):
                    if step[s.square][td] == square:
                        s = s.facing_to(td)
                        break
                turned.append(s)
            board.skeletons = turned
        self.after_phase()

    landed = 0

    def after_phase(self) -> None:
        """D9: triggered traps change side (or are destroyed) once the phase is over; a chief
        saboteur destroys every trap he triggered (the bomb's blast area stays) and returns to
        the bag."""
        board = self.board
        for square in sorted(self.sabotaged):
            trap = board.traps.get(square)
            if trap is None or trap.kind == "bomb":
                continue
            del board.traps[square]
            self.triggered.discard(square)
            self.changes.append((square, trap.kind, "sabotaged"))
        self.sabotaged = set()
        for square in sorted(self.triggered):
            trap = board.traps.get(square)
            if trap is None:
                continue
            after = after_trigger(trap)
            if after is None:
                del board.traps[square]
                self.changes.append((square, trap.kind, "destroyed"))
            elif after != trap:
                board.traps[square] = after
                self.changes.append(
                    (square, trap.kind, "blasted" if trap.kind == "bomb" else "damaged")
                )
        self.triggered = set()
        if self.saboteurs:
            gone = self.saboteurs
            keep = []
            for s in board.skeletons:
                if s.token.chief in gone:
                    self._bag(s.token)
                else:
                    keep.append(s)
            board.skeletons = keep
            forest = []
            for token in board.forest:
                if token.chief in gone:
                    self._bag(token)
                else:
                    forest.append(token)
            board.forest = forest
            self.saboteurs = set()

    def _steal_treasures(self) -> None:
        board = self.board
        for square in self.treasures:
            trap = board.traps.get(square)
            if trap is None or trap.kind != "treasure" or board.hero == square:
                continue
            if any(s.square == square for s in board.skeletons):
                # Stolen: removed from the game; the thieves stay without being turned.
                del board.traps[square]
                self.changes.append((square, "treasure", "stolen"))


def _whence(came_from: int, count: int = 1) -> dict[str, Any]:
    """Where a skeleton a question is about came from (a square, its forest, or under a
    landing dragon), and how many move with it (an instructor's unit)."""
    origin = (
        "landing"
        if came_from == NO_ORIGIN
        else "forest"
        if came_from == FOREST_ORIGIN
        else square_name(came_from)
    )
    return {"from": origin, "count": count}


def _standing(square: int, units: list[tuple[list[Token], int]]) -> list[Skeleton]:
    """Units still waiting on ``square`` for their turn to move, as the board holds them."""
    return [Skeleton(square, token, facing) for unit, facing in units for token in unit]


def moment(r: Resolver) -> Board:
    """The board of a resolver stopped by a question (:class:`NeedChoice`), as it stands at
    that moment: what has moved where it went, what has not where it was, and the unit being
    asked about on the trap that asks (a unit leaving the board is not on it)."""
    board = r.board
    board.skeletons = board.skeletons + r.unmoved
    board.forest = board.forest + r.unmoved_forest
    if r.moving is not None and r.moving[0] >= 0:
        square, unit, facing = r.moving
        board.skeletons += [Skeleton(square, token, facing) for token in unit]
    return board


# ----------------------------------------------------------------------------- one board's resolver


def resolver_for(state: BadBonesState, seat: int, board: Board, scores: list[int]) -> Resolver:
    """A resolver for ``seat``'s ``board`` (the real one, or a copy for a dry run)."""
    return Resolver(
        board,
        seat,
        state.seats,
        state.layout,
        scores,
        state.answers.get(seat, []),
        state.round,
        state.coop,
    )


def deliver(state: BadBonesState, r: Resolver) -> None:
    """What left a board goes where it was sent."""
    for seat, token in r.out:
        state.boards[seat].cemetery.append(token)
    for token in r.to_bag:
        state.to_bag(token)
    state.removed.extend(r.removed)
    for seat in r.hearses:
        if seat >= 0:
            state.supply_of(seat).append("hearse")
    if r.capital:
        state.capital = max(0, min(state.seats, state.capital + r.capital))
    r.out, r.to_bag, r.removed, r.hearses, r.capital = [], [], [], [], 0
