"""Rematch: the closing message's button opens the same table again, seats turned by one, and
it starts when every player has asked."""

from __future__ import annotations

import io

import pytest

from bot.console import Console
from bot.service import Actor, Place, Reply, Service
from bot.service.buttons import decode
from bot.service.match import Match
from bot.store import repository as repo
from rules.core import get_game
from tests.conftest import ALICE, BOB, CAROL, HERE, Clock
from tests.support.replies import private


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
    first = await service.press(BOB, HERE, decode(offer.custom_id))
    assert first.ok and "rematch" in private(first)
    (posted,) = first.public
    said = str(posted.message.text)
    assert "Rematch of Tiny, hosted by Bob" in said and "Waiting for: Carol, Alice" in said
    assert not posted.edit and posted.slot is not None and posted.slot.role == "lobby"
    assert [b.label for b in posted.message.buttons] == ["Rematch", "Leave", "Start"]
    async with service.sessions() as session:
        lobby = await repo.open_game(session, HERE.channel_id)
        assert lobby is not None and lobby.status == "lobby"
        assert lobby.options == {"rounds": 1}
        order = [s.display_name for s in sorted(lobby.seats, key=lambda s: s.seat)]
        assert order == ["Bob", "Carol", "Alice"], "the second player now begins"
    again = await service.press(BOB, HERE, decode(offer.custom_id))
    assert again.ok and "Waiting for: Carol, Alice" in str(again.public[0].message.text)
    assert again.public[0].edit, "the rematch's lobby message is edited in place"
    alice = await service.press(ALICE, HERE, decode(offer.custom_id))
    assert alice.ok and "Waiting for: Carol." in str(alice.public[0].message.text)
    last = await service.press(CAROL, HERE, decode(offer.custom_id))
    assert last.ok and "begins" in last.public[0].message.whole
    async with service.sessions() as session:
        game = await repo.open_game(session, HERE.channel_id)
        assert game is not None and game.status == "active"


async def test_rematch_refusals_and_the_host_may_start_sooner(service: Service) -> None:
    assert "no finished game" in private(await service.rematch(ALICE, HERE))
    await finished_game(service)
    stranger = await service.rematch(Actor(77, "Stranger"), HERE)
    assert not stranger.ok and "Only the players" in private(stranger)
    assert (await service.rematch(CAROL, HERE)).ok, "/game rematch: the last finished game"
    assert (await service.start(CAROL, HERE)).ok, "the asker hosts and may start at once"
    busy = await service.rematch(ALICE, HERE)
    assert not busy.ok and "already has a game" in private(busy)


async def test_a_player_may_sit_the_rematch_out_and_a_newcomer_asks_like_the_others(
    service: Service,
) -> None:
    await finished_game(service)
    assert (await service.rematch(ALICE, HERE)).ok
    out = await service.leave(CAROL, HERE)
    assert out.ok and "Waiting for: Bob." in str(out.public[0].message.text), "not for Carol"
    back = await service.rematch(CAROL, HERE)
    assert not back.ok and "/partida unirse" in private(back), "she joins again first"
    dora = Actor(4, "Dora")
    assert not (await service.rematch(dora, HERE)).ok, "not a player of the game"
    joined = await service.join(dora, HERE)
    assert "Waiting for: Bob, Dora." in str(joined.public[0].message.text)
    assert (await service.rematch(dora, HERE)).ok, "seated now: she asks like the others"
    last = await service.rematch(BOB, HERE)
    assert last.ok and "begins" in last.public[0].message.whole
    async with service.sessions() as session:
        game = await repo.open_game(session, HERE.channel_id)
        assert game is not None and game.status == "active"
        order = [s.display_name for s in sorted(game.seats, key=lambda s: s.seat)]
        assert order == ["Bob", "Alice", "Dora"]


async def test_a_rematch_asked_in_the_channel_opens_in_the_games_thread(
    service: Service, clock: Clock
) -> None:
    thread = Place(555, HERE.guild_id)
    assert (await service.new_game(ALICE, HERE, "tiny", {"rounds": 1})).ok
    async with service.sessions() as session:
        opened = await repo.open_game(session, HERE.channel_id)
        assert opened is not None
    await service.moved(opened.id, HERE.channel_id, thread.channel_id)  # as the adapter does
    assert (await service.join(BOB, thread)).ok
    assert (await service.start(ALICE, thread)).ok
    for p, amount in ((ALICE, 3), (BOB, 1)):
        assert (await service.act(p, thread, "tiny", "bid", {"amount": amount})).ok
    for p in (ALICE, BOB):
        assert (await service.act(p, thread, "tiny", "pass", {})).ok
    asked = await service.rematch(BOB, HERE)
    assert asked.ok
    (posted,) = asked.public
    assert posted.channel_id == thread.channel_id and posted.thread is None, "no new thread"
    async with service.sessions() as session:
        again = await repo.open_game(session, thread.channel_id)
        assert again is not None and again.parent_channel_id == HERE.channel_id
    clock.now += 2 * 3600  # past the finished game's archive time
    archived = [o for o in await service.run_deadlines() if o.archive]
    assert archived == [], "the thread stays open while its rematch is played there"


