"""Bad Bones speed figures: random legal games through the engine API, and the pictures.

Run: ``.venv/bin/python -m bench badbones`` (about 20 s). Targets: the floor of ≥ 50 random
4-player games per second of CPU time (the engine is written for reading, not for speed: above
this floor no speed trick is worth its obscurity); a 6-player table in ≤ 120 ms and ≤ 400 KB.

Games/s count CPU time (``time.process_time``), not the wall clock: on a shared machine the
wall clock measures the neighbours too.
"""

from __future__ import annotations

import time

from rules.badbones import GAME
from rules.core.play import random_game

NAMES = ["Alice", "Bob", "Carla", "Dmitri", "Eve", "Faustina"]


def games_per_second(
    seats: int, seconds: float = 3.0, options: dict[str, object] | None = None
) -> tuple[float, float]:
    """(games per CPU second, average steps per game) of random legal games for ``seconds`` of
    CPU time."""
    start = time.process_time()
    games = steps = 0
    while time.process_time() - start < seconds:
        _, n, _ = random_game(GAME, seats, games, options, keep_events=False, validate=False)
        games += 1
        steps += n
    elapsed = time.process_time() - start
    return games / elapsed, steps / games


def render_figures(
    seats: int, board: bool = False, repeat: int = 10, options: dict[str, object] | None = None
) -> tuple[float, int]:
    """(milliseconds, bytes) to draw the table (or one board) of a finished random game (with
    ``market``: of a fresh advanced game, the Market open)."""
    from render.badbones import render_board, render_table

    if options and options.get("market"):
        options = {k: v for k, v in options.items() if k != "market"}
        state = GAME.new_game(seats, options, 7)
    else:
        state, _, _ = random_game(GAME, seats, 7, options)
    view = GAME.view(state, 0 if board else None)
    draw = render_board if board else render_table
    draw(view, NAMES[:seats], "en")  # warm the font cache
    start = time.perf_counter()
    for _ in range(repeat):
        png = draw(view, NAMES[:seats], "en")
    return (time.perf_counter() - start) / repeat * 1000, len(png)


def main() -> None:
    print("Bad Bones benchmark")
    print(f"{'what':<52}{'figure':>14}")
    runs: list[tuple[int, dict[str, object] | None]] = [
        (4, None),
        (4, {"choices": "auto"}),
        (6, None),
        (1, None),
        (4, {"advanced": True}),
        (4, {"chiefs": True}),
        (4, {"advanced": True, "cooperative": True, "chiefs": True}),
    ]
    for seats, options in runs:
        rate, steps = games_per_second(seats, 2.0, options)
        label = f"random games/CPU s, {seats} seat(s)" + (
            " "
            + "+".join(
                "coop" if k == "cooperative" else str(v) if k == "choices" else k
                for k in options
                for v in [options[k]]
            )
            if options
            else ""
        )
        target = "  floor ≥ 50/s" if (seats, options) == (4, None) else ""
        print(f"{label:<52}{rate:>10.0f} /s   ({steps:.0f} actions/game){target}")
    for seats in (6, 4, 2):
        ms, size = render_figures(seats)
        target = "  target ≤ 120 ms, ≤ 400 KB" if seats == 6 else ""
        print(f"{f'table, {seats} players':<52}{ms:>10.0f} ms   {size / 1024:.0f} KB{target}")
    ms, size = render_figures(3, board=True)
    print(f"{'one board (render_board)':<52}{ms:>10.0f} ms   {size / 1024:.0f} KB")
    ms, size = render_figures(6, options={"advanced": True, "market": True})
    print(f"{'table, 6 players, Market open':<52}{ms:>10.0f} ms   {size / 1024:.0f} KB")
    all_on: dict[str, object] = {"advanced": True, "cooperative": True, "chiefs": True}
    ms, size = render_figures(6, options=all_on)
    print(f"{'table, 6 players, all options':<52}{ms:>10.0f} ms   {size / 1024:.0f} KB")


if __name__ == "__main__":
    main()
