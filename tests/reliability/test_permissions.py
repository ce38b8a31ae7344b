"""Who may do what: one table, every lobby command and the game commands, every kind of user.

The users: the host (seat 0), another seated player (seat 1), a spectator in the channel, a
member with Manage Channels (not seated), and a user in another server (another guild and
channel, where there is no game). Each row runs on a fresh game in its own channel; a refusal
must leave that game exactly as it was. Runs on SQLite and PostgreSQL (the ``service``
fixture).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.service import Actor, Place, Reply, Service
from bot.service.buttons import decode
from bot.store import repository as repo
from rules.core import get_game
from tests.reliability.common import check_refusal_text, game_params, snapshot
from tests.reliability.driver import GameSpec, actor_for, seat_count, setup_games
from tests.support.commands import command_for

# What it proves does not depend on the database: SQLite only (tests/conftest.py).
pytestmark = pytest.mark.any_database

WHO = ("host", "seated", "spectator", "manager", "elsewhere")
Y, N = True, False

# command → allowed for (host, seated, spectator, manager, elsewhere), in a lobby / mid-game.
LOBBY: dict[str, tuple[bool, ...]] = {
    "new": (N, N, N, N, Y),  # the channel already has a game; elsewhere is a free channel
    "join": (N, N, Y, Y, N),
    "leave": (Y, Y, N, N, N),
    "start": (Y, N, N, N, N),
    "cancel": (Y, N, N, Y, N),
    "kick": (Y, N, N, Y, N),
    "settings": (Y, N, N, Y, N),
    "status": (Y, Y, Y, Y, Y),
    "board": (N, N, N, N, N),  # nothing to show before the start
    "history": (Y, Y, Y, Y, Y),
    "rules": (Y, Y, Y, Y, Y),
    "language": (Y, Y, Y, Y, Y),
    "bid": (N, N, N, N, N),
}
ACTIVE: dict[str, tuple[bool, ...]] = {
    "new": (N, N, N, N, Y),
    "join": (N, N, N, N, N),
    "leave": (Y, Y, N, N, N),
    "start": (N, N, N, N, N),
    "cancel": (Y, N, N, Y, N),
    "kick": (Y, N, N, Y, N),
    "settings": (Y, N, N, Y, N),
    "status": (Y, Y, Y, Y, Y),
    "board": (Y, Y, Y, Y, N),
    "history": (Y, Y, Y, Y, Y),
    "rules": (Y, Y, Y, Y, Y),
    "language": (Y, Y, Y, Y, Y),
    # The turn-based phase: it is seat 0's turn to take.
    "take": (Y, N, N, N, N),
    "press take": (Y, N, N, N, N),
    "bid": (N, N, N, N, N),  # out of phase for everyone
}


def users(channel: int) -> dict[str, tuple[Actor, Place]]:
    here = Place(channel, 1)
    return {
        "host": (actor_for(channel, 0), here),
        "seated": (actor_for(channel, 1), here),
        "spectator": (Actor(7, "Spectator"), here),
        "manager": (Actor(8, "Mod", can_manage=True), here),
        "elsewhere": (Actor(9, "Stranger", can_manage=True), Place(90_000 + channel, 2)),
    }


def call(
    service: Service, command: str, actor: Actor, place: Place, channel: int, take_button: str
) -> Awaitable[Reply]:
    calls: dict[str, Callable[[], Awaitable[Reply]]] = {
        "new": lambda: service.new_game(actor, place, "tiny", {}),
        "join": lambda: service.join(actor, place),
        "leave": lambda: service.leave(actor, place),
        "start": lambda: service.start(actor, place),
        "cancel": lambda: service.cancel(actor, place),
        "kick": lambda: service.kick(actor, place, actor_for(channel, 1).user_id),
        "settings": lambda: service.settings(actor, place, deadline_minutes=180),
        "status": lambda: service.status(actor, place),
        "board": lambda: service.board(actor, place),
        "history": lambda: service.history(actor, place),
        "rules": lambda: service.rules(actor, place, "tiny"),
        "language": lambda: service.language(actor, place, "auto"),
        "bid": lambda: service.act(actor, place, "tiny", "bid", {"amount": 2}),
        "take": lambda: service.act(actor, place, "tiny", "take", {}),
        "press take": lambda: service.press(actor, place, decode(take_button)),
    }
    return calls[command]()


async def fresh(service: Service, channel: int, active: bool) -> tuple[int, str]:
    """A tiny game with the host and one player; mid-game: both bid, seat 0 is to take.
    Returns the game id and the custom_id of the take button."""
    host, seated = actor_for(channel, 0), actor_for(channel, 1)
    place = Place(channel, 1)
    assert (await service.new_game(host, place, "tiny", {})).ok
    assert (await service.join(seated, place)).ok
    take = ""
    if active:
        assert (await service.start(host, place)).ok
        assert (await service.act(host, place, "tiny", "bid", {"amount": 3})).ok
        reply = await service.act(seated, place, "tiny", "bid", {"amount": 1})
        (announce,) = [o for o in reply.public if o.message.buttons]
        take = next(b.custom_id for b in announce.message.buttons if ":take:" in b.custom_id)
    async with service.sessions() as session:
        row = await repo.open_game(session, channel)
        assert row is not None
        return row.id, take


@pytest.mark.parametrize("stage", ["lobby", "active"])
async def test_who_may_do_what(service: Service, stage: str) -> None:
    table = LOBBY if stage == "lobby" else ACTIVE
    wrong: list[str] = []
    channel = 1000
    for command, allowed in table.items():
        for who, ok in zip(WHO, allowed, strict=True):
            channel += 1
            game_id, take = await fresh(service, channel, stage == "active")
            before = await snapshot(service, game_id)
            actor, place = users(channel)[who]
            reply = await call(service, command, actor, place, channel, take)
            if reply.ok != ok:
                text = str(reply.private.text) if reply.private else ""
                wrong.append(f"{stage} {command} by {who}: ok={reply.ok} ({text[:80]})")
                continue
            if not reply.ok:
                check_refusal_text(reply)
                assert await snapshot(service, game_id) == before, f"{command} by {who}"
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("kind", game_params())
async def test_game_commands_only_for_the_pending_seat(service: Service, kind: str) -> None:
    """For every game: a pending seat's legal command works for that seat only; a spectator,
    a manager and a user elsewhere are refused, and so is a seated player for whom it is not
    legal (a game may let a seat that is not pending act, e.g. anyone draws in Fuse)."""
    engine = get_game(kind)
    seats = seat_count(kind)
    channel = 2000
    game_id = (await setup_games(service, [GameSpec(kind, seats, channel)]))[channel]
    async with service.sessions() as session:
        row = await repo.game_by_id(session, game_id)
        assert row is not None and row.state is not None
    state: Any = engine.load(row.state)
    pending = engine.pending(state)
    seat = min(pending)
    action = next(a for a in engine.legal_actions(state, seat) if engine.to_command(a))
    command, args = command_for(engine, action)
    who = users(channel)
    others = [who["spectator"], who["manager"], who["elsewhere"]]
    others += [
        (actor_for(channel, s), Place(channel, 1))
        for s in range(seats)
        if action not in engine.legal_actions(state, s)
    ]
    before = await snapshot(service, game_id)
    for actor, place in others:
        reply = await service.act(actor, place, kind, command, args)
        assert not reply.ok, f"{kind}: {actor.display_name} may not {command} {args}"
        check_refusal_text(reply)
        assert await snapshot(service, game_id) == before
    reply = await service.act(actor_for(channel, seat), Place(channel, 1), kind, command, args)
    assert reply.ok, reply.private
