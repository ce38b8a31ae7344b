"""The service: lobby, seat checks, submissions, deadlines, concurrency — on a real SQLite file."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.discord.markup import markdown
from bot.service import Actor, Service
from bot.service.buttons import decode
from bot.service.memory import LANGUAGE_TTL
from bot.store import repository as repo
from bot.store.models import ActionRow, DeadlineRow, GameRow
from tests.conftest import ALICE, BOB, CAROL, HERE, MOD, Clock
from tests.support.replies import private
from tests.support.tiny import TINY


async def started(service: Service, *players: Actor, rounds: int = 2) -> None:
    assert (await service.new_game(players[0], HERE, "tiny", {"rounds": rounds})).ok
    for p in players[1:]:
        assert (await service.join(p, HERE)).ok
    assert (await service.start(players[0], HERE)).ok


async def snapshot(service: Service) -> tuple[object, ...]:
    async with service.sessions() as session:
        row = await repo.open_game(session, HERE.channel_id)
        actions = (await session.execute(select(func.count()).select_from(ActionRow))).scalar()
        if row is None:
            return (None, actions)
        return (
            row.status,
            row.state,
            row.version,
            [(s.seat, s.user_id) for s in row.seats],
            actions,
        )


async def test_lobby_flow_new_join_start_status_cancel(service: Service) -> None:
    reply = await service.new_game(ALICE, HERE, "tiny", {"rounds": "3"})
    assert reply.ok and "hosted by Alice" in reply.public[0].message.whole
    assert (await service.join(BOB, HERE)).ok
    status = private(await service.status(CAROL, HERE))
    assert "Alice" in status and "Bob" in status
    reply = await service.start(ALICE, HERE)
    assert reply.ok
    announce = reply.public[0].message
    assert set(announce.mentions) == {ALICE.user_id, BOB.user_id}, "both seats are awaited"
    assert len(announce.buttons) == 3  # bid 1, 2, 3
    reply = await service.cancel(ALICE, HERE)
    assert reply.ok
    assert "no game" in private(await service.status(ALICE, HERE)).lower()


async def test_bad_lobby_input_is_refused_and_changes_nothing(service: Service) -> None:
    bad = await service.new_game(ALICE, HERE, "chess", {})
    assert not bad.ok and "chess" in private(bad)
    bad = await service.new_game(ALICE, HERE, "tiny", {"rounds": "many"})
    assert not bad.ok and "rounds" in private(bad)
    assert (await service.new_game(ALICE, HERE, "tiny", {"rounds": 1})).ok
    before = await snapshot(service)
    cases = [
        (service.new_game(BOB, HERE, "tiny", {}), "already has a game"),
        (service.join(ALICE, HERE), "already joined"),
        (service.start(BOB, HERE), "only the host"),
        (service.cancel(BOB, HERE), "host or someone"),
        (service.act(ALICE, HERE, "tiny", "bid", {"amount": 1}), "not started"),
    ]
    for call, text in cases:
        reply = await call
        assert not reply.ok and text in private(reply).lower(), private(reply)
        assert reply.public == []
    assert await snapshot(service) == before


async def test_full_game_and_too_few_players(service: Service) -> None:
    await service.new_game(ALICE, HERE, "tiny", {})
    for i in range(3):
        assert (await service.join(Actor(50 + i, f"P{i}"), HERE)).ok
    full = await service.join(BOB, HERE)
    assert not full.ok and "full" in private(full)


async def test_acting_rules_seat_phase_and_spanish(service: Service) -> None:
    await started(service, ALICE, BOB)
    before = await snapshot(service)
    not_seated = await service.act(CAROL, HERE, "tiny", "bid", {"amount": 1})
    assert not not_seated.ok and private(not_seated) == "⚠️ No juegas en esta partida."
    out_of_phase = await service.act(ALICE, HERE, "tiny", "take", {})
    assert not out_of_phase.ok
    bad_amount = await service.act(ALICE, HERE, "tiny", "bid", {"amount": "🙂" * 200})
    assert not bad_amount.ok
    assert await snapshot(service) == before


async def test_simultaneous_phase_private_until_resolution(service: Service) -> None:
    await started(service, ALICE, BOB)
    first = await service.act(ALICE, HERE, "tiny", "bid", {"amount": 3})
    assert first.ok and "Recorded" in private(first)
    (ready,) = first.public
    assert "Alice is ready" in ready.message.whole and "3" not in ready.message.whole
    assert ready.message.mentions == ()
    changed = await service.act(ALICE, HERE, "tiny", "bid", {"amount": 2})
    assert changed.ok and changed.public == [], "changing a submission tells the channel nothing"
    last = await service.act(BOB, HERE, "tiny", "bid", {"amount": 3})
    (resolved,) = last.public
    assert resolved.message.mentions == (ALICE.user_id,), "only the next seat is pinged"


async def test_buttons_press_and_stale_buttons(service: Service) -> None:
    await started(service, ALICE, BOB)
    reply = await service.start(ALICE, HERE)  # already started: refused
    assert not reply.ok
    status_reply = await service.board(ALICE, HERE)
    bid3 = (
        next(b for b in status_reply.private.buttons if b.custom_id.endswith("amount=3"))
        if status_reply.private
        else None
    )
    assert bid3 is not None and decode(bid3.custom_id) is not None
    assert (await service.press(ALICE, HERE, decode(bid3.custom_id))).ok
    assert not (await service.press(CAROL, HERE, decode(bid3.custom_id))).ok, "not seated"
    await service.act(BOB, HERE, "tiny", "bid", {"amount": 1})  # phase resolves
    stale = await service.press(ALICE, HERE, decode(bid3.custom_id))
    assert not stale.ok and "earlier phase" in private(stale)
    assert not (await service.press(ALICE, HERE, decode("pt:999:zz:bid:amount=1"))).ok
    assert not (await service.press(ALICE, HERE, decode("garbage"))).ok


async def test_deadlines_remind_then_apply_the_default(service: Service, clock: Clock) -> None:
    await started(service, ALICE, BOB)
    await service.settings(ALICE, HERE, deadline_minutes=60, reminder_minutes=10)
    await service.act(ALICE, HERE, "tiny", "bid", {"amount": 2})
    clock.now += 49 * 60
    assert await service.run_deadlines() == []
    clock.now += 2 * 60
    (reminder,) = await service.run_deadlines()
    assert reminder.message.mentions == (BOB.user_id,)
    # the reminder links to the game's channel (it may reach Bob as a notification elsewhere)
    assert "The game: https://discord.com/channels/10/100" in str(reminder.message.text)
    clock.now += 10 * 60
    out = await service.run_deadlines()
    assert any("ran out of time" in o.message.whole for o in out)
    async with service.sessions() as session:
        row = await repo.open_game(session, HERE.channel_id)
        assert row is not None and row.phase.endswith("take.0")
        log = await repo.action_log(session, row.id)
        assert [a.by_default for a in log] == [False, True]


@pytest.mark.usefixtures("tiny")
async def test_deadlines_survive_a_restart(tmp_path: Path, clock: Clock) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'restart.db'}"
    first = await Service.open(url, clock=clock, render=False)
    await started(first, ALICE, BOB)
    await first.close()
    clock.now += 25 * 3600
    second = await Service.open(url, clock=clock, render=False)
    out = await second.run_deadlines()
    assert sum("ran out of time" in o.message.whole for o in out) >= 1
    await second.close()


@pytest.mark.usefixtures("tiny")
async def test_concurrent_submissions_resolve_the_phase_once(tmp_path: Path, clock: Clock) -> None:
    """Two service instances (as two processes would) on one SQLite file."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'race.db'}"
    one = await Service.open(url, clock=clock, render=False)
    two = await Service.open(url, clock=clock, render=False, migrate=False)
    await started(one, ALICE, BOB)
    a, b = await asyncio.gather(
        one.act(ALICE, HERE, "tiny", "bid", {"amount": 3}),
        two.act(BOB, HERE, "tiny", "bid", {"amount": 2}),
    )
    assert a.ok and b.ok
    resolved = [o for o in a.public + b.public if "ready" not in o.message.whole]
    assert len(resolved) == 1, "exactly one message announces the resolution"
    async with one.sessions() as session:
        row = await repo.open_game(session, HERE.channel_id)
        assert row is not None and row.state is not None
        assert row.state["scores"] == [3, 0]
        assert len(await repo.action_log(session, row.id)) == 2
        assert await one.state_from_log(row.id) == row.state
    await one.close()
    await two.close()


