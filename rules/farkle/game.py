"""Dragon Farkle: Recruit, Brawl and the Final Battle in the Dragon's Keep.

Rules: shared/rules/dragon-farkle.md (decisions D1–D11) over the Spanish source text. Where the
engine takes a further decision it says so in a comment marked *Decision*; docs/games/farkle.md
lists them all.

The rules live in modules named as the rulebook names their part, each action's check and
effect side by side with its ``RULES`` table at the module's end: ``turn`` (stages, start and
end of a turn, the one-item limit), ``rolls`` (roll, set aside, the rally, the dragon, hot
dice), ``roll_or_stop``, ``recruit``, ``brawl``, ``final_battle``, ``companions``, ``items``;
``dice`` names the dice and works out what a roll allows, ``cards`` deals the cards. This class
is the engine's face: who is asked what (``pending``, ``legal_actions``), commands, the view.
"""

from __future__ import annotations

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
from rules.farkle import (
    brawl,
    companions,
    final_battle,
    items,
    recruit,
    roll_or_stop,
    rolls,
    turn,
)
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
from rules.farkle.cards import COMPANIONS, ITEM_COPIES, ITEMS, draw_item
from rules.farkle.dice import facts, parse_tokens, token, tokens
from rules.farkle.state import FarkleState, Player, Roller, json_copy
from rules.farkle.turn import (
    ROLL_STAGES,
    RUN_STAGES,
    TURN_STAGES,
    Rule,
    awaited,
    discard_candidates,
    not_your_turn,
    run_view,
)

E = Event

# Every action's rule (its check and its effect), from the modules of the rulebook's parts.
RULES: dict[type[Action], Rule] = {
    **recruit.RULES,
    **brawl.RULES,
    **final_battle.RULES,
    **rolls.RULES,
    **roll_or_stop.RULES,
    **companions.RULES,
    **items.RULES,
    **turn.RULES,
}
assert set(RULES) == set(ACTION_TYPES)


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
        deck = list(COMPANIONS)
        rng.shuffle(deck)
        cards = list(ITEMS)
        rng.shuffle(cards)
        players = [Player(0, deck.pop(), []) for _ in range(num_seats)]
        state = FarkleState(
            seats=num_seats,
            target=3 if options["legend"] == "off" else int(options["legend"]),
            four_pair=bool(options["four_pair"]),
            defend_time=int(options["defend_time"]),
            rng=rng,
            players=players,
            companion_deck=deck,
            companion_discard=[],
            item_deck=cards,
            item_discard=[],
            turn=rng.below(num_seats),  # D4: the first player is random
        )
        for seat in range(num_seats):
            # Decision: a cursed card dealt at setup takes effect (nothing to lose yet) and
            # the wannabe is dealt another, so everyone starts with one real item.
            while not state.players[seat].items:
                draw_item(state, seat, state.players[seat].items, [])
        turn.start_turn(state, [])
        return state

    # ================================================================== the engine API

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

    def undoable(self, before: FarkleState, seat: int, action: Action, after: FarkleState) -> None:
        """As any game, and a card drawn is never taken back: the magic items (a rally's draw)
        and the companions come from decks shuffled at the start, whose draws move no random
        generator (a player who read "You drew: Tower Shield" would double instead)."""
        super().undoable(before, seat, action, after)
        if (before.item_deck, before.companion_deck) != (after.item_deck, after.companion_deck):
            raise RulesError("core.undo.random")

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
        if stage == "respond" or (state.defence is not None and stage in RUN_STAGES):
            asked = {state.defender}
        elif stage == "pickpocket":
            asked = {state.thief}
        elif stage == "discard":
            asked = set(self.pending(state))
        return Turn(str(state.turn_no), state.turn, frozenset(asked - {state.turn}))

    def pending(self, state: FarkleState) -> dict[int, Pending]:
        stage = state.stage
        if stage in RUN_STAGES:  # the usual case first: somebody's run of rolls
            return self._run_pending(state)
        if stage == "over":
            return {}
        if stage == "discard":  # everyone over the one-item limit, at once
            discards = {seat: discard_candidates(state, seat) for seat in range(state.seats)}
            return {s: Pending("discard", Discard(c[-1])) for s, c in discards.items() if c}
        if stage == "choose":
            # An absent wannabe recruits until the Keep is open to them, then fights the
            # dragon: so even a table of absent players finishes the game.
            ready = final_battle.may_enter(state, state.turn)
            return {state.turn: Pending("choose", Enter() if ready else Recruit())}
        if stage == "respond":
            return {
                state.defender: Pending(
                    "respond", Fight(), state.deadline, {"attacker_seat": state.turn}
                )
            }
        if stage == "pickpocket":
            return {state.thief: Pending("pickpocket", Bonus())}
        # battle, review
        return {state.turn: Pending(stage, Roll())}

    def _run_pending(self, state: FarkleState) -> dict[int, Pending]:
        """The roller's question: the defender's (with their own deadline) once they roll."""
        r = state.roller()
        assert r is not None
        defending = r is state.defence
        args: dict[str, Any] = {"score": r.score}
        if defending and state.attack is not None:
            args["attack"] = state.attack.score
        if state.stage == "farkle":
            args["rescue_key"] = self._rescue(state, r.seat)
        default = self._default(state, r, defending)
        deadline = state.deadline if defending else None
        return {r.seat: Pending(state.stage, default, deadline, args)}

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
            return Keep(facts(r.roll, state.four_pair).default)
        if stage == "farkle":
            return AcceptFarkle()
        if stage == "rally":
            return Double()
        if not defending or state.attack is None:
            return Stop()
        left = r.dice - len(r.aside)
        if stage == "dragon":
            left -= len(facts(r.roll, state.four_pair).eaten.aside)
        elif stage == "dodge":
            left = len(r.roll)
        behind = r.score <= state.attack.score
        if behind and (left >= 2 or left == 0):
            return Roll()
        return Stop()

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self, state: FarkleState, seat: int) -> list[Action]:
        if not awaited(state, seat):
            return []
        stage = state.stage
        if stage == "discard":
            return [Discard(i) for i in dict.fromkeys(discard_candidates(state, seat))]
        if stage == "pickpocket":
            return [UseCompanion(), Bonus()]
        if stage == "respond":
            return [Fight(), *_item_actions(state, seat)]
        out = _STAGE_ACTIONS[stage](state, seat)
        # The companion first: the rest is asked only of the rare unused Skree.
        me = state.players[seat]
        if me.companion == "skree" and not me.skree_used:
            if stage in TURN_STAGES and seat == state.turn and state.defence is None:
                out += [Scare(t) for t in range(state.seats) if t != seat]
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
        args = _canonical_dice(
            state, {k: v.strip() if isinstance(v, str) else v for k, v in args.items()}
        )
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
        # instead of in the order of the soldier table's selections ("d5 a2 b2 e2").
        first = facts(roller.roll, state.four_pair).eaten.dice
        if first in found:
            found.remove(first)
            found.insert(0, first)
        return found

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
        if not awaited(state, seat):  # a seat out of range is never awaited either
            raise not_your_turn(state, seat)
        rule = RULES.get(type(action))
        if rule is None:
            raise RulesError("core.error.bad_action")
        rule.check(state, seat, action)

    def resolve(self, state: FarkleState, seat: int, action: Action, now: float) -> list[Event]:
        events: list[Event] = []
        RULES[type(action)].effect(state, seat, action, events)
        state.step += 1
        # The brawl defender's own clock: restarted on each of their inputs while they owe one,
        # cleared otherwise.
        stage = state.stage
        if stage == "respond" or (state.defence is not None and stage in turn.DEADLINE_STAGES):
            state.deadline = now + state.defend_time if state.defend_time else None
        elif state.deadline is not None:
            state.deadline = None
        return events

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
            "attack": run_view(state.attack),
            "defence": run_view(state.defence),
            "last": json_copy(state.last),
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


