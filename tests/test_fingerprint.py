"""Random play is pinned: an engine change that claims to change no rule keeps every game's
fingerprint (tests/support/fingerprint.py). A deliberate rule change updates the value here in
the same commit and says in its message which rule changed."""

import pytest

from tests.support.fingerprint import fingerprint

PINNED = {
    "badbones": "eed43e0f5a7b54ee",
    "farkle": "d2a01e77440c5ff4",
    "fuse": "9dd6e0976fbb2299",
    "zvv": "92994e74ee35b46d",
}


@pytest.mark.parametrize("game", sorted(PINNED))
def test_random_play_matches_its_fingerprint(game: str) -> None:
    assert fingerprint(game) == PINNED[game]
