"""The entry points' small parts."""

from __future__ import annotations

from bot.config import from_env
from bot.discord.run import shards


def test_shards_from_the_environment() -> None:
    assert shards(from_env({})) == {}
    assert shards(from_env({"SHARD_COUNT": "4"})) == {"shard_count": 4}
    assert shards(from_env({"SHARD_COUNT": "4", "SHARD_IDS": "0, 1"})) == {
        "shard_count": 4,
        "shard_ids": [0, 1],
    }