async def test_one_open_game_per_channel_is_enforced_by_the_database(service: Service) -> None:
    import pytest
    from sqlalchemy.exc import IntegrityError

    await service.new_game(ALICE, HERE, "tiny", {})
    with pytest.raises(IntegrityError):
        async with service.sessions() as session, session.begin():
            session.add(
                GameRow(
                    channel_id=HERE.channel_id,
                    open_channel_id=HERE.channel_id,
                    kind="tiny",
                    options={},
                    settings={},
                    host_id=1,
                    seed=1,
                    created_at=0,
                    updated_at=0,
                )
            )


async def test_leave_and_kick_mid_game_the_computer_plays_their_seats(
    service: Service, clock: Clock
) -> None:
    await started(service, ALICE, BOB, CAROL)
    assert not (await service.kick(BOB, HERE, CAROL.user_id)).ok, "only host or manager"
    assert (await service.kick(MOD, HERE, CAROL.user_id)).ok
    left = await service.leave(BOB, HERE)
    assert left.ok and "the computer plays their seat" in left.public[0].message.text
    clock.now += service.computer_delay  # the computer moves a moment later, not at once
    await service.run_deadlines()
    async with service.sessions() as session:
        deadlines = (await session.execute(select(DeadlineRow))).scalars().all()
        assert all(d.seat == 0 for d in deadlines), "departed seats were played by the computer"


