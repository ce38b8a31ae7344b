"""``python -m bench growth`` at a tiny size, so that it cannot rot: it grows a database of
copied real games, times every command at each size, and finds every list's plan free of
whole-table scans and of sorts of a whole channel or server. (Its figures are the bench's to
print; nothing here is timed.)"""

from __future__ import annotations

import os

import pytest

from bench import bench_growth
from bench.bench_growth import Size


@pytest.mark.parametrize("where", ["sqlite", "postgresql"])
async def test_growth_bench_grows_times_and_explains(where: str) -> None:
    url = None
    if where == "postgresql":
        url = os.environ.get("PARTIDA_TEST_PG_URL")
        if not url:
            pytest.skip("PARTIDA_TEST_PG_URL is not set")
    said: list[str] = []
    sizes = [Size("empty", 0, bench_growth.EDGE_GAMES, 30), Size("small", 250, 120, 400)]
    result = await bench_growth.run(
        sizes, 1, url, said.append, titles=(("farkle", 2), ("badbones", 3)), each=1
    )
    assert set(result.times) >= {"/game mine", "history, last page (▶)", "/game stats"}
    assert all(len(times) == len(sizes) for times in result.times.values())
    assert set(result.plans) == set(bench_growth.LISTS), "every list explained"
    if where == "sqlite":
        # (PostgreSQL's planner rightly reads a table of a few hundred rows whole: its plans
        # are the bench's to check, at a size where they mean something.)
        assert result.bad_plans == [], result.bad_plans
    assert result.bytes_a_game > 0
    text = "\n".join(said)
    assert "ratio" in text and "bytes per finished game" in text and "query plans" in text


def test_a_plan_that_scans_or_sorts_a_whole_list_is_found() -> None:
    """The checker itself: a scan, and a sort of a list index's rows, are flagged; a sort of
    a merge of limited branches is not."""
    sqlite_bad = ["2 0 SCAN games", "3 0 SEARCH games USING INDEX ix_games_parent_listed (x=?)"]
    assert bench_growth._bad(sqlite_bad, True) == ["SCAN games"]
    sorted_list = [
        "3 0 SEARCH games USING INDEX ix_games_parent_listed (parent_channel_id=?)",
        "9 0 USE TEMP B-TREE FOR ORDER BY",
    ]
    assert bench_growth._bad(sorted_list, True) == ["USE TEMP B-TREE FOR ORDER BY"]
    merged = [
        "2 0 CO-ROUTINE anon_1",
        "6 2 SEARCH games USING COVERING INDEX ix_games_channel_listed (channel_id=?)",
        "30 0 SCAN anon_1",
        "40 0 USE TEMP B-TREE FOR ORDER BY",
    ]
    assert bench_growth._bad(merged, True) == []
    unindexed = [  # the leaderboard without its index: the server's players sorted
        "3 0 SEARCH ratings USING INDEX sqlite_autoindex_ratings_1 (guild_id=? AND kind=?)",
        "9 0 USE TEMP B-TREE FOR ORDER BY",
    ]
    assert bench_growth._bad(unindexed, True) == ["USE TEMP B-TREE FOR ORDER BY"]
    a_page = [  # a page's games by id, with their seats in seat order
        "0 0 SEARCH games USING INTEGER PRIMARY KEY (rowid=?)",
        "0 0 SEARCH seats_1 USING INDEX sqlite_autoindex_seats_2 (game_id=?) LEFT-JOIN",
        "0 0 USE TEMP B-TREE FOR ORDER BY",
    ]
    assert bench_growth._bad(a_page, True) == []
    pg_bad = [
        "Sort  (cost=1..2 rows=40000 width=8)",
        "  ->  Index Scan using ix_games_parent_listed on games  (cost=1..2 rows=40000)",
    ]
    assert bench_growth._bad(pg_bad, False) == ["Sort  (cost=1..2 rows=40000 width=8)"]
    pg_merged = [
        "Limit  (cost=1..2 rows=6 width=16)",
        "  ->  Sort  (cost=1..2 rows=12 width=16)",
        "        ->  Append  (cost=1..2 rows=12 width=16)",
        "              ->  Limit  (cost=1..2 rows=6 width=16)",
        "                    ->  Index Only Scan Backward using ix_games_channel_listed on games",
    ]
    assert bench_growth._bad(pg_merged, False) == []
    assert bench_growth._bad(["Seq Scan on ratings  (cost=0..1)"], False) == [
        "Seq Scan on ratings  (cost=0..1)"
    ]
