"""The geometry of the Zombies vs Vampires grid: squares, corner zones, walls and reachability.

Everything here is a pure function of the board size (cached per size) plus the position passed
in. Squares are integers ``row * size + col``; row 0 is the top row. A square's readable name is
its column letter and row number, ``A1`` (top left) … ``K11`` (bottom right on the 11×11 board).

Walls lie on the grid lines between squares. A wall is ``(orient, line, start, length)``:

- ``("h", line, start, length)``: on the horizontal line above row ``line`` (``1 … size-1``),
  covering columns ``start … start+length-1``;
- ``("v", line, start, length)``: on the vertical line left of column ``line``, covering rows
  ``start … start+length-1``.

Its readable name is the squares it borders on one side plus that side: ``C3-E3 N`` is the wall
along the north sides of C3, D3 and E3; ``C3-C5 W`` runs down the west sides of C3…C5;
``C3 N`` is a wall of length 1.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from i18n import synonyms

# Directions: bit i of a square's wall mask is set when a wall lies on that side of it.
N, E, S, W = 0, 1, 2, 3
SIDES = "NESW"
OPPOSITE = (S, W, N, E)

Wall = tuple[str, int, int, int]  # (orient, line, start, length)

ZONE = 3  # the corner zones are 3×3
COLUMNS = "ABCDEFGHIJKLMNO"  # enough letters for the largest board (15)

# Corner of each seat's start zone, in seat order: with two players they face each other
# across the board (D1); players 3 and 4 take the two remaining corners.
START_CORNERS = ("TL", "BR", "TR", "BL")
OPPOSITE_CORNER = {"TL": "BR", "BR": "TL", "TR": "BL", "BL": "TR"}

_SQUARE_RE = re.compile(r"^\s*([A-Za-z])\s*(\d{1,2})\s*$")
# The side is a letter or a word in either language (``side_letter`` says which); the
# pattern only takes the letters, so "c3 oeste" and "C3-E3 north" read like "C3 W", "C3-E3 N".
_WALL_RE = re.compile(
    r"^\s*([A-Za-z])\s*(\d{1,2})\s*(?:[-–—:]\s*([A-Za-z])\s*(\d{1,2}))?\s*([A-Za-z]+)\s*$"
)


@dataclass(frozen=True)
class Board:
    """Precomputed tables for one board size (get them with :func:`board`)."""

    size: int
    names: tuple[str, ...]
    # neighbour[d][sq]: the square next to sq in direction d, or -1 off the board
    neighbour: tuple[tuple[int, ...], ...]
    # zone_of[sq]: the corner name of the zone holding sq, or "" outside every zone
    zone_of: tuple[str, ...]
    zones: dict[str, frozenset[int]]
    # steps[sq]: for each direction off sq, (d, the square next to it, the square beyond that
    # or -1): the one table the reachability search walks
    steps: tuple[tuple[tuple[int, int, int], ...], ...]

    # ------------------------------------------------------------- squares

    def name(self, sq: int) -> str:
        return self.names[sq]

    def square(self, text: str) -> int | None:
        """The square named ``text`` (``"c3"`` works too), or ``None`` if there is none."""
        match = _SQUARE_RE.match(str(text))
        if not match:
            return None
        col = COLUMNS.find(match.group(1).upper())
        row = int(match.group(2)) - 1
        if not (0 <= col < self.size and 0 <= row < self.size):
            return None
        return row * self.size + col

    def rc(self, sq: int) -> tuple[int, int]:
        return divmod(sq, self.size)

    def zone_squares(self, corner: str) -> frozenset[int]:
        return self.zones[corner]

    def distance_to_corner(self, sq: int, corner: str) -> int:
        """Steps from ``sq`` to the very corner square, ignoring walls and pawns."""
        r, c = divmod(sq, self.size)
        far = self.size - 1
        return (r if corner[0] == "T" else far - r) + (c if corner[1] == "L" else far - c)

    def distance_to_zone(self, sq: int, corner: str) -> int:
        """Steps from ``sq`` to the nearest square of a corner zone, ignoring walls and pawns."""
        r, c = divmod(sq, self.size)
        far = self.size - ZONE
        dr = max(0, r - (ZONE - 1)) if corner[0] == "T" else max(0, far - r)
        dc = max(0, c - (ZONE - 1)) if corner[1] == "L" else max(0, far - c)
        return dr + dc

    # ------------------------------------------------------------- walls

    def wall_edges(self, wall: Wall) -> list[tuple[int, int]]:
        """The (square, side) pairs a wall blocks, both sides of each unit edge."""
        orient, line, start, length = wall
        n = self.size
        out: list[tuple[int, int]] = []
        for k in range(start, start + length):
            if orient == "h":
                below = line * n + k
                out.append((below, N))
                out.append((below - n, S))
            else:
                right = k * n + line
                out.append((right, W))
                out.append((right - 1, E))
        return out

    def wall_points(self, wall: Wall) -> list[int]:
        """The grid points strictly inside a wall (where another wall would cross it)."""
        orient, line, start, length = wall
        n1 = self.size + 1
        if orient == "h":
            return [line * n1 + k for k in range(start + 1, start + length)]
        return [k * n1 + line for k in range(start + 1, start + length)]

    def on_board(self, wall: Wall) -> bool:
        orient, line, start, length = wall
        return (
            orient in ("h", "v")
            and 1 <= line <= self.size - 1
            and 0 <= start
            and start + length <= self.size
            and 1 <= length
        )

    def in_zone(self, wall: Wall) -> bool:
        """Whether any unit edge of the wall separates two squares of the same zone."""
        orient, line, start, length = wall
        n = self.size
        for k in range(start, start + length):
            if orient == "h":
                a, b = (line - 1) * n + k, line * n + k
            else:
                a, b = k * n + line - 1, k * n + line
            if self.zone_of[a] and self.zone_of[a] == self.zone_of[b]:
                return True
        return False

    def wall_name(self, wall: Wall) -> str:
        orient, line, start, length = wall
        n = self.size
        if orient == "h":
            first, last, side = line * n + start, line * n + start + length - 1, "N"
        else:
            first, last, side = start * n + line, (start + length - 1) * n + line, "W"
        if length == 1:
            return f"{self.names[first]} {side}"
        return f"{self.names[first]}-{self.names[last]} {side}"

    def wall_from(self, sq: int, side: str, direction: str | None, length: int) -> Wall | None:
        """The wall of ``length`` along ``side`` of ``sq`` that extends towards ``direction``
        (any of the four ways of pointing at one wall), or ``None`` if that is not a wall
        direction (parallel to the side) or it leaves the board."""
        side = side.upper()
        direction = (direction or "").upper() or None
        if side not in SIDES:
            return None
        r, c = divmod(sq, self.size)
        if side in "NS":
            if length > 1 and direction not in ("E", "W"):
                return None
            line = r if side == "N" else r + 1
            start = c if (direction or "E") == "E" else c - length + 1
            wall: Wall = ("h", line, start, length)
        else:
            if length > 1 and direction not in ("N", "S"):
                return None
            line = c if side == "W" else c + 1
            start = r if (direction or "S") == "S" else r - length + 1
            wall = ("v", line, start, length)
        return wall if self.on_board(wall) else None

    def parse_wall(self, text: str) -> Wall | None:
        """Read a wall name such as ``C3-E3 N``, ``C3 N`` or ``c5-c3w`` (either end first).

        ``None`` when the text is not a straight wall on the board's inner lines."""
        match = _WALL_RE.match(str(text))
        if not match:
            return None
        a = self.square(match.group(1) + match.group(2))
        b = a if match.group(3) is None else self.square(match.group(3) + match.group(4))
        if a is None or b is None:
            return None
        side = side_letter(match.group(5))
        if not side:
            return None
        (ra, ca), (rb, cb) = self.rc(a), self.rc(b)
        if side in "NS":
            if ra != rb:
                return None
            wall: Wall = ("h", ra if side == "N" else ra + 1, min(ca, cb), abs(ca - cb) + 1)
        else:
            if ca != cb:
                return None
            wall = ("v", ca if side == "W" else ca + 1, min(ra, rb), abs(ra - rb) + 1)
        return wall if self.on_board(wall) else None

    def all_walls(self, length: int) -> list[Wall]:
        """Every straight wall of ``length`` on the inner lines, horizontal then vertical, in
        reading order (the order of suggestions)."""
        n = self.size
        out: list[Wall] = []
        for line in range(1, n):
            for start in range(0, n - length + 1):
                out.append(("h", line, start, length))
        for line in range(1, n):
            for start in range(0, n - length + 1):
                out.append(("v", line, start, length))
        return [w for w in out if not self.in_zone(w)]