async def test_the_lobbys_leave_pressed_as_the_game_starts_does_not_leave_the_game(
    service: Service,
) -> None:
    # Bob pressed the lobby's Leave as Alice pressed Start: his press came second and left the
    # game itself, and the computer took his seat for a game he never meant to play or leave.
    from bot.service.buttons import lobby_id

    await started(service, ALICE, BOB)
    async with service.sessions() as session:
        row = await repo.open_game(session, HERE.channel_id)
        assert row is not None
    before = await snapshot(service)
    press = decode(lobby_id(row.id, "leave"))
    assert press is not None
    late = await service.press(BOB, HERE, press)
    assert not late.ok and late.public == [] and "`/game leave` leaves it" in private(late)
    assert await snapshot(service) == before
    async with service.sessions() as session:
        row = await repo.open_game(session, HERE.channel_id)
        assert row is not None and not any(s.autopilot for s in row.seats), "Bob plays his seat"


async def test_a_whole_game_to_the_end_records_history(service: Service) -> None:
    await started(service, ALICE, BOB, rounds=1)
    await service.act(ALICE, HERE, "tiny", "bid", {"amount": 3})
    await service.act(BOB, HERE, "tiny", "bid", {"amount": 1})
    await service.act(ALICE, HERE, "tiny", "take", {})
    final = await service.act(BOB, HERE, "tiny", "pass", {})
    assert "Winner: Alice" in final.public[0].message.whole
    history = private(await service.history(BOB, HERE))
    assert "Alice" in history
    assert (await service.new_game(BOB, HERE, "tiny", {})).ok, "the channel is free again"


async def test_language_choice_and_rules(service: Service) -> None:
    assert "español" in private(await service.language(ALICE, HERE, "es"))
    assert "No hay ninguna partida" in private(await service.status(ALICE, HERE))
    assert not (await service.language(ALICE, HERE, "klingon")).ok
    assert not (await service.rules(ALICE, HERE, "nope")).ok


async def test_a_language_choice_applies_to_the_very_next_reply(service: Service) -> None:
    assert "no game" in private(await service.status(ALICE, HERE))  # English, the client's
    await service.language(ALICE, HERE, "es")
    assert "No hay ninguna partida" in private(await service.status(ALICE, HERE))
    await service.language(ALICE, HERE, "auto")
    assert "no game" in private(await service.status(ALICE, HERE))


async def test_a_language_chosen_through_another_process_shows_within_a_minute(
    tmp_path: Path, clock: Clock
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'languages.db'}"
    one = await Service.open(url, clock=clock, render=False)
    two = await Service.open(url, clock=clock, render=False, migrate=False)
    assert "no game" in private(await one.status(ALICE, HERE))
    await two.language(ALICE, HERE, "es")
    clock.now += LANGUAGE_TTL
    assert "No hay ninguna partida" in private(await one.status(ALICE, HERE))
    await one.close()
    await two.close()


