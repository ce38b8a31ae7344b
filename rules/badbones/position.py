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

A skeleton is ``[symbol.forest:]FACING[*count]``; ``!`` after it marks it as already moved this
round (``S!``). :func:`game_from_text` builds a whole game from one such text per seat, with the
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
    HERO,
    TOKENS_PER_MODEL,
    BadBonesState,
    Board,
    skel,
    skel_facing,
    skel_model,
    skel_rested,
)
from rules.badbones.traps import TRAPS, basic_supply

DEFAULT_MODEL = 0  # pink.top


def parse_model(text: str) -> int:
    symbol, _, forest = text.partition(".")
    return model_of(FORESTS.index(forest or "top"), SYMBOLS.index(symbol))


def board_from_text(text: str, solo: bool = False) -> Board:
    board = Board(
        hero=12,
        floors=1 if solo else 4,
        houses=1 if solo else 5,
        prefs={c: "ask" for c in CHOICES},
    )
    supply: list[str] | None = None
    for raw in text.splitlines():
        tokens = raw.split("#")[0].split()
        while tokens:
            head = tokens.pop(0)
            if head in ("hero", "floors", "houses"):
                value = tokens.pop(0)
                if head == "hero":
                    board.hero = parse_square(value)
                else:
                    setattr(board, head, int(value))
            elif head in ("forest", "cemetery"):
                getattr(board, head).extend(parse_model(t) for t in tokens)
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
                    _square_item(board, square, item)
                tokens = []
    if supply is None:
        supply = basic_supply()
        for trap in board.traps.values():
            if trap[0] in supply:
                supply.remove(trap[0])
    board.supply = supply
    return board


def _square_item(board: Board, square: int, item: str) -> None:
    kind = item.rstrip("\\/~")
    if kind in TRAPS:
        orientation = "\\" if "\\" in item else "/" if "/" in item else ""
        board.traps[square] = (kind, 1 if item.endswith("~") else 0, orientation)
        return
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
    board.skeletons.extend(skel(square, model, facing, rested) for _ in range(count))


def board_to_text(board: Board) -> str:
    """The notation of a board (round-trips through :func:`board_from_text`)."""
    lines = [f"hero {square_name(board.hero)} floors {board.floors} houses {board.houses}"]
    squares: dict[int, list[str]] = {}
    for sq, (kind, side, orientation) in sorted(board.traps.items()):
        squares.setdefault(sq, []).append(kind + orientation + ("~" if side else ""))
    for code in sorted(board.skeletons):
        item = f"{model_name(skel_model(code))}:{DIRS[skel_facing(code)]}"
        squares.setdefault(code >> 12, []).append(item + ("!" if skel_rested(code) else ""))
    for sq, items in sorted(squares.items()):
        lines.append(f"{square_name(sq)} {' '.join(items)}")
    for name in ("forest", "cemetery"):
        models = getattr(board, name)
        if models:
            lines.append(f"{name} {' '.join(model_name(m) for m in models)}")
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
    parsed = [board_from_text(text, solo=len(boards) == 1) for text in boards]
    used = Counter(m for b in parsed for m in b.tokens())
    bag = [TOKENS_PER_MODEL - used[m] for m in range(15)]
    if min(bag) < 0:
        raise ValueError("more than 12 tokens of one model")
    return BadBonesState(len(parsed), opts, round, stage, seed, bag, parsed)
