"""/game replay and the automatic replay through the service: one animated image, a frame per
picture the channel was shown, under Discord's 10 MB; refusals in words."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator

import pytest
from PIL import Image
from PIL.WebPImagePlugin import WebPImageFile

from bot.service import Place, Reply, Service
from bot.store import repository as repo
from render.replay import MAX_BYTES
from tests.conftest import ALICE, BOB, HERE, MOD, Clock
from tests.support.replies import private
from tests.support.tiny import Tiny


@pytest.fixture
async def drawing(database_url: str, clock: Clock, tiny: Tiny) -> AsyncIterator[Service]:
    svc = await Service.open(database_url, clock=clock, render=True)
    yield svc
    await svc.close()


async def short_zvv(service: Service, clock: Clock) -> tuple[int, int, list[Reply]]:
    """A three-round Zombies vs Vampires game played out by default moves at their deadlines.
    Returns the game's id, how many pictures the channel was shown, and the last replies."""
    await service.new_game(ALICE, HERE, "zvv", {"round_limit": 3})
    await service.join(BOB, HERE)
    start = await service.start(ALICE, HERE)
    shown = sum(1 for post in start.public if post.message.image is not None)
    async with service.sessions() as session:
        row = await repo.open_game(session, HERE.channel_id)
        assert row is not None
        game_id = row.id
    for _ in range(200):
        clock.now += 2 * 86400
        out = await service.run_deadlines()
        shown += sum(
            1
            for post in out
            if post.message.image is not None and post.message.image.filename.endswith(".png")
        )
        async with service.sessions() as session:
            row = await repo.game_by_id(session, game_id)
            assert row is not None
            if row.status == "finished":
                return game_id, shown, [Reply(public=out)]
    pytest.fail("the game did not end")


def frames_of(data: bytes) -> tuple[int, tuple[int, int]]:
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "WEBP" and isinstance(image, WebPImageFile) and image.is_animated
        return image.n_frames, image.size


async def test_the_channel_setting_posts_the_replay_with_the_closing_message(
    drawing: Service, clock: Clock
) -> None:
    on = await drawing.settings(MOD, HERE, replay=True)
    assert on.ok and "animation" in private(on)
    game_id, shown, (last,) = await short_zvv(drawing, clock)
    animations = [
        o for o in last.public if o.message.image and o.message.image.filename.endswith(".webp")
    ]
    (posted,) = animations
    assert posted.channel_id == HERE.channel_id
    assert f"game {game_id}" in str(posted.message.text)
    image = posted.message.image
    assert image is not None and image.filename == f"partida-zvv-{game_id}.webp"
    count, (width, _) = frames_of(image.data)
    assert count == shown, "one frame for each picture the channel was shown"
    assert width <= 800 and len(image.data) <= MAX_BYTES
    closing = last.public.index(posted) - 1
    assert "🏆" in last.public[closing].message.whole, "after the closing message"

    # /game replay: the same game again, the same file (the replay is a pure function).
    again = await drawing.replay_game(BOB, HERE, game_id)
    assert again.ok and f"{game_id}" in private(again)
    (out,) = again.public
    assert out.message.image is not None and out.message.image.data == image.data


async def test_without_the_setting_no_replay_and_the_command_refuses_in_words(
    drawing: Service, clock: Clock
) -> None:
    game_id, _, (last,) = await short_zvv(drawing, clock)
    assert not any(
        o.message.image and o.message.image.filename.endswith(".webp") for o in last.public
    )
    for wrong in (game_id + 1, "abc", -3):
        refused = await drawing.replay_game(ALICE, HERE, wrong)
        assert not refused.ok and refused.public == [] and "no game" in private(refused)
    elsewhere = await drawing.replay_game(ALICE, Place(HERE.channel_id, 999), game_id)
    assert not elsewhere.ok, "another server's game is not shown"
    private_room = await drawing.replay_game(
        ALICE, Place(HERE.channel_id + 1, HERE.guild_id), game_id
    )
    assert not private_room.ok and private_room.public == [], (
        "nor another channel's: it may be private"
    )
    assert f"no game {game_id} in this channel" in private(private_room)
    await drawing.new_game(ALICE, HERE, "zvv", {})
    async with drawing.sessions() as session:
        lobby = await repo.open_game(session, HERE.channel_id)
        assert lobby is not None
    waiting = await drawing.replay_game(ALICE, HERE, lobby.id)
    assert not waiting.ok and "not started" in private(waiting)
    assert not (await drawing.settings(BOB, HERE, replay=True)).ok, "host or Manage Channels"
    off = await drawing.settings(ALICE, HERE, replay=False)
    assert off.ok and "no longer" in private(off), "the host of the open game may"


async def test_the_replay_of_a_game_not_ended_does_not_say_it_runs_to_the_end(
    service: Service,
) -> None:
    """Play-test: `/game replay` of the game being played (and of a cancelled one) was posted
    as "The whole game …, in pictures from the opening table to the end": it has no end."""
    await service.new_game(ALICE, HERE, "zvv", {"size": 9})
    await service.join(BOB, HERE)
    await service.start(ALICE, HERE)
    async with service.sessions() as session:
        row = await repo.open_game(session, HERE.channel_id)
        assert row is not None
    for step in ("in play", "cancelled"):
        if step == "cancelled":
            assert (await service.cancel(ALICE, HERE)).ok
        [posted] = (await service.replay_game(ALICE, HERE, row.id)).public
        said = str(posted.message.text)
        assert "to the end" not in said and "unfinished" in said, (step, said)