async def test_a_rematch_starts_when_the_last_player_who_had_not_asked_leaves(
    service: Service,
) -> None:
    await finished_game(service)
    assert (await service.rematch(ALICE, HERE)).ok
    assert (await service.rematch(BOB, HERE)).ok
    out = await service.leave(CAROL, HERE)
    assert out.ok and "dejado" in private(out), "Carol reads Spanish: she left"
    assert "begins" in out.public[0].message.whole, "the others had asked: it starts"
    async with service.sessions() as session:
        game = await repo.open_game(session, HERE.channel_id)
        assert game is not None and game.status == "active"
        assert sorted(s.display_name for s in game.seats) == ["Alice", "Bob"]


async def test_a_rematch_too_small_to_play_waits_for_a_player(
    service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    await finished_game(service)
    monkeypatch.setattr(type(get_game("tiny")), "min_seats", 2)
    assert (await service.rematch(ALICE, HERE)).ok
    assert (await service.leave(BOB, HERE)).ok
    out = await service.leave(CAROL, HERE)
    assert out.ok and "begins" not in out.public[0].message.whole, "one seat cannot play"
    # Alice, alone and asked, read "Everyone here has asked: the host may start it", and the
    # start was refused: it needs another player.
    said = str(out.public[0].message.text)
    assert "the host may start it" not in said and "Waiting for" not in said
    assert "It needs at least 2 players: others join with /game join." in said
    async with service.sessions() as session:
        lobby = await repo.open_game(session, HERE.channel_id)
        assert lobby is not None and lobby.status == "lobby"
    joined = await service.join(Actor(4, "Dora"), HERE)
    assert joined.ok and "Waiting for: Dora." in str(joined.public[0].message.text)


async def test_a_rematch_starts_when_the_host_removes_the_one_who_had_not_asked(
    service: Service,
) -> None:
    await finished_game(service)
    assert (await service.rematch(ALICE, HERE)).ok
    assert (await service.rematch(BOB, HERE)).ok
    kicked = await service.kick(ALICE, HERE, CAROL.user_id)
    assert kicked.ok and "Carol" in private(kicked)
    assert any("begins" in p.message.whole for p in kicked.public)
    async with service.sessions() as session:
        game = await repo.open_game(session, HERE.channel_id)
        assert game is not None and game.status == "active"


async def test_a_rematch_lobby_never_waits_for_a_computer_seat(service: Service) -> None:
    await finished_game(service)
    async with service.sessions() as session, session.begin():
        (game,) = await repo.finished_games(session, HERE.channel_id, limit=1)
        carol = next(s for s in game.seats if s.user_id == CAROL.user_id)
        carol.computer, carol.display_name = "easy", "🤖 Easy 3"  # the computer played her seat
    asked = await service.rematch(ALICE, HERE)
    said = str(asked.public[0].message.text)
    assert "Waiting for: Bob." in said, "never for the computer, which cannot ask"
    last = await service.rematch(BOB, HERE)
    assert last.ok and "begins" in last.public[0].message.whole


async def test_a_rematch_of_a_game_that_ended_on_hold_runs_its_deadlines(
    service: Service,
) -> None:
    # The host held the deadlines for the holidays, and the players finished the game anyway.
    assert (await service.new_game(ALICE, HERE, "tiny", {"rounds": 1})).ok
    assert (await service.join(BOB, HERE)).ok
    assert (await service.start(ALICE, HERE)).ok
    assert (await service.settings(ALICE, HERE, hold=True)).ok
    for p, amount in ((ALICE, 3), (BOB, 1)):
        assert (await service.act(p, HERE, "tiny", "bid", {"amount": amount})).ok
    for p in (ALICE, BOB):
        assert (await service.act(p, HERE, "tiny", "pass", {})).ok
    assert (await service.rematch(ALICE, HERE)).ok
    started = await service.rematch(BOB, HERE)
    assert started.ok and "begins" in started.public[0].message.whole
    async with service.sessions() as session:
        game = await repo.open_game(session, HERE.channel_id)
        assert game is not None and game.status == "active"
        assert "held_at" not in game.settings, "nobody held the new game"
        due = [d.due_at for d in (await repo.deadlines_of(session, game.id)).values()]
    assert due and all(d < service.clock() + 30 * 24 * 3600 for d in due), "deadlines run"
    shown = await service.settings(BOB, HERE, hold=False)
    assert not shown.ok or "already" in private(shown)


async def test_a_rematch_plays_its_computer_seats_as_at_any_start(
    console: tuple[Console, io.StringIO],
) -> None:
    # In the console, whose computers play at once, a rematch opened by a computer's turn sat
    # waiting: "⏳ 🤖 Easy 2: the computer plays in a moment", until someone typed /wait.
    shell, out = console
    for line in (
        "@alice /game new farkle",
        "@alice /game addbot easy",
        "@alice /game addbot easy",
        "@alice /game start",
        "@alice /game leave",  # the computers play the game out
    ):
        await shell.line(line)
    async with shell.service.sessions() as session:
        (first,) = await repo.finished_games(session, 1, limit=1)
    await shell.line("@alice /game rematch")
    async with shell.service.sessions() as session:
        game = await repo.open_game(session, 1)
    assert game is not None and game.id != first.id and game.state is not None
    match = Match.of(game)
    waiting = [s for s in game.seats if s.seat in match.engine.pending(match.state)]
    assert waiting and all(s.computer is None for s in waiting), out.getvalue()[-600:]
