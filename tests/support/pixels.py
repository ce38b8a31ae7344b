"""Looking at rendered pictures in tests."""

from __future__ import annotations


def near(
    pixel: float | tuple[int, ...] | None, colour: tuple[int, int, int], tol: int = 30
) -> bool:
    """``pixel`` is ``colour`` give or take ``tol`` in each channel (anti-aliasing, palettes).

    ``pixel`` as ``Image.getpixel`` types it; a colour picture's pixel is a tuple of channels."""
    assert isinstance(pixel, tuple), f"a pixel of a colour picture, not {pixel!r}"
    return all(abs(int(p) - c) <= tol for p, c in zip(pixel, colour, strict=False))
