"""The dice: six soldier dice lettered a–f and the event die (rules file, section 1), how
commands name them (``a5 c1``), and what a roll allows (its legal selections, worked out once per
distinct roll: ``facts``)."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import NamedTuple

from rules.core import Rng, RulesError
from rules.farkle import scoring
from rules.farkle.state import DIE_LETTERS, EVENT_FACES


def throw(rng: Rng, dice: int, event: bool = True) -> tuple[list[int], str]:
    """Roll ``dice`` soldier dice and (``event``) the event die with one draw of the generator:
    the faces are the base-6 digits of a uniform number below 6^(dice + 1), the lowest digit
    the first die's, the digit above the last die the event die's."""
    value = rng.below(6 ** (dice + event))
    faces = []
    for _ in range(dice):
        faces.append(value % 6 + 1)
        value //= 6
    return faces, EVENT_FACES[value % 6] if event else ""


def token(i: int, face: int) -> str:
    """How commands name die ``i`` showing ``face``: ``c5``."""
    return f"{DIE_LETTERS[i]}{face}"


def tokens(roll: list[int], dice: Iterable[int]) -> str:
    """The ``dice`` of ``roll`` (positions, 0 = die a, in order) as command tokens: ``a5 c1``."""
    return " ".join([token(i, roll[i]) for i in dice])


def faces(roll: list[int]) -> str:
    """A roll written for messages: ``a5 b2 c1``."""
    return " ".join([token(i, d) for i, d in enumerate(roll)])


def echo(text: object) -> str:
    """User input repeated in a message: short, and with no braces that would look like an
    unfilled template argument."""
    return str(text).replace("{", "(").replace("}", ")")[:30]


def parse_tokens(text: str, roll: list[int], key: str) -> tuple[int, ...]:
    """The positions (0 = die a, in order) of the dice a user named (``a c``, ``a5 c1``, ``ac``,
    ``A,C``); a letter that is not in the roll or named twice, or a face that does not match, is
    a RulesError ``key``."""
    cleaned = str(text).replace(",", " ").lower().split()
    if len(cleaned) == 1 and cleaned[0].isalpha():
        cleaned = list(cleaned[0])  # "acd"
    named: set[int] = set()
    for tok in cleaned:
        index = DIE_LETTERS.find(tok[0]) if tok else -1
        if index < 0 or index >= len(roll) or index in named:
            raise RulesError(key, dice=echo(text))
        rest = tok[1:]
        if rest and (not rest.isdigit() or int(rest) != roll[index]):
            raise RulesError(key, dice=echo(text))
        named.add(index)
    return tuple(sorted(named))


def one_die(text: str, roll: list[int]) -> int:
    """The position of the one die ``text`` names (the Lucky Squire's, the Loaded Die's); a
    RulesError if it names a die not in the roll, none or several."""
    named = parse_tokens(text, roll, "farkle.error.bad_die")
    if len(named) != 1:
        raise RulesError("farkle.error.one_die")
    return named[0]


class Selection(NamedTuple):
    """A legal selection of a roll (dice it may set aside)."""

    dice_at: tuple[int, ...]  # the positions of its dice (0 = die a), in order
    value: int
    aside: tuple[int, ...]  # the faces of its dice, in roll order
    dice: str  # its dice as ``Keep.dice`` writes them ("a5 c1")


NO_SELECTION = Selection((), 0, (), "")


class RollFacts(NamedTuple):
    """What the engine derives from one ordered roll, for one setting of D2 (see ``facts``)."""

    faces: str  # the roll as messages write it ("a5 b2 c1")
    selections: tuple[Selection, ...]  # every legal selection (none: a Farkle), see ``_roll_facts``
    texts: tuple[str, ...]  # their dice, in the same order
    default: str  # the dice an absent player keeps ("" for a Farkle)
    eaten: Selection  # "all the scoring dice" (the dragon eats them, the Final Battle loses them)


def facts(roll: list[int], four_pair: bool) -> RollFacts:
    """The :data:`RollFacts` of ``roll``: a step asks several of these questions about the roll
    it just threw (does it score? which keeps are legal? which one would an absent player make?
    what would the dragon eat?); answering them once per distinct roll, not once per question,
    is much of the engine's speed. Keyed by the faces, and immutable: it cannot go stale."""
    return _roll_facts(tuple(roll), four_pair)


# Bounded (the 6^6 ordered rolls of each setting of D2 fit): never grows without end.
@functools.lru_cache(maxsize=100_000)
def _roll_facts(roll: tuple[int, ...], four_pair: bool) -> RollFacts:
    """Work out a roll's facts (``facts`` keeps them)."""
    selections = []
    # The soldier table's search names a selection by a bitmask (it walks the subsets of the
    # scoring dice); here it becomes the positions of its dice, in the table's order.
    for mask, value in scoring.search_options(roll, four_pair):
        dice_at = tuple([i for i in range(len(roll)) if mask >> i & 1])
        aside = tuple([roll[i] for i in dice_at])
        selections.append(Selection(dice_at, value, aside, tokens(list(roll), dice_at)))
    # The absent player's keep as in scoring.best_mask: the highest value, then the fewest
    # dice; "all the scoring dice" as in scoring.all_scoring_mask: the most dice, then the
    # highest value. On a tie the first in the soldier table's order (that of its masks).
    default = max(selections, key=lambda s: (s.value, -len(s.aside)), default=NO_SELECTION)
    eaten = max(selections, key=lambda s: (len(s.aside), s.value), default=NO_SELECTION)
    return RollFacts(
        faces(list(roll)),
        tuple(selections),
        tuple(s.dice for s in selections),
        default.dice,
        eaten,
    )
