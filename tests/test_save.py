"""A move's save: Core statements guarded by the game's version, and SQLite's one writer held
only while a move writes."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy.orm.exc import StaleDataError

from bot.service import Actor, Service
from bot.store import repository as repo
from tests.conftest import ALICE, BOB, HERE
from tests.support.tiny import TINY
from tests.test_service import started


async def test_a_save_over_a_newer_version_is_refused(service: Service) -> None:
    await started(service, ALICE, BOB)
    async with service.sessions() as late:
        stale = await repo.open_game(late, HERE.channel_id)
        assert stale is not None
        seen = stale.version
        # Another writer saves the game first.
        async with service.sessions() as first, first.begin():
            fresh = await repo.open_game(first, HERE.channel_id)
            assert fresh is not None
            await repo.save_game(first, fresh, seen, {"updated_at": 123.0})
            assert fresh.version == seen + 1
        with pytest.raises(StaleDataError):
            await repo.save_game(late, stale, seen, {"updated_at": 456.0})
        await late.rollback()
    async with service.sessions() as check:
        row = await repo.open_game(check, HERE.channel_id)
        assert row is not None and row.updated_at == 123.0 and row.version == seen + 1


async def test_a_stale_save_raises_where_it_is_run_and_nothing_of_it_stays(
    service: Service,
) -> None:
    """``repo.run`` writes at once, on SQLite as on PostgreSQL: a save over a version another
    writer replaced raises at ``run``, not later at the commit, and the transaction's earlier
    writes roll back with it."""
    await started(service, ALICE, BOB)
    async with service.sessions() as session:
        row = await repo.open_game(session, HERE.channel_id)
        assert row is not None
        game_id, seen = row.id, row.version
    async with service.sessions() as first, first.begin():
        fresh = await repo.open_game(first, HERE.channel_id)
        assert fresh is not None
        await repo.save_game(first, fresh, seen, {"updated_at": 123.0})
    ran: list[str] = []
    with pytest.raises(StaleDataError):
        async with service.sessions() as late, late.begin():
            stale = await repo.open_game(late, HERE.channel_id)
            assert stale is not None
            logged = repo.Writes().append_action(game_id, 999, 0, {"kind": "pass"}, 8.0, False)
            await repo.run(late, logged.save_game(stale, seen, {"updated_at": 456.0}))
            ran.append("after run")  # never: the stale save raised in ``run``
    assert ran == []
    async with service.sessions() as check:
        row = await repo.open_game(check, HERE.channel_id)
        assert row is not None and row.updated_at == 123.0 and row.version == seen + 1
        assert all(entry.seq != 999 for entry in await repo.action_log(check, game_id))


async def test_a_move_is_retried_when_another_writer_saved_first(
    service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A writer that slips in between a move's load and its save (another bot process) makes
    the save fail its version check; the move starts again from the newer game and counts."""
    if service.writers.lock is None:
        pytest.skip("PostgreSQL locks the game row at load (FOR UPDATE): nobody slips in")
    await started(service, ALICE, BOB)
    original = repo.run
    interfered: list[int] = []

    async def save_after_another(session: Any, writes: repo.Writes) -> None:
        if not interfered:
            async with service.sessions() as other, other.begin():
                theirs = await repo.open_game(other, HERE.channel_id)
                assert theirs is not None
                interfered.append(theirs.version)
                await repo.save_game(other, theirs, theirs.version, {"updated_at": 1.0})
        await original(session, writes)

    monkeypatch.setattr(repo, "run", save_after_another)
    reply = await service.act(ALICE, HERE, "tiny", "bid", {"amount": 3})
    assert reply.ok, reply
    async with service.sessions() as session:
        row = await repo.open_game(session, HERE.channel_id)
        assert row is not None and row.state is not None
        assert row.version == interfered[0] + 2  # theirs, then ours
        assert len(await repo.action_log(session, row.id)) == 1  # the move once, not twice


async def test_a_move_computes_without_holding_sqlites_writer(
    service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    await started(service, ALICE, BOB)
    writer = service.writers.lock
    if writer is None:
        pytest.skip("PostgreSQL takes concurrent writers: there is no writer to hold")
    held: list[bool] = []
    resolve = TINY.resolve

    def watched(state: Any, seat: int, action: Any, now: float) -> Any:
        held.append(writer.locked())
        return resolve(state, seat, action, now)

    monkeypatch.setattr(TINY, "resolve", watched)
    assert (await service.act(ALICE, HERE, "tiny", "bid", {"amount": 3})).ok
    assert held == [False]  # the engine ran while other games could write
    assert not writer.locked()  # and the writer was given back after the commit


async def test_two_language_choices_at_once_both_succeed(service: Service) -> None:
    """Two ``/game language`` of one new player at once: before the upsert both read "no row"
    and both inserted, and the second raised IntegrityError out of the service."""
    import asyncio

    for user in range(50, 60):  # new players each time: the race is on the first choice
        actor = Actor(user, f"P{user}")
        first, second = await asyncio.gather(
            service.language(actor, HERE, "es"), service.language(actor, HERE, "en")
        )
        assert first.ok and second.ok
        async with service.sessions() as session:
            assert await repo.player_language(session, user) in ("es", "en")
    async with service.sessions() as session, session.begin():
        await repo.set_player_language(session, 50, None)  # "auto" again: a second upsert
    async with service.sessions() as session:
        assert await repo.player_language(session, 50) is None


@pytest.mark.parametrize("name", ["Ali\x00ce", "\x00Alice\x07", "Al\x1bice\x7f", "Alice\u0085"])
async def test_control_characters_are_stripped_from_stored_names(
    service: Service, name: str
) -> None:
    """PostgreSQL refuses a NUL in text (the whole save would fail); the store drops control
    characters from a display name before writing it."""
    assert (await service.new_game(Actor(7, name), HERE, "tiny", {})).ok
    assert (await service.join(Actor(8, "Bob\x00\x00"), HERE)).ok
    async with service.sessions() as session:
        row = await repo.open_game(session, HERE.channel_id)
        assert row is not None
        assert [s.display_name for s in row.seats] == ["Alice", "Bob"]
