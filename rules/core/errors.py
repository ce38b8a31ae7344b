"""The one error type of the rules layer.

An engine never lets a raw exception reach a user: every refusal is a ``RulesError`` that names a
message key of the catalogue (``i18n/``) and the arguments to fill it with. Adapters
translate it into the user's language.
"""

from __future__ import annotations

from typing import Any


class RulesError(Exception):
    """An illegal action, malformed input or an action out of turn.

    >>> err = RulesError("badbones.error.trap_on_tower", square="C3")
    >>> err.key, err.args_map
    ('badbones.error.trap_on_tower', {'square': 'C3'})
    """

    def __init__(self, key: str, **args: Any) -> None:
        super().__init__(key, args)
        self.key = key
        self.args_map: dict[str, Any] = args

    def __str__(self) -> str:
        return f"{self.key} {self.args_map}" if self.args_map else self.key
