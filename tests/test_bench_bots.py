"""``python -m bench.bench_bots``'s command line: what it measures is read from its flags (the
rows themselves are the bench's to print; only the last test plays a few games)."""

from __future__ import annotations

import pytest

from bench import bench_bots, bench_coop


def test_help_says_what_the_bench_takes_and_plays_nothing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as stopped:
        bench_bots.main(["--help"])
    assert stopped.value.code == 0
    said = capsys.readouterr().out
    for flag in ("--games", "--seats", "--pair", "--mode", "--level"):
        assert flag in said


def test_without_flags_every_game_with_a_computer_player_is_measured() -> None:
    args = bench_bots.parse([])
    assert {"badbones", "farkle", "fuse", "zvv"} <= set(args.games_to_play)
    assert args.games == bench_bots.GAMES
    assert args.seats == [] and args.pair == [] and args.mode == [] and args.level == []


def test_games_seats_pairs_and_modes_are_read_and_repeatable() -> None:
    args = bench_bots.parse(
        ["badbones", "fuse", "--games", "20", "--seats", "5", "--seats", "6"]
        + ["--pair", "hard:normal", "--pair", "normal:easy", "--mode", "relaxed"]
        + ["--mode", "cooperative", "--level", "hard", "--level", "normal"]
    )
    assert args.games_to_play == ["badbones", "fuse"]
    assert args.games == 20
    assert args.seats == [5, 6]
    assert args.pair == ["hard:normal", "normal:easy"]
    assert args.mode == ["relaxed", "cooperative"]
    assert args.level == ["hard", "normal"]


@pytest.mark.parametrize(
    "argv",
    [["chess"], ["fuse", "--mode", "fast"], ["--games", "many"], ["--level", "expert"]],
)
def test_a_game_without_a_computer_player_or_a_bad_value_is_refused(argv: list[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        bench_bots.parse(argv)
    assert stopped.value.code == 2


def test_fuse_is_measured_in_both_modes() -> None:
    """Live against the clock, and relaxed (no clock: the deck's round limit ends the game)."""
    modes = {mode: dict(team.options)["mode"] for mode, team in bench_bots.TEAMS["fuse"].items()}
    assert modes == {"live": "live", "relaxed": "relaxed"}
    assert bench_bots.seat_counts("fuse") == [1, 2, 3, 4, 5]
    assert bench_bots.competitive_seats("fuse") == []


def test_bad_bones_is_measured_as_rivals_alone_and_as_a_team() -> None:
    """The basic game with 2-6 players, the solo game, the cooperative game with 2-4."""
    assert bench_bots.competitive_seats("badbones") == [2, 3, 4, 5, 6]
    teams = bench_bots.TEAMS["badbones"]
    assert bench_bots.team_seats("badbones", teams["solo"]) == [1]
    assert bench_bots.team_seats("badbones", teams["cooperative"]) == [2, 3, 4]
    assert dict(teams["cooperative"].options) == {"cooperative": True}
    assert bench_bots.seat_counts("badbones") == [1, 2, 3, 4, 5, 6]


def test_bench_coop_plays_the_team_modes_tables() -> None:
    assert bench_coop.TABLES == (
        (1, {}),
        (2, {"cooperative": True}),
        (3, {"cooperative": True}),
        (4, {"cooperative": True}),
    )


@pytest.mark.parametrize(
    ("flags", "measured"),
    [
        ([], [("badbones", 2, ""), ("badbones", 2, "cooperative")]),
        (["--pair", "hard:normal"], [("badbones", 2, "")]),
        (["--mode", "cooperative"], [("badbones", 2, "cooperative")]),
        (["--mode", "solo"], []),
        (
            ["--mode", "cooperative", "--pair", "normal:easy"],
            [("badbones", 2, ""), ("badbones", 2, "cooperative")],
        ),
    ],
)
def test_pair_and_mode_choose_the_rows(
    flags: list[str], measured: list[tuple[str, int, str]]
) -> None:
    """Without either, every row; given either, only the rows they name ("" = competitive)."""
    args = bench_bots.parse(["badbones", "--seats", "2", *flags])
    assert list(bench_bots.tables(args)) == measured


def test_a_tiny_run_prints_bad_bones_cooperative_team_rows(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bench_bots, "loop_lag", lambda name: None)  # hard decisions: not here
    bench_bots.main(
        ["badbones", "--seats", "2", "--mode", "cooperative", "--level", "normal", "--games", "2"]
    )
    said = capsys.readouterr().out
    row = next(line for line in said.splitlines() if "team of" in line)
    assert row.split()[:6] == ["badbones", "2p", "cooperative", "team", "of", "normal"]
    assert "n=2" in row and "[" in row  # the win rate's 95% interval
    assert "badbones cooperative normal  p50" in said  # the team's decision times
    assert " vs " not in said  # --mode without --pair: no competitive rows
