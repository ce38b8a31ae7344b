"""Dragon Farkle: Recruit, Brawl and the Final Battle in the Dragon's Keep.

Rules: shared/rules/dragon-farkle.md (decisions D1–D11) over the Spanish source text. Where this
file takes a further decision it says so in a comment marked *Decision*; docs/games/farkle.md
lists them all.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, NamedTuple

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
from rules.farkle import scoring
from rules.farkle.actions import (
    ACTION_TYPES,
    AcceptFarkle,
    Bonus,
    Brawl,
    Discard,
    Double,
    Draw,
    Enter,
    Fight,
    Keep,
    Recruit,
    Reroll,
    Roll,
    Scare,
    Stop,
    UseCompanion,
    UseItem,
)
from rules.farkle.cards import COMPANIONS, CURSED, ITEM_COPIES, ITEMS, PLAYABLE
from rules.farkle.state import (
    DIE_LETTERS,
    EVENT_FACES,
    FarkleState,
    Player,
    Roller,
    thaw,
)

KEEP_ARMY = 5000  # soldiers needed to enter the Dragon's Keep
BRAWL_BONUS = 500
SKREE_SCARE = 300
AMULET_LOSS = 250
BERSERKER_BONUS = 250
QUARTERMASTER_BONUS = 100
QUARTERMASTER_MIN = 1000
POSTER_BONUS = 500

ROLL_STAGES = frozenset({"roll", "dragon", "dodge", "farkle"})  # a roll awaits a decision
# Stages in which the turn's wannabe is the one acting (Skree may be sent then).
TURN_STAGES = frozenset(
    {"choose", "roll", "dragon", "dodge", "farkle", "rally", "next", "battle", "review"}
)

E = Event

# Stages of a run of rolls: the roller (the defender's run once it started) owes the input.
_RUN_STAGES = frozenset({"roll", "dragon", "dodge", "farkle", "rally", "next"})
_DEADLINE_STAGES = ROLL_STAGES | {"rally", "next"}  # a defender's own clock runs in these
_ROLL_ON_STAGES = ("next", "dragon", "dodge")  # stages where the roller may roll on or stop

# Shared instances of the immutable actions that legal_actions and pending hand out.
_RECRUIT = Recruit()
_ENTER = Enter()
_ROLL = Roll()
_STOP = Stop()
_DOUBLE = Double()
_DRAW = Draw()
_USE_COMPANION = UseCompanion()
_FIGHT = Fight()
_BONUS = Bonus()
_ACCEPT_FARKLE = AcceptFarkle()
_BRAWL = tuple(Brawl(t) for t in range(5))
_SCARE = tuple(Scare(t) for t in range(5))
_USE_ITEM = {item: UseItem(item) for item in ITEMS}


def _down50(amount: int) -> int:
    """Half of ``amount``, rounded down to a multiple of 50 (soldiers come in fifties)."""
    return (amount // 2) // 50 * 50


def throw(rng: Rng, dice: int, event: bool = True) -> tuple[list[int], str]:
    """Roll ``dice`` soldier dice and (``event``) the event die with one draw of the generator:
    the faces are the base-6 digits of a uniform number below 6^(dice + 1), the lowest digit
    the first die's, the digit above the last die the event die's."""
    value = rng.below(6 ** (dice + event))
    faces = []
    for _ in range(dice):
        faces.append(value % 6 + 1)
        value //= 6
    return faces, EVENT_FACES[value % 6] if event else ""


def _dice_of(mask: int, count: int) -> list[int]:
    """The positions (0 = die a) of the dice of ``mask`` among ``count`` dice."""
    return [i for i in range(count) if mask >> i & 1]


def _token(i: int, face: int) -> str:
    """How commands name die ``i`` showing ``face``: ``c5``."""
    return f"{DIE_LETTERS[i]}{face}"


def tokens(roll: list[int], mask: int) -> str:
    """The dice of ``mask`` as command tokens: ``a5 c1``."""
    return " ".join([_token(i, roll[i]) for i in _dice_of(mask, len(roll))])


def faces(roll: list[int]) -> str:
    """A roll written for messages: ``a5 b2 c1``."""
    return " ".join([_token(i, d) for i, d in enumerate(roll)])


def _echo(text: object) -> str:
    """User input repeated in a message: short, and with no braces that would look like an
    unfilled template argument."""
    return str(text).replace("{", "(").replace("}", ")")[:30]


def parse_tokens(text: str, roll: list[int], key: str) -> int:
    """The mask of the dice a user named (``a c``, ``a5 c1``, ``ac``, ``A,C``); a letter that is
    not in the roll, or a face that does not match, is a RulesError ``key``."""
    cleaned = str(text).replace(",", " ").lower().split()
    if len(cleaned) == 1 and cleaned[0].isalpha():
        cleaned = list(cleaned[0])  # "acd"
    mask = 0
    for tok in cleaned:
        index = DIE_LETTERS.find(tok[0]) if tok else -1
        if index < 0 or index >= len(roll) or mask >> index & 1:
            raise RulesError(key, dice=_echo(text))
        rest = tok[1:]
        if rest and (not rest.isdigit() or int(rest) != roll[index]):
            raise RulesError(key, dice=_echo(text))
        mask |= 1 << index
    return mask


class DragonFarkle(Game[FarkleState]):
    name = "farkle"
    min_seats = 2
    max_seats = 5
    option_specs = (
        OptionSpec("legend", "choice", "off", choices=("off", "4", "5")),
        OptionSpec("four_pair", "bool", True),
        OptionSpec("defend_time", "int", 300, min=0, max=86_400),
    )
    action_types = ACTION_TYPES
    commands = (
        Command("recruit", button=True),
        Command("brawl", (Param("target", "int", autocomplete=True),), button=True),
        Command("enter", button=True),
        Command("keep", (Param("dice", autocomplete=True),), select="dice"),
        Command("roll", button=True),
        Command("stop", button=True),
        Command("double", button=True),
        Command("draw", button=True),
        Command("companion", button=True),
        Command("scare", (Param("target", "int", autocomplete=True),), button=True),
        Command("reroll", (Param("die", autocomplete=True),), button=True),
        # Not buttons: the phase message's buttons are public, and a button per item would
        # tell the channel which items a wannabe holds.
        Command(
            "item",
            (
                Param("item", autocomplete=True, names="farkle.item", pieces="items"),
                Param("die", required=False, autocomplete=True),
            ),
            steps=("item", "die"),
            hidden=True,  # in menus under the player's own /game board only
        ),
        Command("fight", button=True),
        Command("bonus", button=True),
        Command("farkle", button=True),
        Command(
            "discard",
            (Param("item", autocomplete=True, names="farkle.item", pieces="items"),),
            steps=("item",),
            hidden=True,
        ),
    )

    def pieces(self) -> dict[str, tuple[Piece, ...]]:
        return {
            "items": tuple(
                Piece(k, f"farkle.item.{k}", f"farkle.item_text.{k}") for k in ITEM_COPIES
            ),
            "companions": tuple(
                Piece(k, f"farkle.companion.{k}", f"farkle.companion_text.{k}") for k in COMPANIONS
            ),
        }

    # ================================================================== setup

    def setup(self, num_seats: int, options: dict[str, Any], seed: int) -> FarkleState:
        rng = Rng(seed)
        companions = list(COMPANIONS)
        rng.shuffle(companions)
        items = list(ITEMS)
        rng.shuffle(items)
        players = [Player(0, companions.pop(), []) for _ in range(num_seats)]
        state = FarkleState(
            seats=num_seats,
            target=3 if options["legend"] == "off" else int(options["legend"]),
            four_pair=bool(options["four_pair"]),
            defend_time=int(options["defend_time"]),
            rng=rng,
            players=players,
            companion_deck=companions,
            companion_discard=[],
            item_deck=items,
            item_discard=[],
            turn=rng.below(num_seats),  # D4: the first player is random
        )
        for seat in range(num_seats):
            # Decision: a cursed card dealt at setup takes effect (nothing to lose yet) and
            # the wannabe is dealt another, so everyone starts with one real item.
            while not state.players[seat].items:
                self._draw_item(state, seat, state.players[seat].items, [])
        self._start_turn(state, [])
        return state

    # ================================================================== the engine API

    def copy(self, state: FarkleState) -> FarkleState:
        return state.copy()

    def dump(self, state: FarkleState) -> dict[str, Any]:
        return state.dump()

    def load(self, data: dict[str, Any]) -> FarkleState:
        return FarkleState.load(data)

    def is_over(self, state: FarkleState) -> bool:
        return state.stage == "over"

    def result(self, state: FarkleState) -> Result | None:
        if state.stage != "over":
            return None
        return Result(
            (state.winner,),
            {s: p.army for s, p in enumerate(state.players)},
            E("farkle.event.winner", {"seat": state.winner}),
        )

    def phase(self, state: FarkleState) -> str:
        return f"{state.turn_no}.{state.stage}.{state.step}"

    def turn_key(self, state: FarkleState) -> str:
        # Choose, roll, keep, roll again…: one turn, one deadline (a brawl's defender, newly
        # asked, gets a deadline of their own).
        return str(state.turn_no)

    def turn(self, state: FarkleState) -> Turn:
        """One message per turn: its wannabe's choose, rolls, keeps, rally… edit it. Another
        player asked within the turn must look at once: a brawl's defender (declared against,
        then rolling), a Pickpocket winner who is not the wannabe, a player discarding."""
        stage = state.stage
        if stage == "over":
            return Turn(str(state.turn_no))
        asked: set[int] = set()
        if stage == "respond" or (state.defence is not None and stage in _RUN_STAGES):
            asked = {state.defender}
        elif stage == "pickpocket":
            asked = {state.thief}
        elif stage == "discard":
            asked = set(self.pending(state))
        return Turn(str(state.turn_no), state.turn, frozenset(asked - {state.turn}))

    def pending(self, state: FarkleState) -> dict[int, Pending]:
        stage = state.stage
        if stage in _RUN_STAGES:  # the usual case first: somebody's run of rolls
            defence = state.defence
            if defence is not None:
                attack = state.attack
                args: dict[str, Any] = {"score": defence.score}
                if attack is not None:
                    args["attack"] = attack.score
                if stage == "farkle":
                    args["rescue_key"] = self._rescue(state, defence.seat)
                default = self._default(state, defence, True)
                return {defence.seat: Pending(stage, default, state.deadline, args)}
            roller = state.attack
            assert roller is not None
            default = self._default(state, roller, False)
            args = {"score": roller.score}
            if stage == "farkle":
                args["rescue_key"] = self._rescue(state, roller.seat)
            return {roller.seat: Pending(stage, default, None, args)}
        if stage == "over":
            return {}
        if stage == "discard":
            out = {}
            for seat in range(state.seats):
                cands = self._discard_candidates(state, seat)
                if cands:
                    out[seat] = Pending("discard", Discard(cands[-1]))
            return out
        if stage == "choose":
            # An absent wannabe recruits until the Keep is open to them, then fights the
            # dragon: so even a table of absent players finishes the game.
            me = state.players[state.turn]
            ready = me.in_keep or me.army >= KEEP_ARMY
            return {state.turn: Pending("choose", _ENTER if ready else _RECRUIT)}
        if stage == "respond":
            return {
                state.defender: Pending(
                    "respond", _FIGHT, state.deadline, {"attacker_seat": state.turn}
                )
            }
        if stage == "pickpocket":
            return {state.thief: Pending("pickpocket", _BONUS)}
        # battle, review
        return {state.turn: Pending(stage, _ROLL)}

    def _rescue(self, state: FarkleState, seat: int) -> str:
        """How a Farkle can be rescued now, as a catalogue key: by the companion (the Field
        Medic, the Lucky Squire's re-roll), by a magic item, both or nothing, so the question
        offers only what the player really has."""
        legal = self.legal_actions(state, seat)
        companion = any(isinstance(a, UseCompanion | Reroll) for a in legal)
        item = any(isinstance(a, UseItem) for a in legal)
        way = {(True, True): "both", (True, False): "companion", (False, True): "item"}
        return f"farkle.rescue.{way.get((companion, item), 'none')}"

    def _default(self, state: FarkleState, r: Roller, defending: bool) -> Action:
        """The action taken for an absent roller. A recruiter or attacker banks at the first
        chance; a defender follows D8's stop-at-risk policy: roll on while not ahead of the
        attacker and at least two dice (or hot dice) remain, otherwise stop."""
        stage = state.stage
        if stage == "roll":
            return _KEEP_ACTIONS[facts(r.roll, state.four_pair).default]
        if stage == "farkle":
            return _ACCEPT_FARKLE
        if stage == "rally":
            return _DOUBLE
        if not defending or state.attack is None:
            return _STOP
        left = r.dice - len(r.aside)
        if stage == "dragon":
            left -= len(facts(r.roll, state.four_pair).eaten.aside)
        elif stage == "dodge":
            left = len(r.roll)
        behind = r.score <= state.attack.score
        if behind and (left >= 2 or left == 0):
            return _ROLL
        return _STOP

    # ------------------------------------------------------------------ legal actions

    def _awaited(self, state: FarkleState, seat: int) -> bool:
        """Whether ``seat`` owes input now (``pending`` without building the defaults)."""
        stage = state.stage
        if stage in _RUN_STAGES:
            r = state.defence if state.defence is not None else state.attack
            return r is not None and r.seat == seat
        if stage in ("choose", "battle", "review"):
            return seat == state.turn
        if stage == "respond":
            return seat == state.defender
        if stage == "pickpocket":
            return seat == state.thief
        if stage == "discard":
            return 0 <= seat < state.seats and bool(self._discard_candidates(state, seat))
        return False  # over

    def legal_actions(self, state: FarkleState, seat: int) -> list[Action]:
        if not self._awaited(state, seat):
            return []
        stage = state.stage
        me = state.players[seat]
        out: list[Action]
        # The actions are immutable: the argument-less ones (and the per-seat, per-die ones)
        # are shared instances rather than built anew on every call.
        if stage == "next":
            out = [_ROLL, _STOP]
        elif stage in ROLL_STAGES:
            r = state.defence if state.defence is not None else state.attack
            assert r is not None
            if stage == "roll":
                # the shared Keep of each legal selection (a map: no comprehension frame)
                out = list(map(_KEEP_ACTIONS.__getitem__, facts(r.roll, state.four_pair).texts))
            elif stage == "farkle":
                out = [_ACCEPT_FARKLE]
                if self._recruiting(state, r) and me.companion == "medic" and self._medic_item(me):
                    out.append(_USE_COMPANION)
            else:  # dragon, dodge
                out = [_ROLL, _STOP]
            if me.companion == "squire" and not r.squire:
                out += [Reroll(_token(i, d)) for i, d in enumerate(r.roll)]
            if me.items:
                for item in dict.fromkeys(me.items):
                    if item == "loaded":
                        out += [UseItem("loaded", _token(i, d)) for i, d in enumerate(r.roll)]
                    elif item in PLAYABLE and self._item_timing(state, r, item) is None:
                        out.append(_USE_ITEM[item])
        elif stage == "choose":
            out = [_RECRUIT]
            players = state.players
            out += [_BRAWL[t] for t in range(state.seats) if t != seat and not players[t].in_keep]
            if me.in_keep or me.army >= KEEP_ARMY:
                out.append(_ENTER)
        elif stage == "rally":
            out = [_DOUBLE, _DRAW]
        elif stage == "respond":
            out = [_FIGHT]
            if "cloak" in me.items:
                out.append(_USE_ITEM["cloak"])
            return out
        elif stage == "discard":
            return [Discard(i) for i in dict.fromkeys(self._discard_candidates(state, seat))]
        elif stage == "pickpocket":
            return [_USE_COMPANION, _BONUS]
        else:  # battle, review
            out = [_ROLL]
            if stage == "review":
                out.append(_USE_COMPANION)
            if "arrow" in me.items:
                out.append(_USE_ITEM["arrow"])
        # The companion first: the rest is asked only of the rare unused Skree.
        if me.companion == "skree" and not me.skree_used:
            if stage in TURN_STAGES and seat == state.turn and state.defence is None:
                out += [_SCARE[t] for t in range(state.seats) if t != seat]
        return out

    # ------------------------------------------------------------------ commands

    def to_command(self, action: Action) -> tuple[str, CommandArgs] | None:
        if isinstance(action, Brawl | Scare):
            # Players are numbered from 1 in commands (the pictures show "#1 Ana"); the
            # action keeps the seat number.
            return action.kind, {"target": action.target + 1}
        if isinstance(action, Keep):
            return "keep", {"dice": action.dice}
        if isinstance(action, Reroll):
            return "reroll", {"die": action.die}
        if isinstance(action, UseItem):
            args: CommandArgs = {"item": action.item}
            if action.die:
                args["die"] = action.die
            return "item", args
        if isinstance(action, Discard):
            return "discard", {"item": action.item}
        return action.kind, {}

    def read(self, command: str, args: CommandArgs, state: FarkleState, seat: int) -> Action:
        """What Farkle's words need beyond the default: dice typed loosely ("a c", "ac",
        "a5 c1") are written the canonical way, and a wannabe is named by their number on the
        table picture (from 1), which the action keeps as a seat (from 0)."""
        args = {k: v.strip() if isinstance(v, str) else v for k, v in args.items()}
        roller = state.roller()
        if roller is not None and roller.roll:
            fixed = dict(args)
            for name in ("dice", "die"):
                value = fixed.get(name)
                if value not in (None, ""):
                    try:
                        mask = parse_tokens(str(value), roller.roll, "farkle.error.bad_die")
                    except RulesError:
                        continue  # check says which die is wrong
                    fixed[name] = tokens(roller.roll, mask)
            args = fixed
        found = self.listed(command, args, state, seat)
        if found is not None:
            return found
        if command in ("brawl", "scare") and not str(args.get("target", "")).strip():
            # The example is a wannabe this player may really name: never themself.
            rivals = [t for t in range(state.seats) if t != seat]
            fair = [t for t in rivals if not state.players[t].in_keep] or rivals
            raise RulesError("farkle.error.no_target", example=fair[0] + 1 if fair else 2)
        action = self._action_from_command(command, args)
        if action is None:
            if command in ("brawl", "scare"):  # a target that is not a number
                raise RulesError("farkle.error.bad_target", target=str(args.get("target", ""))[:10])
            raise RulesError("core.error.illegal", command=command[:50])
        return action

    def suggestions(
        self, state: FarkleState, seat: int, command: str, param: str, args: CommandArgs
    ) -> list[str]:
        found = super().suggestions(state, seat, command, param, args)
        roller = state.roller()
        if command != "keep" or roller is None or len(found) < 2:
            return found
        # "All the scoring dice" first: autocomplete offers the biggest set aside, and the
        # dice menu (built from these values, token by token) lists the dice a, b, c… in order
        # instead of in the order of the selections' bitmasks ("d5 a2 b2 e2").
        mask = scoring.all_scoring_mask(roller.roll, state.four_pair)
        first = tokens(roller.roll, mask)
        if first in found:
            found.remove(first)
            found.insert(0, first)
        return found

    def _name_the_item(self, state: FarkleState, seat: int, command: str) -> RulesError | None:
        """For an item left out, or one the player does not hold: the items they may
        ``discard`` (or use, for ``item``) now, by name, rather than "you do not hold that
        item"; None when they may use (or discard) none now."""
        can = [
            str(mapped[1]["item"])
            for action in self.legal_actions(state, seat)
            if (mapped := self.to_command(action)) is not None and mapped[0] == command
        ]
        if not can:
            return None
        return RulesError(f"farkle.error.name_item_{command}", items=", ".join(dict.fromkeys(can)))

    def _action_from_command(self, command: str, args: CommandArgs) -> Action | None:
        try:
            if command in ("brawl", "scare"):
                target = int(args.get("target", 0)) - 1
                return Brawl(target) if command == "brawl" else Scare(target)
            if command == "keep":
                return Keep(str(args.get("dice", "")))
            if command == "reroll":
                return Reroll(str(args.get("die", "")))
            if command == "item":
                return UseItem(str(args.get("item", "")), str(args.get("die") or ""))
            if command == "discard":
                return Discard(str(args.get("item", "")))
        except (TypeError, ValueError):
            return None
        simple = {
            a.kind: a
            for a in (
                Recruit,
                Enter,
                Roll,
                Stop,
                Double,
                Draw,
                UseCompanion,
                Fight,
                Bonus,
                AcceptFarkle,
            )
        }
        cls = simple.get(command)
        return cls() if cls is not None else None

    # ================================================================== play

    def check(self, state: FarkleState, seat: int, action: Action) -> None:
        if state.stage == "over":
            raise RulesError("core.error.game_over")
        if not self._awaited(state, seat):  # a seat out of range is never awaited either
            raise _not_your_turn(state, seat)
        checker = _CHECKS.get(type(action))
        if checker is None:
            raise RulesError("core.error.bad_action")
        checker(self, state, seat, action)

    def resolve(self, state: FarkleState, seat: int, action: Action, now: float) -> list[Event]:
        events: list[Event] = []
        _HANDLERS[type(action)](self, state, seat, action, events, now)
        state.step += 1
        # The brawl defender's own clock: restarted on each of their inputs while they owe one,
        # cleared otherwise.
        stage = state.stage
        if stage == "respond" or (state.defence is not None and stage in _DEADLINE_STAGES):
            state.deadline = now + state.defend_time if state.defend_time else None
        elif state.deadline is not None:
            state.deadline = None
        return events

    # ------------------------------------------------------------------ choose

    def _check_recruit(self, state: FarkleState, seat: int, action: Action) -> None:
        self._need_stage(state, "choose")

    def _on_recruit(
        self, state: FarkleState, seat: int, action: Action, ev: list[Event], now: float
    ) -> None:
        self._leave_keep(state, seat, ev)
        self._begin(state, "recruit", ev)

    def _check_brawl(self, state: FarkleState, seat: int, action: Action) -> None:
        assert isinstance(action, Brawl)
        self._need_stage(state, "choose")
        target = action.target
        if target == seat:
            raise RulesError("farkle.error.brawl_self")
        if not 0 <= target < state.seats:
            raise RulesError("farkle.error.bad_target", target=str(target + 1)[:10])
        if state.players[target].in_keep:
            raise RulesError("farkle.error.target_in_keep", target_seat=target)

    def _on_brawl(
        self, state: FarkleState, seat: int, action: Action, ev: list[Event], now: float
    ) -> None:
        assert isinstance(action, Brawl)
        target = action.target
        self._leave_keep(state, seat, ev)
        state.action = "brawl"
        state.defender = target
        state.stage = "respond"
        ev.append(E("farkle.event.brawl", {"seat": seat, "target_seat": target}))

    def _check_enter(self, state: FarkleState, seat: int, action: Action) -> None:
        self._need_stage(state, "choose")
        me = state.players[seat]
        if not me.in_keep and me.army < KEEP_ARMY:
            raise RulesError("farkle.error.keep_army", army=me.army, need=KEEP_ARMY)

    def _on_enter(
        self, state: FarkleState, seat: int, action: Action, ev: list[Event], now: float
    ) -> None:
        me = state.players[seat]
        ev.append(E("farkle.event.stay" if me.in_keep else "farkle.event.enter", {"seat": seat}))
        me.in_keep = True
        state.action = "keep"
        state.attack = Roller(seat, 6)
        state.damage = 0
        state.engineer_used = False
        self._keep_roll(state, ev)

    def _leave_keep(self, state: FarkleState, seat: int, ev: list[Event]) -> None:
        me = state.players[seat]
        if me.in_keep:
            me.in_keep = False
            ev.append(E("farkle.event.leave_keep", {"seat": seat}))

    def _begin(self, state: FarkleState, action: str, ev: list[Event]) -> None:
        state.action = action
        state.attack = Roller(state.turn, 6)
        ev.append(E(f"farkle.event.{action}", {"seat": state.turn}))
        self._roll(state, state.attack, ev)

    # ------------------------------------------------------------------ brawl response

    def _check_fight(self, state: FarkleState, seat: int, action: Action) -> None:
        self._need_stage(state, "respond")

    def _on_fight(
        self, state: FarkleState, seat: int, action: Action, ev: list[Event], now: float
    ) -> None:
        ev.append(E("farkle.event.fight", {"seat": seat}))
        state.attack = Roller(state.turn, 6)
        self._roll(state, state.attack, ev)

    # ------------------------------------------------------------------ rolling

    def _roll(self, state: FarkleState, r: Roller, ev: list[Event]) -> None:
        """Roll the dice not set aside (all of them after hot dice) and the event die."""
        left = r.dice - len(r.aside)
        if left <= 0:
            r.aside, r.eaten = [], []
            left = r.dice
        r.roll, r.event = throw(state.rng, left)
        r.kept = 0
        r.last = 0
        r.rolls += 1
        found = facts(r.roll, state.four_pair)
        ev.append(
            E(
                "farkle.event.rolled",
                {"seat": r.seat, "dice": found.faces, "face_key": f"farkle.face.{r.event}"},
            )
        )
        self._settle(state, r, ev, found)

    def _settle(self, state: FarkleState, r: Roller, ev: list[Event], found: RollFacts) -> None:
        """Which decision the roll now asks for (after a roll, or after an item or companion
        changed its dice or event die); ``found``: the facts of the roll as it now is."""
        scores = bool(found.texts)
        if r.event == "dragon":
            state.stage = "dragon" if scores else "dodge"
        else:
            state.stage = "roll" if scores else "farkle"
        if state.stage == "farkle":
            ev.append(E("farkle.event.farkled", {"seat": r.seat}))
        elif state.stage == "dodge":
            ev.append(E("farkle.event.dodged", {"seat": r.seat}))
        elif state.stage == "dragon":
            _, value, _, dice = found.eaten
            # The warning names what the dragon will really eat: half with the Dragon Whisperer.
            eaten = value - self._whispered(state, r, value)
            ev.append(
                E("farkle.event.dragon_comes", {"seat": r.seat, "dice": dice, "value": eaten})
            )

    @staticmethod
    def _check_roller(state: FarkleState, seat: int) -> None:
        r = state.roller()
        if r is None or r.seat != seat:
            raise _not_your_turn(state, seat)

    @staticmethod
    def _roller(state: FarkleState) -> Roller:
        """The roller of an action already checked."""
        r = state.roller()
        assert r is not None
        return r

    def _check_keep(self, state: FarkleState, seat: int, action: Action) -> None:
        assert isinstance(action, Keep)
        stage = state.stage
        if stage != "roll":
            if stage == "dragon":
                raise RulesError("farkle.error.dragon_eats")
            if stage in ("farkle", "dodge"):
                raise RulesError("farkle.error.nothing_scores")
            raise _not_now(state)
        self._check_roller(state, seat)
        r = self._roller(state)
        if action.dice in facts(r.roll, state.four_pair).texts:
            return  # the canonical form of a legal selection (the usual case)
        mask = parse_tokens(action.dice, r.roll, "farkle.error.bad_die")
        if mask == 0:
            raise RulesError("farkle.error.empty_selection")
        if scoring.mask_value(r.roll, mask, state.four_pair) is None:
            raise RulesError("farkle.error.not_scoring", dice=tokens(r.roll, mask))

    def _on_keep(
        self, state: FarkleState, seat: int, action: Action, ev: list[Event], now: float
    ) -> None:
        assert isinstance(action, Keep)
        r = self._roller(state)
        found = facts(r.roll, state.four_pair)
        dice = action.dice
        if dice not in found.texts:  # typed loosely ("ac"): the canonical form
            dice = tokens(r.roll, parse_tokens(dice, r.roll, "farkle.error.bad_die"))
        mask, value, faces_aside, dice = found.selections[found.texts.index(dice)]
        self._set_aside(r, mask, value, faces_aside)
        ev.append(
            E("farkle.event.kept", {"seat": seat, "dice": dice, "value": value, "total": r.score})
        )
        self._hot_dice(state, r, ev)
        state.stage = "rally" if r.event == "rally" else "next"

    @staticmethod
    def _set_aside(
        r: Roller, mask: int, value: int, faces_aside: tuple[int, ...], eaten: bool = False
    ) -> None:
        r.kept = mask
        r.last = value
        r.score += value
        r.aside += faces_aside
        r.eaten += [eaten] * len(faces_aside)

    def _hot_dice(self, state: FarkleState, r: Roller, ev: list[Event]) -> None:
        """Told after the set-aside that caused it (the messages read in order)."""
        if len(r.aside) >= r.dice:
            ev.append(E("farkle.event.hot_dice", {"seat": r.seat}))
            if self._recruiting(state, r) and state.players[r.seat].companion == "berserker":
                r.score += BERSERKER_BONUS
                ev.append(E("farkle.event.berserker", {"seat": r.seat, "amount": BERSERKER_BONUS}))

    def _whispered(self, state: FarkleState, r: Roller, value: int) -> int:
        """Of the ``value`` the dragon would eat, what the Dragon Whisperer saves (it eats only
        half, rounded down to 50, while its owner recruits); 0 without it."""
        if self._recruiting(state, r) and state.players[r.seat].companion == "whisperer":
            return value - _down50(value)
        return 0

    def _dragon_eats(self, state: FarkleState, r: Roller, ev: list[Event]) -> None:
        mask, value, faces_aside, dice = facts(r.roll, state.four_pair).eaten
        kept = self._whispered(state, r, value)
        self._set_aside(r, mask, kept, faces_aside, eaten=True)
        ev.append(
            E(
                # "keeps 0" only confused: say what is kept when the Dragon Whisperer saves some
                "farkle.event.eaten_kept" if kept else "farkle.event.eaten",
                {
                    "seat": r.seat,
                    "dice": dice,
                    "eaten": value - kept,
                    "value": kept,
                },
            )
        )
        self._hot_dice(state, r, ev)

    def _check_roll(self, state: FarkleState, seat: int, action: Action) -> None:
        stage = state.stage
        if stage in _ROLL_ON_STAGES:
            self._check_roller(state, seat)
        elif stage in ("battle", "review"):
            if seat != state.turn:
                raise _not_your_turn(state, seat)
        elif stage == "roll":
            raise RulesError("farkle.error.keep_first")
        elif stage == "farkle":
            raise RulesError("farkle.error.nothing_scores")
        else:
            raise _not_now(state)

    def _on_roll(
        self, state: FarkleState, seat: int, action: Action, ev: list[Event], now: float
    ) -> None:
        stage = state.stage
        if stage == "review":
            if self._keep_resolve(state, ev):
                self._keep_roll(state, ev)
        elif stage == "battle":
            self._keep_roll(state, ev)
        else:  # next, dragon, dodge
            r = self._roller(state)
            if stage == "dragon":
                self._dragon_eats(state, r, ev)
            self._roll(state, r, ev)

    def _check_stop(self, state: FarkleState, seat: int, action: Action) -> None:
        stage = state.stage
        if stage in _ROLL_ON_STAGES:
            self._check_roller(state, seat)
        elif stage == "roll":
            raise RulesError("farkle.error.keep_first")
        elif stage == "farkle":
            raise RulesError("farkle.error.nothing_scores")
        elif stage in ("battle", "review"):
            raise RulesError("farkle.error.keep_no_stop")
        else:
            raise _not_now(state)

    def _on_stop(
        self, state: FarkleState, seat: int, action: Action, ev: list[Event], now: float
    ) -> None:
        r = self._roller(state)
        if state.stage == "dragon":
            self._dragon_eats(state, r, ev)
        self._stop(state, r, ev)

    def _check_rally(self, state: FarkleState, seat: int, action: Action) -> None:
        """Double or Draw, after setting aside dice from a rally roll."""
        self._need_stage(state, "rally")
        self._check_roller(state, seat)

    def _on_double(
        self, state: FarkleState, seat: int, action: Action, ev: list[Event], now: float
    ) -> None:
        r = self._roller(state)
        r.score += r.last
        ev.append(E("farkle.event.doubled", {"seat": seat, "value": r.last, "total": r.score}))
        state.stage = "next"

    def _on_draw(
        self, state: FarkleState, seat: int, action: Action, ev: list[Event], now: float
    ) -> None:
        r = self._roller(state)
        self._draw_item(state, seat, r.gained, ev)
        state.stage = "next"

    def _check_farkle(self, state: FarkleState, seat: int, action: Action) -> None:
        self._need_stage(state, "farkle")
        self._check_roller(state, seat)

    def _on_farkle(
        self, state: FarkleState, seat: int, action: Action, ev: list[Event], now: float
    ) -> None:
        self._lose_run(state, self._roller(state), ev)

    def _lose_run(self, state: FarkleState, r: Roller, ev: list[Event]) -> None:
        """A Farkle: the run's soldiers and the items it drew are lost."""
        # Name the lost items only when the run drew some ("and 0 item(s)" read badly).
        key = "farkle.event.farkle_items" if r.gained else "farkle.event.farkle"
        ev.append(E(key, {"seat": r.seat, "lost": r.score, "items": len(r.gained)}))
        state.item_discard += r.gained
        r.gained = []
        r.score = 0
        if state.action == "recruit":
            state.last = {"seat": r.seat, "action": "recruit", "outcome": "farkle", "amount": 0}
            self._end_turn(state, ev)
        else:
            self._brawl_next(state, r, ev)

    def _stop(self, state: FarkleState, r: Roller, ev: list[Event]) -> None:
        if state.action == "recruit":
            self._bank(state, r, r.score, ev, rescued=False)
        else:
            ev.append(E("farkle.event.brawl_score", {"seat": r.seat, "score": r.score}))
            self._brawl_next(state, r, ev)

    def _bank(
        self, state: FarkleState, r: Roller, amount: int, ev: list[Event], rescued: bool
    ) -> None:
        """The end of a Recruit: the soldiers join the army, the drawn items the hand."""
        me = state.players[r.seat]
        if me.companion == "quartermaster" and amount >= QUARTERMASTER_MIN:
            amount += QUARTERMASTER_BONUS
            ev.append(
                E("farkle.event.quartermaster", {"seat": r.seat, "amount": QUARTERMASTER_BONUS})
            )
        if not rescued and "poster" in me.items:
            # Recruiting Poster works by itself at the end of a Recruit without a Farkle.
            me.items.remove("poster")
            state.item_discard.append("poster")
            amount += POSTER_BONUS
            ev.append(E("farkle.event.poster", {"seat": r.seat, "amount": POSTER_BONUS}))
        me.army += amount
        if not rescued:
            me.items += r.gained
        else:
            state.item_discard += r.gained
        r.gained = []
        key = "farkle.event.banked" if amount else "farkle.event.banked_none"  # not "0 soldiers"
        ev.append(E(key, {"seat": r.seat, "amount": amount, "army": me.army}))
        state.last = {"seat": r.seat, "action": "recruit", "outcome": "banked", "amount": amount}
        self._end_turn(state, ev)

    # ------------------------------------------------------------------ brawl

    def _brawl_next(self, state: FarkleState, r: Roller, ev: list[Event]) -> None:
        if r is state.attack:
            d = state.defender
            dice = 6 if state.players[d].companion == "bodyguard" else 5
            state.defence = Roller(d, dice)
            ev.append(E("farkle.event.defends", {"seat": d, "dice": dice, "attack": r.score}))
            self._roll(state, state.defence, ev)
        else:
            self._resolve_brawl(state, ev)

    def _resolve_brawl(self, state: FarkleState, ev: list[Event]) -> None:
        att, dfn = state.attack, state.defence
        assert att is not None and dfn is not None
        a, d = att.score, dfn.score
        summary: dict[str, Any] = {
            "seat": att.seat,
            "action": "brawl",
            "target": dfn.seat,
            "attack": a,
            "defence": d,
        }
        if a == d:
            # D6: a tie moves nobody; each side may keep one item it drew in the brawl.
            ev.append(
                E("farkle.event.brawl_tie", {"seat": att.seat, "target_seat": dfn.seat, "score": a})
            )
            for run in (att, dfn):
                self._take_brawl_items(state, run)
            summary["outcome"] = "tie"
            state.last = summary
            self._end_turn(state, ev)
            return
        win, lose = (att, dfn) if a > d else (dfn, att)
        diff = abs(a - d)
        loser = state.players[lose.seat]
        if lose is dfn and "shield" in loser.items:
            loser.items.remove("shield")
            state.item_discard.append("shield")
            diff = _down50(diff)
            ev.append(E("farkle.event.shield", {"seat": lose.seat, "amount": diff}))
        moved = min(diff, loser.army)
        loser.army -= moved
        state.players[win.seat].army += moved
        ev.append(
            E(
                # "takes 0 soldiers" read like a bug: say the loser had none
                "farkle.event.brawl_won" if moved else "farkle.event.brawl_won_empty",
                {
                    "seat": win.seat,
                    "loser_seat": lose.seat,
                    "win": max(a, d),
                    "lose": min(a, d),
                    "moved": moved,
                },
            )
        )
        # D7: the loser keeps nothing drawn in the brawl; the winner keeps one.
        state.item_discard += lose.gained
        lose.gained = []
        self._take_brawl_items(state, win)
        summary.update(outcome="won", winner=win.seat, moved=moved)
        state.last = summary
        winner = state.players[win.seat]
        # Decision: any item may be picked, the Bag of Holding too, so that whether the
        # choice is offered tells nobody which item the loser holds (only how many: public).
        if winner.companion == "pickpocket" and loser.items:
            state.thief, state.loser = win.seat, lose.seat
            state.stage = "pickpocket"
            return
        self._brawl_bonus(state, win.seat, ev)
        self._end_turn(state, ev)

    def _brawl_bonus(self, state: FarkleState, seat: int, ev: list[Event]) -> None:
        state.players[seat].army += BRAWL_BONUS
        # The table's last line tells the bonus too ("took 0 soldiers" alone hid the +500).
        state.last["bonus"] = BRAWL_BONUS
        ev.append(E("farkle.event.bonus", {"seat": seat, "amount": BRAWL_BONUS}))

    def _take_brawl_items(self, state: FarkleState, run: Roller) -> None:
        if run.gained:
            state.players[run.seat].items += run.gained
            if len(run.gained) > 1:
                state.restrict[run.seat] = list(run.gained)
            run.gained = []

    def _check_bonus(self, state: FarkleState, seat: int, action: Action) -> None:
        self._need_stage(state, "pickpocket")

    def _on_bonus(
        self, state: FarkleState, seat: int, action: Action, ev: list[Event], now: float
    ) -> None:
        self._brawl_bonus(state, seat, ev)
        state.thief = state.loser = -1
        self._end_turn(state, ev)

    # ------------------------------------------------------------------ the Dragon's Keep

    def _keep_roll(self, state: FarkleState, ev: list[Event]) -> None:
        r = state.attack
        assert r is not None
        left = 6 - len(r.aside)
        if left <= 0:  # D9: when no dice remain, roll all six again
            r.aside, r.eaten = [], []
            left = 6
        r.roll, r.event = throw(state.rng, left)
        r.kept = 0
        r.rolls += 1
        ev.append(
            E(
                "farkle.event.rolled",
                {
                    "seat": r.seat,
                    "dice": facts(r.roll, state.four_pair).faces,
                    "face_key": f"farkle.face.{r.event}",
                },
            )
        )
        if state.players[r.seat].companion == "engineer" and not state.engineer_used:
            state.stage = "review"  # the Siege Engineer may still re-roll this event die
        elif self._keep_resolve(state, ev):
            state.stage = "battle"

    def _keep_resolve(self, state: FarkleState, ev: list[Event]) -> bool:
        """Apply a Final Battle roll; True if the battle goes on."""
        r = state.attack
        assert r is not None
        me = state.players[r.seat]
        mask, value, faces_aside, dice = facts(r.roll, state.four_pair).eaten
        hit = {"dragon": 1, "rally": 2}.get(r.event, 0)
        if hit:
            state.damage += hit
            ev.append(
                E(
                    "farkle.event.damage",
                    {
                        "seat": r.seat,
                        "amount": hit,
                        "damage": min(state.damage, state.target),
                        "target": state.target,
                    },
                )
            )
        lost = min(value, me.army)
        if mask:
            r.kept = mask
            r.aside += faces_aside
            r.eaten += [False] * len(faces_aside)
            me.army -= lost
            r.score += lost
            ev.append(
                E(
                    "farkle.event.keep_loss",
                    {"seat": r.seat, "dice": dice, "lost": lost, "army": me.army},
                )
            )
        if self._check_slain(state, ev):
            return False
        if me.army <= 0:
            ev.append(E("farkle.event.wiped", {"seat": r.seat}))
            self._keep_over(state, "wiped", ev)
            return False
        if not hit and not mask:
            ev.append(E("farkle.event.keep_farkle", {"seat": r.seat}))
            self._keep_over(state, "farkle", ev)
            return False
        state.stage = "battle"
        return True

    def _check_slain(self, state: FarkleState, ev: list[Event]) -> bool:
        if state.damage < state.target:
            return False
        state.winner = state.turn
        state.stage = "over"
        state.last = {
            "seat": state.turn,
            "action": "keep",
            "outcome": "slain",
            "damage": state.damage,
        }
        ev.append(E("farkle.event.slain", {"seat": state.turn, "damage": state.damage}))
        return True

    def _keep_over(self, state: FarkleState, outcome: str, ev: list[Event]) -> None:
        r = state.attack
        assert r is not None
        state.last = {
            "seat": r.seat,
            "action": "keep",
            "outcome": outcome,
            "damage": state.damage,
            "lost": r.score,
        }
        if state.damage:
            ev.append(E("farkle.event.regenerates", {"damage": state.damage}))
        self._end_turn(state, ev)

    # ------------------------------------------------------------------ companions

    def _check_companion(self, state: FarkleState, seat: int, action: Action) -> None:
        me = state.players[seat]
        stage = state.stage
        if stage == "pickpocket":
            return
        if stage == "review":
            if me.companion != "engineer":
                raise RulesError("farkle.error.companion_cannot")
            return
        if stage == "farkle" and me.companion == "medic":
            self._check_roller(state, seat)
            if not self._recruiting(state, self._roller(state)):
                raise RulesError("farkle.error.companion_cannot")
            if self._medic_item(me) is None:
                raise RulesError("farkle.error.medic_no_item")
            return
        raise RulesError("farkle.error.companion_cannot")

    def _on_companion(
        self, state: FarkleState, seat: int, action: Action, ev: list[Event], now: float
    ) -> None:
        me = state.players[seat]
        stage = state.stage
        if stage == "pickpocket":
            loser = state.players[state.loser]
            choices = list(loser.items)
            item = choices[state.rng.below(len(choices))]
            loser.items.remove(item)
            me.items.append(item)
            ev.append(E("farkle.event.pickpocket", {"seat": seat, "loser_seat": state.loser}))
            ev.append(E("farkle.event.stolen_you", {"item_key": f"farkle.item.{item}"}, to=seat))
            ev.append(
                E("farkle.event.stolen_from", {"item_key": f"farkle.item.{item}"}, to=state.loser)
            )
            state.thief = state.loser = -1
            self._end_turn(state, ev)
            return
        if stage == "review":  # the Siege Engineer
            r = state.attack
            assert r is not None
            state.engineer_used = True
            r.event = EVENT_FACES[state.rng.below(6)]
            ev.append(
                E("farkle.event.engineer", {"seat": seat, "face_key": f"farkle.face.{r.event}"})
            )
            self._keep_resolve(state, ev)
            return
        # farkle: the Field Medic
        r = self._roller(state)
        given = self._medic_item(me)
        assert given is not None
        me.items.remove(given)
        state.item_discard.append(given)
        ev.append(
            E(
                "farkle.event.medic",
                {"seat": seat, "item_key": f"farkle.item.{given}", "amount": r.score},
            )
        )
        self._bank(state, r, r.score, ev, rescued=True)

    @staticmethod
    def _medic_item(me: Player) -> str | None:
        """Field Medic discards the oldest item in hand that is not the Bag of Holding, or the
        Bag if it is all there is (so the offer reveals only how many items, which is public)."""
        return next((i for i in me.items if i != "bag"), me.items[0] if me.items else None)

    def _check_scare(self, state: FarkleState, seat: int, action: Action) -> None:
        assert isinstance(action, Scare)
        me = state.players[seat]
        if me.companion != "skree":
            raise RulesError("farkle.error.companion_cannot")
        if me.skree_used:
            raise RulesError("farkle.error.skree_used")
        if seat != state.turn or state.stage not in TURN_STAGES or state.defence is not None:
            raise RulesError("farkle.error.companion_timing")
        if action.target == seat or not 0 <= action.target < state.seats:
            raise RulesError("farkle.error.bad_target", target=str(action.target + 1)[:10])

    def _on_scare(
        self, state: FarkleState, seat: int, action: Action, ev: list[Event], now: float
    ) -> None:
        assert isinstance(action, Scare)
        me = state.players[seat]
        victim = state.players[action.target]
        lost = min(SKREE_SCARE, victim.army)
        victim.army -= lost
        me.skree_used = True
        ev.append(
            E("farkle.event.skree", {"seat": seat, "target_seat": action.target, "lost": lost})
        )

    def _check_reroll(self, state: FarkleState, seat: int, action: Action) -> None:
        assert isinstance(action, Reroll)
        me = state.players[seat]
        if me.companion != "squire":
            raise RulesError("farkle.error.companion_cannot")
        if state.stage not in ROLL_STAGES:
            raise RulesError("farkle.error.companion_timing")
        self._check_roller(state, seat)
        r = self._roller(state)
        if r.squire:
            raise RulesError("farkle.error.squire_used")
        self._check_one_die(action.die, r)

    @staticmethod
    def _check_one_die(die: str, r: Roller) -> None:
        if parse_tokens(die, r.roll, "farkle.error.bad_die").bit_count() != 1:
            raise RulesError("farkle.error.one_die")

    @staticmethod
    def _die_index(die: str, r: Roller) -> int:
        """The position of the one die ``die`` names (already checked)."""
        return parse_tokens(die, r.roll, "farkle.error.bad_die").bit_length() - 1

    def _on_reroll(
        self, state: FarkleState, seat: int, action: Action, ev: list[Event], now: float
    ) -> None:
        assert isinstance(action, Reroll)
        r = self._roller(state)
        i = self._die_index(action.die, r)
        r.squire = True
        old = r.roll[i]
        r.roll[i] = state.rng.randint(1, 6)
        ev.append(
            E(
                "farkle.event.squire",
                {"seat": seat, "die": DIE_LETTERS[i], "old": old, "new": r.roll[i]},
            )
        )
        self._settle(state, r, ev, facts(r.roll, state.four_pair))

    # ------------------------------------------------------------------ items

    def _item_timing(self, state: FarkleState, r: Roller | None, item: str) -> str | None:
        """None if ``item`` may be played now by the roller, else the error key."""
        stage = state.stage
        bad = "farkle.error.item_timing"
        if item not in PLAYABLE:
            return bad
        if item == "cloak":
            return None if stage == "respond" else bad
        if item == "arrow":
            return None if stage in ("battle", "review") else bad
        if stage not in ROLL_STAGES or r is None:
            return bad
        if item in ("potion", "loaded"):
            return None
        if item == "repellent":
            return None if stage == "dragon" else bad
        if item == "horn":
            return None if stage in ("roll", "dragon") and r.event != "rally" else bad
        if item == "draught":
            return None if stage == "farkle" and self._recruiting(state, r) else bad
        return bad

    @staticmethod
    def _item_roller(state: FarkleState, seat: int) -> Roller | None:
        """The seat's run, when an item may change its roll now (None: no roll of its)."""
        r = state.roller() if state.stage in ROLL_STAGES else None
        return r if r is not None and r.seat == seat else None

    def _check_item(self, state: FarkleState, seat: int, action: Action) -> None:
        assert isinstance(action, UseItem)
        item = action.item
        if item not in state.players[seat].items:
            named = self._name_the_item(state, seat, "item")
            if named is not None:
                raise named
            runs = (state.attack, state.defence)
            if any(r is not None and r.seat == seat and item in r.gained for r in runs):
                # "You do not hold War Horn" while the board shows it drawn read as a bug: it
                # is set aside face down until the turn ends (house rule).
                raise RulesError("farkle.error.item_drawn", item_key=f"farkle.item.{item}")
            raise RulesError("farkle.error.no_item", item_key=_item_key(item))
        r = self._item_roller(state, seat)
        error = self._item_timing(state, r, item)
        if error:
            raise RulesError(error, item_key=f"farkle.item.{item}")
        if item == "loaded":
            assert r is not None
            self._check_one_die(action.die, r)
        elif action.die:
            raise RulesError("farkle.error.no_die_needed")

    def _on_item(
        self, state: FarkleState, seat: int, action: Action, ev: list[Event], now: float
    ) -> None:
        assert isinstance(action, UseItem)
        me = state.players[seat]
        item = action.item
        r = self._item_roller(state, seat)
        me.items.remove(item)
        state.item_discard.append(item)
        args: dict[str, Any] = {"seat": seat, "item_key": f"farkle.item.{item}"}
        if item == "cloak":
            ev.append(E("farkle.event.item_used", args))
            ev.append(E("farkle.event.cloak", {"seat": seat, "attacker_seat": state.turn}))
            state.defender = -1
            self._begin(state, "recruit", ev)
            return
        if item == "arrow":
            state.damage += 1
            ev.append(E("farkle.event.item_used", args))
            ev.append(
                E(
                    "farkle.event.damage",
                    {
                        "seat": seat,
                        "amount": 1,
                        "damage": min(state.damage, state.target),
                        "target": state.target,
                    },
                )
            )
            self._check_slain(state, ev)
            return
        assert r is not None
        # The message tells what the item changed (the new dice, the new event face): the
        # picture alone left players reading "plays Potion of Courage." and guessing.
        key = "farkle.event.item_used"
        if item == "potion":
            r.roll = throw(state.rng, len(r.roll), event=False)[0]
            args["dice"] = faces(r.roll)
            key = "farkle.event.item_dice"
        elif item == "loaded":
            r.roll[self._die_index(action.die, r)] = 5
            args["dice"] = faces(r.roll)
            key = "farkle.event.item_dice"
        elif item == "repellent":
            r.event = "blank"
            args["face_key"] = "farkle.face.blank"
            key = "farkle.event.item_face"
        elif item == "horn":
            r.event = "rally"
            args["face_key"] = "farkle.face.rally"
            key = "farkle.event.item_face"
        elif item == "draught":
            ev.append(E("farkle.event.item_used", args))
            self._bank(state, r, _down50(r.score), ev, rescued=True)
            return
        ev.append(E(key, args))
        self._settle(state, r, ev, facts(r.roll, state.four_pair))

    def _draw_item(self, state: FarkleState, seat: int, into: list[str], ev: list[Event]) -> None:
        """Draw a magic item into ``into`` (a hand, or a run's face-down pile). Cursed items
        take effect at once and are discarded (D11: an empty deck reshuffles its discards)."""
        if not state.item_deck:
            state.item_deck, state.item_discard = state.item_discard, []
            state.rng.shuffle(state.item_deck)
            if state.item_deck:
                ev.append(E("farkle.event.reshuffle_items"))
        if not state.item_deck:
            ev.append(E("farkle.event.no_items", {"seat": seat}))
            return
        item = state.item_deck.pop()
        me = state.players[seat]
        if item in CURSED:
            state.item_discard.append(item)
            if item == "amulet":
                lost = min(AMULET_LOSS, me.army)
                me.army -= lost
                ev.append(E("farkle.event.amulet", {"seat": seat, "lost": lost}))
            else:
                gone = [i for i in me.items if i != "bag"]
                me.items = [i for i in me.items if i == "bag"]
                state.item_discard += gone
                state.restrict.pop(seat, None)
                key = "farkle.event.mimic" if gone else "farkle.event.mimic_none"
                ev.append(E(key, {"seat": seat, "count": len(gone)}))
            return
        into.append(item)
        ev.append(E("farkle.event.drew_item", {"seat": seat}))
        ev.append(E("farkle.event.you_drew", {"item_key": f"farkle.item.{item}"}, to=seat))

    # ------------------------------------------------------------------ discards (D10)

    def _discard_candidates(self, state: FarkleState, seat: int) -> list[str]:
        me = state.players[seat]
        kept = [i for i in state.restrict.get(seat, []) if i in me.items]
        if len(kept) > 1:
            return kept
        limit = 2 if "bag" in me.items else 1
        others = [i for i in me.items if i != "bag"]
        return others if len(others) > limit else []

    def _check_discard(self, state: FarkleState, seat: int, action: Action) -> None:
        assert isinstance(action, Discard)
        self._need_stage(state, "discard")
        if action.item not in state.players[seat].items:
            named = self._name_the_item(state, seat, "discard")
            if named is not None:
                raise named
            raise RulesError("farkle.error.no_item", item_key=_item_key(action.item))
        if action.item not in self._discard_candidates(state, seat):
            raise RulesError("farkle.error.cannot_discard", item_key=f"farkle.item.{action.item}")

    def _on_discard(
        self, state: FarkleState, seat: int, action: Action, ev: list[Event], now: float
    ) -> None:
        assert isinstance(action, Discard)
        state.players[seat].items.remove(action.item)
        if action.item in state.restrict.get(seat, []):
            state.restrict[seat].remove(action.item)
        state.item_discard.append(action.item)
        ev.append(E("farkle.event.discarded", {"seat": seat}))
        ev.append(
            E("farkle.event.you_discarded", {"item_key": f"farkle.item.{action.item}"}, to=seat)
        )
        if not any(self._discard_candidates(state, s) for s in range(state.seats)):
            self._next_turn(state, ev)

    # ------------------------------------------------------------------ turns

    def _end_turn(self, state: FarkleState, ev: list[Event]) -> None:
        crowded = bool(state.restrict)
        if not crowded:
            for p in state.players:
                if len(p.items) > 1:
                    crowded = True
                    break
        if crowded and any(self._discard_candidates(state, s) for s in range(state.seats)):
            state.stage = "discard"
            return
        self._next_turn(state, ev)

    def _next_turn(self, state: FarkleState, ev: list[Event]) -> None:
        # The picture after a turn still shows how it ended: its last rolls.
        state.last["runs"] = tuple(
            [_frozen_run_view(r) for r in (state.attack, state.defence) if r is not None]
        )
        state.damage = 0
        state.attack = state.defence = None
        state.action = ""
        state.defender = -1
        state.restrict = {}
        state.engineer_used = False
        state.turn = (state.turn + 1) % state.seats
        state.turn_no += 1
        self._start_turn(state, ev)

    def _start_turn(self, state: FarkleState, ev: list[Event]) -> None:
        seat = state.turn
        me = state.players[seat]
        state.stage = "choose"
        if me.in_keep and me.army <= 0:
            # Reborn outside the Keep with a new companion; the old one stays in the dragon
            # (to the discard pile, so the deck can be reshuffled: D11). Items are kept.
            me.in_keep = False
            state.companion_discard.append(me.companion)
            if not state.companion_deck:
                state.companion_deck, state.companion_discard = state.companion_discard, []
                state.rng.shuffle(state.companion_deck)
            me.companion = state.companion_deck.pop()
            me.skree_used = False
            ev.append(
                E(
                    "farkle.event.reborn",
                    {"seat": seat, "companion_key": f"farkle.companion.{me.companion}"},
                )
            )
        ev.append(E("farkle.event.turn", {"seat": seat}))
        # Told after "x's turn." (it happens at the start of that turn); the draw itself is
        # told by _draw_item, so the hunter line only says why.
        if me.companion == "hunter" and not me.items:
            ev.append(E("farkle.event.hunter", {"seat": seat}))
            self._draw_item(state, seat, me.items, ev)

    # ------------------------------------------------------------------ helpers

    @staticmethod
    def _need_stage(state: FarkleState, stage: str) -> None:
        if state.stage != stage:
            raise _not_now(state)

    @staticmethod
    def _recruiting(state: FarkleState, r: Roller) -> bool:
        return state.action == "recruit" and r is state.attack

    # ================================================================== view

    def view(self, state: FarkleState, seat: int | None) -> dict[str, Any]:
        pend = self.pending(state)
        data: dict[str, Any] = {
            "game": "farkle",
            "seats": state.seats,
            "turn": state.turn,
            "turn_no": state.turn_no,
            "stage": state.stage,
            "action": state.action,
            "defender": state.defender,
            "pending": sorted(pend),
            "damage": state.damage,
            "target": state.target,
            "winner": state.winner,
            "players": [
                {
                    "army": p.army,
                    "companion": p.companion,
                    "items": len(p.items),
                    "in_keep": p.in_keep,
                    "skree_used": p.skree_used,
                }
                for p in state.players
            ],
            "attack": _run_view(state.attack),
            "defence": _run_view(state.defence),
            "last": thaw(state.last),
            "decks": {
                "companions": len(state.companion_deck),
                "items": len(state.item_deck),
                "item_discard": len(state.item_discard),
            },
            "options": {"four_pair": state.four_pair, "target": state.target},
        }
        if seat is not None and 0 <= seat < state.seats:
            data["me"] = seat
            data["my_items"] = list(state.players[seat].items)
            data["my_gained"] = [
                i
                for r in (state.attack, state.defence)
                if r is not None and r.seat == seat
                for i in r.gained
            ]
        return data


