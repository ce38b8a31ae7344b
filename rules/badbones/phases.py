"""The round: setup, the four phases, the end of the game.

Phases 1 and 2 collect hidden submissions (D13) and resolve when the last seat submits. Phase 2's
dragon landing and phase 3 resolve board by board through :mod:`rules.badbones.skeletons`,
possibly pausing for owners' choices (D5); phase 4 follows phase 3 at once.
"""

from __future__ import annotations

from typing import Any

from rules.badbones.board import (
    BASIC,
    BLUE,
    GREEN,
    HERO_DIRS,
    LAYOUTS,
    MODELS,
    PINK,
    SIZE,
    YELLOW,
    Layout,
    parse_name,
    square_name,
)
from rules.badbones.choices import CHOICES
from rules.badbones.scoring import final_scores, score, winners
from rules.badbones.skeletons import NeedChoice, Resolver
from rules.badbones.state import (
    HERO,
    LANDING,
    OVER,
    SKELETONS,
    TOKENS_PER_MODEL,
    TRAP,
    BadBonesState,
    Board,
)
from rules.badbones.traps import basic_supply
from rules.core import Event, Rng

NEW_SKELETONS = 3
SETUP_SYMBOLS = (PINK, YELLOW, BLUE, GREEN)  # red is never drawn at setup (D3)
# Safety nets, never reached by real play: a game always ends.
MAX_ROUNDS = 200
HEROIC_EXTRA_ROUNDS = 50


def layout(state: BadBonesState) -> Layout:
    name = state.options.get("layout")
    return BASIC if name is None else LAYOUTS.get(str(name), BASIC)


# ----------------------------------------------------------------------------- the bag


def draw(bag: list[int], rng: Rng, symbol: int | None = None) -> int | None:
    """A random token from the bag (optionally of one symbol); ``None`` if there is none."""
    models = range(MODELS) if symbol is None else range(symbol, MODELS, 5)
    total = sum(bag[m] for m in models)
    if total == 0:
        return None
    pick = rng.below(total)
    for m in models:
        if pick < bag[m]:
            bag[m] -= 1
            return m
        pick -= bag[m]
    raise AssertionError("unreachable")


# ----------------------------------------------------------------------------- setup


def setup(seats: int, options: dict[str, Any], seed: int) -> BadBonesState:
    rng = Rng(seed)
    bag = [TOKENS_PER_MODEL] * MODELS
    solo = seats == 1
    boards = []
    for _ in range(seats):
        board = Board(
            hero=BASIC.towers[0],
            floors=1 if solo else 4,
            houses=1 if solo else 5,
            supply=basic_supply(),
            prefs={choice: str(options.get("choices", "ask")) for choice in CHOICES},
        )
        for symbol in SETUP_SYMBOLS:  # D3: a random token of each non-red symbol
            model = draw(bag, rng, symbol)
            assert model is not None
            board.forest.append(model)
        boards.append(board)
    return BadBonesState(seats, dict(options), 1, HERO, rng.state, bag, boards)


def scores_now(state: BadBonesState) -> list[int]:
    return [score(b) for b in state.boards]


# ----------------------------------------------------------------------------- phase 1


def _hero_steps() -> dict[str, tuple[int | None, ...]]:
    steps: dict[str, tuple[int | None, ...]] = {}
    for name, (dr, dc) in HERO_DIRS.items():
        targets: list[int | None] = []
        for sq in range(SIZE * SIZE):
            row, col = sq // SIZE + dr, sq % SIZE + dc
            targets.append(row * SIZE + col if 0 <= row < SIZE and 0 <= col < SIZE else None)
        steps[name] = tuple(targets)
    return steps


_HERO_STEPS = _hero_steps()


def hero_target(board: Board, direction: str) -> int | None:
    """The square the hero would step to, or ``None`` off the board."""
    return _HERO_STEPS[direction][board.hero]


