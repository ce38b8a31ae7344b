"""``python -m bench.bench_bots``'s command line: what it measures is read from its flags (the
rows themselves are the bench's to print; nothing here plays a game)."""

from __future__ import annotations

import pytest

from bench import bench_bots


def test_help_says_what_the_bench_takes_and_plays_nothing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as stopped:
        bench_bots.main(["--help"])
    assert stopped.value.code == 0
    said = capsys.readouterr().out
    for flag in ("--games", "--seats", "--pair", "--mode"):
        assert flag in said


def test_without_flags_every_game_with_a_computer_player_is_measured() -> None:
    args = bench_bots.parse([])
    assert {"badbones", "farkle", "fuse", "zvv"} <= set(args.games_to_play)
    assert args.games == bench_bots.GAMES
    assert args.seats == [] and args.pair == [] and args.mode == []


def test_games_seats_pairs_and_modes_are_read_and_repeatable() -> None:
    args = bench_bots.parse(
        ["badbones", "fuse", "--games", "20", "--seats", "5", "--seats", "6"]
        + ["--pair", "hard:normal", "--pair", "normal:easy", "--mode", "relaxed"]
    )
    assert args.games_to_play == ["badbones", "fuse"]
    assert args.games == 20
    assert args.seats == [5, 6]
    assert args.pair == ["hard:normal", "normal:easy"]
    assert args.mode == ["relaxed"]


@pytest.mark.parametrize("argv", [["chess"], ["fuse", "--mode", "fast"], ["--games", "many"]])
def test_a_game_without_a_computer_player_or_a_bad_value_is_refused(argv: list[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        bench_bots.parse(argv)
    assert stopped.value.code == 2


def test_fuse_is_measured_in_both_modes() -> None:
    """Live against the clock, and relaxed (no clock: the deck's round limit ends the game)."""
    modes = {mode: dict(options)["mode"] for mode, (options, _) in bench_bots.TEAMS["fuse"].items()}
    assert modes == {"live": "live", "relaxed": "relaxed"}
    assert list(bench_bots.seat_counts("fuse")) == [1, 2, 3, 4, 5]