class Selection(NamedTuple):
    """A legal selection of a roll (dice it may set aside)."""

    mask: int  # bit i: die i
    value: int
    aside: tuple[int, ...]  # the faces of its dice, in roll order
    dice: str  # its dice as ``Keep.dice`` writes them ("a5 c1")


NO_SELECTION = Selection(0, 0, (), "")


class RollFacts(NamedTuple):
    """What the engine derives from one ordered roll, for one setting of D2 (see ``facts``)."""

    faces: str  # the roll as messages write it ("a5 b2 c1")
    selections: tuple[Selection, ...]  # every legal selection, ordered by mask (none: Farkle)
    texts: tuple[str, ...]  # their dice, in the same order; ``_KEEP_ACTIONS`` holds their Keeps
    default: str  # the dice an absent player keeps ("" for a Farkle)
    eaten: Selection  # "all the scoring dice" (the dragon eats them, the Final Battle loses them)


_FACTS: dict[bool, dict[tuple[int, ...], RollFacts]] = {True: {}, False: {}}
# The Keep actions legal_actions and pending hand out: one shared, immutable instance per dice
# text (6,372 texts over every roll). ``facts`` puts those of a roll here before returning it.
_KEEP_ACTIONS: dict[str, Keep] = {"": Keep("")}


def facts(roll: list[int], four_pair: bool) -> RollFacts:
    """The :data:`RollFacts` of ``roll``: a step asks several of these questions about the roll
    it just threw (does it score? which keeps are legal? which one would an absent player make?
    what would the dragon eat?); answering them once per distinct roll, not once per question,
    is much of the engine's speed. Keyed by the faces, and immutable: it cannot go stale."""
    key = tuple(roll)
    cache = _FACTS[four_pair]
    found = cache.get(key)
    if found is None:
        if len(cache) > 100_000:  # bounded (6^6 ordered rolls fit), never grows without end
            cache.clear()
        found = cache[key] = _roll_facts(key, four_pair)
    return found


