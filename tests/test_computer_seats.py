"""Computer players at a table of people: computer seats, the autopilot of absent players, and
taking a seat over, through the service on a real database (the clock is the test's)."""

from __future__ import annotations

import pytest

from bot.service import Actor, Outgoing, Service
from bot.service.match import Match, computer_plays, plain_names
from bot.store import repository as repo
from bot.store.models import ACTIVE, FINISHED
from rules.core.policy import choose
from tests.conftest import ALICE, BOB, CAROL, HERE, MOD, Clock
from tests.support.chat import standing
from tests.support.commands import command_for
from tests.support.replies import messages, private
from tests.support.rows import game_at

# What it proves does not depend on the database: SQLite only (tests/conftest.py).
pytestmark = pytest.mark.any_database

DAVE = Actor(4, "Dave")
ERIN = Actor(5, "Erin")
MISSED = "has missed their deadlines"


async def awaited(service: Service, *people: Actor) -> tuple[Actor, Actor]:
    """Who of two players is asked first (the seed decides who starts), and the other."""
    row = await game_at(service, HERE)
    match = Match.of(row)
    first = next(iter(match.engine.pending(match.state)))
    return people[first], people[1 - first]


async def until_a_person_is_awaited(service: Service, clock: Clock) -> list[str]:
    """Let the computer seats play (each a moment after it is asked) until a person is asked."""
    out: list[str] = []
    for _ in range(200):
        row = await game_at(service, HERE)
        if row.status != ACTIVE:
            return out
        pending = Match.of(row).engine.pending(Match.of(row).state)
        if any(not computer_plays(s) and s.seat in pending for s in row.seats):
            return out
        clock.now += service.computer_delay
        out += messages(await service.run_deadlines())
    raise AssertionError("the computers never handed the turn back")


# --------------------------------------------------------------------------- computer seats


async def test_the_host_seats_computer_players_who_play_their_turns(
    service: Service, clock: Clock
) -> None:
    assert (await service.new_game(ALICE, HERE, "farkle", {})).ok
    not_host = await service.add_bot(BOB, HERE, "easy")
    assert not not_host.ok and "host" in private(not_host)
    assert "Choose a level" in private(await service.add_bot(ALICE, HERE, "grandmaster"))
    added = await service.add_bot(ALICE, HERE, "easy")
    assert added.ok and "👥 2/5: Alice, 🤖 Easy 1" in messages(added.public)[0], "the lobby, edited"
    assert (await service.add_bot(MOD, HERE)).ok, "Manage Channels may seat one too; normal"
    status = private(await service.status(BOB, HERE))
    assert "🤖 Easy 1 — computer player" in status and "🤖 Normal 2 — computer player" in status
    # The pictures' fonts have no emoji: there the bot mark is written out.
    assert plain_names(await game_at(service, HERE)) == ["Alice", "Bot Easy 1", "Bot Normal 2"]

    started = await service.start(ALICE, HERE)
    assert started.ok
    phase = started.public[0].message
    assert set(phase.mentions) <= {ALICE.user_id}, "a computer player is never pinged"
    # The computers who sit before Alice in this game's order play first (the seed decides who
    # starts), then Alice plays her turn to its end, then the computers again.
    played = await until_a_person_is_awaited(service, clock)
    waited = False
    for _ in range(20):  # Alice's turns (and brawls), each followed by the computers' turns
        text = "\n".join(played)
        if "🤖 Easy 1" in text and "🤖 Normal 2" in text:
            break
        for _ in range(100):
            row = await game_at(service, HERE)
            match = Match.of(row)
            if 0 not in match.engine.pending(match.state):
                break
            action = choose(match.engine, match.state, 0, "easy")
            command, args = command_for(match.engine, action)
            assert (await service.act(ALICE, HERE, "farkle", command, dict(args))).ok
        if not waited:
            nothing_yet = await service.run_deadlines()
            assert nothing_yet == [], "the computer waits a moment before it plays"
            waited = True
        played += await until_a_person_is_awaited(service, clock)
    text = "\n".join(played)
    assert "🤖 Easy 1" in text and "🤖 Normal 2" in text
    assert "ran out of time" not in text
    async with service.sessions() as session:
        log = await repo.action_log(session, (await game_at(service, HERE)).id)
    assert {e.seat for e in log if e.by_default} == {1, 2}, "their moves are in the log"
    row = await game_at(service, HERE)
    assert await service.state_from_log(row.id) == row.state


