"""Random play is pinned: an engine change that claims to change no rule keeps every game's
fingerprint (tests/support/fingerprint.py). A deliberate rule change updates the value here in
the same commit and says in its message which rule changed."""

import pytest

from tests.support.fingerprint import fingerprint
from tests.support.registered import generic_games

PINNED = {
    "badbones": "827ae05d79e0d2c1",  # the table hears each phase-3 answer (chose_*); no rule moved
    "farkle": "2260e3d515bb0eb3",
    "fuse": "43ad55dd77d0bc06",  # a claim over a held die is told as a swap (fuse.event.swapped); no rule moved
    "zvv": "92994e74ee35b46d",
    "pig": "e4065a22d6e74bdd",  # the test games (tests/games/)
    "nim": "0114f15be9dda086",
}


@pytest.mark.parametrize("game", generic_games())
def test_random_play_matches_its_fingerprint(game: str) -> None:
    assert game in PINNED, f"pin it: python -m tests.support.fingerprint {game}"
    assert fingerprint(game) == PINNED[game]
