"""One legality: a move refused reads the same whichever way it came — typed (``parse``), pressed
as a button (its id made and read back as the service does, ``bot/service/buttons.py``) or
applied (``apply``) — because all three reach the game's one ``check``. A game whose typed
command said "You cannot do “hold” like that now" while ``apply`` named the reason fails here.

Every registered game is played at random from seeded deals; in positions along the way, each
seat tries moves that were legal somewhere in that game (another seat's, an earlier phase's)
but are not legal for it now, written as ``to_command`` writes them: as typed (its values as
given, and as text), and as a button of the current phase reads them back. The service itself is asked too, for a few such moves a game:
the private answer to the typed command and to the pressed button is the same refusal."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import pytest

from bot.service import Actor, Service
from bot.service import buttons as button_ids
from bot.service.buttons import decode
from bot.store import repository as repo
from rules.core import Action, CommandArgs, Game, RulesError, get_game
from rules.core.spec import command_key
from tests.conftest import HERE
from tests.support.refusals import said_in
from tests.support.registered import generic_games, playing
from tests.support.replies import private

# What it proves does not depend on the database: SQLite only (tests/conftest.py).
pytestmark = pytest.mark.any_database

SEEDS = 3
EVERY = 3  # a position looked at every EVERY steps of a game
TRIES = 4  # moves tried per seat and position
LANGS = ("en", "es")


@dataclass(frozen=True)
class Case:
    """A move ``seat`` may not make in ``state``, and how it is refused."""

    state: Any
    seat: int
    seats: int
    now: float
    action: Action
    command: str
    args: CommandArgs
    error: RulesError  # apply's


def _outcome(call: Any) -> RulesError | Action:
    try:
        return call()
    except RulesError as err:
        return err


def _said(error: RulesError) -> tuple[str, ...]:
    return (error.key, *(said_in(error, lang) for lang in LANGS))


def button_args(game: Game[Any], state: Any, command: str, args: CommandArgs) -> CommandArgs:
    """The arguments of a button of the current phase as the service reads them back from its
    id (``moves.clicked``: made by ``buttons.button_id``, read by ``buttons.decode``): text."""
    custom_id = button_ids.button_id(1, game.phase(state), command, args)
    assert custom_id is not None
    clicked = button_ids.decode(custom_id)
    assert clicked is not None and clicked.command == command
    return dict(clicked.args)


def agrees(game: Game[Any], case: Case, how: str, args: CommandArgs) -> bool:
    """``parse`` refuses ``case``'s move, given with ``args``, as ``apply`` does: the same key
    and the same words in every language. Where the words name another move here (ZvV: a wall
    of length 1, typed while the roll builds walls of 3, lacks a direction), the refusal is
    the one of the move they name, or about the words themselves, never the generic "You
    cannot do that like that now". Whether the move itself was compared."""
    state, seat, command = case.state, case.seat, case.command
    where = (game.name, game.phase(state), seat, case.action, how, args)
    got = _outcome(lambda: game.parse(command, args, state, seat))
    given = {k: v for k, v in args.items() if v is not None}
    read = _outcome(lambda: game.read(command, given, state, seat))
    if read == case.action:
        assert isinstance(got, RulesError), f"apply refuses what {how} accepts: {where}"
        assert _said(got) == _said(case.error), (where, got, case.error)
        return True
    if isinstance(read, RulesError):
        assert isinstance(got, RulesError) and got.key == read.key, (where, got, read)
    else:  # another move: as apply takes that one
        applied = _outcome(lambda: game.apply(state, seat, read, case.now)[1])
        if isinstance(applied, RulesError):
            assert isinstance(got, RulesError), (where, read, applied)
            assert got.key == applied.key, (where, got, applied)
        else:
            assert got == read, (where, got, read)
    assert not isinstance(got, RulesError) or got.key != "core.error.illegal", (where, got)
    return False