def _roll_facts(roll: tuple[int, ...], four_pair: bool) -> RollFacts:
    """Work out a roll's facts (``facts`` keeps them)."""
    selections = []
    for mask, value in scoring.search_options(roll, four_pair):
        dice = tokens(list(roll), mask)
        _KEEP_ACTIONS.setdefault(dice, Keep(dice))
        aside = tuple([roll[i] for i in _dice_of(mask, len(roll))])
        selections.append(Selection(mask, value, aside, dice))
    # The absent player's keep as in scoring.best_mask: the highest value, then the fewest
    # dice; "all the scoring dice" as in scoring.all_scoring_mask: the most dice, then the
    # highest value. On a tie the lowest mask (the first: they come ordered by mask).
    default = max(selections, key=lambda s: (s.value, -len(s.aside)), default=NO_SELECTION)
    eaten = max(selections, key=lambda s: (len(s.aside), s.value), default=NO_SELECTION)
    return RollFacts(
        faces(list(roll)),
        tuple(selections),
        tuple(s.dice for s in selections),
        default.dice,
        eaten,
    )


def _not_now(state: FarkleState) -> RulesError:
    """A command at the wrong moment: what the moment asks instead ("not possible in this
    phase" left players guessing)."""
    return RulesError("farkle.error.not_now", now_key=f"farkle.now.{state.stage}")


