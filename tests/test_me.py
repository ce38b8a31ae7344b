"""``/me``: how each player is reached, honoured by every ping, reminder and direct message.

A player who asked for direct messages is not pinged in the channel but told by DM; one whose
quiet hours it is gets no ping until they end (the ping comes then, if they are still awaited),
and no reminder inside them; one who is away has their seat played by the computer, said once
in each game, until their day comes. Settings are the user's, in every server, and survive a
restart (they are rows, as the held-back ping is)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.service import Actor, Place, Service
from bot.service.buttons import decode
from bot.service.reach import Reach
from bot.service.replies import Outgoing, Reply
from bot.store import repository as repo
from tests.conftest import ALICE, BOB, CAROL, Clock

HERE = Place(500, 1)
ELSEWHERE = Place(900, 2)  # another server
HOUR = 3600


def _clock_hours(clock: Clock, start: float, end: float) -> str:
    """Quiet hours, in UTC, from ``start`` to ``end`` hours after the clock's present moment."""
    now = dt.datetime.fromtimestamp(clock.now, dt.UTC)
    a, b = now + dt.timedelta(hours=start), now + dt.timedelta(hours=end)
    return f"{a:%H:%M}-{b:%H:%M}"


async def _bad_bones(service: Service) -> Reply:
    """A two-player Bad Bones game started: both heroes are awaited at once."""
    await service.new_game(ALICE, HERE, "badbones", {})
    await service.join(BOB, HERE)
    return await service.start(ALICE, HERE)


def _table(reply: Reply) -> Outgoing:
    return next(o for o in reply.public if "⏳" in str(o.message.text) and o.dm is None)


def _dms(reply: Reply | list[Outgoing], user: Actor) -> list[Outgoing]:
    items = reply.public if isinstance(reply, Reply) else reply
    return [o for o in items if o.dm == user.user_id]


async def _rows(service: Service) -> dict[tuple[int, str], float]:
    async with service.sessions() as session:
        row = await repo.open_game(session, HERE.channel_id)
        assert row is not None
        return {k: d.due_at for k, d in (await repo.deadlines_of(session, row.id)).items()}


# --------------------------------------------------------------------------- the settings


async def test_settings_are_shown_in_the_users_language_and_kept_across_servers(
    service: Service,
) -> None:
    said = await service.me(CAROL, HERE, notify="both", quiet="23:00-07:30", zone="europe/madrid")
    assert said.ok and said.private is not None
    text = str(said.private.text)
    assert "Tu turno: una mención en el canal de la partida y un mensaje directo" in text
    assert "23:00–07:30 (Europe/Madrid)" in text
    # Another server, no option: the same settings, shown.
    shown = await service.me(CAROL, ELSEWHERE)
    assert shown.private is not None and str(shown.private.text) == text


async def test_bad_input_is_refused_in_the_senders_language_and_changes_nothing(
    service: Service, clock: Clock
) -> None:
    await service.me(BOB, HERE, notify="dm", quiet="22:00-06:00")
    for options in (
        {"quiet": "25:00-06:00"},
        {"quiet": "10:00-10:00"},
        {"zone": "Mars/Olympus"},
        {"away": "someday"},
        {"away": "2001-01-01"},
        {"notify": "pigeon"},
        {"notify": "both", "zone": "Nowhere"},  # one bad option: the good one is not kept
    ):
        refused = await service.me(BOB, HERE, **options)
        assert not refused.ok and refused.private is not None, options
        assert "⚠️" in str(refused.private.text), options
    spanish = await service.me(CAROL, HERE, quiet="whenever")
    assert spanish.private is not None and "reloj de 24 horas" in str(spanish.private.text)
    async with service.sessions() as session:
        row = (await repo.players(session, [BOB.user_id]))[BOB.user_id]
    assert Reach.of(row) == Reach(BOB.user_id, "dm", (22 * 60, 6 * 60))


# --------------------------------------------------------------------------- how they are told


async def test_a_player_who_chose_direct_messages_is_told_by_one_and_not_pinged(
    service: Service,
) -> None:
    service.owes = True  # as the bot runs it: what a move owes is recorded with it
    await service.me(BOB, HERE, notify="dm")
    started = await _bad_bones(service)
    table = _table(started)
    assert ALICE.user_id in table.message.mentions
    assert BOB.user_id not in table.message.mentions, "no ping in the channel for Bob"
    (dm,) = _dms(started, BOB)
    assert "Your turn in Bad Bones" in str(dm.message.text)
    assert dm.channel_id == HERE.channel_id and dm.delivery, "recorded like any post"
    assert dm.fallback is not None and BOB.user_id in dm.fallback.mentions
    assert not _dms(started, ALICE)


