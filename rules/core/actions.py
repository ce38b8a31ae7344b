"""Typed actions with a stable JSON form.

A game's actions are small frozen dataclasses, one per kind of move, each subclassing
:class:`Action` with a class-level ``kind`` (its stable name: saved action logs refer to it, so
it never changes). Fields hold only JSON values: ``str``, ``int``, ``bool``, ``None`` and tuples
of those.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Step(Action):
...     kind = "step"
...     direction: str
>>> codec = ActionCodec([Step])
>>> Step("N").to_json()
{'type': 'step', 'direction': 'N'}
>>> codec.from_json({'type': 'step', 'direction': 'N'})
Step(direction='N')
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any, ClassVar

from rules.core.errors import RulesError


class Action:
    """Base of every game action (subclasses are frozen dataclasses)."""

    kind: ClassVar[str] = ""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.kind}
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            data[f.name] = _jsonable(getattr(self, f.name))
        return data


@dataclasses.dataclass(frozen=True)
class Withdraw(Action):
    """The service takes back a seat's sealed, unrevealed choice because another person now
    plays the seat (``/game replace``): the newcomer chooses afresh and never sees it. No
    command maps to it, so no player can send it; it is logged like any step, so replays stay
    exact. Every game's codec knows it (:class:`rules.core.game.Game`)."""

    kind: ClassVar[str] = "withdraw"


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    return value


def _tupled(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tupled(v) for v in value)
    return value


class ActionCodec:
    """Turns a game's action JSON back into its action classes."""

    def __init__(self, classes: Iterable[type[Action]]) -> None:
        self.classes: dict[str, type[Action]] = {}
        for cls in classes:
            if not cls.kind or cls.kind in self.classes:
                raise ValueError(f"action kind missing or repeated: {cls.__name__}")
            self.classes[cls.kind] = cls

    def from_json(self, data: Any) -> Action:
        """Rebuild an action; malformed data is a ``RulesError`` (it may come from a user)."""
        if not isinstance(data, dict) or data.get("type") not in self.classes:
            raise RulesError("core.error.bad_action")
        cls = self.classes[data["type"]]
        names = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
        given = {k: v for k, v in data.items() if k != "type"}
        if set(given) != names:
            raise RulesError("core.error.bad_action")
        try:
            return cls(**{k: _tupled(v) for k, v in given.items()})
        except (TypeError, ValueError) as exc:
            raise RulesError("core.error.bad_action") from exc