def cases(game: Game[Any], seats: int, seed: int) -> list[Case]:
    """Refused moves along one random game of ``seats`` from ``seed``."""
    rng = random.Random(seed)  # the test's own choices, not a game's
    state = game.new_game(seats, {}, seed)
    now = 1_000_000.0
    seen: dict[tuple[object, ...], Action] = {}  # every move legal somewhere in this game
    found: list[Case] = []
    step = 0
    while True:
        # Looked at often early, then more and more rarely (a long game is not looked at
        # hundreds of times), and at the end.
        if step % max(EVERY, step // 8) == 0 or game.is_over(state):
            legal = {s: game.legal_actions(state, s) for s in range(seats)}
            for actions in legal.values():
                for action in actions:
                    mapped = game.to_command(action)
                    if mapped is not None:
                        seen.setdefault(command_key(*mapped), action)
            for seat in range(seats):
                mine = {command_key(*m) for a in legal[seat] if (m := game.to_command(a))}
                others = [a for key, a in seen.items() if key not in mine]
                for action in rng.sample(others, min(TRIES, len(others))):
                    mapped = game.to_command(action)
                    assert mapped is not None
                    error = _outcome(lambda: game.apply(state, seat, action, now)[1])  # noqa: B023
                    if not isinstance(error, RulesError):
                        continue  # legal after all, though not listed (a preference)
                    command, args = mapped
                    found.append(Case(state, seat, seats, now, action, command, args, error))
        if game.is_over(state):
            return found
        seat = rng.choice(sorted(game.pending(state)))
        if found and found[-1].state is state:
            state = game.copy(state)  # the cases found here keep their position
        game.play(state, seat, rng.choice(game.legal_actions(state, seat)), now)
        now += 1.0
        step += 1


@pytest.mark.parametrize("name", generic_games())
def test_a_refused_move_reads_the_same_typed_pressed_or_applied(name: str) -> None:
    with playing(name):
        game = get_game(name)
        buttons = {c.name for c in game.commands if c.button}
        compared: set[str] = set()
        for seats in sorted({game.min_seats, game.max_seats}):
            for seed in range(SEEDS):
                for case in cases(game, seats, seed):
                    ways: dict[str, CommandArgs] = {
                        "typed": case.args,
                        "typed as text": {k: str(v) for k, v in case.args.items()},
                    }
                    if case.command in buttons:
                        ways["pressed"] = button_args(game, case.state, case.command, case.args)
                    for how, args in ways.items():
                        if agrees(game, case, how, args):
                            compared.add(case.error.key)
        # Not only "not your turn": the game's own reasons were met and agreed.
        assert any(not key.startswith("core.") for key in compared), compared


def service_cases(game: Game[Any]) -> list[Case]:
    """A few refused button moves of ``game`` with reasons of their own, one per reason."""
    buttons = {c.name for c in game.commands if c.button}
    chosen: dict[str, Case] = {}
    for seed in range(SEEDS):
        for case in cases(game, max(2, game.min_seats), seed):
            if case.command in buttons and not case.error.key.startswith("core."):
                chosen.setdefault(case.error.key, case)
    return list(chosen.values())[:3]


@pytest.mark.parametrize("name", generic_games())
async def test_the_service_refuses_a_typed_and_a_pressed_move_alike(
    name: str, service: Service
) -> None:
    """Through the service, as a player meets it: the private answer to the command typed and
    to the button pressed (of the current phase, so not merely out of date) is the refusal
    ``apply`` gives, in the player's words."""
    with playing(name):
        game = get_game(name)
        found = service_cases(game)
        assert found, f"{name}: no refused button move with a reason of its own"
        players = [Actor(10 + n, f"Player{n}") for n in range(max(2, game.min_seats))]
        for case in found:
            assert (await service.new_game(players[0], HERE, name, {})).ok
            for player in players[1:]:
                assert (await service.join(player, HERE)).ok
            assert (await service.start(players[0], HERE)).ok
            async with service.sessions() as session:
                row = await repo.open_game(session, HERE.channel_id)
                assert row is not None
                row.state = game.dump(case.state)
                row.phase = game.phase(case.state)
                game_id = row.id
                await session.commit()
            actor = players[case.seat]
            typed = await service.act(actor, HERE, name, case.command, case.args)
            custom_id = button_ids.button_id(
                game_id, game.phase(case.state), case.command, case.args
            )
            assert custom_id is not None
            press = await service.press(actor, HERE, decode(custom_id))
            assert not typed.ok and not press.ok, case
            expected = said_in(case.error, "en")
            assert private(typed) == private(press), (case, private(typed), private(press))
            assert expected.removeprefix("⚠️ ") in private(typed), (case, expected, private(typed))
            assert (await service.cancel(players[0], HERE)).ok
