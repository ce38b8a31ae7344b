"""Replays (render/replay.py): a game rebuilt from its seed and action log, one frame per picture
the channel was shown, drawn from public views only, as an animated WebP that fits Discord."""

from __future__ import annotations

import io
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops
from PIL.WebPImagePlugin import WebPImageFile

from bot.service import Service
from bot.store import repository as repo
from render import render_board, table_image
from render.replay import (
    MAX_BYTES,
    MAX_FRAMES,
    MIN_FRAMES,
    LogEntry,
    Shot,
    animate,
    caption,
    choose,
    shots,
)
from rules.core import Action, RulesError, get_game
from rules.core.play import play_game, random_legal
from tests.conftest import ALICE, BOB, HERE, Clock
from tests.support.registered import generic_games

NAMES = ["Alice", "Bob", "Carol", "Dave", "Eve"]


def recorded_game(
    kind: str, seats: int, seed: int, options: Mapping[str, Any] | None = None
) -> list[LogEntry]:
    """A random legal game's log, as the service stores it: (seat, action JSON, time)."""
    game = get_game(kind)
    log: list[LogEntry] = []

    def played(seat: int, action: Action, now: float) -> None:
        log.append((seat, action.to_json(), now))

    play_game(
        game,
        seats,
        seed,
        random_legal(game),
        salt=0,
        options=options,
        start=1_800_000_000.0,
        draw_lone_seat=True,
        played=played,
    )
    return log


def frames(data: bytes) -> list[Image.Image]:
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "WEBP" and isinstance(image, WebPImageFile)
        out = []
        for index in range(image.n_frames):
            image.seek(index)
            out.append(image.convert("RGB"))
        return out


def same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and ImageChops.difference(a, b).getbbox() is None


# --------------------------------------------------------------------- one frame per picture


async def test_a_replay_has_one_frame_for_each_picture_the_channel_was_shown(
    tmp_path: Path, clock: Clock
) -> None:
    # A whole (short) Zombies vs Vampires game through the service, every move a default at
    # its deadline: count the pictures the channel got, then replay the stored log.
    service = await Service.open(
        f"sqlite+aiosqlite:///{tmp_path / 'r.db'}", clock=clock, render=True
    )
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
        shown += sum(1 for post in await service.run_deadlines() if post.message.image is not None)
        async with service.sessions() as session:
            row = await repo.game_by_id(session, game_id)
            assert row is not None
            if row.status == "finished":
                log = [(a.seat, a.action, a.at) for a in await repo.action_log(session, game_id)]
                seed, options = row.seed, row.options
                break
    else:
        pytest.fail("the game did not end")
    await service.close()
    assert shown >= 6, "the opening table and every turn were drawn"

    data = animate("zvv", 2, options, seed, log, NAMES[:2], "en")

    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "WEBP" and isinstance(image, WebPImageFile)
        assert image.is_animated
        assert image.n_frames == shown
    assert len(shots("zvv", 2, options, seed, log)) == shown


def test_the_frames_are_the_public_pictures_at_each_point_with_a_caption_band() -> None:
    # The first moves of a game (a replay of a game in progress ends on its current position).
    log = recorded_game("farkle", 2, seed=4)[:12]
    pictures = shots("farkle", 2, None, 4, log)
    assert len(pictures) <= MAX_FRAMES, "short enough that nothing is dropped"
    # Wide enough for the tables at full size, so that each can be compared pixel for pixel.
    data = animate("farkle", 2, None, 4, log, NAMES[:2], "en", max_width=1200)
    got = frames(data)
    assert len(got) == len(pictures)
    assert pictures[-1].view == _public_frames_at("farkle", 2, 4, log)[-1]
    for shot, frame in zip(pictures, got, strict=True):
        table = table_image("farkle", shot.view, NAMES[:2], "en").convert("RGB")
        assert frame.width == table.width
        assert same(frame.crop((0, 40, table.width, 40 + table.height)), table)
    with Image.open(io.BytesIO(data)) as image:
        image.seek(len(got) - 1)
        image.load()  # (a frame's duration is read with the frame)
        assert image.info["duration"] > 1000, "the end is held"


