"""A Dragon Farkle brawl at the table: the defender is asked in a message of their own (pinged:
they must look at once, D8), which also names and pings the player who plays next (once, if
that is the defender). When the brawl ends the attacker's turn, the next turn begins in that
very message, which pinged its player: an edit, which pings nobody."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from bot.service import Actor, Place, Service, live
from bot.service.match import Match
from bot.service.narrate import events_text
from bot.service.replies import Reply
from bot.store import repository as repo
from rules.core import Event, get_game
from rules.core.policy import choose
from rules.farkle.actions import Brawl
from tests.conftest import ALICE, BOB, CAROL, Clock
from tests.support.commands import command_for
from tests.test_me import _clock_hours

# What it proves does not depend on the database: SQLite only (tests/conftest.py).
pytestmark = pytest.mark.any_database

HERE = Place(700, 1)
FARKLE = get_game("farkle")
SEED = 1  # a game whose brawl ends by the defender's own step


async def _state(service: Service) -> tuple[dict[int, Actor], object]:
    async with service.sessions() as session:
        row = await repo.open_game(session, HERE.channel_id)
    assert row is not None
    assert row.state is not None, "a started game has its state"
    by_user = {p.user_id: p for p in (ALICE, BOB, CAROL)}
    return {s.seat: by_user[s.user_id] for s in row.seats}, FARKLE.load(row.state)


async def _brawl(
    service: Service,
    players: tuple[Actor, ...],
    target_after: int,
    first: Callable[[Actor], Awaitable[object]] | None = None,
) -> tuple:
    """Start a game of ``players``; the first player brawls the seat ``target_after`` seats
    after theirs (``first`` is done to the player who plays next before that); both play as
    the normal computer would until the turn passes. Returns the declaration's reply, the last
    step's reply, who made it, the defender, the next turn's player and the players by seat."""
    await service.new_game(players[0], HERE, "farkle", {})
    for player in players[1:]:
        await service.join(player, HERE)
    await service.start(players[0], HERE)
    seats, state = await _state(service)
    attacker = FARKLE.turn(state).player
    assert attacker is not None
    if first is not None:
        await first(seats[(attacker + 1) % len(players)])
    defender = (attacker + target_after) % len(players)
    command, args = command_for(FARKLE, Brawl(defender))
    declared = await service.act(seats[attacker], HERE, "farkle", command, dict(args))
    assert declared.ok
    turn, last, mover = FARKLE.turn_key(state), declared, attacker
    for _ in range(100):
        seats, state = await _state(service)
        if FARKLE.turn_key(state) != turn:
            break
        mover = min(FARKLE.pending(state))
        if mover not in seats:  # (a seat the computer plays: its move is its deadline's)
            break
        command, args = command_for(FARKLE, choose(FARKLE, state, mover, "normal"))
        last = await service.act(seats[mover], HERE, "farkle", command, dict(args))
        assert last.ok
    nxt = FARKLE.turn(state).player
    return declared, last, mover, defender, nxt, seats


def _posts(reply: Reply) -> list:
    return [o for o in reply.public if o.dm is None and not o.edit]


@pytest.fixture(autouse=True)
def _seeded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.service.lobby.secrets.randbits", lambda bits: SEED)


async def test_the_defender_whose_last_roll_begins_their_turn_plays_on_in_the_same_message(
    service: Service,
) -> None:
    declared, last, mover, defender, nxt, seats = await _brawl(service, (ALICE, BOB), 1)
    [asked] = _posts(declared)
    assert asked.message.mentions == (seats[defender].user_id,), "the defender is asked at once"
    assert mover == defender == nxt, "the defender's own step ended the brawl and began their turn"
    assert _posts(last) == [], "their turn goes on in the message that asked them"
    [edit] = [o for o in last.public if o.dm is None]
    assert edit.slot == asked.slot and not edit.message.mentions
    assert "⏳" in str(edit.message.text) and seats[nxt].display_name in str(edit.message.text)


async def test_a_brawl_asks_the_defender_and_pings_who_plays_next_whose_turn_begins_in_it(
    service: Service,
) -> None:
    declared, last, mover, defender, nxt, seats = await _brawl(service, (ALICE, BOB, CAROL), 2)
    assert nxt != defender, "the brawl is against the player before the attacker"
    [asked] = _posts(declared)
    assert set(asked.message.mentions) == {seats[defender].user_id, seats[nxt].user_id}
    assert len(asked.message.mentions) == 2, "each pinged once"
    assert f"{seats[nxt].display_name}, you play next" in str(asked.message.text)
    assert _posts(last) == [], "the next turn begins in the message that pinged its player"
    [edit] = [o for o in last.public if o.dm is None]
    assert edit.slot == asked.slot and not edit.message.mentions
    assert "⏳" in str(edit.message.text) and seats[nxt].display_name in str(edit.message.text)
    assert "you play next" not in str(edit.message.text), "it is their turn now"


async def test_a_brawl_against_the_next_player_pings_them_once(service: Service) -> None:
    declared, last, mover, defender, nxt, seats = await _brawl(service, (ALICE, BOB, CAROL), 1)
    assert defender == nxt
    [asked] = _posts(declared)
    assert asked.message.mentions == (seats[defender].user_id,)
    assert "you play next" not in str(asked.message.text), "asked already: named once"
    assert _posts(last) == [], "their turn begins in the message that asked them"


async def test_who_plays_next_and_left_is_neither_named_nor_pinged(service: Service) -> None:
    async def leaves(player: Actor) -> None:
        assert (await service.leave(player, HERE)).ok  # the computer plays their seat

    declared, *_, defender, nxt, seats = await _brawl(service, (ALICE, BOB, CAROL), 2, leaves)
    [asked] = _posts(declared)
    assert asked.message.mentions == (seats[defender].user_id,), "a computer needs no ping"
    assert "play next" not in str(asked.message.text)


async def test_a_ping_held_back_by_quiet_hours_is_no_ping_the_next_turn_posts_anew(
    service: Service, clock: Clock
) -> None:
    async def quiet(player: Actor) -> None:
        assert (await service.me(player, HERE, quiet=_clock_hours(clock, -1, 2))).ok

    declared, last, mover, defender, nxt, seats = await _brawl(
        service, (ALICE, BOB, CAROL), 2, quiet
    )
    [asked] = _posts(declared)
    assert asked.message.mentions == (seats[defender].user_id,), "quiet: named, not pinged"
    assert f"{seats[nxt].display_name}, you play next" in str(asked.message.text)
    [post] = _posts(last)
    assert post.slot != asked.slot, "their turn is a message of its own, which may ping them"


async def test_a_turns_message_is_full_at_its_characters_or_its_events(service: Service) -> None:
    """A turn begun in the brawl's message goes on telling the brawl: the message holds what
    fits in one Discord message, counted in characters as the channel reads them (long lines
    fill it sooner) and in events."""
    await _brawl(service, (ALICE, BOB), 1)
    async with service.sessions() as session:
        row = await repo.open_game(session, HERE.channel_id)
    assert row is not None
    for seat in row.seats:  # Discord's longest display names: 32 characters
        seat.display_name = f"{seat.display_name} the Dragon Slayer of the West"[:32]
    match = Match.of(row)
    short = ["farkle.event.turn", {"seat": 0}]
    won = {"seat": 0, "win": 1200, "lose": 350, "moved": 850, "loser_seat": 1}
    long = ["farkle.event.brawl_won", won]
    assert not live.full(match, {"told": [short] * (live.TURN_LINES - 1)})
    assert live.full(match, {"told": [short] * live.TURN_LINES}), "at most TURN_LINES events"
    [line] = events_text([Event(str(long[0]), won)], match.names(), "en")
    fits = live.TURN_CHARS // (len(str(line)) + 1)
    assert fits < live.TURN_LINES - 2, "long lines fill it before its count of events"
    assert not live.full(match, {"told": [long] * fits})
    assert live.full(match, {"told": [long] * (fits + 1)})


async def test_a_step_taken_back_after_the_brawl_passed_the_turn_stays_told_when_replayed(
    service: Service,
) -> None:
    """The brawl's last step began the next turn in the brawl's message; taken back, the table
    is posted anew with the story and "X took back their last step". Played again, the step
    edits that new message: its story still says it was taken back, so the step told twice
    (the brawl won twice, 500 new soldiers twice) never reads as two steps."""
    *_, mover, defender, nxt, seats = await _brawl(service, (ALICE, BOB, CAROL), 2)
    assert nxt not in (mover, defender), "the brawl's last step passed the turn on"
    taken = await service.undo(seats[mover], HERE)
    assert taken.ok, taken.private and str(taken.private.text)
    [anew] = [o for o in taken.public if o.dm is None]
    assert "took back their last step" in str(anew.message.narration)
    _, state = await _state(service)
    command, args = command_for(FARKLE, choose(FARKLE, state, mover, "normal"))
    again = await service.act(seats[mover], HERE, "farkle", command, dict(args))
    assert again.ok
    [edit] = [o for o in again.public if o.dm is None]
    assert edit.edit and edit.slot == anew.slot, "the step played again edits the new table"
    story = str(edit.message.narration)
    assert f"{seats[mover].display_name} took back their last step" in story, story
