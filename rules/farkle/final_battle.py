"""The Final Battle in the Dragon's Keep: with 5,000 soldiers (or from inside) a wannabe enters
and rolls until the dragon is slain, they Farkle, or their army is gone. Every roll applies by
itself (D9): its scoring dice cost soldiers, the dragon face deals 1 damage, the rally 2."""

from __future__ import annotations

from rules.core import Event, RulesError
from rules.farkle.actions import Enter
from rules.farkle.dice import facts, throw
from rules.farkle.state import FarkleState, Roller
from rules.farkle.turn import Rule, end_turn, need_stage

E = Event

KEEP_ARMY = 5000  # soldiers needed to enter the Dragon's Keep
DAMAGE = {"dragon": 1, "rally": 2}  # by the event die's face


def may_enter(state: FarkleState, seat: int) -> bool:
    me = state.players[seat]
    return me.in_keep or me.army >= KEEP_ARMY


def check_enter(state: FarkleState, seat: int, action: Enter) -> None:
    need_stage(state, "choose")
    if not may_enter(state, seat):
        army = state.players[seat].army
        raise RulesError("farkle.error.keep_army", army=army, need=KEEP_ARMY)


def enter(state: FarkleState, seat: int, action: Enter, ev: list[Event]) -> None:
    me = state.players[seat]
    ev.append(E("farkle.event.stay" if me.in_keep else "farkle.event.enter", {"seat": seat}))
    me.in_keep = True
    state.action = "keep"
    state.attack = Roller(seat, 6)
    state.damage = 0
    state.engineer_used = False
    battle_roll(state, ev)


def battle_roll(state: FarkleState, ev: list[Event]) -> None:
    """Roll the dice not yet lost (all six again when none remain, D9) and apply the roll,
    unless the Siege Engineer may still re-roll its event die (``review``)."""
    r = state.attack
    assert r is not None
    left = 6 - len(r.aside)
    if left <= 0:  # D9: when no dice remain, roll all six again
        r.aside, r.eaten = [], []
        left = 6
    r.roll, r.event = throw(state.rng, left)
    r.kept = [False] * left
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
    elif battle_resolve(state, ev):
        state.stage = "battle"


def battle_resolve(state: FarkleState, ev: list[Event]) -> bool:
    """Apply a Final Battle roll; True if the battle goes on."""
    r = state.attack
    assert r is not None
    me = state.players[r.seat]
    dice_at, value, faces_aside, dice = facts(r.roll, state.four_pair).eaten
    hit = DAMAGE.get(r.event, 0)
    if hit:
        wound(state, r.seat, hit, ev)
    lost = min(value, me.army)
    if dice_at:
        r.kept = [i in dice_at for i in range(len(r.roll))]
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
    if slain(state, ev):
        return False
    if me.army <= 0:
        ev.append(E("farkle.event.wiped", {"seat": r.seat}))
        _battle_over(state, "wiped", ev)
        return False
    if not hit and not dice_at:
        ev.append(E("farkle.event.keep_farkle", {"seat": r.seat}))
        _battle_over(state, "farkle", ev)
        return False
    state.stage = "battle"
    return True


def wound(state: FarkleState, seat: int, hit: int, ev: list[Event]) -> None:
    """The dragon takes ``hit`` damage (from the event die, or a Dragonbane Arrow)."""
    state.damage += hit
    ev.append(
        E(
            "farkle.event.damage",
            {
                "seat": seat,
                "amount": hit,
                "damage": min(state.damage, state.target),
                "target": state.target,
            },
        )
    )


def slain(state: FarkleState, ev: list[Event]) -> bool:
    """Whether the dragon is slain (then the game is over: the turn's wannabe wins)."""
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


def _battle_over(state: FarkleState, outcome: str, ev: list[Event]) -> None:
    """The battle is lost (``farkle`` or ``wiped``): the dragon regenerates its damage."""
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
    end_turn(state, ev)


RULES: dict[type, Rule] = {Enter: Rule(check_enter, enter)}