def resolve_heroes(state: BadBonesState) -> list[Event]:
    events = []
    for seat, board in enumerate(state.boards):
        target = hero_target(board, state.subs[seat]["direction"])
        assert target is not None
        board.hero = target
        killed = [c for c in board.skeletons if c >> 12 == target]
        if killed:
            board.skeletons = [c for c in board.skeletons if c >> 12 != target]
            for code in killed:
                state.bag[(code >> 2) & 15] += 1
        events.append(
            Event(
                "badbones.event.hero_moved",
                {"seat": seat, "square": square_name(target), "killed": len(killed)},
            )
        )
    state.subs = {}
    state.stage = TRAP
    return events


# ----------------------------------------------------------------------------- phase 2


def trap_events(state: BadBonesState) -> list[Event]:
    """Reveal every phase-2 submission (D13: hidden until now)."""
    events = []
    for seat in range(state.seats):
        sub = state.subs[seat]
        kind = sub["type"]
        if kind == "place":
            events.append(
                Event(
                    "badbones.event.placed_wall" if sub["orientation"] else "badbones.event.placed",
                    {
                        "seat": seat,
                        "trap_key": f"badbones.trap.{sub['trap']}",
                        "square": sub["square"],
                        "orientation": sub["orientation"],
                    },
                )
            )
        elif kind == "retrieve":
            trap = state.boards[seat].traps[parse_name(sub["square"])]
            events.append(
                Event(
                    "badbones.event.retrieved",
                    {"seat": seat, "trap_key": f"badbones.trap.{trap[0]}", "square": sub["square"]},
                )
            )
        else:
            events.append(Event("badbones.event.did_nothing", {"seat": seat}))
    return events


# ----------------------------------------------------------------------------- resolution


def _run(state: BadBonesState, stage: str, r: Resolver, seat: int) -> None:
    if stage == LANDING:
        sub = state.subs.get(seat, {"type": "nothing"})
        if sub["type"] == "place":
            r.place(sub["trap"], parse_name(sub["square"]), sub["orientation"])
        elif sub["type"] == "retrieve":
            r.retrieve(parse_name(sub["square"]))
    else:
        r.skeleton_phase()


def _resolver(state: BadBonesState, seat: int, board: Board, scores: list[int]) -> Resolver:
    return Resolver(board, seat, state.seats, layout(state), scores, state.answers.get(seat, []))


def dry_run(state: BadBonesState, seat: int, scores: list[int] | None = None) -> None:
    """Resolve ``seat``'s board on a copy: record its open question, or that it has none."""
    r = _resolver(state, seat, state.boards[seat].copy(), scores or scores_now(state))
    try:
        _run(state, state.stage, r, seat)
    except NeedChoice as need:
        state.questions[seat] = need.question
    else:
        state.questions.pop(seat, None)


def start_resolution(state: BadBonesState, stage: str) -> list[Event]:
    state.stage = stage
    state.answers = {s: [] for s in range(state.seats)}
    state.questions = {}
    scores = scores_now(state)
    for seat in range(state.seats):
        if stage == LANDING and state.subs.get(seat, {}).get("type") != "place":
            continue  # only a placement can ask anything in phase 2
        dry_run(state, seat, scores)
    return [] if state.questions else commit(state)


def answer(state: BadBonesState, seat: int, value: str | None) -> list[Event]:
    """A new answer (or, with ``None``, new preferences): replay this board; commit when no
    board has a question left."""
    state.answered += 1
    if value is None:
        state.answers[seat] = []
    else:
        state.answers.setdefault(seat, []).append(value)
    dry_run(state, seat)
    return [] if state.questions else commit(state)


def commit(state: BadBonesState) -> list[Event]:
    """Every board resolves for real, tokens are delivered, and the round goes on."""
    stage = state.stage
    scores = scores_now(state)
    events: list[Event] = []
    outs: list[tuple[int, int]] = []
    for seat, board in enumerate(state.boards):
        r = _resolver(state, seat, board, scores)
        try:
            _run(state, stage, r, seat)
        except NeedChoice:  # pragma: no cover - the dry runs answered everything
            raise AssertionError("a committed phase asked a question") from None
        outs.extend(r.out)
        for model in r.to_bag:
            state.bag[model] += 1
        events.extend(board_events(seat, r))
    for seat, model in outs:
        state.boards[seat].cemetery.append(model)
    state.answers = {}
    state.questions = {}
    if stage == LANDING:
        state.subs = {}
        return events + start_resolution(state, SKELETONS)
    return events + end_of_skeleton_phase(state)


