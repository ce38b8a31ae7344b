"""Moves no public message may offer (a Dragon Farkle magic item: a button per item would tell
the channel what a player holds) are made from the player's own board, which the turn's message
opens in one click ("🎒 Your board"), through the fake Discord: offered alike to every table,
whatever anyone holds; the board, with its menus, is for the presser's eyes only."""

from __future__ import annotations

import pytest

from bot.store import repository as repo
from rules.core import get_game
from tests.discord.conftest import Bots
from tests.discord.test_quiet_turns import farkle_for_two, step
from tests.fakediscord import FakeDiscord, Sent

BOARD = "🎒 Your board"
SEED = 2026  # a game whose first roll scores (the dice to set aside are asked next)


def _menus(message: Sent) -> list[str]:
    return [o["label"] for menu in message.selects for o in menu["options"]]


async def test_the_turn_message_opens_each_players_own_board_with_their_items(
    fake: FakeDiscord, bots: Bots, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bot.service.lobby.secrets.randbits", lambda bits: SEED)
    bot, where, table, player = await farkle_for_two(fake, bots)
    other = next(u for u in fake.users.values() if u.id in (101, 102) and u.id != player.id)
    assert BOARD in table.buttons, "the turn's message points to the player's own board"
    await (await step(fake, player, table)).result()  # recruit: the dice roll
    await fake.idle()
    # The player holds a Loaded Die, usable on this roll; nobody else knows.
    engine = get_game("farkle")
    async with bot.get_service().sessions() as session, session.begin():
        row = await repo.open_game(session, where)
        assert row is not None and row.state is not None
        state = engine.load(row.state)
        seat = next(s.seat for s in row.seats if s.user_id == player.id)
        state.players[seat].items.append("loaded")
        row.state = engine.dump(state)
    rolled = fake.messages[int(table.message["id"])]
    assert BOARD in rolled.buttons and "Loaded Die" not in rolled.text, "nothing tells the item"
    posts, edits = len(fake.posted), len(fake.edits)

    mine = await (await fake.click(player, rolled, BOARD)).result()
    assert mine.ephemeral and "Your board (only you can see this)" in mine.text
    offered = [*_menus(mine), *mine.buttons]
    assert any("Loaded Die" in o or "Use an item" in o for o in offered), offered
    theirs = await (await fake.click(other, rolled, BOARD)).result()
    assert theirs.ephemeral and "Loaded Die" not in str([*_menus(theirs), *theirs.buttons])
    await fake.idle()
    assert (len(fake.posted), len(fake.edits)) == (posts, edits), "the channel saw nothing"
    fake.check()
