"""Nim, a throw-away game (tests only): its folder and its line in ``TEST_GAMES``
(``tests/support/registered.py``) are all it took to be played by every generic test. It has
computer players and a small picture, like Pig, and unlike Pig a parameter and an option."""

from pathlib import Path

from rules.core import Registration
from tests.games.nim.game import NIM, Nim, NimState, Take
from tests.support.registered import texts_in

REGISTRATION = Registration(NIM, policy="tests.games.nim.policy", renderer="tests.games.nim.render")
TEXTS = texts_in(Path(__file__).parent)

__all__ = ["NIM", "REGISTRATION", "TEXTS", "Nim", "NimState", "Take"]
