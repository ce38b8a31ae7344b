"""Every registered game, played a few steps through Discord with real pictures: whatever the
games send (labels, selects, images, text) must pass Discord's limits."""

from __future__ import annotations

import pytest

from rules import get_game
from tests.discord.conftest import Bots
from tests.fakediscord import FakeDiscord, Sent
from tests.support.registered import generic_games

STEPS = 4


@pytest.mark.usefixtures("quick_windows")
@pytest.mark.parametrize("game", generic_games())
async def test_a_few_steps_of_every_game(fake: FakeDiscord, bots: Bots, game: str) -> None:
    await bots.start(render=True)
    engine = get_game(game)
    seats = max(engine.min_seats, min(2, engine.max_seats))
    players = [
        fake.add_user(500 + i, f"Player{i}", locale="es-ES" if i else "en-US") for i in range(seats)
    ]
    by_id = {p.id: p for p in players}
    opened = await (await fake.slash(players[0], f"{game} new")).result()
    assert "⚠️" not in opened.content, opened.content
    for player in players[1:]:
        await (await fake.slash(player, "game join")).result()
    started = await (await fake.slash(players[0], "game start")).result()
    assert "⚠️" not in started.content, started.content
    await fake.idle()

    board = await (await fake.slash(players[0], "game board")).result()
    assert board.ephemeral
    for _step in range(STEPS):
        phase = latest_with_components(fake)
        if phase is None:
            break  # over, or waiting on typed commands only
        awaited = [
            by_id[u] for u in phase.allowed_mentions.get("users", []) if u in by_id
        ] or players
        acted = False
        for label in list(phase.buttons)[:6]:
            answer = await (await fake.click(awaited[0], phase, label)).result()
            if "⚠️" not in answer.content:
                acted = True
                break
        if not acted:
            break
        await fake.idle()
    for sent in fake.in_channel():
        for data in sent.files.values():
            assert data.startswith(b"\x89PNG")


def latest_with_components(fake: FakeDiscord) -> Sent | None:
    for sent in reversed(fake.in_channel()):
        if sent.buttons:
            return sent
    return None
