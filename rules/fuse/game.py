"""FUSE: a cooperative real-time dice game (rules: shared/rules/fuse.md, deck: deck.toml).

A round on Discord: the round's dice are rolled and shown with a button each; every player
``claim``s one die (first claim wins), then ``place``s it on one of their bomb cards or
``pass``es. A player who defuses a bomb ``take``s a new card from the centre row at once. When
everybody is done, the fuse cards revealed during the round and then the unused dice (re-rolled
one at a time) make players ``return`` matching dice to the bag; then the next round is drawn.

Time: in ``live`` mode the 10-minute clock starts at the first ``draw`` (the ``now`` passed to
``apply``); every pending input has the clock end as its deadline, and any action arriving after
it ends the game as lost before anything else. In ``relaxed`` mode there is no clock: the round
deadline is the service's, and the bomb goes off after ``rounds`` rounds, by default a number
set by the deck (house rules D9, D14), so that a game always ends.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
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
)
from rules.fuse.cards import (
    COLOURS,
    EMPTY,
    BombCard,
    Slot,
    card_kinds,
    die_name,
    fuse_target,
    house_deck,
    is_fuse,
)

DIFFICULTIES = ("training", "standard", "expert", "elite", "insane")
# Bomb deck size by difficulty, for 1..5 players (the cards dealt to players are extra).
DECK_SIZE: dict[str, tuple[int, int, int, int, int]] = {
    "training": (16, 17, 18, 19, 20),
    "standard": (19, 20, 21, 22, 23),
    "expert": (21, 22, 23, 24, 25),
    "elite": (23, 24, 25, 26, 27),
    "insane": (25, 26, 27, 28, 29),
}
CLOCK_SECONDS = 600.0
ROUND_TIMER = 20  # seconds (option round_timer): live mode's per-round timer, applied by the bot
CENTRE_SIZE = 5
FUSES_IN_DECK = 6
NUM_DICE = 25
DICE_PER_COLOUR = 5


# D14 (house): relaxed mode's bomb goes off after a number of rounds set by the deck: this
# many rounds per bomb card in play (the deck and the cards dealt), by seat count. Measured at
# chat pace with the computer players (``python -m bench fuse``): a ``normal`` team beats it
# in about nine games out of ten (the 85th-90th percentile of the rounds it needs).
ROUNDS_PER_CARD = (9.0, 3.5, 4.0, 2.75, 2.0)


def relaxed_rounds(seats: int, deck_size: int) -> int:
    """Relaxed mode's round limit for a deck of ``deck_size`` bomb cards (option ``rounds`` 0)."""
    cards = deck_size + (4 if seats == 1 else 2 * seats)
    return -int(-ROUNDS_PER_CARD[seats - 1] * cards // 1)


def dice_per_round(seats: int) -> int:
    return 3 if seats == 1 else 4 if seats == 2 else seats


def die_colour(d: int) -> int:
    """Dice 0–4 are red, 5–9 blue, 10–14 green, 15–19 yellow, 20–24 black."""
    return d // DICE_PER_COLOUR


# ---------------------------------------------------------------------------- actions


@dataclass(frozen=True)
class Draw(Action):
    """Start: draw and roll the first round's dice (starts the clock in live mode)."""

    kind = "draw"


@dataclass(frozen=True)
class Claim(Action):
    """Take one of the rolled dice, named like ``R4`` (colour letter, number)."""

    kind = "claim"
    die: str


@dataclass(frozen=True)
class Place(Action):
    """Put the claimed die on one of your bomb cards (slot numbers start at 1)."""

    kind = "place"
    card: str
    slot: int


@dataclass(frozen=True)
class Pass(Action):
    """Leave the round's dice (a claimed die is released)."""

    kind = "pass"


@dataclass(frozen=True)
class Take(Action):
    """After a defuse: take a bomb card from the centre row."""

    kind = "take"
    card: str


@dataclass(frozen=True)
class Return(Action):
    """Return one of your dice (the one on ``card`` at ``slot``) to the bag."""

    kind = "return"
    card: str
    slot: int


# Shared instances of the immutable actions legal_actions hands out (built once, not per call).
_PASS = Pass()


class _PlaceActions(dict[str, tuple["Place", ...]]):
    """card id -> its Place actions by slot index, built on first use."""

    def __missing__(self, card_id: str) -> tuple[Place, ...]:
        places = tuple(Place(card_id, s + 1) for s in range(len(_bomb(card_id).slots)))
        self[card_id] = places
        return places


_PLACES = _PlaceActions()


# ---------------------------------------------------------------------------- state


@dataclass(slots=True)
class FuseState:
    seats: int
    difficulty: str
    mode: str  # live | relaxed
    hard: bool
    solo_dice: int
    round_limit: int  # relaxed mode: the bomb goes off after this many rounds (D9, D14)
    top_up: bool  # D6: a player short of cards takes one when the centre row allows it
    rng: int
    stage: str  # start | choose | return | over
    round: int
    step: int  # counts stage changes and resolution steps (stale buttons)
    faces: list[int]  # the face each of the 25 dice shows
    bag: list[int]  # die ids in the bag
    drawn: list[int]  # the dice drawn this round, in order
    loose: list[int]  # drawn dice on no card and not yet back in the bag
    hands: list[list[str]]  # bomb card ids in front of each seat
    dice: dict[str, list[int]]  # card id -> die id per slot (EMPTY: none) for cards in hands
    deck: list[str]  # top first: bomb card ids and fuse card ids ("F-R", "F-3")
    centre: list[str]
    claims: dict[int, int]  # seat -> the die it holds (claimed, not yet placed)
    used: list[int]  # dice placed this round, per seat
    done: list[bool]  # the seat finished the round
    taking: list[bool]  # the seat defused a bomb and must take a centre card
    queue: list[str]  # what makes players return dice: "F-R" fuse cards, "D7" unused die 7
    current: str  # the queue item being resolved ("" none)
    owing: dict[int, list[tuple[str, int]]]  # seat -> the (card, slot) dice it may return
    defused: list[str]
    fuses: list[str]  # fuse cards revealed (2 points each)
    clock_end: float | None
    outcome: str  # "" | won | lost
    reason: str  # why it ended: won | clock | bag | rounds
    seconds_left: int
    last_now: float  # the time of the latest action (the image shows the clock as of then)
    # Two caches, not the game: never dumped, rebuilt on demand after ``load``. ``keys``: each
    # card's dice as die values (``_filled``); ``reach``: per seat, the die values it can place
    # and the values whose answer is known, as bit masks (``_placeable``). A card's entry and
    # its seat's go stale only when a die comes onto it or leaves it, or the card comes or goes
    # (``_changed``). Without them FUSE runs below its speed floor: see docs/games/fuse.md.
    keys: dict[str, tuple[int, ...]] = field(default_factory=dict, compare=False, repr=False)
    reach: dict[int, tuple[int, int]] = field(default_factory=dict, compare=False, repr=False)


_CACHES = ("keys", "reach")


def _bomb(card_id: str) -> BombCard:
    return _BOMBS[card_id]


_BOMBS = house_deck().bombs  # read once at import (house_deck is cached)


def die_token(state: FuseState, d: int) -> str:
    """How players name die ``d`` now: ``R4``."""
    return _TOKENS[_BASE[d] + state.faces[d]]


def _filled(state: FuseState, card_id: str) -> tuple[int, ...]:
    """The card's dice as die values (``EMPTY`` for an empty slot): the key of the card's
    memos (``BombCard.legal_slots``, ``BombCard.answers``). Kept in ``state.keys``."""
    key = state.keys.get(card_id)
    if key is None:
        faces = state.faces
        key = tuple([_BASE[d] + faces[d] if d >= 0 else EMPTY for d in state.dice[card_id]])
        state.keys[card_id] = key
    return key


def _changed(state: FuseState, seat: int, card_id: str) -> None:
    """A die was placed on the seat's card or left it, or the card came or went."""
    state.keys.pop(card_id, None)
    state.reach.pop(seat, None)


def forget_memos(state: FuseState) -> None:
    """Drop the state's caches: for code that rearranges a state by hand (test positions)."""
    state.keys.clear()
    state.reach.clear()


def _placeable(state: FuseState, seat: int, values: int) -> int:
    """Of the die values in the bit mask ``values``, those the seat could place now on one of
    its cards. Kept in ``state.reach``: between two of its placements a seat is asked this
    several times a round."""
    found, known = state.reach.get(seat) or (0, 0)
    todo = values & ~known
    if todo:
        # A value is known for the seat when a card takes it, or when every card has answered
        # (what is known already stays known: the entry goes when one of the seat's cards
        # changes). Only the values not known yet are asked, and only until a card takes them.
        answered = _EVERY_VALUE
        for card_id in state.hands[seat]:
            entry = _BOMBS[card_id].answers(_filled(state, card_id), todo)
            found |= entry[0]
            answered &= entry[1]
            todo &= ~found
            if not todo:
                break
        else:
            known |= answered
        state.reach[seat] = found, known | found
    return found & values


_EVERY_VALUE = (1 << 30) - 1


def _ran_out(state: FuseState, now: float) -> bool:
    """The live clock has run out: the bomb went off."""
    return state.clock_end is not None and now >= state.clock_end


def _value_named(token: object) -> int:
    """The die value a claim names (``R4``, typed as `` r4`` too; ``EMPTY``: none)."""
    return _VALUE_OF.get(str(token).strip().upper(), EMPTY)


def _free_die(state: FuseState, value: int) -> int:
    """The first die of the round showing ``value`` still on the table and held by nobody
    (``EMPTY``: none)."""
    held = state.claims.values()
    for d in state.drawn:
        if _BASE[d] + state.faces[d] == value and d in state.loose and d not in held:
            return d
    return EMPTY


def _return_choice(action: Return) -> tuple[str, int]:
    """The (card, slot index) a return names."""
    return str(action.card).upper(), action.slot - 1 if isinstance(action.slot, int) else -1


# die id -> its value code minus its face (so value = _BASE[d] + face)
_BASE = [(d // DICE_PER_COLOUR) * 6 - 1 for d in range(NUM_DICE)]
_TOKENS = [die_name(v) for v in range(30)]
_CLAIMS = [Claim(token) for token in _TOKENS]  # by die value
_VALUE_OF = {token: value for value, token in enumerate(_TOKENS)}
_COLOUR_KEYS = [f"fuse.colour.{colour}" for colour in COLOURS]
# The events every round repeats, built once: events are immutable, so handing out the same
# instance again is the same as building an equal one (and a frozen dataclass is slow to build).
_PASSED = [Event("fuse.event.passed", {"seat": seat}, to=seat) for seat in range(5)]
_CLAIMED = [  # by seat, then die value; told to the whole team (the rules: claims are open)
    [Event("fuse.event.claimed", {"seat": seat, "die": token}) for token in _TOKENS]
    for seat in range(5)
]
_REROLLED = [  # by die value
    Event("fuse.event.rerolled", {"colour_key": _COLOUR_KEYS[v // 6], "number": v % 6 + 1})
    for v in range(30)
]


def _rejects(icon: Slot, card_id: str, slot: int, die: str) -> RulesError:
    """Why a die does not match an icon, in words ("takes a black die") rather than the deck
    file's notation ("[K]"); a split icon, whose halves are read as codes, keeps its code."""
    args: dict[str, Any] = {"card": card_id, "slot": slot, "die": die}
    if len(icon.alts) == 1:
        colour, number = icon.alts[0]
        if colour is not None and number is not None:
            return RulesError(
                "fuse.error.slot_wants_both", colour_key=_COLOUR_KEYS[colour], number=number, **args
            )
        if colour is not None:
            return RulesError(
                "fuse.error.slot_wants_colour", colour_key=_COLOUR_KEYS[colour], **args
            )
        if number is not None:
            return RulesError("fuse.error.slot_wants_number", number=number, **args)
    return RulesError("fuse.error.slot_rejects", icon=icon.text.strip("[]"), **args)


# ---------------------------------------------------------------------------- the engine


class Fuse(Game[FuseState]):
    name = "fuse"
    min_seats = 1
    max_seats = 5
    option_specs = (
        OptionSpec("difficulty", "choice", "standard", choices=DIFFICULTIES),
        OptionSpec("mode", "choice", "live", choices=("live", "relaxed")),
        OptionSpec("hard", "bool", False),
        OptionSpec("solo_dice", "int", 3, min=1, max=3),
        OptionSpec("rounds", "int", 0, min=0, max=999),
        OptionSpec("top_up", "bool", False),
        # Live mode by chat: a seat that has not played within this many seconds of the round's
        # start gets the computer's move (the service's deadline, not a rule; 0 = off).
        OptionSpec("round_timer", "int", ROUND_TIMER, min=0, max=600),
    )
    action_types = (Draw, Claim, Place, Pass, Take, Return)
    commands = (
        Command("draw", button=True),
        Command("claim", (Param("die", autocomplete=True, names="fuse.die"),), button=True),
        Command(
            "place",
            (Param("card", autocomplete=True), Param("slot", "int", autocomplete=True)),
            button=True,
            owned=True,  # your die on your card: with two holders, each button says whose
        ),
        Command("pass", button=True),
        Command("take", (Param("card", autocomplete=True),), button=True),
        Command(
            "return",
            (Param("card", autocomplete=True), Param("slot", "int", autocomplete=True)),
            button=True,
            owned=True,
        ),
    )

    def pieces(self) -> dict[str, tuple[Piece, ...]]:
        # The kinds the deck in play is made of (slots, relations, shapes, levels, fuse cards).
        return {
            "cards": tuple(
                Piece(k, f"fuse.card.{k}", f"fuse.card_text.{k}") for k in card_kinds(house_deck())
            )
        }

    # ------------------------------------------------------------------ setup

    def setup(self, num_seats: int, options: dict[str, Any], seed: int) -> FuseState:
        rng = Rng(seed)
        deck = house_deck()
        pool = [c.id for c in deck.bombs.values() if options["hard"] or not c.hard]
        rng.shuffle(pool)
        hands = [_deal_hand(pool, num_seats == 1) for _ in range(num_seats)]
        size = DECK_SIZE[options["difficulty"]][num_seats - 1]
        bombs = pool[:size]
        centre, rest = bombs[:CENTRE_SIZE], bombs[CENTRE_SIZE:]
        fuses = list(deck.fuses)
        rng.shuffle(fuses)
        rest += fuses[:FUSES_IN_DECK]
        rng.shuffle(rest)
        dice = {c: [EMPTY] * len(_bomb(c).slots) for hand in hands for c in hand}
        return FuseState(
            seats=num_seats,
            difficulty=options["difficulty"],
            mode=options["mode"],
            hard=options["hard"],
            solo_dice=options["solo_dice"],
            round_limit=options["rounds"] or relaxed_rounds(num_seats, size),
            top_up=options["top_up"],
            rng=rng.state,
            stage="start",
            round=0,
            step=0,
            faces=[1] * NUM_DICE,
            bag=list(range(NUM_DICE)),
            drawn=[],
            loose=[],
            hands=hands,
            dice=dice,
            deck=rest,
            centre=centre,
            claims={},
            used=[0] * num_seats,
            done=[False] * num_seats,
            taking=[False] * num_seats,
            queue=[],
            current="",
            owing={},
            defused=[],
            fuses=[],
            clock_end=None,
            outcome="",
            reason="",
            seconds_left=0,
            last_now=0.0,
        )

    # ------------------------------------------------------------------ who acts

    def is_news(self, event: Event) -> bool:
        # FUSE hides nothing (every card and die is face up): its one private event echoes the
        # reader's own pass, which a pass played by default makes no news of (play-test: the
        # channel read "🔒 alice: something only you may see happened" at every autopilot pass).
        return False

    def hand_size(self, state: FuseState) -> int:
        """Bomb cards in front of each player: 2, or 4 solo."""
        return 4 if state.seats == 1 else 2

    def quota(self, state: FuseState) -> int:
        """Dice a seat may place per round: 1, two each with 2 players, solo per D1 — counting
        only the players still holding bombs once deck and centre are empty (D16)."""
        seats = self.players_in(state)
        return 1 if seats > 2 else 2 if seats == 2 else state.solo_dice

    def announced_options(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        """Live mode's round timer is named in the lobby, set or not: new players are handed
        to the computer after a few silent rounds otherwise."""
        live = options.get("mode", "live") == "live"
        return ("round_timer",) if live and options.get("round_timer", ROUND_TIMER) else ()

    def players_in(self, state: FuseState) -> int:
        """How many players the round is dealt for. D16 (house, Insane's end): once deck and
        centre row are empty, a player whose cards are all defused is out of the rounds, so the
        round's dice and quotas are those of the players still holding bombs. Otherwise their
        unused dice, rolled again each round, would keep knocking dice off the last cards."""
        if state.deck or state.centre:
            return state.seats
        return max(1, sum(1 for hand in state.hands if hand))

    def pending(self, state: FuseState) -> dict[int, Pending]:
        deadline = state.clock_end
        stage = state.stage
        if stage == "choose":
            out: dict[int, Pending] = {}
            taking, claims, faces = state.taking, state.claims, state.faces
            choosing = _CHOICE_PENDINGS.get(deadline) or _choice_pendings(deadline)
            seat = 0
            for done in state.done:  # (cheaper than indexing by range(seats): every action)
                if taking[seat]:
                    out[seat] = Pending("take", Take(self._takeable(state, seat)[0]), deadline)
                elif not done:
                    held = claims.get(seat)
                    # EMPTY (-1) indexes the claim, a held die's value its place
                    out[seat] = choosing[EMPTY if held is None else _BASE[held] + faces[held]]
                seat += 1
            return out
        if stage == "start":
            return {0: Pending("start", Draw())}
        if stage == "return":
            kind, args = _match_args(self._match_text(state))
            return {
                seat: Pending(kind, self._default_return(state, seat), deadline, args)
                for seat in sorted(state.owing)
            }
        return {}

    def legal_actions(self, state: FuseState, seat: int) -> list[Action]:
        stage = state.stage
        if stage != "choose":
            if stage == "start":
                return [Draw()]
            if stage == "return":
                return [Return(c, s + 1) for c, s in state.owing.get(seat, [])]
            return []
        if state.taking[seat]:
            return [Take(c) for c in self._takeable(state, seat)]
        if state.done[seat]:
            return []
        actions: list[Action] = []
        faces, claims = state.faces, state.claims
        taken = claims.values()
        free = []  # the values of the loose dice nobody holds
        wanted = 0  # the same, as a bit mask
        for d in state.loose:
            if d not in taken:
                value = _BASE[d] + faces[d]
                free.append(value)
                wanted |= 1 << value
        held = claims.get(seat)
        holding = EMPTY  # the value of the die the seat holds
        if held is not None:
            holding = _BASE[held] + faces[held]
            wanted &= ~(1 << holding)  # no claim of a die just like the one held
        if holding != EMPTY:  # where the held die may go, card by card
            for c in state.hands[seat]:
                places = _PLACES[c]
                for s in _BOMBS[c].legal_slots(_filled(state, c), holding):
                    actions.append(places[s])
        # of the wanted values, those with a legal slot on one of the cards
        placeable = _placeable(state, seat, wanted) if wanted else 0
        # One claim per value (identical dice: one claim), in the order of the loose dice.
        for value in free:
            if placeable >> value & 1:
                actions.append(_CLAIMS[value])
                placeable ^= 1 << value
        actions.append(_PASS)
        return actions

    def _takeable(self, state: FuseState, seat: int) -> list[str]:
        """Centre cards the seat may take: not a second level 3/4 (or hard) card."""
        holds_high = any(_bomb(c).high for c in state.hands[seat])
        return [c for c in state.centre if not (holds_high and _bomb(c).high)]

    # ------------------------------------------------------------------ applying

    def copy(self, state: FuseState) -> FuseState:
        """A deep copy: the fields holding lists and dicts get copies of their own (the rest
        are immutable); the caches are carried over."""
        return replace(
            state,
            faces=state.faces[:],
            bag=state.bag[:],
            drawn=state.drawn[:],
            loose=state.loose[:],
            hands=[hand[:] for hand in state.hands],
            dice={card_id: slots[:] for card_id, slots in state.dice.items()},
            deck=state.deck[:],
            centre=state.centre[:],
            claims=dict(state.claims),
            used=state.used[:],
            done=state.done[:],
            taking=state.taking[:],
            queue=state.queue[:],
            owing={seat: options[:] for seat, options in state.owing.items()},
            defused=state.defused[:],
            fuses=state.fuses[:],
            keys=dict(state.keys),
            reach=dict(state.reach),
        )

    def play(self, state: FuseState, seat: int, action: Action, now: float) -> list[Event]:
        """``check`` then ``resolve``; but the bomb does not wait for a valid action: once the
        clock has run out, any action of a seat of a game still on ends it as lost."""
        if _ran_out(state, now):
            self._check_seat(state, seat)
        else:
            self.check(state, seat, action)
        return self.resolve(state, seat, action, now)

    def check(self, state: FuseState, seat: int, action: Action) -> None:
        self._check_seat(state, seat)
        stage = state.stage
        if isinstance(action, Draw):
            if stage != "start":
                raise RulesError("fuse.error.already_drawn")
        elif stage == "start":
            # Say what to do instead of "not possible in this phase".
            raise RulesError("fuse.error.not_started")
        elif isinstance(action, Return):
            self._check_return(state, seat, action)
        elif stage != "choose":
            raise RulesError("core.error.wrong_phase")
        elif isinstance(action, Take):
            self._check_take(state, seat, action.card)
        elif state.taking[seat]:
            raise RulesError("fuse.error.must_take")
        elif state.done[seat]:
            raise RulesError("fuse.error.round_done")
        elif isinstance(action, Claim):
            self._check_claim(state, seat, action.die)
        elif isinstance(action, Place):
            self._check_place(state, seat, action.card, action.slot)
        elif not isinstance(action, Pass):
            raise RulesError("core.error.bad_action")

    def resolve(self, state: FuseState, seat: int, action: Action, now: float) -> list[Event]:
        events: list[Event] = []
        state.last_now = now
        if _ran_out(state, now):
            # The bomb went off: nothing a late action asks for happens.
            self._end(state, "lost", "clock", events, now)
            return events
        if isinstance(action, Draw):
            if state.mode == "live":
                state.clock_end = now + CLOCK_SECONDS
            events.append(Event("fuse.event.started", {"clock_end": state.clock_end}))
            self._start_round(state, events)
            return events
        if isinstance(action, Return):
            self._return_die(state, seat, *_return_choice(action), events)
            del state.owing[seat]
            if not state.owing:
                state.stage = "choose"  # transient: _advance either waits again or starts a round
                self._finish_item(state)
                self._advance(state, events)
            return events
        if isinstance(action, Take):
            self._take(state, seat, action.card, events, now)
        elif isinstance(action, Claim):
            d = _free_die(state, _value_named(action.die))
            state.claims[seat] = d
            events.append(_CLAIMED[seat][_BASE[d] + state.faces[d]])
            # a claim changes nobody's options: no need to look for finished seats
            return events
        elif isinstance(action, Place):
            self._place(state, seat, state.claims[seat], action.card, action.slot - 1, events, now)
        else:  # Pass
            state.claims.pop(seat, None)
            state.done[seat] = True
            events.append(_PASSED[seat])
            # the dice on the table did not change: only the end of the round may have come
            if all(state.done) and not any(state.taking):
                self._end_choose(state, events)
            return events
        if state.stage == "choose":
            self._after_choice(state, events)
        return events

    # the parts of check(): each raises the specific reason

    @staticmethod
    def _check_seat(state: FuseState, seat: int) -> None:
        if state.stage == "over":
            if state.reason == "clock":
                raise RulesError("fuse.error.time_up")
            raise RulesError("core.error.game_over")
        if not 0 <= seat < state.seats:
            raise RulesError("core.error.not_your_turn")

    def _check_claim(self, state: FuseState, seat: int, token: str) -> None:
        name = str(token).strip().upper()
        if not name:
            raise RulesError("fuse.error.no_die_named")
        value = _VALUE_OF.get(name, EMPTY)
        faces = state.faces
        free = _free_die(state, value)
        # (a free die shows the value: only without one is the round's dice looked through)
        if free == EMPTY and not any(_BASE[d] + faces[d] == value for d in state.drawn):
            raise RulesError("fuse.error.no_such_die", die=name[:10])
        held = state.claims.get(seat)
        if held is not None and _BASE[held] + faces[held] == value:
            raise RulesError("fuse.error.already_holding", die=name)
        if free == EMPTY:
            raise RulesError("fuse.error.die_taken", die=name)
        if state.used[seat] >= self.quota(state):
            raise RulesError("fuse.error.quota", count=self.quota(state))
        if not _placeable(state, seat, 1 << value):
            raise RulesError("fuse.error.no_place", die=name)

    def _check_place(self, state: FuseState, seat: int, card_id: str, slot: int) -> None:
        d = state.claims.get(seat)
        if d is None:
            raise RulesError("fuse.error.no_die")
        if card_id not in state.hands[seat]:
            raise RulesError("fuse.error.not_your_card", card=str(card_id)[:10])
        card = _BOMBS[card_id]
        if not isinstance(slot, int) or not 1 <= slot <= len(card.slots):
            raise RulesError("fuse.error.bad_slot", card=card_id, count=len(card.slots))
        s = slot - 1
        filled = _filled(state, card_id)
        value = _BASE[d] + state.faces[d]
        # legal_slots (memoised) holds exactly the slots that pass every check below: a legal
        # placement needs no more; a refused one goes through them in order for its reason.
        if s in card.legal_slots(filled, value):
            return
        token = _TOKENS[value]
        if filled[s] >= 0:
            raise RulesError("fuse.error.slot_full", card=card_id, slot=slot)
        if not card.fits(s, value):
            raise _rejects(card.slots[s], card_id, slot, token)
        if not card.supported(filled, s):
            layout = "pyramid" if len(card.below[s]) == 2 else "stack"
            raise RulesError(f"fuse.error.{layout}_order", card=card_id, slot=slot)
        raise RulesError("fuse.error.cannot_complete", card=card_id, slot=slot, die=token)

    def _check_take(self, state: FuseState, seat: int, card_id: str) -> None:
        if not state.taking[seat]:
            raise RulesError("fuse.error.nothing_to_take")
        if card_id not in state.centre:
            raise RulesError("fuse.error.not_in_centre", card=str(card_id)[:10])
        if card_id not in self._takeable(state, seat):
            raise RulesError("fuse.error.second_high", card=card_id)

    # the round

    def _start_round(self, state: FuseState, events: list[Event]) -> None:
        state.step += 1
        if state.mode == "relaxed" and state.round >= state.round_limit:
            # the last round was played: the bomb goes off (and no "round 61 of 60" is shown)
            self._end(state, "lost", "rounds", events)
            return
        state.round += 1
        if not state.bag:
            self._end(state, "lost", "bag", events)
            return
        rng = Rng(state.rng)
        bag = state.bag
        drawn = []
        for _ in range(min(dice_per_round(self.players_in(state)), len(bag))):
            drawn.append(rng.draw(bag))
        faces = state.faces
        for d in drawn:
            faces[d] = rng.randint(1, 6)
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
            if len(state.hands[seat]) < self.hand_size(state) and self._takeable(state, seat):
                state.taking[seat] = True
        events.append(
            Event(
                "fuse.event.round",
                {
                    "round": state.round,
                    "dice": " ".join([_TOKENS[_BASE[d] + faces[d]] for d in drawn]),
                },
            )
        )
        self._after_choice(state, events)

    def _after_choice(self, state: FuseState, events: list[Event]) -> None:
        """Seats that can place none of the dice left are done; when all are, resolve."""
        faces = state.faces
        values = 0  # the loose dice's values, as a bit mask
        for d in state.loose:
            values |= 1 << (_BASE[d] + faces[d])
        done, taking, claims, used = state.done, state.taking, state.claims, state.used
        quota = self.quota(state)
        for seat in range(state.seats):
            if done[seat] or taking[seat] or seat in claims:
                continue
            if used[seat] >= quota or not _placeable(state, seat, values):
                done[seat] = True
        if all(done) and not any(taking):
            self._end_choose(state, events)

    def _place(
        self,
        state: FuseState,
        seat: int,
        d: int,
        card_id: str,
        s: int,
        events: list[Event],
        now: float,
    ) -> None:
        slots = state.dice[card_id]
        slots[s] = d
        _changed(state, seat, card_id)
        state.loose.remove(d)
        del state.claims[seat]
        state.used[seat] += 1
        events.append(
            Event(
                "fuse.event.placed",
                {
                    "seat": seat,
                    "colour_key": _COLOUR_KEYS[die_colour(d)],
                    "number": state.faces[d],
                    "card": card_id,
                    "slot": s + 1,
                },
            )
        )
        if EMPTY not in slots:  # every slot holds a die
            self._defuse(state, seat, card_id, events, now)
        if state.used[seat] >= self.quota(state):
            state.done[seat] = True

    def _defuse(
        self, state: FuseState, seat: int, card_id: str, events: list[Event], now: float
    ) -> None:
        state.bag.extend(state.dice.pop(card_id))
        _changed(state, seat, card_id)
        state.hands[seat].remove(card_id)
        state.defused.append(card_id)
        events.append(
            Event(
                "fuse.event.defused",
                {"seat": seat, "card": card_id, "points": _bomb(card_id).points},
            )
        )
        if self._takeable(state, seat):
            state.taking[seat] = True
        else:
            self._check_win(state, events, now)

    def _take(
        self, state: FuseState, seat: int, card_id: str, events: list[Event], now: float
    ) -> None:
        state.centre.remove(card_id)
        state.hands[seat].append(card_id)
        state.dice[card_id] = [EMPTY] * len(_bomb(card_id).slots)
        _changed(state, seat, card_id)
        state.taking[seat] = False
        events.append(Event("fuse.event.took", {"seat": seat, "card": card_id}))
        while state.deck and len(state.centre) < CENTRE_SIZE:
            top = state.deck.pop(0)
            if is_fuse(top):
                # Counted at once; its returns wait until every player is done placing (D5).
                state.fuses.append(top)
                state.queue.append(top)
                kind, args = _match_args(top[2:])
                events.append(Event(f"fuse.event.fuse_card_{kind[7:]}", args))
            else:
                state.centre.append(top)
        for other in range(state.seats):
            # Another seat waiting to take may have lost its last allowed card to this take.
            if state.taking[other] and not self._takeable(state, other):
                state.taking[other] = False
        self._check_win(state, events, now)

    def _check_win(self, state: FuseState, events: list[Event], now: float) -> None:
        if state.deck or state.centre or state.stage == "over":
            return
        if state.difficulty == "insane" and any(state.hands):
            return
        self._end(state, "won", "won", events, now)

    def _end_choose(self, state: FuseState, events: list[Event]) -> None:
        for d in state.loose:
            state.queue.append(f"D{d}")
        state.claims = {}
        self._advance(state, events)

    def _advance(self, state: FuseState, events: list[Event]) -> None:
        """Resolve the return queue item by item; stop where a player has a choice."""
        placed = self._placed(state) if state.queue else []
        while state.queue:
            item = state.queue.pop(0)
            state.step += 1
            told = len(events)  # a fuse card's line goes here, once we know who matches
            if item.startswith("F-"):
                colour, number = fuse_target(item)
            else:
                d = int(item[1:])
                rng = Rng(state.rng)
                state.faces[d] = rng.randint(1, 6)
                state.rng = rng.state
                colour, number = die_colour(d), state.faces[d]
                events.append(_REROLLED[_BASE[d] + number])
            state.current = item
            state.owing = {}
            # Each seat's dice of that colour or number that are not safe, in the order of its
            # cards and slots: one is returned at once, several are the player's choice.
            returnable: dict[int, list[tuple[str, int]]] | None = None
            faces, dice = state.faces, state.dice
            for seat, card_id, s, d in placed:
                if d // DICE_PER_COLOUR != colour and faces[d] != number:
                    continue  # (the cheap test first: most dice do not match)
                slots = dice[card_id]
                if slots[s] != d:  # returned by an earlier item
                    continue
                # a die under another die of a stack or pyramid is safe (BombCard.safe)
                for a in _BOMBS[card_id].above[s]:
                    if slots[a] >= 0:
                        break
                else:
                    if returnable is None:
                        returnable = {}
                    returnable.setdefault(seat, []).append((card_id, s))
            if item.startswith("F-"):
                # "everyone returns…" only when someone has a matching die
                kind, args = _match_args(item[2:])
                none = "" if returnable else "_none"
                events.insert(told, Event(f"fuse.event.fuse_resolves_{kind[7:]}{none}", args))
            if returnable:
                for seat, options in returnable.items():
                    options = _distinct(state, options)
                    if len(options) == 1:
                        self._return_die(state, seat, *options[0], events)
                    else:
                        state.owing[seat] = options
                if state.owing:
                    state.stage = "return"
                    return
            self._finish_item(state)
        state.current = ""
        self._start_round(state, events)

    def _finish_item(self, state: FuseState) -> None:
        if state.current.startswith("D"):
            d = int(state.current[1:])
            state.loose.remove(d)
            state.bag.append(d)
        state.current = ""

    def _placed(self, state: FuseState) -> list[tuple[int, str, int, int]]:
        """Every die on a card as (seat, card, slot, die), by seat, card and slot: what the
        return queue looks through (dice leave cards while it is resolved, none arrive)."""
        dice, placed = state.dice, []
        seat = 0
        for hand in state.hands:
            for card_id in hand:
                s = 0
                for d in dice[card_id]:  # (a counter is cheaper than enumerate here)
                    if d >= 0:
                        placed.append((seat, card_id, s, d))
                    s += 1
            seat += 1
        return placed

    def _return_die(
        self, state: FuseState, seat: int, card_id: str, s: int, events: list[Event]
    ) -> None:
        d = state.dice[card_id][s]
        state.dice[card_id][s] = EMPTY
        _changed(state, seat, card_id)
        state.bag.append(d)
        events.append(
            Event(
                "fuse.event.returned",
                {
                    "seat": seat,
                    "colour_key": _COLOUR_KEYS[die_colour(d)],
                    "number": state.faces[d],
                    "card": card_id,
                },
            )
        )

    @staticmethod
    def _check_return(state: FuseState, seat: int, action: Return) -> None:
        options = state.owing.get(seat)
        if state.stage != "return" or not options:
            raise RulesError("fuse.error.nothing_to_return")
        if _return_choice(action) not in options:
            raise RulesError("fuse.error.cannot_return")

    def _default_return(self, state: FuseState, seat: int) -> Return:
        """D4: the die whose loss sets the cards back least — on the card with the fewest dice
        (least progress lost), then the lowest card value."""

        def cost(option: tuple[str, int]) -> tuple[int, int, str, int]:
            card_id, s = option
            placed = sum(1 for d in state.dice[card_id] if d >= 0)
            return placed, _bomb(card_id).points, card_id, s

        card_id, s = min(state.owing[seat], key=cost)
        return Return(card_id, s + 1)

    def _match_text(self, state: FuseState) -> str:
        item = state.current
        if item.startswith("F-"):
            return item[2:]
        if item.startswith("D"):
            return die_token(state, int(item[1:]))
        return ""

    def _end(
        self, state: FuseState, outcome: str, reason: str, events: list[Event], now: float = 0.0
    ) -> None:
        if outcome == "won" and state.clock_end is not None:
            state.seconds_left = max(0, int(state.clock_end - now))
        state.stage = "over"
        state.step += 1
        state.outcome = outcome
        state.reason = reason
        state.claims = {}
        state.owing = {}
        # Keep the 25 dice accounted for: whatever was rolled this round goes back to the bag.
        state.bag.extend(state.loose)
        state.loose = []
        score = self.score(state)
        if outcome == "won":
            events.append(Event("fuse.event.won", {"score": score}))
        else:
            events.append(Event(f"fuse.event.lost_{reason}", {"score": score}))

    def score(self, state: FuseState) -> int:
        """10 for a win plus 1 per full 10 seconds left (live wins), the points of the defused
        bombs, 2 per fuse card revealed."""
        points = sum(_bomb(c).points for c in state.defused) + 2 * len(state.fuses)
        if state.outcome == "won":
            points += 10 + state.seconds_left // 10
        return points

    # ------------------------------------------------------------------ the end

    def is_over(self, state: FuseState) -> bool:
        return state.stage == "over"

    def result(self, state: FuseState) -> Result | None:
        if state.stage != "over":
            return None
        score = self.score(state)
        winners = tuple(range(state.seats)) if state.outcome == "won" else ()
        # The end itself was narrated by the last move's event (won / lost_*): the summary adds
        # how the score is made up, so the closing message does not say the same line twice.
        return Result(winners, {s: score for s in range(state.seats)}, self._score_summary(state))

    def _score_summary(self, state: FuseState) -> Event:
        """How the score is made up, each part with its points (rules §5), so that they add
        up: the win (10), the time left (live wins), the defused bombs, the fuse cards. At a
        win with bombs still in front of the players (the win needs only the deck and the
        centre row empty), it says they score nothing: the picture shows them."""
        bomb_points = sum(_bomb(c).points for c in state.defused)
        args: dict[str, Any] = {
            "score": self.score(state),
            "bombs": len(state.defused),
            "bomb_points": bomb_points,
            "fuses": len(state.fuses),
            "fuse_points": 2 * len(state.fuses),
        }
        if state.outcome != "won":
            return Event("fuse.event.final_score_lost", args)
        key = "fuse.event.final_score"
        if state.clock_end is not None:  # live: a point per full 10 seconds left
            key += "_time"
            args.update(seconds=state.seconds_left, time_points=state.seconds_left // 10)
        left = sum(1 for hand in state.hands for _ in hand)
        if left:
            key += "_left"
            args["left"] = left
        return Event(key, args)

    # ------------------------------------------------------------------ serialisation

    def dump(self, state: FuseState) -> dict[str, Any]:
        own = self.copy(state)  # the dump shares nothing with the state
        data = {f.name: getattr(own, f.name) for f in fields(own) if f.name not in _CACHES}
        data["claims"] = {str(k): v for k, v in state.claims.items()}
        data["owing"] = {str(k): [[c, s] for c, s in v] for k, v in state.owing.items()}
        data["schema"] = 1
        return data

    def load(self, data: dict[str, Any]) -> FuseState:
        saved = {k: v for k, v in data.items() if k != "schema"}
        # fields added during development of schema 1: older saves get their defaults
        saved.setdefault("top_up", False)
        saved.setdefault("last_now", 0.0)
        if not saved["round_limit"]:  # saved when 0 meant "never": the deck's limit (D14)
            seats = saved["seats"]
            saved["round_limit"] = relaxed_rounds(seats, DECK_SIZE[saved["difficulty"]][seats - 1])
        saved["hands"] = [list(h) for h in data["hands"]]
        saved["dice"] = {k: list(v) for k, v in data["dice"].items()}
        saved["claims"] = {int(k): v for k, v in data["claims"].items()}
        saved["owing"] = {int(k): [(c, s) for c, s in v] for k, v in data["owing"].items()}
        for name in (
            "faces",
            "bag",
            "drawn",
            "loose",
            "deck",
            "centre",
            "used",
            "done",
            "taking",
            "queue",
            "defused",
            "fuses",
        ):
            saved[name] = list(data[name])
        return FuseState(**saved)

    # ------------------------------------------------------------------ what players see

    def view(self, state: FuseState, seat: int | None) -> dict[str, Any]:
        """Everything on the table is open (a cooperative game); only the deck order and the
        bag's draw order stay hidden, so every seat's view equals the public one."""
        claimed = {d: s for s, d in state.claims.items()}
        bag_colours = [0] * len(COLOURS)
        for d in state.bag:
            bag_colours[die_colour(d)] += 1
        players = []
        for s in range(state.seats):
            cards = []
            for card_id in state.hands[s]:
                card = _bomb(card_id)
                filled = _filled(state, card_id)
                entry = card.to_view()
                entry["dice"] = [
                    die_token(state, d) if d >= 0 else None for d in state.dice[card_id]
                ]
                entry["safe"] = [card.safe(filled, i) for i in range(len(filled))]
                cards.append(entry)
            players.append(
                {
                    "seat": s,
                    "cards": cards,
                    "done": state.done[s] if state.stage == "choose" else False,
                    "taking": state.taking[s],
                    "holding": die_token(state, state.claims[s]) if s in state.claims else None,
                    "owing": s in state.owing,
                }
            )
        return {
            "game": "fuse",
            "seat": seat,
            "round": state.round,
            "stage": state.stage,
            "mode": state.mode,
            "difficulty": state.difficulty,
            "clock_end": state.clock_end,
            "clock_left": (
                max(0.0, state.clock_end - state.last_now) if state.clock_end is not None else None
            ),
            "round_limit": state.round_limit if state.mode == "relaxed" else 0,
            "deck": len(state.deck),
            "fuses_left": sum(1 for c in state.deck if is_fuse(c)),
            "bag": len(state.bag),
            "bag_colours": bag_colours,
            "dice": [
                {
                    "die": die_token(state, d),
                    "claimed_by": claimed.get(d),
                    "placed": d not in state.loose,
                }
                for d in state.drawn
            ],
            "centre": [_bomb(c).to_view() for c in state.centre],
            "players": players,
            "current": self._match_text(state),
            "defused": list(state.defused),
            "points": sum(_bomb(c).points for c in state.defused),
            "fuses": [c[2:] for c in state.fuses],
            "outcome": state.outcome,
            "reason": state.reason,
            "score": self.score(state),
        }

    def undoable(self, before: FuseState, seat: int, action: Action, after: FuseState) -> None:
        """Live mode: nothing is taken back, since the bomb's clock runs for the whole team (a
        step taken back would hand the team the seconds it cost). Relaxed mode: as any game (a
        draw reveals cards: not taken back)."""
        if before.mode == "live":
            raise RulesError("core.undo.live")
        super().undoable(before, seat, action, after)

    def phase(self, state: FuseState) -> str:
        return f"{state.round}.{state.stage}.{state.step}"

    def picture_key(self, state: FuseState) -> str:
        # One picture per round, as the rules of the table say; claims are narrated in text.
        return str(state.round)

    def button_rank(self, state: FuseState, command: str, args: CommandArgs) -> int:
        """Claims in the order the round's message lists the dice (merged from
        several seats' buttons, they came out of order)."""
        if command == "claim":
            value = _value_named(args.get("die", ""))
            for i, d in enumerate(state.drawn):
                if _BASE[d] + state.faces[d] == value:
                    return i
        return 0

    def to_command(self, action: Action) -> tuple[str, CommandArgs] | None:
        if isinstance(action, Claim):
            return "claim", {"die": action.die}
        if isinstance(action, Place | Return):
            return action.kind, {"card": action.card, "slot": action.slot}
        if isinstance(action, Take):
            return "take", {"card": action.card}
        return action.kind, {}


# deadline -> the pending input of a seat choosing, by the value of the die it holds (a place;
# the last entry: holding none, a claim). Every action asks pending for every choosing seat
# anew, and building a frozen dataclass costs more than the rest of pending: seats and states
# with the same deadline share these (immutable) instances. One entry per live game's clock
# (relaxed games share None's), bounded like the cards' memos.
_CHOICE_PENDINGS: dict[float | None, list[Pending]] = {}


def _choice_pendings(deadline: float | None) -> list[Pending]:
    if len(_CHOICE_PENDINGS) > 1_000:
        _CHOICE_PENDINGS.clear()
    pendings = [Pending("place", _PASS, deadline, {"die": token}) for token in _TOKENS]
    pendings.append(Pending("claim", _PASS, deadline))
    _CHOICE_PENDINGS[deadline] = pendings
    return pendings


def _distinct(state: FuseState, options: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """The return choices without repeats: two dice showing the same colour and number on the
    same card, in slots alike (the same icon, and no stack, pyramid or relation apart from one
    ``=`` / ``≠`` run holding both), leave the card the same whichever goes back (a
    choice between two identical dice)."""
    kept: list[tuple[str, int]] = []
    for card_id, s in options:
        if not any(c == card_id and _alike(state, card_id, s, k) for c, k in kept):
            kept.append((card_id, s))
    return kept


def _alike(state: FuseState, card_id: str, a: int, b: int) -> bool:
    card = _BOMBS[card_id]
    value = _filled(state, card_id)
    if value[a] != value[b] or card.slots[a].text != card.slots[b].text:
        return False
    if card.below[a] or card.below[b] or card.above[a] or card.above[b]:
        return False
    for relation in card.relations:
        members = relation.slots + relation.right
        if (a in members) != (b in members):
            return False
        if a in members and relation.kind not in ("eq", "ne"):
            return False
    return True


def _match_args(match: str) -> tuple[str, dict[str, Any]]:
    """What a returned die must match, as a pending kind and message arguments: ``R4`` (an
    unused die: its colour or number), ``R`` or ``4`` (a fuse card)."""
    args: dict[str, Any] = {}
    if match[:1] in COLOURS:
        args["colour_key"] = f"fuse.colour.{match[0]}"
    if match[-1:].isdigit():
        args["number"] = int(match[-1])
    if len(args) == 2:
        return "return_die", args
    return ("return_colour" if "colour_key" in args else "return_number"), args


def _deal_hand(pool: list[str], solo: bool) -> list[str]:
    """Deal 2 cards (4 solo) from the top of ``pool``: a first card worth 3+ needs a second
    worth 1 or 2, in each pair dealt (solo: cards 1–2 and 3–4, D21); solo also, the 4 cards
    show at least 3 different values."""
    hand: list[str] = []
    want = 4 if solo else 2
    while len(hand) < want:
        for i, card_id in enumerate(pool):
            if _fits_hand(hand, card_id, want, solo):
                hand.append(pool.pop(i))
                break
        else:  # pragma: no cover - the deck always has enough low cards
            raise ValueError("cannot deal a legal hand")
    return hand


def _fits_hand(hand: list[str], card_id: str, want: int, solo: bool) -> bool:
    points = _bomb(card_id).points
    # The second card of a pair (cards 1–2, and solo's 3–4: D21) is worth 1 or 2 when the
    # pair's first is worth 3+, in solo too (23% of solo deals broke it while only the solo
    # condition was checked).
    if len(hand) % 2 == 1 and _bomb(hand[-1]).points >= 3 and points > 2:
        return False
    if solo:
        values = {_bomb(c).points for c in hand} | {points}
        return len(values) + (want - len(hand) - 1) >= 3
    return True


__all__ = [
    "Claim",
    "Draw",
    "Fuse",
    "FuseState",
    "Pass",
    "Place",
    "Return",
    "Take",
]