async def test_suggestions_come_from_legal_actions(service: Service) -> None:
    await started(service, ALICE, BOB)
    assert await service.suggest(ALICE, HERE, "tiny", "bid", "amount", {}, "") == ["1", "2", "3"]
    assert await service.suggest(CAROL, HERE, "tiny", "bid", "amount", {}, "") == []
    assert TINY.name == "tiny"


async def test_a_crash_before_commit_acknowledges_nothing_and_changes_nothing(
    service: Service, monkeypatch: object
) -> None:
    """A fault between receiving a submission and committing: no "Recorded", no change;
    the same submission afterwards works."""
    import pytest

    await started(service, ALICE, BOB)
    before = await snapshot(service)

    run = repo.run

    async def broken(session: AsyncSession, writes: repo.Writes) -> None:
        await run(session, writes)  # the move's rows are written...
        raise RuntimeError("disk on fire")  # ...and the process fails before the commit

    patch = pytest.MonkeyPatch()
    patch.setattr(repo, "run", broken)
    reply = await service.act(ALICE, HERE, "tiny", "bid", {"amount": 3})
    patch.undo()
    assert not reply.ok and "nothing was changed" in private(reply)
    assert await snapshot(service) == before
    assert (await service.act(ALICE, HERE, "tiny", "bid", {"amount": 3})).ok


async def test_no_reminder_after_its_deadline_has_passed(service: Service, clock: Clock) -> None:
    """After downtime longer than the whole deadline, the default is played without a stale
    "still waiting for you" reminder."""
    await started(service, ALICE, BOB)
    clock.now += 30 * 3600
    texts = [o.message.whole for o in await service.run_deadlines()]
    assert not any("still waiting" in text for text in texts)
    assert any("ran out of time" in text for text in texts)


async def test_echoed_input_and_huge_ids_are_refused_in_words(service: Service) -> None:
    await started(service, ALICE, BOB)
    braces = await service.act(ALICE, HERE, "tiny", "{_}", {})
    assert not braces.ok and "{" not in private(braces) and "(_)" in private(braces)
    huge = await service.kick(ALICE, HERE, 2**70)
    assert not huge.ok and "whole number" in private(huge)


async def test_pictures_get_names_as_typed_and_messages_get_them_escaped(
    service: Service, monkeypatch: object
) -> None:
    """A picture cannot ping or render markdown: it shows the name as typed. Text escapes it."""
    import pytest

    from bot.service import drawing

    seen: list[list[str]] = []

    async def fake_draw(
        kind: str, view: object, names: list[str], lang: str, private: bool, **_: object
    ) -> bytes:
        seen.append(names)
        return b"\x89PNG"

    patch = pytest.MonkeyPatch()
    patch.setattr(drawing, "draw", fake_draw)
    patch.setattr(drawing, "drawable", lambda kind: True)  # the test game has no renderer
    service.render_images = True
    odd = Actor(7, "Bart_the_*XIV*\u202e")
    await service.new_game(odd, HERE, "tiny", {})
    await service.join(BOB, HERE)
    await service.start(odd, HERE)
    patch.undo()
    assert seen == [["Bart_the_*XIV*", "Bob"]]
    status = await service.status(BOB, HERE)
    assert status.private is not None
    assert "Bart\\_the\\_\\*XIV\\*" in markdown(status.private.text)  # Discord: escaped
    assert "Bart_the_*XIV*" in private(status)  # (plain: as typed, without the bidi mark)


async def test_the_channel_hears_of_private_news_but_not_what_it_is(service: Service) -> None:
    """An event only one other seat may read (a card drawn at the start of their turn) is
    announced as "private news" to the channel, without its content."""
    import pytest

    from rules.core import Event

    await started(service, ALICE, BOB)
    patch = pytest.MonkeyPatch()
    real = TINY.resolve

    def resolve(state, seat, action, now):
        return [*real(state, seat, action, now), Event("tiny.event.secret", {"card": "ace"}, to=1)]

    patch.setattr(TINY, "resolve", resolve)
    reply = await service.act(ALICE, HERE, "tiny", "bid", {"amount": 2})
    patch.undo()
    text = "\n".join(str(o.message.whole) for o in reply.public)
    assert "Bob: something only you may see happened" in text
    assert "ace" not in text and "ace" not in private(reply)


