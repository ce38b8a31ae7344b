"""Weapon cards (advanced game): what each one may target, and its effect.

A weapon triggers when the hero kills 3 or more skeletons at once: in phase 1 (the square he
steps on) or in phase 3 (skeletons that move together — from one square in one direction, a
stack, or forest newcomers entering at one spot — walking onto him: 3+ of one group). Its use
is optional (``skip``, also the AFK default), only on the owner's board, and never chains:
kills made by the weapon do not trigger it again.

When it acts (D20, "as soon as your hero eliminates at least 3 skeletons at once"):

- phase 1: before phase 2, in the weapon stage (``/badbones weapon`` or ``skip``; the round goes
  on by ``phases.weapon_done``);
- phase 3: at the kill that makes the group's third (or later) kill, before the board's
  remaining skeletons move. The resolver asks the owner then (a question of choice ``weapon``,
  answered with the same ``weapon``/``skip`` commands and replayed like every phase-3 answer,
  D5); its targets are those of that moment, skeletons still to move included. There is no
  standing preference for it (what to shoot depends on that moment): it is always asked, as in
  phase 1, and skipped at the deadline. A group triggers once; another group of 3+ in the same
  phase triggers again.

Skeletons still to move in phase 3: the crossbow shoots one of them before one that has moved
(on the same square, where it is worth most); the ice wand holds them for this phase, and those
that have moved for the next phase 3; the morning star moves them without flipping them (they
still move this phase, from where they land); the rapier turns them; the battleaxe and the sword
destroy them.

The death wand acts on another board: in phase 3 its kills go to the chosen opponent's
cemetery exactly as a skeleton leaving by an exit does. A cemetery matters only in phase 4, so
every board still resolves on its own, and nothing on the opponent's board changes during the
phase; its owner is not asked anything.

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

from collections.abc import Sequence
from typing import Protocol

from rules.badbones.board import DIRS, HERO_DIR_NAMES, SYMBOLS, Layout, parse_name, square_name
from rules.badbones.hero import hero_target
from rules.badbones.state import BadBonesState, Board, Skeleton, Token, skeleton_order
from rules.badbones.traps import WEAPONS
from rules.core import Event, RulesError


class Resolver(Protocol):
    """What a weapon's strike uses of the board being resolved (``skeletons.Resolver``, which
    calls this module: named here as a protocol, so the two modules do not import each other)."""

    board: Board
    layout: Layout
    unmoved: list[Skeleton]
    out: list[tuple[int, Token]]
    to_bag: list[Token]

    def hero_enters(self, square: int) -> int: ...


Use = tuple[str, str]  # (target, to), as the weapon command takes them
SKIP = "skip"  # a phase-3 weapon question's answer that keeps the weapon (its default)


def _near(board: Board) -> list[int]:
    """The 8 squares around the hero."""
    out = []
    for d in HERO_DIR_NAMES:
        sq = hero_target(board, d)
        if sq is not None:
            out.append(sq)
    return sorted(out)


def _orthogonal(board: Board, layout: Layout) -> list[int]:
    if board.hero < 0:
        return []
    return [sq for sq in layout.step[board.hero] if sq >= 0]


def uses(state: BadBonesState, seat: int) -> list[Use]:
    """Every legal (target, to) of ``seat``'s weapon now (phase 1's weapon stage)."""
    return uses_on(state.boards[seat], state.layout, state.seats, seat)


def uses_on(
    board: Board, layout: Layout, seats: int, seat: int, waiting: Sequence[Skeleton] = ()
) -> list[Use]:
    """Every legal (target, to) of the weapon of ``board`` (``seat``'s, at a table of
    ``seats``), with ``waiting`` the skeletons still to move this phase (they stand on the
    board too)."""
    weapon = board.weapon
    skeletons = [*board.skeletons, *waiting]
    occupied = sorted({s.square for s in skeletons})
    out: list[Use] = []
    if board.hero < 0:
        return out
    if weapon == "crossbow":
        for sq in occupied:
            here = [s for s in skeletons if s.square == sq]
            if any(not s.token.chief for s in here):
                out.append((square_name(sq), ""))
            for kind in sorted({s.token.kind for s in here if s.token.chief}):
                out.append((square_name(sq), kind))
    elif weapon == "icewand":
        out = [(square_name(sq), "") for sq in occupied]
    elif weapon == "deathwand":
        if seats > 1:
            out = [(str(s + 1), "") for s in range(seats) if s != seat]
    elif weapon == "teleport":
        out = [
            (square_name(t), "") for t in layout.towers if t not in board.ruins and t != board.hero
        ]
    elif weapon == "sword":
        out = [(d, "") for d in HERO_DIR_NAMES if hero_target(board, d) is not None]
    elif weapon == "battleaxe":
        around = _orthogonal(board, layout)
        found = {s.token.symbol for s in skeletons if s.square in around}
        out = [(SYMBOLS[symbol], "") for symbol in range(5) if symbol in found]
    elif weapon == "morningstar":
        near = _near(board)
        free = [
            sq
            for sq in near
            if sq not in board.traps and not (layout.is_tower[sq] and sq not in board.ruins)
        ]
        for src in near:
            if src in occupied:
                out.extend((square_name(src), square_name(dst)) for dst in free if dst != src)
    elif weapon == "rapier":
        for sq in _near(board):
            if sq in occupied:
                out.extend((square_name(sq), d) for d in DIRS)
    return out


def answer(target: str, to: str) -> str:
    """A use as a phase-3 question's answer ("A1 E"): targets and destinations have no spaces."""
    return f"{target} {to}".strip()