def board_events(seat: int, r: Resolver) -> list[Event]:
    """What happened on one board, summed up for the channel."""
    events = []
    if r.landed:
        events.append(Event("badbones.event.dragon_landed", {"seat": seat, "count": r.landed}))
    if r.killed:
        events.append(Event("badbones.event.hero_killed", {"seat": seat, "count": r.killed}))
    for (to, way), count in sorted(r.sent.items()):
        events.append(
            Event(
                "badbones.event.sent",
                {"seat": seat, "to_seat": to, "count": count, "way_key": f"badbones.way.{way}"},
            )
        )
    if r.lost:
        events.append(Event("badbones.event.lost_in_maze", {"seat": seat, "count": r.lost}))
    if r.floors_lost:
        events.append(
            Event(
                "badbones.event.tower_hit",
                {"seat": seat, "count": r.floors_lost, "floors": r.board.floors},
            )
        )
    if r.houses_lost:
        events.append(
            Event(
                "badbones.event.houses_burnt",
                {"seat": seat, "count": r.houses_lost, "houses": r.board.houses},
            )
        )
    for square, kind, what in r.changes:
        events.append(
            Event(
                f"badbones.event.trap_{what}",
                {"seat": seat, "square": square_name(square), "trap_key": f"badbones.trap.{kind}"},
            )
        )
    return events


# ----------------------------------------------------------------------------- phase 4, the end


def end_of_skeleton_phase(state: BadBonesState) -> list[Event]:
    events: list[Event] = []
    eliminated = [s for s, b in enumerate(state.boards) if b.eliminated]
    for seat in eliminated:
        events.append(Event("badbones.event.eliminated", {"seat": seat}))
    rounds = int(state.options.get("solo_rounds", 10))
    heroic = bool(state.options.get("heroic", False))
    if eliminated:
        if state.solo and state.round > rounds:
            return events + finish(state, "won")  # lost during the heroic ending: still a win
        return events + finish(state, "lost" if state.solo else "scored")
    if state.solo and state.round >= rounds:
        board = state.boards[0]
        if not heroic:
            return events + finish(state, "won")
        if not board.skeletons and not board.cemetery and not board.forest:
            return events + finish(state, "heroic")
        if state.round >= rounds + HEROIC_EXTRA_ROUNDS:
            return events + finish(state, "won")
    if state.round >= MAX_ROUNDS:
        return events + finish(state, "scored")
    events.extend(new_skeletons(state, none_new=state.solo and heroic and state.round >= rounds))
    state.round += 1
    state.stage = HERO
    state.subs = {}
    events.append(Event("badbones.event.round", {"round": state.round}))
    return events


def new_skeletons(state: BadBonesState, none_new: bool = False) -> list[Event]:
    """Phase 4: 3 tokens each (D12: in seat order, one at a time, while the bag lasts), then
    every cemetery empties into its forests."""
    rng = Rng(state.rng)
    drawn = [0] * state.seats
    if not none_new:
        for _ in range(NEW_SKELETONS):
            for seat, board in enumerate(state.boards):
                model = draw(state.bag, rng)
                if model is None:
                    break
                board.cemetery.append(model)
                drawn[seat] += 1
    state.rng = rng.state
    events = []
    for seat, board in enumerate(state.boards):
        events.append(
            Event(
                "badbones.event.arrivals",
                {"seat": seat, "drawn": drawn[seat], "count": len(board.cemetery)},
            )
        )
        board.forest.extend(board.cemetery)
        board.cemetery = []
    if not none_new and sum(drawn) < NEW_SKELETONS * state.seats:
        events.append(Event("badbones.event.bag_empty", {}))
    return events


def finish(state: BadBonesState, outcome: str) -> list[Event]:
    state.stage = OVER
    state.outcome = outcome
    state.subs = {}
    state.scores = final_scores(state.boards)
    if state.solo:
        return [Event(f"badbones.event.solo_{outcome}", {"seat": 0, "round": state.round})]
    best = winners(state.boards, state.scores)
    return [
        Event(
            "badbones.event.game_over",
            {
                "seats": list(best),
                "points": max((v for v in state.scores.values() if v is not None), default=0),
            },
        )
    ]