async def test_a_game_of_only_computer_players_does_not_start(service: Service) -> None:
    assert (await service.new_game(ALICE, HERE, "zvv", {})).ok
    assert (await service.add_bot(ALICE, HERE, "normal")).ok
    assert (await service.add_bot(ALICE, HERE, "easy")).ok
    left = await service.leave(ALICE, HERE)
    assert left.ok and "cancelled" in messages(left.public)[0], "no person is left to play"
    assert "no game" in private(await service.status(BOB, HERE)).lower()


async def test_the_tiny_test_game_has_no_computer_player(service: Service) -> None:
    assert (await service.new_game(ALICE, HERE, "tiny", {})).ok
    assert "has no computer player" in private(await service.add_bot(ALICE, HERE, "easy"))


# --------------------------------------------------------------------------- autopilot


async def test_four_absent_players_the_game_still_ends_each_switch_announced_once(
    service: Service, clock: Clock
) -> None:
    people = (ALICE, BOB, CAROL, DAVE)
    assert (await service.new_game(ALICE, HERE, "zvv", {"size": 9, "round_limit": 6})).ok
    for person in people[1:]:
        assert (await service.join(person, HERE)).ok
    assert (await service.start(ALICE, HERE)).ok
    sent: list[Outgoing] = []
    for _ in range(2000):
        row = await game_at(service, HERE)
        if row.status == FINISHED:
            break
        due = await service.next_deadline()
        assert due is not None, "a game in play always has a deadline"
        clock.now = max(clock.now, due)
        sent += await service.run_deadlines()
    else:
        raise AssertionError("the game did not end")
    # A turn's message tells its whole turn, edit after edit: each line counts once.
    shown = standing(sent)
    told = [line for message in shown for line in message.splitlines()]
    for person in people:
        switched = [m for m in told if f"{person.display_name} {MISSED}" in m]
        assert len(switched) == 1, f"{person.display_name}'s switch is announced once"
        timed_out = [m for m in told if f"{person.display_name} ran out of time" in m]
        assert len(timed_out) == 2, "two missed deadlines, then the computer plays the seat"
    assert any("Winner" in m or "Nobody" in m for m in shown[-2:])
    assert all(s.autopilot for s in row.seats)


async def test_a_missed_deadline_plays_the_computer_move_and_the_player_comes_back(
    service: Service, clock: Clock
) -> None:
    # Without autoroll, so that the roll is the first player's own (missed) step.
    assert (await service.new_game(ALICE, HERE, "zvv", {"size": 9, "autoroll": False})).ok
    assert (await service.join(BOB, HERE)).ok
    assert "deadlines before the computer takes over a seat: 2" in private(
        await service.settings(BOB, HERE)
    )
    assert not (await service.settings(BOB, HERE, misses=1)).ok, "the host's setting"
    assert "between 1 and 20" in private(await service.settings(ALICE, HERE, misses=0))
    assert "takes over a seat: 1" in private(await service.settings(ALICE, HERE, misses=1))
    assert (await service.start(ALICE, HERE)).ok
    first, other = await awaited(service, ALICE, BOB)
    name = first.display_name
    clock.now += 25 * 3600  # the first player's deadline passes
    out = messages(await service.run_deadlines())
    assert any(f"{name} ran out of time; the computer played for them" in m for m in out)
    assert any(f"{name} {MISSED}" in m for m in out), "one miss is enough in this channel"
    async with service.sessions() as session:
        log = await repo.action_log(session, (await game_at(service, HERE)).id)
    assert log[-1].action["type"] == "roll", "a real move (the roll), not nothing"
    # On autopilot, the next step of the turn comes a moment later, quietly.
    clock.now += service.computer_delay
    quiet = messages(await service.run_deadlines())
    assert quiet and not any("ran out of time" in m for m in quiet)
    assert "away: the computer plays" in private(await service.status(other, HERE))
    # The other is asked now; the first looks at the table: back, and the seat theirs again.
    back = await service.status(first, HERE)
    assert any(f"{name} is back" in m for m in messages(back.public))
    assert "away" not in private(await service.status(other, HERE))
    again = await service.status(first, HERE)
    assert not again.public, "announced once"