def from_answer(text: str) -> Use:
    target, _, to = text.partition(" ")
    return target, to


def check(weapon: str, legal: list[Use], target: str, to: str) -> None:
    """Refuse a use of ``weapon`` that is not in ``legal``, saying which half is wrong."""
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


def used(seat: int, weapon: str, target: str, to: str) -> Event:
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


def strike(r: Resolver, target: str, to: str, killed: list[Token]) -> None:
    """Apply the weapon of ``r``'s board (a use already checked against ``uses_on``) through
    the resolver of that board: to the skeletons that have moved or stay (``r.board``) and to
    those still to move this phase (``r.unmoved``); what it destroys goes where the resolver
    sends it when the phase is delivered. ``killed``: the kills that triggered it, held by the
    resolver until then (the death wand sends them on)."""
    board = r.board
    weapon = board.weapon
    if weapon in ("crossbow", "icewand", "morningstar", "rapier"):
        sq = parse_name(target)
    if weapon == "crossbow":
        # One still to move first: the shot is worth most before it walks on.
        for skeletons in (r.unmoved, board.skeletons):
            here = sorted(
                (s for s in skeletons if s.square == sq and s.token.kind == to), key=skeleton_order
            )
            if here:
                skeletons.remove(here[0])
                r.to_bag.append(here[0].token)
                break
    elif weapon == "icewand":
        # Those still to move stay this phase; those that moved stay through the next one.
        held = [s for s in r.unmoved if s.square == sq]
        r.unmoved = [s for s in r.unmoved if s.square != sq]
        board.skeletons = [
            Skeleton(s.square, s.token, s.facing, s.rested, frozen=True) if s.square == sq else s
            for s in board.skeletons
        ]
        board.skeletons += [Skeleton(s.square, s.token, s.facing, True, True) for s in held]
    elif weapon == "deathwand":
        for token in killed:
            r.to_bag.remove(token)
            r.out.append((int(target) - 1, token))
    elif weapon == "teleport":
        board.hero = parse_name(target)
    elif weapon == "sword":
        square = hero_target(board, target)
        assert square is not None  # a direction ``uses_on`` offered: on the board
        # Never chaining: the resolver counts these kills in no group.
        r.hero_enters(square)
    elif weapon == "battleaxe":
        symbol = SYMBOLS.index(target)
        around = set(_orthogonal(board, r.layout))

        def swept(s: Skeleton) -> bool:
            return s.square in around and s.token.symbol == symbol

        r.to_bag.extend(s.token for s in [*board.skeletons, *r.unmoved] if swept(s))
        board.skeletons = [s for s in board.skeletons if not swept(s)]
        r.unmoved = [s for s in r.unmoved if not swept(s)]
    elif weapon == "morningstar":
        dst = parse_name(to)

        def knocked(s: Skeleton) -> Skeleton:
            if s.square != sq:
                return s
            return Skeleton(dst, s.token, s.facing, s.rested, s.frozen)

        board.skeletons = [knocked(s) for s in board.skeletons]
        r.unmoved = [knocked(s) for s in r.unmoved]
    elif weapon == "rapier":
        d = DIRS.index(to)
        board.skeletons = [s.facing_to(d) if s.square == sq else s for s in board.skeletons]
        r.unmoved = [s.facing_to(d) if s.square == sq else s for s in r.unmoved]
    # D5's canonical order for what still moves: by square, wherever the weapon left them.
    r.unmoved.sort(key=skeleton_order)


__all__ = ["SKIP", "WEAPONS", "answer", "check", "from_answer", "strike", "used", "uses", "uses_on"]
