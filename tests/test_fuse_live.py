"""FUSE live by chat: the one table message edited in place round after round, and the round
timer that plays an absent player's move so the team is never held up for long."""

from __future__ import annotations

from typing import Any

import pytest

from bot.discord.markup import markdown
from bot.service import Actor, Service, lobby
from bot.service.buttons import decode
from bot.service.match import Match
from bot.service.replies import Outgoing, Reply
from bot.store import repository as repo
from rules.core.policy import choose
from rules.fuse import FUSE
from rules.fuse.game import FuseState
from tests.conftest import ALICE, BOB, HERE, Clock
from tests.support.commands import command_for
from tests.support.replies import said

# What it proves does not depend on the database: SQLite only (tests/conftest.py).
pytestmark = pytest.mark.any_database


@pytest.fixture(autouse=True)
def _one_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same deal in every run (the seed is otherwise new each game): Bob has dice to use
    in the rounds these tests leave him away for."""
    monkeypatch.setattr(lobby.secrets, "randbits", lambda bits: SEED)


SEED = 3


async def _table(service: Service) -> Match | None:
    async with service.sessions() as session:
        row = await repo.open_game(session, HERE.channel_id)
    return Match.of(row) if row is not None else None


async def _deadlines(service: Service) -> dict[tuple[int, str], float]:
    async with service.sessions() as session:
        row = await repo.open_game(session, HERE.channel_id)
        assert row is not None
        rows = await repo.deadlines_of(session, row.id)
    return {key: d.due_at for key, d in rows.items()}


async def _start(service: Service, options: dict[str, Any] | None = None) -> list[Outgoing]:
    sent: list[Outgoing] = []
    for reply in (
        await service.new_game(ALICE, HERE, "fuse", options or {}),
        await service.join(BOB, HERE),
        await service.start(ALICE, HERE),
    ):
        assert reply.ok
        sent += reply.public
    return sent


async def _play(service: Service, actor: Actor, seat: int) -> Reply:
    """The seat's player plays what the computer would (a person's move, typed)."""
    match = await _table(service)
    assert match is not None
    command, args = command_for(FUSE, choose(FUSE, match.state, seat, "normal"))
    reply = await service.act(actor, HERE, "fuse", command, dict(args))
    assert reply.ok, reply.private
    return reply


async def _state(service: Service) -> FuseState:
    match = await _table(service)
    assert match is not None
    state = match.state
    assert isinstance(state, FuseState)
    return state


async def test_an_absent_player_is_played_at_the_round_timer_and_the_round_goes_on(
    service: Service, clock: Clock
) -> None:
    await _start(service)
    await service.act(ALICE, HERE, "fuse", "draw", {})
    started = clock.now
    due = await _deadlines(service)
    assert due[(1, "default")] == started + 20, "Bob's move is due at the round timer"
    while 0 in FUSE.pending(await _state(service)):  # Alice plays her round; Bob is away
        clock.now += 2
        await _play(service, ALICE, 0)
    assert (await _state(service)).round == 1 and 1 in FUSE.pending(await _state(service))
    clock.now = started + 20
    told = await service.run_deadlines()
    assert told, "the computer played Bob's move at the round timer"
    for _ in range(5):  # the rest of Bob's round, a moment apart
        if (await _state(service)).round > 1:
            break
        clock.now += service.computer_delay
        told += await service.run_deadlines()
    assert (await _state(service)).round == 2, "the round went on without Bob"
    # Quietly: the table message is edited; a new one comes only for a new round after a
    # defused bomb (the team's progress), never for the timer.
    posts = [o for o in told if not o.edit]
    assert len(posts) <= len((await _state(service)).defused)
    assert "Bob's round timer ran out: the computer played for them." in said(told)
    assert "ran out of time" not in said(told)


async def test_a_player_away_for_rounds_in_a_row_goes_on_autopilot_and_a_click_brings_them_back(
    service: Service, clock: Clock
) -> None:
    """A round-timer miss counts as a missed deadline: after the channel's ``misses`` (2) in a
    row the computer plays Bob's seat at once, so the team no longer waits 20 s a round for
    him; any move of his own ends it."""
    await _start(service)
    await service.act(ALICE, HERE, "fuse", "draw", {})
    for round_no in (1, 2):
        assert (await _state(service)).round == round_no
        while 0 in FUSE.pending(await _state(service)):
            clock.now += 2
            await _play(service, ALICE, 0)
        clock.now = max(clock.now, (await _deadlines(service))[(1, "default")])
        told = await service.run_deadlines()
        while (await _state(service)).round == round_no:
            clock.now += service.computer_delay
            told += await service.run_deadlines()
    match = await _table(service)
    assert match is not None
    bob = next(s for s in match.row.seats if s.seat == 1)
    assert bob.autopilot, "two rounds away in a row: the computer plays Bob's seat"
    assert "Bob has missed their deadlines: the computer plays their seat" in said(told)
    due = await _deadlines(service)
    assert (1, "default") not in due, "no more 20-second waits"
    assert ((1, "computer") in due) == (1 in FUSE.pending(match.state)), "the computer's move"
    await _play(service, BOB, 1)
    match = await _table(service)
    assert match is not None
    assert not next(s for s in match.row.seats if s.seat == 1).autopilot, "Bob is back"


async def test_the_draw_turns_the_start_message_into_the_table_and_claims_edit_it(
    service: Service, clock: Clock
) -> None:
    opened = await _start(service)
    (start,) = [o for o in opened if o.slot is not None and o.slot.role == "phase"]
    assert not start.edit and set(start.message.mentions) == {ALICE.user_id}
    drawn = await service.act(ALICE, HERE, "fuse", "draw", {})
    (match,) = drawn.public
    assert match.edit and match.slot == start.slot, "round 1 is the start message, edited"
    assert match.message.mentions == (), "an edit pings nobody"
    assert "Round 1" in str(match.message.narration)
    head = markdown(match.message.text)
    assert "<t:" in head and ":R>" in head, "the bomb's clock as a Discord relative time"
    claims = [b for b in match.message.buttons if ":claim:" in b.custom_id]
    assert claims, "the round's dice are buttons on the table message"
    die = claims[0].label.split()[-1]  # "🎲 B6"
    clock.now += 2
    claimed = await service.press(ALICE, HERE, decode(claims[0].custom_id))
    (edited,) = claimed.public
    assert edited.edit and edited.slot == start.slot and claimed.ack_by_edit
    assert f"Alice takes the {die}" in str(edited.message.narration)
    assert "Round 1" in str(edited.message.narration), "the narration so far is kept"
    places = [b for b in edited.message.buttons if ":place:" in b.custom_id]
    assert places and all(b.label.startswith("Alice: ") for b in places), (
        "Alice's placements are on the table message, marked as hers"
    )
    assert claimed.private is not None and not claimed.private.buttons


async def test_a_whole_live_game_posts_once_per_defused_bomb_not_once_per_round(
    service: Service, clock: Clock
) -> None:
    """Alice and Bob play a live game to its end at a click every two seconds. The table is
    edited in place; a new message comes only at the start, at the first round after each
    defused bomb, and at the end, and only new messages ping."""
    players = (ALICE, BOB)
    sent = await _start(service)
    game_posts = [o for o in sent if o.slot is not None and o.slot.role == "phase"]
    edits: list[Outgoing] = []
    rounds, defused = 0, 0
    while (match := await _table(service)) is not None:
        state = match.state
        rounds, defused = state.round, len(state.defused)
        seat = min(FUSE.pending(state))
        clock.now += 2
        reply = await _play(service, players[seat], seat)
        for out in reply.public:
            if out.edit:
                edits.append(out)
            else:
                game_posts.append(out)
    assert rounds >= 10 and edits
    ends = 1  # the result
    assert len(game_posts) <= 1 + defused + ends, [str(o.message.text)[:40] for o in game_posts]
    assert len(game_posts) < rounds, "fewer posts than rounds"
    assert all(o.message.mentions == () for o in edits), "edits ping nobody"
    slots = {o.slot for o in game_posts if o.slot is not None}
    assert all(o.slot in slots for o in edits), "every edit is of a table message posted"
    assert "ran out of time" not in said(edits + game_posts)


async def test_the_round_timer_is_an_option_of_live_mode_only(
    service: Service, clock: Clock
) -> None:
    """``round_timer:0`` leaves the channel's deadline (here a minute), whose default is told
    as running out of time; relaxed mode has neither the round timer nor the one table
    message (its players come and go over hours: each round pings them)."""
    await _start(service, {"round_timer": 0})
    assert (await service.settings(ALICE, HERE, deadline_minutes=1, reminder_minutes=0)).ok
    await service.act(ALICE, HERE, "fuse", "draw", {})
    started = clock.now
    assert (await _deadlines(service))[(1, "default")] == started + 60
    while 0 in FUSE.pending(await _state(service)):
        clock.now += 2
        await _play(service, ALICE, 0)
    clock.now = started + 60
    told = said(await service.run_deadlines())
    assert "⌛ Bob ran out of time: the computer played for them." in told
    assert "round timer" not in told
    assert (await service.cancel(ALICE, HERE)).ok

    await _start(service, {"mode": "relaxed"})
    drawn = await service.act(ALICE, HERE, "fuse", "draw", {})
    assert (await _deadlines(service))[(1, "default")] == clock.now + 24 * 3600
    assert [o.edit for o in drawn.public] == [False], "relaxed rounds keep a post each"


async def test_relaxed_rounds_post_once_and_their_moves_edit_that_post(
    service: Service, clock: Clock
) -> None:
    """Relaxed mode: every round is a new message (it pings the team, who come and go over
    hours); the claims and placements within the round edit that message instead of posting
    one message each."""
    await _start(service, {"mode": "relaxed"})
    drawn = await service.act(ALICE, HERE, "fuse", "draw", {})
    assert [o.edit for o in drawn.public] == [False]
    round_message = drawn.public[0].slot
    edited = 0
    for _ in range(10):
        if 0 not in FUSE.pending(await _state(service)):
            break
        before = FUSE.phase(await _state(service))
        reply = await _play(service, ALICE, 0)
        if FUSE.phase(await _state(service)) != before:
            break  # the phase moved on (the returns: below; the next round: a new message)
        assert [o.edit for o in reply.public] == [True], "a move within the round edits it"
        assert all(o.slot == round_message for o in reply.public)
        assert all(o.message.mentions == () for o in reply.public), "an edit pings nobody"
        edited += 1
    assert edited >= 1, "Alice's claim and placement were moves within the round"


async def _pinged_in_round(service: Service, users: list[int]) -> None:
    """Make the round's message record that its round pinged ``users``."""
    async with service.sessions() as session, session.begin():
        row = await repo.open_game(session, HERE.channel_id)
        assert row is not None and row.messages is not None
        row.messages = {**row.messages, "phase": {**row.messages["phase"], "pinged": users}}


