"""Pig, the template game of docs/adding-a-game.md (tests only: it never ships).

Its folder holds what a shipped game spreads over ``rules/pig/``, ``render/pig.py`` and
``i18n/*/pig.toml``: the engine (``game.py``), the computer players (``policy.py``), the
pictures (``render.py``) and the texts (``en.toml``, ``es.toml``); this module is its
registration. A shipped game calls ``register`` here; a test game is registered only by the test
that plays it (``tests/support/registered.py``)."""

from pathlib import Path

from rules.core import Registration
from tests.games.pig.game import GOAL, PIG, Hold, Pig, PigState, Roll
from tests.support.registered import texts_in

REGISTRATION = Registration(PIG, policy="tests.games.pig.policy", renderer="tests.games.pig.render")
TEXTS = texts_in(Path(__file__).parent)

__all__ = ["GOAL", "PIG", "REGISTRATION", "TEXTS", "Hold", "Pig", "PigState", "Roll"]
