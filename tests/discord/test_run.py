"""The entry points' small parts."""

from __future__ import annotations

from bot.discord.run import shards


def test_shards_from_the_environment() -> None:
    assert shards({}) == {}
    assert shards({"SHARD_COUNT": "4"}) == {"shard_count": 4}
    assert shards({"SHARD_COUNT": "4", "SHARD_IDS": "0, 1"}) == {
        "shard_count": 4,
        "shard_ids": [0, 1],
    }