@pytest.mark.parametrize("pinged", ["bob", "both"])
async def test_a_relaxed_rounds_returns_are_asked_in_its_message(
    service: Service, clock: Clock, pinged: str
) -> None:
    """Relaxed mode: a round's returns are asked in the round's message, edited, when the
    round has pinged everyone they ask (nobody is pinged twice in a round), and so is every
    return; the next round is a new message. A player the round has not pinged yet gets the
    round's message anew, with its story so far, pinging them alone: here Alice, whom this
    deal's round 3 does not ask (Bob plays it alone), and who must return a die at its end."""
    players = (ALICE, BOB)
    await _start(service, {"mode": "relaxed"})
    drawn = await service.act(ALICE, HERE, "fuse", "draw", {})
    (round_post,) = drawn.public
    assert not round_post.edit and set(round_post.message.mentions) == {1, 2}
    asked: Reply | None = None
    for _ in range(60):  # (this deal's round 3 ends with returns: both)
        state = await _state(service)
        seat = min(FUSE.pending(state))
        probe = FUSE.copy(state)
        FUSE.resolve(probe, seat, choose(FUSE, state, seat, "normal"), clock.now)
        if probe.stage == "return" and pinged == "both":
            await _pinged_in_round(service, [ALICE.user_id, BOB.user_id])
        clock.now += 60
        reply = await _play(service, players[seat], seat)
        if probe.round != state.round:
            (round_post,) = [o for o in reply.public if not o.edit]
        if probe.stage == "return":
            asked = reply
            break
    assert asked is not None, "the round asked for returns"
    assert round_post.message.mentions == (BOB.user_id,), "round 3 asks Bob alone"
    state = await _state(service)
    assert state.stage == "return" and set(FUSE.pending(state)) == {0, 1}
    (match,) = [o for o in asked.public if o.dm is None]
    story = str(match.message.narration)
    # (This deal's: an unused die rolled again asks the holders of one like it to return it.)
    assert "rolled again" in story and f"Round {state.round}:" in story, "the round's story"
    assert markdown(match.message.text).count("Return one of your dice") == 2, "both are asked"
    if pinged == "both":
        assert match.edit and match.slot == round_post.slot, "asked in the round's message"
        assert match.message.mentions == ()
    else:
        assert not match.edit and match.message.mentions == (ALICE.user_id,)
    # The returns edit it; the next round is a message of its own, pinging the team.
    for _ in range(4):
        state = await _state(service)
        if state.stage != "return":
            break
        seat = min(FUSE.pending(state))
        reply = await _play(service, players[seat], seat)
        public = [o for o in reply.public if o.dm is None]
        if (await _state(service)).stage == "return":
            assert [o.edit for o in public] == [True] and public[0].message.mentions == ()
    assert [o.edit for o in public] == [False], "the next round: a new message"
    assert public[0].message.mentions, "which pings the team"


