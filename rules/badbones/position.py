"""A short text notation for positions, for tests, bug reports and the docs.

One line per square or setting; ``#`` starts a comment::

    hero D4   floors 2   houses 2
    C2  S S S           three skeletons on C2 facing south (model pink.top)
    B1  red.left:E*2    two red left-forest skeletons facing east
    D2  wall/           an intact wall, orientation /
    E5  catapult~       a damaged catapult (``~`` = damaged side)
    forest  red.top green.left
    cemetery  blue.right
    supply  wall catapult        (default: the basic six minus the tiles on the board)
    prefs  dragon=N top=2
    weapon  crossbow            (advanced)
    ruins  B2                   (cooperative: a destroyed tower)
    C4  labyrinth:black  B4 bomb~   (a labyrinth's colour; a bomb's blast area)
    D1  red.top:S@instructor    (a skeleton chief: @kind)

A skeleton is ``[symbol.forest:]FACING[*count][@chief]``; ``!`` after it marks it as already
moved this round (``S!``), ``^`` as frozen by the ice wand. :func:`game_from_text` builds a whole game from one such text per seat, with the
bag holding every token the boards do not.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from rules.badbones.board import (
    DIRS,
    FORESTS,
    SYMBOLS,
    model_name,
    model_of,
    parse_square,
    square_name,
)
from rules.badbones.choices import CHOICES
from rules.badbones.state import (
    CHIEF_IDS,
    HERO,
    TOKENS_PER_MODEL,
    BadBonesState,
    Board,
    Skeleton,
    Token,
    chief_kind,
    skeleton_order,
)
from rules.badbones.traps import TRAPS, Trap, basic_supply

DEFAULT_MODEL = 0  # pink.top


def parse_model(text: str) -> int:
    symbol, _, forest = text.partition(".")
    return model_of(FORESTS.index(forest or "top"), SYMBOLS.index(symbol))


def board_from_text(
    text: str, solo: bool = False, coop: bool = False, chiefs: list[int] | None = None
) -> Board:
    """One board; ``chiefs`` are the chief ids still free (those used here are taken)."""
    board = Board(
        hero=6 if coop else 12,
        floors=1 if solo else 4,
        houses=0 if coop else 1 if solo else 5,
        prefs={c: "ask" for c in CHOICES},
        village=not coop,
    )
    free = chiefs if chiefs is not None else list(CHIEF_IDS)
    supply: list[str] | None = None
    for raw in text.splitlines():
        tokens = raw.split("#")[0].split()
        while tokens:
            head = tokens.pop(0)
            if head in ("hero", "floors", "houses", "weapon"):
                value = tokens.pop(0)
                if head == "hero":
                    board.hero = -1 if value == "none" else parse_square(value)
                elif head == "weapon":
                    board.weapon = value
                else:
                    setattr(board, head, int(value))
            elif head in ("forest", "cemetery"):
                getattr(board, head).extend(_token(t, free) for t in tokens)
                tokens = []
            elif head == "ruins":
                board.ruins.extend(parse_square(t) for t in tokens)
                board.floors -= len(tokens)
                tokens = []
            elif head == "supply":
                supply = tokens
                tokens = []
            elif head == "prefs":
                for item in tokens:
                    key, _, value = item.partition("=")
                    board.prefs[key] = value
                tokens = []
            else:
                square = parse_square(head)
                for item in tokens:
                    _square_item(board, square, item, free)
                tokens = []
    if supply is None:
        supply = [] if coop else basic_supply()
        for trap in board.traps.values():
            if trap.kind in supply:
                supply.remove(trap.kind)
    board.supply = supply
    return board


def _token(text: str, free: list[int]) -> Token:
    """``red.top`` or ``red.top@saboteur`` (a chief) → a token."""
    name, _, kind = text.partition("@")
    chief = 0
    if kind:
        chief = next(c for c in free if chief_kind(c) == kind)
        free.remove(chief)
    return Token(parse_model(name), chief)


def _token_name(token: Token) -> str:
    name = model_name(token.model)
    return name + (f"@{token.kind}" if token.chief else "")


def _square_item(board: Board, square: int, item: str, free: list[int]) -> None:
    kind, _, colour = item.rstrip("\\/~").partition(":")
    if kind in TRAPS:
        orientation = "\\" if "\\" in item else "/" if "/" in item else colour
        board.traps[square] = Trap(kind, 1 if item.endswith("~") else 0, orientation)
        return
    chief = 0
    if "@" in item:
        item, _, kind = item.partition("@")
        chief = next(c for c in free if chief_kind(c) == kind)
        free.remove(chief)
    frozen = item.endswith("^")
    item = item.rstrip("^")
    count = 1
    if "*" in item:
        item, _, n = item.partition("*")
        count = int(n)
    rested = item.endswith("!")
    item = item.rstrip("!")
    model = DEFAULT_MODEL
    if ":" in item:
        name, _, item = item.partition(":")
        model = parse_model(name)
    facing = DIRS.index(item)
    token = Token(model, chief)
    board.skeletons.extend(Skeleton(square, token, facing, rested, frozen) for _ in range(count))


def board_to_text(board: Board) -> str:
    """The notation of a board (round-trips through :func:`board_from_text`)."""
    hero = square_name(board.hero) if board.hero >= 0 else "none"
    lines = [f"hero {hero} floors {board.floors + len(board.ruins)} houses {board.houses}"]
    if board.weapon:
        lines.append(f"weapon {board.weapon}")
    if board.ruins:
        lines.append("ruins " + " ".join(square_name(sq) for sq in board.ruins))
    squares: dict[int, list[str]] = {}
    for sq, trap in sorted(board.traps.items()):
        sep = ":" if TRAPS[trap.kind].coloured else ""
        squares.setdefault(sq, []).append(
            trap.kind + sep + trap.orientation + ("~" if trap.side else "")
        )
    for s in sorted(board.skeletons, key=skeleton_order):
        item = f"{model_name(s.token.model)}:{DIRS[s.facing]}"
        item += ("!" if s.rested else "") + ("^" if s.frozen else "")
        if s.token.chief:
            item += "@" + s.token.kind
        squares.setdefault(s.square, []).append(item)
    for sq, items in sorted(squares.items()):
        lines.append(f"{square_name(sq)} {' '.join(items)}")
    for name in ("forest", "cemetery"):
        models = getattr(board, name)
        if models:
            lines.append(f"{name} {' '.join(_token_name(m) for m in models)}")
    lines.append(f"supply {' '.join(board.supply)}")
    lines.append("prefs " + " ".join(f"{k}={v}" for k, v in sorted(board.prefs.items())))
    return "\n".join(lines)


def game_from_text(
    *boards: str,
    stage: str = HERO,
    round: int = 1,
    options: dict[str, Any] | None = None,
    seed: int = 1,
) -> BadBonesState:
    """A game whose boards are the given texts (one per seat); the bag holds the rest."""
    opts = {"solo_rounds": 10, "heroic": False, "choices": "ask", **(options or {})}
    coop = bool(opts.get("cooperative", False))
    free = list(CHIEF_IDS)
    parsed = [
        board_from_text(text, solo=len(boards) == 1, coop=coop, chiefs=free) for text in boards
    ]
    used = Counter(t.model for b in parsed for t in b.tokens() if not t.chief)
    bag = [TOKENS_PER_MODEL - used[m] for m in range(15)]
    if min(bag) < 0:
        raise ValueError("more than 12 tokens of one model")
    state = BadBonesState(len(parsed), opts, round, stage, seed, bag, parsed)
    if opts.get("chiefs"):
        state.chiefs = free
    if coop:
        state.capital = int(opts.get("capital", len(parsed)))
        state.pool = list(opts.get("pool", []))
    return state
