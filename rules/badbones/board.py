"""The board of one player: 25 squares, the tower, the printed arrows, the three forests.

Coordinates (commands, images, logs): columns A–E left to right, rows 1–5 top to bottom; row 1
touches the top forest, row 5 the village. Internally a square is ``row * 5 + col`` (0–24) and a
direction is ``N, E, S, W = 0, 1, 2, 3`` so that turning is arithmetic modulo 4.

A :class:`Layout` holds everything printed on one side of the board (towers, arrows, what lies
beyond each edge, where each skeleton model enters) and, worked out once from them, the tables
the movement reads: ``step[square][direction]`` is the square a step leads to, or what lies
beyond the edge (``EXIT_*``). The cooperative side (towers on B2/D2/B4/D4, the capital beyond
the top edge) is a second ``Layout``; the movement code is the same for both.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from i18n import synonyms
from rules.core import RulesError

SIZE = 5
SQUARES = SIZE * SIZE
COLUMNS = "ABCDE"

N, E, S, W = 0, 1, 2, 3
DIRS = "NESW"
# (row delta, column delta) per direction
DELTA = ((-1, 0), (0, 1), (1, 0), (0, -1))

# The hero moves in 8 directions.
HERO_DIRS: dict[str, tuple[int, int]] = {
    "N": (-1, 0),
    "NE": (-1, 1),
    "E": (0, 1),
    "SE": (1, 1),
    "S": (1, 0),
    "SW": (1, -1),
    "W": (0, -1),
    "NW": (-1, -1),
}
HERO_DIR_NAMES = tuple(HERO_DIRS)

# Symbols and forests: a skeleton *model* is ``forest * 5 + symbol`` (15 models).
SYMBOLS = ("pink", "yellow", "red", "blue", "green")
PINK, YELLOW, RED, BLUE, GREEN = range(5)
FORESTS = ("top", "left", "right")
TOP, LEFT, RIGHT = range(3)
MODELS = 15

# What lies beyond an edge, as negative "squares" returned by the step table.
EXIT_TOP, EXIT_LEFT, EXIT_RIGHT, EXIT_VILLAGE = -1, -2, -3, -4
EXIT_NAMES = {EXIT_TOP: "top", EXIT_LEFT: "left", EXIT_RIGHT: "right", EXIT_VILLAGE: "village"}


SQUARE_NAMES = tuple(f"{COLUMNS[sq % SIZE]}{sq // SIZE + 1}" for sq in range(SQUARES))


def square_name(sq: int) -> str:
    """``12`` → ``"C3"``."""
    return SQUARE_NAMES[sq]


def model_of(forest: int, symbol: int) -> int:
    return forest * 5 + symbol


def model_name(model: int) -> str:
    """``2`` → ``"red.top"`` (symbol.forest, the notation of tests and logs)."""
    return f"{SYMBOLS[model % 5]}.{FORESTS[model // 5]}"


def opposite(d: int) -> int:
    return (d + 2) % 4


@dataclass(frozen=True)
class Layout:
    """One printed side of the board (see the module docstring)."""

    name: str
    towers: tuple[int, ...]
    arrows: dict[int, int]
    # model -> (entry square, direction of the entering move)
    entries: tuple[tuple[int, int], ...]
    # The cooperative side: the capital lies beyond the top edge (EXIT_VILLAGE) and the "top"
    # forest beyond the bottom edge (EXIT_TOP); destroyed towers leave ruins with an arrow N.
    capital_top: bool = False

    def __post_init__(self) -> None:
        step: list[tuple[int, int, int, int]] = []
        for sq in range(SQUARES):
            row, col = divmod(sq, SIZE)
            out = []
            for dr, dc in DELTA:
                r, c = row + dr, col + dc
                if r < 0:
                    out.append(EXIT_VILLAGE if self.capital_top else EXIT_TOP)
                elif r >= SIZE:
                    out.append(EXIT_TOP if self.capital_top else EXIT_VILLAGE)
                elif c < 0:
                    out.append(EXIT_LEFT)
                elif c >= SIZE:
                    out.append(EXIT_RIGHT)
                else:
                    out.append(r * SIZE + c)
            step.append((out[0], out[1], out[2], out[3]))
        object.__setattr__(self, "step", tuple(step))
        object.__setattr__(self, "arrow", tuple(self.arrows.get(sq, -1) for sq in range(SQUARES)))
        object.__setattr__(self, "is_tower", tuple(sq in self.towers for sq in range(SQUARES)))

    # Filled in __post_init__ (declared for type checkers).
    step: tuple[tuple[int, int, int, int], ...] = ()
    arrow: tuple[int, ...] = ()
    is_tower: tuple[bool, ...] = ()


def _basic_entries() -> tuple[tuple[int, int], ...]:
    entries: list[tuple[int, int]] = []
    for forest in range(3):
        for symbol in range(5):
            if forest == TOP:  # pink A1 … green E1, moving S
                entries.append((symbol, S))
            elif forest == LEFT:  # pink A5 … green A1, moving E
                entries.append(((4 - symbol) * SIZE, E))
            else:  # pink E1 … green E5, moving W
                entries.append((symbol * SIZE + 4, W))
    return tuple(entries)


def parse_name(name: str) -> int:
    """``"C3"`` → ``12`` for well-formed names only (internal use, tests)."""
    return (int(name[1]) - 1) * SIZE + COLUMNS.index(name[0].upper())


# The basic side: tower C3; arrows C1 S, C2 S, B3 E, D3 W, C4 N, C5 S (rules file, section 1).
BASIC = Layout(
    name="basic",
    towers=(12,),
    arrows={2: S, 7: S, 11: E, 13: W, 17: N, 22: S},
    entries=_basic_entries(),
)


def _coop_entries() -> tuple[tuple[int, int], ...]:
    # The top-forest models enter from the bottom edge, moving N (pink A5 … green E5).
    basic = _basic_entries()
    return tuple((20 + m, N) if m < 5 else basic[m] for m in range(MODELS))


# The cooperative side (house data, rules file section 5): towers B2 D2 B4 D4, no printed arrows.
COOP = Layout(
    name="coop", towers=(6, 8, 16, 18), arrows={}, entries=_coop_entries(), capital_top=True
)
RUIN_ARROW = N
LAYOUTS = {"basic": BASIC, "coop": COOP}


# ----------------------------------------------------------------------------- typed squares

_SQUARE = re.compile(r"^([A-E])([1-5])$")
_TOP_FOREST = re.compile(r"^[A-E]0$")
_RIGHT_FOREST = re.compile(r"^F[1-5]$")
_VILLAGE = re.compile(r"^[A-E]6$")
# Words for a place rather than a square ("torre", "bosque", "aldea"): the catalogue's, in
# every language (``[badbones.synonyms.square]``, docs/i18n.md "Input synonyms").


def shown(text: object, limit: int = 12) -> str:
    """A user's input made safe to echo in an error: printable, short; letters with accents
    stay, emoji and control characters become "?"."""
    raw = str(text)
    clean = "".join(ch if ch.isprintable() and ord(ch) < 0x2000 else "?" for ch in raw[:limit])
    return clean + ("…" if len(raw) > limit else "")


def parse_square(text: object) -> int:
    """A square typed by a user (``"c3"``, ``" B2 "``) → 0–24.

    Squares just outside the grid get their own errors, so a player learns *why*: row 0 and
    column F are the forests (``A0``, ``F3``), row 6 the village (``C6``).
    """
    raw = str(text).strip().upper() if text is not None else ""
    if not raw:
        raise RulesError("badbones.error.no_square")
    match = _SQUARE.match(raw)
    if match:
        return (int(match.group(2)) - 1) * SIZE + COLUMNS.index(match.group(1))
    place = synonyms("badbones", "square").get(raw.lower())
    if _TOP_FOREST.match(raw) or _RIGHT_FOREST.match(raw) or place == "forest":
        raise RulesError("badbones.error.square_in_forest", square=shown(text))
    if _VILLAGE.match(raw) or place == "village":
        raise RulesError("badbones.error.square_in_village", square=shown(text))
    if place == "tower":
        return BASIC.towers[0]
    raise RulesError("badbones.error.bad_square", square=shown(text))
