"""Looking at rendered pictures in tests."""

from __future__ import annotations


def near(pixel: tuple[int, ...], colour: tuple[int, int, int], tol: int = 30) -> bool:
    """``pixel`` is ``colour`` give or take ``tol`` in each channel (anti-aliasing, palettes)."""
    return all(abs(int(p) - c) <= tol for p, c in zip(pixel, colour, strict=False))
