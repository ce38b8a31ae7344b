"""The game state: plain data, built for fast copies and a lossless JSON form.

A skeleton on a board is one int: ``square << 12 | rested << 6 | model << 2 | facing``; bits
7–11 stay free for the skeleton chiefs' kind (a later option), so the layout will not change. Skeletons
of one model are indistinguishable tokens, so this is all there is to know about one; a board's
skeletons are a flat list of these ints (copying a board is a few list slices). ``rested`` marks a
skeleton that already moved this round (the dragon's landing, D8).

The bag is 15 counts, one per model. Forests and cemeteries are lists of models.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.badbones.board import MODELS
from rules.badbones.traps import Trap

REST = 1 << 6
TOKENS_PER_MODEL = 12
TOTAL_TOKENS = TOKENS_PER_MODEL * MODELS


def skel(square: int, model: int, facing: int, rested: bool = False) -> int:
    return square << 12 | (REST if rested else 0) | model << 2 | facing


def skel_square(code: int) -> int:
    return code >> 12


def skel_model(code: int) -> int:
    return (code >> 2) & 15


def skel_facing(code: int) -> int:
    return code & 3


def skel_rested(code: int) -> bool:
    return bool(code & REST)


@dataclass
class Board:
    """One player's board and everything beside it."""

    hero: int
    floors: int
    houses: int
    skeletons: list[int] = field(default_factory=list)
    forest: list[int] = field(default_factory=list)
    cemetery: list[int] = field(default_factory=list)
    traps: dict[int, Trap] = field(default_factory=dict)
    supply: list[str] = field(default_factory=list)
    # D5 standing preferences: "top", "catapult", "dragon" -> "ask" | "auto" | a seat/direction
    prefs: dict[str, str] = field(default_factory=dict)

    def copy(self) -> Board:
        return Board(
            self.hero,
            self.floors,
            self.houses,
            self.skeletons[:],
            self.forest[:],
            self.cemetery[:],
            dict(self.traps),
            self.supply[:],
            dict(self.prefs),
        )

    @property
    def eliminated(self) -> bool:
        return self.floors <= 0 or self.houses <= 0

    def on(self, square: int) -> list[int]:
        """The skeletons on ``square``."""
        return [c for c in self.skeletons if c >> 12 == square]

    def tokens(self) -> list[int]:
        """Every model this board holds (board, forest, cemetery): for the 180-token invariant."""
        return [skel_model(c) for c in self.skeletons] + self.forest + self.cemetery

    def dump(self) -> dict[str, Any]:
        return {
            "hero": self.hero,
            "floors": self.floors,
            "houses": self.houses,
            "skeletons": self.skeletons[:],
            "forest": self.forest[:],
            "cemetery": self.cemetery[:],
            "traps": [[sq, *trap] for sq, trap in sorted(self.traps.items())],
            "supply": self.supply[:],
            "prefs": dict(self.prefs),
        }

    @classmethod
    def load(cls, data: dict[str, Any]) -> Board:
        return cls(
            int(data["hero"]),
            int(data["floors"]),
            int(data["houses"]),
            [int(c) for c in data["skeletons"]],
            [int(m) for m in data["forest"]],
            [int(m) for m in data["cemetery"]],
            {int(t[0]): (str(t[1]), int(t[2]), str(t[3])) for t in data["traps"]},
            [str(k) for k in data["supply"]],
            {str(k): str(v) for k, v in data["prefs"].items()},
        )


# Stages of a round (stable names: saved games and stale-button tokens use them).
HERO = "hero"  # phase 1, simultaneous hidden submissions
TRAP = "trap"  # phase 2, simultaneous hidden submissions
LANDING = "landing"  # phase 2 resolving: the dragon's landing may ask its owner (D5, D8)
SKELETONS = "skeletons"  # phase 3 resolving: owners may be asked (D5)
OVER = "over"


@dataclass
class BadBonesState:
    seats: int
    options: dict[str, Any]
    round: int
    stage: str
    rng: int
    bag: list[int]
    boards: list[Board]
    # Hidden simultaneous submissions (D13): seat -> action as JSON
    subs: dict[int, dict[str, Any]] = field(default_factory=dict)
    # While a phase resolves: each seat's answers so far and its open question (D5)
    answers: dict[int, list[str]] = field(default_factory=dict)
    questions: dict[int, dict[str, Any]] = field(default_factory=dict)
    # Set when the game ends: seat -> points (None for an eliminated player), and the outcome
    scores: dict[int, int | None] = field(default_factory=dict)
    outcome: str = ""
    # Answers and preference changes so far this game: makes every question's phase token new
    answered: int = 0
    version: int = 1

    @property
    def solo(self) -> bool:
        return self.seats == 1

    def copy(self) -> BadBonesState:
        return BadBonesState(
            self.seats,
            self.options,  # never mutated after setup
            self.round,
            self.stage,
            self.rng,
            self.bag[:],
            [b.copy() for b in self.boards],
            {s: dict(a) for s, a in self.subs.items()},
            {s: a[:] for s, a in self.answers.items()},
            {s: dict(q) for s, q in self.questions.items()},
            dict(self.scores),
            self.outcome,
            self.answered,
            self.version,
        )

    def dump(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "seats": self.seats,
            "options": dict(self.options),
            "round": self.round,
            "stage": self.stage,
            "rng": self.rng,
            "bag": self.bag[:],
            "boards": [b.dump() for b in self.boards],
            "subs": {str(s): dict(a) for s, a in self.subs.items()},
            "answers": {str(s): a[:] for s, a in self.answers.items()},
            "questions": {str(s): _json_copy(q) for s, q in self.questions.items()},
            "scores": {str(s): v for s, v in self.scores.items()},
            "outcome": self.outcome,
            "answered": self.answered,
        }

    @classmethod
    def load(cls, data: dict[str, Any]) -> BadBonesState:
        return cls(
            seats=int(data["seats"]),
            options=dict(data["options"]),
            round=int(data["round"]),
            stage=str(data["stage"]),
            rng=int(data["rng"]),
            bag=[int(n) for n in data["bag"]],
            boards=[Board.load(b) for b in data["boards"]],
            subs={int(s): dict(a) for s, a in data["subs"].items()},
            answers={int(s): [str(x) for x in a] for s, a in data["answers"].items()},
            questions={int(s): _json_copy(q) for s, q in data["questions"].items()},
            scores={int(s): v for s, v in data["scores"].items()},
            outcome=str(data["outcome"]),
            answered=int(data.get("answered", 0)),
            version=int(data.get("version", 1)),
        )


def _json_copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _json_copy(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json_copy(v) for v in value]
    return value
