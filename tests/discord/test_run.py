"""The entry points' small parts."""

from __future__ import annotations

import logging

import discord
import pytest

from bot.config import from_env
from bot.discord.client import PartidaBot
from bot.discord.run import shards


def test_shards_from_the_environment() -> None:
    assert shards(from_env({})) == {}
    assert shards(from_env({"SHARD_COUNT": "4"})) == {"shard_count": 4}
    assert shards(from_env({"SHARD_COUNT": "4", "SHARD_IDS": "0, 1"})) == {
        "shard_count": 4,
        "shard_ids": [0, 1],
    }


def test_no_warning_about_voice_at_start(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # discord.py warns once a process that PyNaCl and davey are missing: voice, which the bot
    # never uses. An operator read it at every start and every `partida doctor`.
    monkeypatch.setattr(discord.VoiceClient, "warn_nacl", True)
    monkeypatch.setattr(discord.VoiceClient, "warn_dave", True)
    caplog.set_level(logging.WARNING)
    PartidaBot(sync_only=True)
    assert not [r for r in caplog.records if "voice" in r.getMessage()]