async def test_both_means_a_ping_and_a_direct_message(service: Service) -> None:
    await service.me(BOB, HERE, notify="both")
    started = await _bad_bones(service)
    assert BOB.user_id in _table(started).message.mentions
    assert len(_dms(started, BOB)) == 1


async def test_after_a_refused_direct_message_the_player_is_mentioned_again(
    service: Service,
) -> None:
    await service.me(BOB, HERE, notify="dm")
    await service.dm_closed(BOB.user_id)  # what the sender reports when Discord says 50007
    started = await _bad_bones(service)
    assert BOB.user_id in _table(started).message.mentions
    assert not _dms(started, BOB)
    shown = await service.me(BOB, HERE)
    assert shown.private is not None and "Discord refused" in str(shown.private.text)
    # Choosing direct messages again tries them again.
    again = await service.me(BOB, HERE, notify="dm")
    assert again.private is not None and "Discord refused" not in str(again.private.text)


# --------------------------------------------------------------------------- quiet hours


async def test_a_ping_in_quiet_hours_waits_until_they_end_and_comes_if_still_awaited(
    service: Service, clock: Clock
) -> None:
    await service.me(BOB, HERE, quiet=_clock_hours(clock, -1, 2))
    started = await _bad_bones(service)
    table = _table(started)
    assert BOB.user_id not in table.message.mentions, "quiet: named, not pinged"
    assert "Bob" in str(table.message.text), "the others still see whom they wait for"
    assert ALICE.user_id in table.message.mentions, "nothing changes for the others"
    ends = (await _rows(service))[(1, "ping")]
    assert ends == clock.now + 2 * HOUR
    clock.now = ends
    (nudge,) = [o for o in await service.run_deadlines() if o.message.mentions]
    assert nudge.message.mentions == (BOB.user_id,)
    assert "your quiet hours are over" in str(nudge.message.text)


async def test_no_held_back_ping_when_the_player_already_moved(
    service: Service, clock: Clock
) -> None:
    await service.me(BOB, HERE, quiet=_clock_hours(clock, -1, 2))
    await _bad_bones(service)
    assert (1, "ping") in await _rows(service)
    # Bob plays during his quiet hours anyway (one of his legal phase-1 moves).
    assert (
        await service.press(BOB, HERE, decode(_first_button(await service.board(BOB, HERE))))
    ).ok
    clock.now += 2 * HOUR
    assert not [o for o in await service.run_deadlines() if BOB.user_id in o.message.mentions]


async def test_a_held_back_ping_that_falls_in_new_quiet_hours_waits_again_and_says_nothing(
    service: Service, clock: Clock
) -> None:
    """Bob's held-back ping is due when his quiet hours end; meanwhile he chose other quiet
    hours, which cover that moment. The channel is not told "your quiet hours are over" (they
    are not, and he would not be pinged): the ping waits for the end of the new ones."""
    await service.me(BOB, HERE, quiet=_clock_hours(clock, -1, 2))
    await _bad_bones(service)
    ends = (await _rows(service))[(1, "ping")]
    await service.me(BOB, HERE, quiet=_clock_hours(clock, 1, 5))
    clock.now = ends
    said = [str(o.message.text) for o in await service.run_deadlines()]
    assert not [text for text in said if "quiet hours are over" in text], said
    assert (await _rows(service))[(1, "ping")] == ends + 3 * HOUR, "it waits for their end"
    clock.now = ends + 3 * HOUR
    (nudge,) = [
        o for o in await service.run_deadlines() if "quiet hours are over" in str(o.message.text)
    ]
    assert nudge.message.mentions == (BOB.user_id,)


def _first_button(reply: Reply) -> str:
    assert reply.private is not None and reply.private.buttons
    return reply.private.buttons[0].custom_id