def side_letter(text: str) -> str:
    """N, E, S or W from a side or direction as typed, in any case: ``n``, ``north``, ``Sur``,
    ``o``/``Oeste`` (the Spanish west) all work; anything else (``nonsense``) gives ``""``."""
    # Every way a player may write a side or a direction is the catalogue's, in English and
    # Spanish (``[zvv.synonyms.side]``, docs/i18n.md "Input synonyms"): build and remove both
    # read sides here, so they accept the same forms (remove refused "c3 o" that build took).
    return synonyms("zvv", "side").get(str(text).strip().lower(), "")


@cache
def board(size: int) -> Board:
    n = size
    names = tuple(f"{COLUMNS[c]}{r + 1}" for r in range(n) for c in range(n))
    neighbour = (
        tuple(sq - n if sq >= n else -1 for sq in range(n * n)),
        tuple(sq + 1 if sq % n < n - 1 else -1 for sq in range(n * n)),
        tuple(sq + n if sq < n * (n - 1) else -1 for sq in range(n * n)),
        tuple(sq - 1 if sq % n > 0 else -1 for sq in range(n * n)),
    )
    zones: dict[str, frozenset[int]] = {}
    far = n - ZONE
    for corner in ("TL", "TR", "BL", "BR"):
        r0 = 0 if corner[0] == "T" else far
        c0 = 0 if corner[1] == "L" else far
        zones[corner] = frozenset(
            (r0 + dr) * n + c0 + dc for dr in range(ZONE) for dc in range(ZONE)
        )
    zone_of = ["" for _ in range(n * n)]
    for corner, squares in zones.items():
        for sq in squares:
            zone_of[sq] = corner
    steps = tuple(
        tuple(
            (d, neighbour[d][sq], neighbour[d][neighbour[d][sq]])
            for d in range(4)
            if neighbour[d][sq] >= 0
        )
        for sq in range(n * n)
    )
    return Board(n, names, neighbour, tuple(zone_of), zones, steps)


