"""Rematch: the closing message's button opens the same table again, seats turned by one, and
it starts when every player has asked."""

from __future__ import annotations

from bot.service import Reply, Service
from bot.store import repository as repo
from tests.conftest import ALICE, BOB, CAROL, HERE


def private(reply: Reply) -> str:
    assert reply.private is not None
    return str(reply.private.text)


async def finished_game(service: Service) -> Reply:
    assert (await service.new_game(ALICE, HERE, "tiny", {"rounds": 1})).ok
    assert (await service.join(BOB, HERE)).ok
    assert (await service.join(CAROL, HERE)).ok
    assert (await service.start(ALICE, HERE)).ok
    for p, amount in ((ALICE, 3), (BOB, 1), (CAROL, 2)):
        assert (await service.act(p, HERE, "tiny", "bid", {"amount": amount})).ok
    for p in (ALICE, BOB):
        assert (await service.act(p, HERE, "tiny", "pass", {})).ok
    return await service.act(CAROL, HERE, "tiny", "pass", {})


async def test_the_rematch_button_turns_the_seats_and_starts_when_all_asked(
    service: Service,
) -> None:
    final = await finished_game(service)
    closing = final.public[0].message
    (offer,) = [b for b in closing.buttons if b.label == "Rematch"]
    first = await service.press(BOB, HERE, offer.custom_id)
    assert first.ok and "rematch" in private(first)
    said = str(first.public[0].message.text)
    assert "Bob asks for a rematch" in said and "Waiting for: Carol, Alice" in said
    async with service.sessions() as session:
        lobby = await repo.open_game(session, HERE.channel_id)
        assert lobby is not None and lobby.status == "lobby"
        assert lobby.options == {"rounds": 1}
        order = [s.display_name for s in sorted(lobby.seats, key=lambda s: s.seat)]
        assert order == ["Bob", "Carol", "Alice"], "the second player now begins"
    again = await service.press(BOB, HERE, offer.custom_id)
    assert again.ok and "Waiting for: Carol, Alice" in str(again.public[0].message.text)
    assert (await service.press(ALICE, HERE, offer.custom_id)).ok
    last = await service.press(CAROL, HERE, offer.custom_id)
    assert last.ok and "begins" in str(last.public[0].message.text)
    async with service.sessions() as session:
        game = await repo.open_game(session, HERE.channel_id)
        assert game is not None and game.status == "active"


async def test_rematch_refusals_and_the_host_may_start_sooner(service: Service) -> None:
    assert "no finished game" in private(await service.rematch(ALICE, HERE))
    await finished_game(service)
    from bot.service import Actor

    stranger = await service.rematch(Actor(77, "Stranger"), HERE)
    assert not stranger.ok and "Only the players" in private(stranger)
    assert (await service.rematch(CAROL, HERE)).ok, "/game rematch: the last finished game"
    assert (await service.start(CAROL, HERE)).ok, "the asker hosts and may start at once"
    busy = await service.rematch(ALICE, HERE)
    assert not busy.ok and "already has a game" in private(busy)
