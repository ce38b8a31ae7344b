"""The computer's levels at the table: ``/game addbot level:hard``, and the level the autopilot
plays an absent person's seat at (``/game settings autopilot:<level>``), through the service
and the console."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from bot.console import Console, ConsoleClock
from bot.service import Actor, Service, computer, thinking
from bot.service.match import Match
from bot.store import repository as repo
from bot.store.models import GameRow
from rules.core import get_game
from rules.core.policy import choose
from tests.conftest import ALICE, BOB, HERE, Clock
from tests.support.replies import private
from tests.support.rows import game_at

# What it proves does not depend on the database: SQLite only (tests/conftest.py).
pytestmark = pytest.mark.any_database


@pytest.fixture
def levels_asked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The level of every decision the service has the computer think out."""
    asked: list[str] = []

    def spy(engine: Any, state: Any, seat: int, level: str = "normal", **kw: Any) -> Any:
        asked.append(level)
        return choose(engine, state, seat, level, **kw)

    monkeypatch.setattr(thinking, "choose", spy)
    return asked


async def test_the_host_seats_a_hard_computer_player(service: Service) -> None:
    assert (await service.new_game(ALICE, HERE, "farkle", {})).ok
    added = await service.add_bot(ALICE, HERE, "hard")
    assert added.ok and "🤖 Hard 1 takes a seat" in private(added)
    # The level's name in either language is understood, accents or not.
    spanish = await service.add_bot(ALICE, HERE, "dificil")
    assert spanish.ok and "🤖 Hard 2" in private(spanish)
    refused = await service.add_bot(ALICE, HERE, "expert")
    assert not refused.ok and "Choose a level: easy, normal, hard" in private(refused)
    # Play-test: a Spanish host read "Elige un nivel: easy, normal, hard".
    alicia = Actor(ALICE.user_id, ALICE.display_name, locale="es")  # the host, in Spanish
    rehusado = await service.add_bot(alicia, HERE, "experto")
    assert "Elige un nivel: fácil, normal, difícil." in private(rehusado)
    assert [s.computer for s in (await game_at(service, HERE)).seats] == [None, "hard", "hard"]


async def test_the_host_sets_the_autopilot_level_and_an_absent_seat_plays_at_it(
    service: Service, clock: Clock, levels_asked: list[str]
) -> None:
    assert (await service.new_game(ALICE, HERE, "farkle", {})).ok
    assert (await service.join(BOB, HERE)).ok
    shown = private(await service.settings(BOB, HERE))
    assert "plays an absent player's seat at: Normal" in shown, "normal by default"
    assert not (await service.settings(BOB, HERE, autopilot="hard")).ok, "the host's setting"
    wrong = await service.settings(ALICE, HERE, autopilot="grandmaster")
    assert not wrong.ok and "Choose a level" in private(wrong)
    assert "autopilot" not in (await game_at(service, HERE)).settings, "a refusal changes nothing"
    chosen = await service.settings(ALICE, HERE, autopilot="Hard", misses=1)
    assert "plays an absent player's seat at: Hard" in private(chosen)
    assert (await game_at(service, HERE)).settings["autopilot"] == "hard", "stored with the game"
    assert (await service.start(ALICE, HERE)).ok

    row = await game_at(service, HERE)
    match = Match.of(row)
    (seat,) = match.engine.pending(match.state)
    expected = choose(match.engine, match.state, seat, "hard")
    clock.now += 25 * 3600  # the deadline passes: the computer plays the seat, at hard
    await service.run_deadlines()
    assert levels_asked and set(levels_asked) == {"hard"}
    async with service.sessions() as session:
        log = await repo.action_log(session, row.id)
    assert log[0].seat == seat and log[0].by_default
    assert match.engine.action_from_json(log[0].action) == expected


async def test_the_autopilot_level_in_spanish(service: Service) -> None:
    assert (await service.new_game(ALICE, HERE, "farkle", {})).ok
    spanish = ALICE.__class__(ALICE.user_id, ALICE.display_name, "es")
    said = private(await service.settings(spanish, HERE, autopilot="difícil"))
    assert "Nivel al que la computadora juega el puesto de un ausente: Difícil" in said


async def test_addbot_hard_and_the_autopilot_setting_in_the_console(tmp_path: Path) -> None:
    clock = ConsoleClock()
    service = await Service.open(
        f"sqlite+aiosqlite:///{tmp_path / 'c.db'}", clock=clock, render=False, computer_delay=0.0
    )
    out = io.StringIO()
    console = Console(service, clock, tmp_path / "img", out)
    try:
        await console.line("@alice /game new farkle")
        await console.line("@alice /game addbot hard")
        await console.line("@alice /game settings autopilot:hard")
        await console.line("@alice /game start")
        text = out.getvalue()
        assert "👥 2/5: alice, 🤖 Hard 1" in text
        assert "plays an absent player's seat at: Hard" in text
        async with service.sessions() as session:
            row = await repo.open_game(session, 1)
        assert row is not None and row.settings["autopilot"] == "hard"
        assert [s.computer for s in row.seats] == [None, "hard"]
        # The computer's turns are played at once in the console: the person is awaited.
        assert set(Match.of(row).engine.pending(Match.of(row).state)) == {0}
    finally:
        await service.close()


@pytest.mark.parametrize("stale", [False, True], ids=["same game", "game changed"])
async def test_a_deadline_plays_the_move_thought_out_before_it_unless_the_game_changed(
    service: Service, clock: Clock, monkeypatch: pytest.MonkeyPatch, stale: bool
) -> None:
    # The move is thought out before the deadline's transaction (no lock held while a search
    # runs); the transaction plays it only if the game is still the one it was thought for.
    assert (await service.new_game(ALICE, HERE, "farkle", {})).ok
    assert (await service.join(BOB, HERE)).ok
    assert (await service.start(ALICE, HERE)).ok
    row = await game_at(service, HERE)
    match = Match.of(row)
    (seat,) = match.engine.pending(match.state)
    fresh = choose(match.engine, match.state, seat, "normal")
    other = next(a for a in match.engine.legal_actions(match.state, seat) if a != fresh)

    async def thought_out(row: GameRow, seat: int, phase: str) -> computer.Thought:
        version = row.version - 1 if stale else row.version
        return computer.Thought(version, seat, "normal", other)

    monkeypatch.setattr(computer, "think", thought_out)
    clock.now += 25 * 3600
    await service.run_deadlines()
    async with service.sessions() as session:
        log = await repo.action_log(session, row.id)
    played = match.engine.action_from_json(log[0].action)
    assert played == (fresh if stale else other)


async def test_a_hard_decision_thought_out_in_the_worker_process_is_the_one_made_here(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The worker gets the position as its dump and searches with dice seeded by that dump:
    # the same move as here, so a replay (or a bot without workers) plays the same game.
    monkeypatch.setenv("RENDER_WORKERS", "1")
    monkeypatch.setattr(thinking, "_pool", None)
    engine = get_game("farkle")
    state = engine.new_game(2, {}, 7)
    seats = []
    for _ in range(12):  # a few steps in: rolls, keeps, roll-or-stop
        seat = next(iter(engine.pending(state)))
        seats.append((engine.copy(state), seat))
        engine.play(state, seat, choose(engine, state, seat, "normal"), 0.0)
    try:
        for position, seat in seats:
            here = choose(engine, position, seat, "hard")
            assert await thinking.decide(engine, position, seat, "hard") == here
    finally:
        pool = thinking._pool
        thinking.shutdown()
    assert pool is not None, "a worker process thought"