def reach(
    b: Board,
    occupied: bytearray,
    walls: list[int],
    start: int,
    steps: int,
    target: frozenset[int],
) -> dict[int, int]:
    """Every square a pawn on ``start`` can end on with up to ``steps`` steps → the square it
    came from (follow the parents back to ``start`` for the path), in the order the search
    found them: by the number of steps, fewest first (``step_counts`` reads them off).

    A step goes to the empty orthogonal neighbour, or jumps over an adjacent pawn onto the empty
    square straight beyond it (1 step too); walls block both. The moving pawn's own square counts
    as empty (it has left it), so it never jumps over itself. Once the pawn enters its
    ``target`` zone it may go on inside the zone but never leave it (D8: the pawn stays in the
    zone; were the first square entered final, the far corner of the zone could never be
    filled and nobody could win). Whether a pawn is inside is a function of its square, so a
    breadth-first search over squares finds each square at its least number of steps and the
    whole set is exact.
    """
    table = b.steps
    was = occupied[start]
    occupied[start] = 0
    parent: dict[int, int] = {start: -1}
    frontier = [start]
    for _ in range(steps):
        nxt: list[int] = []
        for sq in frontier:
            inside = sq in target
            mask = walls[sq]
            for d, n1, n2 in table[sq]:
                if mask >> d & 1:
                    continue
                if not occupied[n1]:
                    if n1 not in parent and (not inside or n1 in target):
                        parent[n1] = sq
                        nxt.append(n1)
                elif (
                    n2 >= 0
                    and not occupied[n2]
                    and not walls[n1] >> d & 1
                    and n2 not in parent
                    and (not inside or n2 in target)
                ):
                    parent[n2] = sq
                    nxt.append(n2)
        if not nxt:
            break
        frontier = nxt
    occupied[start] = was
    del parent[start]
    return parent


def step_counts(parent: dict[int, int]) -> dict[int, int]:
    """``reach``'s squares → the fewest steps to each: a square's parent was found before it,
    one step nearer (``start`` itself, left out of ``parent``, at none)."""
    count: dict[int, int] = {}
    for sq, came in parent.items():
        count[sq] = count.get(came, 0) + 1
    return count


def path_to(parent: dict[int, int], start: int, dest: int) -> list[int]:
    """The squares from ``start`` to ``dest`` (both included) along ``reach``'s parents."""
    path = [dest]
    while path[-1] != start:
        path.append(parent[path[-1]])
    path.reverse()
    return path


def can_step(b: Board, occupied: bytearray, walls: list[int], sq: int) -> bool:
    """Whether a pawn on ``sq`` has at least one legal step (a cheap ``reach(..., 1)``)."""
    neighbour = b.neighbour
    mask = walls[sq]
    for d in range(4):
        if mask >> d & 1:
            continue
        n1 = neighbour[d][sq]
        if n1 < 0:
            continue
        if not occupied[n1]:
            return True
        if walls[n1] >> d & 1:
            continue
        n2 = neighbour[d][n1]
        if n2 >= 0 and not occupied[n2]:
            return True
    return False
