"""The settings a game is played at: the difficulty (rules §3.1) and the two modes of D2 — live,
against the 10-minute clock, and relaxed, with no clock and a round limit (D9, D14).

Time: in ``live`` mode the clock starts at the first ``draw`` (the ``now`` passed to ``apply``);
every pending input has the clock end as its deadline, and any action arriving after it ends the
game as lost before anything else. In ``relaxed`` mode there is no clock: the round deadline is
the service's, and the bomb goes off after ``rounds`` rounds, by default a number set by the deck
(D14), so that a game always ends.
"""

from __future__ import annotations

DIFFICULTIES = ("training", "standard", "expert", "elite", "insane")
# Bomb deck size by difficulty, for 1..5 players (the cards dealt to players are extra).
DECK_SIZE: dict[str, tuple[int, int, int, int, int]] = {
    "training": (16, 17, 18, 19, 20),
    "standard": (19, 20, 21, 22, 23),
    "expert": (21, 22, 23, 24, 25),
    "elite": (23, 24, 25, 26, 27),
    "insane": (25, 26, 27, 28, 29),
}
CLOCK_SECONDS = 600.0
ROUND_TIMER = 20  # seconds (option round_timer): live mode's per-round timer, applied by the bot

# D14 (house): relaxed mode's bomb goes off after a number of rounds set by the deck: this
# many rounds per bomb card in play (the deck and the cards dealt), by seat count. Measured at
# chat pace with the computer players (``python -m bench fuse``): a ``normal`` team beats it
# in about nine games out of ten (the 85th-90th percentile of the rounds it needs).
ROUNDS_PER_CARD = (9.0, 3.5, 4.0, 2.75, 2.0)


def relaxed_rounds(seats: int, deck_size: int) -> int:
    """Relaxed mode's round limit for a deck of ``deck_size`` bomb cards (option ``rounds`` 0)."""
    cards = deck_size + (4 if seats == 1 else 2 * seats)
    return -int(-ROUNDS_PER_CARD[seats - 1] * cards // 1)
