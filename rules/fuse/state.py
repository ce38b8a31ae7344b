"""The state of a FUSE game and its saved form (JSON via ``dump`` / ``load``, schema 1).

Dice are ids 0–24 with ``faces[id]`` (see ``dice.py``); every die is in exactly one of ``bag``,
``loose`` (rolled this round, on no card) or a card slot (``dice[card_id][slot]``). ``stage``:
``start`` → ``choose`` ⇄ ``return`` → ``over``.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from rules.fuse.modes import DECK_SIZE, relaxed_rounds


@dataclass(slots=True)
class FuseState:
    seats: int
    difficulty: str
    mode: str  # live | relaxed
    hard: bool
    solo_dice: int
    round_limit: int  # relaxed mode: the bomb goes off after this many rounds (D9, D14)
    top_up: bool  # D6: a player short of cards takes one when the centre row allows it
    rng: int
    stage: str  # start | choose | return | over
    round: int
    step: int  # counts stage changes and resolution steps (stale buttons)
    faces: list[int]  # the face each of the 25 dice shows
    bag: list[int]  # die ids in the bag
    drawn: list[int]  # the dice drawn this round, in order
    loose: list[int]  # drawn dice on no card and not yet back in the bag
    hands: list[list[str]]  # bomb card ids in front of each seat
    dice: dict[str, list[int]]  # card id -> die id per slot (EMPTY: none) for cards in hands
    deck: list[str]  # top first: bomb card ids and fuse card ids ("F-R", "F-3")
    centre: list[str]
    claims: dict[int, int]  # seat -> the die it holds (claimed, not yet placed)
    used: list[int]  # dice placed this round, per seat
    done: list[bool]  # the seat finished the round
    taking: list[bool]  # the seat defused a bomb and must take a centre card
    queue: list[str]  # what makes players return dice: "F-R" fuse cards, "D7" unused die 7
    current: str  # the queue item being resolved ("" none)
    owing: dict[int, list[tuple[str, int]]]  # seat -> the (card, slot) dice it may return
    defused: list[str]
    fuses: list[str]  # fuse cards revealed (2 points each)
    clock_end: float | None
    outcome: str  # "" | won | lost
    reason: str  # why it ended: won | clock | bag | rounds
    seconds_left: int
    last_now: float  # the time of the latest action (the image shows the clock as of then)

    def copy(self) -> FuseState:
        """A deep copy, field by field: lists and dicts (and the lists they hold) are copied,
        the rest (numbers, strings, tuples) is immutable and shared."""
        return FuseState(*[_copied(getattr(self, name)) for name in _FIELDS])

    def dump(self) -> dict[str, Any]:
        own = self.copy()  # the dump shares nothing with the state
        data = {name: getattr(own, name) for name in _FIELDS}
        data["claims"] = {str(k): v for k, v in self.claims.items()}
        data["owing"] = {str(k): [[c, s] for c, s in v] for k, v in self.owing.items()}
        data["schema"] = 1
        return data

    @staticmethod
    def load(data: dict[str, Any]) -> FuseState:
        saved = {k: v for k, v in data.items() if k != "schema"}
        # fields added during development of schema 1: older saves get their defaults
        saved.setdefault("top_up", False)
        saved.setdefault("last_now", 0.0)
        if not saved["round_limit"]:  # saved when 0 meant "never": the deck's limit (D14)
            seats = saved["seats"]
            saved["round_limit"] = relaxed_rounds(seats, DECK_SIZE[saved["difficulty"]][seats - 1])
        saved["hands"] = [list(h) for h in data["hands"]]
        saved["dice"] = {k: list(v) for k, v in data["dice"].items()}
        saved["claims"] = {int(k): v for k, v in data["claims"].items()}
        saved["owing"] = {int(k): [(c, s) for c, s in v] for k, v in data["owing"].items()}
        for name in (
            "faces",
            "bag",
            "drawn",
            "loose",
            "deck",
            "centre",
            "used",
            "done",
            "taking",
            "queue",
            "defused",
            "fuses",
        ):
            saved[name] = list(data[name])
        return FuseState(**saved)


_FIELDS = [f.name for f in fields(FuseState)]


def _copied(value: Any) -> Any:
    if type(value) is list:
        # (a list of numbers or strings is copied at once: most of the state's lists are)
        return [_copied(v) for v in value] if value and type(value[0]) is list else value[:]
    if type(value) is dict:
        return {k: _copied(v) for k, v in value.items()}
    return value
