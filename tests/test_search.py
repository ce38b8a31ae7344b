"""The search of the hard computer players keeps the rule of thumb unless the playouts clearly
beat it (rules/core/search.py)."""

from __future__ import annotations

from rules.core.search import clearly_best


def test_a_lead_within_the_noise_keeps_the_first_candidate() -> None:
    first = [0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0]
    lucky = [1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0]  # a better mean, but mostly the dice
    assert sum(lucky) > sum(first)
    assert clearly_best([first, lucky], z=2.0) == 0


def test_a_clear_lead_on_the_same_draws_wins() -> None:
    first = [100.0, 0.0, 300.0, 50.0, 0.0, 200.0, 150.0, 0.0]
    better = [v + 60.0 + (i % 3) for i, v in enumerate(first)]  # more on every draw
    best_of_three = [v + 90.0 + (i % 2) for i, v in enumerate(first)]
    assert clearly_best([first, better, best_of_three], z=2.0) == 2
    # Without the rule (z = 0) any better mean wins, noise included.
    lucky = [0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 2.0]
    assert clearly_best([[0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0], lucky], z=0.0) == 1
