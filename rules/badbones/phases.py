"""The round: setup, the four phases, the end of the game.

Phases 1 and 2 collect hidden submissions (D13) and resolve when the last seat submits. Phase 2's
dragon landing and phase 3 resolve board by board through :mod:`rules.badbones.skeletons`,
possibly pausing for owners' choices (D5); phase 4 follows phase 3 at once.
"""

from __future__ import annotations

from typing import Any

from rules.badbones import questions, weapons
from rules.badbones.board import (
    BASIC,
    BLUE,
    GREEN,
    MODELS,
    PINK,
    YELLOW,
    parse_name,
    parse_square,
    square_name,
)
from rules.badbones.choices import CHOICES
from rules.badbones.hero import WEAPON_KILLS, hero_target, heroes
from rules.badbones.market import open_market
from rules.badbones.scoring import FLOOR_POINTS, HOUSE_POINTS, final_scores, score, winners
from rules.badbones.skeletons import NeedChoice, Resolver, deliver, moment, resolver_for
from rules.badbones.state import (
    CHIEF_IDS,
    HERO,
    LANDING,
    OVER,
    SKELETONS,
    START,
    TOKENS_PER_MODEL,
    TRAP,
    WEAPON,
    BadBonesState,
    Board,
    Token,
    WeaponDue,
    chief_model,
    chief_token,
)
from rules.badbones.traps import BASIC_TRAPS, ORIENTATIONS, basic_supply
from rules.core import Event, Rng, RulesError

NEW_SKELETONS = 3
NECROMANCER_DRAWS = 3
COOP_ROUNDS = 10
COOP_SETUP_SKELETONS = 4
COOP_HERO_START = 6  # B2: the rulebook lets the player pick a tower; the bot starts on B2
SETUP_SYMBOLS = (PINK, YELLOW, BLUE, GREEN)  # red is never drawn at setup (D3)
# Safety nets, never reached by real play: a game always ends.
MAX_ROUNDS = 200
HEROIC_EXTRA_ROUNDS = 50


# ----------------------------------------------------------------------------- the bag


def draw(
    bag: list[int], rng: Rng, symbol: int | None = None, chiefs: list[int] | None = None
) -> Token | None:
    """A random token from the bag (optionally of one symbol); ``None`` if there is none.
    ``chiefs`` (the chief ids in the bag) are drawn like any other token."""
    models = range(MODELS) if symbol is None else range(symbol, MODELS, 5)
    plain = sum(bag[m] for m in models)
    heads = [c for c in chiefs or () if symbol is None or chief_model(c) % 5 == symbol]
    total = plain + len(heads)
    if total == 0:
        return None
    pick = rng.below(total)
    if pick >= plain:
        chief = heads[pick - plain]
        assert chiefs is not None
        chiefs.remove(chief)
        return chief_token(chief)
    for m in models:
        if pick < bag[m]:
            bag[m] -= 1
            return Token(m)
        pick -= bag[m]
    raise AssertionError("unreachable")


# ----------------------------------------------------------------------------- setup


def setup(seats: int, options: dict[str, Any], seed: int) -> BadBonesState:
    rng = Rng(seed)
    bag = [TOKENS_PER_MODEL] * MODELS
    solo = seats == 1
    coop = bool(options.get("cooperative", False))
    advanced = bool(options.get("advanced", False))
    if coop and solo:
        raise RulesError("badbones.error.cooperative_solo")
    chiefs = list(CHIEF_IDS) if options.get("chiefs", False) else []
    boards = []
    for _ in range(seats):
        prefs = {choice: str(options.get("choices", "ask")) for choice in CHOICES}
        if coop:
            board = Board(hero=COOP_HERO_START, floors=4, houses=0, prefs=prefs, village=False)
            for _ in range(COOP_SETUP_SKELETONS):  # four random tokens, red ones too
                token = draw(bag, rng, None, chiefs)
                assert token is not None
                board.forest.append(token)
        else:
            board = Board(
                hero=BASIC.towers[0],
                floors=1 if solo else 4,
                houses=1 if solo else 5,
                supply=["treasure"] if advanced else basic_supply(),
                prefs=prefs,
            )
            for symbol in SETUP_SYMBOLS:  # D3: a random token of each non-red symbol
                token = draw(bag, rng, symbol, chiefs)
                assert token is not None
                board.forest.append(token)
        boards.append(board)
    state = BadBonesState(seats, dict(options), 1, HERO, rng.state, bag, boards, chiefs=chiefs)
    if coop:
        state.capital = seats
        # The shared supply: one wall, catapult and dragon per player, a single treasure (the
        # advanced game buys the rest at the Market instead).
        if not advanced:
            state.pool = [k for k in BASIC_TRAPS[:3] for _ in range(seats)]
        state.pool.append("treasure")
        state.stage = START
    if advanced:
        open_market(state)
    return state


