"""The game state: plain data, and its saved-game JSON form.

A skeleton *token* is a :class:`Token`: its model (``forest * 5 + symbol``, where it enters) and,
for a skeleton chief, the chief's id (1–19; each chief token is unique, ``CHIEF_KINDS`` gives its
power). Plain tokens of one model are interchangeable. On a board a token is a :class:`Skeleton`:
where it stands, which way it faces, and two marks: ``rested`` (it already moved this round: the
dragon's landing, D8; a barricade; a labyrinth) and ``frozen`` (held by the ice wand for the next
skeleton phase). Both are immutable, so copying a board copies lists, not tokens.

The bag is 15 counts (one per model) plus the list of chief ids still in it.

Saved games (``dump``/``load``) keep the format they always had, so that every game already in a
database still loads: a token is the number ``model | chief << 4`` and a skeleton the number
``square << 13 | frozen << 12 | chief << 7 | rested << 6 | model << 2 | facing``; a trap is
``[square, kind, side, orientation]``. Only ``dump`` and ``load`` read or write these numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.badbones.board import BASIC, COOP, LAYOUTS, MODELS, Layout
from rules.badbones.traps import Trap

TOKENS_PER_MODEL = 12
TOTAL_TOKENS = TOKENS_PER_MODEL * MODELS

# Skeleton chiefs: 19 tokens, ids 1–19 (3 of each of six kinds, then the emperor); each also
# carries a model, round-robin (rules file, section 5), for its forest entry.
CHIEF_KINDS = ("artificer", "necromancer", "nice", "instructor", "spectral", "saboteur", "emperor")
CHIEF_IDS = tuple(range(1, 20))
CHIEFS = len(CHIEF_IDS)


def chief_kind(chief: int) -> str:
    """Chief id (1–19) → its kind; ``""`` for 0 (a plain skeleton)."""
    if chief <= 0:
        return ""
    return CHIEF_KINDS[min((chief - 1) // 3, 6)]


def chief_model(chief: int) -> int:
    return (chief - 1) % MODELS


@dataclass(frozen=True, slots=True)
class Token:
    """A skeleton token: its model and, for a skeleton chief, the chief's id (0: plain)."""

    model: int
    chief: int = 0

    @property
    def symbol(self) -> int:
        return self.model % 5

    @property
    def kind(self) -> str:
        """The chief's kind (``""`` for a plain skeleton)."""
        return chief_kind(self.chief)


def chief_token(chief: int) -> Token:
    return Token(chief_model(chief), chief)


def token_order(token: Token) -> tuple[int, int]:
    """The order a forest's newcomers enter in (D5: it changes nothing, but fixes the saved
    game): plain tokens by model, then the chiefs by id."""
    return token.chief, token.model


@dataclass(frozen=True, slots=True)
class Skeleton:
    """A token on a board (see the module docstring)."""

    square: int
    token: Token
    facing: int
    rested: bool = False
    frozen: bool = False

    def facing_to(self, facing: int) -> Skeleton:
        return Skeleton(self.square, self.token, facing, self.rested, self.frozen)


def skeleton_order(s: Skeleton) -> tuple[int, bool, int, bool, int, int]:
    """The canonical order in which one board's skeletons move (D5: it changes no outcome, but
    it fixes the saved game): by square, then the order of their saved-game numbers."""
    return s.square, s.frozen, s.token.chief, s.rested, s.token.model, s.facing


# ----------------------------------------------------------------------------- saved-game numbers


def token_code(token: Token) -> int:
    return token.model | token.chief << 4


def token_from_code(code: int) -> Token:
    return Token(code & 15, code >> 4)


def skeleton_code(s: Skeleton) -> int:
    return (
        s.square << 13
        | s.frozen << 12
        | s.token.chief << 7
        | s.rested << 6
        | s.token.model << 2
        | s.facing
    )


def skeleton_from_code(code: int) -> Skeleton:
    return Skeleton(
        square=code >> 13,
        token=Token(code >> 2 & 15, code >> 7 & 31),
        facing=code & 3,
        rested=bool(code >> 6 & 1),
        frozen=bool(code >> 12 & 1),
    )


@dataclass
class WeaponDue:
    """Advanced: a weapon use owed to a seat whose hero killed 3+ at once: ``killed`` are the
    tokens that went to the bag (the death wand sends them on), ``phase`` the stage they were
    killed in (kept in saved games, read by nothing)."""

    killed: list[Token]
    phase: str


