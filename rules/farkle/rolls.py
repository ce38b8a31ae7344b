"""A run of rolls (a Recruit, a brawl attack or defence): roll, set aside scoring dice (``keep``),
the event die's dragon and rally, hot dice. Rolling on, stopping and Farkles end a run in ways
that depend on what it is for: ``roll_or_stop``."""

from __future__ import annotations

from rules.core import Event, RulesError
from rules.farkle import scoring
from rules.farkle.actions import Double, Draw, Keep
from rules.farkle.cards import draw_item
from rules.farkle.dice import RollFacts, facts, parse_tokens, throw, tokens
from rules.farkle.state import FarkleState, Roller
from rules.farkle.turn import (
    Rule,
    check_roller,
    need_stage,
    not_now,
    recruiting,
    roller,
)

E = Event

BERSERKER_BONUS = 250


def roll(state: FarkleState, r: Roller, ev: list[Event]) -> None:
    """Roll the dice not set aside (all of them after hot dice) and the event die."""
    left = r.dice - len(r.aside)
    if left <= 0:
        r.aside, r.eaten = [], []
        left = r.dice
    r.roll, r.event = throw(state.rng, left)
    r.kept = [False] * left
    r.last = 0
    r.rolls += 1
    found = facts(r.roll, state.four_pair)
    ev.append(
        E(
            "farkle.event.rolled",
            {"seat": r.seat, "dice": found.faces, "face_key": f"farkle.face.{r.event}"},
        )
    )
    settle(state, r, ev, found)


def settle(state: FarkleState, r: Roller, ev: list[Event], found: RollFacts) -> None:
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
        eaten = value - whispered(state, r, value)
        ev.append(E("farkle.event.dragon_comes", {"seat": r.seat, "dice": dice, "value": eaten}))


def set_aside(
    r: Roller,
    dice_at: tuple[int, ...],
    value: int,
    faces_aside: tuple[int, ...],
    eaten: bool = False,
) -> None:
    """Set aside the dice ``dice_at`` of the roll, worth ``value`` (``eaten``: by the dragon)."""
    r.kept = [i in dice_at for i in range(len(r.roll))]
    r.last = value
    r.score += value
    r.aside += faces_aside
    r.eaten += [eaten] * len(faces_aside)


def hot_dice(state: FarkleState, r: Roller, ev: list[Event]) -> None:
    """Told after the set-aside that caused it (the messages read in order)."""
    if len(r.aside) >= r.dice:
        ev.append(E("farkle.event.hot_dice", {"seat": r.seat}))
        if recruiting(state, r) and state.players[r.seat].companion == "berserker":
            r.score += BERSERKER_BONUS
            ev.append(E("farkle.event.berserker", {"seat": r.seat, "amount": BERSERKER_BONUS}))


def whispered(state: FarkleState, r: Roller, value: int) -> int:
    """Of the ``value`` the dragon would eat, what the Dragon Whisperer saves (it eats only
    half, rounded down to 50, while its owner recruits); 0 without it."""
    if recruiting(state, r) and state.players[r.seat].companion == "whisperer":
        return value - scoring.half(value)
    return 0


def dragon_eats(state: FarkleState, r: Roller, ev: list[Event]) -> None:
    """The dragon face on a scoring roll eats every scoring die (when the roller rolls on or
    stops, so that items and companions may change the roll first)."""
    dice_at, value, faces_aside, dice = facts(r.roll, state.four_pair).eaten
    kept = whispered(state, r, value)
    set_aside(r, dice_at, kept, faces_aside, eaten=True)
    ev.append(
        E(
            # "keeps 0" only confused: say what is kept when the Dragon Whisperer saves some
            "farkle.event.eaten_kept" if kept else "farkle.event.eaten",
            {"seat": r.seat, "dice": dice, "eaten": value - kept, "value": kept},
        )
    )
    hot_dice(state, r, ev)


# ------------------------------------------------------------------ set aside (keep)


def check_keep(state: FarkleState, seat: int, action: Keep) -> None:
    stage = state.stage
    if stage != "roll":
        if stage == "dragon":
            raise RulesError("farkle.error.dragon_eats")
        if stage in ("farkle", "dodge"):
            raise RulesError("farkle.error.nothing_scores")
        raise not_now(state)
    check_roller(state, seat)
    r = roller(state)
    if action.dice in facts(r.roll, state.four_pair).texts:
        return  # the canonical form of a legal selection (the usual case)
    named = parse_tokens(action.dice, r.roll, "farkle.error.bad_die")
    if not named:
        raise RulesError("farkle.error.empty_selection")
    if scoring.selection_value([r.roll[i] for i in named], state.four_pair) is None:
        raise RulesError("farkle.error.not_scoring", dice=tokens(r.roll, named))


def keep(state: FarkleState, seat: int, action: Keep, ev: list[Event]) -> None:
    r = roller(state)
    found = facts(r.roll, state.four_pair)
    dice = action.dice
    if dice not in found.texts:  # typed loosely ("ac"): the canonical form
        dice = tokens(r.roll, parse_tokens(dice, r.roll, "farkle.error.bad_die"))
    dice_at, value, faces_aside, dice = found.selections[found.texts.index(dice)]
    set_aside(r, dice_at, value, faces_aside)
    ev.append(
        E("farkle.event.kept", {"seat": seat, "dice": dice, "value": value, "total": r.score})
    )
    hot_dice(state, r, ev)
    state.stage = "rally" if r.event == "rally" else "next"


# ------------------------------------------------------------------ the rally


def check_rally(state: FarkleState, seat: int, action: Double | Draw) -> None:
    """Double or Draw, after setting aside dice from a rally roll."""
    need_stage(state, "rally")
    check_roller(state, seat)


def double(state: FarkleState, seat: int, action: Double, ev: list[Event]) -> None:
    r = roller(state)
    r.score += r.last
    ev.append(E("farkle.event.doubled", {"seat": seat, "value": r.last, "total": r.score}))
    state.stage = "next"


def draw(state: FarkleState, seat: int, action: Draw, ev: list[Event]) -> None:
    """The item is set aside face down with the run: it joins the hand if the run ends well."""
    draw_item(state, seat, roller(state).gained, ev)
    state.stage = "next"


RULES: dict[type, Rule] = {
    Keep: Rule(check_keep, keep),
    Double: Rule(check_rally, double),
    Draw: Rule(check_rally, draw),
}