def _not_your_turn(state: FarkleState, seat: int) -> RulesError:
    """Not ``seat``'s turn; in a brawl, who must act before ``seat`` may ("not your turn" told
    the attacker, during their own brawl, nothing about the defender they wait for)."""
    if state.action == "brawl" and state.stage != "over":
        if seat == state.turn:
            if state.stage == "respond":
                return RulesError("farkle.error.defender_first", defender_seat=state.defender)
            if state.defence is not None:
                return RulesError("farkle.error.defender_rolling", defender_seat=state.defender)
        elif seat == state.defender and state.defence is None and state.stage in _RUN_STAGES:
            return RulesError("farkle.error.attacker_rolling", attacker_seat=state.turn)
    return RulesError("core.error.not_your_turn")


def _item_key(item: str) -> str:
    """The catalogue key naming ``item`` (a typed name may be no item at all)."""
    return f"farkle.item.{item}" if item in ITEMS else "farkle.item.unknown"


def _frozen_run_view(r: Roller) -> MappingProxyType[str, Any]:
    """``_run_view`` in the immutable form ``FarkleState.last`` keeps (see ``state.freeze``)."""
    return MappingProxyType(
        {
            "seat": r.seat,
            "dice": r.dice,
            "roll": tuple(r.roll),
            "event": r.event,
            "kept": tuple([bool(r.kept >> i & 1) for i in range(len(r.roll))]),
            "aside": tuple(r.aside),
            "eaten": tuple(r.eaten),
            "score": r.score,
            "gained": len(r.gained),
        }
    )