async def test_a_player_who_leaves_is_played_by_the_computer_until_back(
    service: Service, clock: Clock
) -> None:
    assert (await service.new_game(ALICE, HERE, "zvv", {"size": 9})).ok
    assert (await service.join(BOB, HERE)).ok
    assert (await service.start(ALICE, HERE)).ok
    first, other = await awaited(service, ALICE, BOB)
    name = first.display_name
    left = await service.leave(first, HERE)
    assert f"{name} left the game: the computer plays their seat" in messages(left.public)[0]
    assert "away: the computer plays" in private(await service.status(other, HERE))
    played = await until_a_person_is_awaited(service, clock)
    assert any(f"{name} rolls" in m for m in played), "the computer played their turn"
    refused = await service.act(first, HERE, "zvv", "roll", {})  # not their turn: refused
    assert not refused.ok and refused.public == [], "bad input changes nothing, not even that"
    assert "away: the computer plays" in private(await service.status(other, HERE))
    back = await service.status(first, HERE)
    assert any(f"{name} is back" in m for m in messages(back.public))
    assert "away" not in private(await service.status(other, HERE))


# --------------------------------------------------------------------------- replacing


async def test_a_new_person_takes_over_a_seat_mid_game(service: Service, clock: Clock) -> None:
    assert (await service.new_game(ALICE, HERE, "zvv", {"size": 9})).ok
    assert (await service.join(BOB, HERE)).ok
    assert (await service.start(ALICE, HERE)).ok
    assert not (await service.replace(BOB, HERE, ALICE.user_id, ERIN)).ok, "host or manager"
    assert "already has a seat" in private(await service.replace(ALICE, HERE, BOB.user_id, ALICE))
    assert "not playing" in private(await service.replace(ALICE, HERE, DAVE.user_id, ERIN))
    replaced = await service.replace(MOD, HERE, ALICE.user_id, ERIN)
    assert replaced.ok
    announce = replaced.public[0].message
    assert "Erin takes over the seat of Alice" in str(announce.text)
    assert announce.mentions == (ERIN.user_id,)
    refused = await service.act(ALICE, HERE, "zvv", "roll", {})
    assert "You are not playing in this game" in private(refused)
    first, _ = await awaited(service, ERIN, BOB)
    assert (await service.act(first, HERE, "zvv", "roll", {})).ok, "Erin plays seat 1 now"
    row = await game_at(service, HERE)
    assert row.host_id == ERIN.user_id, "the host's seat came with the host's rights"
    assert [s.display_name for s in row.seats] == ["Erin", "Bob"]
    status = private(await service.status(BOB, HERE))
    assert "1. Erin (host)" in status


# --------------------------------------------------------------------------- ZvV autoroll


async def test_zvv_rolls_for_you_when_rolling_is_your_only_move(
    service: Service, clock: Clock
) -> None:
    assert (await service.new_game(ALICE, HERE, "zvv", {"size": 9})).ok
    assert (await service.join(BOB, HERE)).ok
    started = await service.start(ALICE, HERE)
    first, other = await awaited(service, ALICE, BOB)
    phase = started.public[0].message
    # The first turn's message names and pings its player; the roll, played at once, edits it.
    assert phase.mentions == (first.user_id,) and not phase.buttons
    rolled = messages(await service.run_deadlines())  # at once: no time passes
    assert any(f"{first.display_name} rolls" in m for m in rolled)
    assert any(
        f"{first.display_name}: " in m and "move a pawn" in m.lower() for m in rolled
    ) or any("wall" in m.lower() for m in rolled), "asked what to do with the roll"
    assert not any("ran out of time" in m for m in rolled)
    async with service.sessions() as session:
        row = await game_at(service, HERE)
        due = await repo.deadlines_of(session, row.id)
        log = await repo.action_log(session, row.id)
    assert [e.action["type"] for e in log] == ["roll"] and log[0].by_default
    assert (first_seat := log[0].seat, "default") in due, "their turn's deadline still holds"
    assert due[(first_seat, "default")].due_at == clock.now + 24 * 3600
    assert await service.state_from_log(row.id) == row.state


async def test_zvv_without_autoroll_waits_for_the_roll(service: Service, clock: Clock) -> None:
    assert (await service.new_game(ALICE, HERE, "zvv", {"size": 9, "autoroll": False})).ok
    assert (await service.join(BOB, HERE)).ok
    started = await service.start(ALICE, HERE)
    assert "Roll the action die" in str(started.public[0].message.text)
    assert await service.run_deadlines() == []