async def test_the_round_timer_is_announced_in_the_lobby_and_counted_down_on_the_table(
    service: Service, clock: Clock
) -> None:
    """New players learn of the 20 s round timer before they start (the lobby names it even
    at its default) and see it run on the table message (a Discord relative time), in their
    language; relaxed mode, which has no timer, does not mention it."""
    opened = await _start(service)
    lobby_text = " ".join(markdown(o.message.text) for o in opened)
    assert "Seconds per round (then the computer plays): 20" in lobby_text
    drawn = await service.act(ALICE, HERE, "fuse", "draw", {})
    head = markdown(drawn.public[0].message.text)
    due = int(clock.now) + 20
    assert f"the computer plays for whoever has not chosen <t:{due}:R>" in head, head
    clock.now += 2
    claims = [b for b in drawn.public[0].message.buttons if ":claim:" in b.custom_id]
    edited = (await service.press(ALICE, HERE, decode(claims[0].custom_id))).public[0]
    assert f"<t:{due}:R>" in markdown(edited.message.text), "the same round, the same time"
    await service.cancel(ALICE, HERE)
    relaxed = await _start(service, {"mode": "relaxed"})
    assert "Seconds per round" not in " ".join(markdown(o.message.text) for o in relaxed)
    match = await _table(service)
    assert match is not None
    from bot.service.options import summary

    live_es = summary("fuse", {**match.row.options, "mode": "live"}, "es")
    assert "Segundos por ronda (luego juega la computadora): 20" in live_es
