"""Weapon cards (advanced game): what each one may target, and its effect.

A weapon triggers when the hero kills 3 or more skeletons at once: in phase 1 (the square he
steps on) or in phase 3 (skeletons that move together — from one square in one direction, a
stack, or forest newcomers entering at one spot — walking onto him: 3+ of one group). Its use
is optional (``skip``, also the AFK default), happens before the next phase, only on the
owner's board, and never chains: kills made by the weapon do not trigger it again.

Targets (``weapon target:… to:…``):

| weapon | target | to |
|---|---|---|
| crossbow | a square with skeletons | a chief kind there (optional: else a plain one) |
| icewand | a square with skeletons | — |
| deathwand | an opponent's seat number | — |
| teleport | a standing tower square (cooperative: any of yours) | — |
| sword | a direction (the hero moves again) | — |
| battleaxe | a symbol (pink yellow red blue green) | — |
| morningstar | a square next to the hero with skeletons | a square next to the hero, no trap |
| rapier | a square next to the hero with skeletons | a direction N E S W (all of them) |
"""

from __future__ import annotations

from rules.badbones.board import DIRS, HERO_DIR_NAMES, SYMBOLS, parse_name, square_name
from rules.badbones.hero import hero_strike, hero_target
from rules.badbones.state import BadBonesState, Skeleton, skeleton_order
from rules.badbones.traps import WEAPONS
from rules.core import Event, RulesError

Use = tuple[str, str]  # (target, to), as the weapon command takes them


def _near(state: BadBonesState, seat: int) -> list[int]:
    """The 8 squares around the hero."""
    board = state.boards[seat]
    out = []
    for d in HERO_DIR_NAMES:
        sq = hero_target(board, d)
        if sq is not None:
            out.append(sq)
    return sorted(out)


def _orthogonal(state: BadBonesState, seat: int) -> list[int]:
    board = state.boards[seat]
    if board.hero < 0:
        return []
    return [sq for sq in state.layout.step[board.hero] if sq >= 0]


def _occupied(state: BadBonesState, seat: int) -> list[int]:
    return sorted({s.square for s in state.boards[seat].skeletons})


def uses(state: BadBonesState, seat: int) -> list[Use]:
    """Every legal (target, to) of ``seat``'s weapon now."""
    board = state.boards[seat]
    weapon = board.weapon
    lay = state.layout
    out: list[Use] = []
    if weapon == "crossbow":
        for sq in _occupied(state, seat):
            here = board.on(sq)
            if any(not s.token.chief for s in here):
                out.append((square_name(sq), ""))
            for kind in sorted({s.token.kind for s in here if s.token.chief}):
                out.append((square_name(sq), kind))
    elif weapon == "icewand":
        out = [(square_name(sq), "") for sq in _occupied(state, seat)]
    elif weapon == "deathwand":
        if state.seats > 1:
            out = [(str(s + 1), "") for s in range(state.seats) if s != seat]
    elif weapon == "teleport":
        out = [(square_name(t), "") for t in lay.towers if t not in board.ruins and t != board.hero]
    elif weapon == "sword":
        out = [(d, "") for d in HERO_DIR_NAMES if hero_target(board, d) is not None]
    elif weapon == "battleaxe":
        around = _orthogonal(state, seat)
        found = {s.token.symbol for s in board.skeletons if s.square in around}
        out = [(SYMBOLS[symbol], "") for symbol in range(5) if symbol in found]
    elif weapon == "morningstar":
        near = _near(state, seat)
        occupied = set(_occupied(state, seat))
        free = [
            sq
            for sq in near
            if sq not in board.traps and not (lay.is_tower[sq] and sq not in board.ruins)
        ]
        for src in near:
            if src in occupied:
                out.extend((square_name(src), square_name(dst)) for dst in free if dst != src)
    elif weapon == "rapier":
        occupied = set(_occupied(state, seat))
        for sq in _near(state, seat):
            if sq in occupied:
                out.extend((square_name(sq), d) for d in DIRS)
    return out