async def _ten_hour_game(service: Service) -> dict[tuple[int, str], float]:
    """A started Bad Bones game whose moves are due in 10 h, reminded 2 h before: its rows."""
    await service.new_game(ALICE, HERE, "badbones", {})
    await service.join(BOB, HERE)
    await service.settings(ALICE, HERE, deadline_minutes=600, reminder_minutes=120)
    await service.start(ALICE, HERE)
    return await _rows(service)


async def test_a_reminder_is_moved_out_of_quiet_hours_when_the_deadline_allows(
    service: Service, clock: Clock
) -> None:
    # Deadline in 10 h, reminder 2 h before it: 8 h from now. Bob's quiet hours cover it and end
    # 9 h from now, before the deadline: the reminder comes as they end.
    await service.me(BOB, HERE, quiet=_clock_hours(clock, 7, 9))
    rows = await _ten_hour_game(service)
    assert rows[(0, "reminder")] == clock.now + 8 * HOUR, "Alice's reminder as set"
    assert rows[(1, "reminder")] == clock.now + 9 * HOUR, "Bob's when his quiet hours end"
    assert rows[(1, "default")] == clock.now + 10 * HOUR, "his deadline unchanged"


async def test_a_reminder_comes_before_quiet_hours_that_cover_the_deadline(
    service: Service, clock: Clock
) -> None:
    # Quiet from 7 h to 12 h from now, the deadline at 10 h: the reminder (due at 8 h) comes
    # just before the quiet hours begin.
    await service.me(BOB, HERE, quiet=_clock_hours(clock, 7, 12))
    rows = await _ten_hour_game(service)
    assert rows[(1, "reminder")] == clock.now + 7 * HOUR - 60


# --------------------------------------------------------------------------- away


async def test_an_away_player_is_played_by_the_computer_said_once_and_back_on_their_day(
    service: Service, clock: Clock
) -> None:
    today = dt.datetime.fromtimestamp(clock.now, dt.UTC).date()
    back = today + dt.timedelta(days=2)
    assert (await service.me(BOB, HERE, away=back.isoformat())).ok
    started = await _bad_bones(service)
    said = [str(o.message.text) for o in started.public]
    assert sum("is away until" in s for s in said) == 1
    assert BOB.user_id not in _table(started).message.mentions
    assert (await _rows(service)).get((1, "computer")) is not None, "the computer plays Bob"
    # Phase after phase, the computer plays for Bob and it is not said again.
    for _ in range(3):
        clock.now += 2
        out = await service.run_deadlines()
        assert not any("is away until" in str(o.message.text) for o in out)
        board = await service.board(ALICE, HERE)
        if board.private is not None and board.private.buttons:
            await service.press(ALICE, HERE, decode(_first_button(board)))
    # His day comes: at the next command in the game, his seat is his again.
    clock.now = dt.datetime.combine(back, dt.time(0, 1), tzinfo=dt.UTC).timestamp()
    looked = await service.status(ALICE, HERE)  # any command in the game
    back_posts = [o for o in looked.public if "is back" in str(o.message.text)]
    assert len(back_posts) == 1
    assert back_posts[0].message.mentions == (BOB.user_id,), "his turn: he is told at once"
    assert "⏳ @Bob: " in str(back_posts[0].message.text), "and what he is asked"
    async with service.sessions() as session:
        row = await repo.open_game(session, HERE.channel_id)
        assert row is not None
        assert not next(s for s in row.seats if s.user_id == BOB.user_id).autopilot


async def test_settings_and_a_held_back_ping_survive_a_restart(
    database_url: str, clock: Clock
) -> None:
    first = await Service.open(database_url, render=False, clock=clock)
    try:
        await first.me(BOB, HERE, quiet=_clock_hours(clock, -1, 1))
        await _bad_bones(first)
    finally:
        await first.close()
    clock.now += HOUR
    second = await Service.open(database_url, render=False, clock=clock)
    try:
        pinged = [o for o in await second.run_deadlines() if o.message.mentions]
        assert [o.message.mentions for o in pinged] == [(BOB.user_id,)]
        shown = await second.me(BOB, HERE)
        assert shown.private is not None and "Quiet hours" in str(shown.private.text)
    finally:
        await second.close()


# --------------------------------------------------------------------------- holidays