def start_on(state: BadBonesState, seat: int, square: int) -> list[Event]:
    """Cooperative setup: a hero starts on the tower its player picks. The picks are hidden
    submissions (D13, as phases 1 and 2): the hero stays where the view shows every hero
    (B2) and nobody is told where it goes until the last player has picked; then every hero
    goes to its tower, told in the order of the picks, and round 1 begins."""
    state.subs[seat] = {"type": "start", "square": square_name(square)}
    if len(state.subs) < state.seats:
        return []
    events = []
    for s, sub in state.subs.items():  # the order of the picks (the narration's order)
        state.boards[s].hero = parse_square(sub["square"])
        events.append(Event("badbones.event.hero_started", {"seat": s, "square": sub["square"]}))
    state.subs = {}
    state.stage = HERO
    events.append(Event("badbones.event.round", {"round": 1}))
    return events


def scores_now(state: BadBonesState) -> list[int]:
    return [score(b) for b in state.boards]


# ----------------------------------------------------------------------------- phase 1


def resolve_heroes(state: BadBonesState) -> list[Event]:
    events = []
    state.weapons = {}
    scores = scores_now(state)
    for seat in heroes(state):
        board = state.boards[seat]
        target = hero_target(board, state.subs[seat]["direction"])
        assert target is not None
        r = resolver_for(state, seat, board, scores)
        killed = r.hero_enters(target)
        deliver(state, r)
        events.append(
            Event(
                "badbones.event.hero_moved",
                {"seat": seat, "square": square_name(target), "killed": killed},
            )
        )
        if r.hero_died:
            events.append(Event("badbones.event.hero_died", {"seat": seat}))
        if board.weapon and board.hero >= 0 and killed >= WEAPON_KILLS:
            state.weapons[seat] = WeaponDue(r.hero_kills[:], HERO)
    state.subs = {}
    return events + weapons_or(state, TRAP)


def maybe_resolve_heroes(state: BadBonesState) -> list[Event]:
    """Phase 1 resolves when every seat that still has a hero has moved it."""
    if state.stage == HERO and all(s in state.subs for s in heroes(state)):
        return resolve_heroes(state)
    return []


# ----------------------------------------------------------------------------- weapons


def weapons_or(state: BadBonesState, then: str) -> list[Event]:
    """Owners whose hero killed 3+ at once in phase 1 may use their weapon before ``then``
    (only when it has something to act on: no prompt for a crossbow on an empty board). Phase
    3's weapons act during the phase (D20: ``Resolver._weapon``)."""
    state.weapons = {s: w for s, w in state.weapons.items() if weapons.uses(state, s)}
    if state.weapons:
        state.stage = WEAPON
        state.after_weapons = then
        return [
            Event("badbones.event.weapon_ready", {"seats": sorted(state.weapons)}),
        ]
    return proceed(state, then)


def use_weapon(state: BadBonesState, seat: int, target: str, to: str) -> list[Event]:
    """Phase 1's weapon stage: ``seat`` uses its weapon (already checked), through a resolver
    of its board as phase 3 does (:func:`weapons.strike`)."""
    board = state.boards[seat]
    weapon = board.weapon
    killed = state.weapons[seat].killed
    r = resolver_for(state, seat, board, scores_now(state))
    # Phase 1's kills went to the bag when the hero struck; phase 3's are held by the resolver
    # until the phase is delivered. Held here the same way, the death wand can send them on.
    for token in killed:
        state.from_bag(token)
    r.to_bag.extend(killed)
    weapons.strike(r, target, to, killed)
    deliver(state, r)
    events = [weapons.used(seat, weapon, target, to)]
    if weapon == "sword":
        events.append(Event("badbones.event.hero_killed", {"seat": seat, "count": r.killed}))
        if r.hero_died:
            events.append(Event("badbones.event.hero_died", {"seat": seat}))
    return events + weapon_done(state, seat)


