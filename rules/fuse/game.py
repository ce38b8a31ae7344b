"""FUSE: a cooperative real-time dice game (rules: shared/rules/fuse.md, deck: deck.toml).

The common game API over the modules of this package, named as the rulebook names things: the
settings (difficulty, live and relaxed modes, the clock) ``modes.py``; setup and the deal
``setup.py``; the dice and the bag ``dice.py``; the actions ``actions.py``; the state and its
saved form ``state.py``; a round (draw, claim, pass) ``rounds.py`` with who plays it and how
many dice each ``quota.py``; placing a die ``placing.py``; defusing and taking from the centre
row ``defusing.py``; returning dice (fuse cards, unused dice) ``returns.py``; end and score
``scoring.py``. Each action's check sits beside its effect there; this module gates them by
stage and seat.

A round on Discord: the round's dice are rolled and shown with a button each; every player
``claim``s one die (first claim wins), then ``place``s it on one of their bomb cards or
``pass``es. A player who defuses a bomb ``take``s a new card from the centre row at once. When
everybody is done, the fuse cards revealed during the round and then the unused dice (re-rolled
one at a time) make players ``return`` matching dice to the bag; then the next round is drawn.
"""

from __future__ import annotations

from collections.abc import Mapping
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
    RulesError,
)
from rules.fuse import defusing, placing, returns, rounds, scoring, setup
from rules.fuse.actions import ACTIONS, Claim, Draw, Pass, Place, Return, Take
from rules.fuse.cards import COLOURS, EMPTY, card_kinds, die_name, house_deck, is_fuse
from rules.fuse.clock import ran_out
from rules.fuse.dice import die_colour, die_token, filled, value, value_named
from rules.fuse.modes import DIFFICULTIES, ROUND_TIMER
from rules.fuse.setup import BOMBS
from rules.fuse.state import FuseState


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
    action_types = ACTIONS
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

    def setup(self, num_seats: int, options: dict[str, Any], seed: int) -> FuseState:
        return setup.setup(num_seats, options, seed)

    # ------------------------------------------------------------------ who acts

    def is_news(self, event: Event) -> bool:
        # FUSE hides nothing (every card and die is face up): its one private event echoes the
        # reader's own pass, which a pass played by default makes no news of (play-test: the
        # channel read "🔒 alice: something only you may see happened" at every autopilot pass).
        return False

    def announced_options(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        """Live mode's round timer is named in the lobby, set or not: new players are handed
        to the computer after a few silent rounds otherwise."""
        live = options.get("mode", "live") == "live"
        return ("round_timer",) if live and options.get("round_timer", ROUND_TIMER) else ()

    def pending(self, state: FuseState) -> dict[int, Pending]:
        deadline = state.clock_end
        stage = state.stage
        if stage == "choose":
            out: dict[int, Pending] = {}
            for seat in range(state.seats):
                if state.taking[seat]:
                    take = Take(defusing.takeable(state, seat)[0])
                    out[seat] = Pending("take", take, deadline)
                elif state.done[seat]:
                    continue
                elif seat in state.claims:
                    die = die_token(state, state.claims[seat])
                    out[seat] = Pending("place", Pass(), deadline, {"die": die})
                else:
                    out[seat] = Pending("claim", Pass(), deadline)
            return out
        if stage == "start":
            return {0: Pending("start", Draw())}
        if stage == "return":
            kind, args = returns.match_args(returns.match_text(state))
            return {
                seat: Pending(kind, returns.default_return(state, seat), deadline, args)
                for seat in sorted(state.owing)
            }
        return {}

    def clocked(self, state: FuseState) -> bool:
        return state.mode == "live"  # the bomb's 10 minutes, from the first draw (modes.py)

    def legal_actions(self, state: FuseState, seat: int) -> list[Action]:
        stage = state.stage
        if stage != "choose":
            if stage == "start":
                return [Draw()]
            if stage == "return":
                return [Return(c, s + 1) for c, s in state.owing.get(seat, [])]
            return []
        if state.taking[seat]:
            return [Take(c) for c in defusing.takeable(state, seat)]
        if state.done[seat]:
            return []
        actions: list[Action] = []
        held = state.claims.get(seat)
        holding = EMPTY if held is None else value(state, held)
        if held is not None:  # where the held die may go, card by card
            for c in state.hands[seat]:
                for s in BOMBS[c].legal_slots(filled(state, c), holding):
                    actions.append(Place(c, s + 1))
        # One claim per value (identical dice: one claim, none of a die like the one held), in
        # the order of the loose dice nobody holds, if it has a legal slot on one of the cards.
        asked = {holding}
        for d in state.loose:
            shows = value(state, d)
            if d not in state.claims.values() and shows not in asked:
                asked.add(shows)
                if placing.can_place(state, seat, shows):
                    actions.append(Claim(die_name(shows)))
        actions.append(Pass())
        return actions

    # ------------------------------------------------------------------ applying

    def copy(self, state: FuseState) -> FuseState:
        return state.copy()

    def play(self, state: FuseState, seat: int, action: Action, now: float) -> list[Event]:
        """``check`` then ``resolve``; but the bomb does not wait for a valid action: once the
        clock has run out, any action of a seat of a game still on ends it as lost."""
        if ran_out(state, now):
            _check_seat(state, seat)
        else:
            self.check(state, seat, action)
        return self.resolve(state, seat, action, now)

    def check(self, state: FuseState, seat: int, action: Action) -> None:
        """Who may act in which stage; each action's own check is beside its effect."""
        _check_seat(state, seat)
        stage = state.stage
        if isinstance(action, Draw):
            rounds.check_draw(state)
        elif stage == "start":
            # Say what to do instead of "not possible in this phase".
            raise RulesError("fuse.error.not_started")
        elif isinstance(action, Return):
            returns.check_return(state, seat, action)
        elif stage != "choose":
            raise RulesError("core.error.wrong_phase")
        elif isinstance(action, Take):
            defusing.check_take(state, seat, action)
        elif state.taking[seat]:
            raise RulesError("fuse.error.must_take")
        elif state.done[seat]:
            raise RulesError("fuse.error.round_done")
        elif isinstance(action, Claim):
            rounds.check_claim(state, seat, action)
        elif isinstance(action, Place):
            placing.check_place(state, seat, action)
        elif not isinstance(action, Pass):
            raise RulesError("core.error.bad_action")

    def resolve(self, state: FuseState, seat: int, action: Action, now: float) -> list[Event]:
        events: list[Event] = []
        state.last_now = now
        if ran_out(state, now):
            # The bomb went off: nothing a late action asks for happens.
            scoring.end(state, "lost", "clock", events, now)
        elif isinstance(action, Draw):
            rounds.draw(state, now, events)
        elif isinstance(action, Return):
            if returns.give_back(state, seat, action, events):
                rounds.start_round(state, events)
        elif isinstance(action, Claim):
            # a claim changes nobody's options: no need to look for finished seats
            rounds.claim(state, seat, action, events)
        elif isinstance(action, Pass):
            rounds.leave(state, seat, events)
        else:
            if isinstance(action, Take):
                defusing.take(state, seat, action, events, now)
            else:
                assert isinstance(action, Place)
                placing.place(state, seat, action, events, now)
            if state.stage == "choose":  # the dice and cards changed: who is done now
                rounds.after_choice(state, events)
        return events

    def score(self, state: FuseState) -> int:
        return scoring.score(state)

    # ------------------------------------------------------------------ the end

    def is_over(self, state: FuseState) -> bool:
        return state.stage == "over"

    def result(self, state: FuseState) -> Result | None:
        return scoring.result(state)

    # ------------------------------------------------------------------ serialisation

    def dump(self, state: FuseState) -> dict[str, Any]:
        return state.dump()

    def load(self, data: dict[str, Any]) -> FuseState:
        return FuseState.load(data)

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
                card = BOMBS[card_id]
                on_card = filled(state, card_id)
                entry = card.to_view()
                entry["dice"] = [
                    die_token(state, d) if d >= 0 else None for d in state.dice[card_id]
                ]
                entry["safe"] = [card.safe(on_card, i) for i in range(len(on_card))]
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
            "centre": [BOMBS[c].to_view() for c in state.centre],
            "players": players,
            "current": returns.match_text(state),
            "defused": list(state.defused),
            "points": sum(BOMBS[c].points for c in state.defused),
            "fuses": [c[2:] for c in state.fuses],
            "outcome": state.outcome,
            "reason": state.reason,
            "score": scoring.score(state),
        }

    def undoable(self, before: FuseState, seat: int, action: Action, after: FuseState) -> None:
        """Live mode: nothing is taken back, since the bomb's clock runs for the whole team (a
        step taken back would hand the team the seconds it cost). Relaxed mode: as any game,
        and a card drawn is not taken back: a take refills the centre row from the deck,
        shuffled at the start, whose draws move no random generator."""
        if before.mode == "live":
            raise RulesError("core.undo.live")
        super().undoable(before, seat, action, after)
        if before.deck != after.deck:
            raise RulesError("core.undo.random")

    def phase(self, state: FuseState) -> str:
        return f"{state.round}.{state.stage}.{state.step}"

    def picture_key(self, state: FuseState) -> str:
        # One picture per round, as the rules of the table say; claims are narrated in text.
        return str(state.round)

    def button_rank(self, state: FuseState, command: str, args: CommandArgs) -> int:
        """Claims in the order the round's message lists the dice (merged from
        several seats' buttons, they came out of order)."""
        if command == "claim":
            named = value_named(args.get("die", ""))
            for i, d in enumerate(state.drawn):
                if value(state, d) == named:
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


def _check_seat(state: FuseState, seat: int) -> None:
    if state.stage == "over":
        if state.reason == "clock":
            raise RulesError("fuse.error.time_up")
        raise RulesError("core.error.game_over")
    if not 0 <= seat < state.seats:
        raise RulesError("core.error.not_your_turn")


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