def _canonical_dice(state: FarkleState, args: CommandArgs) -> CommandArgs:
    """``args`` with their dice (``dice``, ``die``) written the canonical way ("a5 c1") when they
    name dice of the roll; as they were otherwise (``check`` then says which die is wrong)."""
    roller = state.roller()
    if roller is None or not roller.roll:
        return args
    fixed = dict(args)
    for name in ("dice", "die"):
        value = fixed.get(name)
        if value not in (None, ""):
            try:
                named = parse_tokens(str(value), roller.roll, "farkle.error.bad_die")
            except RulesError:
                continue
            fixed[name] = tokens(roller.roll, named)
    return fixed


# ------------------------------------------------------------------ legal actions by stage


def _choose_actions(state: FarkleState, seat: int) -> list[Action]:
    out: list[Action] = [Recruit()]
    players = state.players
    out += [Brawl(t) for t in range(state.seats) if t != seat and not players[t].in_keep]
    if final_battle.may_enter(state, seat):
        out.append(Enter())
    return out


def _rally_actions(state: FarkleState, seat: int) -> list[Action]:
    return [Double(), Draw()]


def _next_actions(state: FarkleState, seat: int) -> list[Action]:
    return [Roll(), Stop()]


def _roll_actions(state: FarkleState, seat: int) -> list[Action]:
    """A roll awaits a decision (roll, dragon, dodge, farkle); then the companion's and the
    items' ways to change it."""
    r = turn.roller(state)
    stage = state.stage
    out: list[Action]
    if stage == "roll":
        out = [Keep(dice) for dice in facts(r.roll, state.four_pair).texts]
    elif stage == "farkle":
        out = [AcceptFarkle()]
        me = state.players[seat]
        if turn.recruiting(state, r) and me.companion == "medic" and companions.medic_item(me):
            out.append(UseCompanion())
    else:  # dragon, dodge
        out = [Roll(), Stop()]
    if state.players[seat].companion == "squire" and not r.squire:
        out += [Reroll(token(i, d)) for i, d in enumerate(r.roll)]
    return out + _item_actions(state, seat)


def _battle_actions(state: FarkleState, seat: int) -> list[Action]:
    """In the Keep, between rolls (``review``: the Siege Engineer may re-roll the event die)."""
    out: list[Action] = [Roll()]
    if state.stage == "review":
        out.append(UseCompanion())
    return out + _item_actions(state, seat)


def _item_actions(state: FarkleState, seat: int) -> list[Action]:
    """The items ``seat`` may play now (the Loaded Die once per die it may turn)."""
    if not state.players[seat].items:
        return []
    out: list[Action] = []
    for item in items.usable(state, seat):
        if item == "loaded":
            roll = turn.roller(state).roll
            out += [UseItem("loaded", token(i, d)) for i, d in enumerate(roll)]
        else:
            out.append(UseItem(item))
    return out


_STAGE_ACTIONS = {
    "choose": _choose_actions,
    "rally": _rally_actions,
    "next": _next_actions,
    **{stage: _roll_actions for stage in ROLL_STAGES},
    "battle": _battle_actions,
    "review": _battle_actions,
}
