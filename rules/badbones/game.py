"""The Bad Bones engine: the common game API over the modules of this package.

Where each rule lives: board geometry ``board.py``; trap data and the wall's mirror
``traps.py``; skeleton movement and trap effects ``skeletons.py``; owners' choices (D5)
``choices.py``; the hero ``hero.py``; the round and the end ``phases.py``; scoring
``scoring.py``; positions written as text for tests ``position.py``; the advanced Market
``market.py`` and weapons ``weapons.py``.
The options ``advanced``, ``cooperative`` and ``chiefs`` combine freely (the cooperative game
needs 2+ players).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from i18n import synonyms
from rules.badbones import market, phases, questions, weapons
from rules.badbones.actions import (
    ACTIONS,
    Buy,
    Choose,
    Move,
    Nothing,
    Pass,
    Place,
    Prefer,
    Retrieve,
    Skip,
    Start,
    Weapon,
)
from rules.badbones.board import (
    DIRS,
    FORESTS,
    HERO_DIR_NAMES,
    SYMBOLS,
    parse_name,
    parse_square,
    shown,
    square_name,
)
from rules.badbones.choices import AUTO, CHOICES, DIRECTION_CHOICES, preference_values
from rules.badbones.hero import hero_target, heroes
from rules.badbones.scoring import score, winners
from rules.badbones.state import (
    CHIEF_KINDS,
    HERO,
    LANDING,
    MARKET,
    OVER,
    SKELETONS,
    START,
    TRAP,
    WEAPON,
    BadBonesState,
    skeleton_order,
    token_order,
)
from rules.badbones.traps import (
    COLOURS,
    ORIENTATIONS,
    TRAPS,
    WEAPONS,
    Trap,
    market_stock,
    price,
)
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
    Turn,
)

# What a user may type besides the engine's own values ("muro", "oeste", "catapulta") is the
# catalogue's: ``[badbones.synonyms.<family>]`` of every language (docs/i18n.md, "Input synonyms").


def _synonyms(family: str) -> Mapping[str, str]:
    return synonyms("badbones", family)


def _alias(family: str, raw: str) -> str:
    """``raw`` as the engine names it: its synonym's value, else ``raw`` itself."""
    return _synonyms(family).get(raw.lower(), raw)


def normalize_direction(text: object) -> str:
    raw = str(text if text is not None else "").strip().upper()
    raw = _alias("direction", raw)
    if raw in HERO_DIR_NAMES:
        return raw
    if raw.lower() in _synonyms("stay"):
        raise RulesError("badbones.error.hero_must_move")
    raise RulesError("badbones.error.bad_direction", direction=shown(text))


def normalize_trap(text: object) -> str:
    raw = str(text if text is not None else "").strip().lower()
    raw = _alias("trap", raw)
    if raw not in TRAPS:
        raise RulesError("badbones.error.unknown_trap", trap=shown(text))
    return raw


def _squashed(word: str) -> str:
    return word.replace(" ", "").replace("-", "")


def normalize_item(text: object) -> str:
    # "ice_wand", "Ice-Wand", "morning  star" and "icewand" all name the same card.
    raw = " ".join(str(text if text is not None else "").replace("_", " ").lower().split())
    raw = _synonyms("weapon").get(raw, _alias("trap", raw))
    if raw not in TRAPS and raw not in WEAPONS:
        # A weapon's name run together ("varitadehielo", "twohandedsword") reads as written.
        raw = _squashed(raw)
        squashed = {_squashed(word): value for word, value in _synonyms("weapon").items()}
        raw = squashed.get(raw, raw)
    if raw not in TRAPS and raw not in WEAPONS:
        raise RulesError("badbones.error.unknown_item", item=shown(text))
    return raw


def normalize_orientation(kind: str, text: object) -> str:
    if TRAPS[kind].coloured:
        raw = str(text if text is not None else "").strip().upper()
        if not raw:
            raise RulesError("badbones.error.labyrinth_needs_colour")
        colour = _synonyms("colour").get(raw.lower())
        if colour is None:
            raise RulesError("badbones.error.bad_colour", colour=shown(text))
        return colour
    if not TRAPS[kind].oriented:
        return ""  # only a wall has an orientation: anything given is ignored
    raw = str(text if text is not None else "").strip().upper()
    if not raw:
        raise RulesError("badbones.error.wall_needs_orientation")
    orientation = _synonyms("orientation").get(raw.lower())
    if orientation is None:
        raise RulesError("badbones.error.bad_orientation", orientation=shown(text))
    return orientation