async def test_the_host_holds_the_deadlines_and_everyone_gets_the_time_back(
    service: Service, clock: Clock
) -> None:
    await _bad_bones(service)
    before = await _rows(service)
    refused = await service.settings(BOB, HERE, hold=True)
    assert not refused.ok, "only the host (or a manager) holds the deadlines"
    held = await service.settings(ALICE, HERE, hold=True)
    assert held.ok and any(
        "paused this game's deadlines" in str(o.message.text) for o in held.public
    )
    clock.now += 5 * 24 * HOUR  # far past every deadline: nothing comes due
    assert await service.run_deadlines() == []
    resumed = await service.settings(ALICE, HERE, hold=False)
    assert resumed.ok and any("run again" in str(o.message.text) for o in resumed.public)
    after = await _rows(service)
    assert after == {k: due + 5 * 24 * HOUR for k, due in before.items()}, "later by the hold"


@pytest.mark.parametrize("first_draw", [False, True])
async def test_a_live_fuse_game_is_not_held_its_bomb_runs_on(
    service: Service, clock: Clock, first_draw: bool
) -> None:
    # Play-test: a live FUSE game held over lunch and let run again lost at its first click
    # ("BOOM! The clock ran out"): its deadlines came back later by the hold, the bomb did not.
    # Refused at once, before the first draw starts the clock too (it would start under a hold).
    assert (await service.new_game(ALICE, HERE, "fuse", {})).ok
    assert (await service.join(BOB, HERE)).ok
    assert (await service.start(ALICE, HERE)).ok
    if first_draw:  # the bomb's clock runs from the first draw
        assert (await service.act(ALICE, HERE, "fuse", "draw", {})).ok
        async with service.sessions() as session:
            row = await repo.open_game(session, HERE.channel_id)
            assert row is not None and row.state is not None and row.state["stage"] != "start"
    before = await _rows(service)
    refused = await service.settings(ALICE, HERE, hold=True)
    text = str(refused.private.text if refused.private else "")
    assert not refused.ok and refused.public == [] and "cannot be held" in text
    spanish = Actor(ALICE.user_id, ALICE.display_name, locale="es-ES")
    rehusado = await service.settings(spanish, HERE, hold=True)
    assert rehusado.private is not None and "no se puede pausar" in str(rehusado.private.text)
    async with service.sessions() as session:
        row = await repo.open_game(session, HERE.channel_id)
        assert row is not None and "held_at" not in row.settings
    assert await _rows(service) == before, "nothing changed"
    # A relaxed game has no clock of the rules' own: its deadlines are held as any game's.
    elsewhere = Place(HERE.channel_id + 1, HERE.guild_id)
    assert (await service.new_game(ALICE, elsewhere, "fuse", {"mode": "relaxed"})).ok
    assert (await service.join(BOB, elsewhere)).ok
    assert (await service.start(ALICE, elsewhere)).ok
    assert (await service.settings(ALICE, elsewhere, hold=True)).ok


async def test_deadlines_planned_while_held_wait_too(service: Service, clock: Clock) -> None:
    await _bad_bones(service)
    await service.settings(ALICE, HERE, hold=True)
    # Both heroes move: a new phase is planned while the deadlines are held.
    for player in (ALICE, BOB):
        assert (
            await service.press(
                player, HERE, decode(_first_button(await service.board(player, HERE)))
            )
        ).ok
    clock.now += 3 * 24 * HOUR
    assert await service.run_deadlines() == []
    await service.settings(ALICE, HERE, hold=False)
    rows = await _rows(service)
    assert rows and all(clock.now < due < clock.now + 2 * 24 * HOUR for due in rows.values())