def check(state: BadBonesState, seat: int, target: str, to: str) -> None:
    weapon = state.boards[seat].weapon
    if seat not in state.weapons or not weapon:
        raise RulesError("badbones.error.no_weapon_now")
    legal = uses(state, seat)
    if weapon in ("morningstar", "rapier") and not to and any(t == target for t, _ in legal):
        raise RulesError(
            "badbones.error.weapon_needs_to",
            weapon_key=f"badbones.weapon.{weapon}",
            hint_key=f"badbones.weapon_hint.{weapon}",
        )
    if (target, to) not in legal:
        # Say which half is wrong and what the weapon wants.
        if any(t == target for t, _ in legal):
            raise RulesError(
                "badbones.error.bad_weapon_to",
                weapon_key=f"badbones.weapon.{weapon}",
                target=target[:12],
                to=to[:12],
                hint_key=f"badbones.weapon_hint.{weapon}",
            )
        raise RulesError(
            "badbones.error.bad_weapon_target",
            weapon_key=f"badbones.weapon.{weapon}",
            target=target[:12],
            hint_key=f"badbones.weapon_hint.{weapon}",
        )


def _used(seat: int, weapon: str, target: str, to: str) -> Event:
    """The channel's line for a weapon used: one sentence per weapon, naming its target."""
    args: dict[str, object] = {"seat": seat, "weapon_key": f"badbones.weapon.{weapon}"}
    if weapon == "deathwand":
        return Event(
            "badbones.event.weapon_used_deathwand", {**args, "target_seat": int(target) - 1}
        )
    if weapon == "crossbow" and to:
        return Event(
            "badbones.event.weapon_used_crossbow_chief",
            {**args, "target": target, "chief_key": f"badbones.chief.{to}"},
        )
    if weapon == "battleaxe":
        args["symbol_key"] = f"badbones.symbol.{target}"
    return Event(f"badbones.event.weapon_used_{weapon}", {**args, "target": target, "to": to})


def use(state: BadBonesState, seat: int, target: str, to: str) -> list[Event]:
    """Apply the weapon (already checked: ``check``, or ``parse`` against ``uses``). The round
    goes on by ``phases.weapon_done``."""
    board = state.boards[seat]
    weapon = board.weapon
    events = [_used(seat, str(weapon), target, to)]
    if weapon in ("crossbow", "icewand", "morningstar", "rapier"):
        sq = parse_name(target)
    if weapon == "crossbow":
        here = sorted(board.on(sq), key=skeleton_order)
        pick = next(s for s in here if s.token.kind == to)
        board.skeletons.remove(pick)
        state.to_bag(pick.token)
    elif weapon == "icewand":
        board.skeletons = [
            Skeleton(s.square, s.token, s.facing, s.rested, frozen=True) if s.square == sq else s
            for s in board.skeletons
        ]
    elif weapon == "deathwand":
        to_seat = int(target) - 1
        for token in state.weapons[seat].killed:
            if token.chief:
                state.chiefs.remove(token.chief)
            else:
                state.bag[token.model] -= 1
            state.boards[to_seat].cemetery.append(token)
    elif weapon == "teleport":
        board.hero = parse_name(target)
    elif weapon == "sword":
        square = hero_target(board, target)
        assert square is not None  # a direction ``uses`` offered: on the board
        saved = state.weapons.pop(seat, None)
        killed, more = hero_strike(state, seat, square)
        # Never chaining: kills made by the weapon do not trigger it again.
        state.weapons.pop(seat, None)
        if saved is not None:
            state.weapons[seat] = saved
        events.append(Event("badbones.event.hero_killed", {"seat": seat, "count": killed}))
        events += more
    elif weapon == "battleaxe":
        symbol = SYMBOLS.index(target)
        around = set(_orthogonal(state, seat))
        keep = []
        for s in board.skeletons:
            if s.square in around and s.token.symbol == symbol:
                state.to_bag(s.token)
            else:
                keep.append(s)
        board.skeletons = keep
    elif weapon == "morningstar":
        dst = parse_name(to)
        board.skeletons = [
            Skeleton(dst, s.token, s.facing, s.rested, s.frozen) if s.square == sq else s
            for s in board.skeletons
        ]
    elif weapon == "rapier":
        d = DIRS.index(to)
        board.skeletons = [s.facing_to(d) if s.square == sq else s for s in board.skeletons]
    return events


__all__ = ["WEAPONS", "check", "use", "uses"]
