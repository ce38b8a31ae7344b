"""A turn keeps one deadline: the steps of one turn (Zombies vs Vampires: roll, then move, then
a second step) share the deadline the turn started with, so an absent player costs the table
one deadline per turn, not one per step."""

from __future__ import annotations

from bot.service import Actor, Place, Service
from bot.store import repository as repo
from tests.conftest import ALICE, BOB, Clock

HERE = Place(300, 1)
HOUR = 3600


async def _zvv(service: Service) -> tuple[int, Actor]:
    """A started game with a 60-minute deadline; the seat that plays first, and its player (the
    seed, and so who begins, is new each game)."""
    await service.new_game(ALICE, HERE, "zvv", {})
    await service.join(BOB, HERE)
    await service.start(ALICE, HERE)
    await service.settings(ALICE, HERE, deadline_minutes=60, reminder_minutes=10)
    _, due, _ = await _state(service)
    (first,) = {seat for seat, _ in due}
    return first, (ALICE, BOB)[first]


async def _state(service: Service) -> tuple[int, dict[tuple[int, str], float], dict[str, object]]:
    async with service.sessions() as session:
        row = await repo.open_game(session, HERE.channel_id)
        assert row is not None and row.state is not None
        due = {key: d.due_at for key, d in (await repo.deadlines_of(session, row.id)).items()}
        log = await repo.action_log(session, row.id)
        return len(log), due, row.state


async def _run_until_quiet(service: Service) -> int:
    """What the deadline loop does: run again while anything came due (at most 20 rounds)."""
    rounds = 0
    while rounds < 20 and await service.run_deadlines():
        rounds += 1
    return rounds


async def test_an_absent_players_whole_turn_costs_one_deadline(
    service: Service, clock: Clock
) -> None:
    first, _ = await _zvv(service)
    _, due, state = await _state(service)
    turn_deadline = due[(first, "default")]
    clock.now = turn_deadline + 1  # one deadline passes, and only one
    await _run_until_quiet(service)
    # The computer plays the rest of that turn, each step a moment after the last.
    for _ in range(5):
        _, due, state = await _state(service)
        if state["turns"] == 1:
            break
        assert set(due) == {(first, "computer")}, "no new deadline for the same turn"
        clock.now += service.computer_delay
        await _run_until_quiet(service)
    moves, due, state = await _state(service)
    assert state["turns"] == 1, "the first player's whole turn was played at its one deadline"
    assert moves >= 2, "the roll and at least one more step, all by the computer"
    other = 1 - first
    assert {seat for seat, _ in due} == {other}, "now the other is awaited, with a deadline"
    assert due[(other, "default")] == clock.now + HOUR


async def test_a_step_taken_at_the_last_minute_leaves_a_little_time_for_the_next(
    service: Service, clock: Clock
) -> None:
    first, player = await _zvv(service)
    _, due, _ = await _state(service)
    turn_deadline = due[(first, "default")]
    clock.now = turn_deadline - 60  # the first player rolls with a minute left of the turn
    assert (await service.act(player, HERE, "zvv", "roll", {})).ok
    _, due, state = await _state(service)
    assert state["turns"] == 0 and (first, "default") in due
    assert due[(first, "default")] == clock.now + 5 * 60, "five minutes to move, not one"
    clock.now += 4 * 60
    assert await service.run_deadlines() == []


async def test_a_step_taken_early_keeps_the_turns_deadline(service: Service, clock: Clock) -> None:
    first, player = await _zvv(service)
    _, due, _ = await _state(service)
    turn_deadline = due[(first, "default")]
    clock.now += 10 * 60
    assert (await service.act(player, HERE, "zvv", "roll", {})).ok
    _, due, _ = await _state(service)
    assert due[(first, "default")] == turn_deadline, "the move is due when the turn is"
    assert due[(first, "reminder")] == turn_deadline - 10 * 60, "and reminded once, as planned"