def _places(kind: str, square: int) -> list[Place]:
    """Every way to place ``kind`` on ``square`` (a wall either way, a labyrinth either colour)."""
    name = square_name(square)
    if TRAPS[kind].oriented:
        return [Place(kind, name, o) for o in ORIENTATIONS]
    if TRAPS[kind].coloured:
        return [Place(kind, name, c) for c in COLOURS]
    return [Place(kind, name)]


def _submission_args(action: Action) -> dict[str, Any]:
    if isinstance(action, Move):
        # A key, so the reader's language names it: Spanish says NO/SO/O for NW/SW/W.
        return {"direction_key": f"badbones.dir.{action.direction}"}
    if isinstance(action, Place):
        return {
            "trap_key": f"badbones.trap.{action.trap}",
            "square": action.square,
            "orientation": action.orientation,
            "colour_key": f"badbones.colour.{action.orientation or 'white'}"
            if action.orientation in COLOURS
            else "badbones.colour.white",
        }
    if isinstance(action, Retrieve):
        return {"square": action.square}
    return {}


class BadBones(Game[BadBonesState]):
    name = "badbones"
    min_seats = 1
    max_seats = 6
    option_specs = (
        OptionSpec("solo_rounds", "int", 10, min=1, max=50),
        OptionSpec("heroic", "bool", False),
        OptionSpec("choices", "choice", "ask", choices=("ask", "auto")),
        OptionSpec("advanced", "bool", False),
        OptionSpec("cooperative", "bool", False),
        OptionSpec("chiefs", "bool", False),
    )
    action_types = ACTIONS
    commands = (
        Command(
            "move", (Param("direction", choices=HERO_DIR_NAMES, names="badbones.dir"),), button=True
        ),
        Command(
            "place",
            (
                Param("trap", autocomplete=True, names="badbones.trap", pieces="traps"),
                Param("square", autocomplete=True),
                Param(
                    "orientation",
                    required=False,
                    choices=ORIENTATIONS + COLOURS,
                    names="badbones.colour",
                ),
            ),
            steps=("trap", "square", "orientation"),
        ),
        Command("retrieve", (Param("square", autocomplete=True),), steps=("square",)),
        Command("nothing", button=True),
        Command("choose", (Param("answer", autocomplete=True, names="badbones.dir"),), button=True),
        Command(
            "prefer",
            (
                Param("choice", choices=CHOICES, names="badbones.choice"),
                Param("value", autocomplete=True, names="badbones.pref_value"),
            ),
            button=True,  # only ever offered as "always decide for me" beside a question
        ),
        Command("buy", (Param("item", autocomplete=True, pieces="market"),), steps=("item",)),
        Command("pass", button=True),
        Command(
            "weapon",
            (
                Param("target", autocomplete=True),
                # The crossbow's "to" may name a chief's kind: described where it is chosen.
                Param("to", required=False, autocomplete=True, pieces="chiefs"),
            ),
            steps=("target", "to"),
        ),
        Command("skip", button=True),
        Command("start", (Param("square", autocomplete=True),), button=True),
    )

    def pieces(self) -> dict[str, tuple[Piece, ...]]:
        def trap(kind: str, cost: int | None = None) -> Piece:
            return Piece(kind, f"badbones.trap.{kind}", f"badbones.trap_text.{kind}", cost)

        def weapon(kind: str, cost: int | None = None) -> Piece:
            return Piece(kind, f"badbones.weapon.{kind}", f"badbones.weapon_text.{kind}", cost)

        # What the Market sells at its largest table (traps by the table, then weapons).
        sold = market_stock(self.max_seats)
        return {
            "traps": tuple(trap(k) for k in TRAPS),
            "weapons": tuple(weapon(k) for k in WEAPONS),
            "chiefs": tuple(
                Piece(k, f"badbones.chief.{k}", f"badbones.chief_text.{k}") for k in CHIEF_KINDS
            ),
            "market": tuple(
                weapon(k, price(k)) if k in WEAPONS else trap(k, price(k)) for k in sold
            ),
        }

    def is_news(self, event: Event) -> bool:
        # Bad Bones deals nothing hidden: every private event echoes its reader's own
        # submission, answer or preference.
        return False

    def seat_range(self, options: Mapping[str, Any]) -> tuple[int, int]:
        # The cooperative game is a team against the emperor: no solo (setup refuses it).
        low = 2 if options.get("cooperative", False) else self.min_seats
        return low, self.max_seats

    # ----------------------------------------------------------------- lifecycle

    def setup(self, num_seats: int, options: dict[str, Any], seed: int) -> BadBonesState:
        return phases.setup(num_seats, options, seed)

    def copy(self, state: BadBonesState) -> BadBonesState:
        return state.copy()

    def dump(self, state: BadBonesState) -> dict[str, Any]:
        return state.dump()

    def load(self, data: dict[str, Any]) -> BadBonesState:
        return BadBonesState.load(data)

    def is_over(self, state: BadBonesState) -> bool:
        return state.stage == OVER

    def phase(self, state: BadBonesState) -> str:
        if state.stage == MARKET and state.market is not None:
            # Every purchase moves the turn on: old buttons become stale.
            m = state.market
            return f"0.market.{m['turn']}.{len(m['passed'])}.{sum(m['coins'])}"
        if state.stage == WEAPON:
            return f"{state.round}.weapon.{state.after_weapons}"
        return f"{state.round}.{state.stage}"

    def picture_key(self, state: BadBonesState) -> str:
        if state.stage == MARKET:
            # The channel sees the Market after each purchase (and pass).
            return self.phase(state)
        if state.stage in (LANDING, SKELETONS) and state.questions:
            # The phase (and its message) goes on while questions are answered, but each new
            # question comes with the board at that moment (where the skeleton it is about
            # stands): the message's picture is replaced.
            return f"{self.phase(state)}.{state.answered}"
        return f"{state.round}.{state.stage}"

    def turn(self, state: BadBonesState) -> Turn:
        """The competitive Market is played in turns (a purchase or a pass each): one message
        for the whole Market, edited by each purchase; the buyer whose turn comes is asked
        (``asked``), so a new message pings them the first time only, and their later turns in
        this Market edit it in place. Every other phase (and the cooperative Market, one purse
        for all at once) is the phase: simultaneous, posted as it begins."""
        if state.stage == MARKET and state.market is not None and not state.coop:
            buyer = market.turn_seat(state, int(state.market["turn"]))
            return Turn(f"{state.round}.{MARKET}", buyer, frozenset({buyer}))
        return Turn(self.phase(state))

    def turn_key(self, state: BadBonesState) -> str:
        # The team shopping at the Market, and the follow-up questions of a phase, keep the
        # deadline the phase started with.
        return f"{state.round}.{state.stage}"

    def result(self, state: BadBonesState) -> Result | None:
        if state.stage != OVER:
            return None
        # No summary event: ``phases.finish`` already narrates the end in the last action's
        # events, and the service prints a summary after them (the end is told once).
        scores = {s: (v if v is not None else 0) for s, v in state.scores.items()}
        if state.coop:
            everyone = tuple(range(state.seats))
            return Result(everyone if state.outcome == "won" else (), {}, None)
        if state.solo:
            won = state.outcome in ("won", "heroic")
            return Result((0,) if won else (), scores, None)
        return Result(winners(state.boards, state.scores), scores, None)

    # ----------------------------------------------------------------- who owes what

    def pending(self, state: BadBonesState) -> dict[int, Pending]:
        if state.stage == HERO:
            return {
                s: Pending("hero", Move(self._default_move(state, s)))
                for s in heroes(state)
                if s not in state.subs
            }
        if state.stage == START:
            return {
                s: Pending("start", Start(square_name(phases.COOP_HERO_START)))
                for s in range(state.seats)
                if s not in state.subs
            }
        if state.stage == MARKET:
            return {
                # Cooperative: no turns, one purse, so not "your turn" to everyone at once.
                s: Pending(
                    "market_shared" if state.coop else "market",
                    Pass(),
                    args={"coins": market.coins(state, s)},
                )
                for s in market.buyers(state)
            }
        if state.stage == WEAPON:
            return {
                s: Pending(
                    "weapon",
                    Skip(),
                    args={"weapon_key": f"badbones.weapon.{state.boards[s].weapon}"},
                )
                for s in sorted(state.weapons)
            }
        if state.stage == TRAP:
            return {
                s: Pending("trap", Nothing()) for s in range(state.seats) if s not in state.subs
            }
        if state.stage in (LANDING, SKELETONS):
            return {
                s: Pending(
                    questions.kind(q, state.coop),
                    Skip() if q["choice"] == "weapon" else Choose(q["default"]),
                    args=questions.pending_args(q),
                    # Its buttons stay valid until it is answered, whatever the others answer.
                    asked=int(q.get("asked", 0)),
                )
                for s, q in sorted(state.questions.items())
            }
        return {}

    def _default_move(self, state: BadBonesState, seat: int) -> str:
        """AFK hero: the step that kills the most skeletons (ties: the first of N NE E …)."""
        board = state.boards[seat]
        counts: dict[int, int] = {}
        for s in board.skeletons:
            counts[s.square] = counts.get(s.square, 0) + 1
        best, best_kills = "", -1
        for d in HERO_DIR_NAMES:
            target = hero_target(board, d)
            if target is None:
                continue
            kills = counts.get(target, 0)
            if kills > best_kills:
                best, best_kills = d, kills
        return best

    def legal_actions(self, state: BadBonesState, seat: int) -> list[Action]:
        board = state.boards[seat]
        if state.stage == HERO:
            return [Move(d) for d in HERO_DIR_NAMES if hero_target(board, d) is not None]
        if state.stage == START:
            if seat in state.subs:
                return []
            return [Start(square_name(t)) for t in state.layout.towers]
        if state.stage == MARKET:
            if seat not in market.buyers(state):
                return []
            return [*(Buy(item) for item in market.affordable(state, seat)), Pass()]
        if state.stage == WEAPON and seat not in state.weapons:
            return []
        if state.stage == WEAPON or self._weapon_question(state, seat):
            return [*(Weapon(t, to) for t, to in self._weapon_uses(state, seat)), Skip()]
        if state.stage == TRAP:
            actions: list[Action] = []
            occupied = {s.square for s in board.skeletons}
            lay = state.layout
            for kind in self._placeable(state, seat):
                spec = TRAPS[kind]
                for sq in range(25):
                    if sq in board.traps or (lay.is_tower[sq] and sq not in board.ruins):
                        continue
                    if sq in occupied and not spec.lands_on_skeletons:
                        continue
                    actions.extend(_places(kind, sq))
            actions.extend(
                Retrieve(square_name(sq))
                for sq, t in sorted(board.traps.items())
                if self._retrievable(t)
            )
            actions.append(Nothing())
            return actions
        if state.stage in (LANDING, SKELETONS) and seat in state.questions:
            return [Choose(o) for o in state.questions[seat]["options"]]
        return []

    def button_rank(self, state: BadBonesState, command: str, args: CommandArgs) -> int:
        """Hero moves in compass order (N, NE, E… clockwise) whoever's buttons come first, so
        that a direction's button stays in its place from round to round."""
        direction = str(args.get("direction", "")) if command == "move" else ""
        return HERO_DIR_NAMES.index(direction) if direction in HERO_DIR_NAMES else 0

    def button_candidates(self, state: BadBonesState, seat: int) -> list[Action]:
        if state.stage == TRAP:
            # Placing and retrieving are typed (a square, a kind, a side): the one button is
            # "nothing".
            return [Nothing()]
        question = state.questions.get(seat) if state.stage in (LANDING, SKELETONS) else None
        if question is not None and question["choice"] in CHOICES:
            # Beside the question's answers: "always decide for me" for that kind of question
            # (the preference ``auto``; ``prefer … ask`` undoes it).
            return [*self.legal_actions(state, seat), Prefer(question["choice"], AUTO)]
        return self.legal_actions(state, seat)

    @staticmethod
    def _weapon_question(state: BadBonesState, seat: int) -> dict[str, Any] | None:
        """``seat``'s open phase-3 weapon question (D20), if it has one."""
        question = state.questions.get(seat)
        if state.stage == SKELETONS and question is not None and question["choice"] == "weapon":
            return question
        return None

    def _weapon_uses(self, state: BadBonesState, seat: int) -> list[weapons.Use]:
        """The uses ``seat``'s weapon may make now: those its phase-3 question offers (the
        moment it triggered), or phase 1's."""
        question = self._weapon_question(state, seat)
        if question is None:
            return weapons.uses(state, seat)
        return [weapons.from_answer(o) for o in question["options"] if o != weapons.SKIP]

    @staticmethod
    def _retrievable(trap: Trap) -> bool:
        spec = TRAPS[trap.kind]
        return not (spec.permanent and trap.side == len(spec.stars) - 1)

    @staticmethod
    def _placeable(state: BadBonesState, seat: int) -> list[str]:
        """Kinds ``seat`` may place: its supply, or (cooperative) the shared supply minus what
        the others' current submissions already take."""
        supply = state.supply_of(seat)
        if not state.coop:
            return list(dict.fromkeys(supply))
        left = {k: supply.count(k) for k in supply}
        for other, sub in state.subs.items():
            if other != seat and sub.get("type") == "place":
                left[sub["trap"]] = left.get(sub["trap"], 0) - 1
        return [k for k, n in left.items() if n > 0]

    # ----------------------------------------------------------------- acting

    def resolve(self, state: BadBonesState, seat: int, action: Action, now: float) -> list[Event]:
        if isinstance(action, Prefer):
            choice_key = f"badbones.choice.{action.choice}"
            events = [
                # A rival's seat is confirmed with the player's name ("catapult: 1" said little).
                Event(
                    "badbones.event.preference_seat",
                    {"choice_key": choice_key, "value_seat": int(action.value) - 1},
                    to=seat,
                )
                if action.value.isdigit()
                # Named as the parameter: ask/auto and directions read in the reader's
                # language (badbones.pref_value).
                else Event(
                    # "Always decide for me" says how to be asked again.
                    "badbones.event.preference_auto"
                    if action.value == AUTO
                    else "badbones.event.preference",
                    {"choice_key": choice_key, "value": action.value},
                    to=seat,
                )
            ]
            return events + phases.prefer(state, seat, action.choice, action.value)
        if isinstance(action, Choose):
            # A seat number is confirmed with the player's name ("Answer: 1" said little).
            said = (
                Event(
                    "badbones.event.answered_seat", {"answer_seat": int(action.answer) - 1}, to=seat
                )
                if action.answer.isdigit()
                else Event("badbones.event.answered", {"answer": action.answer}, to=seat)
            )
            told = questions.told(
                seat, state.questions[seat], action.answer, state.coop, computer=False
            )
            return [said, told, *phases.answer(state, seat, action.answer)]
        if isinstance(action, Start):
            return phases.start_on(state, seat, parse_name(action.square))
        if isinstance(action, Buy):
            return market.buy(state, seat, action.item)
        if isinstance(action, Pass):
            return market.pass_(state, seat)
        if isinstance(action, Weapon | Skip) and state.stage == SKELETONS:
            # D20: the answer to the weapon question; the channel reads the use when the
            # phase resolves.
            if isinstance(action, Weapon):
                chosen = weapons.answer(action.target, action.to)
                said = Event("badbones.event.weapon_chosen", {"answer": chosen}, to=seat)
            else:
                chosen = weapons.SKIP
                said = Event("badbones.event.weapon_kept", {}, to=seat)
            return [said, *phases.answer(state, seat, chosen)]
        if isinstance(action, Weapon):
            return phases.use_weapon(state, seat, action.target, action.to)
        if isinstance(action, Skip):
            return [
                Event("badbones.event.weapon_skipped", {"seat": seat}),
                *phases.weapon_done(state, seat),
            ]
        # A hidden submission (D13): told only to its author, changeable until the phase resolves.
        state.subs[seat] = action.to_json()
        key = f"badbones.event.submitted_{action.kind}"
        if isinstance(action, Place) and action.orientation in ORIENTATIONS:
            key += "_wall"
        elif isinstance(action, Place) and action.orientation:
            key += "_coloured"
        events = [Event(key, _submission_args(action), to=seat)]
        if state.stage == HERO:
            events += phases.maybe_resolve_heroes(state)
        elif len(state.subs) == state.seats:
            if state.stage == TRAP:
                events += phases.trap_events(state)
                events += phases.start_resolution(state, LANDING)
        return events

    def sealed(self, state: BadBonesState, seat: int) -> bool:
        """Phases 1 and 2 and the cooperative tower picks are hidden submissions (D13): made and
        not yet revealed while the stage lasts."""
        return state.stage in (HERO, TRAP, START) and seat in state.subs

    def withdraw(self, state: BadBonesState, seat: int) -> list[Event]:
        """The seat owes its phase a submission again; nothing is said of the one forgotten."""
        del state.subs[seat]
        return []

    def check(self, state: BadBonesState, seat: int, action: Action) -> None:
        """Raise the specific ``RulesError`` if ``action`` is not legal for ``seat`` now."""
        if state.stage == OVER:
            raise RulesError("core.error.game_over")
        if not 0 <= seat < state.seats:
            raise RulesError("core.error.not_your_turn")
        board = state.boards[seat]
        if isinstance(action, Move):
            direction = normalize_direction(action.direction)
            if direction != action.direction:
                raise RulesError("badbones.error.bad_direction", direction=shown(action.direction))
            self._need_stage(state, HERO)
            if board.hero < 0:
                raise RulesError("badbones.error.no_hero")
            if hero_target(board, direction) is None:
                raise RulesError("badbones.error.hero_off_board", direction=direction)
        elif isinstance(action, Place):
            kind = normalize_trap(action.trap)
            if kind != action.trap:
                raise RulesError("badbones.error.unknown_trap", trap=shown(action.trap))
            sq = parse_square(action.square)
            if square_name(sq) != action.square:
                raise RulesError("badbones.error.bad_square", square=shown(action.square))
            orientation = normalize_orientation(kind, action.orientation)
            if orientation != action.orientation:
                raise RulesError(
                    "badbones.error.bad_orientation", orientation=shown(action.orientation)
                )
            self._need_stage(state, TRAP)
            trap_key = f"badbones.trap.{kind}"
            if kind not in state.supply_of(seat):
                raise RulesError("badbones.error.trap_not_in_supply", trap_key=trap_key)
            if kind not in self._placeable(state, seat):
                raise RulesError("badbones.error.trap_taken", trap_key=trap_key)
            if state.layout.is_tower[sq] and sq not in board.ruins:
                raise RulesError("badbones.error.trap_on_tower", square=action.square)
            if sq in board.traps:
                raise RulesError("badbones.error.trap_on_trap", square=action.square)
            if not TRAPS[kind].lands_on_skeletons and board.on(sq):
                raise RulesError(
                    "badbones.error.trap_on_skeletons", square=action.square, trap_key=trap_key
                )
        elif isinstance(action, Retrieve):
            sq = parse_square(action.square)
            if square_name(sq) != action.square:
                raise RulesError("badbones.error.bad_square", square=shown(action.square))
            self._need_stage(state, TRAP)
            if sq not in board.traps:
                raise RulesError("badbones.error.no_trap_there", square=action.square)
            if not self._retrievable(board.traps[sq]):
                raise RulesError("badbones.error.blast_area", square=action.square)
        elif isinstance(action, Nothing):
            self._need_stage(state, TRAP)
        elif isinstance(action, Start):
            sq = parse_square(action.square)
            self._need_stage(state, START)
            if seat in state.subs:
                raise RulesError("badbones.error.already_started")
            if sq not in state.layout.towers or square_name(sq) != action.square:
                raise RulesError("badbones.error.start_on_tower", square=shown(action.square))
        elif isinstance(action, Buy):
            item = normalize_item(action.item)
            if item != action.item:
                raise RulesError("badbones.error.unknown_item", item=shown(action.item))
            self._need_stage(state, MARKET)
            market.check_buy(state, seat, item)
        elif isinstance(action, Pass):
            self._need_stage(state, MARKET)
            if seat not in market.buyers(state):
                raise RulesError("badbones.error.not_your_market_turn")
        elif isinstance(action, Weapon | Skip):
            if self._weapon_question(state, seat) is None:
                self._need_stage(state, WEAPON)
                if seat not in state.weapons or not board.weapon:
                    raise RulesError("badbones.error.no_weapon_now")
            if isinstance(action, Weapon):
                legal = self._weapon_uses(state, seat)
                weapons.check(board.weapon, legal, action.target, action.to)
        elif isinstance(action, Prefer):
            if action.choice not in CHOICES:
                raise RulesError("badbones.error.bad_choice", choice=shown(action.choice))
            values = preference_values(action.choice, state.seats, seat)
            own = action.value == str(seat + 1) and state.seats > 1
            if own and action.choice not in DIRECTION_CHOICES:
                raise RulesError("badbones.error.prefer_own_seat", values=", ".join(values))
            if action.value not in values:
                raise RulesError(
                    "badbones.error.bad_preference",
                    value=shown(action.value),
                    values=", ".join(values),
                )
        elif isinstance(action, Choose):
            question = state.questions.get(seat)
            if state.stage not in (LANDING, SKELETONS) or question is None:
                raise RulesError("badbones.error.no_question")
            if question["choice"] == "weapon":
                raise RulesError(
                    "badbones.error.answer_with_weapon",
                    weapon_key=f"badbones.weapon.{question['weapon']}",
                )
            if action.answer not in question["options"]:
                raise RulesError(
                    "badbones.error.bad_answer",
                    answer=shown(action.answer),
                    answers=", ".join(question["options"]),
                )
        else:
            raise RulesError("core.error.bad_action")

    @staticmethod
    def _need_stage(state: BadBonesState, stage: str) -> None:
        if state.stage != stage:
            raise RulesError(
                "badbones.error.not_now",
                phase_key=f"badbones.stage.{state.stage}",
                needed_key=f"badbones.stage.{stage}",
            )

    # ----------------------------------------------------------------- commands

    def to_command(self, action: Action) -> tuple[str, CommandArgs] | None:
        if isinstance(action, Move):
            return "move", {"direction": action.direction}
        if isinstance(action, Place):
            args: CommandArgs = {"trap": action.trap, "square": action.square}
            if action.orientation:
                args["orientation"] = action.orientation
            return "place", args
        if isinstance(action, Retrieve):
            return "retrieve", {"square": action.square}
        if isinstance(action, Nothing):
            return "nothing", {}
        if isinstance(action, Prefer):
            return "prefer", {"choice": action.choice, "value": action.value}
        if isinstance(action, Choose):
            return "choose", {"answer": action.answer}
        if isinstance(action, Buy):
            return "buy", {"item": action.item}
        if isinstance(action, Pass):
            return "pass", {}
        if isinstance(action, Weapon):
            wargs: CommandArgs = {"target": action.target}
            if action.to:
                wargs["to"] = action.to
            return "weapon", wargs
        if isinstance(action, Skip):
            return "skip", {}
        if isinstance(action, Start):
            return "start", {"square": action.square}
        return None

    def parse(self, command: str, args: CommandArgs, state: BadBonesState, seat: int) -> Action:
        """The base class's ``parse`` (``read``, then ``check``); what it adds: a refused
        weapon use names its target and destination as the player typed them («azul», not
        «blue»), not in their canonical form."""
        try:
            return super().parse(command, args, state, seat)
        except RulesError as err:
            if command == "weapon":
                for name in ("target", "to"):
                    if name in err.args_map:
                        err.args_map[name] = shown(args.get(name) or "")
            raise

    def read(self, command: str, args: CommandArgs, state: BadBonesState, seat: int) -> Action:
        """What Bad Bones' words need beyond the default: directions, traps, items, chiefs and
        preferences by their names in either language («muro», «oeste», «catapulta»), squares
        in any case, the orientation a trap takes."""
        return self._build(command, args, state)

    def _build(self, command: str, args: CommandArgs, state: BadBonesState) -> Action:
        if command == "move":
            return Move(normalize_direction(args.get("direction")))
        if command == "place":
            kind = normalize_trap(args.get("trap"))
            sq = parse_square(args.get("square"))
            return Place(
                kind, square_name(sq), normalize_orientation(kind, args.get("orientation"))
            )
        if command == "retrieve":
            return Retrieve(square_name(parse_square(args.get("square"))))
        if command == "nothing":
            return Nothing()
        if command == "prefer":
            choice = str(args.get("choice", "")).strip().lower()
            choice = _alias("choice", choice)
            value = str(args.get("value", "")).strip()
            value = _synonyms("mode").get(value.lower(), value.upper())
            if choice in DIRECTION_CHOICES:
                value = _alias("direction", value)
            return Prefer(choice, value)
        if command == "choose":
            value = str(args.get("answer", "")).strip().upper()
            return Choose(_alias("direction", value))
        if command == "buy":
            return Buy(normalize_item(args.get("item")))
        if command == "pass":
            return Pass()
        if command == "skip":
            return Skip()
        if command == "start":
            return Start(square_name(parse_square(args.get("square"))))
        if command == "weapon":
            return self._weapon_action(state, args)
        raise RulesError("core.error.unknown_command", command=shown(command, 32))

    @staticmethod
    def _weapon_action(state: BadBonesState, args: CommandArgs) -> Weapon:
        """Typed weapon arguments → the canonical action (squares upper case, symbols and chief
        kinds lower case); ``check`` then validates it against the weapon's legal uses."""
        target = str(args.get("target") or "").strip()
        to = str(args.get("to") or "").strip()
        up = target.upper()
        up = _alias("direction", up)
        if target.lower() in SYMBOLS or target.lower() in _synonyms("symbol"):
            target = _alias("symbol", target.lower())
        else:
            target = up
        to_up = _alias("direction", to.upper())
        kind = _alias("chief", to.lower())
        to = kind if kind in CHIEF_KINDS else to_up
        return Weapon(target, to)

    def suggestions(
        self, state: BadBonesState, seat: int, command: str, param: str, args: CommandArgs
    ) -> list[str]:
        if command == "prefer" and param == "value":
            choice = str(args.get("choice", "top")).strip().lower()
            return preference_values(choice if choice in CHOICES else "top", state.seats, seat)
        if command == "weapon" and param == "target":
            return list(dict.fromkeys(t for t, _ in self._weapon_uses(state, seat)))
        if command == "place" and args.get("trap") and param != "trap":
            # "muro", "dragón"… narrow the squares like their English names do.
            try:
                args = {**args, "trap": normalize_trap(args["trap"])}
            except RulesError:
                return []
        return super().suggestions(state, seat, command, param, args)

    # ----------------------------------------------------------------- what players see

    def view(self, state: BadBonesState, seat: int | None) -> dict[str, Any]:
        lay = state.layout
        boards = []
        asked = {s: phases.board_at_question(state, s) for s in sorted(state.questions)}
        for s, b in enumerate(state.boards):
            b = asked.get(s) or b  # a question's picture: the board at that moment
            hero = square_name(b.hero) if b.hero >= 0 else ""
            if state.stage == START and s == seat and s in state.subs:
                hero = state.subs[s]["square"]  # your own hidden pick, on your board only
            boards.append(
                {
                    "seat": s,
                    "left": (s - 1) % state.seats,
                    "right": (s + 1) % state.seats,
                    "hero": hero,
                    "floors": b.floors,
                    "houses": b.houses,
                    "max_floors": 1 if state.solo else 4,
                    "max_houses": 0 if state.coop else 1 if state.solo else 5,
                    "skeletons": [
                        {
                            "square": square_name(sk.square),
                            "symbol": SYMBOLS[sk.token.symbol],
                            "forest": FORESTS[sk.token.model // 5],
                            "facing": DIRS[sk.facing],
                            "rested": sk.rested,
                            "chief": sk.token.kind,
                            "frozen": sk.frozen,
                        }
                        for sk in sorted(b.skeletons, key=skeleton_order)
                    ],
                    "forest": [
                        {
                            "symbol": SYMBOLS[t.symbol],
                            "forest": FORESTS[t.model // 5],
                            "chief": t.kind,
                        }
                        for t in sorted(b.forest, key=token_order)
                    ],
                    "weapon": b.weapon,
                    "ruins": [square_name(sq) for sq in sorted(b.ruins)],
                    "lost": b.lost,
                    "cemetery": len(b.cemetery),
                    "traps": [
                        {
                            "square": square_name(sq),
                            "trap": t.kind,
                            "side": ("blast" if t.kind == "bomb" else "damaged")
                            if t.side
                            else "intact",
                            "orientation": t.orientation,
                            "stars": TRAPS[t.kind].stars[t.side],
                        }
                        for sq, t in sorted(b.traps.items())
                    ],
                    "supply": list(b.supply),
                    "score": score(b),
                    "eliminated": b.eliminated,
                }
            )
        data: dict[str, Any] = {
            "game": self.name,
            "round": state.round,
            "stage": state.stage,
            "seats": state.seats,
            "solo": state.solo,
            "solo_rounds": int(state.options.get("solo_rounds", 10)),
            "towers": [square_name(t) for t in lay.towers],
            "arrows": {square_name(sq): DIRS[d] for sq, d in sorted(lay.arrows.items())},
            "bag": sum(state.bag) + len(state.chiefs),
            "boards": boards,
            "advanced": bool(state.options.get("advanced", False)),
            "cooperative": state.coop,
            "chiefs": bool(state.options.get("chiefs", False)),
            "weapons_due": sorted(state.weapons),
            "submitted": sorted(state.subs) if state.stage in (HERO, TRAP) else [],
            "awaiting": sorted(self.pending(state)),
            "seat": seat,
        }
        if state.coop:
            data["capital"] = state.capital
            data["capital_max"] = state.seats
            data["pool"] = list(state.pool)
            data["coop_rounds"] = phases.COOP_ROUNDS
        if state.market is not None:
            m = state.market
            data["market"] = {
                "stock": dict(m["stock"]),
                "prices": {item: price(item) for item in m["stock"]},
                "weapons": [item for item in m["stock"] if item in WEAPONS],
                "coins": list(m["coins"]),
                "turn": market.buyers(state),
                "passed": list(m["passed"]),
                "last": m["last"],
                "shared": state.coop,
            }
        if state.stage == LANDING:
            # Phase 2's submissions were revealed when it resolved; the placements wait for
            # the dragon's owner to answer, so the image can show them as arriving.
            data["placing"] = [
                {
                    "seat": s,
                    "trap": sub["trap"],
                    "square": sub["square"],
                    "orientation": sub["orientation"],
                }
                for s, sub in sorted(state.subs.items())
                # a board shown at its question has its trap down already
                if sub["type"] == "place" and asked.get(s) is None
            ]
        if state.stage == OVER:
            data["result"] = {
                "outcome": state.outcome,
                "scores": {str(s): v for s, v in state.scores.items()},
                "winners": list(self.result(state).winners),  # type: ignore[union-attr]
            }
        if seat is not None and 0 <= seat < state.seats:
            # Only this seat's own hidden things.
            data["my_submission"] = dict(state.subs[seat]) if seat in state.subs else None
            question = state.questions.get(seat)
            data["question"] = dict(question) if question else None
            data["prefs"] = dict(state.boards[seat].prefs)
        return data
