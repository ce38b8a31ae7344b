"""Replays through discord.py and the fake Discord: the setting, the automatic animation with
the closing message, and /game replay, each one attachment under Discord's 10 MiB."""

from __future__ import annotations

import asyncio
import io

import pytest
from PIL import Image
from PIL.WebPImagePlugin import WebPImageFile

from tests.conftest import Clock
from tests.discord.conftest import Bots
from tests.fakediscord import FakeDiscord, Sent
from tests.fakediscord.limits import MAX_ATTACHMENT


def animation(sent: Sent) -> tuple[str, bytes] | None:
    for name, data in sent.files.items():
        if name.endswith(".webp"):
            return name, data
    return None


def frame_count(data: bytes) -> int:
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "WEBP" and isinstance(image, WebPImageFile) and image.is_animated
        return int(image.n_frames)


@pytest.mark.usefixtures("quick_windows")
async def test_automatic_replay_and_the_replay_command(
    fake: FakeDiscord, bots: Bots, clock: Clock
) -> None:
    bot = await bots.start(render=True)
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    mod = fake.add_user(103, "Mod", manage=True)
    setting = await (await fake.slash(mod, "game settings", replay="on")).result()
    assert setting.ephemeral and "animation" in setting.content
    await (await fake.slash(alice, "zvv new", round_limit=3)).result()
    await (await fake.slash(bob, "game join")).result()
    await (await fake.slash(alice, "game start")).result()
    await fake.idle()
    # Nobody moves: every turn is played by default at its deadline, by the bot's own loop.
    for _ in range(200):
        clock.now += 2 * 86400
        bot.wake_deadlines()
        await asyncio.sleep(0.02)  # let the deadline loop wake (then it counts as busy)
        await fake.idle()
        if any(animation(s) for s in fake.in_channel()):
            break
    channel = fake.in_channel()
    posted = [s for s in channel if animation(s)]
    assert len(posted) == 1, "one animation, with the closing message"
    # Every picture the channel got: in a post, or in a later edit of it (a busy machine posts
    # the message at once and its picture follows as an edit).
    where = {s.channel_id for s in channel}
    shown = [*channel, *(e for e in fake.edits if e.channel_id in where)]
    pictures = {data for s in shown for n, data in s.files.items() if n.endswith(".png")}
    name, data = animation(posted[0]) or ("", b"")
    assert name.startswith("partida-zvv-") and len(data) <= MAX_ATTACHMENT
    # (Edits a moment apart are folded into one, so the channel may miss a picture a moment
    # later shown anew; the replay misses none.)
    assert frame_count(data) >= len(pictures) > 0, "a frame for every picture the channel got"
    (thread,) = fake.threads
    assert posted[0].channel_id == thread, "in the game's thread, where it was played"
    closing = channel[channel.index(posted[0]) - 1]
    assert "🏆" in closing.text, "right after the closing message"
    game_id = int(name.removeprefix("partida-zvv-").removesuffix(".webp"))

    asked = await fake.slash(bob, "game replay", game=game_id)
    answer = await asked.result()
    assert asked.deferred and answer.ephemeral and str(game_id) in answer.content
    await fake.idle()
    again = fake.in_channel()[-1]
    assert animation(again) == (name, data), "the same game, the same file"
    missing = await (await fake.slash(bob, "game replay", game=game_id + 50)).result()
    assert missing.ephemeral and "no game" in missing.content
