"""The service layer's one error type: a refusal with a catalogue key, shown to the actor."""

from __future__ import annotations

from typing import Any


class DamagedDatabase(Exception):
    """The database answers, but not with data: the file is damaged (SQLite's "database disk
    image is malformed"), not merely busy. Retrying cannot help; an operator must act."""

    ADVICE = (
        "the database is damaged ({error}): stop the bot, keep a copy of the file, and restore "
        "the latest backup (docs/operations.md, 'Backups')"
    )


class Refusal(Exception):
    """A lobby or permission refusal ("you are not seated", "the game is full"…)."""

    def __init__(self, key: str, **args: Any) -> None:
        super().__init__(key, args)
        self.key = key
        self.args_map: dict[str, Any] = args