def proceed(state: BadBonesState, then: str) -> list[Event]:
    state.after_weapons = ""
    if then == TRAP:
        state.stage = TRAP
        return []
    return arrivals(state)


def weapon_done(state: BadBonesState, seat: int) -> list[Event]:
    state.weapons.pop(seat, None)
    if state.weapons:
        return []
    return proceed(state, state.after_weapons)


# ----------------------------------------------------------------------------- phase 2


def trap_events(state: BadBonesState) -> list[Event]:
    """Reveal every phase-2 submission (D13: hidden until now)."""
    events = []
    for seat in range(state.seats):
        sub = state.subs[seat]
        kind = sub["type"]
        if kind == "place":
            key = "badbones.event.placed"
            if sub["orientation"] in ORIENTATIONS:
                key = "badbones.event.placed_wall"
            elif sub["orientation"]:
                key = "badbones.event.placed_coloured"
            events.append(
                Event(
                    key,
                    {
                        "seat": seat,
                        "trap_key": f"badbones.trap.{sub['trap']}",
                        "square": sub["square"],
                        "orientation": sub["orientation"],
                        "colour_key": f"badbones.colour.{sub['orientation'] or 'white'}",
                    },
                )
            )
        elif kind == "retrieve":
            trap = state.boards[seat].traps[parse_name(sub["square"])]
            events.append(
                Event(
                    "badbones.event.retrieved",
                    {
                        "seat": seat,
                        "trap_key": f"badbones.trap.{trap.kind}",
                        "square": sub["square"],
                    },
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
            if not state.coop:
                r.board.supply.remove(sub["trap"])
            r.place(sub["trap"], parse_name(sub["square"]), sub["orientation"])
        elif sub["type"] == "retrieve":
            kind = r.board.traps.pop(parse_name(sub["square"])).kind
            if not state.coop:
                r.board.supply.append(kind)
    else:
        r.skeleton_phase()


def dry_run(state: BadBonesState, seat: int, scores: list[int] | None = None) -> None:
    """Resolve ``seat``'s board on a copy: record its open question, or that it has none. A
    question is stamped with the moment it was asked (``asked``: the game's count of answers
    then), which its buttons carry: they stay valid until it is answered, whatever the other
    boards answer meanwhile. The same question met again keeps its stamp."""
    r = resolver_for(state, seat, state.boards[seat].copy(), scores or scores_now(state))
    try:
        _run(state, state.stage, r, seat)
    except NeedChoice as need:
        earlier = dict(state.questions.get(seat) or {})
        asked = earlier.pop("asked", state.answered)
        state.questions[seat] = {
            **need.question,
            "asked": asked if earlier == need.question else state.answered,
        }
    else:
        state.questions.pop(seat, None)


def decisions(state: BadBonesState, seat: int) -> list[str]:
    """Every decision ``seat``'s board has taken so far this phase, in order (``kind=value``):
    its answers, and what its preferences chose, up to its open question (or the end)."""
    r = resolver_for(state, seat, state.boards[seat].copy(), scores_now(state))
    try:
        _run(state, state.stage, r, seat)
    except NeedChoice:
        pass
    return r.decisions


def board_at_question(state: BadBonesState, seat: int) -> Board | None:
    """``seat``'s board as it stands at its open question (``None``: no question). Nothing is
    committed while a question waits, so the saved board is still the one from before the
    phase; the picture of the question is this one (the same dry run, replayed)."""
    if state.stage not in (LANDING, SKELETONS) or seat not in state.questions:
        return None
    r = resolver_for(state, seat, state.boards[seat].copy(), scores_now(state))
    try:
        _run(state, state.stage, r, seat)
    except NeedChoice:
        return moment(r)
    return None  # pragma: no cover - a recorded question is met again (the replay is exact)


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


def answer(state: BadBonesState, seat: int, value: str) -> list[Event]:
    """An answer to ``seat``'s open question: replay this board; commit when no board has a
    question left."""
    state.answered += 1
    choice = state.questions[seat]["choice"]
    state.answers.setdefault(seat, []).append(f"{choice}={value}")
    dry_run(state, seat)
    return [] if state.questions else commit(state)


def prefer(state: BadBonesState, seat: int, choice: str, value: str) -> list[Event]:
    """A standing preference (``prefer``; "always decide for me" is ``auto``). While a phase
    resolves it applies from now on: the decisions the board took so far stand (recorded as
    its answers), and its open question, if of that kind, is decided by it."""
    board = state.boards[seat]
    if state.stage not in (LANDING, SKELETONS):
        board.prefs[choice] = value
        return []
    taken = decisions(state, seat)
    board.prefs[choice] = value
    state.answered += 1
    state.answers[seat] = taken
    dry_run(state, seat)
    return [] if state.questions else commit(state)


def commit(state: BadBonesState) -> list[Event]:
    """Every board resolves for real, tokens are delivered, and the round goes on."""
    stage = state.stage
    scores = scores_now(state)
    events: list[Event] = []
    resolvers: list[Resolver] = []
    capital = state.capital
    retrieved: dict[int, str] = {}
    if stage == LANDING:
        for seat, sub in state.subs.items():
            if sub.get("type") == "retrieve":
                retrieved[seat] = state.boards[seat].traps[parse_name(sub["square"])].kind
    for seat, board in enumerate(state.boards):
        r = resolver_for(state, seat, board, scores)
        try:
            _run(state, stage, r, seat)
        except NeedChoice:  # pragma: no cover - the dry runs answered everything
            raise AssertionError("a committed phase asked a question") from None
        resolvers.append(r)
    if state.coop and stage == LANDING:
        # The shared supply: placements leave it now; retrieved tiles come back only after
        # everyone has placed (so nobody places what someone just retrieved).
        for seat in range(state.seats):
            sub = state.subs.get(seat, {})
            if sub.get("type") == "place":
                state.pool.remove(sub["trap"])
        for seat in range(state.seats):
            sub = state.subs.get(seat, {})
            if sub.get("type") == "retrieve":
                state.pool.append(retrieved[seat])
    for seat, r in enumerate(resolvers):
        events.extend(board_events(seat, r))
        deliver(state, r)
    if state.capital != capital:
        events.append(
            Event(
                "badbones.event.capital",
                {"houses": state.capital, "change": state.capital - capital},
            )
        )
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
    # What "always decide for me" chose for the owner ("🤖 chose … for …").
    events.extend(
        questions.told(seat, {"choice": choice, **info}, value, r.coop, computer=True)
        for choice, value, info in r.decided
    )
    events.extend(r.weapon_events)  # D20: what the weapon did, in the middle of the phase
    if r.hero_died:
        events.append(Event("badbones.event.hero_died", {"seat": seat}))
    for (to, way), count in sorted(r.sent.items()):
        if way == "top" and r.coop:
            way = "top_coop"  # the cooperative side's "top" forest lies below the board
        events.append(
            Event(
                "badbones.event.sent",
                {"seat": seat, "to_seat": to, "count": count, "way_key": f"badbones.way.{way}"},
            )
        )
    if r.lost:
        events.append(Event("badbones.event.lost_in_maze", {"seat": seat, "count": r.lost}))
    if r.blown:
        events.append(Event("badbones.event.blown", {"seat": seat, "count": r.blown}))
    # Rebuilt before lost: the loss line ends on the count left after both, so the last number
    # read is what is left.
    if r.floors_rebuilt:
        events.append(
            Event("badbones.event.floor_rebuilt", {"seat": seat, "count": r.floors_rebuilt})
        )
    if r.floors_lost:
        key = "badbones.event.towers_hit" if r.coop else "badbones.event.tower_hit"
        events.append(Event(key, {"seat": seat, "count": r.floors_lost, "floors": r.board.floors}))
    if r.houses_rebuilt:
        events.append(
            Event("badbones.event.house_rebuilt", {"seat": seat, "count": r.houses_rebuilt})
        )
    if r.houses_lost:
        events.append(
            Event(
                "badbones.event.houses_burnt",
                {"seat": seat, "count": r.houses_lost, "houses": r.board.houses},
            )
        )
    if r.emperor:
        events.append(Event("badbones.event.emperor", {"seat": seat}))
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
    if state.coop:
        fallen = [s for s, b in enumerate(state.boards) if b.floors <= 0 or b.lost]
        for seat in fallen:
            events.append(Event("badbones.event.eliminated", {"seat": seat}))
        if fallen or state.capital <= 0:
            if state.capital <= 0:
                events.append(Event("badbones.event.capital_fallen", {}))
            return events + finish(state, "lost")
        return events + arrivals(state)
    eliminated = [s for s, b in enumerate(state.boards) if b.eliminated]
    for seat in eliminated:
        events.append(Event("badbones.event.eliminated", {"seat": seat}))
    rounds = int(state.options.get("solo_rounds", 10))
    heroic = bool(state.options.get("heroic", False))
    if eliminated:
        if state.solo and state.round > rounds:
            # Lost during the heroic ending: still the normal win, so one line says both (no
            # "eliminated" line before the victory).
            events = [e for e in events if e.key != "badbones.event.eliminated"]
            events.append(Event("badbones.event.solo_heroic_failed", {"round": state.round}))
            return events + finish(state, "won")
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
    return events + arrivals(state)


def arrivals(state: BadBonesState) -> list[Event]:
    """Phase 4 and the next round."""
    rounds = int(state.options.get("solo_rounds", 10))
    heroic = bool(state.options.get("heroic", False))
    events = new_skeletons(state, none_new=state.solo and heroic and state.round >= rounds)
    if state.coop:
        events.append(Event("badbones.event.coop_round", {"round": state.round}))
        if state.round >= COOP_ROUNDS:
            return events + finish(state, "won")
    state.round += 1
    state.stage = HERO
    state.subs = {}
    events.append(Event("badbones.event.round", {"round": state.round}))
    return events + maybe_resolve_heroes(state)


def new_skeletons(state: BadBonesState, none_new: bool = False) -> list[Event]:
    """Phase 4: 3 tokens each (D12: in seat order, one at a time, while the bag lasts; a chief
    necromancer makes its drawer draw 3 more), then every cemetery empties into its forests."""
    rng = Rng(state.rng)
    drawn = [0] * state.seats
    owed = [0 if none_new else NEW_SKELETONS] * state.seats
    empty = False
    while any(owed) and not empty:
        for seat, board in enumerate(state.boards):
            if not owed[seat]:
                continue
            token = draw(state.bag, rng, None, state.chiefs)
            if token is None:
                empty = True
                break
            owed[seat] -= 1
            board.cemetery.append(token)
            drawn[seat] += 1
            if token.kind == "necromancer":
                owed[seat] += NECROMANCER_DRAWS
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
    if empty:
        events.append(Event("badbones.event.bag_empty", {}))
    return events


def finish(state: BadBonesState, outcome: str) -> list[Event]:
    state.stage = OVER
    state.outcome = outcome
    state.subs = {}
    state.weapons = {}
    if state.coop:
        return [
            Event(
                f"badbones.event.coop_{outcome}",
                {"seats": list(range(state.seats)), "round": state.round},
            )
        ]
    state.scores = final_scores(state.boards)
    if state.solo:
        # A win is surviving the rounds asked for, whatever the heroic ending added.
        rounds = int(state.options.get("solo_rounds", 10))
        shown = min(state.round, rounds) if outcome == "won" else state.round
        return [Event(f"badbones.event.solo_{outcome}", {"seat": 0, "round": shown})]
    best = winners(state.boards, state.scores)
    # Everyone standing hears their score and where it comes from, not only who won.
    scored = [
        Event(
            "badbones.event.final_score",
            {
                "seat": s,
                "points": points,
                "floors": state.boards[s].floors,
                "houses": state.boards[s].houses,
                "stars": points
                - FLOOR_POINTS * state.boards[s].floors
                - HOUSE_POINTS * state.boards[s].houses,
            },
        )
        for s, points in sorted(state.scores.items())
        if points is not None
    ]
    if not best:  # everyone fell in the same round: no winner to name
        return [Event("badbones.event.game_over_none", {})]
    return scored + [
        Event(
            "badbones.event.game_over",
            {
                "seats": list(best),
                "points": max((v for v in state.scores.values() if v is not None), default=0),
            },
        )
    ]