def _run_view(r: Roller | None) -> dict[str, Any] | None:
    if r is None:
        return None
    return {
        "seat": r.seat,
        "dice": r.dice,
        "roll": list(r.roll),
        "event": r.event,
        "kept": [bool(r.kept >> i & 1) for i in range(len(r.roll))],
        "aside": list(r.aside),
        "eaten": list(r.eaten),
        "score": r.score,
        "gained": len(r.gained),
    }


_CHECKS: dict[type[Action], Any] = {
    Recruit: DragonFarkle._check_recruit,
    Brawl: DragonFarkle._check_brawl,
    Enter: DragonFarkle._check_enter,
    Keep: DragonFarkle._check_keep,
    Roll: DragonFarkle._check_roll,
    Stop: DragonFarkle._check_stop,
    Double: DragonFarkle._check_rally,
    Draw: DragonFarkle._check_rally,
    UseCompanion: DragonFarkle._check_companion,
    Scare: DragonFarkle._check_scare,
    Reroll: DragonFarkle._check_reroll,
    UseItem: DragonFarkle._check_item,
    Fight: DragonFarkle._check_fight,
    Bonus: DragonFarkle._check_bonus,
    AcceptFarkle: DragonFarkle._check_farkle,
    Discard: DragonFarkle._check_discard,
}
_HANDLERS: dict[type[Action], Any] = {
    Recruit: DragonFarkle._on_recruit,
    Brawl: DragonFarkle._on_brawl,
    Enter: DragonFarkle._on_enter,
    Keep: DragonFarkle._on_keep,
    Roll: DragonFarkle._on_roll,
    Stop: DragonFarkle._on_stop,
    Double: DragonFarkle._on_double,
    Draw: DragonFarkle._on_draw,
    UseCompanion: DragonFarkle._on_companion,
    Scare: DragonFarkle._on_scare,
    Reroll: DragonFarkle._on_reroll,
    UseItem: DragonFarkle._on_item,
    Fight: DragonFarkle._on_fight,
    Bonus: DragonFarkle._on_bonus,
    AcceptFarkle: DragonFarkle._on_farkle,
    Discard: DragonFarkle._on_discard,
}
