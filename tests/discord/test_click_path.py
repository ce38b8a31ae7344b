"""One click's way through the bot: its id read once, where it arrives; after the move's
commit, one more write only (the sender's settling, which records the new table message's id
with the deliveries it settles)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.service import buttons
from bot.service.replies import Posted
from bot.store import repository as repo
from tests.discord.conftest import Bots
from tests.discord.test_play import started_tiny
from tests.fakediscord import FakeDiscord


async def test_a_click_is_decoded_once_and_its_tables_id_is_written_as_its_post_settles(
    fake: FakeDiscord, bots: Bots, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = await bots.start()
    service = bot.get_service()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    phase = await started_tiny(fake, alice, bob)
    await (await fake.click(alice, phase, "bid 3")).result()
    await fake.idle()

    decoded: list[str] = []
    decode = buttons.decode

    def counted(custom_id: str, values: list[str] | None = None) -> buttons.Press | None:
        decoded.append(custom_id)
        return decode(custom_id, values)

    monkeypatch.setattr(buttons, "decode", counted)
    settled: list[tuple[tuple[int, ...], tuple[Posted, ...]]] = []
    delivered = service.delivered

    async def settling(ids: Any, posted: Any = ()) -> None:
        settled.append((tuple(ids), tuple(posted)))
        await delivered(ids, posted)

    monkeypatch.setattr(service, "delivered", settling)
    before = len(fake.in_channel())
    await (await fake.click(bob, phase, "bid 1")).result()  # resolves the phase
    await fake.idle()

    assert decoded == [phase.buttons["bid 1"]], "the id is read once, where the click arrives"
    [table] = fake.in_channel()[before:]
    message_id = int(table.message["id"])
    [(rows, posted)] = [(ids, p) for ids, p in settled if p]
    assert [p.message_id for p in posted] == [message_id]
    assert rows, "with the deliveries it settles, in the one write the sender opens anyway"
    game_id = posted[0].slot.game_id
    async with service.sessions() as session:
        row = await repo.game_by_id(session, game_id)
    assert row is not None and row.messages is not None
    assert row.messages["phase"]["id"] == message_id, "a restart edits it"