async def test_zvv_a_move_and_the_next_players_roll_are_one_message(
    service: Service, clock: Clock
) -> None:
    """The next player's roll follows from the move at once: the channel reads the move, the
    roll and what the next player is asked in one message, not one message for each."""
    assert (await service.new_game(ALICE, HERE, "zvv", {"size": 9})).ok
    assert (await service.join(BOB, HERE)).ok
    assert (await service.start(ALICE, HERE)).ok
    await service.run_deadlines()  # the first player's roll
    first, other = await awaited(service, ALICE, BOB)
    row = await game_at(service, HERE)
    match = Match.of(row)
    action = choose(match.engine, match.state, ALICE_OR_BOB[first.user_id], "normal")
    command, args = command_for(match.engine, action)
    moved = await service.act(first, HERE, "zvv", command, dict(args))
    assert moved.ok
    (post,) = moved.public
    text = str(post.message.whole)
    assert f"{other.display_name} rolls" in text, "the next roll, in the same message"
    assert post.message.mentions == (other.user_id,), "the next player is pinged once"
    async with service.sessions() as session:
        log = await repo.action_log(session, row.id)
    assert [(e.seat, e.action["type"], e.by_default) for e in log[1:]] == [
        (ALICE_OR_BOB[first.user_id], action.to_json()["type"], False),
        (ALICE_OR_BOB[other.user_id], "roll", True),
    ], "each step its own entry in the log"
    assert await service.run_deadlines() == [], "nothing left to play a moment later"
    assert await service.state_from_log(row.id) == (await game_at(service, HERE)).state


ALICE_OR_BOB = {ALICE.user_id: 0, BOB.user_id: 1}


async def test_no_autopilot_notice_follows_the_closing_message_of_a_game_a_miss_ended(
    service: Service, clock: Clock
) -> None:
    # Bob's last missed deadline was also the game's last move: under the closing message the
    # channel read "🤖 Bob has missed their deadlines: the computer plays their seat until they
    # send any command in this game", of a game that was over.
    assert (await service.new_game(ALICE, HERE, "tiny", {"rounds": 1})).ok
    assert (await service.join(BOB, HERE)).ok
    assert (await service.settings(ALICE, HERE, misses=1)).ok
    assert (await service.start(ALICE, HERE)).ok
    for player, amount in ((ALICE, 3), (BOB, 1)):
        assert (await service.act(player, HERE, "tiny", "bid", {"amount": amount})).ok
    assert (await service.act(ALICE, HERE, "tiny", "pass", {})).ok
    clock.now += 3 * 24 * 3600  # Bob never passes: the computer makes the last move
    said = [str(o.message.text) for o in await service.run_deadlines()]
    async with service.sessions() as session:
        (game,) = await repo.finished_games(session, HERE.channel_id, limit=1)
    assert game.status == FINISHED
    assert said and not any("missed their deadlines" in s for s in said), said


async def test_a_missed_deadline_whose_move_ends_the_game_puts_nobody_on_autopilot(
    service: Service, clock: Clock
) -> None:
    """Play-test: a FUSE bomb's time ran out while Alice was away; the computer's move for her
    second missed deadline ended the game ("BOOM"), and the channel was then told that the
    computer plays her seat "until she sends any command in this game", of a game over."""
    assert (await service.new_game(ALICE, HERE, "fuse", {})).ok
    assert (await service.start(ALICE, HERE)).ok
    for _ in range(5):
        clock.now += 25 * 3600  # her deadline passes (and with it, the bomb's whole time)
        out = messages(await service.run_deadlines())
        if (await game_at(service, HERE)).status == FINISHED:
            break
    assert (await game_at(service, HERE)).status == FINISHED
    assert any("BOOM" in m for m in out), out
    assert not any(MISSED in m for m in out), out


async def test_a_host_who_handed_over_their_seat_is_told_who_may_act_not_a_false_reason(
    service: Service,
) -> None:
    """Play-test: Carol opened the game and handed her seat (and with it the host's role) to
    Dave; her kick was refused in Spanish with "Solo quien creó la partida…", which she did."""
    assert (await service.new_game(CAROL, HERE, "zvv", {"size": 9})).ok
    assert (await service.join(BOB, HERE)).ok
    assert (await service.start(CAROL, HERE)).ok
    assert (await service.replace(CAROL, HERE, CAROL.user_id, DAVE)).ok
    said = private(await service.kick(CAROL, HERE, BOB.user_id))
    assert "Solo quien organiza la partida" in said and "creó" not in said, said