async def test_a_refusal_naming_a_seat_names_the_player(service: Service) -> None:
    import pytest

    from rules.core import RulesError

    await started(service, ALICE, BOB)
    patch = pytest.MonkeyPatch()

    def parse(*args: object) -> None:
        raise RulesError("core.error.illegal", command="x", owner_seat=1)

    patch.setattr(TINY, "parse", parse)
    from i18n import catalogue

    patch.setitem(catalogue("en"), "core.error.illegal", "That belongs to {owner_seat}.")
    reply = await service.act(ALICE, HERE, "tiny", "bid", {"amount": 1})
    patch.undo()
    assert private(reply) == "⚠️ That belongs to Bob."


async def test_history_comes_in_pages(service: Service) -> None:
    for _ in range(7):
        await started(service, ALICE, BOB, rounds=1)
        await service.act(ALICE, HERE, "tiny", "bid", {"amount": 3})
        await service.act(BOB, HERE, "tiny", "bid", {"amount": 1})
        await service.act(ALICE, HERE, "tiny", "take", {})
        await service.act(BOB, HERE, "tiny", "pass", {})
    first = (await service.history(BOB, HERE)).private
    assert first is not None and "Page 1 " in first.text
    assert str(first.narration).count("•") == 5
    second = (await service.history(BOB, HERE, 2)).private
    assert second is not None and str(second.narration).count("•") == 2
    assert "Page 2 " in str(second.text)
    assert [b.label for b in second.buttons][-1:] == ["◀ Newer"], "no older page: no ▶"
    beyond = (await service.history(BOB, HERE, 9)).private
    assert beyond is not None and "Page 2 " in beyond.text, "past the end: the last page"
    assert str(beyond.narration) == str(second.narration)


async def test_rules_with_no_game_named_say_which_games_there_are(service: Service) -> None:
    """Play-test: `/game rules` alone answered "There is no game called “”."."""
    said = private(await service.rules(ALICE, HERE, ""))
    assert "“”" not in said and "Which game's rules?" in said
    assert "Bad Bones (`badbones`)" in said and "Zombies vs Vampires (`zvv`)" in said
    dicho = private(await service.rules(CAROL, HERE, ""))
    assert "¿Las reglas de qué juego?" in dicho and "Zombis contra Vampiros (`zvv`)" in dicho


async def test_settings_asked_together_are_changed_all_or_none(service: Service) -> None:
    """`/game settings replay:on hold:on` in a channel with no game: the hold is refused (there
    is no game to hold), so the replay, asked in the same command, is not changed either."""
    from bot.store.models import ChannelRow
    from tests.conftest import MOD

    refused = await service.settings(MOD, HERE, replay=True, hold=True)
    assert not refused.ok and refused.public == []
    async with service.sessions() as session:
        channel = await session.get(ChannelRow, HERE.channel_id)
        assert channel is None or not channel.replay
    await started(service, ALICE, BOB)
    both = await service.settings(ALICE, HERE, replay=True, undo=False)
    assert both.ok
    assert "animation" in private(both) and "undo off" in private(both), private(both)
    async with service.sessions() as session:
        channel = await session.get(ChannelRow, HERE.channel_id)
        assert channel is not None and channel.replay


async def test_a_refused_game_option_is_named_as_the_player_types_it_and_says_what_it_takes(
    service: Service,
) -> None:
    """Play-test: `/zvv new size:10` (Discord lets 9–15 through) answered "(it takes:
    {allowed})", and a Spanish player read the option's English name ("la opción size")."""
    said = private(await service.new_game(ALICE, HERE, "zvv", {"size": 10}))
    assert "{" not in said and "}" not in said, said
    assert "size" in said and "9, 11, 13, 15" in said, said
    dicho = private(await service.new_game(CAROL, HERE, "zvv", {"size": 10}))
    assert "la opción tamaño" in dicho and "9, 11, 13, 15" in dicho, dicho
    dicho = private(await service.new_game(CAROL, HERE, "fuse", {"round_timer": -4}))
    assert "la opción temporizador" in dicho and "0–600" in dicho, dicho
