"""Dragon Farkle actions: one frozen dataclass per kind of move (``kind`` never changes)."""

from __future__ import annotations

from dataclasses import dataclass

from rules.core import Action


@dataclass(frozen=True)
class Recruit(Action):
    kind = "recruit"


@dataclass(frozen=True)
class Brawl(Action):
    kind = "brawl"
    target: int


@dataclass(frozen=True)
class Enter(Action):
    """Enter (or stay in) the Dragon's Keep and fight the Final Battle."""

    kind = "enter"


@dataclass(frozen=True)
class Keep(Action):
    """Set dice aside: ``dice`` is space-separated tokens ``a5 c1`` (letter, then face)."""

    kind = "keep"
    dice: str


@dataclass(frozen=True)
class Roll(Action):
    kind = "roll"


@dataclass(frozen=True)
class Stop(Action):
    kind = "stop"


@dataclass(frozen=True)
class Double(Action):
    """Rally: double the value of the dice set aside from this roll."""

    kind = "double"


@dataclass(frozen=True)
class Draw(Action):
    """Rally: draw a magic item."""

    kind = "draw"


@dataclass(frozen=True)
class UseCompanion(Action):
    """The companions without a target: Siege Engineer, Pickpocket, Field Medic."""

    kind = "companion"


@dataclass(frozen=True)
class Scare(Action):
    """Skree scares ``target``'s army."""

    kind = "scare"
    target: int


@dataclass(frozen=True)
class Reroll(Action):
    """Lucky Squire re-rolls one die (token ``c4``)."""

    kind = "reroll"
    die: str


@dataclass(frozen=True)
class UseItem(Action):
    """Play a magic item from your hand (``die`` only for the Loaded Die)."""

    kind = "item"
    item: str
    die: str = ""


@dataclass(frozen=True)
class Fight(Action):
    """The brawl defender faces the brawl (does not play a Cloak)."""

    kind = "fight"


@dataclass(frozen=True)
class Bonus(Action):
    """A Pickpocket winner takes the 500 bonus rather than the loser's item."""

    kind = "bonus"


@dataclass(frozen=True)
class AcceptFarkle(Action):
    kind = "farkle"


@dataclass(frozen=True)
class Discard(Action):
    kind = "discard"
    item: str


ACTION_TYPES: tuple[type[Action], ...] = (
    Recruit,
    Brawl,
    Enter,
    Keep,
    Roll,
    Stop,
    Double,
    Draw,
    UseCompanion,
    Scare,
    Reroll,
    UseItem,
    Fight,
    Bonus,
    AcceptFarkle,
    Discard,
)
