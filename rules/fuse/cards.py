"""Bomb cards: the icon grammar, the house deck, and the completability check.

A die is a (colour, number) pair, coded as one small integer ``colour * 6 + number - 1`` so that
card checks stay cheap (they run for every slot of every card on every autocomplete).

A card is a tuple of slots (each takes one die), the relations that tie slots together, and its
layout: parts that are rows, stacks (towers, bottom → top) or a pyramid (3 / 2 / 1). The card
text uses the notation of the house deck file (``deck.toml``, documented at its top):

>>> card = parse_card("x", 1, 1, "[#] > [#] < [#]")
>>> card.fits(0, die(RED, 5)), card.can_place((-1, -1, -1), 0, die(RED, 1))
(True, False)
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

COLOURS = "RBGYK"  # red, blue, green, yellow, black: the five dice colours
RED, BLUE, GREEN, YELLOW, BLACK = range(5)
EMPTY = -1


def die(colour: int, number: int) -> int:
    """The code of a die showing ``number`` in ``colour``."""
    return colour * 6 + number - 1


def colour_of(value: int) -> int:
    return value // 6


def number_of(value: int) -> int:
    return value % 6 + 1


def die_name(value: int) -> str:
    """``R4``: colour letter and number (how players name a die in commands)."""
    return f"{COLOURS[colour_of(value)]}{number_of(value)}"


ALL_VALUES = tuple(range(30))


# ---------------------------------------------------------------------------- slots


@dataclass(frozen=True)
class Slot:
    """One icon: the dice it accepts and how relations compare its die.

    ``alts``: the alternatives of a split slot, each ``(colour, number)`` with ``None`` meaning
    "any"; ``mark``: ``""`` (a plain colour/number icon), ``"?"``, ``"#"``, ``"*"``, ``"#|*"``,
    ``"#*"``; ``compare``: ``number``, ``colour``, ``either`` (number or colour), ``both``.
    """

    text: str
    alts: tuple[tuple[int | None, int | None], ...]
    mark: str
    compare: str
    domain: frozenset[int]

    def accepts(self, value: int) -> bool:
        return value in self.domain

    def to_view(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "mark": self.mark,
            "alts": [{"c": COLOURS[c] if c is not None else None, "n": n} for c, n in self.alts],
        }


def parse_slot(token: str) -> Slot:
    """``[R|B]``, ``[B4]``, ``[#|*]``, ``[?]`` … → a :class:`Slot`."""
    inner = token.strip()[1:-1].strip()
    parts = [p.strip() for p in inner.split("|")]
    alts: list[tuple[int | None, int | None]] = []
    marks: list[str] = []
    for part in parts:
        colour: int | None = None
        number: int | None = None
        rest = part
        if rest and rest[0] in COLOURS:
            colour = COLOURS.index(rest[0])
            rest = rest[1:]
        if rest and rest[0].isdigit():
            number = int(rest[0])
            if not 1 <= number <= 6:
                raise ValueError(f"bad number in slot {token}")
            rest = rest[1:]
        if rest not in ("", "?", "#", "*", "#*"):
            raise ValueError(f"bad slot {token}")
        if rest:
            marks.append(rest)
        alts.append((colour, number))
    if "#" in marks and "*" in marks:
        compare, mark = "either", "#|*"
    elif "#*" in marks:
        compare, mark = "both", "#*"
    elif "*" in marks:
        compare, mark = "colour", "*"
    elif "#" in marks:
        compare, mark = "number", "#"
    elif "?" in marks:
        compare, mark = "number", "?"
    else:
        compare, mark = "number", ""
    domain = frozenset(
        v
        for v in ALL_VALUES
        if any(
            (c is None or colour_of(v) == c) and (n is None or number_of(v) == n) for c, n in alts
        )
    )
    return Slot(token, tuple(alts), mark, compare, domain)


# ---------------------------------------------------------------------------- relations


@dataclass(frozen=True)
class Relation:
    """A rule tying slots together.

    kinds: ``eq`` / ``ne`` (all slots equal / all different, by ``attr``), ``lt`` / ``gt``
    (``slots[0]`` below / above ``slots[1]`` in number), ``sum`` (numbers of ``slots`` add up to
    ``target``), ``sums`` (numbers of ``slots`` equal those of ``right``).
    """

    kind: str
    slots: tuple[int, ...]
    attr: str = "number"
    target: int = 0
    right: tuple[int, ...] = ()

    @property
    def members(self) -> tuple[int, ...]:
        return self.slots + self.right

    def holds(self, values: list[int], lo: list[int], hi: list[int]) -> bool:
        """False only if the relation is already broken by the dice assigned in ``values``
        (``EMPTY`` elsewhere); ``lo``/``hi`` bound the numbers an empty slot could still show."""
        # (numbers as ``v % 6``, colours as ``v // 6``, and loops rather than comprehensions:
        # this runs for every relation at every step of a completability search)
        kind = self.kind
        if kind == "lt" or kind == "gt":
            a, b = values[self.slots[0]], values[self.slots[1]]
            if a < 0 or b < 0:
                return True
            return a % 6 < b % 6 if kind == "lt" else a % 6 > b % 6
        if kind == "eq" or kind == "ne":
            got = []
            for s in self.slots:
                v = values[s]
                if v >= 0:
                    got.append(v)
            if len(got) < 2:
                return True
            nums = set()
            cols = set()
            for v in got:
                nums.add(v % 6)
                cols.add(v // 6)
            if kind == "eq":
                return _combine(self.attr, len(nums) == 1, len(cols) == 1)
            if self.attr == "both":
                return len(set(got)) == len(got)
            return _combine(self.attr, len(nums) == len(got), len(cols) == len(got))
        if kind == "sum":
            low = high = 0
            for s in self.slots:
                v = values[s]
                if v >= 0:
                    low += v % 6 + 1
                    high += v % 6 + 1
                else:
                    low += lo[s]
                    high += hi[s]
            return low <= self.target <= high
        # sums: left total equals right total; bounds prune, the full check is exact.
        l_lo = l_hi = r_lo = r_hi = 0
        for s in self.slots:
            v = values[s]
            l_lo += v % 6 + 1 if v >= 0 else lo[s]
            l_hi += v % 6 + 1 if v >= 0 else hi[s]
        for s in self.right:
            v = values[s]
            r_lo += v % 6 + 1 if v >= 0 else lo[s]
            r_hi += v % 6 + 1 if v >= 0 else hi[s]
        return l_lo <= r_hi and r_lo <= l_hi

    def to_view(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "slots": list(self.slots),
            "attr": self.attr,
            "target": self.target,
            "right": list(self.right),
        }


def _combine(attr: str, by_number: bool, by_colour: bool) -> bool:
    if attr == "number":
        return by_number
    if attr == "colour":
        return by_colour
    if attr == "either":
        return by_number or by_colour
    return by_number and by_colour


# ---------------------------------------------------------------------------- cards


@dataclass(frozen=True)
class Part:
    """A part of a card for drawing and support: ``row``, ``stack`` or ``pyramid``.

    ``rows`` lists, row by row (a pyramid's bottom row first), the tokens to draw: slot indices
    (ints) and relation symbols or sum targets (strings)."""

    layout: str
    rows: tuple[tuple[int | str, ...], ...]

    def to_view(self) -> dict[str, Any]:
        return {"layout": self.layout, "rows": [list(r) for r in self.rows]}


@dataclass(frozen=True)
class BombCard:
    id: str
    level: int
    points: int
    text: str
    slots: tuple[Slot, ...]
    relations: tuple[Relation, ...]
    parts: tuple[Part, ...]
    below: tuple[tuple[int, ...], ...]  # slots that must hold dice before this one
    above: tuple[tuple[int, ...], ...]  # slots resting on this one (a die under them is safe)
    hard: bool = False
    _memo: dict[tuple[int, ...], bool] = field(default_factory=dict, compare=False, repr=False)
    _plan: list[Any] = field(default_factory=list, compare=False, repr=False)
    _positions: dict[tuple[int, ...], dict[int, tuple[int, ...]]] = field(
        default_factory=dict, compare=False, repr=False
    )
    _vclass: list[int] = field(default_factory=list, compare=False, repr=False)

    @property
    def high(self) -> bool:
        """Level 3, 4 or a hard card: a player holds at most one of these."""
        return self.level >= 3

    def fits(self, slot: int, value: int) -> bool:
        """The die matches the slot's icon (relations aside)."""
        return self.slots[slot].accepts(value)

    def supported(self, filled: tuple[int, ...], slot: int) -> bool:
        return all(filled[b] >= 0 for b in self.below[slot])

    def safe(self, filled: tuple[int, ...], slot: int) -> bool:
        """A die under another die of a stack or pyramid cannot be returned."""
        return any(filled[a] >= 0 for a in self.above[slot])

    def can_place(self, filled: tuple[int, ...], slot: int, value: int) -> bool:
        """Every check of a placement: empty slot, matching icon, support, completable.
        (The dice already in ``filled`` match their icons: the game only places such dice.)"""
        # (fits and supported, inlined: the memo misses of legal_slots ask this for every slot)
        if filled[slot] >= 0 or value not in self.slots[slot].domain:
            return False
        for b in self.below[slot]:
            if filled[b] < 0:
                return False
        after = filled[:slot] + (value,) + filled[slot + 1 :]
        key = self.canonical(after)
        known = self._memo.get(key)
        if known is None:
            known = _search(self, list(after))
            if len(self._memo) > 50_000:
                self._memo.clear()
            self._memo[key] = known
        return known

    def canonical(self, filled: tuple[int, ...]) -> tuple[int, ...]:
        """``filled`` reduced to what completability depends on, for dice that match their
        icons: only the number of a die whose slot is compared by number, only the colour of
        one compared by colour, nothing of one in no relation. Many positions share a key."""
        canon = (self._plan or _search_plan(self))[4]
        key = []  # (a loop: a comprehension is one more call in Python 3.11)
        for s, v in enumerate(filled):
            key.append(canon[s][v] if v >= 0 else EMPTY)
        return tuple(key)

    def legal_slots(self, filled: tuple[int, ...], value: int) -> tuple[int, ...]:
        """Every slot where the die ``value`` may go now (memoised: autocomplete, buttons and
        the end-of-round checks ask this for every card and die, again and again)."""
        by_class = self._position(filled)
        cls = (self._vclass or self._value_classes())[value]
        known = by_class.get(cls)
        if known is None:
            slots = []
            for s in range(len(filled)):
                if self.can_place(filled, s, value):
                    slots.append(s)
            known = by_class[cls] = tuple(slots)
        return known

    def _value_classes(self) -> list[int]:
        """Die values that no placement on this card can tell apart share a class: where a
        die may go depends on the value only through whether each slot's icon accepts it and
        what the canonical form keeps of it in each slot (see ``canonical``). The memo of
        ``legal_slots`` is kept per class, so a value asked once answers for its class."""
        if not self._vclass:
            canon = _search_plan(self)[4]
            seen: dict[tuple[tuple[bool, int], ...], int] = {}
            for v in ALL_VALUES:
                signature = tuple(
                    (slot.accepts(v), canon[s][v]) for s, slot in enumerate(self.slots)
                )
                self._vclass.append(seen.setdefault(signature, len(seen)))
        return self._vclass

    def _position(self, filled: tuple[int, ...]) -> dict[int, tuple[int, ...]]:
        """The memo entry of a position: its legal slots by value class. Where a die may go
        depends only on the canonical form of the position (the search memo of can_place is
        keyed by it too): positions that share it share one entry, found by the exact position
        first (cheaper than working out the canonical form)."""
        entry = self._positions.get(filled)
        if entry is None:
            if len(self._positions) > 100_000:  # bounded, never grows without end
                self._positions.clear()
            key = (-3, *self.canonical(filled))
            entry = self._positions.get(key)
            if entry is None:
                entry = self._positions[key] = {}
            self._positions[filled] = entry
        return entry

    def completable(self, filled: tuple[int, ...]) -> bool:
        """Whether some dice on the empty slots satisfy every icon and relation (an exact
        search over the 30 die faces; the dice already placed must match their icons too)."""
        return _search(self, list(filled))

    def to_view(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "level": self.level,
            "points": self.points,
            "text": self.text,
            "slots": [s.to_view() for s in self.slots],
            "parts": [p.to_view() for p in self.parts],
        }


def _search_plan(card: BombCard) -> list[Any]:
    """Per slot: the candidate dice worth trying (one per number when only numbers matter,
    one per colour when only colours matter), the relations that involve it, and the lowest
    and highest number it can show. Computed once per card."""
    if card._plan:
        return card._plan
    involved: list[list[int]] = [[] for _ in card.slots]
    attrs: list[set[str]] = [set() for _ in card.slots]
    for r, rel in enumerate(card.relations):
        for s in rel.members:
            involved[s].append(r)
            attrs[s].add(rel.attr if rel.kind in ("eq", "ne") else "number")
    candidates: list[tuple[int, ...]] = []
    for s, slot in enumerate(card.slots):
        domain = sorted(slot.domain)
        if attrs[s] <= {"number"}:
            by: dict[int, int] = {}
            for v in domain:
                by.setdefault(number_of(v), v)
            domain = sorted(by.values())
        elif attrs[s] <= {"colour"}:
            byc: dict[int, int] = {}
            for v in domain:
                byc.setdefault(colour_of(v), v)
            domain = sorted(byc.values())
        candidates.append(tuple(domain))
    lo = [min(number_of(v) for v in slot.domain) for slot in card.slots]
    hi = [max(number_of(v) for v in slot.domain) for slot in card.slots]
    canon: list[tuple[int, ...]] = []
    for s in range(len(card.slots)):
        if not involved[s]:
            canon.append(tuple(0 for _ in ALL_VALUES))
        elif attrs[s] <= {"number"}:
            canon.append(tuple(100 + number_of(v) for v in ALL_VALUES))
        elif attrs[s] <= {"colour"}:
            canon.append(tuple(200 + colour_of(v) for v in ALL_VALUES))
        else:
            canon.append(ALL_VALUES)
    card._plan.extend([tuple(candidates), tuple(tuple(i) for i in involved), lo, hi, canon])
    return card._plan


def _search(card: BombCard, values: list[int]) -> bool:
    candidates, involved, lo, hi, _ = card._plan or _search_plan(card)
    slots = card.slots
    for s, v in enumerate(values):
        if v >= 0 and v not in slots[s].domain:
            return False
    relations = card.relations
    for rel in relations:
        if not rel.holds(values, lo, hi):
            return False
    # Slots in no relation only need a matching die (always exists): skip them.
    todo = []
    for s, v in enumerate(values):
        if v < 0 and involved[s]:
            todo.append(s)

    def go(i: int) -> bool:
        if i == len(todo):
            return True
        s = todo[i]
        for v in candidates[s]:
            values[s] = v
            for r in involved[s]:
                if not relations[r].holds(values, lo, hi):
                    break
            else:
                if go(i + 1):
                    values[s] = EMPTY
                    return True
        values[s] = EMPTY
        return False

    return go(0)


# ---------------------------------------------------------------------------- the notation

_TOKEN = re.compile(r"\[[^\]]*\]|stack:|pyramid:|≠|!=|<|>|=|\+|\d+|/")


def _tokens(text: str) -> list[str]:
    tokens = _TOKEN.findall(text)
    if "".join(tokens).replace(" ", "") != re.sub(r"\s+", "", text):
        raise ValueError(f"cannot read card text: {text!r}")
    return ["≠" if t == "!=" else t for t in tokens]


def parse_card(card_id: str, level: int, points: int, text: str, hard: bool = False) -> BombCard:
    """Read one card in the deck notation (see ``deck.toml``)."""
    slots: list[Slot] = []
    relations: list[Relation] = []
    parts: list[Part] = []
    below: list[tuple[int, ...]] = []
    for section in text.split(";"):
        tokens = _tokens(section)
        layout = "row"
        if tokens and tokens[0] in ("stack:", "pyramid:"):
            layout = tokens.pop(0)[:-1]
        rows: list[list[str]] = [[]]
        for tok in tokens:
            if tok == "/":
                rows.append([])
            else:
                rows[-1].append(tok)
        if layout == "pyramid" and [sum(t.startswith("[") for t in r) for r in rows] != [3, 2, 1]:
            raise ValueError(f"a pyramid has rows of 3, 2 and 1 slots: {text!r}")
        if layout != "pyramid" and len(rows) != 1:
            raise ValueError(f"'/' only separates pyramid rows: {text!r}")
        drawn_rows: list[tuple[int | str, ...]] = []
        row_slots: list[list[int]] = []
        for row in rows:
            drawn, indices = _parse_row(row, slots, relations)
            drawn_rows.append(drawn)
            row_slots.append(indices)
        for r, indices in enumerate(row_slots):
            for k in range(len(indices)):
                if layout == "stack":
                    below.append((indices[k - 1],) if k else ())
                elif layout == "pyramid" and r > 0:
                    under = row_slots[r - 1]
                    below.append((under[k], under[k + 1]))
                else:
                    below.append(())
        parts.append(Part(layout, tuple(drawn_rows)))
    above: list[list[int]] = [[] for _ in slots]
    for index, support in enumerate(below):
        for b in support:
            above[b].append(index)
    return BombCard(
        card_id,
        level,
        points,
        text,
        tuple(slots),
        tuple(relations),
        tuple(parts),
        tuple(below),
        tuple(tuple(a) for a in above),
        hard,
    )


def _parse_row(
    row: list[str], slots: list[Slot], relations: list[Relation]
) -> tuple[tuple[int | str, ...], list[int]]:
    """One row of tokens → its slot indices, relations and drawing tokens."""
    drawn: list[int | str] = []
    indices: list[int] = []
    chains: list[list[int | str]] = []  # alternating slot index / operator / slot index …
    previous_was_slot = False
    for tok in row:
        if tok.startswith("["):
            index = len(slots)
            slots.append(parse_slot(tok))
            indices.append(index)
            drawn.append(index)
            if previous_was_slot or not chains:
                chains.append([index])
            else:
                chains[-1].append(index)
            previous_was_slot = True
        else:
            if not chains:
                raise ValueError(f"a relation needs a slot before it: {row}")
            drawn.append(tok)
            chains[-1].append(tok)
            previous_was_slot = False
    for chain in chains:
        _relations_of(chain, slots, relations)
    return tuple(drawn), indices


def _relations_of(chain: list[int | str], slots: list[Slot], relations: list[Relation]) -> None:
    members = [t for t in chain if isinstance(t, int)]
    ops = [t for t in chain if isinstance(t, str)]
    if not ops:
        return
    if "+" in ops:
        # An equation: left slots joined by "+", "=", then a number or slots joined by "+".
        eq = chain.index("=")
        left = tuple(t for t in chain[:eq] if isinstance(t, int))
        right_tokens = chain[eq + 1 :]
        if len(right_tokens) == 1 and isinstance(right_tokens[0], str):
            relations.append(Relation("sum", left, target=int(right_tokens[0])))
        else:
            right = tuple(t for t in right_tokens if isinstance(t, int))
            relations.append(Relation("sums", left, right=right))
        return
    compares = {slots[s].compare for s in members}
    attr = compares.pop() if len(compares) == 1 else "number"
    if all(op == "=" for op in ops):
        relations.append(Relation("eq", tuple(members), attr))
        return
    if all(op == "≠" for op in ops):
        relations.append(Relation("ne", tuple(members), attr))
        return
    for k, op in enumerate(ops):
        a, b = members[k], members[k + 1]
        kind = {"=": "eq", "≠": "ne", "<": "lt", ">": "gt"}[op]
        relations.append(Relation(kind, (a, b), attr))


# ---------------------------------------------------------------------------- the deck


@dataclass(frozen=True)
class Deck:
    bombs: dict[str, BombCard]
    fuses: tuple[str, ...]  # fuse card ids: "F-R" (a colour) … "F-6" (a number)


def fuse_target(fuse_id: str) -> tuple[int | None, int | None]:
    """The colour or number a fuse card shows."""
    mark = fuse_id.split("-", 1)[1]
    if mark in COLOURS:
        return COLOURS.index(mark), None
    return None, int(mark)


@cache
def house_deck() -> Deck:
    """The house deck of ``deck.toml`` (read once)."""
    # By path, like the catalogues: importlib.resources misreads ``rules`` as a namespace
    # package under some editable installs.
    data = tomllib.loads((Path(__file__).resolve().parent / "deck.toml").read_text("utf-8"))
    bombs: dict[str, BombCard] = {}
    for entry in data["bomb"]:
        card = parse_card(
            entry["id"], entry["level"], entry["points"], entry["card"], entry.get("hard", False)
        )
        if card.id in bombs:
            raise ValueError(f"card id repeated: {card.id}")
        if not card.completable(tuple([EMPTY] * len(card.slots))):
            raise ValueError(f"card {card.id} can never be defused")
        bombs[card.id] = card
    fuses = tuple(f"F-{mark}" for mark in data["fuse"])
    return Deck(bombs, fuses)


def slot_kind(slot: Slot) -> str:
    """What kind of icon a slot is, as ``/game rules topic:cards`` explains it."""
    marks = {"#|*": "either", "#*": "identical", "*": "colour_compared", "#": "number_compared"}
    if slot.mark in marks:
        return marks[slot.mark]
    if slot.mark == "?":
        return "any"
    if len(slot.alts) > 1:
        return "split"
    colour, number = slot.alts[0]
    if colour is not None and number is not None:
        return "colour_number"
    return "colour" if colour is not None else "number"


def card_kinds(deck: Deck) -> tuple[str, ...]:
    """Every kind of thing a card of ``deck`` shows: its slots' icons, the relations printed
    between them, its shapes (stack, pyramid), its levels, and the fuse cards' two kinds; in
    that order, each once. Derived from the deck, so an edited deck's new kinds are asked a
    description too (``tests/test_pieces.py``)."""
    found: dict[str, None] = {}
    cards = sorted(deck.bombs.values(), key=lambda c: (c.hard, c.level, c.id))
    for card in cards:
        for slot in card.slots:
            found.setdefault(slot_kind(slot), None)
    for card in cards:
        for relation in card.relations:
            found.setdefault(relation.kind, None)
    for card in cards:
        for part in card.parts:
            if part.layout != "row":
                found.setdefault(part.layout, None)
    for card in cards:
        found.setdefault("hard" if card.hard else f"level{card.level}", None)
    for fuse in deck.fuses:
        colour, _ = fuse_target(fuse)
        found.setdefault("fuse_colour" if colour is not None else "fuse_number", None)
    return tuple(found)


def is_fuse(card_id: str) -> bool:
    return card_id.startswith("F-")