@pytest.mark.parametrize("kind", generic_games())
def test_every_game_replays_its_first_moves_ending_on_the_table_as_it_stands(kind: str) -> None:
    """Any game (the test games too): the replay of its first moves has a frame per picture
    the channel was shown, the last one the public table after the last move."""
    game = get_game(kind)
    seats = max(game.min_seats, min(2, game.max_seats))
    log = recorded_game(kind, seats, seed=5)[:MOVES]
    pictures = shots(kind, seats, None, 5, log)
    assert pictures[-1].view == _public_frames_at(kind, seats, 5, log)[-1]
    got = frames(animate(kind, seats, None, 5, log, NAMES[:seats], "es", max_width=1400))
    assert len(got) == min(len(pictures), MAX_FRAMES)
    table = table_image(kind, pictures[-1].view, NAMES[:seats], "es").convert("RGB")
    assert same(got[-1].crop((0, 40, table.width, 40 + table.height)), table)


MOVES = 16  # the first moves of a replayed game (a game in progress ends where it stands)


# --------------------------------------------------------------------- long games and limits


@pytest.fixture(scope="module")
def long_zvv() -> tuple[list[LogEntry], bytes]:
    """A random 4-player Zombies vs Vampires game, which runs to its 200-round limit, and its
    replay with the default limits."""
    log = recorded_game("zvv", 4, seed=1)
    return log, animate("zvv", 4, None, 1, log, NAMES[:4], "en")


def test_a_200_round_game_fits_the_upload_limit_in_the_frame_budget(
    long_zvv: tuple[list[LogEntry], bytes],
) -> None:
    log, data = long_zvv
    pictures = shots("zvv", 4, None, 1, log)
    assert pictures[-1].view["round"] == 200, "random play runs to the round limit"
    assert len(pictures) > 4 * MAX_FRAMES

    assert len(data) <= MAX_BYTES
    with Image.open(io.BytesIO(data)) as image:
        assert isinstance(image, WebPImageFile), "a WebP"
        assert image.n_frames == MAX_FRAMES
        assert image.width <= 800


def test_over_the_limit_it_is_encoded_again_smaller_until_it_fits(
    long_zvv: tuple[list[LogEntry], bytes],
) -> None:
    log, roomy = long_zvv
    limit = len(roomy) // 8  # roomy has MAX_FRAMES frames, lossless
    tight = animate("zvv", 4, None, 1, log, NAMES[:4], "en", max_bytes=limit, max_frames=12)
    assert len(tight) <= limit
    with Image.open(io.BytesIO(tight)) as image:
        assert isinstance(image, WebPImageFile), "a WebP"
        # Lossy alone is not enough here: frames are dropped, down to the floor at most.
        assert MIN_FRAMES <= image.n_frames < 12


def test_a_limit_nothing_fits_in_is_an_error_not_a_broken_file() -> None:
    log = recorded_game("farkle", 2, seed=4)[:6]
    with pytest.raises(ValueError):
        animate("farkle", 2, None, 4, log, NAMES[:2], "en", max_bytes=100)


def _shot(number: int, total: int, handover: bool = False) -> Shot:
    return Shot({}, number, total, number in (1, total), handover, number == total)


def test_dropping_keeps_the_first_and_last_then_the_handovers_evenly() -> None:
    handovers = {10, 20, 30, 40, 50, 60, 70, 80, 90}
    pictures = [_shot(n, 100, n in handovers) for n in range(1, 101)]

    some = [s.number for s in choose(pictures, 5)]
    assert some[0] == 1 and some[-1] == 100
    assert set(some[1:-1]) <= handovers and len(some) == 5
    assert some == sorted(some)
    # The middle of each third of the hand-overs: spread over the game, none crowding an end.
    assert some[1:-1] == [20, 50, 80]

    more = [s.number for s in choose(pictures, 20)]
    assert len(more) == 20 and handovers < set(more), "every handover, then the others"
    assert choose(pictures[:7], 20) == pictures[:7], "a short game loses nothing"


# --------------------------------------------------------------------- hidden information