@pytest.mark.parametrize(("kind", "options"), [("farkle", {}), ("zvv", {"size": 9})])
async def test_a_computer_seat_plays_its_turns_while_the_deadlines_are_held(
    service: Service, clock: Clock, kind: str, options: dict[str, Any]
) -> None:
    # Alice, against the computer over the holidays, held the deadlines and played on: her
    # move passed the turn to the computer, which never played until she let them run again.
    from bot.service.match import Match
    from rules.core.policy import choose

    assert (await service.new_game(ALICE, HERE, kind, options)).ok
    assert (await service.add_bot(ALICE, HERE, "easy")).ok
    assert (await service.start(ALICE, HERE)).ok
    assert (await service.settings(ALICE, HERE, hold=True)).ok
    computer_moved = False
    for _ in range(60):
        clock.now += service.computer_delay + 1
        await service.run_deadlines()
        async with service.sessions() as session:
            row = await repo.open_game(session, HERE.channel_id)
            assert row is not None
            log = await repo.action_log(session, row.id)
        if any(e.seat == 1 and e.action.get("type") != "roll" for e in log):
            computer_moved = True
            break
        match = Match.of(row)
        pending = match.engine.pending(match.state)
        if 1 in pending:  # its turn goes on (a Zombies vs Vampires roll, then its move)
            continue
        mapped = match.engine.to_command(choose(match.engine, match.state, 0, "easy"))
        assert mapped is not None
        assert (await service.act(ALICE, HERE, kind, *mapped)).ok
    assert computer_moved, "the computer played its turn, the deadlines held or not"
    # Alice's own deadline stays held: a week on, nothing was played for her.
    async with service.sessions() as session:
        row = await repo.open_game(session, HERE.channel_id)
        assert row is not None
        before = len(await repo.action_log(session, row.id))
    match = Match.of(row)
    if 0 in match.engine.pending(match.state):
        clock.now += 7 * 24 * HOUR
        await service.run_deadlines()
        async with service.sessions() as session:
            assert len(await repo.action_log(session, row.id)) == before, "her deadline is held"


async def test_a_computer_move_a_hold_set_aside_comes_back_when_it_ends(
    service: Service, clock: Clock
) -> None:
    """A game held when computer seats still waited out holds (its computer's move a century
    on): hold:off plans that move again from now, as any computer's."""
    from sqlalchemy import update

    from bot.service.match import SET_ASIDE, Match
    from bot.store.models import DeadlineRow
    from rules.core.policy import choose

    assert (await service.new_game(ALICE, HERE, "farkle", {})).ok
    assert (await service.add_bot(ALICE, HERE, "easy")).ok
    assert (await service.start(ALICE, HERE)).ok
    for _ in range(60):  # Alice plays until the computer is asked
        async with service.sessions() as session:
            row = await repo.open_game(session, HERE.channel_id)
        assert row is not None
        match = Match.of(row)
        if 1 in match.engine.pending(match.state):
            break
        if 0 not in match.engine.pending(match.state):
            clock.now += service.computer_delay + 1
            await service.run_deadlines()
            continue
        mapped = match.engine.to_command(choose(match.engine, match.state, 0, "easy"))
        assert mapped is not None
        assert (await service.act(ALICE, HERE, "farkle", *mapped)).ok
    assert row is not None
    game_id = row.id
    assert (await service.settings(ALICE, HERE, hold=True)).ok
    async with service.sessions() as session, session.begin():
        await session.execute(  # as a hold set a computer's move aside before
            update(DeadlineRow)
            .where(DeadlineRow.game_id == game_id)
            .where(DeadlineRow.seat == 1)
            .values(due_at=DeadlineRow.due_at + SET_ASIDE)
        )
    clock.now += 2 * HOUR
    assert (await service.settings(ALICE, HERE, hold=False)).ok
    due = [d.due_at for (seat, _), d in (await _rows_of(service, game_id)).items() if seat == 1]
    assert due and all(d <= clock.now + 60 for d in due), "the computer plays in a moment"


async def _rows_of(service: Service, game_id: int) -> dict[tuple[int, str], Any]:
    async with service.sessions() as session:
        return await repo.deadlines_of(session, game_id)


async def test_the_status_of_a_held_game_says_so_and_shows_no_century_deadline(
    service: Service, clock: Clock
) -> None:
    """``/game status`` while the host holds the deadlines: who is awaited, and that the
    deadlines are paused; not a deadline a century away (Discord wrote "in 100 years", the
    console "+876000h"), which is where a held deadline is set aside."""
    from bot.service.text import When

    await _bad_bones(service)
    await service.settings(ALICE, HERE, hold=True)
    status = await service.status(BOB, HERE)
    assert status.private is not None
    text = status.private.text
    shown = [p.at for p in text.parts if isinstance(p, When)]
    assert all(at < clock.now + 30 * 24 * HOUR for at in shown), "no deadline a century away"
    assert "⏳ Alice" in text and "⏳ Bob" in text, "still says who is awaited"
    assert "paused the deadlines" in text and "hold:off" in text, str(text)
    await service.settings(ALICE, HERE, hold=False)
    running = (await service.status(BOB, HERE)).private
    assert running is not None and "paused" not in running.text
    assert [p for p in running.text.parts if isinstance(p, When)], "deadlines shown again"
