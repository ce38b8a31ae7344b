"""The service layer's one error type: a refusal with a catalogue key, shown to the actor."""

from __future__ import annotations

from typing import Any


class Refusal(Exception):
    """A lobby or permission refusal ("you are not seated", "the game is full"…)."""

    def __init__(self, key: str, **args: Any) -> None:
        super().__init__(key, args)
        self.key = key
        self.args_map: dict[str, Any] = args