@dataclass
class Board:
    """One player's board and everything beside it."""

    hero: int
    floors: int
    houses: int
    skeletons: list[Skeleton] = field(default_factory=list)
    forest: list[Token] = field(default_factory=list)
    cemetery: list[Token] = field(default_factory=list)
    traps: dict[int, Trap] = field(default_factory=dict)
    supply: list[str] = field(default_factory=list)
    # D5 standing preferences: "top", "catapult", "dragon" -> "ask" | "auto" | a seat/direction
    prefs: dict[str, str] = field(default_factory=dict)
    # Advanced: the weapon card ("" none). Cooperative: destroyed tower squares (ruins) and no
    # village of one's own. Chiefs: ``lost`` when the emperor reached the tower or village.
    weapon: str = ""
    ruins: list[int] = field(default_factory=list)
    village: bool = True
    lost: bool = False

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
            self.weapon,
            self.ruins[:],
            self.village,
            self.lost,
        )

    @property
    def eliminated(self) -> bool:
        return self.floors <= 0 or (self.village and self.houses <= 0) or self.lost

    def on(self, square: int) -> list[Skeleton]:
        """The skeletons on ``square``."""
        return [s for s in self.skeletons if s.square == square]

    def tokens(self) -> list[Token]:
        """Every token this board holds (board, forest, cemetery): for the token invariant."""
        return [s.token for s in self.skeletons] + self.forest + self.cemetery

    def dump(self) -> dict[str, Any]:
        return {
            "hero": self.hero,
            "floors": self.floors,
            "houses": self.houses,
            "skeletons": [skeleton_code(s) for s in self.skeletons],
            "forest": [token_code(t) for t in self.forest],
            "cemetery": [token_code(t) for t in self.cemetery],
            "traps": [
                [sq, trap.kind, trap.side, trap.orientation]
                for sq, trap in sorted(self.traps.items())
            ],
            "supply": self.supply[:],
            "prefs": dict(self.prefs),
            "weapon": self.weapon,
            "ruins": self.ruins[:],
            "village": self.village,
            "lost": self.lost,
        }

    @classmethod
    def load(cls, data: dict[str, Any]) -> Board:
        return cls(
            int(data["hero"]),
            int(data["floors"]),
            int(data["houses"]),
            [skeleton_from_code(int(c)) for c in data["skeletons"]],
            [token_from_code(int(t)) for t in data["forest"]],
            [token_from_code(int(t)) for t in data["cemetery"]],
            {int(t[0]): Trap(str(t[1]), int(t[2]), str(t[3])) for t in data["traps"]},
            [str(k) for k in data["supply"]],
            {str(k): str(v) for k, v in data["prefs"].items()},
            str(data.get("weapon", "")),
            [int(x) for x in data.get("ruins", [])],
            bool(data.get("village", True)),
            bool(data.get("lost", False)),
        )


# Stages of a round (stable names: saved games and stale-button tokens use them).
HERO = "hero"  # phase 1, simultaneous hidden submissions
TRAP = "trap"  # phase 2, simultaneous hidden submissions
LANDING = "landing"  # phase 2 resolving: the dragon's landing may ask its owner (D5, D8)
SKELETONS = "skeletons"  # phase 3 resolving: owners may be asked (D5)
MARKET = "market"  # advanced: the Market before round 1
START = "start"  # cooperative: each hero picks the tower it starts on
WEAPON = "weapon"  # advanced: owners whose hero killed 3+ at once in phase 1 may use their weapon
OVER = "over"


@dataclass
class BadBonesState:
    seats: int
    options: dict[str, Any]
    round: int
    stage: str
    rng: int
    bag: list[int]  # plain tokens left, per model
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
    # Chiefs: ids still in the bag; tokens removed from the game (a killed emperor)
    chiefs: list[int] = field(default_factory=list)
    removed: list[Token] = field(default_factory=list)
    # Advanced: the Market (None once over); weapon uses owed; the stage that follows the weapon
    # stage ("trap" or "arrivals")
    market: dict[str, Any] | None = None
    weapons: dict[int, WeaponDue] = field(default_factory=dict)
    after_weapons: str = ""
    # Cooperative: the shared trap supply and the capital's intact houses
    pool: list[str] = field(default_factory=list)
    capital: int = 0

    @property
    def solo(self) -> bool:
        return self.seats == 1

    @property
    def coop(self) -> bool:
        return bool(self.options.get("cooperative", False))

    def supply_of(self, seat: int) -> list[str]:
        """The trap supply a seat places from (the shared one in the cooperative game)."""
        return self.pool if self.coop else self.boards[seat].supply

    @property
    def layout(self) -> Layout:
        """The side of the board this game is played on."""
        if self.coop:
            return COOP
        name = self.options.get("layout")
        return BASIC if name is None else LAYOUTS.get(str(name), BASIC)

    def to_bag(self, token: Token) -> None:
        if token.chief:
            self.chiefs.append(token.chief)
        else:
            self.bag[token.model] += 1

    def from_bag(self, token: Token) -> None:
        """A token that went to the bag is taken back out (the death wand sends it on)."""
        if token.chief:
            self.chiefs.remove(token.chief)
        else:
            self.bag[token.model] -= 1

    def copy(self) -> BadBonesState:
        return BadBonesState(
            self.seats,
            dict(self.options),
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
            self.chiefs[:],
            self.removed[:],
            _json_copy(self.market) if self.market is not None else None,
            {s: WeaponDue(w.killed[:], w.phase) for s, w in self.weapons.items()},
            self.after_weapons,
            self.pool[:],
            self.capital,
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
            "chiefs": self.chiefs[:],
            "removed": [token_code(t) for t in self.removed],
            "market": _json_copy(self.market),
            "weapons": {
                str(s): {"killed": [token_code(t) for t in w.killed], "phase": w.phase}
                for s, w in self.weapons.items()
            },
            "after_weapons": self.after_weapons,
            "pool": self.pool[:],
            "capital": self.capital,
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
            chiefs=[int(c) for c in data.get("chiefs", [])],
            removed=[token_from_code(int(t)) for t in data.get("removed", [])],
            market=_json_copy(data.get("market")),
            weapons={
                int(s): WeaponDue(
                    [token_from_code(int(t)) for t in w.get("killed", [])], str(w.get("phase", ""))
                )
                for s, w in data.get("weapons", {}).items()
            },
            after_weapons=str(data.get("after_weapons", "")),
            pool=[str(k) for k in data.get("pool", [])],
            capital=int(data.get("capital", 0)),
        )


def _json_copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _json_copy(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json_copy(v) for v in value]
    return value
