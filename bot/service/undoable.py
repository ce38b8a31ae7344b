"""Whether a player's step may be taken back, asked when their confirmation is composed: the
host's ``undo`` setting and the engine's rule (``Game.undoable``), and the ↩ button that
offers it. Kept apart from ``undo.py`` (the command that takes it back) so that a move's
confirmation (``moves.py``) does not stand on the command and all it needs."""

from __future__ import annotations

from typing import Any

from bot.service import buttons
from bot.service.match import Match, settings
from bot.service.replies import Button
from bot.service.text import phrase
from rules.core import Action, RulesError


def offered(match: Match, seat: int, action: Action, before: Any) -> bool:
    """Whether the confirmation of ``seat``'s step (``before`` → the match's state now) offers
    the ↩ button: undo is on and the engine's rule would let it be taken back."""
    if not allowed(settings(match.row)):
        return False
    try:
        match.engine.undoable(before, seat, action, match.state)
    except RulesError:
        return False
    return True


def button(game_id: int, lang: str) -> Button:
    """↩ Undo, on a player's own confirmation: ``/game undo`` in one click."""
    custom_id = buttons.button_id(game_id, "", buttons.UNDO, {})
    assert custom_id is not None, "an undo button's id is short"
    return Button(str(phrase("core.undo.button", lang)), custom_id)


def allowed(row_settings: dict[str, Any]) -> bool:
    """Whether the game's host lets its players undo (on unless turned off)."""
    return bool(row_settings.get("undo", True))