def _public_frames_at(kind: str, seats: int, seed: int, log: list[LogEntry]) -> list[Any]:
    """The public view after each action of ``log`` (the test's own replay)."""
    game = get_game(kind)
    state = game.new_game(seats, None, seed)
    out = [game.view(state, None)]
    for seat, data, at in log:
        game.play(state, seat, game.action_from_json(data), at)
        out.append(game.view(state, None))
    return out


def test_a_secret_trap_waiting_for_the_others_is_in_no_frame() -> None:
    # Bad Bones: the heroes move, then Alice places her trap in secret; Bob and Carol have not
    # placed theirs. The log ends there (a replay of a game in progress).
    moves = [
        (0, {"type": "move", "direction": "S"}),
        (1, {"type": "move", "direction": "SE"}),
        (2, {"type": "move", "direction": "E"}),
        (0, {"type": "place", "trap": "wall", "square": "B3", "orientation": "/"}),
    ]
    log: list[LogEntry] = [(seat, action, 1000.0 + i) for i, (seat, action) in enumerate(moves)]
    game = get_game("badbones")
    state = game.new_game(3, None, 7)
    for seat, action, at in log:
        game.play(state, seat, game.action_from_json(action), at)
    assert game.view(state, 0)["my_submission"]["square"] == "B3", "Alice's trap is pending"
    assert set(game.pending(state)) == {1, 2}

    pictures = shots("badbones", 3, None, 7, log)
    got = frames(animate("badbones", 3, None, 7, log, NAMES[:3], "en", max_width=1400))

    # The final position is a frame, and it is the public one: no trap shown on Alice's board.
    last = pictures[-1].view
    assert last == game.view(state, None)
    assert "my_submission" not in last and last["seat"] is None
    assert last["boards"][0]["traps"] == []
    # Every frame was drawn from the public view at its point, and is that picture.
    public = _public_frames_at("badbones", 3, 7, log)
    assert [s.view for s in pictures] == [public[0], public[3], public[4]]
    for shot, frame in zip(pictures, got, strict=True):
        table = table_image("badbones", shot.view, NAMES[:3], "en").convert("RGB")
        assert same(frame.crop((0, 40, table.width, 40 + table.height)), table)
    # Alice's own picture draws her pending trap: the secret is drawable, from her view only.
    mine = game.view(state, 0)
    unsaid = {k: v for k, v in mine.items() if k != "my_submission"}
    assert not same(
        Image.open(io.BytesIO(render_board("badbones", mine, NAMES[:3], "en"))).convert("RGB"),
        Image.open(io.BytesIO(render_board("badbones", unsaid, NAMES[:3], "en"))).convert("RGB"),
    )


def test_dragon_farkle_items_in_hand_are_in_no_frame() -> None:
    log = recorded_game("farkle", 3, seed=11)
    game = get_game("farkle")
    pictures = shots("farkle", 3, None, 11, log)
    public = _public_frames_at("farkle", 3, 11, log)
    # Items were held (privately) during the game: the private views show them.
    state = game.new_game(3, None, 11)
    held = 0
    for seat, data, at in log:
        game.play(state, seat, game.action_from_json(data), at)
        held += sum(len(game.view(state, s)["my_items"]) for s in range(3))
    assert held > 0
    for shot in pictures:
        assert shot.view in public, "each frame's view is a public view of the game"
        assert not {"my_items", "my_gained", "me"} & set(shot.view)


# --------------------------------------------------------------------- captions and bad logs


def test_the_caption_names_the_round_and_the_picture_in_both_languages() -> None:
    shot = Shot({"round": 3}, 12, 40, False, False, False)
    assert caption(shot, "en") == "Round 3 · 12/40"
    assert caption(shot, "es") == "Ronda 3 · 12/40"
    end = Shot({"turn_no": 61}, 40, 40, True, False, True)
    assert caption(end, "en") == "Turn 61 · 40/40 · Game over"
    assert caption(end, "es") == "Turno 61 · 40/40 · Fin de la partida"
    assert caption(Shot({"round": 0}, 1, 40, True, False, False), "en") == "1/40"


def test_a_log_the_engine_refuses_raises_its_rules_error() -> None:
    log: list[LogEntry] = [(0, {"type": "no such action"}, 0.0)]
    with pytest.raises(RulesError):
        animate("farkle", 2, None, 1, log, NAMES[:2], "en")
